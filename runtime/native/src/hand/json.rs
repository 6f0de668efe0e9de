//! A scored hand as runtime/result.py `ScoreResult.to_json()` writes it, key for key and in its order
//! (serde_json's `preserve_order`): amounts as runtime/result.py `plain_value` gives them (a whole number
//! as an integer, another as a float) and as runtime/money.py `exact` writes them ("n" or "n/d" in lowest
//! terms). What the native side cannot write as the reference does — a label with expressions, the
//! quantities the programs left to the reference, a value that is not a number where an amount is
//! written, a fraction whose float the division of two f64 would not round as Python does — is a
//! `Fallback` for that hand.

use serde_json::{json, Map, Value};

use super::{fallback, Fallback, HandInput, HandOutcome, Setup};
use crate::program::V;
use crate::tally::Dropped;

const NO_READING: &str = "the tiles do not form any winning hand of this rule set";
const EXACT_F64: i64 = 1 << 53; // integers up to this are exact in an f64

/// Python `plain_value` of a value the native side hands back.
fn plain(v: &V) -> Result<Value, Fallback> {
    Ok(match v {
        V::None => Value::Null,
        V::Bool(b) => Value::Bool(*b),
        V::Int(n) => Value::from(*n),
        V::Rat(n, d) => {
            if n.abs() > EXACT_F64 || *d > EXACT_F64 {
                return Err(fallback("a fraction whose float is not the quotient of two exact f64"));
            }
            // both exact: IEEE division rounds the true quotient once, as Python's int / int does
            let f = *n as f64 / *d as f64;
            serde_json::Number::from_f64(f).map(Value::Number).ok_or_else(|| fallback("a value that is not finite"))?
        }
        V::Str(s) => Value::String(s.to_string()),
        _ => return Err(fallback("a value JSON writes by the reference's rules only")),
    })
}

/// runtime/money.py `exact` of an amount.
fn exact(v: &V) -> Result<Value, Fallback> {
    Ok(Value::String(match v {
        V::Int(n) => n.to_string(),
        V::Rat(n, d) => format!("{n}/{d}"),
        _ => return Err(fallback("an amount that is not a number")),
    }))
}

impl HandOutcome {
    /// `ScoreResult.to_json()` of this hand, or the Fallback saying why the reference must write it.
    pub fn to_json(&self, setup: &Setup, _input: &HandInput) -> Result<Value, Fallback> {
        let h = match self {
            HandOutcome::Scored(h) => h,
            HandOutcome::NoReading => return Ok(empty(NO_READING)),
            HandOutcome::Refused(s) => return Err(Fallback(format!("refused: {s}"))),
        };
        let s = &h.scored;
        let r = &h.reading;
        let mut out = Map::new();
        out.insert("win".into(), Value::Bool(h.win));
        if !h.win {
            let first = h.rejected.first().ok_or_else(|| fallback("a hand refused without a reason"))?;
            let reason = first.split_once(": ").map(|x| x.1).ok_or_else(|| fallback("a reason without its reading"))?;
            out.insert("reason".into(), Value::String(reason.to_owned()));
        }
        let mut fans = Vec::new();
        let mut fired = Vec::new();
        for (k, (&(i, n), v)) in s.fin.iter().zip(&s.values).enumerate() {
            let label = setup
                .labels
                .get(i)
                .cloned()
                .flatten()
                .or_else(|| h.labels.get(k).cloned().flatten())
                .ok_or_else(|| fallback("a label whose expressions the native side did not compute"))?;
            fans.push(json!({"name": label, "value": plain(v)?, "count": n, "value_exact": exact(v)?}));
            fired.push(json!({"pattern": setup.pattern_names[i], "unit": setup.units[i], "count": n}));
        }
        out.insert("fans".into(), Value::Array(fans));
        out.insert("total".into(), plain(&s.total)?);
        out.insert("score".into(), plain(&s.score)?);
        out.insert("total_exact".into(), exact(&s.total)?);
        out.insert("score_exact".into(), exact(&s.score)?);
        let qs = h.quantities.as_ref().ok_or_else(|| fallback("quantities the reference computes"))?;
        let mut quantities = Map::new();
        for (name, v) in setup.quantity_names.iter().zip(qs) {
            quantities.insert(name.clone(), plain(v)?);
        }
        out.insert("quantities".into(), Value::Object(quantities));
        let names = |ks: &[usize]| -> Vec<Value> { ks.iter().map(|&k| Value::String(setup.kind_names[k].clone())).collect() };
        let codes = |ks: &[usize]| -> Vec<Value> { ks.iter().map(|&k| Value::String(setup.kind_codes[k].clone())).collect() };
        let groups: Vec<Value> = r
            .views
            .iter()
            .map(|g| {
                json!({"kind": &*g.kind, "tiles": names(&g.tiles), "codes": codes(&g.tiles),
                       "wild": vec![false; g.tiles.len()], "declared": g.declared, "exposed": g.exposed,
                       "has_win": g.has_win})
            })
            .collect();
        let mut excluded = Vec::new();
        for (i, d) in &s.trace {
            let by = match d {
                Dropped::By(j) => setup.tally_names[*j].clone(),
                Dropped::Lowered => "count lowered".to_owned(),
                Dropped::Combine(k, fewer) => format!("{} ×{fewer}", setup.combine_names[*k]),
            };
            excluded.push(json!({"pattern": setup.tally_names[*i], "by": by}));
        }
        let mut units = Map::new();
        for (name, v) in setup.unit_order.iter().zip(&s.units) {
            units.insert(name.clone(), plain(v)?);
        }
        let mut trace = Map::new();
        trace.insert("reading".into(), Value::String(r.describe.clone()));
        trace.insert("groups".into(), Value::Array(groups));
        trace.insert("concealed".into(), Value::Array(names(&r.hand)));
        trace.insert("concealed_codes".into(), Value::Array(codes(&r.hand)));
        trace.insert("win_tile".into(), r.win_tile.map_or(Value::Null, |k| Value::String(setup.kind_names[k].clone())));
        trace.insert("win_tile_code".into(), r.win_tile.map_or(Value::Null, |k| Value::String(setup.kind_codes[k].clone())));
        trace.insert("form".into(), Value::String(setup.forms[r.form].name.to_string()));
        trace.insert("readings_considered".into(), Value::from(if h.win { h.considered } else { 0 }));
        trace.insert("fired".into(), Value::Array(fired));
        trace.insert("excluded".into(), Value::Array(excluded));
        trace.insert("units".into(), Value::Object(units));
        trace.insert("rejected".into(), Value::Array(h.rejected.iter().take(10).map(|x| Value::String(x.clone())).collect()));
        out.insert("trace".into(), Value::Object(trace));
        Ok(Value::Object(out))
    }
}

/// The JSON of a hand with no reading: not a win, the reason, nothing scored.
fn empty(reason: &str) -> Value {
    json!({
        "win": false, "reason": reason, "fans": [], "total": 0, "score": 0, "total_exact": "0", "score_exact": "0",
        "quantities": {},
        "trace": {"reading": "", "groups": [], "concealed": [], "concealed_codes": [], "win_tile": null,
                  "win_tile_code": null, "form": "", "readings_considered": 0, "fired": [], "excluded": [],
                  "units": {}, "rejected": []}
    })
}
