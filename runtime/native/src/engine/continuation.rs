//! The hand's continuation written as JSON, as `steps.continuation(game)` and `steps.plain_local` write
//! it (runtime/game/steps.py), so the native hand's continuation can be compared with the reference's
//! text for text; the steps themselves are engine/steps.rs.

use serde_json::{json, Map, Value as J};

use super::bound::bound_json;
use super::offers::{Mv, Of};
use super::steps::{Offer, Step};
use super::table::Table;

/// `str(Move)`: the action, the tiles' names run together, the meld kind, the choice.
pub fn move_text(t: &Table, m: &Mv) -> String {
    let mut out = m.action.name(&t.rules.action_names).to_owned();
    if !m.tiles.is_empty() {
        out.push(' ');
        for &k in &m.tiles {
            out.push_str(&t.names[k]);
        }
    }
    if let Some(k) = &m.meld {
        out.push_str(&format!(" [{k}]"));
    }
    if let Some(c) = &m.choice {
        out.push_str(" =");
        out.push_str(&py_str(c));
    }
    out
}

/// Python's `str` of a plain JSON value (a move's choice).
fn py_str(j: &J) -> String {
    match j {
        J::String(s) => s.clone(),
        J::Bool(true) => "True".into(),
        J::Bool(false) => "False".into(),
        J::Null => "None".into(),
        other => other.to_string(),
    }
}

fn tile(t: &Table, k: Option<usize>) -> J {
    k.map_or(J::Null, |k| J::String(t.names[k].clone()))
}

fn seat(s: Option<usize>) -> J {
    s.map_or(J::Null, |s| json!({ "seat": s }))
}

/// A score as `plain_local` writes it: a whole number as a number, a fraction as its text "n/d".
fn score(s: (i64, i64)) -> J {
    if s.1 == 1 {
        json!(s.0)
    } else {
        J::String(format!("{}/{}", s.0, s.1))
    }
}

/// An offer as `plain_local` writes it.
pub fn offer_json(t: &Table, names: &[String], o: &Of) -> J {
    json!({
        "action": o.action.map(|i| J::String(names[i].clone())).unwrap_or(J::Null),
        "meld": o.opt.as_ref().map_or(J::Null, |m| json!({
            "kind": m.kind,
            "tiles": m.tiles.iter().map(|&k| &t.names[k]).collect::<Vec<_>>(),
            "extends": m.extends,
        })),
        "win": o.won.as_ref().map_or(J::Null, |w| json!({
            "seat": w.seat,
            "tile": tile(t, w.tile),
            "self_drawn": w.self_drawn,
            "action": w.action,
            "score": score(w.score),
        })),
        "compulsory": o.compulsory,
    })
}

fn moves_json(t: &Table, names: &[String], ms: &[Offer]) -> J {
    J::Array(ms.iter().map(|(m, o)| json!([move_text(t, m), offer_json(t, names, o)])).collect())
}

/// A set as `plain_local` writes it: its items sorted by their text.
fn sorted(mut items: Vec<String>) -> J {
    items.sort();
    J::Array(items.into_iter().map(J::String).collect())
}

fn pair_json(t: &Table, names: &[String], (mv, o): &Offer) -> J {
    json!([move_text(t, mv), offer_json(t, names, o)])
}

fn offers_json(t: &Table, names: &[String], offers: &[(usize, Vec<Offer>)]) -> J {
    J::Object(offers.iter().map(|(c, ms)| (c.to_string(), moves_json(t, names, ms))).collect())
}

fn answers_json(t: &Table, names: &[String], answers: &[(usize, Offer)]) -> J {
    J::Object(answers.iter().map(|(c, p)| (c.to_string(), pair_json(t, names, p))).collect())
}

/// The locals `_window_ask` and `_window_answers` keep: the offers, then the answers with their order.
fn window_locals(
    t: &Table,
    names: &[String],
    m: &mut Map<String, J>,
    offers: &Option<Vec<(usize, Vec<Offer>)>>,
    answers: &Option<Vec<(usize, Offer)>>,
    order: &[usize],
    i: usize,
) {
    if let Some(o) = offers {
        m.insert("offers".into(), offers_json(t, names, o));
    }
    if let Some(a) = answers {
        m.insert("answers".into(), answers_json(t, names, a));
        m.insert("order".into(), json!(order));
        m.insert("i".into(), json!(i));
    }
}

/// One record as JSON (`{"step", "at", "locals"}`); `names` are the actions' names by index.
pub fn record_json(t: &Table, names: &[String], decided: &[Vec<String>], s: &Step) -> J {
    let (at, locals) = match s {
        Step::Hand { at, opening, ev, order, i, nxt, turned } => {
            let mut m = Map::new();
            if *opening {
                m.insert("ev".into(), json!(ev));
                let d: Map<String, J> =
                    decided.iter().enumerate().map(|(k, v)| (k.to_string(), sorted(v.clone()))).collect();
                m.insert("decided".into(), J::Object(d));
                if let Some(o) = order {
                    m.insert("order".into(), json!(o));
                    m.insert("i".into(), json!(i));
                }
            } else if *at >= 10 {
                m.insert("nxt".into(), nxt.map_or(J::Null, |n| json!([n.0, n.1])));
                m.insert("turned".into(), json!(turned));
            }
            (*at, J::Object(m))
        }
        Step::StartWins { at, event, offers, answers, order, i, claims } => {
            let mut m = Map::new();
            m.insert("event".into(), json!(event));
            window_locals(t, names, &mut m, offers, answers, order, *i);
            if let Some(cs) = claims {
                let items: Vec<J> = cs.iter().map(|(c, (_, o))| json!([c, offer_json(t, names, o)])).collect();
                m.insert("claims".into(), J::Array(items));
            }
            (*at, J::Object(m))
        }
        Step::Together { at, event, offers, answers, order, i, taken } => {
            let mut m = Map::new();
            m.insert("event".into(), json!(event));
            let d: Map<String, J> = decided.iter().enumerate().map(|(k, v)| (k.to_string(), sorted(v.clone()))).collect();
            m.insert("decided".into(), J::Object(d));
            window_locals(t, names, &mut m, offers, answers, order, *i);
            if let Some(tk) = taken {
                let items: Vec<J> = tk
                    .iter()
                    .map(|x| {
                        let mut b = Map::new();
                        b.insert("actor".into(), seat(Some(x.seat)));
                        if let Some((_, plain)) = &x.choice {
                            b.insert("choice".into(), plain.clone());
                        }
                        json!([names[x.action], J::Object(b)])
                    })
                    .collect();
                m.insert("taken".into(), J::Array(items));
            }
            (*at, J::Object(m))
        }
        Step::StartDecisions { at, event, s, acts, taken, melded, moves, chosen } => {
            let mut m = Map::new();
            m.insert("event".into(), json!(event));
            m.insert("s".into(), json!(s));
            m.insert("decided".into(), sorted(decided.get(*s).cloned().unwrap_or_default()));
            if *at > 0 {
                // the actions are written as `plain_local` writes an object it does not know: its type's name
                m.insert("acts".into(), J::Array(acts.iter().map(|_| J::String("CAction".into())).collect()));
                m.insert("taken".into(), sorted(taken.iter().map(|x| move_text(t, x)).collect()));
                m.insert("melded".into(), json!(melded));
            }
            if let Some(ms) = moves {
                m.insert("moves".into(), moves_json(t, names, ms));
            }
            if let Some(p) = chosen {
                m.insert("chosen".into(), pair_json(t, names, p));
            }
            (*at, J::Object(m))
        }
        Step::PlayTurn { at, s, claimed, allow_win, taken, moves, chosen, then } => {
            let mut m = Map::new();
            m.insert("s".into(), json!(s));
            m.insert("claimed".into(), json!(claimed));
            m.insert("allow_win".into(), json!(allow_win));
            m.insert("taken".into(), sorted(taken.iter().map(|x| move_text(t, x)).collect()));
            if let Some(ms) = moves {
                m.insert("moves".into(), moves_json(t, names, ms));
            }
            if let Some(p) = chosen {
                m.insert("chosen".into(), pair_json(t, names, p));
            }
            if let Some(x) = then {
                m.insert("then".into(), json!(x));
            }
            (*at, J::Object(m))
        }
        Step::AfterDiscard { at, s, t: k, tile: tv, own, chosen } => {
            let mut m = Map::new();
            m.insert("s".into(), json!(s));
            m.insert("t".into(), tile(t, Some(*k)));
            if *at > 0 {
                m.insert("tile".into(), tile(t, *tv));
            }
            if let Some(ms) = own {
                m.insert("own".into(), moves_json(t, names, ms));
            }
            if let Some(p) = chosen {
                m.insert("chosen".into(), pair_json(t, names, p));
            }
            (*at, J::Object(m))
        }
        Step::AddedKong { at, s, offer, bind } => {
            let mut m = Map::new();
            m.insert("s".into(), json!(s));
            m.insert("offer".into(), offer_json(t, names, &offer.1));
            m.insert("mv".into(), json!(move_text(t, &offer.0)));
            if let Some(b) = bind {
                m.insert("bind".into(), bound_json(t, b));
            }
            (*at, J::Object(m))
        }
        Step::Answers { at, kind, offers, event, s, t: k, answers } => {
            let mut m = Map::new();
            m.insert("kind".into(), json!(kind));
            m.insert("offers".into(), offers_json(t, names, offers));
            m.insert("event".into(), json!(event));
            m.insert("s".into(), json!(s));
            m.insert("t".into(), tile(t, *k));
            if let Some(a) = answers {
                m.insert("answers".into(), answers_json(t, names, a));
            }
            (*at, J::Object(m))
        }
        Step::WindowResolve { at, kind, event, s, t: k, offers, extra, answers, tile: tv, order, i, claims } => {
            let mut m = Map::new();
            m.insert("kind".into(), json!(kind));
            m.insert("event".into(), json!(event));
            m.insert("s".into(), json!(s));
            m.insert("t".into(), tile(t, Some(*k)));
            m.insert("offers".into(), offers_json(t, names, offers));
            m.insert("extra".into(), bound_json(t, extra));
            if let Some(a) = answers {
                m.insert("answers".into(), answers_json(t, names, a));
                m.insert("tile".into(), tile(t, *tv));
                m.insert("order".into(), json!(order));
                m.insert("i".into(), json!(i));
            }
            if let Some(cs) = claims {
                let items: Vec<J> = cs
                    .iter()
                    .map(|(c, (mv, o))| json!([c, move_text(t, mv), offer_json(t, names, o)]))
                    .collect();
                m.insert("claims".into(), J::Array(items));
            }
            (*at, J::Object(m))
        }
        Step::Claim { at, c, s, offer, t: k, turned, bind } => {
            let mut m = Map::new();
            m.insert("c".into(), json!(c));
            m.insert("s".into(), json!(s));
            m.insert("offer".into(), offer_json(t, names, &offer.1));
            m.insert("mv".into(), json!(move_text(t, &offer.0)));
            m.insert("t".into(), tile(t, Some(*k)));
            m.insert("turned".into(), json!(turned));
            if let Some(b) = bind {
                m.insert("bind".into(), bound_json(t, b));
            }
            (*at, J::Object(m))
        }
        Step::Take { at, s, offer, bind } => (
            *at,
            json!({
                "s": s,
                "offer": offer_json(t, names, &offer.1),
                "mv": move_text(t, &offer.0),
                "bind": bound_json(t, bind),
            }),
        ),
        Step::Exhaust { at } => (*at, json!({})),
        Step::TurnCard { at, s, t: k, i } => {
            let mut m = Map::new();
            m.insert("s".into(), json!(s));
            if k.is_some() {
                m.insert("t".into(), tile(t, *k));
                m.insert("tile".into(), tile(t, *k));
                m.insert("i".into(), json!(i));
            }
            (*at, J::Object(m))
        }
        Step::TileWindow { at, kind, event, s, t: k, offers, answers, order, i, c } => {
            let mut m = Map::new();
            m.insert("kind".into(), json!(kind));
            m.insert("event".into(), json!(event));
            m.insert("s".into(), json!(s));
            m.insert("t".into(), tile(t, Some(*k)));
            m.insert("offers".into(), offers_json(t, names, offers));
            if let Some(a) = answers {
                m.insert("answers".into(), answers_json(t, names, a));
                m.insert("tile".into(), tile(t, Some(*k)));
                m.insert("order".into(), json!(order));
                m.insert("i".into(), json!(i));
            }
            if let Some(c) = c {
                m.insert("c".into(), json!(c));
            }
            (*at, J::Object(m))
        }
        Step::Follow { at, c, action, t: k, k: n, moves, chosen } => {
            let mut m = Map::new();
            m.insert("c".into(), json!(c));
            m.insert("action".into(), json!(action));
            m.insert("t".into(), tile(t, *k));
            m.insert("k".into(), json!(n));
            if let Some(ms) = moves {
                m.insert("moves".into(), moves_json(t, names, ms));
            }
            if let Some(p) = chosen {
                m.insert("chosen".into(), pair_json(t, names, p));
            }
            (*at, J::Object(m))
        }
        Step::Event { at, event, bind, turn } => {
            let mut m = Map::new();
            m.insert("event".into(), json!(event));
            m.insert("bind".into(), bound_json(t, bind));
            if let Some(k) = turn {
                m.insert("turn".into(), json!(k));
            }
            (*at, J::Object(m))
        }
        Step::Window { at, event, bind, others, ai, offers, answers, order, i, cb } => {
            let mut m = Map::new();
            m.insert("event".into(), json!(event));
            m.insert("bind".into(), bound_json(t, bind));
            if !*others {
                m.insert("others".into(), json!(false));
            }
            if *at > 0 || offers.is_some() {
                m.insert("ai".into(), json!(ai));
            }
            if let Some(o) = offers {
                m.insert("offers".into(), offers_json(t, names, o));
                m.insert("answers".into(), answers_json(t, names, answers));
            }
            if let Some(o) = order {
                m.insert("order".into(), json!(o));
                m.insert("i".into(), json!(i));
            }
            if let Some(b) = cb {
                m.insert("cb".into(), bound_json(t, b));
            }
            (*at, J::Object(m))
        }
        Step::HandEnd { at, bind } => (*at, if *at >= 1 { json!({ "bind": bind.clone().unwrap_or_else(|| json!({})) }) } else { json!({}) }),
        Step::Win { at, infos, source, i } => {
            let mut j = super::win::win_json(t, names, infos, *source, *i);
            // (`b`, the bindings of the win being settled, from its events on)
            if let (true, Some(w), J::Object(m)) = (*at >= 2, infos.get(*i), &mut j) {
                m.insert("b".into(), bound_json(t, &super::win::win_bound(w)));
            }
            (*at, j)
        }
        Step::Declines { moves, chosen, bind, i, done } => (
            0,
            json!({
                "moves": moves_json(t, names, moves),
                "chosen": chosen.name(names),
                "bind": bound_json(t, bind),
                "i": i,
                "done": sorted(done.iter().map(|a| a.name(names).to_owned()).collect()),
            }),
        ),
    };
    json!({ "step": s.name(), "at": at, "locals": locals })
}

/// The pending steps, outermost first (`steps.continuation`).
pub fn continuation(t: &Table, names: &[String], decided: &[Vec<String>], stack: &[Step]) -> J {
    J::Array(stack.iter().map(|s| record_json(t, names, decided, s)).collect())
}
