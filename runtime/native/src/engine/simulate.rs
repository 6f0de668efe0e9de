//! Whole hands played natively by native bots, seed to end, with no Python per move
//! (docs/engine-native.md, "Switching backends"; runtime/game/native_simulate.py is the caller):
//! `EngineSim(ruleset_json, options)`, `play(hands, bots)` — each hand set up from its seed as
//! `Session.new_hand` sets it up, its decisions answered by the seats' bots (engine/bot_play.rs: the
//! random, greedy and efficiency bots of runtime/game/bots.py, seeded as `play_games` seeds them), and
//! what `play_games` tallies of it returned: winners, task, events, the payments' names, each winner's
//! score, fans by pattern and task factor (`Game._record`). The invariants are checked as the reference
//! checks them after every move (`Game._check_move`: the number of tiles and the money at every decision,
//! every tile by kind at the end); a hand that breaks one comes back with the sentence under "invariant",
//! which the caller reports as a violation. A hand the native engine refuses (a step not ported, a question it declines, an error the reference would note)
//! comes back with the sentence, and the caller plays it again in Python.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::json;

use super::bot_binding::EfficiencyRules;
use super::bot_play::{Bot, BotSetup};
use super::course::{Cx, Eng, Hand};
use super::event_rules::Program;
use super::offers::{Mv, Offers};
use super::rng::Rng;
use super::state::{HandState, Money};
use super::steps::{self, Step, Val};
use super::{ending, setup, table, turn, winning};
use crate::guarded;
use crate::hand::HandCtx;
use crate::program::V;

#[pyclass(module = "paili.runtime._native")]
pub struct EngineSim {
    table: table::Table,
    program: Program,
    offers: Offers,
    winning: winning::Winning,
    end: ending::EndRules,
    bots: Option<BotSetup>,
}

/// A hand to play: its setup seed, and per seat its bot's name and seed.
type HandIn<'py> = (Bound<'py, PyAny>, Vec<(String, Bound<'py, PyAny>)>);

/// One hand's tallies (the JSON object's text), or why the native engine did not play it to its end (`Broken`: an invariant
/// found broken, which the caller reports as a violation besides playing the hand again in Python).
enum Played {
    Over(String),
    Refused(String),
    Broken(String),
}

/// A text as JSON writes it (quoted, escaped as `serde_json` escapes it).
fn push_str_j(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("a str is written"));
}

/// A pair of whole numbers as the tallies write an exact number: `["n","d"]` (digits: nothing to escape).
fn push_pair_j(out: &mut String, n: impl std::fmt::Display, d: impl std::fmt::Display) {
    use std::fmt::Write;
    let _ = write!(out, "[\"{n}\",\"{d}\"]");
}

/// An exact number's JSON text, `["n","d"]` (None: not an exact number).
fn exact_text(v: &V) -> Option<String> {
    let mut out = String::new();
    match v {
        V::Int(i) => push_pair_j(&mut out, i, 1),
        V::Rat(n, d) => push_pair_j(&mut out, n, d),
        _ => return None,
    }
    Some(out)
}

/// Every copy by kind wherever it is (`HandState.tiles_everywhere`).
pub(super) fn tiles_everywhere(st: &HandState, kinds: usize) -> Vec<i64> {
    let mut c = vec![0i64; kinds];
    for &id in &st.wall {
        c[st.kind_of[id]] += 1;
    }
    for s in &st.seats {
        for &k in s.hand.iter().chain(&s.discards).chain(&s.aside).chain(s.melds.iter().flat_map(|m| m.tiles.iter())) {
            c[k] += 1;
        }
    }
    for &k in &st.out {
        c[k] += 1;
    }
    c
}

/// The tiles wherever they are, counted (the cheap check after every decision, as `Game._check_move`).
fn tiles_count(st: &HandState) -> usize {
    let seats: usize = st.seats.iter().map(|s| s.hand.len() + s.discards.len() + s.aside.len() + s.melds.iter().map(|m| m.tiles.len()).sum::<usize>()).sum();
    st.wall.len() + st.out.len() + seats
}

/// The invariants `Game._check_move` checks after a move (every tile by kind when the number of tiles is
/// off or `full`; the money every time): the first one broken, as a sentence, or None.
pub(super) fn broken(st: &HandState, names: &[String], start: &[Money], initial: &[i64], full: bool) -> Option<String> {
    if full || tiles_count(st) as i64 != initial.iter().sum::<i64>() {
        let now = tiles_everywhere(st, names.len());
        if now != initial {
            let diff: Vec<String> = now.iter().zip(initial).enumerate().filter(|(_, (a, b))| a != b).map(|(k, (a, b))| format!("{}: {b} -> {a}", names[k])).collect();
            return Some(format!("tiles not conserved in the native hand ({})", diff.join(", ")));
        }
    }
    // (whole amounts, the usual case, added as whole numbers: the same sum, without a fraction's gcd)
    let add = |a: Money, b: &Money| match (a.d, b.d) {
        (1, 1) => a.n.checked_add(b.n).map(Money::whole),
        _ => Money::new(a.n as i128 * b.d as i128 + b.n as i128 * a.d as i128, a.d as i128 * b.d as i128),
    };
    let mut sum = Some(st.fees);
    for d in &st.deltas {
        sum = sum.and_then(|x| add(x, d));
    }
    if sum != Some(Money::ZERO) {
        return Some("the native hand's payments do not balance (or past the native range)".into());
    }
    for (k, s) in st.seats.iter().enumerate() {
        if add(start[k], &st.deltas[k]) != Some(s.balance) {
            return Some(format!("seat {k}'s native balance is not its start plus its payments"));
        }
    }
    None
}

impl EngineSim {
    /// Play one hand to its end (or its refusal), its tallies as `play_games` reads them from `result()`.
    fn play_one(&self, hc: Option<(Python<'_>, &HandCtx)>, py: Python<'_>, seed_words: Vec<u32>, bots: &mut [Bot], mut chosen: Option<&mut Vec<usize>>) -> Played {
        let t = &self.table;
        let g = match setup::setup(t, &setup::Args { seed_words, dealer: None, balances: None, table: None, players: None, head: None, tail: None }) {
            Ok(g) => g,
            Err(crate::Error::Input(m) | crate::Error::NotCovered(m) | crate::Error::Internal(m)) => return Played::Refused(m),
        };
        let start: Vec<Money> = g.st.seats.iter().map(|s| s.balance).collect();
        let initial = tiles_everywhere(&g.st, t.names.len());
        let mut h = Hand { st: g.st, rng: g.rng, moves: 0, decided: Vec::new(), depth: 0, infos: vec![None; t.n], base: super::scope::bound_defaults(), base_self_drawn: None };
        let mut stack = vec![Step::hand()];
        let e = Eng { t, p: &self.program, o: &self.offers, w: &self.winning, end: &self.end, hand: hc };
        let mut value = Val::None;
        loop {
            let got = {
                let mut cx = Cx { e: &e, h: &mut h };
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| steps::run(&mut cx, &mut stack, value, turn::step)))
                    .unwrap_or_else(|_| Err("the native hand failed on this state (an internal error)".into()))
            };
            let mut ask = match got {
                Ok(Some(ask)) => ask,
                Ok(None) => break,
                Err(why) => return Played::Refused(why),
            };
            if let Some(why) = broken(&h.st, &t.names, &start, &initial, false) {
                return Played::Broken(why);
            }
            // a turn's moves left in the step: a random bot reads only how many there are and answers
            // with the index; the other bots read them copied
            if ask.own {
                let offered = stack.last().and_then(Step::offered).unwrap_or_default();
                if let (Some(&(s, _)), false) = (ask.options.first(), offered.is_empty()) {
                    if let Some(i) = bots[s].random_index(offered.len()) {
                        if let Some(c) = chosen.as_deref_mut() {
                            c.push(i);
                        }
                        h.moves += 1;
                        value = Val::Chosen(s, i);
                        continue;
                    }
                }
                ask.fill(&stack);
            }
            let mut seats: Vec<usize> = ask.options.iter().map(|(s, _)| *s).collect();
            seats.sort_unstable(); // `Game.current_seats`: in seat order
            let mut answers: Vec<(usize, Mv)> = Vec::with_capacity(seats.len());
            for s in seats {
                let legal = &ask.options.iter().find(|(x, _)| *x == s).expect("asked").1;
                if legal.is_empty() {
                    return Played::Refused("a seat asked with no legal move".into());
                }
                let bot = &mut bots[s];
                let i = match bot.choose(py, &e, &h.st, s, &ask, legal, self.bots.as_ref()) {
                    Ok(i) => i,
                    Err(why) => return Played::Refused(why),
                };
                answers.push((s, legal[i].clone()));
                if let Some(c) = chosen.as_deref_mut() {
                    c.push(i);
                }
                h.moves += 1;
            }
            value = Val::Answers(answers);
        }
        h.st.over = true;
        self.tallies(&e, &mut h, &start, &initial, chosen.as_deref().map(Vec::as_slice))
    }

    /// What `play_games` reads of a hand over (its `result()`, `violations`, `errors`).
    fn tallies(&self, e: &Eng, h: &mut Hand, start: &[Money], initial: &[i64], chosen: Option<&[usize]>) -> Played {
        let t = e.t;
        // the invariants `Game.check_invariants` checks at the end (every tile by kind): a failure is
        // reported, and the hand goes back to the reference
        if let Some(why) = broken(&h.st, &t.names, start, initial, true) {
            return Played::Broken(why);
        }
        let mut scores = Vec::new();
        let mut done: Vec<usize> = Vec::new();
        for &w in &h.st.winners.clone() {
            if done.contains(&w) {
                continue;
            }
            done.push(w);
            let Some(Some(i)) = h.infos.get(w).cloned() else { continue };
            let forms = &e.o.rules.actions[i.action].win_forms;
            let wins = e.w.on(t, &h.st, e.hand);
            let got = wins.recorded(&h.st, i.seat, &i.concealed, i.tile, i.self_drawn, forms);
            if let Some(why) = wins.take_declined() {
                return Played::Refused(format!("a win question the native machinery declines ({why})"));
            }
            let (score, fans) = match got {
                Ok(Some((score, fans))) if exact_text(&score).is_some() && exact_text(&score) == exact_text(&i.score) => (score, fans),
                _ => return Played::Refused("the winner's result scored at the hand's end differs from its win's".into()),
            };
            let tf = {
                let cx = Cx { e, h };
                cx.task_factor(&i)
            };
            let tf = match tf {
                Ok(v) => v,
                Err(why) => return Played::Refused(why),
            };
            let (Some(sc), Some(tf)) = (exact_text(&score), exact_text(&tf)) else {
                return Played::Refused("a score or task factor that is no exact number".into());
            };
            let fans = serde_json::to_string(&fans).expect("texts are written");
            scores.push(format!("{{\"seat\":{w},\"score\":{sc},\"fans\":{fans},\"task_factor\":{tf}}}"));
        }
        // the tallies written as text where they are made, in the keys' order `json!` would keep (no
        // JSON values built, copied into the line's object and written again)
        let st = &h.st;
        let mut out = String::with_capacity(512);
        out.push_str("{\"winners\":");
        out.push_str(&serde_json::to_string(&st.winners).expect("seats are written"));
        out.push_str(",\"task\":");
        push_str_j(&mut out, &st.task);
        out.push_str(",\"events\":{");
        for (k, (name, n)) in st.events.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            push_str_j(&mut out, name);
            out.push(':');
            out.push_str(&n.to_string());
        }
        out.push_str("},\"payments\":[");
        for (k, p) in st.payments.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            push_str_j(&mut out, &p.name);
        }
        out.push_str("],\"scores\":[");
        out.push_str(&scores.join(","));
        out.push_str("],\"moves\":");
        out.push_str(&h.moves.to_string());
        out.push_str(",\"fees\":");
        push_pair_j(&mut out, st.fees.n, st.fees.d);
        if let Some(c) = chosen {
            out.push_str(",\"chosen\":");
            out.push_str(&serde_json::to_string(c).expect("indices are written"));
        }
        out.push('}');
        Played::Over(out)
    }
}

#[pymethods]
impl EngineSim {
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = super::options_of(options)?;
        Ok(guarded(|| {
            let (table, program, offers, winning, end) = super::course::parts(ruleset_json, &opts)?;
            Ok(EngineSim { table, program, offers, winning, end, bots: None })
        })?)
    }

    /// The number of players these options give.
    fn players(&self) -> usize {
        self.table.n
    }

    /// Hand the native whole-hand scoring to the win questions (as `EngineHand.set_scoring`).
    #[pyo3(signature = (hands, forms, meld, group=None, signatures=None))]
    fn set_scoring(&mut self, py: Python<'_>, hands: Py<crate::hand::binding::Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<()> {
        self.winning.scoring = Some(winning::HandScoring::new(py, hands, forms, meld, group, signatures)?);
        Ok(())
    }

    /// What the greedy and efficiency bots read of the rule set: its constants (`EfficiencyRules`), the
    /// meld kinds by name (their ids), per action (name, wins, ready, forms, select, kong, the id of its
    /// first meld kind or -1, a meld kind of `same` shape among its forms), and the efficiency bot's two
    /// `Distance` objects (their native tables; the Python object answers a hand past them).
    #[allow(clippy::type_complexity)]
    fn set_bots(&mut self, py: Python<'_>, rules: Py<EfficiencyRules>, shapes: Vec<String>, actions: Vec<(String, bool, bool, bool, bool, bool, i64, bool)>, measure: Py<PyAny>, values: Py<PyAny>) {
        let scope = super::scope::GameScope::new(&self.table, &[], &self.winning);
        let jokers = self.table.cat.kinds.iter().map(|k| k.category == "joker").collect();
        self.bots = Some(BotSetup::new(py, rules, shapes, actions, measure, values, scope, jokers));
    }

    /// Play each hand (its setup seed, and per seat the bot's name and seed) to its end with the bots;
    /// per hand, JSON text: {"over": tallies} or {"refused": the sentence} (and "invariant": the sentence,
    /// for an invariant broken). `moves`: the tallies also give the moves made, in the order the seats
    /// answered (`Game.current_seats()[0]` first), each as its index in the seat's legal moves ("chosen":
    /// what a caller replays to log the hand).
    #[pyo3(signature = (hands, moves=false))]
    fn play(&self, py: Python<'_>, hands: Vec<HandIn<'_>>, moves: bool) -> PyResult<Vec<String>> {
        let mut prepared = Vec::with_capacity(hands.len());
        for (seed, bots) in &hands {
            let words = super::seed_words(seed)?;
            if bots.len() != self.table.n {
                return Err(pyo3::exceptions::PyValueError::new_err(format!("{} bots named for {} seats", bots.len(), self.table.n)));
            }
            let mut seats = Vec::with_capacity(bots.len());
            for (name, s) in bots {
                let rng = Rng::from_words(&super::seed_words(s)?);
                if name == "mixed" && self.bots.is_some() {
                    let mix = Rng::from_words(&super::seed_words(&s.call_method1("__xor__", (0x5EED,))?)?);
                    seats.push(super::bot_play::mixed_bot(rng, mix));
                    continue;
                }
                seats.push(Bot::new(name, rng, self.bots.is_some()).map_err(pyo3::exceptions::PyValueError::new_err)?);
            }
            prepared.push((words, seats));
        }
        let out = super::with_hand(py, &self.winning, |hc| {
            prepared
                .into_iter()
                .map(|(words, mut seats)| {
                    let mut chosen = Vec::new();
                    match self.play_one(hc, py, words, &mut seats, moves.then_some(&mut chosen)) {
                        Played::Over(j) => format!("{{\"over\":{j}}}"),
                        Played::Refused(why) => json!({ "refused": why }).to_string(),
                        Played::Broken(why) => json!({ "refused": format!("an invariant broken: {why}"), "invariant": why }).to_string(),
                    }
                })
                .collect::<Vec<String>>()
        });
        Ok(out)
    }
}
