//! The hand's continuation as data (runtime/game/steps.py; the model: docs/engine.md, "Steps and the
//! continuation"): one variant per step record of the reference with its resumption point (`at`) and
//! its locals as typed fields, the driver that runs them until one asks a decision, and the
//! continuation written as `steps.continuation(game)` writes it (engine/continuation.rs: the same JSON,
//! so the two can be compared). The step functions are in engine/turn.rs; a step not ported stops the native hand with a
//! sentence naming it (`Refused`), never a different course.

use serde_json::Value as J;

pub use super::bound::{Bound, Key, More};
pub use super::continuation::{continuation, move_text};
use super::offers::{Act, Mv, Of};

/// A move with what it stands for (the reference's `(Move, Offer)` pairs).
pub type Offer = (Mv, Of);

/// Where the turn loop goes next (`L["nxt"]`): a seat and how its turn starts.
pub type Next = (usize, &'static str);

/// A decision the hand waits on (`Ask`): its kind, the seats asked with their moves, the event, the
/// actor and the tile.
#[derive(Clone, Debug)]
pub struct Ask {
    pub kind: &'static str,
    pub options: Vec<(usize, Vec<Mv>)>,
    pub event: String,
    pub actor: Option<usize>,
    pub tile: Option<usize>,
    /// The one seat's moves are the asking step's offered moves, in order, not yet copied into
    /// `options` (its list empty until `fill`): a simulated turn reads them where they are and answers
    /// with an index (`Val::Chosen`).
    pub own: bool,
}

impl Ask {
    /// The moves of `own` copied into `options` from the asking step (the top of `stack`), for a reader
    /// of the question as data.
    pub fn fill(&mut self, stack: &[Step]) {
        if std::mem::take(&mut self.own) {
            if let (Some(ms), Some((_, legal))) = (stack.last().and_then(Step::offered), self.options.first_mut()) {
                *legal = ms.iter().map(|(m, _)| m.clone()).collect();
            }
        }
    }
}

/// What one turn came to (`_s_play_turn`'s result).
#[derive(Clone, Debug)]
pub enum TurnEnd {
    Pass,
    Discarded(usize),
    Goto(Next),
    Over,
}

/// The value a step resumes with: the answers to its decision, or what the step it called returned.
#[derive(Clone, Debug)]
pub enum Val {
    None,
    Answers(Vec<(usize, Mv)>),
    Next(Option<Next>),
    Turn(TurnEnd),
    Then(String),                  // an action's `then` (`_s_take`)
    Picked(Vec<(usize, Offer)>),   // each claimant's answer with its offer (`_s_answers`)
    /// The seat's answer to an `own` question: the index of its move among the step's offered moves.
    Chosen(usize, usize),
}

/// An action taken at a decision asked together: its index, the seat, the choice's value and as the
/// continuation writes it.
#[derive(Clone, Debug)]
pub struct Taken {
    pub action: usize,
    pub seat: usize,
    pub choice: Option<(crate::program::V, J)>,
}

/// One step record (`Step`): which step, where in it, its locals.
#[derive(Clone, Debug)]
pub enum Step {
    /// `_s_hand`: the deal, the opening decisions, the turn loop.
    Hand {
        at: u8,
        opening: bool, // the locals of the hand's start (`ev`, `decided`, `order`, `i`) are held
        ev: usize, // (`decided`, shared with `start_decisions`, is the hand's: `Hand::decided`)
        order: Option<Vec<usize>>,
        i: usize,
        nxt: Option<Next>, // None: the hand's play ended in a claim window (won)
        turned: bool,
    },
    /// `_s_start_wins`: the wins an opening event offers to every seat at once, resolved like a claim
    /// window (its locals as `_window_ask`, `_window_answers` keep them).
    StartWins {
        at: u8,
        event: &'static str,
        offers: Option<Vec<(usize, Vec<Offer>)>>,
        answers: Option<Vec<(usize, Offer)>>,
        order: Vec<usize>,
        i: usize,
        claims: Option<Vec<(usize, Offer)>>,
    },
    /// `_s_together`: the decisions an opening event asks together (its `decided`: `Hand::decided`;
    /// `taken`: each taken action's name with its bindings, the actor and the choice).
    Together {
        at: u8,
        event: &'static str,
        offers: Option<Vec<(usize, Vec<Offer>)>>,
        answers: Option<Vec<(usize, Offer)>>,
        order: Vec<usize>,
        i: usize,
        taken: Option<Vec<Taken>>,
    },
    /// `_s_start_decisions`: one seat's decisions at an opening event (its `decided`: `Hand::decided[s]`).
    StartDecisions {
        at: u8,
        event: &'static str,
        s: usize,
        acts: Vec<usize>,
        taken: Vec<Mv>,
        melded: bool,
        moves: Option<Vec<Offer>>,
        chosen: Option<Offer>,
    },
    /// `_s_play_turn`: one seat's turn.
    PlayTurn {
        at: u8,
        s: usize,
        claimed: bool,
        allow_win: bool,
        taken: Vec<Mv>,
        moves: Option<Vec<Offer>>,
        chosen: Option<Offer>,
        then: Option<String>,
    },
    /// `_s_after_discard`: the discard's event, the discarder's own declarations, the claims.
    AfterDiscard { at: u8, s: usize, t: usize, tile: Option<usize>, own: Option<Vec<Offer>>, chosen: Option<Offer> },
    /// `_s_added_kong`: a meld grown by a tile on the own turn, which others may rob first.
    AddedKong { at: u8, s: usize, offer: Offer, bind: Option<Bound> },
    /// `_s_answers`: each claimant's answer in a window (compulsory ones taken unasked).
    Answers {
        at: u8,
        kind: &'static str,
        offers: Vec<(usize, Vec<Offer>)>,
        event: &'static str,
        s: usize,
        t: Option<usize>,
        answers: Option<Vec<(usize, Offer)>>,
    },
    /// `_s_window_resolve`: a claim window asked, declined, ranked, applied.
    WindowResolve {
        at: u8,
        kind: &'static str,
        event: &'static str,
        s: usize,
        t: usize,
        offers: Vec<(usize, Vec<Offer>)>,
        extra: Bound, // the discarder (and the robbed seat)
        answers: Option<Vec<(usize, Offer)>>,
        tile: Option<usize>,
        order: Vec<usize>,
        i: usize,
        claims: Option<Vec<(usize, Offer)>>,
    },
    /// `_s_claim`: a tile claimed into a meld.
    Claim { at: u8, c: usize, s: usize, offer: Offer, t: usize, turned: bool, bind: Option<Bound> },
    /// `_s_event`: an event whose opened decisions are asked (its window).
    /// `turn`: the winner whose turn it is, when the event is asked of each winner in turn.
    Event { at: u8, event: String, bind: Bound, turn: Option<usize> },
    /// `_s_window`: the decisions an event other than the engine's own opens.
    Window {
        at: u8,
        event: String,
        bind: Bound,
        others: bool, // false: only the `by winner` decisions (a later winner's turn)
        ai: Option<usize>,
        offers: Option<Vec<(usize, Vec<Offer>)>>,
        answers: Vec<(usize, Offer)>,
        order: Option<Vec<usize>>,
        i: usize,
        cb: Option<Bound>,
    },
    /// `_s_follow`: an action's follow-ups offered to the same seat, again while one is legal.
    Follow {
        at: u8,
        c: usize,
        action: String,
        t: Option<usize>,
        k: usize,
        moves: Option<Vec<Offer>>,
        chosen: Option<Offer>,
    },
    /// `_s_turn_card`: a drawn card turned over and offered, first to the drawer, then to every seat.
    TurnCard { at: u8, s: usize, t: Option<usize>, i: usize },
    /// `_s_tile_window`: a turned card offered to the seats with offers, resolved by priority.
    TileWindow {
        at: u8,
        kind: &'static str,
        event: &'static str,
        s: usize,
        t: usize,
        offers: Vec<(usize, Vec<Offer>)>,
        answers: Option<Vec<(usize, Offer)>>,
        order: Vec<usize>,
        i: usize,
        c: Option<usize>,
    },
    /// `_s_exhaust`: the wall has run out.
    Exhaust { at: u8 },
    /// `_s_hand_end`: the hand's end events and the next dealer (`bind`: the first winner's bindings as
    /// the continuation writes them, once made).
    HandEnd { at: u8, bind: Option<J> },
    /// `_s_win`: the wins of one tile, settled winner by winner.
    /// `source`: whose tile it was when no seat discarded it (a turned card's drawer).
    Win { at: u8, infos: Vec<super::win::WinI>, source: Option<usize>, i: usize },
    /// `_s_take`: an action applied (a meld from the hand, or a plain action), its events.
    Take { at: u8, s: usize, offer: Offer, bind: Bound },
    /// `_s_declines`: every action offered and not chosen is declined.
    Declines {
        moves: Vec<Offer>,
        chosen: Act,
        bind: Bound,
        i: usize,
        done: Vec<Act>,
    },
}

impl Step {
    pub fn name(&self) -> &'static str {
        match self {
            Step::Hand { .. } => "hand",
            Step::StartWins { .. } => "start_wins",
            Step::Together { .. } => "together",
            Step::StartDecisions { .. } => "start_decisions",
            Step::PlayTurn { .. } => "play_turn",
            Step::AfterDiscard { .. } => "after_discard",
            Step::AddedKong { .. } => "added_kong",
            Step::Answers { .. } => "answers",
            Step::WindowResolve { .. } => "window_resolve",
            Step::Claim { .. } => "claim",
            Step::Take { .. } => "take",
            Step::Exhaust { .. } => "exhaust",
            Step::TurnCard { .. } => "turn_card",
            Step::TileWindow { .. } => "tile_window",
            Step::Follow { .. } => "follow",
            Step::Event { .. } => "event",
            Step::Window { .. } => "window",
            Step::HandEnd { .. } => "hand_end",
            Step::Win { .. } => "win",
            Step::Declines { .. } => "declines",
        }
    }

    /// The moves an `own` question of this step offers (a turn's moves once made).
    pub fn offered(&self) -> Option<&[Offer]> {
        match self {
            Step::PlayTurn { moves: Some(ms), .. } => Some(ms),
            _ => None,
        }
    }

    pub fn hand() -> Step {
        Step::Hand {
            at: 0,
            opening: false,
            ev: 0,
            order: None,
            i: 0,
            nxt: None,
            turned: false,
        }
    }
}

/// What a step function returns: a step to call (pushed and run at once), its result (popped, the value
/// to the step below), or a decision to wait on.
#[allow(clippy::large_enum_variant)] // a step called is moved onto the stack at once: boxing it would only add an allocation
pub enum Out {
    Call(Step),
    Done(Val),
    Ask(Ask),
}

/// Why the native hand stopped: a construct not ported, or an evaluation the reference catches an error
/// in (the hand goes back to the reference); one sentence.
pub type Res<T> = Result<T, String>;

/// The driver (`steps.run`): the value goes to the top step, until a step asks (returned) or the stack
/// is empty (None: the hand is over).
pub fn run<C>(cx: &mut C, stack: &mut Vec<Step>, mut value: Val, step: impl Fn(&mut C, &mut Step, Val) -> Res<Out>) -> Res<Option<Ask>> {
    while let Some(top) = stack.last_mut() {
        // (matched in the result where it was returned: a step called is moved once, into the stack)
        match step(cx, top, value) {
            Ok(Out::Call(s)) => {
                stack.push(s);
                value = Val::None;
            }
            Ok(Out::Done(v)) => {
                stack.pop();
                value = v;
            }
            Ok(Out::Ask(a)) => return Ok(Some(a)),
            Err(why) => return Err(why),
        }
    }
    Ok(None)
}
