//! Game scope, lowered: the expressions game rules evaluate during play (guards, hooks' conditions,
//! restrictions, phase triggers, payment amounts and factors, effect values, `next_dealer`, `ends_when`,
//! reveals' conditions, tasks, fees, observations), as runtime/game/scope.py `GameEnv` and
//! runtime/game/values.py give them their names.
//!
//! The lowering is `program/`'s (one tree of enums, names resolved to slots) with the game's names
//! added through `GameNames`: the bindings of the moment (`actor`, `tile`, `payer`, … with
//! `GAME_DEFAULTS`' defaults) become `Node::Bound`, the values read from the state when evaluated
//! (`wall_left`, `turn`, `winners`, `table:NAME`, `context:NAME`, `reveal:NAME`, …) `Node::Game`, the
//! game functions `Node::GameCall`; a seat's fields are resolved by name once (a player state or phase,
//! else a computed field). Evaluation is engine/values.rs.
//!
//! What needs the win and wait machinery (a seat's `waits`/`group_waits`, `waits_without`,
//! `group_waits_without`, `best_score`/`best_fans`/`best_tile`, and the reading-scope names a payment
//! reads from the win it pays for) goes through `WinQuestions`, which the native game implements
//! (engine/winning.rs, in progress); an expression that needs a question the implementation given does
//! not answer is refused at lowering by name (`NotCovered`), so it is never evaluated to a different
//! value.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value as J;

use super::state::HandState;
use super::table::Table;
use crate::expr::Val;
use crate::program::{builtin, kind_fields, GameNames, Lowering, Node, Stop, V};
use crate::Error;

/// The bindings of the moment, by slot (runtime/game/scope.py `GAME_DEFAULTS`, in its order).
pub const BOUND: [&str; 12] = [
    "actor", "tile", "winner", "discarder", "robbed", "payer", "payee", "choice", "viewer", "owner", "score",
    "task_factor",
];
pub const B_TILE: usize = 1;
pub const B_PAYER: usize = 5;
pub const B_PAYEE: usize = 6;

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The slot of a binding of `scope::BOUND` by its name (a constant where the name is one).
pub const fn slot(name: &str) -> usize {
    let mut i = 0;
    while i < BOUND.len() {
        if same(BOUND[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("a binding of scope::BOUND")
}

// the slots named by position are the names' (checked when compiled)
const _: () = assert!(same(BOUND[B_TILE], "tile") && same(BOUND[B_PAYER], "payer") && same(BOUND[B_PAYEE], "payee"));

/// Each binding's value when the moment does not bind it.
pub fn bound_defaults() -> Vec<V> {
    bound_defaults_static().to_vec() // (read per evaluation: not worked out from the names each time)
}

/// Each binding's default by slot of `BOUND` (`score` 0, `task_factor` 1, the rest none): a constant, so
/// an evaluation's bindings start as a copy, not a clone of each value.
const DEFAULTS: [V; BOUND.len()] = [
    V::None, V::None, V::None, V::None, V::None, V::None, V::None, V::None, V::None, V::None, V::Int(0), V::Int(1),
];

/// `bound_defaults` as an array (no vector made: an evaluation borrows it, `values::Bound::Slice`).
pub fn bound_array() -> [V; BOUND.len()] {
    DEFAULTS
}

fn make_bound_defaults() -> Vec<V> {
    debug_assert_eq!((BOUND[10], BOUND[11]), ("score", "task_factor"));
    DEFAULTS.to_vec()
}

/// `bound_defaults`, made once, for what borrows them (a win's trial on a state read without the game).
pub fn bound_defaults_static() -> &'static [V] {
    static DEFAULTS: std::sync::OnceLock<Vec<V>> = std::sync::OnceLock::new();
    DEFAULTS.get_or_init(make_bound_defaults)
}

/// A value read from the game when evaluated (`GameEnv.__missing__` and `Game._base_env`).
#[derive(Debug)]
pub enum G {
    Dealer,
    Players,
    WallLeft,
    Turn,
    Round,
    LastDrawer,
    Won,
    Winners,
    FirstWinners,
    InPlay,
    TableVar(String),
    Context(String),
    Reveal(String),
    /// A reading-scope name read from the win of the moment (`GameScope::reading_names`, by position).
    Reading(usize),
}

/// A game function (`Game._base_env`'s `game-functions`).
#[derive(Clone, Copy, Debug)]
pub enum GF {
    VisibleCount,
    Next,
    After,
    Held,
    Ask(Question),
}

/// A seat field the seat does not hold itself (`Game.seat_field`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatField {
    Hand,
    Melds,
    Concealed,
    Dealer,
    Wilds,
    Balance,
    Discards,
    Ready,
    Seat,
    InPlay,
    Ask(Question),
    Unknown,
}

/// The questions of the win and wait machinery that game expressions ask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Question {
    Waits,             // a seat's field `waits`: the kinds its hand waits on
    GroupWaits,        // a seat's field `group_waits`: the same by the forms that split a hand into groups
    WaitsWithout,      // `waits_without(seat, tile)`
    GroupWaitsWithout, // `group_waits_without(seat, tile)`
    BestScore,         // `best_score(seat, self_drawn)`
    BestFans,          // `best_fans(seat, self_drawn)`
    BestTile,          // `best_tile(seat, self_drawn)`
    Reading,           // a reading-scope name (`form`, a pattern, a quantity) read from the win being paid
}

impl Question {
    pub fn name(self) -> &'static str {
        match self {
            Question::Waits => "the seat field `waits`",
            Question::GroupWaits => "the seat field `group_waits`",
            Question::WaitsWithout => "the function `waits_without`",
            Question::GroupWaitsWithout => "the function `group_waits_without`",
            Question::BestScore => "the function `best_score`",
            Question::BestFans => "the function `best_fans`",
            Question::BestTile => "the function `best_tile`",
            Question::Reading => "a reading of a win",
        }
    }
}

/// The win and wait questions of a seat, answered by the native game (engine/winning.rs implements
/// them). `covers` is asked at lowering: an expression asking a question not covered is refused there
/// (`NotCovered`). `ask` gets the question's arguments as the expression gives them (a seat, a tile, a
/// flag) and answers with the value the reference gives (tiles as `Game.tv` gives them), or stops
/// (`Stop::Bail`) where the reference would raise.
pub trait WinQuestions {
    fn covers(&self, q: Question) -> bool;
    fn ask(&self, st: &HandState, q: Question, args: &[V]) -> Result<V, Stop>;
    /// The length of a wait question's answer as far as `decided(found, left)` needs it: the kinds
    /// walked in `ask`'s order until the waits found so far and the kinds left to try decide the
    /// comparison read of it; a length that compares as the whole answer's does, or None where the
    /// implementation does not walk it so (the caller then asks `ask`). Never a different answer.
    fn ask_len(&self, _st: &HandState, _q: Question, _args: &[V], _decided: &dyn Fn(usize, usize) -> bool) -> Result<Option<usize>, Stop> {
        Ok(None)
    }
    /// What a refusal of `q` names (the question, and why where the implementation says).
    fn refusal(&self, q: Question) -> String {
        q.name().to_owned()
    }

    // ---- the legal moves (engine/offers.rs, step 6): the wins a seat is offered ----

    /// Whether `win` is answered; without it every decision that offers a win is refused by name.
    fn covers_wins(&self) -> bool {
        false
    }

    /// Why the last question asked could not be answered on this state (None: it was answered, or the
    /// implementation never declines); taking it clears it.
    fn take_declined(&self) -> Option<&'static str> {
        None
    }

    /// The kinds that are wildcards in a hand on `st` (`values::hand_wilds`), where these questions keep
    /// them for its context and reveal values (None: the caller works them out).
    fn hand_wild(&self, _st: &HandState) -> Option<&[bool]> {
        None
    }

    /// `Game._win_info(seat, mode, tile, forms, discarder, robbed)`: the win seat `seat` makes now, or
    /// None. `mode`: drawn | claimed | revealed | none | best_wait; `forms`: the winning forms it is
    /// limited to (none: any). `tried`: the action taking it, where its taking sets context values
    /// before the win is scored — the win is then offered as tried on a copy of the context
    /// (runtime/game/win_trial.py), which only the reference does: the native answer declines a hand
    /// that scores at all.
    #[allow(clippy::too_many_arguments)] // `_win_info`'s arguments, one for one
    fn win(
        &self,
        _st: &HandState,
        _seat: usize,
        _mode: &str,
        _tile: Option<usize>,
        _forms: &[String],
        _discarder: Option<usize>,
        _robbed: Option<usize>,
        _tried: Option<&str>,
    ) -> Result<Option<WinFound>, Stop> {
        Err(Stop::Bail)
    }
}

/// A win the winning machinery finds (`WinInfo`, what the legal moves read of it): the winning tile
/// (None: a win on the hand as it stands), the score, exact, and the reading of the win where it was
/// found natively (None: found elsewhere, so a guard reading it is not evaluated natively).
pub struct WinFound {
    pub tile: Option<usize>,
    pub score: (i64, i64),
    pub reading: Option<Arc<WinReading>>,
    /// The concealed tiles the win waits with when they are not the seat's hand as it stands (the dealer's
    /// hand without the tile it could give up, `win_tile best_wait`).
    pub concealed: Option<Vec<usize>>,
}

/// The reading of a win as game scope reads it (runtime/game/records.py `WinInfo.reading_env`): the value
/// of each reading-scope name the scope lowers (`GameScope::reading_names`, by position) on the reading
/// that counts, found by the pattern programs' evaluator, or why it is not found natively (a value
/// holding a group of the reading, a name the programs stop on).
#[derive(Clone)]
pub struct WinReading {
    pub values: Vec<Result<V, &'static str>>,
    /// The reading's groups a value holds: `V::Group(READING_GROUPS + i)` is the i-th.
    pub groups: Vec<crate::program::Group>,
}

/// The first group identity of a win's reading (a seat's melds are numbered below it: engine/values.rs).
pub const READING_GROUPS: u16 = 0xF000;

/// The reading of the win of the moment, as an evaluation has it.
#[derive(Clone, Copy)]
pub enum ReadingAt<'a> {
    /// None (the reference's environment has no reading: a reading-scope name raises there).
    Unbound,
    /// The win's reading, found natively.
    Given(&'a WinReading),
    /// The reference has one, which was not found natively (why): an expression reading it is declined.
    Unknown(&'static str),
}

impl<'a> ReadingAt<'a> {
    /// The reading a moment binds: none bound, the one found natively, or why it was not found.
    pub fn of(bound: &'a Option<Result<Arc<WinReading>, &'static str>>) -> ReadingAt<'a> {
        match bound {
            None => ReadingAt::Unbound,
            Some(Ok(r)) => ReadingAt::Given(r),
            Some(Err(why)) => ReadingAt::Unknown(why),
        }
    }
}

/// No question answered: what the port gives until engine/winning.rs lands.
pub struct NoWinQuestions;

impl WinQuestions for NoWinQuestions {
    fn covers(&self, _q: Question) -> bool {
        false
    }

    fn ask(&self, _st: &HandState, _q: Question, _args: &[V]) -> Result<V, Stop> {
        Err(Stop::Bail)
    }
}

fn refused(what: &str) -> Error {
    Error::NotCovered(format!("the native game scope does not evaluate {what} yet"))
}

/// The game's names, given to `program/`'s lowering.
struct Names<'q> {
    games: Vec<G>,
    reading: Vec<String>, // the reading-scope names read, by reference (`builtin:form`, `pattern:P`, …)
    calls: Vec<GF>,
    wins: &'q dyn WinQuestions,
    player_vars: &'q HashSet<String>,
}

impl Names<'_> {
    fn game(&mut self, g: G) -> Node {
        self.games.push(g);
        Node::Game(self.games.len() - 1)
    }

    /// A reading-scope name, read from the win of the moment where the win questions cover it.
    fn reading(&mut self, reference: &str) -> Result<Node, Error> {
        self.ask(Question::Reading)?;
        let j = match self.reading.iter().position(|r| r == reference) {
            Some(j) => j,
            None => {
                self.reading.push(reference.to_owned());
                self.reading.len() - 1
            }
        };
        Ok(self.game(G::Reading(j)))
    }

    fn ask(&self, q: Question) -> Result<(), Error> {
        if self.wins.covers(q) {
            Ok(())
        } else {
            Err(refused(&self.wins.refusal(q)))
        }
    }
}

impl GameNames for Names<'_> {
    fn name(&mut self, reference: &str) -> Option<Result<Node, Error>> {
        let (cat, rest) = reference.split_once(':').unwrap_or((reference, ""));
        Some(Ok(match cat {
            "builtin" => {
                if let Some(i) = BOUND.iter().position(|b| *b == rest) {
                    return Some(Ok(Node::Bound(i)));
                }
                let g = match rest {
                    "dealer" => G::Dealer,
                    "players" => G::Players,
                    "wall_left" => G::WallLeft,
                    "turn" => G::Turn,
                    "round" => G::Round,
                    "last_drawer" => G::LastDrawer,
                    "won" => G::Won,
                    "winners" => G::Winners,
                    "first_winners" => G::FirstWinners,
                    "in_play" => G::InPlay,
                    "table" => return Some(Err(refused("the table as a value (only its fields)"))),
                    _ if builtin(rest).is_some() => return Some(self.reading(reference)),
                    _ => return Some(Err(refused(&format!("the name `{rest:.40}`")))),
                };
                self.game(g)
            }
            "table" => self.game(G::TableVar(rest.to_owned())),
            "context" => self.game(G::Context(rest.to_owned())),
            "reveal" => self.game(G::Reveal(rest.to_owned())),
            // the reading of the win of the moment (a unit's value is known only inside the scoring)
            "pattern" | "quantity" => return Some(self.reading(reference)),
            "unit" => return Some(Err(refused("a unit of a win's reading"))),
            _ => return None, // settings, tiles, suits, meld kinds, binders: as in reading scope
        }))
    }

    fn attr(&mut self, obj: &J, name: &str) -> Option<Result<Node, Error>> {
        let is_table = obj.get("_").and_then(J::as_str) == Some("Name")
            && obj.get("ref").and_then(J::as_str) == Some("builtin:table");
        if is_table {
            return Some(Ok(self.game(G::TableVar(name.to_owned()))));
        }
        if !self.player_vars.contains(name) {
            if let SeatField::Ask(q) = computed_field(name) {
                if let Err(e) = self.ask(q) {
                    return Some(Err(e));
                }
            }
        }
        None
    }

    fn call(&mut self, func: &str, args: usize) -> Option<Result<usize, Error>> {
        let (f, want) = match func {
            "visible_count" => (GF::VisibleCount, 1),
            "next" => (GF::Next, 1),
            "after" => (GF::After, 2),
            "held" => (GF::Held, 2),
            "waits_without" => (GF::Ask(Question::WaitsWithout), 2),
            "group_waits_without" => (GF::Ask(Question::GroupWaitsWithout), 2),
            "best_score" => (GF::Ask(Question::BestScore), 2),
            "best_fans" => (GF::Ask(Question::BestFans), 2),
            "best_tile" => (GF::Ask(Question::BestTile), 2),
            _ => return None,
        };
        if let GF::Ask(q) = f {
            if let Err(e) = self.ask(q) {
                return Some(Err(e));
            }
        }
        if args != want {
            return Some(Err(refused(&format!("`{func}` with {args} arguments"))));
        }
        self.calls.push(f);
        Some(Ok(self.calls.len() - 1))
    }
}

/// `Game.seat_field`'s names.
pub fn computed_field(name: &str) -> SeatField {
    match name {
        "hand" => SeatField::Hand,
        "melds" => SeatField::Melds,
        "concealed" => SeatField::Concealed,
        "dealer" => SeatField::Dealer,
        "wilds" => SeatField::Wilds,
        "balance" => SeatField::Balance,
        "discards" => SeatField::Discards,
        "ready" => SeatField::Ready,
        "seat" => SeatField::Seat,
        "in_play" => SeatField::InPlay,
        "waits" => SeatField::Ask(Question::Waits),
        "group_waits" => SeatField::Ask(Question::GroupWaits),
        _ => SeatField::Unknown,
    }
}

/// The game-scope expressions of one rule set under one table, lowered, with what evaluating them reads.
pub struct GameScope {
    pub exprs: Vec<Result<Node, String>>, // per expression given: its tree, or why it is refused
    pub games: Vec<G>,
    /// By game value: where the state holds a table state, context value or reveal of that name once set
    /// up (engine/setup.rs's order; usize::MAX: no such declaration), looked at before any search.
    pub game_hints: Vec<usize>,
    pub calls: Vec<GF>,
    pub reading_names: Vec<String>, // the reading-scope names read from a win (`G::Reading`), by reference
    pub settings: Vec<Option<V>>, // by setting slot: its value under the table's options (None: unset)
    pub n_binders: usize,
    pub fields: Vec<Arc<str>>,         // by field id
    pub seat_fields: Vec<SeatField>,   // by field id: the computed seat field of that name
    pub var_hint: Vec<usize>,          // by field id: where a seat holds the state or phase of that name
    pub tile_fields: Vec<Vec<Option<V>>>, // per kind, per field id
    pub f_wild: usize,
    pub f_joker: usize,
    pub kind_joker: Vec<bool>,
    pub kind_rank: Vec<i64>,
    pub kind_suit: Vec<Option<Arc<str>>>,
}

/// A setting's value (`crate::expr::Val`, tiles by declared kind) as the evaluator holds it.
pub fn val_to_v(t: &Table, v: &Val) -> Option<V> {
    Some(match v {
        Val::None => V::None,
        Val::Bool(b) => V::Bool(*b),
        Val::Int(i) => V::Int(*i),
        Val::Str(s) => V::Str(Arc::from(s.as_str())),
        Val::Tile(d) => {
            let i = t.decl_to_cat[*d]?;
            V::Tile(((i as u32) << 2) | (t.cat.kinds[i].category == "joker") as u32)
        }
        Val::List(items) => V::List(Arc::new(items.iter().map(|x| val_to_v(t, x)).collect::<Option<Vec<_>>>()?)),
    })
}

impl GameScope {
    /// Lower `exprs` (each the JSON of one expression, as the IR writes it) for table `t`.
    pub fn new(t: &Table, exprs: &[J], wins: &dyn WinQuestions) -> GameScope {
        // a seat's states then its phases, in declaration order, as `Game._prepare` fills `Seat.vars`
        let order: Vec<&str> = t.rules.states.iter().filter(|s| s.scope == "player").map(|s| s.name.as_str())
            .chain(t.rules.phases.iter().filter(|p| p.scope == "player").map(|p| p.name.as_str()))
            .collect();
        let player_vars: HashSet<String> = order.iter().map(|s| s.to_string()).collect();
        let mut names = Names {
            games: Vec::new(),
            reading: Vec::new(),
            calls: Vec::new(),
            wins,
            player_vars: &player_vars,
        };
        let (lowered, settings, binders, fields) = {
            let mut lw = Lowering::new(&t.cat, Some(&mut names));
            let lowered: Vec<Result<Node, String>> = exprs
                .iter()
                .map(|e| {
                    lw.lower(e, 0).map_err(|e| match e {
                        Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
                    })
                })
                .collect();
            (lowered, lw.settings, lw.binders.len(), lw.fields)
        };
        let settings = settings.iter().map(|r| t.settings.get(r).and_then(|v| val_to_v(t, v))).collect();
        let context = || t.rules.settings.iter().filter(|s| s.role == "context");
        let game_hints = names
            .games
            .iter()
            .map(|g| match g {
                G::TableVar(n) => super::event_rules::hint_of(t, false, n),
                G::Context(n) => context().position(|s| &s.name == n),
                G::Reveal(n) => t.rules.reveals.iter().position(|r| &r.name == n),
                _ => None,
            }.unwrap_or(usize::MAX))
            .collect();
        GameScope {
            exprs: lowered,
            game_hints,
            games: names.games,
            calls: names.calls,
            reading_names: names.reading,
            settings,
            n_binders: binders,
            seat_fields: fields.iter().map(|f| computed_field(f)).collect(),
            var_hint: fields.iter().map(|f| order.iter().position(|v| v == f).unwrap_or(usize::MAX)).collect(),
            tile_fields: kind_fields(&t.cat, &fields),
            f_wild: fields.iter().position(|f| f == "wild").unwrap_or(usize::MAX),
            f_joker: fields.iter().position(|f| f == "joker").unwrap_or(usize::MAX),
            fields: fields.iter().map(|f| Arc::from(f.as_str())).collect(),
            kind_joker: t.cat.kinds.iter().map(|k| k.category == "joker").collect(),
            kind_rank: t.cat.kinds.iter().map(|k| k.rank).collect(),
            kind_suit: t.cat.kinds.iter().map(|k| k.suit.as_deref().map(Arc::from)).collect(),
        }
    }
}
