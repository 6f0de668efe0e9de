//! Reading a `HandState.snapshot()` (runtime/game/state.py, JSON) back into the native state, so the
//! native side can be put into any state the Python engine reaches (the differential checks of the
//! game scope load the reference's state at each decision point).
//!
//! The snapshot writes values as `state.plain` does: tiles by name, seats as {"seat": n}, a fraction as
//! its text. Which text is a tile is told by the declared type of the state, phase or setting that holds
//! it (`tile`, `tiles`); money (balances, payments, fees) is exact (`Money`), fractions included, while a
//! fractional state or context value (`num`) is not held by the native state yet and is refused by name
//! (`NotCovered`). Two things the snapshot does not write are
//! taken when given beside it: `reveal_ids` (the physical copies each reveal turned, which `visible_count`
//! reads) and `last_dealt` (a tile name); without `reveal_ids` a count that needs them stops.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Map, Value as J};

use super::counts::Counts;
use super::state::{HandState, Meld, Money, Payment, Seat, Value};
use super::table::Table;
use crate::Error;

const MAX_LIST: usize = 100_000;

fn bad(what: &str) -> Error {
    Error::Input(format!("the snapshot's {what} is not what HandState.snapshot writes"))
}

fn not_held(what: &str) -> Error {
    Error::NotCovered(format!("the native state does not hold {what} yet"))
}

struct Reader<'a> {
    by_name: HashMap<&'a str, usize>,
    n: usize,
}

/// An optional value (absent or null: None), read by `one`.
fn optional<T>(j: Option<&J>, one: impl Fn(&J) -> Result<T, Error>) -> Result<Option<T>, Error> {
    match j {
        None | Some(J::Null) => Ok(None),
        Some(x) => one(x).map(Some),
    }
}

/// A list of at most MAX_LIST values, each read by `one`.
fn list<T>(j: Option<&J>, what: &str, one: impl Fn(&J) -> Result<T, Error>) -> Result<Vec<T>, Error> {
    let a = j.and_then(J::as_array).filter(|a| a.len() <= MAX_LIST).ok_or_else(|| bad(what))?;
    a.iter().map(one).collect()
}

impl Reader<'_> {
    fn tile(&self, j: &J, what: &str) -> Result<usize, Error> {
        j.as_str().and_then(|s| self.by_name.get(s).copied()).ok_or_else(|| bad(what))
    }

    fn opt_tile(&self, j: Option<&J>, what: &str) -> Result<Option<usize>, Error> {
        optional(j, |x| self.tile(x, what))
    }

    fn tiles(&self, j: Option<&J>, what: &str) -> Result<Vec<usize>, Error> {
        list(j, what, |x| self.tile(x, what))
    }

    fn seat(&self, j: &J, what: &str) -> Result<usize, Error> {
        j.as_u64().map(|s| s as usize).filter(|&s| s < self.n).ok_or_else(|| bad(what))
    }

    fn opt_seat(&self, j: Option<&J>, what: &str) -> Result<Option<usize>, Error> {
        optional(j, |x| self.seat(x, what))
    }

    fn seats(&self, j: Option<&J>, what: &str) -> Result<Vec<usize>, Error> {
        list(j, what, |x| self.seat(x, what))
    }

    /// A value as `plain` wrote it; `ty` the declared type of what holds it ("" when not declared).
    fn value(&self, j: &J, ty: &str, depth: usize) -> Result<Value, Error> {
        Ok(match j {
            J::Null => Value::None,
            J::Bool(b) => Value::Bool(*b),
            J::Number(x) => match x.as_i64() {
                Some(i) => Value::Int(i),
                None => return Err(not_held("a number that is not a whole number of 64 bits")),
            },
            J::String(s) if ty == "tile" || ty == "tiles" => Value::Tile(self.tile(j, &format!("tile {s:.20}"))?),
            J::String(_) if ty == "num" => return Err(not_held("a fractional value")),
            J::String(s) => Value::Str(s.clone()),
            J::Object(m) => match (m.len(), m.get("seat")) {
                (1, Some(s)) => Value::Seat(self.seat(s, "seat value")?),
                _ => return Err(bad("value")),
            },
            J::Array(a) if depth == 0 && a.len() <= MAX_LIST => {
                Value::List(a.iter().map(|x| self.value(x, ty, 1)).collect::<Result<_, _>>()?)
            }
            J::Array(_) => return Err(not_held("a list inside a list")),
        })
    }

    fn values(&self, j: Option<&J>, types: &dyn Fn(&str) -> String, what: &str) -> Result<Vec<(String, Value)>, Error> {
        let m = j.and_then(J::as_object).ok_or_else(|| bad(what))?;
        m.iter().map(|(k, v)| Ok((k.clone(), self.value(v, &types(k), 0)?))).collect()
    }
}

fn whole(j: Option<&J>, what: &str) -> Result<i64, Error> {
    match j {
        Some(J::Number(x)) => x.as_i64().ok_or_else(|| not_held("a number that is not a whole number of 64 bits")),
        Some(J::String(_)) => Err(not_held(&format!("a fractional {what}"))),
        _ => Err(bad(what)),
    }
}

/// An amount as `plain` writes it: an int, or a fraction's text.
fn money(j: Option<&J>, what: &str) -> Result<Money, Error> {
    match j {
        Some(J::Number(x)) => x.as_i64().map(Money::whole).ok_or_else(|| not_held("an amount past 64 bits")),
        Some(J::String(s)) => Money::parse(s).ok_or_else(|| not_held(&format!("the {what} {s:.40}"))),
        _ => Err(bad(what)),
    }
}

fn flag(m: &Map<String, J>, key: &str) -> Result<bool, Error> {
    m.get(key).and_then(J::as_bool).ok_or_else(|| bad(key))
}

/// The state a snapshot (JSON text) describes, for this table (its catalog and declarations).
pub fn read(t: &Table, text: &str) -> Result<HandState, Error> {
    let doc: J = serde_json::from_str(text).map_err(|_| Error::Input("the snapshot is not JSON".into()))?;
    let m = doc.as_object().ok_or_else(|| bad("document"))?;
    let seats_j = m.get("seats").and_then(J::as_array).ok_or_else(|| bad("seats"))?;
    if seats_j.len() != t.n {
        return Err(Error::Input(format!(
            "the snapshot has {} seats and the table {}",
            seats_j.len(),
            t.n
        )));
    }
    let r = Reader {
        by_name: t.names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect(),
        n: t.n,
    };
    // the physical ids: the wall's are known (its ids beside its names); the rest of the copies are not
    // physical any more (tiles elsewhere are kinds)
    let wall_names = r.tiles(m.get("wall"), "wall")?;
    let wall_ids: Vec<usize> = m
        .get("wall_ids")
        .and_then(J::as_array)
        .filter(|a| a.len() == wall_names.len())
        .ok_or_else(|| bad("wall_ids"))?
        .iter()
        .map(|x| x.as_u64().map(|i| i as usize).ok_or_else(|| bad("wall_ids")))
        .collect::<Result<_, _>>()?;
    let total: usize = t.cat.kinds.iter().map(|k| k.copies.max(0) as usize).sum();
    let mut kind_of = vec![usize::MAX; total];
    for (&id, &k) in wall_ids.iter().zip(&wall_names) {
        match kind_of.get_mut(id) {
            Some(slot) if *slot == usize::MAX => *slot = k,
            _ => return Err(bad("wall_ids")),
        }
    }
    let pinned: BTreeSet<usize> = m
        .get("pinned")
        .and_then(J::as_array)
        .ok_or_else(|| bad("pinned"))?
        .iter()
        .map(|x| x.as_u64().map(|i| i as usize).filter(|&i| i < total).ok_or_else(|| bad("pinned")))
        .collect::<Result<_, _>>()?;
    let dealer = r.seat(m.get("dealer").unwrap_or(&J::Null), "dealer")?;
    let mut st = HandState::new(t.n, dealer, kind_of, wall_ids);
    st.pinned = pinned.into();
    st.out = r.tiles(m.get("out"), "out")?.into();
    let rules = &t.rules;
    let state_type = |scope: &str, name: &str| -> String {
        match rules.states.iter().find(|s| s.scope == scope && s.name == name) {
            Some(s) => s.ty.clone(),
            None => String::new(), // a phase (true/false) or a value no declaration types
        }
    };
    for (s, sj) in st.seats.iter_mut().zip(seats_j) {
        let sm = sj.as_object().ok_or_else(|| bad("seat"))?;
        let mut seat = Seat::new();
        seat.hand = r.tiles(sm.get("hand"), "hand")?;
        seat.drawn = r.opt_tile(sm.get("drawn"), "drawn tile")?;
        for mj in sm.get("melds").and_then(J::as_array).ok_or_else(|| bad("melds"))? {
            let mm = mj.as_object().ok_or_else(|| bad("meld"))?;
            seat.melds.push(Meld {
                kind: mm.get("kind").and_then(J::as_str).ok_or_else(|| bad("meld"))?.to_owned(),
                tiles: r.tiles(mm.get("tiles"), "meld")?,
                exposed: flag(mm, "exposed")?,
                source: r.opt_seat(mm.get("source"), "meld source")?,
                claimed: r.opt_tile(mm.get("claimed"), "claimed tile")?,
            });
        }
        seat.discards = r.tiles(sm.get("discards"), "discards")?.into();
        seat.aside = r.tiles(sm.get("aside"), "tiles set aside")?.into();
        seat.vars = r.values(sm.get("vars"), &|k| state_type("player", k), "player states")?;
        seat.auto = flag(sm, "auto")?;
        seat.ready = flag(sm, "ready")?;
        seat.balance = money(sm.get("balance"), "balance")?;
        *s = seat;
    }
    st.table = r.values(m.get("table"), &|k| state_type("table", k), "table states")?;
    let setting_type = |k: &str| -> String {
        rules.settings.iter().find(|s| s.role == "context" && s.name == k).map(|s| s.ty.clone()).unwrap_or_default()
    };
    st.context = r.values(m.get("context"), &setting_type, "context values")?;
    st.reveals = r.values(m.get("reveals"), &|_| "tile".to_owned(), "reveals")?;
    st.values_changed();
    st.task = m.get("task").and_then(J::as_str).ok_or_else(|| bad("task"))?.to_owned();
    st.turn = whole(m.get("turn"), "turn")?;
    st.last_drawer = r.opt_seat(m.get("last_drawer"), "last drawer")?;
    st.last_dealt = r.opt_tile(m.get("last_dealt"), "last dealt tile")?;
    st.winners = r.seats(m.get("winners"), "winners")?;
    st.discarder = r.opt_seat(m.get("discarder"), "discarder")?;
    st.robbed = r.opt_seat(m.get("robbed"), "robbed seat")?;
    st.exhausted = flag(m, "exhausted")?;
    st.finished = flag(m, "finished")?;
    st.first_winners = r.seats(m.get("first_winners"), "first winners")?;
    st.over = flag(m, "over")?;
    st.next_dealer = r.opt_seat(m.get("next_dealer"), "next dealer")?;
    for pj in m.get("payments").and_then(J::as_array).ok_or_else(|| bad("payments"))? {
        let pm = pj.as_object().ok_or_else(|| bad("payment"))?;
        st.payments.push(Payment {
            name: pm.get("name").and_then(J::as_str).ok_or_else(|| bad("payment"))?.to_owned(),
            event: pm.get("event").and_then(J::as_str).ok_or_else(|| bad("payment"))?.to_owned(),
            payer: r.opt_seat(pm.get("payer"), "payer")?,
            payee: r.opt_seat(pm.get("payee"), "payee")?,
            amount: money(pm.get("amount"), "payment")?,
            fee: money(pm.get("fee"), "fee")?,
        });
    }
    st.fees = money(m.get("fees"), "fees")?;
    let deltas = m.get("deltas").and_then(J::as_array).filter(|d| d.len() == t.n).ok_or_else(|| bad("deltas"))?;
    st.deltas = deltas.iter().map(|d| money(Some(d), "delta")).collect::<Result<_, _>>()?;
    let mut events = BTreeMap::new();
    for (k, v) in m.get("events").and_then(J::as_object).ok_or_else(|| bad("events"))? {
        events.insert(k.clone(), whole(Some(v), "event count")?);
    }
    st.events = Counts::from_map(events);
    st.chance = m.get("chance").and_then(J::as_array).cloned().ok_or_else(|| bad("chance"))?;
    match m.get("reveal_ids") {
        None => st.reveal_ids_known = false,
        Some(J::Object(ids)) => {
            for (k, v) in ids {
                let a = v.as_array().ok_or_else(|| bad("reveal_ids"))?;
                let ids = a
                    .iter()
                    .map(|x| x.as_u64().map(|i| i as usize).filter(|&i| i < total).ok_or_else(|| bad("reveal_ids")))
                    .collect::<Result<_, _>>()?;
                st.reveal_ids.insert(k.clone(), ids);
            }
        }
        Some(_) => return Err(bad("reveal_ids")),
    }
    Ok(st)
}
