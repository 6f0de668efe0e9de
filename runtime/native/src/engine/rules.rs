//! The records of the versioned JSON rule set the game engine reads (beyond the tiles and melds of
//! src/ruleset.rs): the table, settings with their types, states, phases, reveals, tasks, and the
//! actions, hooks, payments and phase triggers by event. Fields equal to their IR default are left out
//! of the JSON (runtime/ir/nodes.py gives the defaults read here). Anything malformed is an
//! `Error::Input` of one sentence.

use std::collections::HashSet;

use serde_json::{Map, Value as J};

use crate::Error;

pub struct Table {
    pub players: J,
    pub hand: i64,
    pub dealer_extra: i64,
    pub first_dealer: String, // random | owner
    pub rotation: String,     // counter_clockwise | clockwise
    pub exhaust_at: i64,
    pub replacement: String, // head | tail
    pub winners_leave: bool,
}

pub struct SettingDef {
    pub name: String,
    pub role: String, // option | context
    pub ty: String,   // bool | int | num | seat | tile | suit
    pub default: J,
    pub range: Option<(i64, i64)>,
    pub values: Vec<J>,
}

pub struct StateDef {
    pub name: String,
    pub scope: String, // player | table
    pub ty: String,
    pub init: J,
    pub lives: String, // hand | session
}

pub struct PhaseDef {
    pub name: String,
    pub scope: String,
}

pub struct RevealDef {
    pub name: String,
    pub source: String, // head | tail
    pub offset: i64,
    pub skip: String,
    pub removes_copy: bool,
    pub at: String, // deal | win
    pub unless: Option<J>,
    pub visible: bool,
}

/// A meld kind as the game reads it (`Game.mk`): how a laid-down meld of it shows and plays.
pub struct MeldDef {
    pub name: String,
    pub exposed: bool,
    pub pair: bool,
    pub kong: bool,
    pub shown: Option<i64>, // tiles shown face up when concealed (None: the kind's default)
}

pub struct EffectDef {
    pub op: String,
    pub target: Vec<String>,
    pub value: Option<J>,
}

/// A compulsory action `draw` opens for a flower set aside (`Setup._flower_effects`): no meld forms,
/// no wins, not a restatement of the engine's draw.
pub struct FlowerAction {
    pub name: String,
    pub when: Option<J>,
    pub effects: Vec<EffectDef>,
}

pub struct GameRules {
    pub variant: String,
    pub table: Table,
    pub settings: Vec<SettingDef>,
    pub states: Vec<StateDef>,
    pub phases: Vec<PhaseDef>,
    pub reveals: Vec<RevealDef>,
    pub tasks: Vec<String>,
    pub flower_actions: Vec<FlowerAction>,
    /// Events with hooks, with payments, or that enter or leave a phase: raising one runs rules.
    pub ruled_events: HashSet<String>,
    /// What `runtime/game/engine_limits.py` lists as not executed by games (the first, as a sentence
    /// fragment): the Python engine refuses such a rule set, and so does this one.
    pub unexecuted: Option<String>,
    /// The wildcards: (the kind or reveal they name, their scope: hand | win_tile).
    pub wilds: Vec<(String, String)>,
    pub melds: Vec<MeldDef>,
    /// The actions' names in file order: what a move's action id (engine/offers.rs `Act`) stands for.
    pub action_names: Vec<String>,
}

/// Events whose actions the engine offers in its own steps (`engine_limits.ENGINE_OFFERED`).
const ENGINE_OFFERED: [&str; 8] = [
    "turn",
    "draw",
    "reveal",
    "discard",
    "added_kong",
    "win_offer",
    "deal",
    "opening",
];

fn strings(m: &Map<String, J>, key: &str) -> Vec<String> {
    m.get(key)
        .and_then(J::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// `engine_limits.unexecuted`, its first finding: an `emit` of an event that opens actions, a `then`
/// other than `none`/`auto` on an action opened by an event the engine does not offer in its steps, a
/// `restrict` on `draw`.
fn unexecuted(rs: &Map<String, J>) -> Result<Option<String>, Error> {
    let actions = objects(rs, "actions")?;
    let events_of = |a: &Map<String, J>| {
        let mut e = vec![s(a, "on", "")];
        e.extend(strings(a, "also_on"));
        e
    };
    let opening: HashSet<String> = actions.iter().flat_map(|a| events_of(a)).collect();
    let mut bodies: Vec<(String, Vec<&Map<String, J>>)> = Vec::new();
    for a in &actions {
        let mut effs = objects(a, "effects")?;
        effs.extend(objects(a, "decline")?);
        bodies.push((format!("`action {}`", s(a, "name", "")), effs));
    }
    for h in objects(rs, "hooks")? {
        bodies.push((format!("the `on {}` hook", s(h, "event", "")), objects(h, "effects")?));
    }
    for (place, effs) in &bodies {
        for ef in effs {
            let target = strings(ef, "target");
            if s(ef, "op", "") == "emit" && target.first().is_some_and(|t| opening.contains(t)) {
                return Ok(Some(format!(
                    "`emit {}` in {place}: actions opened by an emitted event",
                    target[0]
                )));
            }
        }
    }
    let followers: HashSet<String> = actions.iter().flat_map(|a| strings(a, "follow")).collect();
    for a in &actions {
        let then = s(a, "then", "none");
        let others: Vec<String> = events_of(a)
            .into_iter()
            .filter(|e| !ENGINE_OFFERED.contains(&e.as_str()))
            .collect();
        let name = s(a, "name", "");
        if !others.is_empty() && !b(a, "wins") && !followers.contains(&name) && then != "none" && then != "auto" {
            return Ok(Some(format!(
                "`then {then}` of `action {name}`, opened by `{}`",
                others[0]
            )));
        }
    }
    for r in objects(rs, "restricts")? {
        if strings(r, "actions").iter().any(|x| x == "draw") {
            return Ok(Some(format!("`restrict {}` on `draw`", s(r, "name", ""))));
        }
    }
    Ok(None)
}

fn bad(what: &str) -> Error {
    Error::Input(format!("the rule set's {what} is malformed"))
}

fn s(m: &Map<String, J>, key: &str, default: &str) -> String {
    m.get(key).and_then(J::as_str).unwrap_or(default).to_owned()
}

fn i(m: &Map<String, J>, key: &str, default: i64) -> i64 {
    m.get(key).and_then(J::as_i64).unwrap_or(default)
}

fn b(m: &Map<String, J>, key: &str) -> bool {
    m.get(key).and_then(J::as_bool).unwrap_or(false)
}

fn present(m: &Map<String, J>, key: &str) -> bool {
    match m.get(key) {
        None | Some(J::Null) => false,
        Some(J::Array(a)) => !a.is_empty(),
        Some(J::Bool(x)) => *x,
        _ => true,
    }
}

fn objects<'a>(root: &'a Map<String, J>, key: &str) -> Result<Vec<&'a Map<String, J>>, Error> {
    match root.get(key) {
        None | Some(J::Null) => Ok(Vec::new()),
        Some(J::Array(items)) => items.iter().map(|x| x.as_object().ok_or_else(|| bad(key))).collect(),
        _ => Err(bad(key)),
    }
}

fn effects(list: &[&Map<String, J>]) -> Vec<EffectDef> {
    list.iter()
        .map(|e| EffectDef {
            op: s(e, "op", ""),
            target: e
                .get("target")
                .and_then(J::as_array)
                .map(|t| t.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
            value: e.get("value").filter(|v| !v.is_null()).cloned(),
        })
        .collect()
}

/// `program.is_description`: a compulsory action with nothing of its own, opened only by turn or draw.
fn is_description(a: &Map<String, J>, events: &[String]) -> bool {
    b(a, "compulsory")
        && !["forms", "wins", "choices", "choice_list", "effects", "follow", "when"]
            .iter()
            .any(|k| present(a, k))
        && events.iter().all(|e| e == "turn" || e == "draw")
}

pub fn parse(text: &str) -> Result<GameRules, Error> {
    let doc: J = serde_json::from_str(text).map_err(|_| Error::Input("the rule set is not JSON".into()))?;
    let rs = doc
        .get("ruleset")
        .and_then(J::as_object)
        .ok_or_else(|| bad("document"))?;
    let t = rs.get("table").and_then(J::as_object).ok_or_else(|| bad("table"))?;
    let table = Table {
        players: t.get("players").cloned().ok_or_else(|| bad("table"))?,
        hand: i(t, "hand", -1),
        dealer_extra: i(t, "dealer_extra", 1),
        first_dealer: s(t, "first_dealer", "random"),
        rotation: s(t, "rotation", "counter_clockwise"),
        exhaust_at: i(t, "exhaust_at", 0),
        replacement: s(t, "replacement", "tail"),
        winners_leave: b(t, "winners_leave"),
    };
    if table.hand < 0 || table.dealer_extra < 0 {
        return Err(bad("table"));
    }
    let settings = objects(rs, "settings")?
        .into_iter()
        .map(|m| SettingDef {
            name: s(m, "name", ""),
            role: s(m, "role", "option"),
            ty: s(m, "type", ""),
            default: m.get("default").cloned().unwrap_or(J::Null),
            range: m
                .get("range")
                .and_then(J::as_array)
                .and_then(|r| Some((r.first()?.as_i64()?, r.get(1)?.as_i64()?))),
            values: m.get("values").and_then(J::as_array).cloned().unwrap_or_default(),
        })
        .collect();
    let states = objects(rs, "states")?
        .into_iter()
        .map(|m| StateDef {
            name: s(m, "name", ""),
            scope: s(m, "scope", "player"),
            ty: s(m, "type", ""),
            init: m.get("init").cloned().unwrap_or(J::Null),
            lives: s(m, "lives", "hand"),
        })
        .collect();
    let mut ruled_events = HashSet::new();
    let mut phases = Vec::new();
    for m in objects(rs, "phases")? {
        phases.push(PhaseDef {
            name: s(m, "name", ""),
            scope: s(m, "scope", "player"),
        });
        for key in ["enter", "leave"] {
            for trig in objects(m, key)? {
                ruled_events.insert(s(trig, "event", ""));
            }
        }
    }
    for key in ["hooks"] {
        for m in objects(rs, key)? {
            ruled_events.insert(s(m, "event", ""));
        }
    }
    for m in objects(rs, "payments")? {
        ruled_events.insert(s(m, "on", ""));
    }
    let reveals = objects(rs, "reveals")?
        .into_iter()
        .map(|m| RevealDef {
            name: s(m, "name", ""),
            source: s(m, "source", "tail"),
            offset: i(m, "offset", 0),
            skip: s(m, "skip", ""),
            removes_copy: b(m, "removes_copy"),
            at: s(m, "at", "deal"),
            unless: m.get("unless").filter(|v| !v.is_null()).cloned(),
            visible: m.get("visible").and_then(J::as_bool).unwrap_or(true),
        })
        .collect();
    let tasks = objects(rs, "tasks")?.into_iter().map(|m| s(m, "name", "")).collect();
    let action_names = objects(rs, "actions")?.into_iter().map(|m| s(m, "name", "")).collect();
    let mut flower_actions = Vec::new();
    for a in objects(rs, "actions")? {
        let mut events = vec![s(a, "on", "")];
        if let Some(also) = a.get("also_on").and_then(J::as_array) {
            events.extend(also.iter().filter_map(|x| x.as_str().map(str::to_owned)));
        }
        if !events.iter().any(|e| e == "draw")
            || !b(a, "compulsory")
            || present(a, "forms")
            || present(a, "wins")
            || is_description(a, &events)
        {
            continue;
        }
        flower_actions.push(FlowerAction {
            name: s(a, "name", ""),
            when: a.get("when").filter(|v| !v.is_null()).cloned(),
            effects: effects(&objects(a, "effects")?),
        });
    }
    let variant = rs
        .get("variant")
        .and_then(J::as_object)
        .map(|v| s(v, "id", ""))
        .unwrap_or_default();
    let unexecuted = unexecuted(rs)?;
    let wilds = objects(rs, "wilds")?
        .into_iter()
        .map(|w| (s(w, "tiles", ""), s(w, "scope", "hand")))
        .collect();
    let melds = objects(rs, "melds")?
        .into_iter()
        .map(|m| MeldDef {
            name: s(m, "name", ""),
            exposed: b(m, "exposed"),
            pair: b(m, "pair"),
            kong: b(m, "kong"),
            shown: m.get("shown").and_then(J::as_i64),
        })
        .collect();
    Ok(GameRules {
        melds,
        unexecuted,
        wilds,
        variant,
        table,
        settings,
        states,
        phases,
        reveals,
        tasks,
        flower_actions,
        ruled_events,
        action_names,
    })
}
