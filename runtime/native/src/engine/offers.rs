//! The legal moves at a decision (runtime/game/offers.py, and the assembly of each decision's options
//! in turn.py, claims.py and opening.py): discards under `restrict`, actions by `by`/`when`/
//! `instead_of`/choices/`choice_list`/`select`, meld options (`forms`, `grow`, upgrades, the
//! wildcards' `no_meld`/`no_action`), compulsory actions, the pass, wins and follow-ups — the moves in
//! the reference's order and form. Whether a seat wins on a tile comes through `WinQuestions::win`.
//!
//! The decision itself (whose turn, which window, what was taken already) is the continuation's data;
//! until the continuation is ported (step 4) it is given as plain data (`Decision`, read from JSON).
//! A guard the reference catches an error in stops the evaluation here (`Why::Stop`: the hand goes
//! back to the reference); an expression the lowering refuses refuses the decision by name.


use super::offer_melds::MeldOption;
use super::offer_rules::{ActionDef, OfferRules};
use super::scope::{bound_array, GameScope, ReadingAt, WinQuestions, WinReading};
use super::state::HandState;
use super::table::Table;
use super::values::{hand_wilds, Bound, Ev};
use std::sync::Arc;

use crate::program::{Node, V};
use crate::Error;

pub(super) const B_ACTOR: usize = 0;
const B_TILE: usize = 1;
const B_DISCARDER: usize = 3;
const B_ROBBED: usize = 4;
pub(super) const B_CHOICE: usize = 7;
const B_SCORE: usize = 10;

/// Why no moves came out: the reference raised where the native evaluation stopped, or a construct not
/// ported (the sentence names it).
#[derive(Debug)]
pub enum Why {
    Stop,
    Refused(String),
}

pub(super) type R<T> = Result<T, Why>;

pub(super) fn refused<T>(what: &str) -> R<T> {
    Err(Why::Refused(format!("the native legal moves do not take {what} yet")))
}

pub use super::moves::{Act, Mv, Tiles};

mod ready_guard; // an action's `when` of the actor's flags and a wait question's length, read directly
mod turn_moves; // the turn's moves: the discards, the pass, the own turn's actions, follow-ups

/// What a move stands for beside itself (`Offer`): its action (None for a discard or the pass), whether
/// it is compulsory, a meld or a win.
#[derive(Clone, Debug)]
pub struct Of {
    pub action: Option<usize>,
    pub compulsory: bool,
    pub meld: bool,
    pub win: bool,
    /// The meld it lays down (what the continuation writes of it, and what taking it applies); shared,
    /// so an offer is copied without its tiles.
    pub opt: Option<Arc<MeldOption>>,
    /// The win it stands for (the continuation writes it).
    pub won: Option<Box<WinBrief>>,
}

/// What the continuation writes of a win offered (`WinInfo`'s seat, tile, self-drawn, action, score).
#[derive(Clone, Debug, PartialEq)]
pub struct WinBrief {
    pub seat: usize,
    pub tile: Option<usize>,
    pub self_drawn: bool,
    pub action: String,
    pub score: (i64, i64),
    /// The concealed tiles it waits with when they are not the hand as it stands (`WinFound::concealed`).
    pub concealed: Option<Vec<usize>>,
}

pub(super) const NO_OFFER: Of = Of {
    action: None,
    compulsory: false,
    meld: false,
    win: false,
    opt: None,
    won: None,
};

pub(super) type Moves = Vec<(Mv, Of)>;

/// The barred kinds and the usable tiles without them (`Ctx::avail_less`).
pub(super) type AvailLess = (Vec<usize>, Vec<(usize, usize)>);

/// The legal moves' program for one rule set under one table: the rule records and their expressions.
pub struct Offers {
    pub rules: OfferRules,
    pub scope: GameScope,
    /// Per restriction (`rules.restricts`' order): its condition reads no tile, so one seat's answer
    /// holds for every tile of one decision (kept per `Ctx`).
    pub(super) tile_free: Vec<bool>,
    /// Per restriction whose condition is an `and` chain (`(A and B) and C` as parsed) whose leftmost
    /// operands up to some A read no tile: how many left steps lead from the condition to that A (0:
    /// none). A's truth is one seat's for every tile of one decision, and where it is false so is the
    /// whole condition.
    pub(super) tile_free_left: Vec<u8>,
    /// Per action, its meld forms' kinds by index into `rules.kinds` (`OfferRules::kind` of each form).
    pub(super) form_kinds: Vec<Vec<Option<usize>>>,
    /// Per event of `KNOWN_EVENTS`: the actions it opens, in file order (`actions_on`).
    opened: Vec<Vec<usize>>,
    /// Per action, the id its moves carry (`act`): the first action of its name, or the discard or pass.
    acts: Vec<Act>,
    /// Per wildcard of `rules.wilds`, the catalog index of the kind it names (None: a reveal's name).
    pub(super) wild_tiles: Vec<Option<usize>>,
    /// Per action, per meld form: the wildcards (by index into `rules.wilds`) barred from its melds of
    /// that kind (`_unusable`'s test, which reads only the rule set), most often none.
    pub(super) form_wilds: Vec<Vec<Vec<usize>>>,
    /// `form_wilds` as the kinds they stand for, where each names a kind (no reveal's): the same at
    /// every decision, so `unusable_form` lends them rather than making them for each form asked.
    pub(super) form_barred: Vec<Vec<Option<Vec<usize>>>>,
    /// The actions' names by index (what `Act::name` reads).
    pub names: Vec<String>,
    /// Per event of `KNOWN_EVENTS`: the actions of `opened` `_offerable` keeps (neither a description,
    /// a win nor an `instead_of`), worked out once rather than filtered at every decision.
    offerable_on: Vec<Vec<usize>>,
    /// `_own_turn_actions`: the offerable actions `turn` or `draw` open by self / any, turn's first.
    own_turn: Vec<usize>,
    /// The restrictions (by index into `rules.restricts`) on the discard, on the pass, and per action
    /// (by index): `_restricted` looks only at these, in declaration order, not at every restriction's
    /// names by text at every tile.
    pub(super) restricts_discard: Vec<usize>,
    pub(super) restricts_pass: Vec<usize>,
    pub(super) restricts_of: Vec<Vec<usize>>,
    /// Per situation wins are asked in, the win actions it may offer (engine/offer_wins.rs).
    pub(super) win_plans: Vec<Vec<super::offer_wins::WinPlan>>,

    /// `hand_wilds` where it reads nothing of the state (every wildcard of a hand names its kind, none a
    /// reveal's tile): per kind, whether it is wild in a hand.
    fixed_wild: Option<Vec<bool>>,
    /// Per expression (by index), for the actions' `when`s of that shape: the guard read without an
    /// evaluation (engine/offers/ready_guard.rs).
    ready_guards: Vec<Option<ready_guard::ReadyGuard>>,
}

/// `_unusable`'s test: the wildcards (by index into `rules.wilds`) barred from action a's melds of this
/// kind (a wildcard of the hand whose `no_meld` names the kind or whose `no_action` names the action).
pub(super) fn barred(rules: &OfferRules, a: &ActionDef, kind: &str) -> Vec<usize> {
    (0..rules.wilds.len())
        .filter(|&j| {
            let w = &rules.wilds[j];
            w.scope == "hand" && (w.no_meld.iter().any(|k| k == kind) || w.no_action.contains(&a.name))
        })
        .collect()
}

/// The events the legal moves ask of the actions most often, whose actions are listed once.
const KNOWN_EVENTS: [&str; 8] = ["turn", "draw", "discard", "added_kong", "reveal", "deal", "opening", "win_offer"];

/// `_offerable`'s test: an action `_action_moves` can offer (neither a description, a win nor an
/// `instead_of`).
fn offerable_def(a: &ActionDef) -> bool {
    !(a.description || a.wins || !a.instead_of.is_empty())
}

/// Whether an expression's tree reads the binding in `slot` (a compiled condition counts as reading it).
fn reads_bound(e: &Node, slot: usize) -> bool {
    match e {
        Node::Bound(x) => *x == slot,
        Node::Pred(_) => true,
        _ => crate::program::children(e).into_iter().any(|c| reads_bound(c, slot)),
    }
}

/// The left steps down an `and` chain to its first operand that reads no tile, the outermost such
/// (`tile_free_left`; 0 where none is found).
fn tile_free_depth(e: &Node) -> u8 {
    let mut node = e;
    let mut depth = 0u8;
    while let Node::And(l, _) = node {
        depth += 1;
        if !reads_bound(l, B_TILE) {
            return depth;
        }
        if depth == u8::MAX {
            break;
        }
        node = l;
    }
    0
}

impl Offers {
    pub fn new(t: &Table, ruleset_json: &str, wins: &dyn WinQuestions) -> Result<Offers, Error> {
        let mut rules = OfferRules::parse(ruleset_json)?;
        for k in &mut rules.kinds {
            let sh = &mut k.shape;
            sh.tile_kinds = sh.tiles.iter().map(|n| t.names.iter().position(|x| x == n)).collect();
        }
        let scope = GameScope::new(t, &rules.exprs, wins);
        let tile_free = rules
            .restricts
            .iter()
            .map(|(_, e)| matches!(scope.exprs.get(*e), Some(Ok(node)) if !reads_bound(node, B_TILE)))
            .collect();
        let form_kinds = rules
            .actions
            .iter()
            .map(|a| a.forms.iter().map(|f| rules.kinds.iter().position(|k| k.name == *f)).collect())
            .collect();
        let opened: Vec<Vec<usize>> = KNOWN_EVENTS
            .iter()
            .map(|ev| (0..rules.actions.len()).filter(|&i| rules.actions[i].events.iter().any(|e| e == ev)).collect())
            .collect();
        let tile_free_left = rules
            .restricts
            .iter()
            .map(|(_, e)| match scope.exprs.get(*e) {
                Some(Ok(node)) => tile_free_depth(node),
                _ => 0,
            })
            .collect();
        let names: Vec<String> = rules.actions.iter().map(|a| a.name.clone()).collect();
        if names.len() >= Act::UNKNOWN.0 as usize {
            return Err(Error::NotCovered("more actions than the native moves number".into()));
        }
        if names != t.rules.action_names {
            return Err(Error::Internal("the rule set's actions read twice differ".into()));
        }
        let acts = names.iter().map(|n| Act::named(&names, n)).collect();
        let wild_tiles: Vec<Option<usize>> = rules.wilds.iter().map(|w| t.names.iter().position(|n| *n == w.tiles)).collect();
        let form_wilds: Vec<Vec<Vec<usize>>> = rules
            .actions
            .iter()
            .map(|a| a.forms.iter().map(|kind| barred(&rules, a, kind)).collect())
            .collect();
        let form_barred = form_wilds
            .iter()
            .map(|fs| fs.iter().map(|ws| ws.iter().map(|&j| wild_tiles[j]).collect::<Option<Vec<usize>>>()).collect())
            .collect();
        let offerable_on: Vec<Vec<usize>> = opened
            .iter()
            .map(|o: &Vec<usize>| o.iter().copied().filter(|&i| offerable_def(&rules.actions[i])).collect())
            .collect();
        let mut own_turn: Vec<usize> = Vec::new();
        for ev in ["turn", "draw"] {
            let e = KNOWN_EVENTS.iter().position(|x| *x == ev).expect("a known event");
            for &i in &offerable_on[e] {
                if !own_turn.contains(&i) && matches!(rules.actions[i].by.as_str(), "self" | "any") {
                    own_turn.push(i);
                }
            }
        }
        let restricting = |name: &str| -> Vec<usize> {
            (0..rules.restricts.len()).filter(|&ri| rules.restricts[ri].0.iter().any(|n| n == name)).collect()
        };
        let restricts_discard = restricting("discard");
        let restricts_pass = restricting("pass");
        let restricts_of = names.iter().map(|n| restricting(n)).collect();
        let win_plans = super::offer_wins::win_plans(&rules, &scope);

        let fixed_wild = t.wild_decls.iter().all(|&(named, in_hand)| named.is_some() || !in_hand).then(|| {
            let mut w = vec![false; t.names.len()];
            for &(named, in_hand) in &t.wild_decls {
                if let (Some(k), true) = (named, in_hand) {
                    w[k] = true;
                }
            }
            w
        });
        let mut ready_guards: Vec<Option<ready_guard::ReadyGuard>> = (0..scope.exprs.len()).map(|_| None).collect();
        for a in &rules.actions {
            if let Some(e) = a.when {
                if let (Some(slot), Some(g)) = (ready_guards.get_mut(e), ready_guard::ready_guard(&scope, e)) {
                    *slot = Some(g);
                }
            }
        }
        Ok(Offers {
            rules,
            scope,
            tile_free,
            tile_free_left,
            form_kinds,
            opened,
            acts,
            wild_tiles,
            form_wilds,
            form_barred,
            names,
            offerable_on,
            own_turn,
            restricts_discard,
            restricts_pass,
            restricts_of,
            win_plans,
            fixed_wild,
            ready_guards,
        })
    }


    /// The id the moves of action `i` carry.
    pub fn act(&self, i: usize) -> Act {
        self.acts[i]
    }

    /// The refusals of the lowering: (the expression's index, its sentence).
    pub fn refusals(&self) -> Vec<&str> {
        self.scope
            .exprs
            .iter()
            .filter_map(|r| r.as_ref().err().map(String::as_str))
            .collect()
    }
}

/// The bindings of a decision beyond the actor and the tile: a claim's discarder, a robbed seat, a
/// win's score, and any other binding of the moment an event window passes on (by slot of `scope::BOUND`).
#[derive(Clone, Default)]
pub struct Bind {
    pub discarder: Option<usize>,
    pub robbed: Option<usize>,
    pub score: Option<(i64, i64)>,
    pub extra: Vec<(usize, V)>,
    /// `self_drawn` where the moment binds it (a win's guard, an event window passing it on).
    pub self_drawn: Option<bool>,
    /// The reading of the win of the moment: None where the reference has none; Err(why) where it has one
    /// not found natively (an expression reading it is then refused).
    pub reading: Option<Result<Arc<WinReading>, &'static str>>,
}

pub(super) const NO_BIND: &Bind = &Bind {
    discarder: None,
    robbed: None,
    score: None,
    extra: Vec::new(),
    self_drawn: None,
    reading: None,
};

/// One decision's work: the state, the wildcards of the moment, the win machinery.
pub struct Ctx<'a> {
    pub o: &'a Offers,
    pub t: &'a Table,
    pub st: &'a HandState,
    pub wins: &'a dyn WinQuestions,
    wild: std::borrow::Cow<'a, [bool]>,
    /// Each seat offered a win, with the tile of the offer (`_win_moves` raises `win_offer` for it): the
    /// native hand runs those events once the moves are worked out (engine/turn.rs).
    pub offered_wins: std::cell::RefCell<Vec<(usize, Option<usize>)>>,
    /// Per seat, its usable tiles kept for the decision (`Kept`): made on first use (most decisions
    /// ask no meld's candidates).
    kept: std::cell::OnceCell<Box<[Kept]>>,
    /// (restriction, seat) -> whether it holds, for a restriction whose condition reads no tile.
    pub(super) restrict_memo: std::cell::RefCell<Vec<(usize, usize, bool)>>,
    /// The first set of a form's barred wildcards asked that names a reveal, with the kinds they stand for
    /// now (`unusable_form`): the reveals read once a decision, not once a form and seat.
    pub(super) unusable_kept: std::cell::OnceCell<Option<super::offer_melds::KeptKinds<'a>>>,
}

/// One seat's usable concealed tiles, worked out once a decision (engine/offer_melds.rs `avail`).
#[derive(Default)]
pub(super) struct Kept {
    /// With no wildcard kind barred (`avail` with none unusable).
    pub(super) all: std::cell::OnceCell<Vec<(usize, usize)>>,
    /// The first set of barred kinds the seat is asked with while holding any of them, and the usable
    /// tiles without them (most rule sets bar one set of wildcards from all their melds).
    pub(super) less: std::cell::OnceCell<AvailLess>,
}

fn seat_v(s: Option<usize>) -> V {
    s.map_or(V::None, |x| V::Seat(x as u16))
}

impl<'a> Ctx<'a> {
    pub fn new(o: &'a Offers, t: &'a Table, st: &'a HandState, wins: &'a dyn WinQuestions) -> Ctx<'a> {
        Ctx {
            o,
            t,
            st,
            wins,
            // (a rule set whose wildcards are all named kinds: the same for every state, made once)
            wild: match &o.fixed_wild {
                Some(w) => std::borrow::Cow::Borrowed(w.as_slice()),
                None => std::borrow::Cow::Owned(hand_wilds(t, st)),
            },
            offered_wins: std::cell::RefCell::new(Vec::new()),
            kept: std::cell::OnceCell::new(),
            restrict_memo: std::cell::RefCell::new(Vec::new()),
            unusable_kept: std::cell::OnceCell::new(),
        }
    }

    /// Seat `seat`'s kept usable tiles (None: no such seat).
    pub(super) fn kept(&self, seat: usize) -> Option<&Kept> {
        self.kept.get_or_init(|| (0..self.st.seats.len()).map(|_| Kept::default()).collect()).get(seat)
    }

    pub(super) fn tile_v(&self, k: usize) -> V {
        V::Tile(((k as u32) << 2) | (self.t.cat.kinds[k].category == "joker") as u32)
    }

    /// The value of expression `i` with the actor, the tile of the moment (as `Game.tv` gives it), the
    /// decision's bindings and a choice bound.
    pub(super) fn eval(&self, i: usize, seat: usize, tile: Option<usize>, bind: &Bind, choice: Option<&V>) -> R<V> {
        if let Some(Err(why)) = self.o.scope.exprs.get(i) {
            return Err(Why::Refused(why.clone()));
        }
        self.eval_with(seat, tile, bind, choice, |ev| ev.expr(i))
    }

    pub(super) fn eval_with(&self, seat: usize, tile: Option<usize>, bind: &Bind, choice: Option<&V>, f: impl FnOnce(&mut Ev) -> Result<V, crate::program::Stop>) -> R<V> {
        let mut b = bound_array();
        for (slot, v) in &bind.extra {
            if let Some(x) = b.get_mut(*slot) {
                *x = v.clone();
            }
        }
        b[B_ACTOR] = V::Seat(seat as u16);
        b[B_TILE] = tile.map_or(V::None, |k| self.tile_v(k));
        if bind.discarder.is_some() || bind.extra.is_empty() {
            b[B_DISCARDER] = seat_v(bind.discarder);
        }
        if bind.robbed.is_some() || bind.extra.is_empty() {
            b[B_ROBBED] = seat_v(bind.robbed);
        }
        if let Some((n, d)) = bind.score {
            b[B_SCORE] = if d == 1 { V::Int(n) } else { V::Rat(n, d) };
        }
        if let Some(c) = choice {
            b[B_CHOICE] = c.clone();
        }
        let mut ev = Ev::on(&self.o.scope, self.t, self.st, &self.wild, self.wins, Bound::Slice(&b));
        ev.self_drawn = bind.self_drawn;
        ev.reading = ReadingAt::of(&bind.reading);
        let got = f(&mut ev);
        // a question not answered natively on this state (a win's reading, a wait the native trials
        // decline): refused, never another value
        let declined = self.wins.take_declined();
        if let Some(why) = ev.declined {
            return Err(Why::Refused(format!("a reading of a win ({why})")));
        }
        if let Some(why) = declined {
            return Err(Why::Refused(format!("a win or wait question declined natively ({why})")));
        }
        got.map_err(|_| Why::Stop)
    }

    /// `condition_holds`: no condition holds.
    pub(super) fn holds(
        &self,
        e: Option<usize>,
        seat: usize,
        tile: Option<usize>,
        bind: &Bind,
        choice: Option<&V>,
    ) -> R<bool> {
        match e {
            None => Ok(true),
            Some(i) => {
                if let Some(Some(g)) = self.o.ready_guards.get(i) {
                    if let Some(held) = self.ready_guarded(g, seat) {
                        return held;
                    }
                }
                Ok(self.eval(i, seat, tile, bind, choice)?.truthy())
            }
        }
    }

    pub(super) fn next_seat(&self, s: usize) -> usize {
        let n = self.t.n as i64;
        let step = |x: usize| ((x as i64 + self.t.step).rem_euclid(n)) as usize;
        let mut nxt = step(s);
        if self.t.rules.table.winners_leave {
            while self.st.winners.contains(&nxt) && nxt != s {
                nxt = step(nxt);
            }
        }
        nxt
    }

    pub fn in_play(&self, s: usize) -> bool {
        !(self.t.rules.table.winners_leave && self.st.winners.contains(&s))
    }

    /// `_by_ok`.
    pub fn by_ok(&self, word: &str, c: usize, actor: Option<usize>) -> bool {
        let st = self.st;
        match word {
            "self" => Some(c) == actor,
            "others" => actor.is_some_and(|a| a != c),
            "next" => actor.is_some_and(|a| c == self.next_seat(a)),
            "previous" => actor.is_some_and(|a| self.next_seat(c) == a),
            "any" => true,
            "winner" => st.winners.contains(&c),
            "loser" => !st.winners.is_empty() && !st.winners.contains(&c),
            "dealer" => c == st.dealer,
            "non_dealer" => c != st.dealer,
            _ => false,
        }
    }

    pub(super) fn action(&self, i: usize) -> &'a ActionDef {
        &self.o.rules.actions[i]
    }

    pub(super) fn index(&self, name: &str) -> Option<usize> {
        self.o.rules.actions.iter().position(|a| a.name == name)
    }

    /// The actions an event opens, in file order.
    pub fn actions_on(&self, event: &str) -> Vec<usize> {
        if let Some(e) = KNOWN_EVENTS.iter().position(|x| *x == event) {
            return self.o.opened[e].clone();
        }
        (0..self.o.rules.actions.len())
            .filter(|&i| self.action(i).events.iter().any(|e| e == event))
            .collect()
    }

    /// `_offerable`: those `_action_moves` can offer.
    pub fn offerable(&self, event: &str) -> std::borrow::Cow<'a, [usize]> {
        if let Some(e) = KNOWN_EVENTS.iter().position(|x| *x == event) {
            return std::borrow::Cow::Borrowed(&self.o.offerable_on[e]);
        }
        std::borrow::Cow::Owned(self.actions_on(event).into_iter().filter(|&i| offerable_def(self.action(i))).collect())
    }

    /// `_action_moves`: the moves of a non-win action for a seat.
    pub fn action_moves(
        &self,
        i: usize,
        seat: usize,
        tile: Option<usize>,
        required: Option<usize>,
        bind: &Bind,
    ) -> R<Moves> {
        let a = self.action(i);
        if a.description || a.wins || !a.instead_of.is_empty() {
            return Ok(Vec::new());
        }
        if !a.forms.is_empty() {
            return self.meld_moves(i, seat, required, bind);
        }
        if a.select > 0 {
            if self.restricted(&a.name, seat, tile)? {
                return Ok(Vec::new());
            }
            return self.select_moves(i, seat, tile, bind);
        }
        if !a.choices.is_empty() || a.choice_list.is_some() {
            let ms = self.plain_moves(i, seat, tile, bind)?;
            let mut out = Vec::new();
            for m in ms {
                if !self.restricted(&a.name, seat, tile)? {
                    out.push(m);
                }
            }
            return Ok(out);
        }
        if !self.holds(a.when, seat, tile, bind, None)? || self.restricted(&a.name, seat, tile)? {
            return Ok(Vec::new());
        }
        self.plain_moves(i, seat, tile, bind)
    }
}
