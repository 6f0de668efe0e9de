//! The event rules of a rule set, read once from its versioned JSON for engine/events.rs and settle.rs
//! (runtime/game/program.py's view of them): effects with their targets, hooks by event, phases with
//! their enter and leave triggers by event, the effects and `decline` of each action, the reveals that
//! move, the payments, caps and fees; every expression among them gathered and lowered once for game
//! scope (engine/scope.rs), an expression the lowering refuses keeping its sentence.

// the events' tables by name, asked at every event: the core's fast keyed hash (src/hash.rs), not SipHash
type HashMap<K, V> = std::collections::HashMap<K, V, crate::hash::Keyed>;
type HashSet<K> = std::collections::HashSet<K, crate::hash::Keyed>;

use serde_json::{Map, Value as J};

use super::counts::EventNames;
use super::scope::{GameScope, WinQuestions, BOUND};
use super::settle::Payments;
use super::table::Table;
use crate::Error;

/// An effect's operation.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum EffOp {
    Set,
    Add,
    Remove,
    Clear,
    Emit,
    Roll,
    Give,
}

/// What an effect changes (`Events._target`): a table state, a state of the seat a binding names, a
/// context value, the event an `emit` raises, nothing (`give`).
#[derive(Clone)]
pub enum Target {
    Table(String),
    Seat(String, String),
    Context(String),
    Event(String),
    Nothing,
}

#[derive(Clone)]
pub struct Effect {
    pub op: EffOp,
    pub target: Target,
    pub label: String, // the dotted target, as the reference writes it in its chance record
    pub value: Option<usize>,
    pub times: usize,
    pub to: Option<usize>,
    /// A seat state's binding by slot of `scope::BOUND` (None: a name the events never bind), found
    /// once here rather than by name at every effect.
    pub seat_slot: Option<usize>,
    /// Where the holder's states usually hold the target's name (`Game._prepare`'s order: states, then
    /// phases, in declaration order): looked at first, the states searched by name only when it differs.
    pub hint: usize,
    /// A `set` of a seat's whole-number state to itself plus or minus a constant (`set actor.n =
    /// actor.n + 1`): whether it takes, and the constant (engine/effects.rs `bumped`; set once lowered).
    pub bump: Option<(bool, i64)>,
}

#[derive(Clone)]
pub struct Hook {
    pub when: Option<usize>,
    pub effects: Vec<Effect>,
}

pub struct Phase {
    pub name: String,
    pub table: bool,
    pub enter: HashMap<String, Vec<Option<usize>>>,
    pub leave: HashMap<String, Vec<Option<usize>>>,
    /// Where its holder's states hold it once set up (`hint`).
    pub hint: usize,
    /// The index of `phase_enter:NAME` among `Program::event_names`.
    pub entered: Option<usize>,
}

/// A phase an event enters or leaves (`Program::phases_of`): the phase (by its index in
/// `Program::phases`), the conditions to enter and to leave it on that event.
#[derive(Clone)]
pub struct PhaseOn {
    pub phase: usize,
    pub enter: Option<Vec<Option<usize>>>,
    pub leave: Option<Vec<Option<usize>>>,
}

/// The game's expressions gathered for one lowering: each gets its index in `GameScope::exprs`.
#[derive(Default)]
pub struct Exprs(pub Vec<J>);

impl Exprs {
    pub fn add(&mut self, e: Option<&J>) -> Option<usize> {
        let e = e.filter(|e| !e.is_null())?;
        self.0.push(e.clone());
        Some(self.0.len() - 1)
    }
}

/// What an event sets going, found with one lookup per event: hooks on it, a phase it enters or leaves,
/// payments on it (none of them: an event that is only counted); and where it is counted.
#[derive(Clone, Copy, Default)]
pub struct On {
    pub hooks: bool,
    pub phase: bool,
    pub pays: bool,
    /// Its index in `Program::event_names` (None: a name the rule set does not know, counted by name).
    pub id: Option<usize>,
}

impl On {
    /// Nothing but its count: no hook, phase or payment on it.
    pub fn counted_only(&self) -> bool {
        !(self.hooks || self.phase || self.pays)
    }
}

/// The events the engine raises itself (the hand's course: engine/turn.rs, claims.rs, ending.rs, …,
/// and the phases' own events), given an index whether or not a rule names them.
const ENGINE_EVENTS: [&str; 18] = [
    "deal", "opening", "turn", "draw", "discard", "decline", "claim", "kong", "ready", "added_kong", "reveal",
    "win_offer", "win", "exhaust", "hand_end", "settled", "phase_enter", "phase_leave",
];

/// The event rules of one rule set under one table, every expression lowered once.
pub struct Program {
    pub scope: GameScope,
    pub hooks_on: HashMap<String, Vec<Hook>>,
    pub phases: Vec<Phase>,
    pub phase_events: HashSet<String>,
    pub actions: HashMap<String, (Vec<Effect>, Vec<Effect>)>, // action -> (effects, decline)
    pub moving: Vec<(usize, usize)>,                          // (reveal index, its `moves_when`)
    /// Per `moving`: its condition reads only what the state's seen marks cover (engine/moving.rs).
    pub moving_seen: Vec<bool>,
    pub at_win: Vec<(usize, Option<usize>)>,                  // the reveals `at win`: (index, its `unless`)
    pub pay: Payments,
    /// Per event the rule set knows (`event_names`): what it sets going, its index.
    pub on: HashMap<String, On>,
    /// The names counted by index (engine/counts.rs), sorted: the events the engine raises, those a hook,
    /// a phase's trigger, a payment or an `emit` names, the actions, and the names the engine counts
    /// for a rule set's phases, states, reveals and actions (`phase_enter:P`, `state:S`, …).
    pub event_names: EventNames,
    /// By index of `event_names`: the hooks on the event (`hooks_on`'s), and the phases it enters or
    /// leaves in `phases`' order — read at every event by its index, not looked up by name.
    pub hooks_of: Vec<Vec<Hook>>,
    pub phases_of: Vec<Vec<PhaseOn>>,
    /// By expression: the index of its kept part among `keeps` (engine/kept.rs), None: it has none.
    pub keep_of: Vec<Option<u32>>,
    pub keeps: Vec<super::kept::Keep>,
    /// By expression: its leading conjuncts decided from the bindings (engine/guard.rs), None: it has none.
    pub guard_of: Vec<Option<super::guard::Guard>>,
}

fn bad(what: &str) -> Error {
    Error::Input(format!("the rule set's {what} is malformed"))
}

fn objects<'a>(m: &'a Map<String, J>, key: &str) -> Result<Vec<&'a Map<String, J>>, Error> {
    match m.get(key) {
        None | Some(J::Null) => Ok(Vec::new()),
        Some(J::Array(a)) => a.iter().map(|x| x.as_object().ok_or_else(|| bad(key))).collect(),
        _ => Err(bad(key)),
    }
}

pub fn text(m: &Map<String, J>, key: &str, default: &str) -> String {
    m.get(key).and_then(J::as_str).unwrap_or(default).to_owned()
}

/// Where a holder's states hold `name` once set up (setup.rs: the states of its scope, then its phases,
/// in declaration order; a seat's scope is `player`, the table's any other); usize::MAX: not declared.
pub fn hint(t: &Table, seat: bool, name: &str) -> usize {
    hint_of(t, seat, name).unwrap_or(usize::MAX)
}

/// `hint`, None where `name` is not declared.
pub fn hint_of(t: &Table, seat: bool, name: &str) -> Option<usize> {
    let states = t.rules.states.iter().filter(|s| (s.scope == "player") == seat).map(|s| s.name.as_str());
    let phases = t.rules.phases.iter().filter(|p| (p.scope == "player") == seat).map(|p| p.name.as_str());
    states.chain(phases).position(|n| n == name)
}

fn effects(t: &Table, list: &[&Map<String, J>], ex: &mut Exprs) -> Result<Vec<Effect>, Error> {
    let mut out = Vec::new();
    for e in list {
        let op = match text(e, "op", "").as_str() {
            "set" => EffOp::Set,
            "add" => EffOp::Add,
            "remove" => EffOp::Remove,
            "clear" => EffOp::Clear,
            "emit" => EffOp::Emit,
            "roll" => EffOp::Roll,
            "give" => EffOp::Give,
            _ => return Err(bad("effect")),
        };
        let parts: Vec<String> = e
            .get("target")
            .and_then(J::as_array)
            .map(|t| t.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let target = match (op, parts.as_slice()) {
            (EffOp::Give, _) => Target::Nothing,
            (EffOp::Emit, [name, ..]) => Target::Event(name.clone()),
            (_, [scope, name]) if scope == "table" => Target::Table(name.clone()),
            (_, [binding, name]) => Target::Seat(binding.clone(), name.clone()),
            (_, [name, ..]) => Target::Context(name.clone()),
            _ => return Err(bad("effect's target")),
        };
        let times = e.get("times").and_then(J::as_i64).unwrap_or(1);
        if !(1..=1000).contains(&times) {
            return Err(bad("roll's count"));
        }
        let (seat_slot, hint) = match &target {
            Target::Seat(binding, name) => (BOUND.iter().position(|b| b == binding), hint(t, true, name)),
            Target::Table(name) => (None, hint(t, false, name)),
            _ => (None, usize::MAX),
        };
        out.push(Effect {
            op,
            target,
            label: parts.join("."),
            value: ex.add(e.get("value")),
            times: times as usize,
            to: ex.add(e.get("to")),
            seat_slot,
            hint,
            bump: None,
        });
    }
    Ok(out)
}

fn triggers(m: &Map<String, J>, key: &str, ex: &mut Exprs) -> Result<HashMap<String, Vec<Option<usize>>>, Error> {
    let mut out: HashMap<String, Vec<Option<usize>>> = HashMap::default();
    for t in objects(m, key)? {
        out.entry(text(t, "event", "")).or_default().push(ex.add(t.get("cond")));
    }
    Ok(out)
}

/// The names the rule set counts by index (`Program::event_names`), sorted and distinct.
fn event_names(
    t: &Table,
    on: &HashMap<String, On>,
    hooks_on: &HashMap<String, Vec<Hook>>,
    actions: &HashMap<String, (Vec<Effect>, Vec<Effect>)>,
) -> EventNames {
    let mut names: Vec<String> = ENGINE_EVENTS.iter().map(|e| e.to_string()).collect();
    names.extend(on.keys().cloned());
    let emitted = hooks_on.values().flatten().flat_map(|h| &h.effects).chain(actions.values().flat_map(|(a, d)| a.iter().chain(d)));
    names.extend(emitted.filter_map(|ef| match &ef.target {
        Target::Event(e) => Some(e.clone()),
        _ => None,
    }));
    let r = &t.rules;
    for a in &r.action_names {
        names.push(a.clone());
        names.push(format!("decline:{a}"));
    }
    names.extend(r.phases.iter().map(|p| format!("phase_enter:{}", p.name)));
    names.extend(r.states.iter().map(|s| format!("state:{}", s.name)));
    for rv in &r.reveals {
        names.extend(["reveal", "reveal_move", "reveal_skip"].map(|k| format!("{k}:{}", rv.name)));
    }
    names.sort_unstable();
    names.dedup();
    names.into()
}

impl Program {
    /// The event rules of `ruleset_json` (the versioned JSON `t` was read from), lowered for `t`.
    pub fn new(t: &Table, ruleset_json: &str, wins: &dyn WinQuestions) -> Result<Program, Error> {
        let doc: J = serde_json::from_str(ruleset_json).map_err(|_| Error::Input("the rule set is not JSON".into()))?;
        let rs = doc.get("ruleset").and_then(J::as_object).ok_or_else(|| bad("document"))?;
        let mut ex = Exprs::default();
        let mut hooks_on: HashMap<String, Vec<Hook>> = HashMap::default();
        for h in objects(rs, "hooks")? {
            let when = ex.add(h.get("when"));
            let effs = effects(t, &objects(h, "effects")?, &mut ex)?;
            hooks_on.entry(text(h, "event", "")).or_default().push(Hook { when, effects: effs });
        }
        let mut phases = Vec::new();
        let mut phase_events = HashSet::default();
        for p in objects(rs, "phases")? {
            let enter = triggers(p, "enter", &mut ex)?;
            let leave = triggers(p, "leave", &mut ex)?;
            phase_events.extend(enter.keys().chain(leave.keys()).cloned());
            let (name, table) = (text(p, "name", ""), text(p, "scope", "player") == "table");
            phases.push(Phase { hint: hint(t, !table, &name), name, table, enter, leave, entered: None });
        }
        let mut actions = HashMap::default();
        for a in objects(rs, "actions")? {
            let effs = effects(t, &objects(a, "effects")?, &mut ex)?;
            let decline = effects(t, &objects(a, "decline")?, &mut ex)?;
            actions.insert(text(a, "name", ""), (effs, decline));
        }
        let mut moving = Vec::new();
        let mut at_win = Vec::new();
        for (i, r) in objects(rs, "reveals")?.into_iter().enumerate() {
            if let Some(e) = ex.add(r.get("moves_when")) {
                moving.push((i, e));
            }
            if text(r, "at", "deal") == "win" {
                at_win.push((i, ex.add(r.get("unless"))));
            }
        }
        let mut pay = Payments::new(rs, &mut ex)?;
        let scope = GameScope::new(t, &ex.0, wins);
        for pm in pay.on.values_mut().flatten() {
            pm.when_per_pair = pm.when.is_some_and(|e| super::kept::reads_pair(&scope, e));
        }
        let effects = hooks_on.values_mut().flatten().flat_map(|h| h.effects.iter_mut());
        for ef in effects.chain(actions.values_mut().flat_map(|(e, d)| e.iter_mut().chain(d.iter_mut()))) {
            ef.bump = super::effects::bump_of(&scope, ef);
        }
        let mut keeps = Vec::new();
        let keep_of = (0..scope.exprs.len())
            .map(|e| {
                let k = super::kept::keep_of(&scope, e)?;
                keeps.push(k);
                Some(keeps.len() as u32 - 1)
            })
            .collect();
        let guard_of = (0..scope.exprs.len()).map(|e| super::guard::guard_of(&scope, e)).collect();
        let moving_seen = moving.iter().map(|&(_, e)| super::moving::reads_seen_only(&scope, e)).collect();
        let mut on: HashMap<String, On> = HashMap::default();
        for e in hooks_on.keys() {
            on.entry(e.clone()).or_default().hooks = true;
        }
        for e in &phase_events {
            on.entry(e.clone()).or_default().phase = true;
        }
        for e in pay.on.keys() {
            on.entry(e.clone()).or_default().pays = true;
        }
        let event_names = event_names(t, &on, &hooks_on, &actions);
        for (i, e) in event_names.iter().enumerate() {
            on.entry(e.clone()).or_default().id = Some(i);
        }
        for ph in &mut phases {
            ph.entered = event_names.binary_search(&format!("phase_enter:{}", ph.name)).ok();
        }
        let hooks_of = event_names.iter().map(|e| hooks_on.get(e).cloned().unwrap_or_default()).collect();
        let phases_of = event_names
            .iter()
            .map(|e| {
                let on = |m: &HashMap<String, Vec<Option<usize>>>| m.get(e).cloned();
                let of = phases.iter().enumerate().map(|(k, ph)| PhaseOn { phase: k, enter: on(&ph.enter), leave: on(&ph.leave) });
                of.filter(|x| x.enter.is_some() || x.leave.is_some()).collect()
            })
            .collect();
        Ok(Program {
            scope, hooks_on, phases, phase_events, actions, moving, moving_seen, at_win, pay, on, event_names, hooks_of, phases_of,
            keep_of, keeps, guard_of,
        })
    }

    /// What `event` sets going (nothing: it is only counted).
    pub fn on(&self, event: &str) -> On {
        self.on.get(event).copied().unwrap_or_default()
    }

    /// Every expression's refusal (None: lowered), in the order gathered.
    pub fn refusals(&self) -> Vec<Option<String>> {
        self.scope.exprs.iter().map(|r| r.as_ref().err().cloned()).collect()
    }
}

