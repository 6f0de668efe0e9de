//! A seat's wait answers kept across states (the reference's `SeatMemo`, runtime/game/state.py): held
//! by the rule set's `Winning`, one entry list per seat. The waits are keyed by what they read: the
//! concealed tiles tried (in order: the seat's hand, or its hand without the tile a `waits_without` gives
//! up), whether only the group forms count, and — for the whole list — the seat's melds, the tiles it
//! set aside and the generation of the context and reveal values (`OnValues::generation`: the scoring
//! environments, the wildcards' kinds); when any of these changes the list is dropped. The block deficit
//! of the seat's whole hand (`_seat_unmendable`) is kept until the hand changes. A question declined on
//! the state is not kept.
//!
//! A seat's hand changes by one tile between questions: the hands asked on one turn (`waits_without`
//! each tile it could give up, the bots' question) come back as the hand it keeps after its discard
//! (a discard gives up the first tile of its kind, as `waits_without` does), and a claim window asks the
//! same seats on state after state while only the actor's hand changes. So the answers of several hands
//! are kept, not only the last hand's.

use std::sync::Mutex;

use super::{HandState, StateWins};
use crate::hand::MeldIn;

/// Wait answers one seat keeps (bounded: past it the oldest half goes). A turn asks at most one per
/// tile of the hand and kind of question; 64 keeps a turn's and the next's.
const ENTRIES: usize = 64;
/// Hands found short a seat keeps: the hand after its discard is asked with its next draw, a few
/// states later (claims in between keep it).
const SHORT: usize = 8;

/// One kept answer: the concealed tiles tried, whether only the group forms count, the kinds waited on.
struct Kept {
    print: u64, // a fingerprint of the tiles, compared before them
    concealed: Vec<usize>,
    groups: bool,
    kinds: Vec<usize>,
}

/// One kept answer of `could_win_now`: the concealed tiles, the winning tile, self-drawn, the form
/// positions.
struct KeptCould {
    print: u64,
    concealed: Vec<usize>,
    tile: usize,
    drawn: bool,
    positions: Vec<usize>,
    could: bool,
}

#[derive(Default)]
struct SeatEntries {
    hand: Vec<usize>,
    melds: Vec<(String, Vec<usize>, bool)>,
    aside: Vec<usize>,
    /// The marks (`Tracked::mark`) of the seat's melds and tiles set aside when they were last found
    /// equal to `melds` and `aside`: the same marks, the same parts unchanged since (not compared again).
    marks: Option<(u64, u64)>,
    generation: u64,
    unmendable: Option<Option<i64>>, // of `hand`
    /// Concealed tiles (`tiles_key`) the not-ready shortcut found short of two blocks or more: a seat's
    /// hand after its discard, whose next draw (or a tile claimed beside it) the win's split test reads.
    short: Vec<u128>,
    waits: Vec<Kept>,
    could: Vec<KeptCould>,
    /// The seat's melds as the whole-hand scorer takes them (`melds_in`: each looked up in the scoring's
    /// record of melds, which keeps a meld's value once it has one), with the scoring they were looked up
    /// in (`OnValues::hand`). They read the melds alone, not the context values: kept across generations
    /// (a win's trial asks on a copy of the state holding other values, then the game on the state again).
    melds_in: Option<(usize, Vec<MeldIn>)>,
}

/// Every seat's entries (the owner: `Winning`, for the table it was built for).
#[derive(Default)]
pub(super) struct SeatMemos(Mutex<Vec<SeatEntries>>);

/// The tiles as a multiset, exactly: three bits a kind (None past 42 kinds or 7 tiles of one kind).
pub(super) fn tiles_key(tiles: &[usize]) -> Option<u128> {
    let mut key = 0u128;
    for &k in tiles {
        if k >= 42 {
            return None;
        }
        if (key >> (3 * k)) & 7 == 7 {
            return None;
        }
        key += 1u128 << (3 * k);
    }
    Some(key)
}

fn print_of(tiles: &[usize]) -> u64 {
    tiles.iter().fold(tiles.len() as u64, |h, &k| (h ^ k as u64).wrapping_mul(0x100_0000_01b3))
}

impl SeatEntries {
    /// Whether the entries were made for seat `s`'s melds, tiles set aside and `generation`; if not,
    /// they are dropped and keyed afresh (the melds as the scorer takes them only where the melds or the
    /// tiles set aside changed). The block deficit is dropped when the hand changes.
    fn keep_for(&mut self, st: &HandState, s: usize, generation: u64) {
        let Some(seat) = st.seats.get(s) else { return };
        if !self.keep_parts(st, s) || self.generation != generation {
            self.generation = generation;
            self.waits.clear();
            self.could.clear();
            self.short.clear();
            self.unmendable = None;
            self.hand.clone_from(&seat.hand);
        } else if self.hand != seat.hand {
            self.unmendable = None;
            self.hand.clone_from(&seat.hand);
        }
    }

    /// Whether the entries were made for seat `s`'s melds and tiles set aside; if not, the melds as the
    /// scorer takes them are dropped and the parts keyed afresh (the rest is dropped by `keep_for`,
    /// which finds them changed: `generation` is then none of the values').
    fn keep_parts(&mut self, st: &HandState, s: usize) -> bool {
        let Some(seat) = st.seats.get(s) else { return true };
        let marks = (seat.melds.mark(), seat.aside.mark());
        let same = self.marks == Some(marks)
            || (self.aside == *seat.aside
                && self.melds.len() == seat.melds.len()
                && self.melds.iter().zip(seat.melds.iter()).all(|(a, b)| a.0 == b.kind && a.1 == b.tiles && a.2 == b.exposed));
        self.marks = Some(marks);
        if !same {
            self.aside.clone_from(&seat.aside);
            self.melds.clear();
            self.melds.extend(seat.melds.iter().map(|m| (m.kind.clone(), m.tiles.clone(), m.exposed)));
            self.melds_in = None;
            self.generation = 0; // (no values' generation: `OnValues` count from 1)
        }
        same
    }
}

impl SeatMemos {
    fn with<T>(&self, st: &HandState, s: usize, generation: u64, f: impl FnOnce(&mut SeatEntries) -> T) -> T {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() <= s {
            all.resize_with(s + 1, SeatEntries::default);
        }
        let e = &mut all[s];
        e.keep_for(st, s, generation);
        f(e)
    }

    /// `with` for what reads the seat's melds and tiles set aside alone (whatever the values).
    fn with_parts<T>(&self, st: &HandState, s: usize, f: impl FnOnce(&mut SeatEntries) -> T) -> T {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() <= s {
            all.resize_with(s + 1, SeatEntries::default);
        }
        let e = &mut all[s];
        e.keep_parts(st, s);
        f(e)
    }
}

impl StateWins<'_> {
    /// The concealed tiles a wait question of seat `s` tries: its hand, without the first tile of kind
    /// `without` (as `waits_of` gives it up); None where the seat or the tile is not there.
    pub(super) fn tried_hand(&self, st: &HandState, s: usize, without: Option<usize>) -> Option<Vec<usize>> {
        let mut c = st.seats.get(s)?.hand.clone();
        if let Some(k) = without {
            c.remove(c.iter().position(|&x| x == k)?);
        }
        Some(c)
    }

    /// Whether the group waits try other forms than the waits (some form builds no split), as
    /// `waits_of` tells them apart (else both questions are one).
    pub(super) fn groups_differ(&self) -> bool {
        match (&self.w.wild, &self.w.trials) {
            (Some(wr), _) => wr.group_forms.iter().any(|&g| !g),
            (None, Ok(tr)) => tr.groups_differ,
            (None, Err(_)) => false,
        }
    }

    /// The waits of seat `s` with `concealed` as its concealed tiles (group forms only: `groups`), kept
    /// from an earlier state.
    pub(super) fn kept_waits(&self, st: &HandState, s: usize, concealed: &[usize], groups: bool) -> Option<Vec<usize>> {
        let print = print_of(concealed);
        self.w.seats.with(st, s, self.on.generation, |e| {
            e.waits.iter().find(|x| x.print == print && x.groups == groups && x.concealed == concealed).map(|x| x.kinds.clone())
        })
    }

    /// Keep the waits found for a later state.
    pub(super) fn keep_waits(&self, st: &HandState, s: usize, concealed: &[usize], groups: bool, kinds: &[usize]) {
        self.w.seats.with(st, s, self.on.generation, |e| {
            if e.waits.len() >= ENTRIES {
                e.waits.drain(..ENTRIES / 2);
            }
            e.waits.push(Kept { print: print_of(concealed), concealed: concealed.to_vec(), groups, kinds: kinds.to_vec() });
        })
    }

    /// Whether seat `s` with `conc` as its concealed tiles could win on `k` under the forms at
    /// `positions`, self-drawn when `drawn` (`could_win_now`), kept from an earlier state.
    pub(super) fn kept_could(&self, st: &HandState, s: usize, conc: &[usize], k: usize, drawn: bool, positions: &[usize]) -> Option<bool> {
        let print = print_of(conc);
        self.w.seats.with(st, s, self.on.generation, |e| {
            e.could.iter().find(|x| x.print == print && x.tile == k && x.drawn == drawn && x.concealed == conc && x.positions == positions).map(|x| x.could)
        })
    }

    /// Keep `could_win_now`'s answer for a later state.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn keep_could(&self, st: &HandState, s: usize, conc: &[usize], k: usize, drawn: bool, positions: Vec<usize>, could: bool) {
        self.w.seats.with(st, s, self.on.generation, |e| {
            if e.could.len() >= ENTRIES {
                e.could.drain(..ENTRIES / 2);
            }
            e.could.push(KeptCould { print: print_of(conc), concealed: conc.to_vec(), tile: k, drawn, positions, could });
        })
    }

    /// Seat `s`'s melds as `melds_in` found them on an earlier state (the same melds).
    pub(super) fn kept_melds(&self, st: &HandState, s: usize) -> Option<Vec<MeldIn>> {
        let hand = self.on.hand;
        self.w.seats.with_parts(st, s, |e| e.melds_in.as_ref().filter(|(h, _)| *h == hand).map(|(_, m)| m.clone()))
    }

    /// Whether one of seat `s`'s melds as `melds_in` found them is exposed (None: not found yet).
    pub(super) fn kept_exposed(&self, st: &HandState, s: usize) -> Option<bool> {
        let hand = self.on.hand;
        self.w.seats.with_parts(st, s, |e| e.melds_in.as_ref().filter(|(h, _)| *h == hand).map(|(_, m)| m.iter().any(|x| x.exposed)))
    }

    /// Keep the melds `melds_in` found.
    pub(super) fn keep_melds(&self, st: &HandState, s: usize, melds: &[MeldIn]) {
        let hand = self.on.hand;
        self.w.seats.with_parts(st, s, |e| e.melds_in = Some((hand, melds.to_vec())))
    }

    /// Keep that seat `s` with the concealed tiles of `key` (`tiles_key`) is short of two blocks or more.
    pub(super) fn keep_short(&self, st: &HandState, s: usize, key: u128) {
        self.w.seats.with(st, s, self.on.generation, |e| {
            if e.short.len() >= SHORT {
                e.short.drain(..SHORT / 2);
            }
            e.short.push(key)
        })
    }

    /// Whether seat `s` with the concealed tiles of `key` (`tiles_key`) was found short of two blocks or
    /// more (`keep_short`) with its melds, tiles set aside and values as they are.
    pub(super) fn kept_short(&self, st: &HandState, s: usize, key: u128) -> bool {
        self.w.seats.with(st, s, self.on.generation, |e| e.short.contains(&key))
    }

    /// Whether `_seat_unmendable` (`count` of seat `s`'s concealed tiles, kept until they or the free
    /// kinds change) is `need` or more; or, before it is counted, whether the concealed tiles without the
    /// winning tile (`before`: their `tiles_key`) were kept as short of two blocks or more (`keep_short`),
    /// which `hopeless` reads as the same answer.
    pub(super) fn seat_short_of(&self, st: &HandState, s: usize, need: i64, before: impl FnOnce() -> Option<u128>, count: impl FnOnce() -> Option<i64>) -> bool {
        // (`count` reads the block tables, never these entries: it runs under their lock)
        self.w.seats.with(st, s, self.on.generation, |e| {
            if e.unmendable.is_none() && before().is_some_and(|key| e.short.contains(&key)) {
                return true;
            }
            e.unmendable.get_or_insert_with(count).is_some_and(|u| u >= need)
        })
    }
}
