//! What the sweeps of a layer pair keep from one sweep to the next: an
//! [`Entry`] for each mirror pair, with the move each state chose for each
//! roll, and [`SuccessorList`]s of every move.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use super::transitions::{Code, MOVES_MAX, ROLLS_MAX};
use crate::error::SolveError;

/// Most words a mirror pair takes in a successor list: a word of counts
/// and at most [`MOVES_MAX`] moves a roll, for the state and its mirror.
const PAIR_WORDS_MAX: usize = 2 * (1 + MOVES_MAX * ROLLS_MAX);

/// What the sweeps of a layer pair keep of a mirror pair (a state of the
/// half (a, b) and the same position with the other side to move): both
/// indices, and the successor each chose for every moving roll (or
/// [`Code::NO_MOVE`]), which is the policy the policy sweeps follow.
///
/// A view over `2 + 2 × rolls` words that lie together, `[state, mirror,
/// the state's choices, the mirror's choices]`, so that a sweep reads its
/// entries in order.
#[derive(Clone, Copy)]
pub(super) struct Entry<'a> {
    state: &'a AtomicU32,
    mirror: &'a AtomicU32,
    /// Both states' choices, the state's first.
    choices: &'a [AtomicU32],
    state_choices: &'a [AtomicU32],
    mirror_choices: &'a [AtomicU32],
}

impl<'a> Entry<'a> {
    /// The entry in `words`, one entry's words for `rolls` moving rolls.
    #[inline(always)]
    fn new(words: &'a [AtomicU32], rolls: usize) -> Option<Entry<'a>> {
        let [state, mirror, choices @ ..] = words else {
            return None;
        };
        let (state_choices, mirror_choices) = choices.split_at_checked(rolls)?;
        Some(Entry {
            state,
            mirror,
            choices,
            state_choices,
            mirror_choices,
        })
    }

    /// The indices of the state and of its mirror (the same when the state
    /// is its own mirror).
    #[inline(always)]
    pub(super) fn indices(&self) -> (usize, usize) {
        (
            self.state.load(Ordering::Relaxed) as usize,
            self.mirror.load(Ordering::Relaxed) as usize,
        )
    }

    /// Records which mirror pair the entry is for, and the choices of both
    /// states.
    #[inline(always)]
    pub(super) fn record(&self, (state, mirror): (u64, u64), choices: [&[Code]; 2]) {
        // `Transitions::new` refused any rule set with more states.
        debug_assert!(state < Code::INDICES && mirror < Code::INDICES);
        self.state.store(state as u32, Ordering::Relaxed);
        self.mirror.store(mirror as u32, Ordering::Relaxed);
        self.choose(choices);
    }

    /// Records new choices for both states.
    #[inline(always)]
    pub(super) fn choose(&self, [state, mirror]: [&[Code]; 2]) {
        for (slot, code) in self.state_choices.iter().zip(state) {
            slot.store(code.bits(), Ordering::Relaxed);
        }
        for (slot, code) in self.mirror_choices.iter().zip(mirror) {
            slot.store(code.bits(), Ordering::Relaxed);
        }
    }

    /// Both states' choices, the state's first.
    #[inline(always)]
    pub(super) fn choices(&self) -> impl Iterator<Item = Code> + 'a {
        self.choices
            .iter()
            .map(|slot| Code::from_bits(slot.load(Ordering::Relaxed)))
    }

    /// The state's choices, one slot a moving roll.
    #[inline(always)]
    pub(super) const fn state_choices(&self) -> &'a [AtomicU32] {
        self.state_choices
    }

    /// The mirror's choices, one slot a moving roll.
    #[inline(always)]
    pub(super) const fn mirror_choices(&self) -> &'a [AtomicU32] {
        self.mirror_choices
    }
}

/// A run of entries.
#[derive(Clone, Copy)]
pub(super) struct Entries<'a> {
    words: &'a [AtomicU32],
    rolls: usize,
}

impl<'a> Entries<'a> {
    /// The words of one entry for `rolls` moving rolls.
    const fn words_per_entry(rolls: usize) -> usize {
        2 + 2 * rolls
    }

    /// How many entries there are.
    pub(super) const fn len(self) -> usize {
        self.words.len() / Entries::words_per_entry(self.rolls)
    }

    /// The entries in order.
    #[inline(always)]
    pub(super) fn iter(self) -> impl Iterator<Item = Entry<'a>> {
        let rolls = self.rolls;
        self.words
            .chunks_exact(Entries::words_per_entry(rolls))
            .filter_map(move |words| Entry::new(words, rolls))
    }

    /// The entries of a range (none where it runs past the end).
    pub(super) fn range(self, range: Range<usize>) -> Entries<'a> {
        let per = Entries::words_per_entry(self.rolls);
        Entries {
            words: self
                .words
                .get(range.start * per..range.end * per)
                .unwrap_or(&[]),
            rolls: self.rolls,
        }
    }

    /// Part `part` of `parts` runs of about equal length.
    pub(super) fn share(self, part: usize, parts: usize) -> Entries<'a> {
        let n = self.len();
        self.range(n * part / parts..n * (part + 1) / parts)
    }
}

/// How many moves each roll allows a state: three bits a roll, roll `k`
/// (in the order of [`Transitions::rolls`](super::transitions::Transitions::rolls))
/// at bit `3k`.
#[derive(Clone, Copy, Default)]
pub(super) struct MoveCounts(u32);

/// Bits of one roll's count in [`MoveCounts`].
const COUNT_BITS: usize = 3;

const _: () = assert!(MOVES_MAX < 1 << COUNT_BITS && ROLLS_MAX * COUNT_BITS <= 32);

impl MoveCounts {
    /// These counts with `moves` for roll `k`.
    #[inline(always)]
    pub(super) const fn with(self, k: usize, moves: usize) -> MoveCounts {
        MoveCounts(self.0 | (moves as u32) << (COUNT_BITS * k))
    }

    /// The moves of roll `k`.
    #[inline(always)]
    pub(super) const fn of(self, k: usize) -> usize {
        (self.0 >> (COUNT_BITS * k) & ((1 << COUNT_BITS) - 1)) as usize
    }
}

/// The successors of a run of entries, listed by the pair's first Bellman
/// sweep so that its later Bellman sweeps load their values without
/// generating and ranking moves again.
///
/// For the run's first [`SuccessorList::pairs`] entries, in order: the
/// state's successors, then the mirror's, each as a word of
/// [`MoveCounts`] followed by the successors' codes, roll by roll. At most
/// `room` words; the entries past them are swept by generating their moves.
#[derive(Default)]
pub(super) struct SuccessorList {
    words: Vec<u32>,
    pairs: usize,
    room: usize,
}

impl SuccessorList {
    /// Empties the list for a new first sweep.
    pub(super) fn clear(&mut self) {
        self.words.clear();
        self.pairs = 0;
    }

    /// Whether the successors of one more mirror pair surely fit.
    #[inline(always)]
    pub(super) fn has_room(&self) -> bool {
        self.words.len() + PAIR_WORDS_MAX <= self.room
    }

    /// How many mirror pairs are listed.
    #[inline(always)]
    pub(super) const fn pairs(&self) -> usize {
        self.pairs
    }

    /// Counts one more mirror pair listed.
    #[inline(always)]
    pub(super) fn pair_listed(&mut self) {
        self.pairs += 1;
    }

    /// Starts a state's successors; returns where its counts go.
    #[inline(always)]
    pub(super) fn begin_state(&mut self) -> usize {
        self.words.push(0);
        self.words.len() - 1
    }

    /// Lists a successor.
    #[inline(always)]
    pub(super) fn push(&mut self, code: Code) {
        self.words.push(code.bits());
    }

    /// Ends a state's successors with their counts.
    #[inline(always)]
    pub(super) fn end_state(&mut self, at: usize, counts: MoveCounts) {
        if let Some(slot) = self.words.get_mut(at) {
            *slot = counts.0;
        }
    }

    /// The list read from the start.
    pub(super) fn reader(&self) -> ListReader<'_> {
        ListReader {
            words: &self.words,
            at: 0,
            ahead: 0,
        }
    }
}

/// Reads a [`SuccessorList`] state by state.
pub(super) struct ListReader<'a> {
    words: &'a [u32],
    at: usize,
    /// How far [`ListReader::ahead`] has handed out words.
    ahead: usize,
}

impl<'a> ListReader<'a> {
    /// The move counts of the next state.
    #[inline(always)]
    pub(super) fn counts(&mut self) -> MoveCounts {
        let counts = self.words.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        MoveCounts(counts)
    }

    /// The next `n` successors.
    #[inline(always)]
    pub(super) fn successors(&mut self, n: usize) -> &'a [u32] {
        let codes = self.words.get(self.at..self.at + n).unwrap_or(&[]);
        self.at += n;
        codes
    }

    /// The words up to `distance` past the reader that were not handed out
    /// before, to prefetch the values they name (some are counts, whose
    /// "values" are harmless to fetch).
    #[inline(always)]
    pub(super) fn ahead(&mut self, distance: usize) -> &'a [u32] {
        let upto = (self.at + distance).min(self.words.len());
        let words = self.words.get(self.ahead..upto).unwrap_or(&[]);
        self.ahead = self.ahead.max(upto);
        words
    }
}

/// The entries and successor lists of the layer pair being solved, made
/// once for the largest pair and used by each pair in turn.
pub(super) struct PairRecords {
    words: Vec<AtomicU32>,
    rolls: usize,
    lists: Vec<SuccessorList>,
}

impl PairRecords {
    /// Room for `entries` entries of `rolls` moving rolls.
    ///
    /// # Errors
    ///
    /// [`SolveError::Options`] when they cannot be addressed.
    pub(super) fn new(entries: u64, rolls: usize) -> Result<PairRecords, SolveError> {
        let words = entries
            .checked_mul(Entries::words_per_entry(rolls) as u64)
            .and_then(|words| usize::try_from(words).ok())
            .ok_or_else(|| SolveError::Options("the table does not fit in memory".to_owned()))?;
        Ok(PairRecords {
            words: (0..words).map(|_| AtomicU32::new(0)).collect(),
            rolls,
            lists: Vec::new(),
        })
    }

    /// The first `entries` entries (as many as fit), and a successor list
    /// for each of `runs` runs of them, which share `list_bytes` of room.
    pub(super) fn for_pair(
        &mut self,
        entries: usize,
        runs: usize,
        list_bytes: u64,
    ) -> (Entries<'_>, &mut [SuccessorList]) {
        let room = usize::try_from(list_bytes / 4 / runs.max(1) as u64).unwrap_or(usize::MAX);
        self.lists.resize_with(runs, SuccessorList::default);
        for list in &mut self.lists {
            list.room = room;
        }
        let all = Entries {
            words: &self.words,
            rolls: self.rolls,
        };
        (all.range(0..entries), &mut self.lists)
    }
}
