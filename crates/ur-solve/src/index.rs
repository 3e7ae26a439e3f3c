//! A dense, collision-free index of the positions of a rule set, seen from
//! the side to move.
//!
//! A position is read from the mover's side: which steps of *my* route my
//! pieces stand on, which steps of *their* route their pieces stand on, and
//! both homes (hands follow). Dark's route is light's with rows 1 and 3
//! swapped, so a position with dark to move and the same position with the
//! colours swapped and light to move are one [`State`]; the index covers one
//! side to move and [`Index::len`] × 2 is every position of the rule set.
//!
//! Layout, from the outside in:
//!
//! 1. the layer: (my home, their home), `a * (pieces + 1) + b`;
//! 2. the shared cells as a base-3 number, the *arrangement* (0 empty,
//!    1 mine, 2 theirs; the cell at my lowest shared step is the least
//!    significant digit), only the arrangements that fit the layer's
//!    pieces, through a table of where each arrangement starts;
//! 3. my private cells (a subset ranked by size, then colex), times the
//!    number of subsets their private cells may take;
//! 4. their private cells.
//!
//! Rank and unrank are O(1) (unrank does two binary searches over small
//! tables). The geometry comes from [`royal_ur::Path`]: which steps are
//! shared, which are rosettes and which step of theirs each shared step of
//! mine is.
//!
//! The murray and skiriuk paths visit `a2..g2` twice (a piece there is at
//! one of two steps), which this layout does not fit: their states are
//! numbered in the same layers, region by region of squares instead (the
//! `twice` module).

use dice_core::Side;
use royal_ur::{Path, Position, Square, Variant};

use crate::error::{LookupError, SolveError};
use crate::twice::Twice;

/// Square indices of every board: the bits of a position's masks.
const SQUARE_INDICES: usize = 32;

/// A position seen from the side to move.
///
/// `mine` and `theirs` are bit masks over steps of each side's own route
/// (bit `s` for step `s`, 1..=len); hands are what is neither on the board
/// nor home.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// My pieces on the board, by step of my route.
    pub mine: u32,
    /// Their pieces on the board, by step of their route.
    pub theirs: u32,
    /// My pieces home.
    pub my_home: u8,
    /// Their pieces home.
    pub their_home: u8,
}

impl State {
    /// The same position seen from the other side (the other side to move).
    #[must_use]
    pub const fn mirror(self) -> State {
        State {
            mine: self.theirs,
            theirs: self.mine,
            my_home: self.their_home,
            their_home: self.my_home,
        }
    }
}

/// The index of one rule set's states (see the module documentation).
///
/// Masks of the shared cells are kept *compressed*: bit `i` for the shared
/// step `first_shared + i`, the same run of steps on both routes. Masks of
/// the private cells likewise: bit `i` for the `i`-th private step, those
/// below the shared run first.
#[derive(Clone, Debug)]
pub struct Index {
    variant: Variant,
    pieces: u8,
    route_len: u8,
    /// The shared steps are `first_shared..first_shared + shared_cells` on
    /// both routes.
    first_shared: u8,
    shared_cells: u8,
    private_cells: u8,
    /// Steps of my path (bit per step) that are rosettes.
    pub(crate) rosette_mask: u32,
    /// Steps of my path where landing throws again: the rosettes when the
    /// rules say so, else none.
    pub(crate) again_on: u32,
    /// Whether a capture throws again.
    pub(crate) capture_again: bool,
    /// My shared step → their step of the same cell (0 elsewhere).
    pub(crate) mine_to_theirs: [u8; 32],
    /// Their compressed shared mask → the same cells as steps of mine.
    theirs_in_mine: Vec<u32>,
    /// A compressed shared mask of mine → its arrangement (a digit 1 for
    /// each of my pieces).
    arrangement_of_mine: Vec<u32>,
    /// Their compressed shared mask → its arrangement (a digit 2 for each
    /// of their pieces, at the digit of the same cell of mine).
    arrangement_of_theirs: Vec<u32>,
    /// Compressed private mask → its rank (by size, then colex).
    private_rank: Vec<u32>,
    /// Rank → compressed private mask.
    private_subset: Vec<u32>,
    /// How many private subsets have at most `c` cells, by `c`.
    subsets_up_to: [u32; 8],
    /// First index of each layer, and one past the end at the back.
    layer_start: Vec<u64>,
    /// Per layer: where each arrangement's states start within the layer
    /// (`3^shared_cells` entries, then the layer's size).
    arrangement_start: Vec<Vec<u32>>,
    /// Square index ([`royal_ur::Square::cell`]) → step on each side's
    /// path (0 when not on it).
    cell_step: [[u8; SQUARE_INDICES]; 2],
    /// Square index → the step of each side's second visit there (0 when
    /// the path visits it once or not at all).
    second_step: [[u8; SQUARE_INDICES]; 2],
    /// On a path that visits squares twice, the numbering by regions
    /// (and the tables of its moves), instead of the tables above (which
    /// are then empty).
    pub(crate) twice: Option<Box<Twice>>,
}

/// Binomial coefficient.
fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..u64::from(k)).fold(1, |r, i| r * (u64::from(n) - i) / (i + 1))
}

/// `subsets_up_to[cells.min(7)]`: subsets of at most `cells` private
/// steps, the count for 7 standing for every larger number.
fn subsets_at_most(subsets_up_to: &[u32; 8], cells: usize) -> u32 {
    let [.., all] = *subsets_up_to;
    subsets_up_to.get(cells).copied().unwrap_or(all)
}

/// Each side's step on each square of the path's board by `step` (0 where
/// it has none), by square index.
fn step_table(
    route: Path,
    step: impl Fn(Path, Side, Square) -> Option<u8>,
) -> [[u8; SQUARE_INDICES]; 2] {
    let mut table = [[0u8; SQUARE_INDICES]; 2];
    for (side, row) in Side::ALL.into_iter().zip(&mut table) {
        for &sq in route.board().squares() {
            if let Some(slot) = row.get_mut(sq.cell()) {
                *slot = step(route, side, sq).unwrap_or(0);
            }
        }
    }
    table
}

/// The steps both sides share: the first, how many, and for each of
/// light's steps dark's step on that square (0 for a private one). `None`
/// unless the shared steps form one run on both paths.
fn shared_run(route: Path) -> Option<(u8, u8, [u8; 32])> {
    let mut shared_mask = 0u32;
    let mut mine_to_theirs = [0u8; 32];
    for step in 1..=route.len() {
        if let Some(sq) = route.square(Side::Light, step)
            && let Some(theirs) = route.step_of(Side::Dark, sq)
        {
            shared_mask |= 1 << step;
            if let Some(slot) = mine_to_theirs.get_mut(usize::from(step)) {
                *slot = theirs;
            }
        }
    }
    // The shared steps form one run on both paths, and their steps of
    // the shared cells are the same run.
    let first_shared = shared_mask.trailing_zeros() as u8;
    let shared_cells = shared_mask.count_ones() as u8;
    let run = |mask: u32| mask >> first_shared == (1 << shared_cells) - 1;
    let theirs_mask = mine_to_theirs.iter().fold(0u32, |m, &t| m | 1 << t) & !1;
    if shared_mask == 0 || !run(shared_mask) || !run(theirs_mask) {
        return None;
    }
    Some((first_shared, shared_cells, mine_to_theirs))
}

/// For each mask of the opponent's shared cells: the same cells as my
/// steps, and the arrangement (base 3) each side's pieces there make.
fn shared_arrangements(
    route_len: u8,
    first_shared: u8,
    shared_cells: u8,
    mine_to_theirs: &[u8; 32],
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let shared_masks = 1usize << shared_cells;
    let mut theirs_in_mine = vec![0u32; shared_masks];
    let mut arrangement_of_mine = vec![0u32; shared_masks];
    let mut arrangement_of_theirs = vec![0u32; shared_masks];
    let digit = |i: u32| 3u32.pow(i);
    for (bits, ((as_mine, mine), theirs)) in theirs_in_mine
        .iter_mut()
        .zip(&mut arrangement_of_mine)
        .zip(&mut arrangement_of_theirs)
        .enumerate()
    {
        for i in 0..u32::from(shared_cells) {
            if bits & (1 << i) != 0 {
                *mine += digit(i);
                // Their step first_shared + i is my step `my_step`.
                let their_step = u32::from(first_shared) + i;
                let my_step = (1..=route_len)
                    .find(|&m| {
                        mine_to_theirs
                            .get(usize::from(m))
                            .is_some_and(|&t| u32::from(t) == their_step)
                    })
                    .map_or(0, u32::from);
                *as_mine |= 1 << my_step;
                *theirs += 2 * digit(my_step - u32::from(first_shared));
            }
        }
    }
    (theirs_in_mine, arrangement_of_mine, arrangement_of_theirs)
}

/// The subsets of the private cells by size then colex, each subset's
/// rank in that order, and how many subsets hold at most 0..7 cells.
fn private_subsets(private_cells: u8) -> (Vec<u32>, Vec<u32>, [u32; 8]) {
    let private_masks = 1usize << private_cells;
    let mut private_subset: Vec<u32> = (0..private_masks as u32).collect();
    private_subset.sort_by_key(|&m| (m.count_ones(), m.reverse_bits()));
    let mut private_rank = vec![0u32; private_masks];
    for (rank, &m) in private_subset.iter().enumerate() {
        if let Some(slot) = private_rank.get_mut(m as usize) {
            *slot = rank as u32;
        }
    }
    let mut subsets_up_to = [0u32; 8];
    for (cells, slot) in subsets_up_to.iter_mut().enumerate() {
        *slot = (0..=cells as u32)
            .map(|i| choose(u32::from(private_cells), i) as u32)
            .sum();
    }
    (private_subset, private_rank, subsets_up_to)
}

/// Where each layer (my pieces home, theirs home) starts, the last entry
/// the total; and within each layer where each arrangement of the shared
/// cells starts.
fn layers(pieces: u8, shared_cells: u8, subsets_up_to: &[u32; 8]) -> (Vec<u64>, Vec<Vec<u32>>) {
    let arrangements = 3usize.pow(u32::from(shared_cells));
    let p = usize::from(pieces);
    let mut layer_start = Vec::with_capacity((p + 1) * (p + 1) + 1);
    let mut arrangement_start = Vec::with_capacity((p + 1) * (p + 1));
    let mut total = 0u64;
    // How many of my pieces and of theirs each arrangement holds (a
    // digit above 2 is never produced by a state, whose cells hold one
    // piece at most).
    let mut digit_counts = vec![(0u8, 0u8); arrangements];
    for (arrangement, counts) in digit_counts.iter_mut().enumerate() {
        let mut rest = arrangement;
        for _ in 0..shared_cells {
            match rest % 3 {
                1 => counts.0 += 1,
                2 => counts.1 += 1,
                _ => {}
            }
            rest /= 3;
        }
    }
    for my_home in 0..=p {
        for their_home in 0..=p {
            layer_start.push(total);
            let mut starts = Vec::with_capacity(arrangements + 1);
            let mut run = 0u32;
            for &(my_shared, their_shared) in &digit_counts {
                starts.push(run);
                // The pieces left for the private cells, if any are
                // not too many.
                let my_private = (p - my_home).checked_sub(usize::from(my_shared));
                let their_private = (p - their_home).checked_sub(usize::from(their_shared));
                if let (Some(mine), Some(theirs)) = (my_private, their_private) {
                    run += subsets_at_most(subsets_up_to, mine)
                        * subsets_at_most(subsets_up_to, theirs);
                }
            }
            starts.push(run);
            total += u64::from(run);
            arrangement_start.push(starts);
        }
    }
    layer_start.push(total);
    (layer_start, arrangement_start)
}

impl Index {
    /// Builds the index of a rule set (a few milliseconds; the masters and
    /// aseb paths' arrangement tables take about 130 MB for 7 pieces, the
    /// murray and skiriuk paths' region tables a few MB).
    ///
    /// # Errors
    ///
    /// [`SolveError::Rules`] for a path that is not the same for both
    /// sides, or whose shared squares are not one run of steps on both
    /// sides (no path of `royal-ur` is either);
    /// [`SolveError::TooBig`] for a path that visits squares twice with
    /// more states than a successor code holds (2^30: murray with 5 or
    /// more pieces, skiriuk with 6 or 7).
    pub fn new(variant: &Variant) -> Result<Index, SolveError> {
        let route = variant.path();
        let refuse = |reason: &str| SolveError::Rules {
            rules: variant.to_string(),
            reason: format!("the {route} path {reason}"),
        };
        check_mirrors(variant)?;
        let route_len = route.len();
        let pieces = variant.pieces();
        let cell_step = step_table(route, Path::step_of);
        let second_step = step_table(route, Path::second_step_of);
        let rosette_mask = route.rosette_steps().iter().fold(0u32, |m, &s| m | 1 << s);
        let again_on = if variant.rosette_again() {
            rosette_mask
        } else {
            0
        };
        if route.revisits() {
            let twice = Twice::new(variant)?;
            return Ok(Index {
                variant: *variant,
                pieces,
                route_len,
                first_shared: 0,
                shared_cells: 0,
                private_cells: 0,
                rosette_mask,
                again_on,
                capture_again: variant.capture_again(),
                mine_to_theirs: [0; 32],
                theirs_in_mine: Vec::new(),
                arrangement_of_mine: Vec::new(),
                arrangement_of_theirs: Vec::new(),
                private_rank: Vec::new(),
                private_subset: Vec::new(),
                subsets_up_to: [0; 8],
                layer_start: twice.layer_start().to_vec(),
                arrangement_start: Vec::new(),
                cell_step,
                second_step,
                twice: Some(Box::new(twice)),
            });
        }
        let Some((first_shared, shared_cells, mine_to_theirs)) = shared_run(route) else {
            return Err(refuse("does not share one run of steps between the sides"));
        };
        let private_cells = route_len - shared_cells;
        let (theirs_in_mine, arrangement_of_mine, arrangement_of_theirs) =
            shared_arrangements(route_len, first_shared, shared_cells, &mine_to_theirs);
        let (private_subset, private_rank, subsets_up_to) = private_subsets(private_cells);
        let (layer_start, arrangement_start) = layers(pieces, shared_cells, &subsets_up_to);
        Ok(Index {
            variant: *variant,
            pieces,
            route_len,
            first_shared,
            shared_cells,
            private_cells,
            rosette_mask,
            again_on,
            capture_again: variant.capture_again(),
            mine_to_theirs,
            theirs_in_mine,
            arrangement_of_mine,
            arrangement_of_theirs,
            private_rank,
            private_subset,
            subsets_up_to,
            layer_start,
            arrangement_start,
            cell_step,
            second_step,
            twice: None,
        })
    }

    /// The rule set.
    #[must_use]
    pub const fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Pieces a side.
    #[must_use]
    pub const fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Steps of the path on the board (14 or 16).
    #[must_use]
    pub const fn route_len(&self) -> u8 {
        self.route_len
    }

    /// How many states there are (one side to move).
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.layer_start.last().copied().unwrap_or(0)
    }

    /// The layer number of (my home, their home).
    #[must_use]
    pub fn layer(&self, my_home: u8, their_home: u8) -> usize {
        usize::from(my_home) * (usize::from(self.pieces) + 1) + usize::from(their_home)
    }

    /// The index range of a layer; empty (at [`Index::len`]) when a home
    /// count is above the pieces a side has.
    #[must_use]
    pub fn layer_range(&self, my_home: u8, their_home: u8) -> std::ops::Range<u64> {
        let layer = self.layer(my_home, their_home);
        let pieces = self.pieces;
        match self.layer_start.get(layer..=layer + 1) {
            Some(&[start, end]) if my_home <= pieces && their_home <= pieces => start..end,
            _ => self.len()..self.len(),
        }
    }

    /// How many states a layer holds (0 when a home count is above the
    /// pieces a side has).
    #[must_use]
    pub fn layer_len(&self, my_home: u8, their_home: u8) -> u64 {
        let range = self.layer_range(my_home, their_home);
        range.end - range.start
    }

    /// The shared cells of a mask, compressed.
    #[inline(always)]
    fn compress_shared(&self, mask: u32) -> usize {
        ((mask >> self.first_shared) & ((1 << self.shared_cells) - 1)) as usize
    }

    /// The private cells of a mask, compressed.
    #[inline(always)]
    fn compress_private(&self, mask: u32) -> usize {
        let low = (mask >> 1) & ((1 << (self.first_shared - 1)) - 1);
        let high = mask >> (u32::from(self.first_shared) + u32::from(self.shared_cells));
        (low | (high << (self.first_shared - 1))) as usize
    }

    /// A compressed private mask as steps.
    #[inline(always)]
    fn expand_private(&self, bits: u32) -> u32 {
        let below = u32::from(self.first_shared) - 1;
        let low = (bits & ((1 << below) - 1)) << 1;
        let high = (bits >> below) << (u32::from(self.first_shared) + u32::from(self.shared_cells));
        low | high
    }

    /// Their pieces on shared cells, as steps of my route.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `compress_shared` keeps `shared_cells` bits, below the \
                  `1 << shared_cells` entries of `theirs_in_mine`"
    )]
    pub(crate) fn theirs_in_mine(&self, theirs: u32) -> u32 {
        self.theirs_in_mine[self.compress_shared(theirs)]
    }

    /// The index of a state, or `None` for a state the index does not hold
    /// (see [`Index::is_valid`]).
    #[must_use]
    pub fn rank(&self, state: State) -> Option<u64> {
        match &self.twice {
            Some(twice) => twice.holds(state).then(|| twice.rank(state)).flatten(),
            None => self.is_valid(state).then(|| self.rank_valid(state)),
        }
    }

    /// The index of a state that is valid: pieces on steps 1..=len only, no
    /// shared cell held twice, and at most `pieces` a side on the board and
    /// home together. Anything else may index out of the tables and panic;
    /// [`Index::rank`] checks first. (On a path that visits squares twice
    /// it never panics: a state it does not hold gets some index, or
    /// [`Index::len`] where the tables run out.)
    ///
    /// Ranking runs for every successor of every state in a solve, so it
    /// indexes its tables directly. For a valid state every index is in
    /// bounds: both homes are at most `pieces`, so `layer` is below
    /// `(pieces + 1)²`, the length of `arrangement_start` and one less than
    /// that of `layer_start`; `my_shared` and `their_shared` keep
    /// `shared_cells` bits, inside the `1 << shared_cells` entries of
    /// `arrangement_of_mine` and `arrangement_of_theirs`; their sum is a
    /// base-3 number of `shared_cells` digits, below the
    /// `3^shared_cells + 1` entries of each `arrangement_start` row;
    /// `compress_private` keeps `private_cells` bits, inside the
    /// `1 << private_cells` entries of `private_rank`; `.min(7)` fits the
    /// eight of `subsets_up_to`.
    #[inline(always)]
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; every index is in bounds for a valid state (proof above)"
    )]
    pub(crate) fn rank_valid(&self, state: State) -> u64 {
        if let Some(twice) = &self.twice {
            return twice.rank(state).unwrap_or(self.len());
        }
        let layer = self.layer(state.my_home, state.their_home);
        let my_shared = self.compress_shared(state.mine);
        let their_shared = self.compress_shared(state.theirs);
        let arrangement = (self.arrangement_of_mine[my_shared]
            + self.arrangement_of_theirs[their_shared]) as usize;
        let their_private_max = self.pieces - state.their_home - their_shared.count_ones() as u8;
        let within = u64::from(self.arrangement_start[layer][arrangement])
            + u64::from(self.private_rank[self.compress_private(state.mine)])
                * u64::from(self.subsets_up_to[usize::from(their_private_max.min(7))])
            + u64::from(self.private_rank[self.compress_private(state.theirs)]);
        self.layer_start[layer] + within
    }

    /// Whether a state is one the index holds.
    #[must_use]
    pub fn is_valid(&self, state: State) -> bool {
        if let Some(twice) = &self.twice {
            return twice.holds(state);
        }
        let board = ((1u32 << (self.route_len + 1)) - 1) & !1;
        let p = u32::from(self.pieces);
        state.mine & !board == 0
            && state.theirs & !board == 0
            && state.mine & self.theirs_in_mine(state.theirs) == 0
            && state.mine.count_ones() + u32::from(state.my_home) <= p
            && state.theirs.count_ones() + u32::from(state.their_home) <= p
    }

    /// The state at an index, or `None` past the end.
    ///
    /// Every index here is in bounds once `index < len()`: `layer_start`
    /// starts at 0 and ends at `len()`, so the partition point is at least 1
    /// and `layer` is below `arrangement_start.len() == layer_start.len() -
    /// 1`; each `arrangement_start` row starts at 0 and ends at the layer's
    /// size, which `within` is below, so `arrangement` is a valid entry;
    /// `.min(7)` fits `subsets_up_to`; and `rest` is below the block's
    /// `my * their` subsets with `their_subsets` the latter, so `rest /
    /// their_subsets` and `rest % their_subsets` are below counts of private
    /// subsets, at most the `1 << private_cells` entries of
    /// `private_subset`.
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "solver hot path; bounds proved in the doc comment"
    )]
    pub fn unrank(&self, index: u64) -> Option<State> {
        if let Some(twice) = &self.twice {
            return twice.unrank(index);
        }
        if index >= self.len() {
            return None;
        }
        let layer = self.layer_start.partition_point(|&start| start <= index) - 1;
        let homes = usize::from(self.pieces) + 1;
        let (my_home, their_home) = ((layer / homes) as u8, (layer % homes) as u8);
        let within = (index - self.layer_start[layer]) as u32;
        let starts = &self.arrangement_start[layer];
        let arrangement = starts.partition_point(|&start| start <= within) - 1;
        let rest = within - starts[arrangement];
        let (my_shared, their_shared) = self.decode_shared(arrangement);
        let their_private_max = self.pieces - their_home - their_shared.count_ones() as u8;
        let their_subsets = self.subsets_up_to[usize::from(their_private_max.min(7))];
        let my_private = self.private_subset[(rest / their_subsets) as usize];
        let their_private = self.private_subset[(rest % their_subsets) as usize];
        Some(State {
            mine: my_shared | self.expand_private(my_private),
            theirs: their_shared | self.expand_private(their_private),
            my_home,
            their_home,
        })
    }

    /// An arrangement of the shared cells as (my mask, their mask), by
    /// steps.
    fn decode_shared(&self, arrangement: usize) -> (u32, u32) {
        let (mut mine, mut theirs) = (0u32, 0u32);
        let mut rest = arrangement;
        for i in 0..u32::from(self.shared_cells) {
            let step = u32::from(self.first_shared) + i;
            match rest % 3 {
                1 => mine |= 1 << step,
                2 => {
                    if let Some(&t) = self.mine_to_theirs.get(step as usize) {
                        theirs |= 1 << t;
                    }
                }
                _ => {}
            }
            rest /= 3;
        }
        (mine, theirs)
    }

    /// The blocks of a layer in index order: for each arrangement of the
    /// shared cells that fits, its masks, how many private subsets each
    /// side may take, and its first index.
    ///
    /// On a path that visits squares twice a block is one placement of my
    /// pieces with every placement of theirs beside it, in the order of
    /// my steps rather than of the index (see `Twice::blocks`).
    pub(crate) fn blocks(&self, my_home: u8, their_home: u8) -> Vec<Block> {
        if let Some(twice) = &self.twice {
            return twice.blocks(my_home, their_home);
        }
        let layer = self.layer(my_home, their_home);
        let Some(starts) = self.arrangement_start.get(layer) else {
            return Vec::new();
        };
        let layer_first = self.layer_range(my_home, their_home).start;
        let mut out = Vec::new();
        for (arrangement, pair) in starts.windows(2).enumerate() {
            let &[start, next] = pair else { continue };
            if next == start {
                continue;
            }
            let (mine, theirs) = self.decode_shared(arrangement);
            let my_private_max = self.pieces - my_home - mine.count_ones() as u8;
            let their_private_max = self.pieces - their_home - theirs.count_ones() as u8;
            out.push(Block {
                mine,
                theirs,
                my_subsets: subsets_at_most(&self.subsets_up_to, usize::from(my_private_max)),
                their_subsets: subsets_at_most(&self.subsets_up_to, usize::from(their_private_max)),
                first: layer_first + u64::from(start),
            });
        }
        out
    }

    /// Calls `f(index, state)` for every state of some blocks of the layer
    /// (my home, their home), last block first: last index first, or on a
    /// path that visits squares twice, highest steps first (mine, then
    /// theirs).
    #[inline(always)]
    pub(crate) fn for_each_state(
        &self,
        blocks: &[Block],
        (my_home, their_home): (u8, u8),
        mut f: impl FnMut(u64, State),
    ) {
        if let Some(twice) = &self.twice {
            for block in blocks.iter().rev() {
                twice.each_beside(block, their_home, &mut |theirs| {
                    let state = State {
                        mine: block.mine,
                        theirs,
                        my_home,
                        their_home,
                    };
                    f(twice.rank(state).unwrap_or(self.len()), state);
                });
            }
            return;
        }
        for block in blocks.iter().rev() {
            let mut index = block.first + block.len();
            for my_rank in (0..block.my_subsets).rev() {
                let mine = block.mine | self.private_steps(my_rank);
                for their_rank in (0..block.their_subsets).rev() {
                    index -= 1;
                    let state = State {
                        mine,
                        theirs: block.theirs | self.private_steps(their_rank),
                        my_home,
                        their_home,
                    };
                    f(index, state);
                }
            }
        }
    }

    /// Private subset of rank `rank`, as steps.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; every caller passes `rank` below a block's `my_subsets` or \
                  `their_subsets`, a sum of binomials of `private_cells` that is at most \
                  the `1 << private_cells` entries of `private_subset`"
    )]
    pub(crate) fn private_steps(&self, rank: u32) -> u32 {
        self.expand_private(self.private_subset[rank as usize])
    }

    /// Whether a side has the rule set's pieces in hand, on the board and
    /// home together.
    fn counts_hold(&self, position: &Position, side: Side) -> bool {
        u32::from(position.hand(side))
            + u32::from(position.home(side, &self.variant))
            + position.board_mask(side).count_ones()
            == u32::from(self.pieces)
    }

    /// The state of a position, from its side to move.
    ///
    /// # Errors
    ///
    /// [`LookupError::Inconsistent`] when the position does not hold this
    /// rule set's pieces on squares of each side's route (at the visit
    /// they are on, on a path that visits squares twice).
    pub fn state(&self, position: &Position) -> Result<State, LookupError> {
        let laps = position.second_visit_mask();
        let (light, dark) = (
            position.board_mask(Side::Light),
            position.board_mask(Side::Dark),
        );
        let occupied = light | dark;
        let state = (position.shape() == self.variant.board()
            && laps & !occupied == 0
            && light & dark == 0
            && Side::ALL
                .into_iter()
                .all(|side| self.counts_hold(position, side)))
        .then(|| self.state_of(position))
        .flatten()
        .filter(|&state| self.is_valid(state));
        state.ok_or_else(|| LookupError::Inconsistent(position.to_string()))
    }

    /// The state of a position on the index's board, from its side to
    /// move, or `None` when a piece stands on a square (or a visit) its
    /// side's path does not have. Homes are not checked.
    #[inline]
    pub(crate) fn state_of(&self, position: &Position) -> Option<State> {
        let me = position.side();
        let laps = position.second_visit_mask();
        let steps = |side: Side| -> Option<u32> {
            let mut m = position.board_mask(side);
            let mut out = 0u32;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let table = if laps & (1 << c) != 0 {
                    &self.second_step
                } else {
                    &self.cell_step
                };
                match table.get(side.index()).and_then(|row| row.get(c)) {
                    Some(&s) if s != 0 => out |= 1 << s,
                    _ => return None,
                }
            }
            Some(out)
        };
        Some(State {
            mine: steps(me)?,
            theirs: steps(me.other())?,
            my_home: position.home(me, &self.variant),
            their_home: position.home(me.other(), &self.variant),
        })
    }

    /// The position of a state with `side` to move.
    #[must_use]
    pub fn position(&self, state: State, side: Side) -> Position {
        let route: Path = self.variant.path();
        let mut pos = Position::empty(route.board()).with_side(side);
        for (who, mask) in [(side, state.mine), (side.other(), state.theirs)] {
            let mut m = mask;
            while m != 0 {
                let s = m.trailing_zeros() as u8;
                m &= m - 1;
                if let Some(sq) = route.square(who, s) {
                    pos = pos.with_piece(sq, Some(who));
                    if route.second_step_of(who, sq) == Some(s) {
                        pos = pos.with_second_visit(sq, true).unwrap_or(pos);
                    }
                }
            }
        }
        let p = self.pieces;
        let hand_me = p.saturating_sub(state.my_home + state.mine.count_ones() as u8);
        let hand_them = p.saturating_sub(state.their_home + state.theirs.count_ones() as u8);
        let set = |pos: Position, who: Side, hand: u8, home: u8| {
            pos.with_hand(who, hand)
                .and_then(|q| q.with_home(who, home))
                .unwrap_or(pos)
        };
        let pos = set(pos, side, hand_me, state.my_home);
        set(pos, side.other(), hand_them, state.their_home)
    }

    /// The index of a position (from its side to move).
    ///
    /// # Errors
    ///
    /// As [`Index::state`].
    pub fn rank_position(&self, position: &Position) -> Result<u64, LookupError> {
        self.state(position).map(|state| self.rank_valid(state))
    }

    /// How many private cells each side has (0 on a path that visits
    /// squares twice, whose index does not split the cells).
    #[must_use]
    pub const fn private_cells(&self) -> u8 {
        self.private_cells
    }

    /// How many cells the sides share (0 on a path that visits squares
    /// twice, whose index does not split the cells).
    #[must_use]
    pub const fn shared_cells(&self) -> u8 {
        self.shared_cells
    }
}

/// One shared arrangement of a layer and the index run it covers (or, on a
/// path that visits squares twice, one placement of my pieces and the
/// placements of theirs beside it; see [`Index::blocks`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub(crate) mine: u32,
    pub(crate) theirs: u32,
    pub(crate) my_subsets: u32,
    pub(crate) their_subsets: u32,
    pub(crate) first: u64,
}

impl Block {
    pub(crate) fn len(&self) -> u64 {
        u64::from(self.my_subsets) * u64::from(self.their_subsets)
    }
}

/// Refuses a path that is not the same for both sides with rows 1 and 3
/// swapped: one table for one side to move needs it (no path of
/// `royal-ur` is otherwise).
///
/// # Errors
///
/// [`SolveError::Rules`] naming the path.
pub(crate) fn check_mirrors(variant: &Variant) -> Result<(), SolveError> {
    let route = variant.path();
    if route.mirrors() {
        return Ok(());
    }
    Err(SolveError::Rules {
        rules: variant.to_string(),
        reason: format!(
            "the {route} path is not the same for both sides with rows 1 and 3 swapped"
        ),
    })
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    /// The paths the index numbers, with 1 to 3 pieces.
    fn variants() -> Vec<Variant> {
        let mut out = Vec::new();
        for path in [Path::Bell, Path::Masters, Path::Aseb] {
            for pieces in 1..=3 {
                out.push(Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap());
            }
        }
        out
    }

    /// The index numbers every position royal-ur counts, one side to move,
    /// for every path it numbers and every piece count.
    #[test]
    fn counts_agree_with_royal_ur() {
        for path in [Path::Bell, Path::Masters, Path::Aseb] {
            for pieces in 1..=7 {
                let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
                let ix = Index::new(&v).unwrap();
                assert_eq!(2 * ix.len(), royal_ur::count_positions(&v), "{v}");
            }
        }
        assert_eq!(Index::new(&Variant::FINKEL).unwrap().len(), 137_913_936);
        assert_eq!(Index::new(&Variant::MASTERS).unwrap().len(), 501_032_952);
        assert_eq!(Index::new(&Variant::BLITZ).unwrap().len(), 41_264_288);
    }

    /// Every placement of at most `pieces` pieces a side on a path's
    /// board, as (my steps, their steps), built square by square: each
    /// square empty or holding a piece of mine or theirs at one of the
    /// steps its side's path has there (two on a square visited twice).
    fn placements(path: Path, pieces: u8) -> Vec<(u32, u32)> {
        let steps = |side: Side| -> Vec<Vec<u8>> {
            path.board()
                .squares()
                .iter()
                .map(|&sq| {
                    [path.step_of(side, sq), path.second_step_of(side, sq)]
                        .into_iter()
                        .flatten()
                        .collect()
                })
                .collect()
        };
        let (mine, theirs) = (steps(Side::Light), steps(Side::Dark));
        let mut out = vec![(0u32, 0u32)];
        for (my_steps, their_steps) in mine.iter().zip(&theirs) {
            for k in 0..out.len() {
                let (m, t) = out[k];
                if m.count_ones() < u32::from(pieces) {
                    out.extend(my_steps.iter().map(|&s| (m | 1 << s, t)));
                }
                if t.count_ones() < u32::from(pieces) {
                    out.extend(their_steps.iter().map(|&s| (m, t | 1 << s)));
                }
            }
        }
        out
    }

    /// On the paths that visit squares twice the count is royal-ur's
    /// (second visits included) for every piece count the solver numbers,
    /// and larger rule sets are refused with their size.
    #[test]
    fn revisiting_paths_count_what_royal_ur_counts() {
        for (path, most) in [(Path::Murray, 4), (Path::Skiriuk, 5)] {
            for pieces in 1..=most {
                let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
                let ix = Index::new(&v).unwrap();
                assert_eq!(2 * ix.len(), royal_ur::count_positions(&v), "{v}");
            }
        }
        assert_eq!(
            Index::new(
                &Variant::FINKEL
                    .with_path(Path::Skiriuk)
                    .with_pieces(5)
                    .unwrap()
            )
            .unwrap()
            .len(),
            522_642_136
        );
        for (path, pieces, states) in [
            (Path::Murray, 5, "2868316800"),
            (Path::Skiriuk, 6, "2917843856"),
            (Path::Skiriuk, 7, "10475494976"),
        ] {
            let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
            let err = Index::new(&v).unwrap_err();
            assert_eq!(err.code(), "too_big");
            assert!(err.to_string().contains(states), "{err}");
        }
    }

    /// On the paths that visit squares twice, the numbering is a bijection
    /// onto `0..len` of exactly the placements built square by square, in
    /// layers; every state round trips through its position with either
    /// side to move (second visits included).
    #[test]
    fn revisiting_paths_number_every_placement_once() {
        for path in [Path::Murray, Path::Skiriuk] {
            for pieces in 1..=3 {
                let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
                let ix = Index::new(&v).unwrap();
                let mut seen = vec![false; ix.len() as usize];
                let mut seconds = 0;
                for (mine, theirs) in placements(path, pieces) {
                    let on = |steps: u32| steps.count_ones() as u8;
                    for my_home in 0..=pieces - on(mine) {
                        for their_home in 0..=pieces - on(theirs) {
                            let st = State {
                                mine,
                                theirs,
                                my_home,
                                their_home,
                            };
                            let i = ix.rank(st).unwrap_or_else(|| panic!("{v} {st:?}"));
                            assert!(ix.layer_range(my_home, their_home).contains(&i));
                            assert!(!std::mem::replace(&mut seen[i as usize], true), "{v} {i}");
                            assert_eq!(ix.unrank(i), Some(st), "{v} {i}");
                            if pieces < 3 || i.is_multiple_of(17) {
                                for side in Side::ALL {
                                    let pos = ix.position(st, side);
                                    // (royal-ur refuses both sides home,
                                    // which the count holds as the dense
                                    // index does.)
                                    let both_home = my_home == pieces && their_home == pieces;
                                    assert!(both_home || pos.check(&v).is_ok(), "{v} {pos}");
                                    assert_eq!(ix.state(&pos).unwrap(), st, "{v} {pos}");
                                    seconds += usize::from(pos.second_visit_mask() != 0);
                                }
                            }
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s), "{v}: a number no placement has");
                assert!(seconds > 100, "{v}: {seconds} positions with second visits");
                assert_eq!(ix.unrank(ix.len()), None);
            }
        }
    }

    /// On a path that visits squares twice the index refuses states it
    /// does not hold: a square held at both of a side's visits, or by both
    /// sides, or too many pieces.
    #[test]
    fn revisiting_index_refuses_states_it_does_not_hold() {
        let v = Variant::FINKEL
            .with_path(Path::Skiriuk)
            .with_pieces(2)
            .unwrap();
        let ix = Index::new(&v).unwrap();
        let a2 = royal_ur::Square::from_str("a2").unwrap();
        let first = v.path().step_of(Side::Light, a2).unwrap();
        let second = v.path().second_step_of(Side::Light, a2).unwrap();
        let their = v.path().step_of(Side::Dark, a2).unwrap();
        let at = |mine: u32, theirs: u32, my_home: u8| State {
            mine,
            theirs,
            my_home,
            their_home: 0,
        };
        assert!(ix.rank(at(1 << first, 0, 0)).is_some());
        assert!(ix.rank(at(1 << second, 0, 1)).is_some());
        for st in [
            at(1 << first | 1 << second, 0, 0),
            at(1 << first, 1 << their, 0),
            at(1 << second, 0, 2),
            at(1 << 1 | 1 << 2 | 1 << 3, 0, 0),
        ] {
            assert_eq!(ix.rank(st), None, "{st:?}");
            assert!(!ix.is_valid(st));
        }
        // A second visit marked on an empty square.
        let start = Position::start(&v, Side::Light);
        assert!(ix.state(&start).is_ok());
        let marked = start.with_second_visit(a2, true).unwrap();
        assert!(matches!(
            ix.state(&marked),
            Err(LookupError::Inconsistent(_))
        ));
    }

    #[test]
    fn rank_unrank_round_trip_for_every_state_of_small_sets() {
        for v in variants() {
            let ix = Index::new(&v).unwrap();
            for i in 0..ix.len() {
                let st = ix.unrank(i).unwrap();
                assert!(ix.is_valid(st), "{v} {i} {st:?}");
                assert_eq!(ix.rank(st), Some(i), "{v} {st:?}");
                let pos = ix.position(st, Side::Dark);
                assert!(Side::ALL.into_iter().all(|side| ix.counts_hold(&pos, side)));
                assert_eq!(ix.state(&pos).unwrap(), st);
                assert_eq!(ix.state(&ix.position(st, Side::Light)).unwrap(), st);
            }
            assert_eq!(ix.unrank(ix.len()), None);
        }
    }

    #[test]
    fn blocks_cover_each_layer_in_order() {
        for v in variants() {
            let ix = Index::new(&v).unwrap();
            let p = v.pieces();
            let mut next = 0;
            for a in 0..=p {
                for b in 0..=p {
                    for blk in ix.blocks(a, b) {
                        assert_eq!(blk.first, next);
                        let mut i = blk.first;
                        for pm in 0..blk.my_subsets {
                            for pt in 0..blk.their_subsets {
                                let st = State {
                                    mine: blk.mine | ix.private_steps(pm),
                                    theirs: blk.theirs | ix.private_steps(pt),
                                    my_home: a,
                                    their_home: b,
                                };
                                assert_eq!(ix.rank(st), Some(i));
                                i += 1;
                            }
                        }
                        next += blk.len();
                    }
                    assert_eq!(next, ix.layer_range(a, b).end);
                }
            }
        }
    }

    /// On the paths that visit squares twice, walking a layer's blocks
    /// gives every state of the layer once, with its index, highest steps
    /// first (mine, then theirs), and the blocks' sizes add up to the
    /// layer's.
    #[test]
    fn revisiting_blocks_walk_each_layer_once_highest_steps_first() {
        for path in [Path::Murray, Path::Skiriuk] {
            for pieces in 1..=3 {
                let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
                let ix = Index::new(&v).unwrap();
                for a in 0..=pieces {
                    for b in 0..=pieces {
                        let blocks = ix.blocks(a, b);
                        let range = ix.layer_range(a, b);
                        let total: u64 = blocks.iter().map(Block::len).sum();
                        assert_eq!(total, range.end - range.start, "{v} ({a}, {b})");
                        let mut seen = vec![false; total as usize];
                        let mut last: Option<(u32, u32)> = None;
                        ix.for_each_state(&blocks, (a, b), |i, st| {
                            assert_eq!(ix.unrank(i), Some(st), "{v} {st:?}");
                            assert_eq!((st.my_home, st.their_home), (a, b));
                            let key = (st.mine, st.theirs);
                            assert!(last.is_none_or(|k| key < k), "{v} {key:?} after {last:?}");
                            last = Some(key);
                            assert!(!std::mem::replace(
                                &mut seen[(i - range.start) as usize],
                                true
                            ));
                        });
                        assert!(seen.iter().all(|&s| s), "{v} ({a}, {b})");
                    }
                }
            }
        }
    }

    #[test]
    fn counts_match_a_brute_force_enumeration() {
        // Every pair of placements of each side on its own route, no cell
        // held twice, with each home count that fits.
        for v in variants() {
            let ix = Index::new(&v).unwrap();
            let route = v.path();
            let p = v.pieces() as u32;
            let len = route.len();
            let cells = |side: Side, mask: u32| -> u32 {
                (1..=len)
                    .filter(|s| mask & (1 << s) != 0)
                    .filter_map(|s| route.square(side, s))
                    .fold(0, |acc, sq| acc | 1 << sq.cell())
            };
            let masks: Vec<u32> = (0u32..1 << (len + 1))
                .step_by(2)
                .filter(|m| m.count_ones() <= p)
                .collect();
            let mut n = 0u64;
            for &m in &masks {
                let cm = cells(Side::Light, m);
                for &t in &masks {
                    if cm & cells(Side::Dark, t) != 0 {
                        continue;
                    }
                    n += u64::from((p - m.count_ones() + 1) * (p - t.count_ones() + 1));
                }
            }
            assert_eq!(ix.len(), n, "{v}");
        }
    }

    #[test]
    fn invalid_states_are_refused() {
        let ix = Index::new(&Variant::FINKEL).unwrap();
        let pos = Position::parse("4xx2/8/4xx2 l 7 7 7 0").unwrap();
        assert!(matches!(ix.state(&pos), Err(LookupError::Inconsistent(_))));
        assert!(!ix.is_valid(State {
            mine: 1 << 5,
            theirs: 1 << 5,
            my_home: 0,
            their_home: 0
        }));
    }

    /// `rank` takes any state a caller can build: it answers `None` for
    /// every state the index does not hold, never panics, and an answer
    /// unranks back to the state.
    #[test]
    fn rank_answers_any_state_without_panicking() {
        for v in [
            Variant::FINKEL.with_pieces(3).unwrap(),
            Variant::MASTERS.with_pieces(2).unwrap(),
            Variant::FINKEL
                .with_path(Path::Skiriuk)
                .with_pieces(3)
                .unwrap(),
            Variant::FINKEL
                .with_path(Path::Murray)
                .with_pieces(2)
                .unwrap(),
        ] {
            let ix = Index::new(&v).unwrap();
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let (mut held, mut refused) = (0, 0);
            for _ in 0..200_000 {
                // Held states with one field disturbed, and random ones.
                let r = next();
                let st = match ix.unrank(r % ix.len()) {
                    Some(mut st) if r & 1 == 0 => {
                        match (r >> 1) % 4 {
                            0 => st.mine ^= 1 << ((r >> 8) % 32),
                            1 => st.theirs ^= 1 << ((r >> 8) % 32),
                            2 => st.my_home = st.my_home.wrapping_add((r >> 8) as u8 % 3),
                            _ => {}
                        }
                        st
                    }
                    _ => State {
                        mine: next() as u32 & next() as u32,
                        theirs: next() as u32 & next() as u32,
                        my_home: (r >> 8) as u8 % 12,
                        their_home: (r >> 16) as u8 % 12,
                    },
                };
                match ix.rank(st) {
                    Some(i) => {
                        assert!(ix.is_valid(st));
                        assert_eq!(ix.unrank(i), Some(st), "{v} {st:?}");
                        held += 1;
                    }
                    None => {
                        assert!(!ix.is_valid(st));
                        refused += 1;
                    }
                }
            }
            assert!(
                held > 100 && refused > 100,
                "{v}: {held} held, {refused} refused"
            );
        }
    }
}
