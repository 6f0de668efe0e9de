//! The options of each decision the engine asks (runtime/game/turn.py `_s_play_turn`, `_s_follow`,
//! `_s_answers`; claims.py `_s_after_discard`, `_s_added_kong`, `_s_turn_card`; opening.py
//! `_s_start_wins`, `_s_together`, `_s_start_decisions`; the event windows of claims.py `_s_window`),
//! assembled from the legal moves of engine/offers.rs (engine/offer_binding.rs is their Python
//! surface). The decision (whose turn, which window,
//! what was taken or decided already) is the continuation's data: until step 4 ports it, it comes as
//! JSON (`Decision`), read from the reference's pending step by runtime/game/native_offers.py.

use serde_json::Value as J;

use super::offers::{Act, Bind, Ctx, Mv, Of, Why};
use super::table;
use crate::program::V;
use crate::Error;

type R<T> = Result<T, Why>;
type Moves = Vec<(Mv, Of)>;

/// A decision, as the continuation will hold it.
pub enum Decision {
    /// A seat's own turn (`_s_play_turn`): after a draw or a claim; moves already taken this turn.
    Turn {
        seat: usize,
        claimed: bool,
        allow_win: bool,
        taken: Vec<Mv>,
    },
    /// The follow-ups of an action with the tile it used (`_s_follow`).
    Follow { seat: usize, action: String, tile: usize },
    /// The discarder's own declarations on its discard (`_s_after_discard`).
    OwnDiscard { seat: usize, tile: usize },
    /// The others' claims on a discard (the window of `_s_after_discard`).
    Claim { seat: usize, tile: usize },
    /// Robbing an added kong (`_s_added_kong`).
    Rob { seat: usize, tile: usize },
    /// The drawer's own melds with a drawn card, before it is turned over (`_s_turn_card`).
    DrawnCard { seat: usize, tile: usize },
    /// A turned card offered to every seat (`_s_turn_card`).
    Turned { seat: usize, tile: usize },
    /// The wins an opening event offers to every seat (`_s_start_wins`).
    StartWins { event: String },
    /// The decisions an opening event opens asked of every seat at once (`_s_together`).
    Together { event: String, decided: Vec<Vec<String>> },
    /// One seat's decisions at an opening event (`_s_start_decisions`).
    StartDecisions {
        seat: usize,
        event: String,
        melded: bool,
        taken: Vec<Mv>,
        decided: Vec<String>,
    },
    /// The decisions an event opens outside the turn and the claims (`_s_window`): its actor and tile,
    /// whether only its `by winner` decisions are asked (`others` false), the one winner they are asked
    /// of (a win's events, a winner's turn), and the event's other bindings.
    Window {
        event: String,
        actor: Option<usize>,
        tile: Option<usize>,
        others: bool,
        winner: Option<usize>,
        bind: Bind,
        /// The win whose reading the window reads, where the check names it (`WindowWin`).
        win: Option<WindowWin>,
    },
}

/// A win a window reads (the hand's first win, as the reference's window reads it): the seat, the
/// winning tile, self-drawn, the concealed tiles without it, the forms it is limited to.
pub struct WindowWin {
    pub seat: usize,
    pub tile: Option<usize>,
    pub self_drawn: bool,
    pub concealed: Vec<usize>,
    pub forms: Vec<String>,
}

impl WindowWin {
    /// {"seat", "tile" (a name or null), "self_drawn", "concealed" (names), "forms" (names)}.
    pub fn read(t: &table::Table, w: &J) -> Result<WindowWin, Error> {
        let kind = |x: &J| x.as_str().and_then(|n| t.names.iter().position(|m| m == n)).ok_or_else(|| input("win"));
        Ok(WindowWin {
            seat: w.get("seat").and_then(J::as_u64).map(|s| s as usize).filter(|&s| s < t.n).ok_or_else(|| input("win"))?,
            tile: match w.get("tile") {
                None | Some(J::Null) => None,
                Some(x) => Some(kind(x)?),
            },
            self_drawn: w.get("self_drawn").and_then(J::as_bool).ok_or_else(|| input("win"))?,
            concealed: w.get("concealed").and_then(J::as_array).ok_or_else(|| input("win"))?.iter().map(kind).collect::<Result<_, _>>()?,
            forms: w
                .get("forms")
                .and_then(J::as_array)
                .ok_or_else(|| input("win"))?
                .iter()
                .map(|x| x.as_str().map(str::to_owned).ok_or_else(|| input("win")))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// A binding's value as the decision gives it: null, true/false, a whole number, {"seat": n},
/// {"tile": name}, {"rat": [n, d]}, {"str": text}.
fn read_value(t: &table::Table, j: &J) -> Result<V, Error> {
    Ok(match j {
        J::Null => V::None,
        J::Bool(b) => V::Bool(*b),
        J::Number(x) => V::Int(x.as_i64().ok_or_else(|| input("binding"))?),
        J::Object(m) if m.len() == 1 => {
            if let Some(s) = m.get("seat").and_then(J::as_u64).filter(|&s| (s as usize) < t.n) {
                V::Seat(s as u16)
            } else if let Some(n) = m.get("tile").and_then(J::as_str) {
                let k = t.names.iter().position(|x| x == n).ok_or_else(|| input("binding"))?;
                V::Tile(((k as u32) << 2) | (t.cat.kinds[k].category == "joker") as u32)
            } else if let Some(x) = m.get("str").and_then(J::as_str) {
                V::Str(std::sync::Arc::from(x))
            } else if let Some([n, d]) = m.get("rat").and_then(J::as_array).map(Vec::as_slice) {
                match (n.as_i64(), d.as_i64()) {
                    (Some(n), Some(d)) if d > 1 => V::Rat(n, d),
                    _ => return Err(input("binding")),
                }
            } else {
                return Err(input("binding"));
            }
        }
        _ => return Err(input("binding")),
    })
}

fn input(what: &str) -> Error {
    Error::Input(format!("a decision's {what} is missing or malformed"))
}

fn read_move(t: &table::Table, j: &J) -> Result<Mv, Error> {
    let a = j.as_array().filter(|a| a.len() == 4).ok_or_else(|| input("move"))?;
    let tiles = a[1]
        .as_array()
        .ok_or_else(|| input("move"))?
        .iter()
        .map(|x| {
            x.as_str()
                .and_then(|n| t.names.iter().position(|m| m == n))
                .ok_or_else(|| input("move tile"))
        })
        .collect::<Result<Vec<usize>, _>>()?
        .into();
    // (an action the rule set does not declare: a move equal to none offered)
    let name = a[0].as_str().ok_or_else(|| input("move"))?;
    Ok(Mv {
        action: Act::named(&t.rules.action_names, name),
        tiles,
        choice: if a[2].is_null() { None } else { Some(Box::new(a[2].clone())) },
        meld: a[3].as_str().map(Into::into),
    })
}

fn strings(j: Option<&J>) -> Vec<String> {
    j.and_then(J::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

impl Decision {
    pub fn read(t: &table::Table, text: &str) -> Result<Decision, Error> {
        let j: J = serde_json::from_str(text).map_err(|_| Error::Input("the decision is not JSON".into()))?;
        let seat = || {
            j.get("seat")
                .and_then(J::as_u64)
                .map(|x| x as usize)
                .filter(|&s| s < t.n)
                .ok_or_else(|| input("seat"))
        };
        let tile = || {
            j.get("tile")
                .and_then(J::as_str)
                .and_then(|n| t.names.iter().position(|m| m == n))
                .ok_or_else(|| input("tile"))
        };
        let flag = |k: &str| j.get(k).and_then(J::as_bool).ok_or_else(|| input(k));
        let text_of = |k: &str| j.get(k).and_then(J::as_str).map(str::to_owned).ok_or_else(|| input(k));
        let moves = |k: &str| -> Result<Vec<Mv>, Error> {
            j.get(k)
                .and_then(J::as_array)
                .ok_or_else(|| input(k))?
                .iter()
                .map(|m| read_move(t, m))
                .collect()
        };
        Ok(match j.get("kind").and_then(J::as_str).unwrap_or("") {
            "turn" => Decision::Turn {
                seat: seat()?,
                claimed: flag("claimed")?,
                allow_win: flag("allow_win")?,
                taken: moves("taken")?,
            },
            "follow" => Decision::Follow {
                seat: seat()?,
                action: text_of("action")?,
                tile: tile()?,
            },
            "own_discard" => Decision::OwnDiscard {
                seat: seat()?,
                tile: tile()?,
            },
            "claim" => Decision::Claim {
                seat: seat()?,
                tile: tile()?,
            },
            "rob" => Decision::Rob {
                seat: seat()?,
                tile: tile()?,
            },
            "drawn_card" => Decision::DrawnCard {
                seat: seat()?,
                tile: tile()?,
            },
            "turned" => Decision::Turned {
                seat: seat()?,
                tile: tile()?,
            },
            "start_wins" => Decision::StartWins {
                event: text_of("event")?,
            },
            "together" => {
                let d = j
                    .get("decided")
                    .and_then(J::as_array)
                    .filter(|d| d.len() == t.n)
                    .ok_or_else(|| input("decided"))?;
                Decision::Together {
                    event: text_of("event")?,
                    decided: d.iter().map(|x| strings(Some(x))).collect(),
                }
            }
            "start_decisions" => Decision::StartDecisions {
                seat: seat()?,
                event: text_of("event")?,
                melded: flag("melded")?,
                taken: moves("taken")?,
                decided: strings(j.get("decided")),
            },
            "window" => {
                let opt_seat = |k: &str| match j.get(k) {
                    None | Some(J::Null) => Ok(None),
                    Some(x) => x
                        .as_u64()
                        .map(|s| s as usize)
                        .filter(|&s| s < t.n)
                        .map(Some)
                        .ok_or_else(|| input(k)),
                };
                let tile = match j.get("tile") {
                    None | Some(J::Null) => None,
                    Some(_) => Some(tile()?),
                };
                let mut extra = Vec::new();
                let mut self_drawn = None;
                for (k, v) in j.get("bind").and_then(J::as_object).ok_or_else(|| input("bind"))? {
                    if k == "self_drawn" {
                        self_drawn = Some(v.as_bool().ok_or_else(|| input("binding"))?);
                        continue;
                    }
                    let slot = super::scope::BOUND
                        .iter()
                        .position(|b| b == k)
                        .ok_or_else(|| input("binding"))?;
                    extra.push((slot, read_value(t, v)?));
                }
                Decision::Window {
                    event: text_of("event")?,
                    actor: opt_seat("actor")?,
                    tile,
                    others: flag("others")?,
                    winner: opt_seat("winner")?,
                    bind: Bind {
                        discarder: None,
                        robbed: None,
                        score: None,
                        extra,
                        self_drawn,
                        // the window's reading (the event's win, else the hand's first win): the reference's
                        reading: j
                            .get("reading")
                            .and_then(J::as_bool)
                            .unwrap_or(false)
                            .then_some(Err("the reading of a win the window is given")),
                    },
                    win: match j.get("win") {
                        None | Some(J::Null) => None,
                        Some(w) => Some(WindowWin::read(t, w)?),
                    },
                }
            }
            _ => return Err(input("kind")),
        })
    }
}

/// `_answers`: a compulsory option is taken without asking when nothing else the seat is offered
/// ranks higher; otherwise the seat is asked, without `pass` when something compulsory is among its options.
fn answers(c: &Ctx, offers: Vec<(usize, Moves)>) -> R<Vec<(usize, Vec<Mv>)>> {
    let mut out = Vec::new();
    for (s, ms) in offers {
        let comp = ms.iter().find(|(_, o)| o.compulsory);
        let level = |o: &Of| o.action.map(|i| c.o.rules.actions[i].level);
        match comp {
            Some((_, o))
                if ms
                    .iter()
                    .filter_map(|(_, x)| level(x))
                    .min()
                    .is_none_or(|m| level(o).unwrap_or(0) <= m) => {}
            Some(_) => out.push((s, ms.into_iter().map(|(m, _)| m).collect())),
            None => out.push((s, c.with_pass(s, &ms)?)),
        }
    }
    Ok(out)
}

/// The seats in play order from `start` (`order_from`).
fn order_from(c: &Ctx, start: usize) -> Vec<usize> {
    let n = c.t.n as i64;
    (0..n)
        .map(|k| ((start as i64 + c.t.step * k).rem_euclid(n)) as usize)
        .collect()
}

fn start_by(c: &Ctx, by: &str, s: usize) -> bool {
    c.by_ok(by, s, Some(s)) || (matches!(by, "dealer" | "non_dealer" | "any") && c.by_ok(by, s, None))
}

/// The others' offers on a discard (or, `rob`, on an added kong) of seat s: each seat with its moves
/// (the window of `_s_after_discard`, `_s_added_kong`).
pub fn claim_offers(c: &Ctx, s: usize, t: usize, rob: bool) -> R<Vec<(usize, Moves)>> {
    let st = c.st;
    let bind = Bind {
        discarder: Some(s),
        robbed: rob.then_some(s),
        score: None,
        extra: Vec::new(),
        self_drawn: None,
        reading: None,
    };
    let mut offers = Vec::new();
    let acts: std::borrow::Cow<'_, [usize]> = if rob { c.actions_on("added_kong").into() } else { c.offerable("discard") };
    for cs in 0..c.t.n {
        if cs == s || !c.in_play(cs) {
            continue;
        }
        let mut ms = c.win_moves(cs, if rob { "added_kong" } else { "discard" }, Some(t), Some(s), &bind)?;
        if !st.seats[cs].auto {
            for &i in acts.iter() {
                let a = &c.o.rules.actions[i];
                if (rob && a.wins) || (!rob && a.by == "self") || !c.by_ok(&a.by, cs, Some(s)) {
                    continue;
                }
                ms.extend(c.action_moves(i, cs, Some(t), Some(t), &bind)?);
            }
        }
        if !ms.is_empty() {
            offers.push((cs, ms));
        }
    }
    Ok(offers)
}

/// The wins an opening event offers, each seat with its moves (`_s_start_wins`).
pub fn start_win_offers(c: &Ctx, event: &str, dealer: usize) -> R<Vec<(usize, Moves)>> {
    let mut offers = Vec::new();
    for s in order_from(c, dealer) {
        if !c.in_play(s) {
            continue;
        }
        let ms = c.win_moves(s, event, None, Some(s), &Bind::default())?;
        if !ms.is_empty() {
            offers.push((s, ms));
        }
    }
    Ok(offers)
}

/// The decisions an opening event asks together, each seat with its moves (`_s_together`).
pub fn together_offers(c: &Ctx, event: &str, dealer: usize, decided: &[Vec<String>]) -> R<Vec<(usize, Moves)>> {
    let acts: Vec<usize> = c
        .actions_on(event)
        .into_iter()
        .filter(|&i| c.o.rules.actions[i].together)
        .collect();
    let mut offers = Vec::new();
    if !acts.is_empty() {
        for s in order_from(c, dealer) {
            if !c.in_play(s) {
                continue;
            }
            let mut ms = Vec::new();
            for &i in &acts {
                let a = &c.o.rules.actions[i];
                if !decided[s].contains(&a.name) && start_by(c, &a.by, s) {
                    ms.extend(c.action_moves(i, s, None, None, &Bind::default())?);
                }
            }
            if !ms.is_empty() {
                offers.push((s, ms));
            }
        }
    }
    Ok(offers)
}

/// The decisions an event opens outside the turn and the claims (`_s_window`), each seat asked with its
/// moves: its actor and tile, whether only its `by winner` decisions are asked (`others` false), the one
/// winner they are asked of, the event's other bindings.
pub fn window_offers(
    c: &Ctx,
    event: &str,
    actor: Option<usize>,
    tile: Option<usize>,
    others: bool,
    winner: Option<usize>,
    bind: &Bind,
) -> R<Vec<(usize, Moves)>> {
    let st = c.st;
    let followers: Vec<String> = c.o.rules.action(event).map(|a| a.follow.clone()).unwrap_or_default();
    let mut offers: Vec<(usize, Moves)> = Vec::new();
    for i in c.actions_on(event) {
        let a = &c.o.rules.actions[i];
        if a.description || followers.contains(&a.name) || (!others && a.by != "winner") {
            continue;
        }
        for cs in 0..c.t.n {
            // a seat that left the hand is asked only about the events of its own win
            if !c.by_ok(&a.by, cs, actor) || (Some(cs) != actor && !(st.finished || c.in_play(cs))) {
                continue;
            }
            if winner.is_some_and(|w| a.by == "winner" && cs != w) {
                continue;
            }
            let ms = c.action_moves(i, cs, tile, None, bind)?;
            if !ms.is_empty() {
                match offers.iter_mut().find(|(x, _)| *x == cs) {
                    Some(e) => e.1.extend(ms),
                    None => offers.push((cs, ms)),
                }
            }
        }
    }
    Ok(offers)
}

/// The drawer's own melds with a drawn card before it is turned over (`_s_turn_card`), as one seat's offers.
pub fn drawn_card_offers(c: &Ctx, s: usize, tile: usize) -> R<Vec<(usize, Moves)>> {
    let st = c.st;
    let mut own = Vec::new();
    if !st.seats[s].auto {
        let mut seen: Vec<&str> = Vec::new();
        for ev in ["draw", "turn"] {
            for i in c.actions_on(ev) {
                let a = &c.o.rules.actions[i];
                if seen.contains(&a.name.as_str()) || !matches!(a.by.as_str(), "self" | "any") {
                    continue;
                }
                seen.push(&a.name);
                let req = if a.forms.is_empty() { None } else { Some(tile) };
                own.extend(c.action_moves(i, s, Some(tile), req, &Bind::default())?);
            }
        }
    }
    if own.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![(s, own)])
}

/// A turned card offered to every seat in play (`_s_turn_card`): each seat with its moves.
pub fn turned_offers(c: &Ctx, s: usize, t: usize) -> R<Vec<(usize, Moves)>> {
    let st = c.st;
    let mut offers = Vec::new();
    for cs in 0..c.t.n {
        if !c.in_play(cs) {
            continue;
        }
        let mut ms = c.win_moves(cs, "reveal", Some(t), Some(s), &Bind::default())?;
        if !st.seats[cs].auto {
            for i in c.actions_on("reveal") {
                let a = &c.o.rules.actions[i];
                if a.wins || !c.by_ok(&a.by, cs, Some(s)) {
                    continue;
                }
                let req = if a.forms.is_empty() { None } else { Some(t) };
                ms.extend(c.action_moves(i, cs, Some(t), req, &Bind::default())?);
            }
        }
        if !ms.is_empty() {
            offers.push((cs, ms));
        }
    }
    Ok(offers)
}

/// The options each seat asked has at this decision (seats without any are left out; none at all: the
/// reference would not ask here).
pub fn options(c: &Ctx, d: &Decision) -> R<Vec<(usize, Vec<Mv>)>> {
    let st = c.st;
    Ok(match d {
        Decision::Turn {
            seat,
            claimed,
            allow_win,
            taken,
        } => {
            let s = *seat;
            let moves: Moves = c
                .turn_moves(s, *claimed, *allow_win)?
                .into_iter()
                .filter(|(m, _)| !taken.contains(m))
                .collect();
            if moves.iter().any(|(_, o)| o.compulsory) || moves.is_empty() {
                return Ok(Vec::new());
            }
            let opts = if st.seats[s].auto || !moves.iter().any(|(m, _)| m.action == Act::DISCARD) {
                c.with_pass(s, &moves)?
            } else {
                moves.into_iter().map(|(m, _)| m).collect()
            };
            vec![(s, opts)]
        }
        Decision::Follow { seat, action, tile } => {
            let Some(a) = c.o.rules.action(action) else {
                return Ok(Vec::new());
            };
            let mut moves = Vec::new();
            for name in &a.follow {
                moves.extend(c.follow_moves(name, *seat, *tile)?);
            }
            if moves.is_empty() || moves.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(*seat, c.with_pass(*seat, &moves)?)]
        }
        Decision::OwnDiscard { seat, tile } => {
            let s = *seat;
            let mut own = Vec::new();
            if !st.seats[s].auto {
                for &i in c.offerable("discard").iter() {
                    if c.o.rules.actions[i].by == "self" {
                        own.extend(c.action_moves(i, s, Some(*tile), None, &Bind::default())?);
                    }
                }
            }
            if own.is_empty() || own.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(s, c.with_pass(s, &own)?)]
        }
        Decision::Claim { seat, tile } | Decision::Rob { seat, tile } => {
            answers(c, claim_offers(c, *seat, *tile, matches!(d, Decision::Rob { .. }))?)?
        }
        Decision::DrawnCard { seat, tile } => answers(c, drawn_card_offers(c, *seat, *tile)?)?,
        Decision::Turned { seat, tile } => answers(c, turned_offers(c, *seat, *tile)?)?,
        Decision::StartWins { event } => answers(c, start_win_offers(c, event, st.dealer)?)?,
        Decision::Together { event, decided } => answers(c, together_offers(c, event, st.dealer, decided)?)?,
        Decision::StartDecisions {
            seat,
            event,
            melded,
            taken,
            decided,
        } => {
            let s = *seat;
            let acts: Vec<usize> = c
                .actions_on(event)
                .into_iter()
                .filter(|&i| !c.o.rules.actions[i].together && start_by(c, &c.o.rules.actions[i].by, s))
                .collect();
            let mut moves = if *melded {
                c.win_moves(s, event, None, Some(s), &Bind::default())?
            } else {
                Vec::new()
            };
            for i in acts {
                moves.extend(c.action_moves(i, s, None, None, &Bind::default())?);
            }
            let moves: Moves = moves
                .into_iter()
                .filter(|(m, o)| {
                    // a compulsory move taken already, or a decision (no meld, no win) decided already
                    let taken_again = o.compulsory && taken.contains(m);
                    let decided_again =
                        !o.meld && !o.win && o.action.is_some_and(|i| decided.contains(&c.o.rules.actions[i].name));
                    !(taken_again || decided_again)
                })
                .collect();
            if moves.is_empty() || moves.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(s, c.with_pass(s, &moves)?)]
        }
        Decision::Window {
            event,
            actor,
            tile,
            others,
            winner,
            bind,
            ..
        } => {
            let offers = window_offers(c, event, *actor, *tile, *others, *winner, bind)?;
            let mut out = Vec::new();
            for (cs, ms) in offers {
                if !ms.iter().any(|(_, o)| o.compulsory) {
                    out.push((cs, c.with_pass(cs, &ms)?));
                }
            }
            out
        }
    })
}
