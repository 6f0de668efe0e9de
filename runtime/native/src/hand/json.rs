//! A scored hand as the text `json.dumps(ScoreResult.to_json(), ensure_ascii=False)` gives (runtime/
//! result.py), key for key and in its order, written straight into a byte buffer (no value tree is
//! built: the batch writes this text as the line, src/batch/native.rs): amounts as runtime/result.py `plain_value` gives them (a whole number
//! as an integer, another as a float) and as runtime/money.py `exact` writes them ("n" or "n/d" in lowest
//! terms). What the native side cannot write as the reference does — a label with expressions, the
//! quantities the programs left to the reference, a value that is not a number where an amount is
//! written, a fraction whose float the division of two f64 would not round as Python does — is a
//! `Fallback` for that hand.

use super::{fallback, Fallback, HandInput, HandOutcome, Setup};
use crate::batch::json::{float_json, write_int, write_text};
use crate::program::V;
use crate::tally::Dropped;

const NO_READING: &str = "the tiles do not form any winning hand of this rule set";
const EXACT_F64: i64 = 1 << 53; // integers up to this are exact in an f64

/// A member's key of the result's own (a literal needing no escape), written as one piece with the
/// separator before it (`, ` before every member but the first of its object) and the `: ` after it.
macro_rules! key {
    ($o:expr, true, $k:literal) => {
        $o.raw(concat!("\"", $k, "\": "))
    };
    ($o:expr, false, $k:literal) => {
        $o.raw(concat!(", \"", $k, "\": "))
    };
}

/// The bytes of a JSON text as `json.dumps(ensure_ascii=False)` lays it out (`, ` and `: `).
struct Out<'a>(&'a mut Vec<u8>);

impl Out<'_> {
    // inlined: most pieces are literals, whose copies then need no call (a result is ~120 of them)
    #[inline(always)]
    fn raw(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    fn text(&mut self, s: &str) {
        write_text(self.0, s);
    }

    /// A member's key: `, ` before every member but the first of its object.
    #[inline(always)]
    fn key(&mut self, first: bool, k: &str) {
        if !first {
            self.raw(", ");
        }
        self.text(k);
        self.raw(": ");
    }

    fn int(&mut self, n: i64) {
        write_int(self.0, n);
    }

    #[inline(always)]
    fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    /// Python `plain_value` of a value the native side hands back.
    fn plain(&mut self, v: &V) -> Result<(), Fallback> {
        match v {
            V::None => self.raw("null"),
            V::Bool(b) => self.bool(*b),
            V::Int(n) => self.int(*n),
            V::Rat(n, d) => {
                if n.abs() > EXACT_F64 || *d > EXACT_F64 {
                    return Err(fallback("a fraction whose float is not the quotient of two exact f64"));
                }
                // both exact: IEEE division rounds the true quotient once, as Python's int / int does
                let f = *n as f64 / *d as f64;
                if !f.is_finite() {
                    return Err(fallback("a value that is not finite"));
                }
                self.raw(&float_json(f));
            }
            V::Str(s) => self.text(s),
            _ => return Err(fallback("a value JSON writes by the reference's rules only")),
        }
        Ok(())
    }

    /// runtime/money.py `exact` of an amount.
    fn exact(&mut self, v: &V) -> Result<(), Fallback> {
        match v {
            // digits, `-` and `/` need no escape: written in quotes as they are
            V::Int(n) => {
                self.raw("\"");
                self.int(*n);
                self.raw("\"");
            }
            V::Rat(n, d) => {
                self.raw("\"");
                self.int(*n);
                self.raw("/");
                self.int(*d);
                self.raw("\"");
            }
            _ => return Err(fallback("an amount that is not a number")),
        }
        Ok(())
    }

    /// A list of tile kinds by their names (or codes), each already a JSON string (`Setup::json_names`).
    fn kinds(&mut self, names: &[Box<[u8]>], ks: &[usize]) {
        self.raw("[");
        for (j, &k) in ks.iter().enumerate() {
            if j > 0 {
                self.raw(", ");
            }
            self.0.extend_from_slice(&names[k]);
        }
        self.raw("]");
    }

    /// `kinds` of tiles given as codes (a tile's kind is `code >> 2`).
    fn tiles(&mut self, names: &[Box<[u8]>], ts: &[V]) -> Result<(), Fallback> {
        self.0.push(b'[');
        for (j, t) in ts.iter().enumerate() {
            let V::Tile(c) = t else { return Err(fallback("a group tile that is not a tile")) };
            if j > 0 {
                self.0.extend_from_slice(b", ");
            }
            self.0.extend_from_slice(names.get((c >> 2) as usize).ok_or_else(|| fallback("a tile outside the catalog"))?);
        }
        self.0.push(b']');
        Ok(())
    }

    /// An object of amounts by name, as a Python dict built from the pairs holds it: a repeated name
    /// keeps its first place and takes the last value.
    fn amounts(&mut self, names: &[String], values: &[V]) -> Result<(), Fallback> {
        let mut pairs: Vec<(&str, &V)> = Vec::with_capacity(names.len());
        for (name, v) in names.iter().zip(values) {
            match pairs.iter_mut().find(|p| p.0 == name.as_str()) {
                Some(p) => p.1 = v,
                None => pairs.push((name, v)),
            }
        }
        self.raw("{");
        for (j, (name, v)) in pairs.into_iter().enumerate() {
            self.key(j == 0, name);
            self.plain(v)?;
        }
        self.raw("}");
        Ok(())
    }
}

impl HandOutcome {
    /// `json.dumps(ScoreResult.to_json(), ensure_ascii=False)` of this hand (UTF-8, no newline), or the
    /// Fallback saying why the reference must write it.
    pub fn to_json(&self, setup: &Setup, _input: &HandInput) -> Result<Vec<u8>, Fallback> {
        let h = match self {
            HandOutcome::Scored(h) => h,
            HandOutcome::NoReading => return Ok(empty(NO_READING)),
            HandOutcome::Refused(s) => return Err(Fallback(format!("refused: {s}"))),
        };
        let s = &h.scored;
        let r = &h.reading;
        let mut buf = Vec::with_capacity(2048);
        let mut o = Out(&mut buf);
        o.raw("{");
        key!(o, true, "win");
        o.bool(h.win);
        if !h.win {
            let first = h.rejected.first().ok_or_else(|| fallback("a hand refused without a reason"))?;
            let reason = first.split_once(": ").map(|x| x.1).ok_or_else(|| fallback("a reason without its reading"))?;
            key!(o, false, "reason");
            o.text(reason);
        }
        key!(o, false, "fans");
        o.raw("[");
        for (k, (&(i, n), v)) in s.fin.iter().zip(&s.values).enumerate() {
            if k > 0 {
                o.raw(", ");
            }
            o.raw("{");
            key!(o, true, "name");
            match setup.json_labels.get(i).and_then(|x| x.as_deref()) {
                Some(l) => o.0.extend_from_slice(l),
                None => o.text(
                    h.labels
                        .get(k)
                        .and_then(|x| x.as_deref())
                        .ok_or_else(|| fallback("a label whose expressions the native side did not compute"))?,
                ),
            }
            key!(o, false, "value");
            o.plain(v)?;
            key!(o, false, "count");
            o.int(n);
            key!(o, false, "value_exact");
            o.exact(v)?;
            o.raw("}");
        }
        o.raw("]");
        key!(o, false, "total");
        o.plain(&s.total)?;
        key!(o, false, "score");
        o.plain(&s.score)?;
        key!(o, false, "total_exact");
        o.exact(&s.total)?;
        key!(o, false, "score_exact");
        o.exact(&s.score)?;
        let qs = h.quantities.as_ref().ok_or_else(|| fallback("quantities the reference computes"))?;
        key!(o, false, "quantities");
        o.amounts(&setup.quantity_names, qs)?;
        key!(o, false, "trace");
        o.raw("{");
        key!(o, true, "reading");
        o.text(&r.describe);
        key!(o, false, "groups");
        o.raw("[");
        for (j, g) in r.views.iter().enumerate() {
            if j > 0 {
                o.raw(", ");
            }
            o.raw("{");
            key!(o, true, "kind");
            o.text(&g.kind);
            key!(o, false, "tiles");
            o.tiles(&setup.json_names, &g.tiles)?;
            key!(o, false, "codes");
            o.tiles(&setup.json_codes, &g.tiles)?;
            key!(o, false, "wild");
            o.raw("[");
            for (x, t) in g.tiles.iter().enumerate() {
                let w = matches!(t, V::Tile(c) if c & 2 != 0);
                o.0.extend_from_slice(match (x > 0, w) {
                    (false, false) => b"false".as_slice(),
                    (false, true) => b"true",
                    (true, false) => b", false",
                    (true, true) => b", true",
                });
            }
            o.raw("]");
            key!(o, false, "declared");
            o.bool(g.declared);
            key!(o, false, "exposed");
            o.bool(g.exposed);
            key!(o, false, "has_win");
            o.bool(g.has_win);
            o.raw("}");
        }
        o.raw("]");
        key!(o, false, "concealed");
        o.kinds(&setup.json_names, &r.hand);
        key!(o, false, "concealed_codes");
        o.kinds(&setup.json_codes, &r.hand);
        key!(o, false, "win_tile");
        match r.win_tile {
            Some(k) => o.0.extend_from_slice(&setup.json_names[k]),
            None => o.raw("null"),
        }
        key!(o, false, "win_tile_code");
        match r.win_tile {
            Some(k) => o.0.extend_from_slice(&setup.json_codes[k]),
            None => o.raw("null"),
        }
        key!(o, false, "form");
        o.text(&setup.forms[r.form].name);
        key!(o, false, "readings_considered");
        o.int(if h.win { h.considered as i64 } else { 0 });
        key!(o, false, "fired");
        o.raw("[");
        for (k, &(i, n)) in s.fin.iter().enumerate() {
            if k > 0 {
                o.raw(", ");
            }
            o.raw("{");
            key!(o, true, "pattern");
            o.0.extend_from_slice(&setup.json_patterns[i]);
            key!(o, false, "unit");
            o.0.extend_from_slice(&setup.json_units[i]);
            key!(o, false, "count");
            o.int(n);
            o.raw("}");
        }
        o.raw("]");
        key!(o, false, "excluded");
        o.raw("[");
        for (k, (i, d)) in s.trace.iter().enumerate() {
            if k > 0 {
                o.raw(", ");
            }
            o.raw("{");
            key!(o, true, "pattern");
            o.0.extend_from_slice(&setup.json_tally[*i]);
            key!(o, false, "by");
            match d {
                Dropped::By(j) => o.0.extend_from_slice(&setup.json_tally[*j]),
                Dropped::Lowered => o.text("count lowered"),
                Dropped::Combine(c, fewer) => o.text(&format!("{} ×{fewer}", setup.combine_names[*c])),
            }
            o.raw("}");
        }
        o.raw("]");
        key!(o, false, "units");
        o.amounts(&setup.unit_order, &s.units)?;
        key!(o, false, "rejected");
        o.raw("[");
        for (k, x) in h.rejected.iter().take(10).enumerate() {
            if k > 0 {
                o.raw(", ");
            }
            o.text(x);
        }
        o.raw("]}}");
        Ok(buf)
    }
}

/// The JSON of a hand with no reading: not a win, the reason, nothing scored.
fn empty(reason: &str) -> Vec<u8> {
    let mut buf = Vec::with_capacity(400);
    let mut o = Out(&mut buf);
    o.raw("{\"win\": false, \"reason\": ");
    o.text(reason);
    o.raw(concat!(
        ", \"fans\": [], \"total\": 0, \"score\": 0, \"total_exact\": \"0\", \"score_exact\": \"0\", ",
        "\"quantities\": {}, \"trace\": {\"reading\": \"\", \"groups\": [], \"concealed\": [], ",
        "\"concealed_codes\": [], \"win_tile\": null, \"win_tile_code\": null, \"form\": \"\", ",
        "\"readings_considered\": 0, \"fired\": [], \"excluded\": [], \"units\": {}, \"rejected\": []}}"
    ));
    buf
}
