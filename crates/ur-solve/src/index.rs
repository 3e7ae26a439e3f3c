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
//! 2. the shared cells as a base-3 number (0 empty, 1 mine, 2 theirs; the
//!    cell at my lowest shared step is the least significant digit), only
//!    the arrangements that fit the layer's pieces, through a prefix table;
//! 3. my private cells (a subset ranked by size, then colex), times the
//!    number of subsets their private cells may take;
//! 4. their private cells.
//!
//! Rank and unrank are O(1) (unrank does two binary searches over small
//! tables). The geometry comes from [`royal_ur::Route`]: which steps are
//! shared, which are rosettes and which step of theirs each shared step of
//! mine is.

use dice_core::Side;
use royal_ur::{Position, Route, Square, Variant};

use crate::error::LookupError;

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
#[derive(Clone, Debug)]
pub struct Index {
    variant: Variant,
    pieces: u8,
    len: u8,
    /// Shared steps are `lo..=hi` (the same range on both routes).
    lo: u8,
    nshared: u8,
    npriv: u8,
    /// Steps of my route (bit per step) that are rosettes.
    pub(crate) rosette_mask: u32,
    /// My shared step → their step of the same cell (0 elsewhere).
    pub(crate) mine_to_theirs: [u8; 32],
    /// Their shared bits (compressed) → the same cells as steps of mine.
    theirs_in_mine: Vec<u32>,
    /// Compressed shared bits → base-3 digits (1 for mine, 2 for theirs).
    tern_mine: Vec<u32>,
    tern_theirs: Vec<u32>,
    /// Private subsets ranked by size, then colex; and back.
    rank_priv: Vec<u32>,
    unrank_priv: Vec<u32>,
    /// How many private subsets have at most `c` cells, by `c`.
    count_priv: [u32; 8],
    /// First index of each layer, and one past the end at the back.
    layer_base: Vec<u64>,
    /// Per layer: prefix count of each base-3 shared arrangement (3^n + 1).
    sbase: Vec<Vec<u32>>,
    /// Cell → step on each side's route (0 when not on it).
    cell_step: [[u8; 20]; 2],
}

/// Binomial coefficient.
fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..u64::from(k)).fold(1, |r, i| r * (u64::from(n) - i) / (i + 1))
}

/// `count_priv[c.min(7)]`: subsets of at most `c` private steps, the count
/// for 7 standing for every larger `c`.
fn capped(count_priv: &[u32; 8], c: usize) -> u32 {
    let [.., top] = *count_priv;
    count_priv.get(c).copied().unwrap_or(top)
}

impl Index {
    /// Builds the index of a rule set (a few milliseconds; the long route's
    /// prefix tables take about 130 MB for 7 pieces).
    #[must_use]
    pub fn new(variant: &Variant) -> Index {
        let route = variant.route();
        let len = route.len();
        let pieces = variant.pieces();
        let mut cell_step = [[0u8; 20]; 2];
        for (side, row) in Side::ALL.into_iter().zip(&mut cell_step) {
            for (sq, slot) in Square::ALL.into_iter().zip(row) {
                *slot = route.step_of(side, sq).unwrap_or(0);
            }
        }
        let mut shared_mask = 0u32;
        let mut rosette_mask = 0u32;
        let mut mine_to_theirs = [0u8; 32];
        for s in 1..=len {
            if let Some(sq) = route.square(Side::Light, s) {
                if sq.is_rosette() {
                    rosette_mask |= 1 << s;
                }
                if let Some(t) = route.step_of(Side::Dark, sq) {
                    shared_mask |= 1 << s;
                    if let Some(slot) = mine_to_theirs.get_mut(usize::from(s)) {
                        *slot = t;
                    }
                }
            }
        }
        // The shared steps form one run lo..=hi on both routes, and their
        // steps of the shared cells are the same run.
        let lo = shared_mask.trailing_zeros() as u8;
        let nshared = shared_mask.count_ones() as u8;
        let npriv = len - nshared;
        let nsh = 1usize << nshared;
        let mut theirs_in_mine = vec![0u32; nsh];
        let mut tern_mine = vec![0u32; nsh];
        let mut tern_theirs = vec![0u32; nsh];
        let pow3 = |i: u32| 3u32.pow(i);
        for (x, ((tim, tm), tt)) in theirs_in_mine
            .iter_mut()
            .zip(&mut tern_mine)
            .zip(&mut tern_theirs)
            .enumerate()
        {
            for i in 0..u32::from(nshared) {
                if x & (1 << i) != 0 {
                    *tm += pow3(i);
                    // Their step lo+i is my step `m`.
                    let their_step = u32::from(lo) + i;
                    let m = (1..=len)
                        .find(|&m| {
                            mine_to_theirs
                                .get(usize::from(m))
                                .is_some_and(|&t| u32::from(t) == their_step)
                        })
                        .map_or(0, u32::from);
                    *tim |= 1 << m;
                    *tt += 2 * pow3(m - u32::from(lo));
                }
            }
        }
        // Private subsets by size then colex.
        let npv = 1usize << npriv;
        let mut order: Vec<u32> = (0..npv as u32).collect();
        order.sort_by_key(|&m| (m.count_ones(), m.reverse_bits()));
        let mut rank_priv = vec![0u32; npv];
        for (r, &m) in order.iter().enumerate() {
            if let Some(slot) = rank_priv.get_mut(m as usize) {
                *slot = r as u32;
            }
        }
        let mut count_priv = [0u32; 8];
        for (c, slot) in count_priv.iter_mut().enumerate() {
            *slot = (0..=c as u32)
                .map(|i| choose(u32::from(npriv), i) as u32)
                .sum();
        }
        let n3 = 3usize.pow(u32::from(nshared));
        let p = usize::from(pieces);
        let mut layer_base = Vec::with_capacity((p + 1) * (p + 1) + 1);
        let mut sbase = Vec::with_capacity((p + 1) * (p + 1));
        let mut total = 0u64;
        // Digit counts of each base-3 arrangement; 255 marks a digit above 2
        // (never produced by a state, whose cells hold one piece at most).
        let mut kcounts = vec![(0u8, 0u8); n3];
        for (s, k) in kcounts.iter_mut().enumerate() {
            let mut v = s;
            for _ in 0..nshared {
                match v % 3 {
                    1 => k.0 += 1,
                    2 => k.1 += 1,
                    _ => {}
                }
                v /= 3;
            }
        }
        for a in 0..=p {
            for b in 0..=p {
                layer_base.push(total);
                let mut table = Vec::with_capacity(n3 + 1);
                let mut run = 0u32;
                for &(km, kt) in &kcounts {
                    table.push(run);
                    let cm = (p - a).checked_sub(usize::from(km));
                    let ct = (p - b).checked_sub(usize::from(kt));
                    if let (Some(cm), Some(ct)) = (cm, ct) {
                        run += capped(&count_priv, cm) * capped(&count_priv, ct);
                    }
                }
                table.push(run);
                total += u64::from(run);
                sbase.push(table);
            }
        }
        layer_base.push(total);
        Index {
            variant: *variant,
            pieces,
            len,
            lo,
            nshared,
            npriv,
            rosette_mask,
            mine_to_theirs,
            theirs_in_mine,
            tern_mine,
            tern_theirs,
            rank_priv,
            unrank_priv: order,
            count_priv,
            layer_base,
            sbase,
            cell_step,
        }
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

    /// Steps of the route on the board (14 or 16).
    #[must_use]
    pub const fn route_len(&self) -> u8 {
        self.len
    }

    /// How many states there are (one side to move).
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.layer_base.last().copied().unwrap_or(0)
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
        let l = self.layer(my_home, their_home);
        let pieces = self.pieces;
        match self.layer_base.get(l..=l + 1) {
            Some(&[start, end]) if my_home <= pieces && their_home <= pieces => start..end,
            _ => self.len()..self.len(),
        }
    }

    #[inline(always)]
    fn compress_shared(&self, mask: u32) -> usize {
        ((mask >> self.lo) & ((1 << self.nshared) - 1)) as usize
    }

    #[inline(always)]
    fn compress_priv(&self, mask: u32) -> usize {
        let low = (mask >> 1) & ((1 << (self.lo - 1)) - 1);
        let high = mask >> (u32::from(self.lo) + u32::from(self.nshared));
        (low | (high << (self.lo - 1))) as usize
    }

    #[inline(always)]
    fn expand_priv(&self, bits: u32) -> u32 {
        let nlow = u32::from(self.lo) - 1;
        let low = (bits & ((1 << nlow) - 1)) << 1;
        let high = (bits >> nlow) << (u32::from(self.lo) + u32::from(self.nshared));
        low | high
    }

    /// Their pieces on shared cells, as steps of my route.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `compress_shared` keeps `nshared` bits, below the \
                  `1 << nshared` entries of `theirs_in_mine`"
    )]
    pub(crate) fn theirs_in_mine(&self, theirs: u32) -> u32 {
        self.theirs_in_mine[self.compress_shared(theirs)]
    }

    /// The index of a state, or `None` for a state the index does not hold
    /// (see [`Index::is_valid`]).
    #[must_use]
    pub fn rank(&self, st: State) -> Option<u64> {
        self.is_valid(st).then(|| self.rank_valid(st))
    }

    /// The index of a state that is valid: pieces on steps 1..=len only, no
    /// shared cell held twice, and at most `pieces` a side on the board and
    /// home together. Anything else may index out of the tables and panic;
    /// [`Index::rank`] checks first.
    ///
    /// Ranking runs for every successor of every state in a solve, so it
    /// indexes its tables directly. For a valid state every index is in
    /// bounds: both homes are at most `pieces`, so the layer `l` is below
    /// `(pieces + 1)²`, the length of `sbase` and one less than that of
    /// `layer_base`; `shm` and `sht` keep `nshared` bits, inside the
    /// `1 << nshared` entries of `tern_mine` and `tern_theirs`; their sum
    /// `s` is a base-3 number of `nshared` digits, below the `3^nshared + 1`
    /// entries of each `sbase` row; `compress_priv` keeps `npriv` bits,
    /// inside the `1 << npriv` entries of `rank_priv`; `.min(7)` fits the
    /// eight of `count_priv`.
    #[inline(always)]
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; every index is in bounds for a valid state (proof above)"
    )]
    pub(crate) fn rank_valid(&self, st: State) -> u64 {
        let l = self.layer(st.my_home, st.their_home);
        let shm = self.compress_shared(st.mine);
        let sht = self.compress_shared(st.theirs);
        let s = (self.tern_mine[shm] + self.tern_theirs[sht]) as usize;
        let ct = self.pieces - st.their_home - sht.count_ones() as u8;
        let within = u64::from(self.sbase[l][s])
            + u64::from(self.rank_priv[self.compress_priv(st.mine)])
                * u64::from(self.count_priv[usize::from(ct.min(7))])
            + u64::from(self.rank_priv[self.compress_priv(st.theirs)]);
        self.layer_base[l] + within
    }

    /// Whether a state is one the index holds.
    #[must_use]
    pub fn is_valid(&self, st: State) -> bool {
        let board = ((1u32 << (self.len + 1)) - 1) & !1;
        let p = u32::from(self.pieces);
        st.mine & !board == 0
            && st.theirs & !board == 0
            && st.mine & self.theirs_in_mine(st.theirs) == 0
            && st.mine.count_ones() + u32::from(st.my_home) <= p
            && st.theirs.count_ones() + u32::from(st.their_home) <= p
    }

    /// The state at an index, or `None` past the end.
    ///
    /// Every index here is in bounds once `index < len()`: `layer_base`
    /// starts at 0 and ends at `len()`, so the partition point is at least 1
    /// and `l` is a layer below `sbase.len() == layer_base.len() - 1`; each
    /// `sbase` row starts at 0 and ends at the layer's size, which `within`
    /// is below, so `s` is a valid entry; `.min(7)` fits `count_priv`; and
    /// `rest` is below the block's `my * their` subsets with `per` the
    /// latter, so `rest / per` and `rest % per` are below counts of private
    /// subsets, at most the `1 << npriv` entries of `unrank_priv`.
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "solver hot path; bounds proved in the doc comment"
    )]
    pub fn unrank(&self, index: u64) -> Option<State> {
        if index >= self.len() {
            return None;
        }
        let l = self.layer_base.partition_point(|&b| b <= index) - 1;
        let p1 = usize::from(self.pieces) + 1;
        let (a, b) = ((l / p1) as u8, (l % p1) as u8);
        let within = (index - self.layer_base[l]) as u32;
        let table = &self.sbase[l];
        let s = table.partition_point(|&x| x <= within) - 1;
        let rest = within - table[s];
        let (shm, sht) = self.decode_shared(s);
        let ct = self.pieces - b - sht.count_ones() as u8;
        let per = self.count_priv[usize::from(ct.min(7))];
        let pm = self.unrank_priv[(rest / per) as usize];
        let pt = self.unrank_priv[(rest % per) as usize];
        Some(State {
            mine: shm | self.expand_priv(pm),
            theirs: sht | self.expand_priv(pt),
            my_home: a,
            their_home: b,
        })
    }

    /// A base-3 shared arrangement as (my mask, their mask), by steps.
    fn decode_shared(&self, mut s: usize) -> (u32, u32) {
        let (mut shm, mut sht) = (0u32, 0u32);
        for i in 0..u32::from(self.nshared) {
            let step = u32::from(self.lo) + i;
            match s % 3 {
                1 => shm |= 1 << step,
                2 => {
                    if let Some(&t) = self.mine_to_theirs.get(step as usize) {
                        sht |= 1 << t;
                    }
                }
                _ => {}
            }
            s /= 3;
        }
        (shm, sht)
    }

    /// The blocks of a layer in index order: for each shared arrangement
    /// that fits, its masks, how many private subsets each side may take,
    /// and its first index.
    pub(crate) fn blocks(&self, my_home: u8, their_home: u8) -> Vec<Block> {
        let l = self.layer(my_home, their_home);
        let Some(table) = self.sbase.get(l) else {
            return Vec::new();
        };
        let base = self.layer_range(my_home, their_home).start;
        let mut out = Vec::new();
        for (s, pair) in table.windows(2).enumerate() {
            let &[start, next] = pair else { continue };
            if next == start {
                continue;
            }
            let (shm, sht) = self.decode_shared(s);
            let cm = self.pieces - my_home - shm.count_ones() as u8;
            let ct = self.pieces - their_home - sht.count_ones() as u8;
            out.push(Block {
                mine: shm,
                theirs: sht,
                my_subsets: capped(&self.count_priv, usize::from(cm)),
                their_subsets: capped(&self.count_priv, usize::from(ct)),
                first: base + u64::from(start),
            });
        }
        out
    }

    /// Private subset of rank `r`, as steps.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; every caller passes `r` below a block's `my_subsets` or \
                  `their_subsets`, a sum of binomials of `npriv` that is at most the \
                  `1 << npriv` entries of `unrank_priv`"
    )]
    pub(crate) fn private_steps(&self, r: u32) -> u32 {
        self.expand_priv(self.unrank_priv[r as usize])
    }

    /// The state of a position, from its side to move.
    ///
    /// # Errors
    ///
    /// [`LookupError::Inconsistent`] when the position does not hold this
    /// rule set's pieces on squares of each side's route.
    pub fn state(&self, position: &Position) -> Result<State, LookupError> {
        if !position.is_consistent(self.pieces) {
            return Err(LookupError::Inconsistent(position.to_string()));
        }
        let me = position.side();
        let mask = |side: Side| -> Option<u32> {
            let mut m = position.board_mask(side);
            let mut out = 0u32;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                match self.cell_step.get(side.index()).and_then(|row| row.get(c)) {
                    Some(&s) if s != 0 => out |= 1 << s,
                    _ => return None,
                }
            }
            Some(out)
        };
        let (Some(mine), Some(theirs)) = (mask(me), mask(me.other())) else {
            return Err(LookupError::Inconsistent(position.to_string()));
        };
        let st = State {
            mine,
            theirs,
            my_home: position.home(me),
            their_home: position.home(me.other()),
        };
        if self.is_valid(st) {
            Ok(st)
        } else {
            Err(LookupError::Inconsistent(position.to_string()))
        }
    }

    /// The position of a state with `side` to move.
    #[must_use]
    pub fn position(&self, st: State, side: Side) -> Position {
        let route: Route = self.variant.route();
        let mut pos = Position::EMPTY.with_side(side);
        for (who, mask) in [(side, st.mine), (side.other(), st.theirs)] {
            let mut m = mask;
            while m != 0 {
                let s = m.trailing_zeros() as u8;
                m &= m - 1;
                if let Some(sq) = route.square(who, s) {
                    pos = pos.with_piece(sq, Some(who));
                }
            }
        }
        let p = self.pieces;
        let hand_me = p.saturating_sub(st.my_home + st.mine.count_ones() as u8);
        let hand_them = p.saturating_sub(st.their_home + st.theirs.count_ones() as u8);
        let set = |pos: Position, who: Side, hand: u8, home: u8| {
            pos.with_hand(who, hand)
                .and_then(|q| q.with_home(who, home))
                .unwrap_or(pos)
        };
        let pos = set(pos, side, hand_me, st.my_home);
        set(pos, side.other(), hand_them, st.their_home)
    }

    /// The index of a position (from its side to move).
    ///
    /// # Errors
    ///
    /// As [`Index::state`].
    pub fn rank_position(&self, position: &Position) -> Result<u64, LookupError> {
        self.state(position).map(|st| self.rank_valid(st))
    }

    /// How many private cells each side has.
    #[must_use]
    pub const fn private_cells(&self) -> u8 {
        self.npriv
    }

    /// How many cells the sides share.
    #[must_use]
    pub const fn shared_cells(&self) -> u8 {
        self.nshared
    }
}

/// One shared arrangement of a layer and the index run it covers.
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

/// How many positions a rule set has, both sides to move, by the formula
/// of the index (the same as `royal_ur::count_positions`).
#[must_use]
pub fn count_positions(variant: &Variant) -> u64 {
    2 * Index::new(variant).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variants() -> Vec<Variant> {
        let mut out = Vec::new();
        for route in Route::ALL {
            for pieces in 1..=3 {
                if let Ok(v) = Variant::new(route, 4, 0, true, pieces) {
                    out.push(v);
                }
            }
        }
        out
    }

    #[test]
    fn finkel_and_masters_counts() {
        assert_eq!(count_positions(&Variant::FINKEL), 275_827_872);
        assert_eq!(Index::new(&Variant::FINKEL).len(), 137_913_936);
        assert_eq!(Index::new(&Variant::MASTERS).len(), 501_032_952);
    }

    #[test]
    fn rank_unrank_round_trip_for_every_state_of_small_sets() {
        for v in variants() {
            let ix = Index::new(&v);
            for i in 0..ix.len() {
                let st = ix.unrank(i).unwrap();
                assert!(ix.is_valid(st), "{v} {i} {st:?}");
                assert_eq!(ix.rank(st), Some(i), "{v} {st:?}");
                let pos = ix.position(st, Side::Dark);
                assert!(pos.is_consistent(v.pieces()));
                assert_eq!(ix.state(&pos).unwrap(), st);
                assert_eq!(ix.state(&ix.position(st, Side::Light)).unwrap(), st);
            }
            assert_eq!(ix.unrank(ix.len()), None);
        }
    }

    #[test]
    fn blocks_cover_each_layer_in_order() {
        for v in variants() {
            let ix = Index::new(&v);
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

    #[test]
    fn counts_match_a_brute_force_enumeration() {
        // Every pair of placements of each side on its own route, no cell
        // held twice, with each home count that fits.
        for v in variants() {
            let ix = Index::new(&v);
            let route = v.route();
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
        let ix = Index::new(&Variant::FINKEL);
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
        ] {
            let ix = Index::new(&v);
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
