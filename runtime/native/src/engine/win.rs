//! A win taken or claimed, natively (runtime/game/ending.py `_s_win`, `_bind_win_values`, `_rescore`;
//! winning.py `winner_binding`): the winners noted, each winner's action effects and event, the win's
//! final scoring between the `win` event's hooks and its payments, and what the hand's end binds of
//! the first win, the reveals turned at a win, the decisions the win's events open (the winning action's
//! event, `win`: engine/window.rs with the win's bindings). Several winners on one tile are settled in
//! turn; under `table winners_leave` play goes on after a win from the seat after the last winner until
//! the hand ends.

use super::course::{bound, not_ported, Cx, ENGINE_OFFERED};
use std::sync::Arc;

use super::events::{slot, WinBind, MAX_DEPTH};
use super::scope::{bound_defaults, ReadingAt, WinReading};
use super::values::{hand_wilds, Ev};
use super::offers::Of;
use super::steps::{Bound, Key, More, Out, Res, Step, Val};
use super::table::Table;
use crate::program::V;
use serde_json::{json, Value as J};

/// What runs between an event's hooks and its payments (a win's final scoring), its bindings updated.
type Between<'f> = &'f dyn Fn(&mut Cx, &mut Bound) -> Res<()>;

/// One win (`WinInfo`): the winner, the winning tile, self-drawn, the concealed tiles without the
/// winning tile, the discarder and the robbed seat, the action (its index), and its score as last scored.
#[derive(Clone, Debug)]
pub struct WinI {
    pub seat: usize,
    pub tile: Option<usize>,
    pub self_drawn: bool,
    pub concealed: Vec<usize>,
    pub discarder: Option<usize>,
    pub robbed: Option<usize>,
    pub action: usize,
    pub score: V,
    pub reading: Found,
    /// Its reading for the hand's end expressions (the tasks' conditions: engine/ending.rs `EndRules`).
    pub end_reading: Found,
}

/// The reading of a win as game scope reads it (`WinInfo.reading_env`), where it was found natively
/// (Err: why not; an expression reading it is then refused).
#[derive(Clone)]
pub struct Found(pub Result<Arc<WinReading>, &'static str>);

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_ok() { "(reading)" } else { "(no reading)" })
    }
}

fn seat_v(s: Option<usize>) -> V {
    s.map_or(V::None, |s| V::Seat(s as u16))
}

/// The win an offer stands for, as `_win_info` found it on the state as it is (the hand unchanged since).
/// `turned`: a win on a turned card, which lies on the drawer's pile, not in the hand (`_win_info`
/// "revealed": self-drawn for its drawer, the concealed tiles the whole hand).
pub fn win_of(cx: &Cx, o: &Of, discarder: Option<usize>, robbed: Option<usize>, turned: bool) -> Res<WinI> {
    let w = o.won.as_ref().ok_or_else(|| not_ported("win", "a win offered without its win"))?;
    let action = cx.e.o.rules.actions.iter().position(|a| a.name == w.action).ok_or_else(|| not_ported("win", "a win by an unknown action"))?;
    let mut concealed = w.concealed.clone().unwrap_or_else(|| cx.h.st.seats[w.seat].hand.clone());
    // a drawn tile (or the dealer's last dealt) is taken out of the hand (`_win_info` "drawn"); a claimed
    // or turned one is beside it
    if let (true, false, Some(k)) = (w.self_drawn, turned, w.tile) {
        if let Some(i) = concealed.iter().position(|&x| x == k) {
            concealed.remove(i);
        }
    }
    let score = if w.score.1 == 1 { V::Int(w.score.0) } else { crate::program::rat(w.score.0 as i128, w.score.1 as i128).map_err(|_| not_ported("win", "a score past 64 bits"))? };
    // the reading of the win as it was found (the state is the one it was offered on)
    let e = cx.e;
    let forms = &e.o.rules.actions[action].win_forms;
    let read = |names: &[String]| {
        let mut wins = e.w.on(e.t, &cx.h.st, e.hand);
        wins.set_reading_names(names);
        let got = wins.won_reading(&cx.h.st, w.seat, &concealed, w.tile, w.self_drawn, forms, &[]);
        Found(match (got, wins.take_declined()) {
            (_, Some(why)) => Err(why),
            (Ok(Some(r)), None) => Ok(Arc::new(r)),
            (Ok(None), None) => Err("a win that no longer scores natively"),
            (Err(_), None) => Err("a win the native scoring stops on"),
        })
    };
    let (reading, end_reading) = if e.end.tasks.is_empty() {
        (read(&e.p.scope.reading_names), Found(Err("no task")))
    } else {
        // both readings of one scoring where they are the same as apart (`joins_readings`)
        let mut wins = e.w.on(e.t, &cx.h.st, e.hand);
        if wins.joins_readings() {
            // (with the legal moves' names, which `rescore` reads of the same scoring before the `win` hooks)
            let lens = wins.join_reading_names(&[], &[&e.p.scope.reading_names, &e.end.scope.reading_names, &e.o.scope.reading_names]);
            let got = wins.won_reading(&cx.h.st, w.seat, &concealed, w.tile, w.self_drawn, forms, &lens);
            let (p, end) = match (got, wins.take_declined()) {
                (_, Some(why)) => (Err(why), Err(why)),
                (Ok(Some(r)), None) => {
                    let mut parts = r.split(&lens[1..]).into_iter().map(Arc::new);
                    (parts.next().ok_or("a reading part"), parts.next().ok_or("a reading part"))
                }
                (Ok(None), None) => (Err("a win that no longer scores natively"), Err("a win that no longer scores natively")),
                (Err(_), None) => (Err("a win the native scoring stops on"), Err("a win the native scoring stops on")),
            };
            (Found(p), Found(end))
        } else {
            (read(&e.p.scope.reading_names), read(&e.end.scope.reading_names))
        }
    };
    Ok(WinI { seat: w.seat, tile: w.tile, self_drawn: w.self_drawn, concealed, discarder, robbed, action, score, reading, end_reading })
}

impl Cx<'_, '_> {
    /// `Game._task_factor`: the factor of the hand's task when its condition holds on the win's reading,
    /// else 1 (the factor read with nothing bound, as the setup's environment reads it).
    pub(super) fn task_factor(&self, i: &WinI) -> Res<V> {
        let e = self.e;
        if e.end.tasks.is_empty() {
            return Ok(V::Int(1));
        }
        let wins = e.w.on(e.t, &self.h.st, e.hand);
        task_factor_of(e.end, e.t, &self.h.st, &wins, &self.h.base, i.self_drawn, &i.end_reading)
    }

    /// `Game.winner_binding(w)` as bindings' slots (`self_drawn` and `reading` are not game-scope slots:
    /// an expression reading them is refused at lowering).
    pub(super) fn winner_slots(&self, w: usize) -> Res<Vec<(usize, V)>> {
        let mut out = vec![(slot("winner"), V::Seat(w as u16))];
        if let Some(Some(i)) = self.h.infos.get(w) {
            out.push((slot("score"), i.score.clone()));
            out.push((slot("discarder"), seat_v(i.discarder)));
            out.push((slot("robbed"), seat_v(i.robbed)));
            out.push((slot("task_factor"), self.task_factor(i)?));
        }
        Ok(out)
    }

    /// `Game.winner_binding(w)` as a step's bindings, in its keys' order (the hand's end's events).
    pub(super) fn winner_bound(&self, w: usize) -> Res<Bound> {
        let mut keys = vec![Key::Slot(slot("winner"), V::Seat(w as u16))];
        let mut b = Bound::none();
        if let Some(Some(i)) = self.h.infos.get(w) {
            keys.push(Key::Slot(slot("score"), i.score.clone()));
            keys.push(Key::SelfDrawn(i.self_drawn));
            keys.push(Key::Discarder);
            keys.push(Key::Robbed);
            keys.push(Key::Slot(slot("task_factor"), self.task_factor(i)?));
            keys.push(Key::Reading(Box::new(i.clone())));
            b.discarder = Some(i.discarder);
            b.robbed = Some(i.robbed);
        }
        b.more = Some(Box::new(More { keys }));
        Ok(b)
    }

    /// The reading of win `i` as the legal moves read it (their own reading-scope names).
    pub(super) fn offers_reading(&self, i: &WinI) -> Result<Arc<WinReading>, &'static str> {
        let e = self.e;
        let mut wins = e.w.on(e.t, &self.h.st, e.hand);
        wins.set_reading_names(&e.o.scope.reading_names);
        let forms = &e.o.rules.actions[i.action].win_forms;
        let got = wins.won_reading(&self.h.st, i.seat, &i.concealed, i.tile, i.self_drawn, forms, &[]);
        match (got, wins.take_declined()) {
            (_, Some(why)) => Err(why),
            (Ok(Some(r)), None) => Ok(Arc::new(r)),
            (Ok(None), None) => Err("a win that no longer scores natively"),
            (Err(_), None) => Err("a win the native scoring stops on"),
        }
    }

    /// What `winner_binding(w)` binds of w's win (`self_drawn`, `reading`), once it is scored.
    pub(super) fn winner_win(&self, w: usize) -> Option<WinBind> {
        self.h.infos.get(w).and_then(Option::as_ref).map(win_of_info)
    }

    /// `_bind_win_values`: what game rules read of the hand's first win once play is over.
    pub(super) fn bind_win_values(&mut self, i: &WinI, scored: bool) -> Res<()> {
        let tf = if scored { Some(self.task_factor(i)?) } else { None };
        let leave = self.e.t.rules.table.winners_leave;
        let base = &mut self.h.base;
        if !scored || leave {
            base[slot("winner")] = V::Seat(i.seat as u16);
            base[slot("discarder")] = seat_v(i.discarder);
            base[slot("robbed")] = seat_v(i.robbed);
        }
        if let Some(tf) = tf {
            self.h.base_self_drawn = Some(i.self_drawn);
            let base = &mut self.h.base;
            base[slot("score")] = i.score.clone();
            base[slot("task_factor")] = tf;
        }
        Ok(())
    }

    /// `_event` with a win's bindings: phases, hooks, payments (`between`: the hooks first, then `between`,
    /// updating the bindings, then the payments); the step asking the decisions it opens (`event`), or
    /// its deferred payments when it opens none.
    pub(super) fn win_event(&mut self, name: &str, b: &mut Bound, between: Option<Between>) -> Res<Option<Step>> {
        let eb = bound(self.e.t, b);
        match between {
            None => self.events(|r| r.hooks_only(name, &eb, Some(false)))?,
            Some(f) => {
                self.events(|r| {
                    r.hooks(name, &eb)?;
                    r.leave();
                    Ok(())
                })?;
                f(self, b)?;
                let nb = bound(self.e.t, b);
                self.events(|r| r.pay(name, &nb, Some(false)))?;
            }
        }
        if !ENGINE_OFFERED.contains(&name) && self.opens_actions(name) {
            if self.h.depth >= MAX_DEPTH {
                return Err(format!(
                    "the native hand stopped where the reference notes an error (`{name}` raised inside {MAX_DEPTH} nested decisions)"
                ));
            }
            self.h.depth += 1;
            return Ok(Some(Step::Event { at: 0, event: name.to_owned(), bind: b.clone(), turn: None }));
        }
        if self.e.p.pay.on.contains_key(name) {
            let eb = bound(self.e.t, b);
            self.events(|r| r.settle(name, &eb, Some(true)))?;
        }
        Ok(None)
    }

    /// `{**b, **winner_binding(w)}`: w's bindings once its win is scored merged into `b` (a key already
    /// there keeps its place).
    pub(super) fn merge_winner(&self, b: &mut Bound, w: usize) -> Res<()> {
        let wb = self.winner_bound(w)?;
        b.discarder = wb.discarder.or(b.discarder);
        b.robbed = wb.robbed.or(b.robbed);
        let keys = &mut b.more.get_or_insert_with(Default::default).keys;
        for k in wb.more.map(|m| m.keys).unwrap_or_default() {
            let same = |x: &Key| std::mem::discriminant(x) == std::mem::discriminant(&k)
                && !matches!((x, &k), (Key::Slot(a, _), Key::Slot(c, _)) if a != c);
            match keys.iter_mut().find(|x| same(x)) {
                Some(x) => *x = k,
                None => keys.push(k),
            }
        }
        Ok(())
    }

    /// `_rescore`: the win scored again on the state as it is now; the reference notes an error where it
    /// no longer scores (the native hand stops there). Not `final` (before the `win` hooks): a hand that
    /// scores without winning is kept as it scores, for the hooks to read.
    fn rescore(&mut self, w: usize, last: bool) -> Res<()> {
        let e = self.e;
        let Some(Some(i)) = self.h.infos.get(w).cloned() else { return Ok(()) };
        let forms = &e.o.rules.actions[i.action].win_forms;
        let mut wins = e.w.on(e.t, &self.h.st, e.hand);
        // the hand's end's reading of the same scoring where it is the same as apart (`joins_readings`)
        let joined = !e.end.tasks.is_empty() && wins.joins_readings();
        // (the legal moves' names read beside them: the decisions the win opens read them of this scoring)
        let lens = if joined {
            wins.join_reading_names(&[], &[&e.p.scope.reading_names, &e.end.scope.reading_names, &e.o.scope.reading_names])
        } else {
            wins.set_reading_names(&e.p.scope.reading_names);
            Vec::new()
        };
        let got = wins.won_scoring(&self.h.st, i.seat, &i.concealed, i.tile, i.self_drawn, forms, Some(&lens));
        if let Some(why) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({why})"));
        }
        // (`_rescore`: not `final`, a hand that scores without winning is kept)
        let got = got.map(|(h, r)| h.filter(|h| h.win || !last).map(|h| (h.score, r)));
        match got {
            Ok(Some((score, r))) if joined => {
                let mut parts = r.map(|r| r.split(&lens[1..3])).unwrap_or_default().into_iter().map(Arc::new);
                let no = "a win whose reading the native scoring did not give";
                let reading = Found(parts.next().ok_or(no));
                let end_reading = Found(parts.next().ok_or(no));
                self.h.infos[w] = Some(WinI { score, reading, end_reading, ..i });
                Ok(())
            }
            Ok(Some((score, r))) => {
                let reading = Found(r.map(Arc::new).ok_or("a win whose reading the native scoring did not give"));
                let mut end_reading = Found(Err("no task"));
                if !e.end.tasks.is_empty() {
                    wins.set_reading_names(&e.end.scope.reading_names);
                    let got = wins.won_reading(&self.h.st, i.seat, &i.concealed, i.tile, i.self_drawn, forms, &[]);
                    end_reading = Found(match (got, wins.take_declined()) {
                        (_, Some(why)) => Err(why),
                        (Ok(Some(r)), None) => Ok(Arc::new(r)),
                        _ => Err("a win whose reading the native scoring did not give"),
                    });
                }
                self.h.infos[w] = Some(WinI { score, reading, end_reading, ..i });
                Ok(())
            }
            _ => Err("the native hand stopped where the reference notes an error (scoring the win)".into()),
        }
    }
}

/// `Game._task_factor` of a win self-drawn or not, with its reading for the hand's end expressions
/// (`end_reading`), on state `st` with the game's base bindings `base` (a win taken, or one tried before
/// it is offered: engine/winning/trial.rs).
#[allow(clippy::too_many_arguments)]
pub fn task_factor_of(end: &super::ending::EndRules, t: &Table, st: &super::state::HandState, wins: &dyn super::scope::WinQuestions, base: &[V], self_drawn: bool, end_reading: &Found) -> Res<V> {
    for (name, factor, when) in &end.tasks {
        if *name != st.task {
            continue;
        }
        for k in [Some(*factor), *when].into_iter().flatten() {
            if let Some(Err(why)) = end.scope.exprs.get(k) {
                return Err(why.clone());
            }
        }
        let wild = hand_wilds(t, st);
        let eval = |k: usize, read: bool| -> Res<V> {
            let mut ev = Ev::new(&end.scope, t, st, &wild, wins, if read { base.to_vec() } else { bound_defaults() });
            if read {
                ev.self_drawn = Some(self_drawn);
                ev.reading = match &end_reading.0 {
                    Ok(r) => ReadingAt::Given(r),
                    Err(why) => ReadingAt::Unknown(why),
                };
            }
            let got = ev.expr(k);
            if let Some(why) = ev.declined {
                return Err(format!("a reading of a win ({why})"));
            }
            if let Some(w) = wins.take_declined() {
                return Err(format!("a win question the native machinery declines ({w})"));
            }
            got.map_err(|_| format!("the native hand stopped where the reference notes an error (task {name})"))
        };
        if let Some(k) = when {
            if !eval(*k, true)?.truthy() {
                continue;
            }
        }
        return eval(*factor, false);
    }
    Ok(V::Int(1))
}

/// A number as `plain_local` writes it (a fraction as its text).
pub fn value_json(v: &V) -> J {
    match v {
        V::Int(i) => json!(i),
        V::Rat(n, d) => J::String(format!("{n}/{d}")),
        V::Bool(b) => json!(b),
        _ => J::Null,
    }
}

/// The `win` step's locals as the continuation writes them (each win as `plain_local` writes a WinInfo).
pub fn win_json(t: &Table, names: &[String], infos: &[WinI], source: Option<usize>, i: usize) -> J {
    let ws: Vec<J> = infos
        .iter()
        .map(|w| {
            json!({"seat": w.seat, "tile": w.tile.map(|k| t.names[k].clone()), "self_drawn": w.self_drawn,
                   "action": names.get(w.action), "score": value_json(&w.score)})
        })
        .collect();
    json!({ "infos": ws, "source": source, "i": i })
}

/// The bindings of one win's events (`_s_win`'s `b`): actor and winner, tile, self-drawn, discarder,
/// robbed, one win's (`ONE_WIN`), in its keys' order.
pub fn win_bound(i: &WinI) -> Bound {
    let keys = vec![
        Key::Actor,
        Key::Slot(slot("winner"), V::Seat(i.seat as u16)),
        Key::Tile,
        Key::SelfDrawn(i.self_drawn),
        Key::Discarder,
        Key::Robbed,
        Key::OneWin,
    ];
    Bound { actor: Some(i.seat), tile: Some(i.tile), discarder: Some(i.discarder), robbed: Some(i.robbed), more: Some(Box::new(More { keys })) }
}

/// What a win's events bind of it beside the slots: `self_drawn` and its reading.
fn win_of_info(i: &WinI) -> WinBind {
    WinBind { self_drawn: Some(i.self_drawn), reading: Some(i.reading.0.clone()) }
}

/// `_last_winner`: the winner farthest in play order from the tile's source (its discarder, else the
/// drawer of a turned card); a self-drawn win's own winner.
fn last_winner(cx: &Cx, infos: &[WinI], source: Option<usize>) -> usize {
    let Some(r) = infos[0].discarder.or(source) else { return infos[infos.len() - 1].seat };
    let mut best = infos[0].seat;
    for x in infos {
        if super::claims::distance(cx, r, x.seat) > super::claims::distance(cx, r, best) {
            best = x.seat;
        }
    }
    best
}

/// `_s_win`: the wins of one tile, settled winner by winner; its value, the reference's None (the hand's
/// play is over).
pub fn win(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Win { at, infos, i, source } = f else { unreachable!() };
    loop {
        match *at {
            0 => {
                let leave = cx.e.t.rules.table.winners_leave;
                let st = &mut cx.h.st;
                if st.winners.is_empty() {
                    st.first_winners = infos.iter().map(|x| x.seat).collect();
                    st.discarder = infos[0].discarder;
                    st.robbed = infos[0].robbed;
                }
                st.winners.extend(infos.iter().map(|x| x.seat));
                if !leave {
                    // the win ends the hand: what the hand's end sees of it is bound now
                    st.finished = true;
                    let first = infos[0].clone();
                    cx.bind_win_values(&first, false)?;
                }
                *i = 0;
                *at = 1;
            }
            1 => {
                if *i >= infos.len() {
                    if cx.e.t.rules.table.winners_leave {
                        cx.h.st.finished = super::ending::ends_after_win(cx)?;
                    }
                    if !cx.h.st.finished {
                        // play goes on from the seat after the last winner
                        let last = last_winner(cx, infos, *source);
                        return Ok(Out::Done(Val::Next(Some((cx.next_seat(last), "draw")))));
                    }
                    let w = cx.h.st.first_winners[0];
                    let first = cx.h.infos[w].clone().ok_or_else(|| not_ported("win", "a first winner without its win"))?;
                    cx.bind_win_values(&first, true)?;
                    return Ok(Out::Done(Val::Next(None)));
                }
                let info = infos[*i].clone();
                // (the effects and the action's event read the win's reading)
                let mut b = win_bound(&info);
                b.more.as_mut().expect("a win's bindings").keys.push(Key::Reading(Box::new(info.clone())));
                let eb = bound(cx.e.t, &b);
                let name = cx.e.o.rules.actions[info.action].name.clone();
                let p = cx.e.p;
                if let Some((effects, _)) = p.actions.get(&name) {
                    for x in cx.events(|r| r.run_effects(effects, &eb))? {
                        cx.events(|r| r.hooks_only(&x, &eb, None))?;
                    }
                }
                *at = 2;
                if let Some(c) = cx.win_event(&name, &mut b, None)? {
                    return Ok(Out::Call(c));
                }
            }
            2 => {
                let info = infos[*i].clone();
                if !cx.e.p.at_win.is_empty() {
                    cx.events(|r| r.reveals_at_win())?;
                }
                let w = info.seat;
                cx.h.infos[w] = Some(info.clone());
                cx.rescore(w, false)?;
                let mut wb = win_bound(&info);
                cx.merge_winner(&mut wb, w)?;
                let again = move |cx: &mut Cx, nb: &mut Bound| -> Res<()> {
                    cx.rescore(w, true)?;
                    cx.merge_winner(nb, w)
                };
                *at = 3;
                if let Some(c) = cx.win_event("win", &mut wb, Some(&again))? {
                    return Ok(Out::Call(c));
                }
            }
            _ => {
                // (`_record`: the winner's result, which the snapshot does not write)
                *i += 1;
                *at = 1;
            }
        }
    }
}
