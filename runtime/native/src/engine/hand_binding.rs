//! `EngineHand`, a hand played natively for Python (docs/engine-native.md, steps 4 and 7): set up as
//! `EngineTable.setup` sets it up (step 1), run to its first decision by the steps of engine/turn.rs;
//! the decision asked (`pending`), its legal moves (engine/offers.rs), a move applied (`apply`: validated,
//! an illegal move refused with one sentence and nothing changed) and the hand run on to the next one;
//! `snapshot`: `HandState.snapshot` with the continuation as `steps.continuation` writes it. A step not
//! ported stops the hand (`refused`: the sentence naming it); bench/engine_equivalence.py `native-play`
//! compares it with the reference move by move.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{json, Value as J};

use super::event_rules::Program;
use super::offers::{Act, Mv, Offers};
use super::steps::{self, Ask, Step, Val};
use super::course::{Cx, Eng, Hand};
use super::turn;
use super::{setup, table, winning};
use super::simulate::{broken, tiles_everywhere};
use super::state::Money;
use super::win::value_json as winning_value;
use super::bot_binding::{EfficiencyPolicy, EfficiencyRules, MixedState};
use super::bot_play::{choose_move, BotSetup, Which};
use crate::program::V;
use crate::guarded;

// Not `unsendable`: a game may be made on one thread and played or dropped on another (a server's worker
// threads, a garbage collection on any thread), as a Python game can; PyO3 checks each borrow, so a use
// while another thread holds it is an exception, never a panic. The engine's other classes are alike
// (tests/test_game_threads.py).
#[pyclass(module = "paili.runtime._native")]
pub struct EngineHand {
    table: table::Table,
    program: Program,
    offers: Offers,
    winning: winning::Winning,
    end: super::ending::EndRules,
    names: Vec<String>, // the actions' names by index (the continuation writes them)
    hand: Option<Hand>,
    stack: Vec<Step>,
    pending: Option<Ask>,
    answers: Vec<(usize, Mv)>,
    decision: u64,
    refused: Option<String>,
    // what the invariants after a move compare with (simulate.rs `broken`): the balances and the copies
    // of each kind the hand was set up with
    start_balances: Vec<Money>,
    initial: Vec<i64>,
    bots: Option<BotSetup>, // what the greedy and efficiency bots read of the rule set (`set_bots`)
}

/// What a move applied leaves for the caller's bookkeeping (`apply_step`, engine/observe.rs `act`): the move (JSON
/// text [action, tiles, choice, meld]), the seats the decision now asked asks (None: none), why the
/// native hand stopped (None: it did not), whether the invariants hold, and whether the hand is over.
pub(super) type Took = (String, Option<Vec<usize>>, Option<String>, bool, bool);

/// A move read from Python, with its action's name where the rule set does not declare it (the move is
/// then legal nowhere, and the sentence refusing it names it).
fn read_move(t: &table::Table, j: &J) -> Option<(Mv, Option<String>)> {
    let a = j.as_array().filter(|a| a.len() == 4)?;
    let tiles = a[1]
        .as_array()?
        .iter()
        .map(|x| x.as_str().and_then(|n| t.names.iter().position(|m| m == n)))
        .collect::<Option<Vec<usize>>>()?
        .into();
    let name = a[0].as_str()?;
    let action = Act::named(&t.rules.action_names, name);
    let mv = Mv {
        action,
        tiles,
        choice: if a[2].is_null() { None } else { Some(Box::new(a[2].clone())) },
        meld: a[3].as_str().map(Into::into),
    };
    Some((mv, (action == Act::UNKNOWN).then(|| name.to_owned())))
}

impl EngineHand {
    /// Run the steps with `value` until a decision or the end; a refusal stops the hand.
    fn advance(&mut self, py: Python<'_>, value: Val) {
        let Some(h) = self.hand.as_mut() else { return };
        let (t, p, o, w, end) = (&self.table, &self.program, &self.offers, &self.winning, &self.end);
        let stack = &mut self.stack;
        let got = super::with_hand(py, w, |hc| {
            let e = Eng { t, p, o, w, end, hand: hc };
            let mut cx = Cx { e: &e, h };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| steps::run(&mut cx, stack, value, turn::step)))
                .unwrap_or_else(|_| Err("the native hand failed on this state (an internal error)".into()))
        });
        match got {
            Ok(Some(mut ask)) => {
                ask.fill(&self.stack);
                self.decision += 1;
                self.pending = Some(ask);
            }
            Ok(None) => {
                self.pending = None;
                h.st.over = true;
            }
            Err(why) => {
                self.pending = None;
                self.refused = Some(why);
            }
        }
    }

    /// What engine/observe.rs reads of the hand: the table, the win machinery, the hand once started
    /// (not once stopped), the decision asked and the answers given to it.
    #[allow(clippy::type_complexity)] // the five parts observe.rs reads, borrowed together
    pub(super) fn observed(&self) -> (&table::Table, &winning::Winning, Option<&Hand>, Option<&Ask>, &[(usize, Mv)]) {
        let hand = if self.refused.is_some() { None } else { self.hand.as_ref() };
        (&self.table, &self.winning, hand, self.pending.as_ref(), &self.answers)
    }

    /// Whether the hand is over (its steps all run, not stopped).
    pub(super) fn over(&self) -> bool {
        self.hand.is_some() && self.refused.is_none() && self.stack.is_empty()
    }

    /// Seat's answer `mv` to the decision asked, checked as `apply` checks it (the sentence refusing it).
    pub(super) fn answer(&mut self, py: Python<'_>, seat: usize, mv: Mv, unknown: Option<&str>) -> Result<(), String> {
        if self.hand.is_none() {
            return Err("the hand is not started (call start first)".into());
        }
        if let Some(why) = &self.refused {
            return Err(format!("the native hand has stopped: {why}"));
        }
        let Some(ask) = &self.pending else {
            return Err("no decision is asked now".into());
        };
        let Some((_, legal)) = ask.options.iter().find(|(s, _)| *s == seat) else {
            return Err(format!("seat {seat} may not act now"));
        };
        if self.answers.iter().any(|(s, _)| *s == seat) {
            return Err(format!("seat {seat} has answered this decision"));
        }
        if !legal.contains(&mv) {
            let text = steps::move_text(&self.table, &mv);
            // (an action the rule set does not declare is written as it was given)
            let text = match unknown {
                Some(name) => format!("{name}{}", text.strip_prefix(Act::UNKNOWN.name(&[])).unwrap_or(&text)),
                None => text,
            };
            return Err(format!("`{text}` is not a legal move for seat {seat} now"));
        }
        let asked = ask.options.len();
        self.answers.push((seat, mv));
        if let Some(h) = self.hand.as_mut() {
            h.moves += 1;
        }
        if self.answers.len() == asked {
            let answers = std::mem::take(&mut self.answers);
            self.pending = None;
            self.advance(py, Val::Answers(answers));
        }
        Ok(())
    }

    /// Whether the invariants `Game._check_move` checks hold now (simulate.rs `broken`: the tiles by kind
    /// when their number is off or the hand is over, the money every time); true once stopped (the
    /// reference's game checks from then on).
    fn intact(&self) -> bool {
        match &self.hand {
            Some(h) if self.refused.is_none() => {
                broken(&h.st, &self.table.names, &self.start_balances, &self.initial, h.st.over).is_none()
            }
            _ => true,
        }
    }

    /// Seat's legal move number `index` applied (`apply_index`), and what it leaves (`Took`).
    pub(super) fn step_index(&mut self, py: Python<'_>, seat: usize, index: usize) -> Result<Took, String> {
        if self.hand.is_none() {
            return Err("the hand is not started (call start first)".into());
        }
        let mv = self
            .pending
            .as_ref()
            .filter(|_| !self.answers.iter().any(|(s, _)| *s == seat))
            .and_then(|a| a.options.iter().find(|(s, _)| *s == seat))
            .and_then(|(_, ms)| ms.get(index))
            .cloned()
            .ok_or_else(|| format!("seat {seat} has no legal move number {index} now"))?;
        // (written straight from the move's parts: the text `Mv::to_json` gives, without building its JSON
        // value first — a step of the learning environment writes one)
        let t = &self.table;
        let tiles: Vec<&str> = mv.tiles.iter().map(|&k| t.names[k].as_str()).collect();
        let text = serde_json::to_string(&(mv.action.name(&t.rules.action_names), tiles, &mv.choice, &mv.meld))
            .unwrap_or_else(|_| mv.to_json(t).to_string());
        self.answer(py, seat, mv, None)?;
        let asked = self.pending.as_ref().map(|a| a.options.iter().map(|(s, _)| *s).collect());
        Ok((text, asked, self.refused.clone(), self.intact(), self.is_over()))
    }

    fn state(&self) -> PyResult<&Hand> {
        self.hand.as_ref().ok_or_else(|| PyValueError::new_err("the hand is not started (call start first)"))
    }
}

#[pymethods]
impl EngineHand {
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = super::options_of(options)?;
        Ok(guarded(|| {
            let (table, program, offers, winning, end) = super::course::parts(ruleset_json, &opts)?;
            let names = offers.rules.actions.iter().map(|a| a.name.clone()).collect();
            Ok(EngineHand {
                table,
                program,
                offers,
                winning,
                end,
                names,
                hand: None,
                stack: Vec::new(),
                pending: None,
                answers: Vec::new(),
                decision: 0,
                refused: None,
                start_balances: Vec::new(),
                initial: Vec::new(),
                bots: None,
            })
        })?)
    }

    /// Hand the native whole-hand scoring to the win questions (as `EngineTable.set_scoring`: `group`
    /// and `signatures` for the hands holding wildcards or stand-ins).
    #[pyo3(signature = (hands, forms, meld, group=None, signatures=None))]
    fn set_scoring(&mut self, py: Python<'_>, hands: Py<crate::hand::binding::Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<()> {
        self.winning.scoring = Some(winning::HandScoring::new(py, hands, forms, meld, group, signatures)?);
        Ok(())
    }

    /// What the greedy and efficiency bots read of the rule set (as `EngineSim.set_bots`), for `bot_choose`.
    #[allow(clippy::type_complexity)]
    fn set_bots(&mut self, py: Python<'_>, rules: Py<EfficiencyRules>, shapes: Vec<String>, actions: Vec<(String, bool, bool, bool, bool, bool, i64, bool)>, measure: Py<PyAny>, values: Py<PyAny>) {
        let scope = super::scope::GameScope::new(&self.table, &[], &self.winning);
        let jokers = self.table.cat.kinds.iter().map(|k| k.category == "joker").collect();
        self.bots = Some(BotSetup::new(py, rules, shapes, actions, measure, values, scope, jokers));
    }

    /// Whether `set_bots` was called.
    fn has_bots(&self) -> bool {
        self.bots.is_some()
    }

    /// The index among seat's legal moves of the move the greedy bot (`policy` and `mixed` None), the
    /// efficiency bot (its state, `EfficiencyPolicy`) or the mixed bot (its generators, `MixedState`) plays
    /// now, chosen on the native state (engine/bot_play.rs, as `EngineSim.play` chooses); None where it is
    /// not asked, has answered, or the native side declines a question (the caller's Python bot then
    /// chooses, on the reference's game; the mixed bot's generators as they were).
    #[pyo3(signature = (seat, policy=None, mixed=None))]
    fn bot_choose(&self, py: Python<'_>, seat: usize, policy: Option<PyRefMut<'_, EfficiencyPolicy>>, mixed: Option<PyRefMut<'_, MixedState>>) -> Option<usize> {
        let (Some(h), Some(ask), None) = (self.hand.as_ref(), self.pending.as_ref(), self.refused.as_ref()) else { return None };
        if self.bots.is_none() || self.answers.iter().any(|(s, _)| *s == seat) {
            return None;
        }
        let legal = &ask.options.iter().find(|(s, _)| *s == seat)?.1;
        if legal.is_empty() {
            return None;
        }
        let (t, p, o, w, end) = (&self.table, &self.program, &self.offers, &self.winning, &self.end);
        let (mut policy, mut mixed) = (policy, mixed);
        let got = super::with_hand(py, w, |hc| {
            let e = Eng { t, p, o, w, end, hand: hc };
            let which = match (policy.as_mut(), mixed.as_mut()) {
                (_, Some(m)) => Which::Mixed(&mut m.m),
                (Some(x), None) => Which::Efficiency(&mut x.p),
                (None, None) => Which::Greedy,
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| choose_move(py, &e, &h.st, seat, ask, legal, self.bots.as_ref(), which)))
        });
        match got {
            Ok(Ok(i)) if i < legal.len() => Some(i),
            _ => None,
        }
    }

    /// Set the hand up (`seed`, `dealer`, `balances`, the values carried from the hand before (`table`,
    /// `players`) and a scenario's `wall` and `tail`, as `Game` takes them; as `EngineTable.setup`) and
    /// run it to its first decision.
    #[pyo3(signature = (seed, dealer=None, balances=None, table=None, players=None, wall=None, tail=None))]
    #[allow(clippy::too_many_arguments)] // `Game`'s keyword arguments, one for one
    fn start(
        &mut self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        dealer: Option<usize>,
        balances: Option<Vec<i64>>,
        table: Option<&Bound<'_, PyDict>>,
        players: Option<Vec<Option<Bound<'_, PyDict>>>>,
        wall: Option<&Bound<'_, PyAny>>,
        tail: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seed_words = super::seed_words(seed)?;
        let (head, tail) = (wall.map(super::notation_text).transpose()?, tail.map(super::notation_text).transpose()?);
        let rules = &self.table.rules;
        let table = table.map(|d| super::carried_values(Some(d), rules, "table")).transpose()?;
        let players = players
            .map(|p| p.iter().map(|d| super::carried_values(d.as_ref(), rules, "player")).collect::<PyResult<Vec<_>>>())
            .transpose()?;
        let t = &self.table;
        let g = guarded(|| setup::setup(t, &setup::Args { seed_words, dealer, balances, table, players, head, tail }))?;
        self.start_balances = g.st.seats.iter().map(|s| s.balance).collect();
        self.initial = tiles_everywhere(&g.st, t.names.len());
        self.hand = Some(Hand { st: g.st, rng: g.rng, moves: 0, decided: Vec::new(), depth: 0, infos: vec![None; self.table.n], base: super::scope::bound_defaults(), base_self_drawn: None });
        self.stack = vec![Step::hand()];
        self.pending = None;
        self.answers.clear();
        self.decision = 0;
        self.refused = None;
        self.advance(py, Val::None);
        Ok(())
    }

    /// Why the native hand stopped (a step not ported, named), or None.
    fn refused(&self) -> Option<String> {
        self.refused.clone()
    }

    fn is_over(&self) -> bool {
        self.hand.is_some() && self.refused.is_none() && self.stack.is_empty()
    }

    /// The decision asked (JSON text): its kind, event, actor, tile and each seat asked with its moves
    /// ([action, tiles, choice, meld]); None when none is asked (over, or stopped).
    fn pending(&self) -> Option<String> {
        let t = &self.table;
        self.pending.as_ref().map(|a| {
            let options: serde_json::Map<String, J> = a
                .options
                .iter()
                .map(|(s, ms)| (s.to_string(), J::Array(ms.iter().map(|m| m.to_json(t)).collect())))
                .collect();
            json!({
                "kind": a.kind, "event": a.event, "actor": a.actor,
                "tile": a.tile.map(|k| t.names[k].clone()), "options": options, "decision": self.decision,
            })
            .to_string()
        })
    }

    /// The seats the decision asks (answered or not), None when none is asked.
    fn asked(&self) -> Option<Vec<usize>> {
        self.pending.as_ref().map(|a| a.options.iter().map(|(s, _)| *s).collect())
    }

    /// Apply seat's legal move number `index` (in `legal_moves` order), as `apply` applies a move; the move
    /// applied, as JSON text [action, tiles, choice, meld]. Refused as `apply` refuses, and for an index
    /// past the seat's moves.
    fn apply_index(&mut self, py: Python<'_>, seat: usize, index: usize) -> PyResult<String> {
        self.state()?;
        self.step_index(py, seat, index).map(|t| t.0).map_err(PyValueError::new_err)
    }

    /// `apply_index`, and what the caller reads after a move in the same call (`Took`): the move applied,
    /// the seats asked now, why the hand stopped, whether the invariants hold, whether it is over.
    fn apply_step(&mut self, py: Python<'_>, seat: usize, index: usize) -> PyResult<Took> {
        self.state()?;
        self.step_index(py, seat, index).map_err(PyValueError::new_err)
    }

    /// Whether the invariants `Game._check_move` checks hold now (the caller writes the reference's
    /// sentences where they do not).
    fn invariants_hold(&self) -> bool {
        self.intact()
    }

    /// The seats still to answer the decision asked.
    fn current_seats(&self) -> Vec<usize> {
        match &self.pending {
            None => Vec::new(),
            Some(a) => a.options.iter().map(|(s, _)| *s).filter(|s| !self.answers.iter().any(|(x, _)| x == s)).collect(),
        }
    }

    /// Seat's legal moves now (JSON text, a list of [action, tiles, choice, meld]).
    fn legal_moves(&self, seat: usize) -> String {
        let t = &self.table;
        let ms: Vec<J> = match &self.pending {
            Some(a) if !self.answers.iter().any(|(x, _)| *x == seat) => a
                .options
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, ms)| ms.iter().map(|m| m.to_json(t)).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        J::Array(ms).to_string()
    }

    /// Apply seat's answer (`move`: JSON [action, tiles, choice, meld]) and run on once every seat asked
    /// has answered. Refused (ValueError, one sentence, nothing changed): no decision asked, a seat not
    /// asked or that has answered, a move that is not legal now.
    fn apply(&mut self, py: Python<'_>, seat: usize, r#move: &str) -> PyResult<()> {
        self.state()?;
        if let Some(why) = &self.refused {
            return Err(PyValueError::new_err(format!("the native hand has stopped: {why}")));
        }
        if self.pending.is_none() {
            return Err(PyValueError::new_err("no decision is asked now"));
        }
        let t = &self.table;
        let (mv, unknown) = serde_json::from_str::<J>(r#move)
            .ok()
            .and_then(|j| read_move(t, &j))
            .ok_or_else(|| PyValueError::new_err("a move is [action, tiles, choice, meld] with tiles of this rule set"))?;
        self.answer(py, seat, mv, unknown.as_deref()).map_err(PyValueError::new_err)
    }

    /// `HandState.snapshot()` and the continuation, as JSON text: {"state", "continuation", "depth"} (depth:
    /// the events whose decisions are being asked, nested: `Game.decision_depth`).
    fn snapshot(&self) -> PyResult<String> {
        let h = self.state()?;
        let t = &self.table;
        Ok(json!({
            "state": h.st.snapshot(&t.names),
            "continuation": steps::continuation(t, &self.names, &h.decided, &self.stack),
            "depth": h.depth,
        })
        .to_string())
    }

    /// The winners' records as `Game._record` writes them (`Game.result()`'s `scores`), as JSON text
    /// {seat: {action, tile, self_drawn, score, total, form, fans: [[label, pattern, value, count]],
    /// task_factor}} with numbers as `plain` writes them; each win scored again on the final state by the
    /// whole-hand scorer. None where that is not known natively (a win the native scoring declines, or
    /// scored to another score than the hand's own: the caller replays the hand in Python).
    fn results(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        self.state()?;
        if self.refused.is_some() {
            return Ok(None);
        }
        let Some(h) = self.hand.as_mut() else { return Ok(None) };
        let (t, p, o, w, end) = (&self.table, &self.program, &self.offers, &self.winning, &self.end);
        let names = &self.names;
        let got = super::with_hand(py, w, |hc| {
            let e = Eng { t, p, o, w, end, hand: hc };
            let cx = Cx { e: &e, h };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Option<J> {
                let number = |v: &V| matches!(v, V::Int(_) | V::Rat(..)).then(|| winning_value(v));
                let mut out = serde_json::Map::new();
                for &s in &cx.h.st.winners {
                    let i = cx.h.infos.get(s)?.as_ref()?;
                    let forms = &o.rules.actions.get(i.action)?.win_forms;
                    let wins = w.on(t, &cx.h.st, hc);
                    let r = wins.record(&cx.h.st, s, &i.concealed, i.tile, i.self_drawn, forms).ok()??;
                    if wins.take_declined().is_some() || winning_value(&r.score) != winning_value(&i.score) {
                        return None;
                    }
                    let factor = cx.task_factor(i).ok()?;
                    let fans: Vec<J> = r.fans.iter().map(|(l, pn, v, n)| Some(json!([l, pn, number(v)?, n]))).collect::<Option<_>>()?;
                    out.insert(s.to_string(), json!({
                        "action": names.get(i.action)?, "tile": i.tile.map(|k| t.names[k].clone()),
                        "self_drawn": i.self_drawn, "score": number(&r.score)?, "total": number(&r.total)?,
                        "form": r.form, "fans": fans, "task_factor": number(&factor)?,
                    }));
                }
                Some(J::Object(out))
            }))
            .ok()
            .flatten()
        });
        Ok(got.map(|j| j.to_string()))
    }

    /// The fields of the state `Game.result()` reads (JSON text), as `snapshot` writes them under "state"
    /// (each seat's balance as "balances"), without writing the rest of the state.
    fn outcome(&self) -> PyResult<String> {
        let st = &self.state()?.st;
        let seat_no = |s: Option<usize>| s.map(|s| json!(s)).unwrap_or(J::Null);
        Ok(json!({
            "over": st.over, "winners": st.winners, "exhausted": st.exhausted, "dealer": st.dealer,
            "discarder": seat_no(st.discarder), "robbed": seat_no(st.robbed), "next_dealer": seat_no(st.next_dealer),
            "task": st.task, "payments": st.payments_json(), "fees": st.fees.plain(),
            "deltas": st.deltas.iter().map(Money::plain).collect::<Vec<_>>(), "events": st.events.to_json(),
            "first_winners": st.first_winners,
            "balances": st.seats.iter().map(|s| s.balance.plain()).collect::<Vec<_>>(),
        })
        .to_string())
    }

    /// What `Game._check_move` reads after a move, without writing the whole snapshot (JSON text): the
    /// number of tiles in play and out of it (`tiles`), whether the hand is over, the payments' deltas and
    /// fees and each seat's balance as `plain` writes them.
    fn tally(&self) -> PyResult<String> {
        let st = &self.state()?.st;
        let mut tiles = st.wall.len() + st.out.len();
        for s in &st.seats {
            tiles += s.hand.len() + s.discards.len() + s.aside.len() + s.melds.iter().map(|m| m.tiles.len()).sum::<usize>();
        }
        Ok(json!({
            "tiles": tiles, "over": st.over, "fees": st.fees.plain(),
            "deltas": st.deltas.iter().map(|d| d.plain()).collect::<Vec<_>>(),
            "balances": st.seats.iter().map(|s| s.balance.plain()).collect::<Vec<_>>(),
        })
        .to_string())
    }
}
