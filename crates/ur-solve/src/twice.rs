//! The numbering of a path that visits squares twice (murray, skiriuk).
//!
//! On these paths a side has two steps on each of `a2..g2`, its first and
//! its second visit, so a square holds one of up to five things: nothing,
//! my piece at either of my steps there, or theirs at either of theirs.
//! The dense layout of [`Index`](crate::Index), one base-3 digit a shared
//! cell, does not fit that, and one mixed-radix number over every square
//! would be far too large a table (5^7 × 3^13 arrangements on murray's
//! path). So the squares are cut into at most [`REGIONS_MAX`] *regions* of
//! at most [`RADIX_MAX`] arrangements each, a region's *arrangement* being
//! the mixed-radix number of its squares' contents, and a state is numbered
//! region by region:
//!
//! ```text
//! index = layer start + Σ_j starts_j[left_j][α_j]
//! ```
//!
//! where `α_j` is the arrangement of region `j`, `left_j` the pieces each
//! side has left for regions `j` onward (the pieces not home, less those
//! the earlier regions hold), and `starts_j[left][α]` the number of ways to
//! fill regions `j` onward with at most `left` pieces a side and region `j`
//! before `α`. An arrangement that needs more pieces than are left adds
//! nothing, so the numbering has no gaps: a layer's states are exactly
//! `0..starts_0[left_0][radix_0]`.
//!
//! Rank is eight lookups in tables of 128 entries (the arrangements of all
//! regions at once, packed sixteen bits a region, summed seven steps of a
//! mask at a time) and one lookup a region; unrank is one binary search a
//! region. Every table fits the caches (under 2 MB for seven pieces).
//!
//! Moves on these paths are generated on the step masks as on the others,
//! with two more tables read seven steps at a time: which of my steps are
//! on a square I hold (a piece is blocked by its own square at either
//! visit) and which of my steps are on a square they hold (a capture at
//! either of their visits).
//!
//! The solver walks these layers in another order than the index's (see
//! [`Twice::blocks`]): by my steps, then theirs, highest first, which
//! puts most successors of a state before it.

use dice_core::Side;
use royal_ur::{Path, Square, Variant};

use crate::error::{SolveError, check_size};
use crate::index::{Block, State};

/// The most regions: a packed code holds sixteen bits of each.
const REGIONS_MAX: usize = 4;
/// The most arrangements of one region, which keeps its table of starts
/// small (8 × 8 rows of 4,097 entries for seven pieces).
const RADIX_MAX: u32 = 1 << 12;
/// Bits of a packed code a region's arrangement takes.
const FIELD_BITS: u32 = 16;
/// Steps are the bits 1..=28 of a mask, read seven at a time.
const CHUNKS: usize = 4;
const CHUNK_BITS: u32 = 7;
const CHUNK_VALUES: usize = 1 << CHUNK_BITS;
/// Bits of a step mask (steps 1..=27, bit 0 unused).
const STEP_BITS: usize = 32;

/// A value per step, combined over the set bits of a step mask seven bits
/// at a time: four lookups instead of a loop over the pieces.
#[derive(Clone)]
struct ByChunk<T>([[T; CHUNK_VALUES]; CHUNKS]);

impl<T: Copy + Default> ByChunk<T> {
    /// The table of `per_step`, combining the values of the steps of each
    /// chunk's bits with `combine`.
    fn new(per_step: &[T; STEP_BITS], combine: impl Fn(T, T) -> T) -> ByChunk<T> {
        let mut table = [[T::default(); CHUNK_VALUES]; CHUNKS];
        for (chunk, row) in table.iter_mut().enumerate() {
            for (bits, slot) in row.iter_mut().enumerate() {
                *slot = (0..CHUNK_BITS as usize)
                    .filter(|b| bits & (1 << b) != 0)
                    .filter_map(|b| per_step.get(1 + chunk * CHUNK_BITS as usize + b))
                    .fold(T::default(), |acc, &v| combine(acc, v));
            }
        }
        ByChunk(table)
    }

    /// The four chunks' values of `mask`, combined with `combine`.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; each chunk is masked to seven bits, below the 128 entries of a row, \
                  and the rows are the four chunks"
    )]
    fn combined(&self, mask: u32, combine: impl Fn(T, T) -> T) -> T {
        let at = |chunk: usize| {
            self.0[chunk][((mask >> (1 + CHUNK_BITS * chunk as u32)) as usize) & (CHUNK_VALUES - 1)]
        };
        combine(combine(at(0), at(1)), combine(at(2), at(3)))
    }
}

impl ByChunk<u64> {
    #[inline(always)]
    fn sum(&self, mask: u32) -> u64 {
        self.combined(mask, u64::wrapping_add)
    }
}

impl ByChunk<u32> {
    #[inline(always)]
    fn union(&self, mask: u32) -> u32 {
        self.combined(mask, |a, b| a | b)
    }
}

/// One region: some squares, their arrangements and where each starts.
#[derive(Clone, Debug)]
struct Region {
    /// How many arrangements the region's squares take.
    radix: usize,
    /// My steps and their steps on the region's squares.
    my_steps: u32,
    their_steps: u32,
    /// For each (my pieces left, their pieces left), row
    /// `mine * (pieces + 1) + theirs`: where each arrangement's states
    /// start, and the row's total at the back (`radix + 1` entries a row).
    starts: Vec<u32>,
    /// Each arrangement as (my steps, their steps).
    decode: Vec<(u32, u32)>,
}

impl Region {
    /// The row of starts for the pieces left.
    #[inline(always)]
    fn row(&self, pieces: u8, (mine, theirs): (u8, u8)) -> Option<&[u32]> {
        let width = self.radix + 1;
        let row = usize::from(mine) * (usize::from(pieces) + 1) + usize::from(theirs);
        self.starts.get(row * width..(row + 1) * width)
    }
}

impl Region {
    /// The region of a run of squares, its starts not yet filled.
    fn new(run: &[(Square, Contents)]) -> Region {
        let radix = run.iter().map(|(_, c)| c.radix() as usize).product();
        let decode = (0..radix)
            .map(|mut arrangement| {
                let (mut mine, mut theirs) = (0u32, 0u32);
                for &(_, contents) in run {
                    let r = contents.radix() as usize;
                    let digit = (arrangement % r) as u32;
                    arrangement /= r;
                    match contents.digits().find(|d| d.0 == digit) {
                        Some((_, Side::Light, step)) => mine |= 1 << step,
                        Some((_, Side::Dark, step)) => theirs |= 1 << step,
                        None => {}
                    }
                }
                (mine, theirs)
            })
            .collect();
        let (my_steps, their_steps) = run.iter().flat_map(|(_, c)| c.digits()).fold(
            (0u32, 0u32),
            |(m, t), (_, side, step)| match side {
                Side::Light => (m | 1 << step, t),
                Side::Dark => (m, t | 1 << step),
            },
        );
        Region {
            radix,
            my_steps,
            their_steps,
            starts: Vec::new(),
            decode,
        }
    }
}

/// The squares either side's path visits, in the order of my path (then of
/// theirs for the squares only they visit), cut into runs whose
/// arrangements number at most [`RADIX_MAX`].
fn regions_of(path: Path) -> Vec<Vec<(Square, Contents)>> {
    let mut squares: Vec<(Square, Contents)> = path
        .board()
        .squares()
        .iter()
        .map(|&sq| (sq, Contents::of(path, sq)))
        .filter(|(_, c)| c.radix() > 1)
        .collect();
    squares.sort_by_key(|(_, c)| (c.mine[0].unwrap_or(u8::MAX), c.theirs[0]));
    let mut runs: Vec<Vec<(Square, Contents)>> = Vec::new();
    let mut radix = 1;
    for (sq, contents) in squares {
        if runs.is_empty() || radix * contents.radix() > RADIX_MAX {
            runs.push(Vec::new());
            radix = 1;
        }
        if let Some(run) = runs.last_mut() {
            run.push((sq, contents));
        }
        radix *= contents.radix();
    }
    runs
}

/// Fills every region's starts, from the last region back, and returns
/// the ways to fill all the regions with at most `m` of my pieces and `t`
/// of theirs, at `m * (pieces + 1) + t`. The counts are below 2^30 (the
/// caller checked the rule set's size), so the starts fit 32 bits.
fn fill_starts(regions: &mut [Region], pieces: u8) -> Vec<u64> {
    let p1 = usize::from(pieces) + 1;
    // The ways to fill the regions after the current one: 1 after the last.
    let mut ways = vec![1u64; p1 * p1];
    for region in regions.iter_mut().rev() {
        let mut next = vec![0u64; p1 * p1];
        let mut starts = Vec::with_capacity(p1 * p1 * (region.radix + 1));
        for (row, total) in next.iter_mut().enumerate() {
            let (mine_left, theirs_left) = (row / p1, row % p1);
            let mut run = 0u64;
            for &(mine, theirs) in &region.decode {
                starts.push(run as u32);
                let rest = (mine_left.checked_sub(mine.count_ones() as usize))
                    .zip(theirs_left.checked_sub(theirs.count_ones() as usize));
                if let Some((m, t)) = rest {
                    run += ways.get(m * p1 + t).copied().unwrap_or(0);
                }
            }
            starts.push(run as u32);
            *total = run;
        }
        region.starts = starts;
        ways = next;
    }
    ways
}

/// What a square can hold: my steps there and their steps there (one or
/// two each, or none when the side's path does not visit it).
#[derive(Clone, Copy, Debug)]
struct Contents {
    mine: [Option<u8>; 2],
    theirs: [Option<u8>; 2],
}

impl Contents {
    fn of(path: Path, square: Square) -> Contents {
        let steps = |side| {
            [
                path.step_of(side, square),
                path.second_step_of(side, square),
            ]
        };
        Contents {
            mine: steps(Side::Light),
            theirs: steps(Side::Dark),
        }
    }

    /// The digit of each thing the square can hold, after 0 for nothing:
    /// my steps first, then theirs.
    fn digits(self) -> impl Iterator<Item = (u32, Side, u8)> {
        let mine = self.mine.into_iter().flatten().map(|s| (Side::Light, s));
        let theirs = self.theirs.into_iter().flatten().map(|s| (Side::Dark, s));
        mine.chain(theirs)
            .enumerate()
            .map(|(d, (side, step))| (d as u32 + 1, side, step))
    }

    /// How many things the square can hold, nothing included.
    fn radix(self) -> u32 {
        1 + self.digits().count() as u32
    }
}

/// The numbering of the states of a rule set on a path that visits
/// squares twice, and the tables its moves are generated with (see the
/// module documentation).
#[derive(Clone)]
pub(crate) struct Twice {
    pieces: u8,
    /// The steps of each side's path on the board, as a mask.
    board: u32,
    regions: Vec<Region>,
    /// My steps → every region's arrangement of my pieces, packed.
    mine_code: ByChunk<u64>,
    /// Their steps → every region's arrangement of their pieces, packed.
    theirs_code: ByChunk<u64>,
    /// My steps → my steps on the squares they stand on (both visits).
    own_on_mine: ByChunk<u32>,
    /// Their steps → my steps on the squares they stand on.
    theirs_on_mine: ByChunk<u32>,
    /// My step → their steps on its square (0 where they have none).
    their_steps_at: [u32; STEP_BITS],
    /// Step of each side's path → the bit of its square.
    cell_of_step: [[u32; STEP_BITS]; 2],
    /// Each side's steps with their squares, ascending.
    steps: [Vec<(u8, u32)>; 2],
    /// Their squares visited once, and twice, as masks of cells.
    their_once: u32,
    their_twice: u32,
    /// First index of each layer, and the count at the back.
    layer_start: Vec<u64>,
}

impl std::fmt::Debug for Twice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Twice")
            .field("pieces", &self.pieces)
            .field(
                "radices",
                &self.regions.iter().map(|r| r.radix).collect::<Vec<_>>(),
            )
            .field("states", &self.layer_start.last())
            .finish_non_exhaustive()
    }
}

impl Twice {
    /// Numbers the states of `variant` (its path visits squares twice).
    ///
    /// # Errors
    ///
    /// [`SolveError::TooBig`] for a rule set with more states than a
    /// successor code holds (2^30; counted by
    /// [`royal_ur::count_positions`] before anything is built);
    /// [`SolveError::Rules`] for a board whose squares do not fit
    /// [`REGIONS_MAX`] regions (no board of `royal-ur` is such).
    pub(crate) fn new(variant: &Variant) -> Result<Twice, SolveError> {
        check_size(variant, royal_ur::count_positions(variant) / 2)?;
        let path = variant.path();
        let pieces = variant.pieces();
        let runs = regions_of(path);
        if runs.len() > REGIONS_MAX {
            return Err(SolveError::Rules {
                rules: variant.to_string(),
                reason: format!(
                    "the {path} path's squares take {} regions of at most {RADIX_MAX} \
                     arrangements, more than {REGIONS_MAX}",
                    runs.len()
                ),
            });
        }
        // Each step's part of its region's arrangement (a digit times the
        // square's weight, in the region's sixteen bits) and its square.
        let mut code = [[0u64; STEP_BITS]; 2];
        let mut cell_of_step = [[0u32; STEP_BITS]; 2];
        for (j, run) in runs.iter().enumerate() {
            let mut weight = 1u32;
            for &(sq, contents) in run {
                for (digit, side, step) in contents.digits() {
                    let s = usize::from(step);
                    let slot = code.get_mut(side.index()).and_then(|row| row.get_mut(s));
                    let cell = cell_of_step
                        .get_mut(side.index())
                        .and_then(|row| row.get_mut(s));
                    if let (Some(c), Some(cell)) = (slot, cell) {
                        *c = u64::from(weight * digit) << (FIELD_BITS * j as u32);
                        *cell = 1 << sq.cell();
                    }
                }
                weight *= contents.radix();
            }
        }
        let mut regions: Vec<Region> = runs.iter().map(|run| Region::new(run)).collect();
        let ways = fill_starts(&mut regions, pieces);
        // Layer (a, b) holds the ways to place at most p − a and p − b.
        let p1 = usize::from(pieces) + 1;
        let mut layer_start = Vec::with_capacity(p1 * p1 + 1);
        let mut total = 0u64;
        for my_home in 0..p1 {
            for their_home in 0..p1 {
                layer_start.push(total);
                let left = (p1 - 1 - my_home) * p1 + (p1 - 1 - their_home);
                total += ways.get(left).copied().unwrap_or(0);
            }
        }
        layer_start.push(total);
        let [mine_code, theirs_code] =
            code.map(|per_step| ByChunk::new(&per_step, u64::wrapping_add));
        // Which steps of `side`'s path are on the square of each step of
        // `of`'s path.
        let on_squares_of = |of: Side, side: Side| -> [u32; STEP_BITS] {
            let [cells, steps] =
                [of, side].map(|s| cell_of_step.get(s.index()).copied().unwrap_or_default());
            cells.map(|cell| {
                steps
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| cell != 0 && c == cell)
                    .fold(0, |m, (s, _)| m | 1 << s)
            })
        };
        let steps = cell_of_step.map(|row| {
            (1..)
                .zip(row.into_iter().skip(1))
                .filter(|&(_, cell)| cell != 0)
                .collect::<Vec<(u8, u32)>>()
        });
        let their_cells = |visits: usize| {
            path.board()
                .squares()
                .iter()
                .filter(|&&sq| Contents::of(path, sq).theirs.iter().flatten().count() == visits)
                .fold(0u32, |m, sq| m | 1 << sq.cell())
        };
        Ok(Twice {
            pieces,
            steps,
            their_once: their_cells(1),
            their_twice: their_cells(2),
            board: ((1u32 << (path.len() + 1)) - 1) & !1,
            regions,
            mine_code,
            theirs_code,
            own_on_mine: ByChunk::new(&on_squares_of(Side::Light, Side::Light), |a, b| a | b),
            theirs_on_mine: ByChunk::new(&on_squares_of(Side::Dark, Side::Light), |a, b| a | b),
            their_steps_at: on_squares_of(Side::Light, Side::Dark),
            cell_of_step,
            layer_start,
        })
    }

    /// First index of each layer, and the count at the back.
    pub(crate) fn layer_start(&self) -> &[u64] {
        &self.layer_start
    }

    /// Whether the index holds a state: pieces on their paths' steps, one
    /// a square, at most the pieces a side has on the board and home.
    pub(crate) fn holds(&self, state: State) -> bool {
        let fits = |steps: u32, home: u8| {
            home <= self.pieces && steps.count_ones() + u32::from(home) <= u32::from(self.pieces)
        };
        // Every step of the board is on a square, so one piece a square is
        // as many squares as pieces.
        let (mine, theirs) = (
            self.cells(state.mine, Side::Light),
            self.cells(state.theirs, Side::Dark),
        );
        state.mine & !self.board == 0
            && state.theirs & !self.board == 0
            && fits(state.mine, state.my_home)
            && fits(state.theirs, state.their_home)
            && mine.count_ones() == state.mine.count_ones()
            && theirs.count_ones() == state.theirs.count_ones()
            && mine & theirs == 0
    }

    /// The index of a state the index holds ([`Twice::holds`]). For any
    /// other state it answers some index or `None`, and never panics.
    #[inline(always)]
    pub(crate) fn rank(&self, state: State) -> Option<u64> {
        let code = self
            .mine_code
            .sum(state.mine)
            .wrapping_add(self.theirs_code.sum(state.theirs));
        let p1 = usize::from(self.pieces) + 1;
        let layer = usize::from(state.my_home) * p1 + usize::from(state.their_home);
        let mut index = *self.layer_start.get(layer)?;
        let mut left = (
            self.pieces.checked_sub(state.my_home)?,
            self.pieces.checked_sub(state.their_home)?,
        );
        for (j, region) in self.regions.iter().enumerate() {
            let arrangement = (code >> (FIELD_BITS * j as u32)) as usize & ((1 << FIELD_BITS) - 1);
            index += u64::from(*region.row(self.pieces, left)?.get(arrangement)?);
            left = (
                left.0
                    .checked_sub((state.mine & region.my_steps).count_ones() as u8)?,
                left.1
                    .checked_sub((state.theirs & region.their_steps).count_ones() as u8)?,
            );
        }
        Some(index)
    }

    /// The state at `index`, or `None` past the end.
    pub(crate) fn unrank(&self, index: u64) -> Option<State> {
        let layer = self
            .layer_start
            .partition_point(|&start| start <= index)
            .checked_sub(1)?;
        let p1 = usize::from(self.pieces) + 1;
        let (my_home, their_home) = ((layer / p1) as u8, (layer % p1) as u8);
        let mut rest = index - *self.layer_start.get(layer)?;
        let mut left = (
            self.pieces.checked_sub(my_home)?,
            self.pieces.checked_sub(their_home)?,
        );
        let (mut mine, mut theirs) = (0u32, 0u32);
        for region in &self.regions {
            let row = region.row(self.pieces, left)?;
            let arrangement = row
                .get(..region.radix)?
                .partition_point(|&start| u64::from(start) <= rest)
                .checked_sub(1)?;
            rest -= u64::from(*row.get(arrangement)?);
            let &(m, t) = region.decode.get(arrangement)?;
            mine |= m;
            theirs |= t;
            left = (
                left.0.checked_sub(m.count_ones() as u8)?,
                left.1.checked_sub(t.count_ones() as u8)?,
            );
        }
        (rest == 0).then_some(State {
            mine,
            theirs,
            my_home,
            their_home,
        })
    }

    /// The blocks of the layer (my home, their home) in the order the
    /// solver walks them: one a placement of my pieces, ascending by my
    /// steps as a number, with how many placements of theirs fit beside it
    /// (`their_subsets`; `my_subsets` is 1, `first` unused).
    ///
    /// Walked last first, this is the order of the states by my steps,
    /// then their steps, highest first: a move of either side puts the
    /// pieces on higher steps, so most successors of a state are walked
    /// before it and a sweep reads their new values. The numbering by
    /// regions does not follow that order (a square's digit holds both
    /// sides, and the two paths cross the squares in other orders), and
    /// walking it in index order took about four times the sweeps.
    pub(crate) fn blocks(&self, my_home: u8, their_home: u8) -> Vec<Block> {
        let (Some(mine_left), Some(theirs_left)) = (
            self.pieces.checked_sub(my_home),
            self.pieces.checked_sub(their_home),
        ) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        each_placement(
            &self.steps[0],
            0,
            mine_left,
            0,
            false,
            &mut |mine, cells| {
                let their_subsets = self.placements_beside(cells, theirs_left);
                if their_subsets > 0 {
                    out.push(Block {
                        mine,
                        theirs: 0,
                        my_subsets: 1,
                        their_subsets,
                        first: 0,
                    });
                }
            },
        );
        out
    }

    /// How many placements of at most `left` of their pieces avoid the
    /// squares `taken`.
    fn placements_beside(&self, taken: u32, left: u8) -> u32 {
        let once = u64::from((self.their_once & !taken).count_ones());
        let twice = u64::from((self.their_twice & !taken).count_ones());
        let mut n = 0u64;
        for k in 0..=u64::from(left) {
            for j in 0..=k {
                n += choose(twice, j) * (1 << j) * choose(once, k - j);
            }
        }
        n as u32
    }

    /// Calls `f` with every placement of their pieces beside the block's
    /// placement of mine, highest steps first.
    pub(crate) fn each_beside(&self, block: &Block, their_home: u8, f: &mut impl FnMut(u32)) {
        let Some(left) = self.pieces.checked_sub(their_home) else {
            return;
        };
        let taken = self.cells(block.mine, Side::Light);
        each_placement(&self.steps[1], taken, left, 0, true, &mut |theirs, _| {
            f(theirs)
        });
    }

    /// The squares of a side's steps, as a mask of cells.
    fn cells(&self, steps: u32, side: Side) -> u32 {
        let row = self.cell_of_step.get(side.index());
        let mut cells = 0;
        let mut rest = steps;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            cells |= row.and_then(|r| r.get(s)).copied().unwrap_or(0);
        }
        cells
    }

    /// My steps on the squares my pieces stand on (at either visit): the
    /// steps my own pieces block.
    #[inline(always)]
    pub(crate) fn own_on_mine(&self, mine: u32) -> u32 {
        self.own_on_mine.union(mine)
    }

    /// My steps on the squares their pieces stand on.
    #[inline(always)]
    pub(crate) fn theirs_on_mine(&self, theirs: u32) -> u32 {
        self.theirs_on_mine.union(theirs)
    }

    /// Their steps on the square of my step `to` (both visits).
    #[inline(always)]
    pub(crate) fn their_steps_at(&self, to: u8) -> u32 {
        self.their_steps_at
            .get(usize::from(to))
            .copied()
            .unwrap_or(0)
    }
}

/// Binomial coefficient.
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |r, i| r * (n - i) / (i + 1))
}

/// Calls `f(mask, cells)` for every placement of at most `left` pieces on
/// `steps` (a side's steps with their squares, ascending) that holds one
/// piece a square and none on `taken`, in the order of the masks as
/// numbers (`descending` for the highest first); `mask` and `taken` are
/// what is placed so far.
fn each_placement(
    steps: &[(u8, u32)],
    taken: u32,
    left: u8,
    mask: u32,
    descending: bool,
    f: &mut impl FnMut(u32, u32),
) {
    let Some((&(step, cell), lower)) = steps.split_last().filter(|_| left > 0) else {
        f(mask, taken);
        return;
    };
    let with_piece = |f: &mut _| {
        if taken & cell == 0 {
            each_placement(
                lower,
                taken | cell,
                left - 1,
                mask | 1 << step,
                descending,
                f,
            );
        }
    };
    if descending {
        with_piece(f);
    }
    each_placement(lower, taken, left, mask, descending, f);
    if !descending {
        with_piece(f);
    }
}
