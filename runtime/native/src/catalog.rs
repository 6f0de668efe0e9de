//! The tile catalog under chosen room options, as runtime/tiles.py builds it: the kinds whose
//! `enabled` holds and whose `copies` is positive, in declaration order, with their declared and
//! computed attributes.

use std::collections::HashMap;

use crate::expr::{eval, Scope, Settings, Val};
use crate::ruleset::RuleSet;
use crate::Error;

pub struct Kind {
    pub decl: usize, // index among the rule set's declared kinds
    pub name: String,
    pub category: String,
    pub suit: Option<String>,
    pub rank: i64,
    pub copies: i64,
    pub attrs: HashMap<String, bool>,
}

pub struct Catalog {
    pub kinds: Vec<Kind>,
}

struct Env<'a> {
    rs: &'a RuleSet,
    settings: &'a Settings,
    // while attributes are computed: declared index -> catalog index, and the kinds so far
    in_play: Option<&'a HashMap<usize, usize>>,
    kinds: Option<&'a [Kind]>,
    t: Option<usize>,
}

impl Scope for Env<'_> {
    fn setting(&self, reference: &str) -> Option<Val> {
        self.settings.get(reference).cloned()
    }

    fn tile(&self, name: &str) -> Option<Val> {
        let in_play = self.in_play?;
        let decl = self.rs.kinds.iter().position(|k| k.name == name)?;
        in_play.get(&decl).map(|_| Val::Tile(decl))
    }

    fn current(&self) -> Option<usize> {
        self.t
    }

    fn field(&self, tile: usize, name: &str) -> Result<Val, Error> {
        let (Some(in_play), Some(kinds)) = (self.in_play, self.kinds) else {
            return Err(Error::NotCovered("a tile field before the catalog exists".into()));
        };
        let k = in_play.get(&tile).map(|&i| &kinds[i]).ok_or_else(|| {
            Error::NotCovered("a field of a tile that is not in play".into())
        })?;
        Ok(match name {
            "kind" => Val::Tile(tile),
            "suit" => k.suit.clone().map(Val::Str).unwrap_or(Val::None),
            "rank" => Val::Int(k.rank),
            "honor" => Val::Bool(k.category == "honor"),
            "flower" => Val::Bool(k.category == "flower"),
            "joker" => Val::Bool(k.category == "joker"),
            "wild" => Val::Bool(false),
            "name" => Val::Str(k.name.clone()),
            _ => match k.attrs.get(name) {
                Some(b) => Val::Bool(*b),
                None => return Err(Error::NotCovered(format!("the tile field `{name}`"))),
            },
        })
    }
}

impl Catalog {
    /// `options`: room option values by reference (`option:NAME`); the others take their defaults.
    pub fn build(rs: &RuleSet, options: &Settings) -> Result<Catalog, Error> {
        // Defaults first, as runtime/tiles.py's setting_defaults (one that needs tiles is none here).
        let empty = Settings::new();
        let mut settings = Settings::new();
        for s in &rs.settings {
            let env = Env { rs, settings: &empty, in_play: None, kinds: None, t: None };
            let v = eval(&s.default, &env, 0).unwrap_or(Val::None);
            settings.insert(format!("{}:{}", s.role, s.name), v);
        }
        for (k, v) in options {
            settings.insert(k.clone(), v.clone());
        }
        let mut kinds: Vec<Kind> = Vec::new();
        for (decl, k) in rs.kinds.iter().enumerate() {
            let env = Env { rs, settings: &settings, in_play: None, kinds: None, t: None };
            if let Some(e) = &k.enabled {
                if !eval(e, &env, 0)?.truthy() {
                    continue;
                }
            }
            let copies = match eval(&k.copies, &env, 0)? {
                Val::Int(n) => n,
                Val::Bool(b) => b as i64,
                _ => return Err(Error::NotCovered("copies that are not a whole number".into())),
            };
            if copies <= 0 {
                continue;
            }
            kinds.push(Kind {
                decl,
                name: k.name.clone(),
                category: k.category.clone(),
                suit: if k.suit.is_empty() { None } else { Some(k.suit.clone()) },
                rank: k.rank,
                copies,
                attrs: k.attrs.iter().map(|a| (a.clone(), true)).collect(),
            });
        }
        let mut names: Vec<&str> = rs.kinds.iter().flat_map(|k| k.attrs.iter().map(String::as_str)).collect();
        names.extend(rs.attrs.iter().map(|a| a.name.as_str()));
        for k in kinds.iter_mut() {
            for n in &names {
                k.attrs.entry((*n).to_owned()).or_insert(false);
            }
        }
        let in_play: HashMap<usize, usize> = kinds.iter().enumerate().map(|(i, k)| (k.decl, i)).collect();
        // Computed attributes in order: one may read an earlier one.
        for a in &rs.attrs {
            let mut values = Vec::with_capacity(kinds.len());
            for k in &kinds {
                let env = Env { rs, settings: &settings, in_play: Some(&in_play), kinds: Some(&kinds), t: Some(k.decl) };
                values.push(eval(&a.expr, &env, 0)?.truthy());
            }
            for (k, v) in kinds.iter_mut().zip(values) {
                k.attrs.insert(a.name.clone(), v);
            }
        }
        Ok(Catalog { kinds })
    }

    /// `TileInfo.field` for a flag: the built-in categories, else the attribute (false when absent).
    pub fn flag(&self, i: usize, name: &str) -> bool {
        let k = &self.kinds[i];
        match name {
            "kind" | "name" => true,
            "suit" => k.suit.is_some(),
            "rank" => k.rank != 0,
            "honor" => k.category == "honor",
            "flower" => k.category == "flower",
            "joker" => k.category == "joker",
            "wild" => false,
            _ => k.attrs.get(name).copied().unwrap_or(false),
        }
    }
}
