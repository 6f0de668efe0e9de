//! The options of each decision the engine asks (runtime/game/turn.py `_s_play_turn`, `_s_follow`,
//! `_s_answers`; claims.py `_s_after_discard`, `_s_added_kong`, `_s_turn_card`; opening.py
//! `_s_start_wins`, `_s_together`, `_s_start_decisions`; the event windows of claims.py `_s_window`),
//! assembled from the legal moves of engine/offers.rs (engine/offer_binding.rs is their Python
//! surface). The decision (whose turn, which window, what was taken or decided already) is the
//! continuation's data, `Decision` (engine/decision.rs).

use super::decision::Decision;
use super::offers::{Act, Bind, Ctx, Mv, Of, Why};

type R<T> = Result<T, Why>;
type Moves = Vec<(Mv, Of)>;

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
