//! The bots of runtime/game/bots.py playing a native hand (engine/simulate.rs): `RandomBot` (its own
//! `random.Random(seed)`: `randrange(len(moves))`), `GreedyBot` and `EfficiencyBot` (engine/bots.rs, the
//! reference's policies as pure functions) with what only the game answers asked of the native state
//! (`StateAsk`: the seat's waits, its waits without a tile, a win on a tile, the copies in sight, by
//! engine/winning.rs `StateWins`) — not of a Python game. The moves as the policies read them are encoded
//! as runtime/game/native_bot.py `Encoding.move` encodes them, from per-action flags the Python side
//! works out once (runtime/game/native_bot.py `action_flags`). `choose_move` is also what `EngineHand.bot_choose`
//! answers for a `Game` on the native backend (runtime/game/native_bot.py `game_choice`).

use pyo3::prelude::*;

use super::bot_binding::EfficiencyRules;
use super::bots::{greedy_choose, mixed_choose, Ask, Choice, Mixed, MixedMoves, MoveIn, Policy, SeatIn};
use super::course::Eng;
use super::distance::DistanceTables;
use super::offers::{Act as MoveAct, Mv};
use super::rng::Rng;
use super::scope::{bound_defaults, GameScope};
use super::state::HandState;
use super::steps;
use super::values::{hand_wilds, Ev};
use super::winning::StateWins;
use crate::program::V;

/// Per action, what the policies read of it (`Encoding.move`).
struct Act {
    wins: bool,
    ready: bool,
    forms: bool,
    select: bool,
    kong: bool,
    first: i64, // the id of its first meld kind (-1: none)
    same: bool, // a meld kind of `same` shape among its forms (greedy's melds)
}

/// What the greedy and efficiency bots read of the rule set, and the efficiency bot's measures.
pub struct BotSetup {
    rules: Py<EfficiencyRules>,
    shapes: Vec<String>,
    actions: Vec<(String, Act)>,
    measure: Py<PyAny>,
    values: Py<PyAny>,
    tables: Option<Py<DistanceTables>>,
    vtables: Option<Py<DistanceTables>>,
    scope: GameScope, // no expressions: `visible_count` on the state
    jokers: Vec<bool>,
}

type ActionFlags = (String, bool, bool, bool, bool, bool, i64, bool);

impl BotSetup {
    #[allow(clippy::too_many_arguments)]
    pub fn new(py: Python<'_>, rules: Py<EfficiencyRules>, shapes: Vec<String>, actions: Vec<ActionFlags>, measure: Py<PyAny>, values: Py<PyAny>, scope: GameScope, jokers: Vec<bool>) -> BotSetup {
        let tables_of = |d: &Py<PyAny>| -> Option<Py<DistanceTables>> {
            d.bind(py).getattr("native").ok()?.cast_into::<DistanceTables>().ok().map(|b| b.unbind())
        };
        let (tables, vtables) = (tables_of(&measure), tables_of(&values));
        let actions = actions
            .into_iter()
            .map(|(name, wins, ready, forms, select, kong, first, same)| (name, Act { wins, ready, forms, select, kong, first, same }))
            .collect();
        BotSetup { rules, shapes, actions, measure, values, tables, vtables, scope, jokers }
    }

    fn shape_of(&self, kind: &str) -> i64 {
        self.shapes.iter().position(|k| k == kind).map_or(-1, |i| i as i64)
    }

    /// `Encoding.move`: a move as the policies read it.
    fn move_in(&self, names: &[String], m: &Mv) -> MoveIn {
        let name = m.action.name(names);
        let a = self.actions.iter().find(|(n, _)| n == name).map(|(_, a)| a);
        let shape = match (a, &m.meld) {
            (Some(_), Some(k)) => self.shape_of(k),
            (Some(a), None) => a.first,
            (None, _) => -1,
        };
        let pass = m.action == MoveAct::PASS && m.tiles.is_empty() && m.choice.is_none() && m.meld.is_none();
        MoveIn {
            win: a.is_some_and(|a| a.wins),
            ready: a.is_some_and(|a| a.ready),
            meld: a.is_some_and(|a| a.forms) && !m.tiles.is_empty(),
            discard: m.action == MoveAct::DISCARD,
            pass,
            select: a.is_some_and(|a| a.select),
            kong: a.is_some_and(|a| a.kong),
            shape,
            tiles: m.tiles.to_vec(),
            same: a.is_some_and(|a| a.same),
        }
    }

    /// The seat's data as `native_choice` hands them over.
    fn seat_in(&self, e: &Eng, st: &HandState, seat: usize, ask: &steps::Ask) -> SeatIn {
        let s = &st.seats[seat];
        let wild = hand_wilds(e.t, st);
        SeatIn {
            hand: s.hand.clone(),
            melds: s.melds.iter().map(|m| (self.shape_of(&m.kind), m.tiles.clone())).collect(),
            drawn: s.drawn,
            wild,
            outside: if ask.kind == "turn" || ask.kind == "deal" { None } else { ask.tile },
            players: st.n as i64,
        }
    }
}

/// A seat's bot, as `play_games` makes it for one game.
pub enum Bot {
    Random(Box<Rng>),
    Greedy,
    Efficiency(Box<Policy>),
    Mixed(Box<Mixed>),
}

/// Which policy `choose_move` plays: greedy, the efficiency bot (its state) or the mixed bot (its
/// generators, advanced only when the choice is made natively).
pub enum Which<'a> {
    Greedy,
    Efficiency(&'a mut Policy),
    Mixed(&'a mut Mixed),
}

impl Bot {
    /// The bot named `name` with its generator (`random.Random(seed)`); greedy and efficiency need the
    /// rule set's bot data (`has_setup`).
    pub fn new(name: &str, rng: Rng, has_setup: bool) -> Result<Bot, String> {
        match name {
            "random" => Ok(Bot::Random(Box::new(rng))),
            "greedy" if has_setup => Ok(Bot::Greedy),
            "efficiency" if has_setup => Ok(Bot::Efficiency(Box::default())),
            "mixed" if has_setup => Err("the mixed bot is made with both its generators (mixed_bot)".into()),
            "greedy" | "efficiency" | "mixed" => Err(format!("the {name} bot needs the rule set's bot data (set_bots)")),
            _ => Err(format!("the native simulation has no bot {:?} (random, greedy, efficiency, mixed)", name.chars().take(40).collect::<String>())),
        }
    }

    /// The index a random bot plays among `n` moves, which is all it reads of them (None: another bot).
    pub fn random_index(&mut self, n: usize) -> Option<usize> {
        match self {
            Bot::Random(rng) => Some(rng.randrange(n as u64) as usize),
            _ => None,
        }
    }

    /// The index in `legal` of the move this bot plays; Err: why the native side cannot answer (a
    /// question declined or stopped on), the hand then goes back to the reference.
    #[allow(clippy::too_many_arguments)]
    pub fn choose(&mut self, py: Python<'_>, e: &Eng, st: &HandState, seat: usize, ask: &steps::Ask, legal: &[Mv], setup: Option<&BotSetup>) -> Result<usize, String> {
        match self {
            Bot::Random(rng) => Ok(rng.randrange(legal.len() as u64) as usize), // (as `random_index`)
            Bot::Greedy => choose_move(py, e, st, seat, ask, legal, setup, Which::Greedy),
            Bot::Efficiency(p) => choose_move(py, e, st, seat, ask, legal, setup, Which::Efficiency(p)),
            Bot::Mixed(m) => choose_move(py, e, st, seat, ask, legal, setup, Which::Mixed(m)),
        }
    }
}

/// The mixed bot of its two generators (`MixedBot(seed)`: `random.Random(seed)` and
/// `random.Random(seed ^ 0x5EED)`).
pub fn mixed_bot(rng: Rng, mix: Rng) -> Bot {
    Bot::Mixed(Box::new(Mixed { rng, mix, patience: 0.95 }))
}

/// What the mixed bot reads of the moves beyond `MoveIn` (bots.rs `MixedMoves`).
fn mixed_moves(legal: &[Mv], drawn: Option<usize>) -> (Vec<usize>, Vec<bool>, Option<usize>) {
    // the kinds in the order of their first move, as the reference groups the moves' action names
    let mut kinds: Vec<MoveAct> = Vec::new();
    let kind_of = legal
        .iter()
        .map(|m| match kinds.iter().position(|a| *a == m.action) {
            Some(i) => i,
            None => {
                kinds.push(m.action);
                kinds.len() - 1
            }
        })
        .collect();
    let discard_kind = kinds.iter().map(|a| *a == MoveAct::DISCARD).collect();
    let throw = drawn.and_then(|d| legal.iter().position(|m| m.action == MoveAct::DISCARD && m.tiles[..] == [d] && m.choice.is_none() && m.meld.is_none()));
    (kind_of, discard_kind, throw)
}

/// The index in `legal` of the move the greedy bot, the efficiency bot (its state) or the mixed bot (its
/// generators: advanced only when the move is chosen here) plays; Err as `Bot::choose`.
/// `EngineHand.bot_choose` asks it for a `Game` on the native backend.
#[allow(clippy::too_many_arguments)]
pub fn choose_move(py: Python<'_>, e: &Eng, st: &HandState, seat: usize, ask: &steps::Ask, legal: &[Mv], setup: Option<&BotSetup>, which: Which<'_>) -> Result<usize, String> {
    let bs = setup.ok_or("the bot needs the rule set's bot data")?;
    let r = &bs.rules.get().r;
    let moves: Vec<MoveIn> = legal.iter().map(|m| bs.move_in(&e.t.rules.action_names, m)).collect();
    let s = bs.seat_in(e, st, seat, ask);
    let wins = e.w.on(e.t, st, e.hand);
    let ev = Ev::new(&bs.scope, e.t, st, &s.wild, &wins, bound_defaults());
    let measure = bs.measure.bind(py);
    let values = bs.values.bind(py);
    let tables = bs.tables.as_ref().map(|t| t.bind(py).clone());
    let vtables = bs.vtables.as_ref().map(|t| t.bind(py).clone());
    let mut a = StateAsk { wins: &wins, st, seat, ev: &ev, jokers: &bs.jokers, measure, values, tables, vtables };
    let mut trial = None; // the mixed bot's generators as this choice leaves them, kept once it is made
    let mut which = which;
    let got = match &mut which {
        Which::Efficiency(p) => p.choose(r, &s, &moves, &mut a),
        Which::Greedy => greedy_choose(r, &s, &moves, &mut a),
        Which::Mixed(m) => {
            let (kind_of, discard_kind, throw) = mixed_moves(legal, s.drawn);
            let mm = MixedMoves { kind_of: &kind_of, discard_kind: &discard_kind, throw };
            let mut t = (**m).clone();
            let got = mixed_choose(r, &s, &st.seats[seat].discards, &moves, &mm, &mut t, &mut a);
            trial = Some(t);
            got
        }
    };
    if let Some(why) = wins.take_declined() {
        return Err(format!("a bot's question the native machinery declines ({why})"));
    }
    let got = got?;
    if let (Which::Mixed(m), Some(t)) = (which, trial) {
        *m = t;
    }
    match got {
        Choice::Move(i) if i < legal.len() => Ok(i),
        Choice::Move(_) => Err("a bot chose a move out of range".into()),
        Choice::Pass => moves.iter().position(|m| m.pass).ok_or_else(|| "a bot passed where pass is not legal".into()),
    }
}

/// What only the game answers, asked of the native state (as `EngineTable.ask_seat` asks it).
struct StateAsk<'a, 'py> {
    wins: &'a StateWins<'a>,
    st: &'a HandState,
    seat: usize,
    ev: &'a Ev<'a>,
    jokers: &'a [bool], // per kind: a joker (the tile value's flag)
    measure: &'a Bound<'py, PyAny>,
    values: &'a Bound<'py, PyAny>,
    tables: Option<Bound<'py, DistanceTables>>,
    vtables: Option<Bound<'py, DistanceTables>>,
}

fn stop<T>(r: Result<T, crate::program::Stop>) -> Result<T, String> {
    r.map_err(|_| "the native hand stopped on a bot's question where the reference would raise".to_string())
}

fn py<T>(r: PyResult<T>) -> Result<T, String> {
    r.map_err(|e| format!("the Python measure failed: {e}"))
}

fn native<T>(r: Result<Option<T>, crate::Error>) -> Result<Option<T>, String> {
    r.map_err(|_| "the native measure failed on this hand".to_string())
}

impl Ask for StateAsk<'_, '_> {
    type E = String;
    fn waits(&mut self) -> Result<Vec<usize>, String> {
        stop(self.wins.waits(self.st, self.seat))
    }
    fn waits_without(&mut self, kind: usize, groups: bool) -> Result<Vec<usize>, String> {
        stop(self.wins.waits_without(self.st, self.seat, kind, groups))
    }
    fn wins(&mut self, without: usize, kind: usize, drawn: bool) -> Result<bool, String> {
        stop(self.wins.wins(self.st, self.seat, without, kind, drawn))
    }
    fn visible(&mut self, kind: usize) -> Result<i64, String> {
        let code = ((kind as u32) << 2) | self.jokers[kind] as u32;
        match stop(self.ev.visible_count(&V::Tile(code)))? {
            V::Int(x) => Ok(x),
            _ => Err("a count in sight that is no number".into()),
        }
    }
    fn distance(&mut self, value: bool, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<i64, String> {
        let (t, d) = if value { (&self.vtables, self.values) } else { (&self.tables, self.measure) };
        if let Some(t) = t {
            let m = &mut t.borrow_mut().m;
            if let Some(x) = native(crate::guarded(|| m.distance(counts, wilds, melds, need)))? {
                return Ok(x);
            }
        }
        py(d.call_method1("distance", (counts.to_vec(), wilds, melds, need)).and_then(|x| x.extract()))
    }
    fn settled(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<i64, String> {
        if let Some(t) = &self.tables {
            let m = &mut t.borrow_mut().m;
            if let Some(x) = native(crate::guarded(|| m.settled(counts, wilds, melds, need)))? {
                return Ok(x);
            }
        }
        py(self.measure.call_method1("settled", (counts.to_vec(), wilds, melds, need)).and_then(|x| x.extract()))
    }
    fn improving(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<(i64, Vec<usize>), String> {
        if let Some(t) = &self.tables {
            let m = &mut t.borrow_mut().m;
            let mut c = counts.to_vec();
            if let Some(x) = native(crate::guarded(|| m.improving(&mut c, wilds, melds, need)))? {
                return Ok(x);
            }
        }
        py(self.measure.call_method1("improving", (counts.to_vec(), wilds, melds, need)).and_then(|x| x.extract()))
    }
    fn distances_without(&mut self, value: bool, counts: &[i64], wilds: i64, melds: i64, need: i64, kinds: &[usize]) -> Result<Option<Vec<i64>>, String> {
        let (t, measure) = if value { (&self.vtables, self.values) } else { (&self.tables, self.measure) };
        let Some(t) = t else { return Ok(None) };
        let got = {
            let m = &mut t.borrow_mut().m;
            let mut c = counts.to_vec();
            crate::guarded(|| m.distances_without(&mut c, wilds, melds, need, kinds)).map_err(|_| "the native measure failed on this hand".to_string())?
        };
        let mut out = Vec::with_capacity(kinds.len());
        let mut c = counts.to_vec();
        for (&k, d) in kinds.iter().zip(got) {
            out.push(match d {
                Some(d) => d,
                None => {
                    // outside the packed keys: the reference's answer, as `distance` asks it
                    c[k] -= 1;
                    let d = py(measure.call_method1("distance", (c.clone(), wilds, melds, need)).and_then(|x| x.extract()));
                    c[k] += 1;
                    d?
                }
            });
        }
        Ok(Some(out))
    }
    fn has_targets(&mut self, melds: i64, size: i64) -> Result<bool, String> {
        if let Some(t) = &self.tables {
            return Ok(t.borrow_mut().m.has_targets(melds, size));
        }
        py(self.measure.call_method1("targets", (melds, size)).and_then(|x| x.is_truthy()))
    }
}
