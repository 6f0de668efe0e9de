//! The wins a seat is offered (runtime/game/offers.py `_win_moves`): each win action of the situation
//! the seat may take by `by` (or by `win_offer`), its winning tile by `win_tile`, the win itself asked of
//! the winning machinery (`WinQuestions::win`), its guard and restrictions with the win's score bound;
//! then the `instead_of` choices the wins offered open.

use super::offer_rules::OfferRules;
use super::offers::{refused, Act, Bind, Ctx, Moves, Mv, Of, Tiles, WinBrief, Why, B_ACTOR, NO_BIND, R};
use super::scope::{GameScope, G};
use crate::program::{children, Node};

/// The situations wins are asked in (`_win_moves`' `ctx`), by index into the plans (`win_plans`).
const SITUATIONS: [&str; 6] = ["self", "discard", "added_kong", "reveal", "deal", "opening"];

/// One win action a situation may offer: what of `_win_moves`' tests reads only the rule set, worked
/// out once (the situation's events, the action's `win_tile`, `win_offer`), not at every question.
pub struct WinPlan {
    i: usize,
    /// Opened only by `win_offer` in this situation: its `by` answered here (else `by_ok` is asked).
    by: Option<bool>,
    /// The mode the win is asked in; None: a reveal's, by whether the seat is the actor.
    mode: Option<String>,
    /// The action's guard reads nothing of the win (`reads_win`): it is asked before the win, and a
    /// guard that does not hold spares the win's question (its answer is then never read).
    when_first: bool,
}

/// Per situation of `SITUATIONS`, the win actions it may offer, in the actions' order.
pub fn win_plans(rules: &OfferRules, scope: &GameScope) -> Vec<Vec<WinPlan>> {
    SITUATIONS.iter().map(|&ctx| plans_in(rules, scope, ctx)).collect()
}

/// Whether a guard may read what the win found binds (its tile, score, reading, self-drawn, the
/// discarder or robbed seat): any binding but the actor, a reading-scope name, or what the game scope
/// does not evaluate or a compiled condition hides.
fn reads_win(e: &Node, games: &[G]) -> bool {
    match e {
        Node::Bound(x) => *x != B_ACTOR,
        Node::Game(g) => games.get(*g).is_none_or(|g| matches!(g, G::Reading(_))),
        Node::Pred(_) | Node::Builtin(_) | Node::Pattern(_) | Node::Quantity(_) | Node::Unit(_) => true,
        _ => children(e).into_iter().any(|c| reads_win(c, games)),
    }
}

fn plans_in(rules: &OfferRules, scope: &GameScope, ctx: &str) -> Vec<WinPlan> {
    let ctx_events: &[&str] = match ctx {
        "self" => &["turn", "draw"],
        "discard" => &["discard"],
        "added_kong" => &["added_kong"],
        "reveal" => &["reveal"],
        "deal" => &["deal"],
        _ => &["opening"],
    };
    let tile_ok: &[&str] = match ctx {
        "self" => &["", "drawn"],
        "discard" | "added_kong" => &["", "claimed"],
        "reveal" => &["", "drawn", "claimed"],
        _ => &["", "last_dealt", "none", "best_wait"],
    };
    let mut out = Vec::new();
    for (i, a) in rules.actions.iter().enumerate() {
        if !a.wins {
            continue;
        }
        let offer = a.events.iter().any(|e| e == "win_offer");
        let on = a.events.iter().any(|e| ctx_events.contains(&e.as_str()));
        let opens = on || (matches!(ctx, "self" | "discard" | "added_kong") && offer);
        if !tile_ok.contains(&a.win_tile.as_str()) || !opens {
            continue;
        }
        let by = if offer && !on {
            Some(if ctx == "self" { matches!(a.by.as_str(), "any" | "self") } else { matches!(a.by.as_str(), "any" | "others") })
        } else {
            None
        };
        if by == Some(false) {
            continue;
        }
        let mode = if ctx == "reveal" {
            None
        } else if !a.win_tile.is_empty() {
            Some(a.win_tile.clone())
        } else if ctx == "self" {
            Some("drawn".to_owned())
        } else if ctx == "discard" || ctx == "added_kong" {
            Some("claimed".to_owned())
        } else {
            Some("drawn".to_owned())
        };
        let when_first = a.when.is_some_and(|e| matches!(scope.exprs.get(e), Some(Ok(node)) if !reads_win(node, &scope.games)));
        out.push(WinPlan { i, by, mode, when_first });
    }
    out
}

impl Ctx<'_> {
    // ---- wins (`_win_moves`) ----

    /// `_win_moves`: the seat's wins in situation `ctx` (self | discard | added_kong | reveal | deal |
    /// opening), then the `instead_of` choices they open.
    pub fn win_moves(&self, c: usize, ctx: &str, tile: Option<usize>, actor: Option<usize>, bind: &Bind) -> R<Moves> {
        let mut tile = tile;
        let Some(at) = SITUATIONS.iter().position(|x| *x == ctx) else {
            return refused(&format!("wins in the situation `{ctx:.20}`"));
        };
        let mut out: Moves = Vec::new();
        for p in &self.o.win_plans[at] {
            let (i, a) = (p.i, &self.o.rules.actions[p.i]);
            if p.by.is_none() && !self.by_ok(&a.by, c, actor) {
                continue;
            }
            let mut mode = match &p.mode {
                Some(m) => m.as_str(),
                None if Some(c) == actor => "revealed",
                None => "claimed",
            };
            if mode == "last_dealt" {
                mode = "drawn";
                let seat = &self.st.seats[c];
                tile = match self.st.last_dealt {
                    Some(k) if c == self.st.dealer && seat.hand.contains(&k) => Some(k),
                    _ => None,
                };
                if tile.is_none() {
                    continue;
                }
            }
            if !self.wins.covers_wins() {
                return refused("a win (the winning machinery answers it)");
            }
            // a guard that reads nothing of the win and does not hold: the win is not offered, whatever
            // it is (`holds` below gives the same answer); one the guard cannot answer is asked as before
            if p.when_first && matches!(self.holds(a.when, c, tile, NO_BIND, None), Ok(false)) {
                continue;
            }
            let found = self
                .wins
                .win(self.st, c, mode, tile, &a.win_forms, bind.discarder, bind.robbed, a.trial.then_some(a.name.as_str()))
                .map_err(|_| Why::Stop)?;
            let Some(w) = found else { continue };
            // `WinInfo.self_drawn` of each mode, and the win's reading (`WinInfo.reading_env`)
            let b = &Bind {
                discarder: bind.discarder,
                robbed: bind.robbed,
                score: Some(w.score),
                extra: Vec::new(),
                self_drawn: Some(matches!(mode, "drawn" | "revealed")),
                reading: Some(w.reading.clone().ok_or("a win found by the reference")),
            };
            if !self.holds(a.when, c, w.tile, b, None)? || self.restricted_in(&a.name, c, w.tile, b)? {
                continue;
            }
            out.push((
                Mv::plain(self.o.act(i), w.tile.map_or_else(Tiles::new, Tiles::one)),
                Of {
                    action: Some(i),
                    compulsory: a.compulsory,
                    meld: false,
                    win: true,
                    won: Some(Box::new(WinBrief {
                        seat: c,
                        tile: w.tile,
                        self_drawn: matches!(mode, "drawn" | "revealed"),
                        action: a.name.clone(),
                        score: w.score,
                        concealed: w.concealed.clone(),
                    })),
                    opt: None,
                },
            ));
        }
        if !out.is_empty() {
            if self.o.rules.hooked_events.iter().any(|e| e == "win_offer") {
                return refused("hooks on `win_offer`");
            }
            self.offered_wins.borrow_mut().push((c, tile));
            let offered: Vec<Act> = out.iter().map(|(m, _)| m.action).collect();
            for (i, a) in self.o.rules.actions.iter().enumerate() {
                if a.instead_of.is_empty() || !offered.contains(&Act::named(&self.o.names, &a.instead_of)) {
                    continue;
                }
                let by = if a.events.iter().any(|e| e == "win_offer") {
                    if ctx == "self" {
                        matches!(a.by.as_str(), "any" | "self")
                    } else {
                        matches!(a.by.as_str(), "any" | "others" | "self")
                    }
                } else {
                    self.by_ok(&a.by, c, actor)
                };
                if by && self.holds(a.when, c, tile, NO_BIND, None)? && !self.restricted(&a.name, c, tile)? {
                    if !a.choices.is_empty() || a.choice_list.is_some() || a.select > 0 {
                        // the reference binds the tile without its `wild` there
                        return refused("choices of an `instead_of` action");
                    }
                    out.push((
                        Mv::plain(self.o.act(i), Vec::new()),
                        Of {
                            action: Some(i),
                            compulsory: a.compulsory,
                            meld: false,
                            win: false,
                            opt: None,
                            won: None,
                        },
                    ));
                }
            }
        }
        Ok(out)
    }
}
