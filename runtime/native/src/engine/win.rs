//! A win taken or claimed, natively (runtime/game/ending.py `_s_win`, `_bind_win_values`, `_rescore`;
//! winning.py `winner_binding`): the winners noted, each winner's action effects and event, the win's
//! final scoring between the `win` event's hooks and its payments, and what the hand's end binds of
//! the first win. Several winners on one tile are settled in turn. Not ported, each refusing the hand by
//! name: `table winners_leave` (play going on after a win), reveals `at win`, a task's factor (its
//! condition reads the win's reading), the decisions an event of a won hand opens.

use super::course::{not_ported, tile_v, Cx, ENGINE_OFFERED};
use super::events::{slot, Bind as EvBind};
use super::offers::Of;
use super::steps::{Out, Res, Step, Val};
use super::table::Table;
use crate::program::V;
use serde_json::{json, Value as J};

/// What runs between an event's hooks and its payments (a win's final scoring), its bindings updated.
type Between<'f> = &'f dyn Fn(&mut Cx, &mut EvBind) -> Res<()>;

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
}

fn seat_v(s: Option<usize>) -> V {
    s.map_or(V::None, |s| V::Seat(s as u16))
}

/// The win an offer stands for, as `_win_info` found it on the state as it is (the hand unchanged since).
pub fn win_of(cx: &Cx, o: &Of, discarder: Option<usize>, robbed: Option<usize>) -> Res<WinI> {
    let w = o.won.as_ref().ok_or_else(|| not_ported("win", "a win offered without its win"))?;
    let action = cx.e.o.rules.actions.iter().position(|a| a.name == w.action).ok_or_else(|| not_ported("win", "a win by an unknown action"))?;
    let mut concealed = cx.h.st.seats[w.seat].hand.clone();
    // a drawn tile (or the dealer's last dealt) is taken out of the hand (`_win_info` "drawn"); a claimed
    // one is beside it (a turned card's win, "revealed", is not taken natively: engine/turn_card.rs)
    if let (true, Some(k)) = (w.self_drawn, w.tile) {
        if let Some(i) = concealed.iter().position(|&x| x == k) {
            concealed.remove(i);
        }
    }
    let score = if w.score.1 == 1 { V::Int(w.score.0) } else { crate::program::rat(w.score.0 as i128, w.score.1 as i128).map_err(|_| not_ported("win", "a score past 64 bits"))? };
    Ok(WinI { seat: w.seat, tile: w.tile, self_drawn: w.self_drawn, concealed, discarder, robbed, action, score })
}

impl Cx<'_, '_> {
    /// `Game._task_factor`: 1 unless the hand's task is one of the rule set's (its condition reads the
    /// win's reading, not read natively yet: refused).
    pub(super) fn task_factor(&self) -> Res<V> {
        let st = &self.h.st;
        if !st.task.is_empty() && self.e.t.rules.tasks.contains(&st.task) {
            return Err(not_ported("win", "a task's factor, whose condition reads the win's reading"));
        }
        Ok(V::Int(1))
    }

    /// `Game.winner_binding(w)` as bindings' slots (`self_drawn` and `reading` are not game-scope slots:
    /// an expression reading them is refused at lowering).
    pub(super) fn winner_slots(&self, w: usize) -> Res<Vec<(usize, V)>> {
        let mut out = vec![(slot("winner"), V::Seat(w as u16))];
        if let Some(Some(i)) = self.h.infos.get(w) {
            out.push((slot("score"), i.score.clone()));
            out.push((slot("discarder"), seat_v(i.discarder)));
            out.push((slot("robbed"), seat_v(i.robbed)));
            out.push((slot("task_factor"), self.task_factor()?));
        }
        Ok(out)
    }

    /// `_bind_win_values`: what game rules read of the hand's first win once play is over.
    fn bind_win_values(&mut self, i: &WinI, scored: bool) -> Res<()> {
        let tf = if scored { Some(self.task_factor()?) } else { None };
        let base = &mut self.h.base;
        if !scored {
            base[slot("winner")] = V::Seat(i.seat as u16);
            base[slot("discarder")] = seat_v(i.discarder);
            base[slot("robbed")] = seat_v(i.robbed);
        }
        if let Some(tf) = tf {
            base[slot("score")] = i.score.clone();
            base[slot("task_factor")] = tf;
        }
        Ok(())
    }

    /// `_event` with a win's bindings: phases, hooks, payments (`between`: the hooks first, then `between`,
    /// then the payments), then its deferred payments; the decisions it would open are not ported.
    pub(super) fn win_event(&mut self, name: &str, b: &EvBind, between: Option<Between>) -> Res<()> {
        match between {
            None => self.events(|r| r.hooks_only(name, b, Some(false)))?,
            Some(f) => {
                self.events(|r| {
                    r.hooks(name, b)?;
                    r.leave();
                    Ok(())
                })?;
                let mut nb = b.clone();
                f(self, &mut nb)?;
                self.events(|r| r.pay(name, &nb, Some(false)))?;
            }
        }
        if !ENGINE_OFFERED.contains(&name) && self.opens_actions(name) {
            return Err(not_ported("event", "the decisions an event opens once the hand has a winner"));
        }
        if self.e.p.pay.on.contains_key(name) {
            self.events(|r| r.settle(name, b, Some(true)))?;
        }
        Ok(())
    }

    /// `_rescore`: the win scored again on the state as it is now; the reference notes an error where it
    /// no longer scores (the native hand stops there).
    fn rescore(&mut self, w: usize) -> Res<()> {
        let e = self.e;
        let Some(Some(i)) = self.h.infos.get(w).cloned() else { return Ok(()) };
        let forms = &e.o.rules.actions[i.action].win_forms;
        let wins = e.w.on(e.t, &self.h.st, e.hand);
        let got = wins.rescore(&self.h.st, i.seat, &i.concealed, i.tile, i.self_drawn, forms);
        if let Some(why) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({why})"));
        }
        match got {
            Ok(Some(score)) => {
                self.h.infos[w] = Some(WinI { score, ..i });
                Ok(())
            }
            _ => Err("the native hand stopped where the reference notes an error (scoring the win)".into()),
        }
    }
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
pub fn win_json(t: &Table, names: &[String], infos: &[WinI], i: usize) -> J {
    let ws: Vec<J> = infos
        .iter()
        .map(|w| {
            json!({"seat": w.seat, "tile": w.tile.map(|k| t.names[k].clone()), "self_drawn": w.self_drawn,
                   "action": names.get(w.action), "score": value_json(&w.score)})
        })
        .collect();
    json!({ "infos": ws, "source": J::Null, "i": i })
}

/// The bindings of one win's events (`_s_win`'s `b`): actor and winner, tile, discarder, robbed.
fn win_bind(cx: &Cx, i: &WinI) -> EvBind {
    let mut b = EvBind::new();
    b.set("actor", V::Seat(i.seat as u16));
    b.set("winner", V::Seat(i.seat as u16));
    b.set("tile", tile_v(cx.e.t, i.tile));
    b.set("discarder", seat_v(i.discarder));
    b.set("robbed", seat_v(i.robbed));
    b.one_win = true;
    b
}

/// `_s_win`: the wins of one tile, settled winner by winner; its value, the reference's None (the hand's
/// play is over).
pub fn win(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Win { at, infos, i } = f else { unreachable!() };
    loop {
        match *at {
            0 => {
                if cx.e.t.rules.table.winners_leave {
                    return Err(not_ported("win", "play going on after a win, `winners_leave`"));
                }
                let st = &mut cx.h.st;
                if st.winners.is_empty() {
                    st.first_winners = infos.iter().map(|x| x.seat).collect();
                    st.discarder = infos[0].discarder;
                    st.robbed = infos[0].robbed;
                }
                st.winners.extend(infos.iter().map(|x| x.seat));
                st.finished = true;
                let first = infos[0].clone();
                cx.bind_win_values(&first, false)?;
                *i = 0;
                *at = 1;
            }
            1 => {
                if *i >= infos.len() {
                    let w = cx.h.st.first_winners[0];
                    let first = cx.h.infos[w].clone().ok_or_else(|| not_ported("win", "a first winner without its win"))?;
                    cx.bind_win_values(&first, true)?;
                    return Ok(Out::Done(Val::Next(None)));
                }
                let info = infos[*i].clone();
                let b = win_bind(cx, &info);
                let name = cx.e.o.rules.actions[info.action].name.clone();
                let p = cx.e.p;
                if let Some((effects, _)) = p.actions.get(&name) {
                    for x in cx.events(|r| r.run_effects(effects, &b))? {
                        cx.events(|r| r.hooks_only(&x, &b, None))?;
                    }
                }
                *at = 2;
                cx.win_event(&name, &b, None)?;
            }
            2 => {
                let info = infos[*i].clone();
                if cx.e.t.rules.reveals.iter().any(|r| r.at == "win") {
                    return Err(not_ported("win", "a reveal at a win"));
                }
                let w = info.seat;
                cx.h.infos[w] = Some(info.clone());
                cx.rescore(w)?;
                let mut wb = win_bind(cx, &info);
                for (s, v) in cx.winner_slots(w)? {
                    wb.given[s] = Some(v);
                }
                let again = move |cx: &mut Cx, nb: &mut EvBind| -> Res<()> {
                    cx.rescore(w)?;
                    for (s, v) in cx.winner_slots(w)? {
                        nb.given[s] = Some(v);
                    }
                    Ok(())
                };
                *at = 3;
                cx.win_event("win", &wb, Some(&again))?;
            }
            _ => {
                // (`_record`: the winner's result, which the snapshot does not write)
                *i += 1;
                *at = 1;
            }
        }
    }
}
