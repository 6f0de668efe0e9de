//! The compiled rule set's JSON read into a value without its source positions. Every IR node of the
//! file carries a `span` (and some a `…_span` or `…_spans`, runtime/ir/serialize.py), more than half
//! of the text; the native core reads none of them (it reads its members by name, and the walks over
//! all of a node's members — program/lower.rs `mentions`, waits/mod.rs `reads`, signatures/observe.rs
//! `structure` — pass them by), so they are checked as JSON and dropped, never built as values. Every
//! other member is the value `serde_json::from_str` gives, in the same order, a repeated key as it
//! keeps it; an error is the same error at the same place.

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Whether a member's key names source positions (runtime/ir/serialize.py `from_data`).
fn is_span(key: &str) -> bool {
    key == "span" || key.ends_with("_span") || key.ends_with("_spans")
}

/// `serde_json::from_str::<Value>` with the source positions left out.
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Spanless.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

#[derive(Clone, Copy)]
struct Spanless;

impl<'de> DeserializeSeed<'de> for Spanless {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

// serde_json's own `Value` visitor, member for member, but for the maps' span members
impl<'de> Visitor<'de> for Spanless {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if is_span(&key) {
                map.next_value::<IgnoredAny>()?;
            } else {
                let v = map.next_value_seed(self)?;
                members.insert(key, v);
            }
        }
        Ok(Value::Object(members))
    }
}
