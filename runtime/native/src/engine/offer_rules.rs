//! What the legal moves read of a rule set (runtime/game/program.py `CAction`, the IR's `MeldKind`,
//! `Restrict` and `Wild`): the actions with their events, `by`, guards, choices, meld forms, wins and
//! follow-ups, the meld kinds with their shapes, upgrades and growth, the restrictions, the wildcards'
//! `no_meld`/`no_action`, the priority levels. Every guard, choice and restriction is gathered into one
//! list of game-scope expressions (lowered by engine/scope.rs); an action refers to them by index.
//! Fields equal to their IR default are left out of the JSON (runtime/ir/nodes.py gives the defaults).

use serde_json::{Map, Value as J};

use crate::Error;

pub struct ShapeDef {
    pub kind: String, // run | same | ranks | tiles | same_rank
    pub size: usize,
    pub ranks: Vec<i64>,
    pub tiles: Vec<String>,
    pub mixed: bool,
    /// `tiles` by catalog index, resolved once under the table (`Offers::new`; None: some name is not
    /// in the catalog, or not resolved yet).
    pub tile_kinds: Option<Vec<usize>>,
}

pub struct KindDef {
    pub name: String,
    pub shape: ShapeDef,
    pub hand: bool,
    pub upgrades: Vec<String>,
    pub grows: bool,
    pub grow_limit: usize,
    /// (suit, value) of each declared `value`: a number as (numerator, denominator), or None when the
    /// value is not a number literal (the moves then need it only to choose between kinds: refused)
    pub values: Vec<(String, Option<(i64, i64)>)>,
    pub exposed: bool,
    pub kong: bool,
}

pub struct ActionDef {
    pub name: String,
    pub events: Vec<String>, // `on` then `also_on`
    pub by: String,
    pub forms: Vec<String>,
    pub compulsory: bool,
    pub when: Option<usize>, // expression indices into `OfferRules::exprs`
    pub choices: Vec<usize>,
    pub choice_when: Option<usize>,
    pub choice_list: Option<usize>,
    pub instead_of: String,
    pub wins: bool,
    pub win_forms: Vec<String>,
    pub win_tile: String,
    pub follow: Vec<String>,
    pub grow: String,
    pub select: usize,
    pub together: bool,
    pub level: usize,
    pub description: bool, // `program.is_description`: restates the engine's draw or discard
    // what the hand's course reads of it (engine/turn.rs, claims.rs)
    pub then: String,
    pub order: String,
    pub multiple: bool,
    pub ready: bool,
    /// A win whose taking sets context values before it is scored — by the action's effects, the hooks
    /// on its name or the hooks on `win` (runtime/game/win_trial.py `trial_statements`): it is offered as
    /// tried on a copy of the context, which the reference does.
    pub trial: bool,
}

pub struct WildDef {
    pub tiles: String,
    pub scope: String,
    pub no_meld: Vec<String>,
    pub no_action: Vec<String>,
}

pub struct OfferRules {
    pub actions: Vec<ActionDef>,
    pub kinds: Vec<KindDef>,
    pub restricts: Vec<(Vec<String>, usize)>, // (the actions restricted, the condition's expression)
    pub wilds: Vec<WildDef>,
    pub hooked_events: Vec<String>, // events with hooks (`win_offer` hooks change the state mid-offer)
    pub exprs: Vec<J>,
}

fn bad(what: &str) -> Error {
    Error::Input(format!("the rule set's {what} are malformed"))
}

fn s(m: &Map<String, J>, k: &str, d: &str) -> String {
    m.get(k).and_then(J::as_str).unwrap_or(d).to_owned()
}

/// Whether a list of effects stores a context value (`set`/`add`/`remove`/`clear` on a bare name).
fn sets_context(effects: Option<&J>) -> bool {
    effects.and_then(J::as_array).is_some_and(|list| {
        list.iter().any(|e| {
            matches!(e.get("op").and_then(J::as_str), Some("set" | "add" | "remove" | "clear"))
                && e.get("target").and_then(J::as_array).is_some_and(|t| t.len() == 1)
        })
    })
}

fn b(m: &Map<String, J>, k: &str) -> bool {
    m.get(k).and_then(J::as_bool).unwrap_or(false)
}

fn strings(m: &Map<String, J>, k: &str) -> Vec<String> {
    m.get(k)
        .and_then(J::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

fn objects<'a>(rs: &'a Map<String, J>, k: &str) -> Result<Vec<&'a Map<String, J>>, Error> {
    match rs.get(k) {
        None => Ok(Vec::new()),
        Some(J::Array(a)) => a.iter().map(|x| x.as_object().ok_or_else(|| bad(k))).collect(),
        Some(_) => Err(bad(k)),
    }
}

/// A number literal's exact value (`Num.text`: digits with an optional fraction).
fn number(e: &J) -> Option<(i64, i64)> {
    if e.get("_").and_then(J::as_str) != Some("Num") {
        return None;
    }
    let text = e.get("text")?.as_str()?;
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if text.len() > 15 || !whole.bytes().all(|c| c.is_ascii_digit()) || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let den = 10i64.pow(frac.len() as u32);
    let num: i64 = format!("{whole}{frac}").parse().ok()?;
    let g = gcd(num, den);
    Some((num / g, den / g))
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

impl OfferRules {
    pub fn parse(text: &str) -> Result<OfferRules, Error> {
        let doc: J = serde_json::from_str(text).map_err(|_| Error::Input("the rule set is not JSON".into()))?;
        let rs = doc
            .get("ruleset")
            .and_then(J::as_object)
            .ok_or_else(|| bad("document"))?;
        let mut exprs: Vec<J> = Vec::new();
        let mut add = |e: Option<&J>| -> Option<usize> {
            let e = e.filter(|x| !x.is_null())?;
            exprs.push(e.clone());
            Some(exprs.len() - 1)
        };
        let mut levels: Vec<(String, usize)> = Vec::new();
        if let Some(J::Array(p)) = rs.get("priority") {
            for (i, level) in p.iter().enumerate() {
                for name in level.as_array().ok_or_else(|| bad("priority levels"))? {
                    levels.push((name.as_str().ok_or_else(|| bad("priority levels"))?.to_owned(), i));
                }
            }
        }
        let n_levels = rs.get("priority").and_then(J::as_array).map_or(0, Vec::len);
        // what a win's taking sets of the context: context statements of the hooks on an event
        let hooks_set: Vec<(String, bool)> = objects(rs, "hooks")?
            .into_iter()
            .map(|h| (s(h, "event", ""), sets_context(h.get("effects"))))
            .collect();
        let hooked_sets = |event: &str| hooks_set.iter().any(|(e, x)| *x && e == event);
        let win_hooks_set = hooked_sets("win");
        let mut actions = Vec::new();
        for (i, m) in objects(rs, "actions")?.into_iter().enumerate() {
            let name = s(m, "name", "");
            let mut events = vec![s(m, "on", "")];
            events.extend(strings(m, "also_on"));
            let choices_j: Vec<J> = m.get("choices").and_then(J::as_array).cloned().unwrap_or_default();
            let has_effects = m.get("effects").and_then(J::as_array).is_some_and(|a| !a.is_empty());
            let a = ActionDef {
                by: s(m, "by", "self"),
                forms: strings(m, "forms"),
                compulsory: b(m, "compulsory"),
                when: add(m.get("when")),
                choices: choices_j.iter().filter_map(|c| add(Some(c))).collect(),
                choice_when: add(m.get("choice_when")),
                choice_list: add(m.get("choice_list")),
                instead_of: s(m, "instead_of", ""),
                wins: b(m, "wins"),
                win_forms: strings(m, "win_forms"),
                win_tile: s(m, "win_tile", ""),
                follow: strings(m, "follow"),
                grow: s(m, "grow", "any"),
                select: m.get("select").and_then(J::as_u64).unwrap_or(0) as usize,
                together: b(m, "together"),
                level: levels
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(n_levels + i, |(_, l)| *l),
                description: false,
                then: s(m, "then", "none"),
                order: s(m, "order", "seat"),
                multiple: m.get("multiple").and_then(J::as_bool).unwrap_or(true),
                ready: b(m, "ready"),
                trial: b(m, "wins") && (sets_context(m.get("effects")) || hooked_sets(&name) || win_hooks_set),
                name,
                events,
            };
            let description = a.compulsory
                && a.forms.is_empty()
                && !a.wins
                && a.choices.is_empty()
                && a.choice_list.is_none()
                && !has_effects
                && a.follow.is_empty()
                && a.when.is_none()
                && a.events.iter().all(|e| e == "turn" || e == "draw");
            actions.push(ActionDef { description, ..a });
        }
        let mut kinds = Vec::new();
        for m in objects(rs, "melds")? {
            let sh = m.get("shape").and_then(J::as_object).ok_or_else(|| bad("meld kinds"))?;
            let values = objects(m, "values")?
                .into_iter()
                .map(|v| (s(v, "suit", ""), v.get("value").and_then(number)))
                .collect();
            let upgrades = match m.get("upgrades") {
                Some(J::String(x)) => vec![x.clone()],
                _ => strings(m, "upgrades"),
            };
            kinds.push(KindDef {
                name: s(m, "name", ""),
                shape: ShapeDef {
                    kind: s(sh, "kind", ""),
                    size: sh
                        .get("size")
                        .and_then(J::as_u64)
                        .ok_or_else(|| bad("meld shapes"))?
                        .min(64) as usize,
                    ranks: sh
                        .get("ranks")
                        .and_then(J::as_array)
                        .map(|a| a.iter().filter_map(J::as_i64).collect())
                        .unwrap_or_default(),
                    tiles: strings(sh, "tiles"),
                    tile_kinds: None,
                    mixed: b(sh, "mixed"),
                },
                hand: b(m, "hand"),
                upgrades,
                grows: b(m, "grows"),
                grow_limit: m.get("grow_limit").and_then(J::as_u64).unwrap_or(1).min(64) as usize,
                values,
                exposed: b(m, "exposed"),
                kong: b(m, "kong"),
            });
        }
        let mut restricts = Vec::new();
        for m in objects(rs, "restricts")? {
            let when = add(m.get("when")).ok_or_else(|| bad("restrictions"))?;
            restricts.push((strings(m, "actions"), when));
        }
        let wilds = objects(rs, "wilds")?
            .into_iter()
            .map(|m| WildDef {
                tiles: s(m, "tiles", ""),
                scope: s(m, "scope", "hand"),
                no_meld: strings(m, "no_meld"),
                no_action: strings(m, "no_action"),
            })
            .collect();
        let hooked_events = objects(rs, "hooks")?.into_iter().map(|m| s(m, "event", "")).collect();
        Ok(OfferRules {
            actions,
            kinds,
            restricts,
            wilds,
            hooked_events,
            exprs,
        })
    }

    pub fn action(&self, name: &str) -> Option<&ActionDef> {
        self.actions.iter().find(|a| a.name == name)
    }

    pub fn kind(&self, name: &str) -> Option<&KindDef> {
        self.kinds.iter().find(|k| k.name == name)
    }
}
