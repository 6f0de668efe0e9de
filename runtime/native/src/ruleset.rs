//! The versioned JSON rule set (runtime/ir/serialize.py writes it), read into the few records the native
//! core uses. Fields equal to their IR default are left out of the JSON, so every read has the IR's
//! default (runtime/ir/nodes.py). Anything malformed is an `Error` with one sentence.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::Error;

mod spanless;

pub const FORMAT: &str = "paili-ruleset";
pub const VERSION: i64 = 2;

pub struct TileKind {
    pub name: String,
    pub category: String, // suited | honor | flower | joker
    pub suit: String,
    pub rank: i64,
    pub attrs: Vec<String>,
    pub code: String,
    pub char_: String,
    pub copies: Value,
    pub enabled: Option<Value>,
}

pub struct AttrDef {
    pub name: String,
    pub expr: Value,
}

pub struct Setting {
    pub name: String,
    pub role: String,
    pub default: Value,
}

pub struct Shape {
    pub kind: String, // run | same | ranks | tiles | same_rank
    pub size: usize,
    pub ranks: Vec<i64>,
    pub tiles: Vec<String>,
    pub mixed: bool,
}

pub struct MeldKind {
    pub name: String,
    pub shape: Shape,
    pub hand: bool,
    pub pair: bool,
}

pub struct Wild {
    pub except_attr: String,
    pub no_meld: Vec<String>,
}

pub struct RuleSet {
    pub kinds: Vec<TileKind>,
    pub attrs: Vec<AttrDef>,
    pub settings: Vec<Setting>,
    pub melds: Vec<MeldKind>,
    pub wilds: Vec<Wild>,
}

fn bad(what: &str) -> Error {
    Error::Input(format!("the rule set is not a valid paili rule set ({what})"))
}

fn obj<'a>(v: &'a Value, what: &str) -> Result<&'a serde_json::Map<String, Value>, Error> {
    v.as_object().ok_or_else(|| bad(what))
}

fn list<'a>(v: Option<&'a Value>, what: &str) -> Result<&'a [Value], Error> {
    match v {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(bad(what)),
    }
}

fn string(m: &serde_json::Map<String, Value>, key: &str, what: &str) -> Result<String, Error> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(bad(what)),
    }
}

fn required_string(m: &serde_json::Map<String, Value>, key: &str, what: &str) -> Result<String, Error> {
    match m.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(bad(what)),
    }
}

fn boolean(m: &serde_json::Map<String, Value>, key: &str, what: &str) -> Result<bool, Error> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(bad(what)),
    }
}

fn int(m: &serde_json::Map<String, Value>, key: &str, what: &str) -> Result<i64, Error> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => v.as_i64().ok_or_else(|| bad(what)),
    }
}

fn strings(v: Option<&Value>, what: &str) -> Result<Vec<String>, Error> {
    list(v, what)?
        .iter()
        .map(|x| x.as_str().map(str::to_owned).ok_or_else(|| bad(what)))
        .collect()
}

/// A rule set's JSON text as a JSON value, without the source positions no part of the native core
/// reads (spanless.rs). The tables, the pattern programs, the scoring programs and
/// the wait rules of one rule set are each made from the same text (the very one the Python side hands
/// over each time), so the last text parsed is kept with its value and not parsed again: a batch's
/// start-up parsed it four to six times. One text is kept at a time (its value until another is read).
pub fn json_doc(text: &str) -> Result<Arc<Value>, Error> {
    static LAST: Mutex<Option<(Box<str>, Arc<Value>)>> = Mutex::new(None);
    if let Ok(last) = LAST.lock() {
        if let Some((t, doc)) = last.as_ref() {
            if **t == *text {
                return Ok(Arc::clone(doc));
            }
        }
    }
    let doc: Value = spanless::from_str(text)
        .map_err(|e| Error::Input(format!("the rule set is not valid JSON ({e})")))?;
    let doc = Arc::new(doc);
    if let Ok(mut last) = LAST.lock() {
        *last = Some((text.into(), Arc::clone(&doc)));
    }
    Ok(doc)
}

pub fn parse(text: &str) -> Result<RuleSet, Error> {
    let doc = json_doc(text)?;
    let top = obj(&doc, "top level")?;
    if top.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(bad("format is not paili-ruleset"));
    }
    match top.get("version").and_then(Value::as_i64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(Error::Input(format!(
                "the rule set has format version {v}; the native core reads version {VERSION}"
            )))
        }
        None => return Err(bad("no version")),
    }
    let rs = obj(top.get("ruleset").ok_or_else(|| bad("no ruleset"))?, "ruleset")?;
    let tiles = obj(rs.get("tiles").ok_or_else(|| bad("no tiles"))?, "tiles")?;
    let mut kinds = Vec::new();
    for k in list(tiles.get("kinds"), "tiles.kinds")? {
        let k = obj(k, "a tile kind")?;
        kinds.push(TileKind {
            name: required_string(k, "name", "a tile kind's name")?,
            category: required_string(k, "category", "a tile kind's category")?,
            suit: string(k, "suit", "a tile kind's suit")?,
            rank: int(k, "rank", "a tile kind's rank")?,
            attrs: strings(k.get("attrs"), "a tile kind's attrs")?,
            code: string(k, "code", "a tile kind's code")?,
            char_: string(k, "char", "a tile kind's char")?,
            copies: k.get("copies").cloned().ok_or_else(|| bad("a tile kind without copies"))?,
            enabled: k.get("enabled").filter(|v| !v.is_null()).cloned(),
        });
    }
    let mut attrs = Vec::new();
    for a in list(tiles.get("attrs"), "tiles.attrs")? {
        let a = obj(a, "an attribute")?;
        attrs.push(AttrDef {
            name: required_string(a, "name", "an attribute's name")?,
            expr: a.get("expr").cloned().ok_or_else(|| bad("an attribute without expr"))?,
        });
    }
    let mut settings = Vec::new();
    for s in list(rs.get("settings"), "settings")? {
        let s = obj(s, "a setting")?;
        settings.push(Setting {
            name: required_string(s, "name", "a setting's name")?,
            role: required_string(s, "role", "a setting's role")?,
            default: s.get("default").cloned().unwrap_or(Value::Null),
        });
    }
    let mut melds = Vec::new();
    for m in list(rs.get("melds"), "melds")? {
        let m = obj(m, "a meld kind")?;
        let s = obj(m.get("shape").ok_or_else(|| bad("a meld kind without shape"))?, "a shape")?;
        let size = int(s, "size", "a shape's size")?;
        if !(1..=16).contains(&size) {
            return Err(Error::Input(format!("a meld shape of size {size} is outside 1..16")));
        }
        let ranks = list(s.get("ranks"), "a shape's ranks")?
            .iter()
            .map(|r| r.as_i64().ok_or_else(|| bad("a shape's ranks")))
            .collect::<Result<Vec<_>, _>>()?;
        melds.push(MeldKind {
            name: required_string(m, "name", "a meld kind's name")?,
            shape: Shape {
                kind: required_string(s, "kind", "a shape's kind")?,
                size: size as usize,
                ranks,
                tiles: strings(s.get("tiles"), "a shape's tiles")?,
                mixed: boolean(s, "mixed", "a shape's mixed")?,
            },
            hand: boolean(m, "hand", "a meld kind's hand")?,
            pair: boolean(m, "pair", "a meld kind's pair")?,
        });
    }
    let mut wilds = Vec::new();
    for w in list(rs.get("wilds"), "wilds")? {
        let w = obj(w, "a wild")?;
        wilds.push(Wild {
            except_attr: string(w, "except_attr", "a wild's except")?,
            no_meld: strings(w.get("no_meld"), "a wild's no_meld")?,
        });
    }
    Ok(RuleSet { kinds, attrs, settings, melds, wilds })
}
