//! A seat's wait answers kept across states (the reference's `SeatMemo`, runtime/game/state.py): held
//! by the rule set's `Winning`, one entry list per seat, keyed by what the answers read — the seat's
//! concealed tiles (in order), its melds, the tiles it set aside, and the generation of the context
//! and reveal values (`OnValues::generation`: the scoring environments, the wildcards' kinds). When any
//! of them changes the seat's entries are dropped; a question declined on the state is not kept.
//! A claim window asks the same seats on state after state while only the actor's hand changes.

use std::sync::Mutex;

use super::{HandState, StateWins};

/// Entries one seat keeps before they start afresh (questions on one hand: waits, group waits, and
/// waits without each tile it holds).
const ENTRIES: usize = 32;

#[derive(Default)]
struct SeatEntries {
    hand: Vec<usize>,
    melds: Vec<(String, Vec<usize>, bool)>,
    aside: Vec<usize>,
    generation: u64,
    unmendable: Option<Option<i64>>,
    waits: Vec<(u8, Option<usize>, Vec<usize>)>, // (question, tile given up, the kinds)
}

/// Every seat's entries (the owner: `Winning`, for the table it was built for).
#[derive(Default)]
pub(super) struct SeatMemos(Mutex<Vec<SeatEntries>>);

impl SeatEntries {
    /// Whether the entries were made for seat `s` of `st` under `generation`; if not, they are dropped
    /// and keyed afresh.
    fn keep_for(&mut self, st: &HandState, s: usize, generation: u64) {
        let Some(seat) = st.seats.get(s) else { return };
        let same = self.generation == generation
            && self.hand == seat.hand
            && self.aside == seat.aside
            && self.melds.len() == seat.melds.len()
            && self.melds.iter().zip(&seat.melds).all(|(a, b)| a.0 == b.kind && a.1 == b.tiles && a.2 == b.exposed);
        if same {
            return;
        }
        self.generation = generation;
        self.hand.clone_from(&seat.hand);
        self.aside.clone_from(&seat.aside);
        self.melds.clear();
        self.melds.extend(seat.melds.iter().map(|m| (m.kind.clone(), m.tiles.clone(), m.exposed)));
        self.unmendable = None;
        self.waits.clear();
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
}

impl StateWins<'_> {
    /// The waits of question `q` (without one `without`) of seat `s`, kept from an earlier state.
    pub(super) fn kept_waits(&self, st: &HandState, s: usize, q: u8, without: Option<usize>) -> Option<Vec<usize>> {
        self.w.seats.with(st, s, self.on.generation, |e| e.waits.iter().find(|x| x.0 == q && x.1 == without).map(|x| x.2.clone()))
    }

    /// Keep the waits found for a later state.
    pub(super) fn keep_waits(&self, st: &HandState, s: usize, q: u8, without: Option<usize>, kinds: &[usize]) {
        self.w.seats.with(st, s, self.on.generation, |e| {
            if e.waits.len() >= ENTRIES {
                e.waits.clear();
            }
            e.waits.push((q, without, kinds.to_vec()));
        })
    }

    /// `_seat_unmendable`: `count` of seat `s`'s concealed tiles, kept until they (or the free kinds) change.
    pub(super) fn seat_unmendable(&self, st: &HandState, s: usize, count: impl FnOnce() -> Option<i64>) -> Option<i64> {
        // (`count` reads the block tables, never these entries: it runs under their lock)
        self.w.seats.with(st, s, self.on.generation, |e| *e.unmendable.get_or_insert_with(count))
    }
}
