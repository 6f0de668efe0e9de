//! One rule set under one choice of room options, as the Python engine reads it before a hand: the
//! settings environment `Rules.settings_env` makes (defaults, tile defaults, the options), the catalog
//! (`src/catalog.rs`, as `Rules.catalog_for`), the number of players, the play order, and the
//! evaluation of the expressions the setup reads (settings, tiles, the tile a flower action is asked
//! about). A construct this port does not execute yet is `Error::NotCovered` naming it.

use serde_json::Value as J;

use super::rules::{GameRules, SettingDef};
use super::state::Value;
use crate::catalog::Catalog;
use crate::expr::{eval, Scope, Settings, Val};
use crate::ruleset::RuleSet;
use crate::Error;

// runtime/limits.py: the compiler refuses a rule file past these (E706); a compiled rule set from elsewhere
// is held to them here before any work is sized by them
const MAX_TABLE_SIZE: i64 = 256;
const MAX_COPIES: i64 = 64;
const MAX_KINDS: usize = 512;
const MAX_WILDS_HELD: i64 = 8;
const MAX_RULESET_JSON_BYTES: usize = 16_000_000;

pub(super) fn not_ported(what: &str) -> Error {
    Error::NotCovered(format!("the native engine does not execute {what} yet"))
}

/// The rule set, its game records and the catalog under one choice of room options.
pub struct Table {
    pub rs: RuleSet,
    pub rules: GameRules,
    pub cat: Catalog,
    pub settings: Settings,
    pub names: Vec<String>,              // catalog index -> kind name
    pub decl_to_cat: Vec<Option<usize>>, // declared kind -> catalog index
    /// Each wildcard declaration (`rules.wilds`, in order): the kind its tiles name (None: a reveal's
    /// tile, read on the state), and whether it is wild in a hand (scope other than `win_tile`);
    /// resolved once, as `hand_wilds` reads it on every evaluation.
    pub wild_decls: Vec<(Option<usize>, bool)>,
    /// The catalog's suits resolved once (the meld options compare suits by id, not by text).
    pub suits: Suits,
    pub n: usize,
    pub step: i64,
    /// The states' initial values and the context values a hand starts with, evaluated once (None:
    /// one does not evaluate, and each hand's setup evaluates them, failing as it does): setup.rs.
    pub initial: Option<super::setup::Initial>,
}

/// The catalog's suits by id: ids in the suits' text order (sorting ids sorts the texts), each kind's
/// suit, whether a suit is a truthy one (not empty), and per suit its `{rank: kind}` in catalog order
/// with a rank's last kind kept (a dict's, as `moves.py` `_fresh` builds it).
pub struct Suits {
    pub of: Vec<Option<u16>>,
    pub truthy: Vec<bool>,
    pub ranks: Vec<Vec<(i64, usize)>>,
}

impl Suits {
    pub fn new(cat: &Catalog) -> Suits {
        let mut names: Vec<&str> = cat.kinds.iter().filter_map(|k| k.suit.as_deref()).collect();
        names.sort_unstable();
        names.dedup();
        let of: Vec<Option<u16>> = cat
            .kinds
            .iter()
            .map(|k| k.suit.as_deref().and_then(|s| names.binary_search(&s).ok()).map(|i| i as u16))
            .collect();
        let mut ranks: Vec<Vec<(i64, usize)>> = vec![Vec::new(); names.len()];
        for (i, (k, su)) in cat.kinds.iter().zip(&of).enumerate() {
            let Some(su) = su else { continue };
            let r = &mut ranks[*su as usize];
            match r.iter_mut().find(|(x, _)| *x == k.rank) {
                Some(e) => e.1 = i,
                None => r.push((k.rank, i)),
            }
        }
        Suits { of, truthy: names.iter().map(|n| !n.is_empty()).collect(), ranks }
    }

    /// A kind's suit when it is a truthy one.
    pub fn truthy_of(&self, k: usize) -> Option<u16> {
        self.of[k].filter(|&s| self.truthy[s as usize])
    }
}

/// What expressions read during the setup: settings, the catalog's tiles and their fields, and the
/// tile a flower action is asked about (`tile`). Anything else (a seat, a game function) is not ported.
struct Env<'a> {
    t: &'a Table,
    tile: Option<usize>, // a declared kind
}

impl Scope for Env<'_> {
    fn setting(&self, reference: &str) -> Option<Val> {
        self.t.settings.get(reference).cloned()
    }

    fn tile(&self, name: &str) -> Option<Val> {
        let decl = self.t.rs.kinds.iter().position(|k| k.name == name)?;
        self.t.decl_to_cat[decl].map(|_| Val::Tile(decl))
    }

    fn current(&self) -> Option<usize> {
        None
    }

    fn field(&self, tile: usize, name: &str) -> Result<Val, Error> {
        let Some(i) = self.t.decl_to_cat[tile] else {
            return Err(not_ported("a field of a tile that is not in play"));
        };
        match name {
            "name" => Ok(Val::Str(self.t.names[i].clone())),
            "kind" | "suit" | "rank" => Err(not_ported(&format!("the tile field `{name}` in game rules"))),
            _ => Ok(Val::Bool(self.t.cat.flag(i, name))),
        }
    }

    fn builtin(&self, reference: &str) -> Option<Val> {
        match reference {
            "builtin:tile" => self.tile.map(Val::Tile),
            _ => None,
        }
    }
}

fn tile_literal(e: &J) -> Option<&str> {
    let m = e.as_object()?;
    if m.get("_")?.as_str()? != "TileLit" {
        return None;
    }
    match m.get("tiles")?.as_array()?.as_slice() {
        [one] => one.as_str(),
        _ => None,
    }
}

fn option_value(s: &SettingDef, v: &Val) -> Result<Val, Error> {
    let ok = match (s.ty.as_str(), v) {
        ("bool", Val::Bool(_)) => true,
        ("int" | "seat", Val::Int(x)) => {
            let in_range = s.range.is_none_or(|(lo, hi)| lo <= *x && *x <= hi);
            if !in_range {
                let (lo, hi) = s.range.unwrap_or_default();
                return Err(Error::Input(format!(
                    "room option {}: {} must be within {lo}..{hi}, not {x}",
                    s.name, s.name
                )));
            }
            let allowed: Vec<i64> = s
                .values
                .iter()
                .filter_map(|j| j.get("text")?.as_str()?.parse().ok())
                .collect();
            if !s.values.is_empty() && !allowed.contains(x) {
                return Err(Error::Input(format!(
                    "room option {}: {x} is not one of its values",
                    s.name
                )));
            }
            true
        }
        (_, Val::Str(_)) => return Err(not_ported("room options given as text")),
        ("bool" | "int" | "seat", _) => {
            return Err(Error::Input(format!(
                "room option {} takes {}",
                s.name,
                if s.ty == "bool" {
                    "true or false"
                } else {
                    "a whole number"
                }
            )))
        }
        _ => false,
    };
    if ok {
        Ok(v.clone())
    } else {
        Err(not_ported(&format!("a room option of type {}", s.ty)))
    }
}

impl Table {
    /// The rule set under room `options` (by name): the settings environment `Rules.settings_env` makes
    /// (defaults, tile defaults from the catalog, the options), the catalog, the number of players.
    pub fn new(ruleset_json: &str, options: &Options) -> Result<Table, Error> {
        if ruleset_json.len() > MAX_RULESET_JSON_BYTES {
            return Err(Error::Input(format!(
                "the rule set is larger than {} million bytes",
                MAX_RULESET_JSON_BYTES / 1_000_000
            )));
        }
        let rs = crate::ruleset::parse(ruleset_json)?;
        let rules = super::rules::parse(ruleset_json)?;
        if let Some(what) = &rules.unexecuted {
            // as `Game` refuses it (its GameError names every such construct with its place)
            return Err(Error::Input(format!(
                "the game engine does not execute {what}, which this rule set uses"
            )));
        }
        let tb = &rules.table;
        if [tb.hand, tb.dealer_extra]
            .iter()
            .any(|&x| !(0..=MAX_TABLE_SIZE).contains(&x))
        {
            return Err(Error::Input(format!(
                "the rule set's hand sizes are outside 0..{MAX_TABLE_SIZE}"
            )));
        }
        let mut given = Settings::new();
        for (name, v) in options {
            let Some(s) = rules.settings.iter().find(|s| &s.name == name && s.role == "option") else {
                return Err(Error::Input(format!(
                    "'{}' is not a room option of this rule set",
                    name.chars().take(40).collect::<String>()
                )));
            };
            given.insert(format!("option:{name}"), option_value(s, v)?);
        }
        let cat = Catalog::build(&rs, &given)?;
        if cat.kinds.len() > MAX_KINDS || cat.kinds.iter().any(|k| k.copies > MAX_COPIES) {
            return Err(Error::Input(format!(
                "the tiles under these options pass the limits ({MAX_KINDS} kinds, {MAX_COPIES} copies of one)"
            )));
        }
        let names: Vec<String> = cat.kinds.iter().map(|k| k.name.clone()).collect();
        // `Rules.max_wilds`: the most wildcards one hand can hold, refused past the limit as
        // `Rules.catalog_for` refuses it
        let most_copies = cat.kinds.iter().map(|k| k.copies).max().unwrap_or(0);
        let held: i64 = rules
            .wilds
            .iter()
            .map(|(tiles, scope)| match names.iter().position(|n| n == tiles) {
                _ if scope == "win_tile" => 1,
                Some(i) => cat.kinds[i].copies,
                None => most_copies,
            })
            .sum();
        if held > MAX_WILDS_HELD {
            return Err(Error::Input(format!(
                "under these room options a hand could hold {held} wildcards; the limit is {MAX_WILDS_HELD}"
            )));
        }
        let mut decl_to_cat = vec![None; rs.kinds.len()];
        for (i, k) in cat.kinds.iter().enumerate() {
            decl_to_cat[k.decl] = Some(i);
        }
        let wild_decls = rules.wilds.iter().map(|(tiles, scope)| (names.iter().position(|n| n == tiles), scope != "win_tile")).collect();
        let suits = Suits::new(&cat);
        let mut t = Table {
            rs,
            rules,
            cat,
            settings: Settings::new(),
            names,
            decl_to_cat,
            wild_decls,
            suits,
            n: 0,
            step: 1,
            initial: None,
        };
        // defaults (`setting_defaults`: one that does not evaluate without tiles is none), then a tile
        // default from the tile names (a tile out of play is not ported), then the options
        let mut settings = Settings::new();
        for s in &t.rules.settings {
            let key = format!("{}:{}", s.role, s.name);
            let v = if let Some(name) = tile_literal(&s.default) {
                let decl = t.rs.kinds.iter().position(|k| k.name == name);
                match decl {
                    Some(d) if t.decl_to_cat[d].is_some() => Val::Tile(d),
                    _ => return Err(not_ported("a tile default of a setting whose tile is not in play")),
                }
            } else {
                eval(&s.default, &Env { t: &t, tile: None }, 0).unwrap_or(Val::None)
            };
            settings.insert(key, v);
        }
        settings.extend(given);
        t.settings = settings;
        let players = match eval(&t.rules.table.players, &Env { t: &t, tile: None }, 0)? {
            Val::Int(n) => n,
            Val::Bool(b) => b as i64,
            _ => return Err(not_ported("a number of players that is not a whole number")),
        };
        if players < 2 {
            return Err(Error::Input(format!(
                "a game needs at least two players, and these options give {players}"
            )));
        }
        if players > MAX_TABLE_SIZE {
            return Err(Error::Input(format!(
                "these options give {players} players; the limit is {MAX_TABLE_SIZE}"
            )));
        }
        t.n = players as usize;
        t.step = if t.rules.table.rotation == "clockwise" { -1 } else { 1 };
        t.initial = super::setup::Initial::of(&t);
        Ok(t)
    }

    pub fn order_from(&self, start: usize) -> Vec<usize> {
        let n = self.n as i64;
        (0..n)
            .map(|k| (start as i64 + self.step * k).rem_euclid(n) as usize)
            .collect()
    }

    pub(super) fn value(&self, v: Val) -> Result<Value, Error> {
        Ok(match v {
            Val::None => Value::None,
            Val::Bool(b) => Value::Bool(b),
            Val::Int(i) => Value::Int(i),
            Val::Str(s) => Value::Str(s),
            Val::Tile(d) => Value::Tile(self.decl_to_cat[d].ok_or_else(|| not_ported("a tile that is not in play"))?),
            Val::List(items) => Value::List(items.into_iter().map(|x| self.value(x)).collect::<Result<_, _>>()?),
        })
    }

    pub(super) fn eval(&self, e: &J, tile: Option<usize>) -> Result<Val, Error> {
        let env = Env {
            t: self,
            tile: tile.map(|i| self.cat.kinds[i].decl),
        };
        // a tile literal as the whole expression (a state's initial tile or tiles) looks its kinds up in
        // the catalog, none for a kind not in play; inside an expression it is not ported
        if let Some(m) = e
            .as_object()
            .filter(|m| m.get("_").and_then(J::as_str) == Some("TileLit"))
        {
            let names: Vec<&str> = m
                .get("tiles")
                .and_then(J::as_array)
                .map(|a| a.iter().filter_map(J::as_str).collect())
                .unwrap_or_default();
            let look = |name: &str| env.tile(name).unwrap_or(Val::None);
            return Ok(if m.get("single").and_then(J::as_bool).unwrap_or(true) {
                names.first().map_or(Val::None, |n| look(n))
            } else {
                Val::List(names.iter().map(|n| look(n)).collect())
            });
        }
        eval(e, &env, 0)
    }
}

/// Room options as the Python side gives them, by name.
pub type Options = Vec<(String, Val)>;
