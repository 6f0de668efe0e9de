//! A decision the engine asks, as the continuation holds it (`Decision`), and the win a window reads
//! (`WindowWin`): read from the JSON of the reference's pending step (runtime/game/native_offers.py). The
//! options each decision offers are engine/offer_decisions.rs.

use serde_json::Value as J;

use super::offers::{Act, Bind, Mv};
use super::table;
use crate::program::V;
use crate::Error;

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
