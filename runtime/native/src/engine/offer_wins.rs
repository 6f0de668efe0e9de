//! The wins a seat is offered (runtime/game/offers.py `_win_moves`): each win action of the situation
//! the seat may take by `by` (or by `win_offer`), its winning tile by `win_tile`, the win itself asked of
//! the winning machinery (`WinQuestions::win`), its guard and restrictions with the win's score bound;
//! then the `instead_of` choices the wins offered open.

use super::offers::{refused, Act, Bind, Ctx, Moves, Mv, Of, Tiles, WinBrief, Why, NO_BIND, R};

impl Ctx<'_> {
    // ---- wins (`_win_moves`) ----

    /// `_win_moves`: the seat's wins in situation `ctx` (self | discard | added_kong | reveal | deal |
    /// opening), then the `instead_of` choices they open.
    pub fn win_moves(&self, c: usize, ctx: &str, tile: Option<usize>, actor: Option<usize>, bind: &Bind) -> R<Moves> {
        let mut tile = tile;
        let ctx_events: &[&str] = match ctx {
            "self" => &["turn", "draw"],
            "discard" => &["discard"],
            "added_kong" => &["added_kong"],
            "reveal" => &["reveal"],
            "deal" => &["deal"],
            "opening" => &["opening"],
            _ => return refused(&format!("wins in the situation `{ctx:.20}`")),
        };
        let tile_ok: &[&str] = match ctx {
            "self" => &["", "drawn"],
            "discard" | "added_kong" => &["", "claimed"],
            "reveal" => &["", "drawn", "claimed"],
            _ => &["", "last_dealt", "none", "best_wait"],
        };
        let mut out: Moves = Vec::new();
        for (i, a) in self.o.rules.actions.iter().enumerate() {
            if !a.wins {
                continue;
            }
            let offer = a.events.iter().any(|e| e == "win_offer");
            let opens = a.events.iter().any(|e| ctx_events.contains(&e.as_str()))
                || (matches!(ctx, "self" | "discard" | "added_kong") && offer);
            if !a.wins || !tile_ok.contains(&a.win_tile.as_str()) || !opens {
                continue;
            }
            let ok = if offer && !a.events.iter().any(|e| ctx_events.contains(&e.as_str())) {
                if ctx == "self" {
                    matches!(a.by.as_str(), "any" | "self")
                } else {
                    matches!(a.by.as_str(), "any" | "others")
                }
            } else {
                self.by_ok(&a.by, c, actor)
            };
            if !ok {
                continue;
            }
            let mut mode = if ctx == "reveal" {
                if Some(c) == actor {
                    "revealed"
                } else {
                    "claimed"
                }
            } else if !a.win_tile.is_empty() {
                a.win_tile.as_str()
            } else if ctx == "self" {
                "drawn"
            } else if ctx == "discard" || ctx == "added_kong" {
                "claimed"
            } else {
                "drawn"
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
