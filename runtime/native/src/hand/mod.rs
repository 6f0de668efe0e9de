//! Whole hands scored in one native call: the readings of a hand enumerated here (readings.rs, the port
//! of runtime/hand_readings.py `_readings_natural`; wild.rs, of `_readings_wild` for a hand holding
//! wildcards or stand-ins in play; in the reference's order and charged to the same work), each scored and the one that counts chosen (score/choose.rs `Scorer::choose_with`), and what
//! the result needs handed back (`HandOutcome`; its JSON form in json.rs). The Python side
//! (runtime/nativehand.py) builds the result object of the chosen reading only.
//!
//! `score_hand` is a plain function (no Python type inside) so that a loop in Rust may call it per hand;
//! binding.rs is its thin Python wrapper. The waits a pattern reads come from a `Waits` (binding.rs
//! gives the native wait trials, src/waits/hand.rs, backed by a Python callback): the scoring asks for
//! them once, when a program first reads them.
//!
//! Anything outside what is ported — a value that cannot be handed over, a program stopping on a value
//! (`Stop::Bail`), a hand the block tables do not take — is `Fallback`, and the caller scores the hand
//! with the reference path: the native result is only ever the reference's.

use std::sync::Arc;

use crate::program::{Program, Reading, Stop, V};
use crate::score::{Scored, Scorer};

pub(crate) mod binding;
mod json;
pub(crate) mod lane_hand;
mod listed;
mod readings;
pub(crate) mod trial;
mod wild;

pub use wild::BY_SIGNATURE;

/// A winning form as the readings test it (runtime/ir `WinForm`), in the rule set's order.
pub struct FormSpec {
    pub name: Arc<str>,
    pub groups: Option<i64>,
    pub melds: Option<i64>,
    pub pairs: Option<(i64, i64)>,
    pub tiles: Option<i64>,
    pub concealed: bool,
    pub orphans: Option<Vec<usize>>, // the kinds holding the form's `orphans` attribute
    pub instant: bool,
    pub standins: bool, // whether stand-in tiles play as what they stand in for under this form
    /// The fewest wildcards the hand must hold for the `instant` condition to hold (runtime/ir/wilds.py
    /// `wilds_needed`; 0: it says nothing of them), for the game's exact shortcuts.
    pub instant_wilds: usize,
}

impl FormSpec {
    /// Whether a hand of `tiles` tiles in all (concealed and laid down; `exposed`: one of its melds is
    /// exposed) may win by this form before its groups are looked at: its tile count is the form's, or a
    /// whole hand's and one more (`table_hand + 1`), and a concealed form has no exposed meld.
    pub fn fits(&self, tiles: i64, table_hand: i64, exposed: bool) -> bool {
        !(self.concealed && exposed) && self.tiles.is_none_or(|t| tiles == t || tiles == table_hand + 1)
    }
}

/// A group of natural tiles the block tables' splits name (`Tables::split_groups`, by position): its
/// meld kind, tiles and value, and the prefilter's vector of each of its variants (not holding the
/// winning tile; holding it, concealed; holding it, not concealed), None where it has none.
pub struct SplitGroup {
    pub kind: Arc<str>,
    pub kinds: Vec<usize>,
    pub tiles: Arc<Vec<V>>,
    pub pair: bool,
    pub kong: bool,
    pub value: Option<V>, // None: a value the programs do not hold
    pub vectors: [Option<Vec<u64>>; 3],
}

/// What does not change from hand to hand under one rule set and catalog (given once by the Python
/// side, from its own objects, so every name and number is the reference's).
pub struct Setup {
    pub kind_names: Vec<String>,
    pub kind_codes: Vec<String>, // the notation's code of each kind
    pub tile_codes: Vec<u32>,    // a natural tile's code (kind << 2 | physical joker)
    pub forms: Vec<FormSpec>,
    pub meld_sizes: Vec<usize>,
    pub pair_sizes: Vec<usize>,
    pub table_hand: i64,
    pub split_groups: Vec<SplitGroup>,
    pub prefilter: bool, // whether the rule set's patterns have prefilter tests
    pub reasons: Vec<String>, // why a reading fails each requirement
    pub limit_sentence: String,
    pub reading_work: i64,
    pub split_limit: usize,
    pub pattern_names: Vec<String>,
    pub tally_names: Vec<String>, // the tally's pattern names (its trace names them)
    pub labels: Vec<Option<String>>, // None: a label with expressions
    pub label_texts: Vec<Option<Vec<String>>>, // a label with expressions: the text around them
    pub units: Vec<String>,          // each pattern's unit
    pub combine_names: Vec<String>,
    pub unit_order: Vec<String>,
    pub quantity_names: Vec<String>,
    /// Per meld kind: whether it is a pair, whether a kong (the groups of hands holding wildcards).
    pub meld_kinds: std::collections::HashMap<String, (bool, bool)>,
    /// Each kind's name and code as a JSON string (quotes and escapes included): the result's JSON
    /// lists them for every group and the concealed tiles, so they are written once here.
    pub json_names: Vec<Box<[u8]>>,
    pub json_codes: Vec<Box<[u8]>>,
    /// The same of the names each scored fan writes (its label where it has no expressions, its
    /// pattern's name and unit; the tally's names the trace's exclusions write): made once here, not
    /// escaped again for every hand.
    pub json_labels: Vec<Option<Box<[u8]>>>,
    pub json_patterns: Vec<Box<[u8]>>,
    pub json_units: Vec<Box<[u8]>>,
    pub json_tally: Vec<Box<[u8]>>,
}

/// Each text as `json.dumps(ensure_ascii=False)` writes it.
pub fn json_texts(xs: &[String]) -> Vec<Box<[u8]>> {
    xs.iter().map(|x| json_text(x)).collect()
}

/// A text as `json.dumps(ensure_ascii=False)` writes it.
pub fn json_text(x: &str) -> Box<[u8]> {
    let mut b = Vec::with_capacity(x.len() + 2);
    crate::batch::json::write_text(&mut b, x);
    b.into_boxed_slice()
}

/// A meld laid down before the win, as a group of the readings.
#[derive(Clone)]
pub struct MeldIn {
    pub kind: Arc<str>,
    pub tiles: Vec<usize>, // kind indexes, as given
    pub exposed: bool,
    pub pair: bool,
    pub kong: bool,
    pub value: Option<V>, // None: a value the programs do not hold
    pub vector: Option<Vec<u64>>,
}

/// One hand to score. A loop in Rust builds it as runtime/nativehand.py `NativeHands.call` does: the
/// kinds by catalog index; each meld as `Hands::known_meld` gives it (a meld the Python side has not
/// encoded yet sends the hand to Python, which then encodes it); the settings in the order of
/// `Scorer.settings()`, each the value of that reference in the hand's environment (`Rules.settings_env`
/// of its context) or `None` where it has none; `forms` every position of `Setup::forms` in order for a
/// rule set that wins by all its forms; and for a rule set with wildcards or stand-ins, `charge_splits`
/// (and `wild` where the hand holds some in play).
pub struct HandInput {
    pub concealed: Vec<usize>, // kind indexes, without the winning tile
    pub melds: Vec<MeldIn>,
    pub win: Option<usize>,
    pub self_drawn: bool,
    pub settings: Vec<Option<V>>, // as `NativeScorer.hand_state` encodes them
    pub flowers: Vec<V>,          // tile codes
    pub forms: Vec<usize>,        // the forms the rules win by, positions in `Setup::forms`, in order
    /// Splits are charged to the work too, one unit each, and at most the work left are read (the
    /// reference's reading of a rule set with wildcards or stand-ins, for a hand holding none in play).
    pub charge_splits: bool,
    /// A hand holding wildcards or stand-ins in play: its tiles as the reference classifies them (the
    /// readings are then src/hand/wild.rs's, which charges splits as `charge_splits` does).
    pub wild: Option<WildIn>,
}

/// The concealed tiles of a hand (winning tile included) as runtime/hand_readings.py `classify` gives
/// them: the natural tiles (the kind each plays as, its physical kind, whether it is the winning
/// tile) and the wildcards (physical kind, whether it is the winning tile), each list in the hand's
/// order.
#[derive(Clone, Default)]
pub struct Classified {
    pub naturals: Vec<(usize, usize, bool)>,
    pub wilds: Vec<(usize, bool)>,
}

/// A hand's tiles classified without stand-ins (for a form with `standins false`) and with them.
pub struct WildIn {
    pub classes: [Classified; 2],
    /// The fewest wildcards (of one kind) the reference reads by signature (hand_readings.py
    /// `SIGNATURE_FROM`, read when the hand is handed over).
    pub signature_from: usize,
}

/// A group formed by a reading of a hand holding wildcards or stand-ins: its meld kind, its tiles
/// (kind played, physical kind, wildcard, winning tile), whether it is concealed, and whether the
/// reference shares it across readings (a group of a signature reading: `signature_group`).
pub type Built = (Arc<str>, Vec<(usize, usize, bool, bool)>, bool, bool);

/// A group of a split: its meld kind and its slots (kind, wildcard).
pub type Item = (Arc<str>, Vec<(usize, bool)>);

/// What the reference's signature search (runtime/hand_readings.py `signature_found`) gives for one
/// form and (melds, pairs) of a hand holding two or more wildcards of one kind (`Waits::signatures`).
pub enum Signatures {
    /// One split per signature, in the reference's order, with the group holding the winning tile.
    Found(Vec<(Vec<Item>, Option<usize>)>),
    /// Full enumeration decides (the reference's `None`).
    Enumerate,
    /// The hand is refused (the sentence).
    Refused(String),
}

/// What the Python side is asked of a group only it evaluates (`Waits::group`).
pub struct GroupAsk<'a> {
    pub kind: &'a str,
    pub tiles: &'a [(usize, usize, bool, bool)],
    pub codes: Vec<u32>,
    pub concealed: bool,
    pub has_win: bool,
}

/// The work a hand may still use (runtime/limits.py HAND_WORK), shared with the waits it asks for.
pub struct Budget {
    pub work: i64,
}

/// The Python side scores this hand (the reason, for the record).
#[derive(Debug)]
pub struct Fallback(pub String);

fn fallback(why: &str) -> Fallback {
    Fallback(why.to_owned())
}

/// Where the waits a pattern reads come from.
pub trait Waits {
    /// `waits` (or with `shape`, `shape_waits`) of the hand, as a list of tile codes.
    fn waits(&mut self, shape: bool, budget: &mut Budget) -> Result<V, Fallback>;

    /// `waits`, asked while the hand's own readings `own` are scored (every reading `enumerate` found,
    /// in the reference's order): a source that tries the hand with each kind as its winning tile may
    /// take them as the trial of the hand's own winning kind, which would find the same readings
    /// again. By default they are not read.
    fn waits_beside(&mut self, shape: bool, budget: &mut Budget, _own: &[Reading]) -> Result<V, Fallback> {
        self.waits(shape, budget)
    }

    /// The value and prefilter vector (None: no vector) of a group holding wildcards or stand-ins,
    /// which the rule set's Python side computes (runtime/nativehand.py); by default the hand goes back.
    fn group(&mut self, _g: &GroupAsk) -> Result<(V, Option<Vec<u64>>), Fallback> {
        Err(fallback("a group holding wildcards or stand-ins, whose value only the Python side computes"))
    }

    /// The signature splits of one form (a position in `Setup::forms`) and (melds, pairs), found by the
    /// rule set's Python observers from the work left (which they spend); by default the hand goes back.
    fn signatures(&mut self, _form: usize, _melds: usize, _pairs: usize, _budget: &mut Budget) -> Result<Signatures, Fallback> {
        Err(fallback(wild::BY_SIGNATURE))
    }
}

/// A group of the chosen reading: a laid-down meld (its position), or a group of natural tiles (its
/// split group, the slot of the winning tile or -1, concealed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GroupRef {
    Declared(usize),
    Split { id: u32, win_pos: i32, concealed: bool },
    /// A group of a hand holding wildcards or stand-ins (its position in `Chosen::built`).
    Built(u32),
}

/// The reading that counts.
pub struct Chosen {
    pub form: usize,             // position in `Setup::forms`
    pub groups: Vec<GroupRef>,   // declared melds first
    pub listed: bool,            // an instant or orphans reading: its tiles are listed, not its groups
    pub hand: Vec<usize>,        // the concealed tiles it reads (kinds), winning tile included
    pub win_tile: Option<usize>, // kind
    pub describe: String,        // Python `Reading.describe`
    pub views: Vec<GroupView>,   // its groups as the result shows them
    pub built: Vec<Built>,       // the groups `GroupRef::Built` names
}

/// A group of the chosen reading as the result shows it.
pub struct GroupView {
    pub kind: Arc<str>,
    pub tiles: Arc<Vec<V>>, // the reading's own tiles (shared, not copied): kind `code >> 2`, a wildcard plays it where `code & 2`
    pub declared: bool,
    pub exposed: bool,
    pub has_win: bool,
}

pub struct ScoredHand {
    pub win: bool,
    pub considered: usize,
    pub rejected: Vec<String>, // "reading: reason", every reading failing a requirement, in order
    pub reading: Chosen,
    pub scored: Scored,
    pub quantities: Option<Vec<V>>,
    pub labels: Vec<Option<String>>, // per fan: its label where it has expressions and they were computed
}

/// What scoring a hand gives.
pub enum HandOutcome {
    Scored(Box<ScoredHand>),
    /// Readings of some form fit the hand's size, but none forms.
    NoReading,
    /// The hand is refused: one sentence (the Python side raises it as a HandError).
    Refused(String),
}

/// The rule set's programs and the structural tables of its catalog.
pub struct HandCtx<'a> {
    pub setup: &'a Setup,
    pub scorer: &'a Scorer,
    pub program: &'a Program,
    pub tables: &'a crate::Tables,
}

/// One hand, from its tiles to the reading that counts.
pub fn score_hand(ctx: &HandCtx, input: &HandInput, budget: &mut Budget, waits: &mut dyn Waits) -> Result<HandOutcome, Fallback> {
    Ok(score_hand_reading(ctx, input, budget, waits, &[], false)?.0)
}

/// `score_hand`, and the value of each of `names` (nodes of `ctx.program`: a builtin, a pattern's raw
/// count, a quantity) on the reading that counts, as runtime/scoring.py `LazyEnv` gives them to a game
/// expression reading the win (`WinInfo.reading_env`): Err where the programs stop (the reference
/// evaluates it). Empty where no reading counts. A group of the reading inside a value is
/// `V::Group(i)`, i its position among the reading's groups, also given (`ReadingValues`).
///
/// `lean`: the caller reads only whether the hand wins and, where it wins, its score, best and
/// `names` (a win question, `Scorer::choose_with`'s `lean`): the refused readings' reasons, the chosen
/// reading's groups, quantities and labels are left out (empty), and so is all but `win` of a hand
/// that does not win.
pub fn score_hand_reading(
    ctx: &HandCtx,
    input: &HandInput,
    budget: &mut Budget,
    waits: &mut dyn Waits,
    names: &[crate::program::Node],
    lean: bool,
) -> Result<(HandOutcome, ReadingValues), Fallback> {
    let sc = ctx.program.scoring.as_ref().map_err(|_| fallback("the scoring programs are not lowered"))?;
    let mut state = readings::WaitState { waits: None, shape_waits: None };
    let found = readings::enumerate(ctx, input, budget, waits, &mut state)?;
    let list = match found {
        readings::Found::Refused(s) => return Ok((HandOutcome::Refused(s), ReadingValues::default())),
        readings::Found::Readings(list) => list,
    };
    if list.is_empty() {
        return Ok((HandOutcome::NoReading, ReadingValues::default()));
    }
    let mut list = list;
    let flowers = Arc::new(input.flowers.clone());
    // each reading's groups lent to the programs' view of it (not copied), and given back after
    let lent: Vec<_> = list.iter_mut().map(|r| (std::mem::take(&mut r.groups), std::mem::take(&mut r.declared))).collect();
    let rs: Vec<Reading> = list.iter().zip(lent).map(|(r, (g, d))| r.view_of(g, d, input, &flowers, &state)).collect();
    // the waits a pattern reads, asked of `waits` where first read; scoring goes on from there
    let mut failed: Option<Fallback> = None;
    let got = {
        let mut more = |shape: bool| match waits.waits_beside(shape, budget, &rs) {
            Ok(v) => Some(v),
            Err(f) => {
                failed = Some(f);
                None
            }
        };
        ctx.scorer.choose_with(sc, &rs, &mut more, lean)
    };
    let values = match &got {
        Ok((chosen, win, ..)) if !names.is_empty() && (*win || !lean) => reading_values(ctx, &rs[*chosen], names, budget, waits),
        _ => ReadingValues::default(),
    };
    let back: Vec<_> = rs.into_iter().map(|r| (r.groups, r.declared)).collect();
    for (r, (g, d)) in list.iter_mut().zip(back) {
        r.groups = g;
        r.declared = d;
    }
    match got {
        Ok((chosen, win, considered, refused, scored, quantities, label_values)) => {
            let labels = scored
                .fin
                .iter()
                .zip(label_values)
                .map(|(&(i, _), vs)| label(ctx.setup.label_texts.get(i)?.as_ref()?, &vs?))
                .collect();
            if lean {
                let reading = Chosen { form: 0, groups: Vec::new(), listed: false, hand: Vec::new(), win_tile: None, describe: String::new(), views: Vec::new(), built: Vec::new() };
                let rejected = Vec::new();
                return Ok((HandOutcome::Scored(Box::new(ScoredHand { win, considered, rejected, reading, scored, quantities, labels })), values));
            }
            let describe = |j: usize| list[j].describe(ctx.setup, input);
            let rejected = refused
                .iter()
                .map(|&(j, q)| {
                    let reason = ctx.setup.reasons.get(q as usize).ok_or_else(|| fallback("a requirement without a reason"))?;
                    Ok(format!("{}: {}", describe(j), reason))
                })
                .collect::<Result<Vec<_>, Fallback>>()?;
            let reading = list[chosen].chosen(ctx.setup, input);
            Ok((HandOutcome::Scored(Box::new(ScoredHand {
                win,
                considered,
                rejected,
                reading,
                scored,
                quantities,
                labels,
            })), values))
        }
        Err(Stop::Bail) => Err(fallback("a reading the programs stop on")),
        Err(Stop::NeedWaits | Stop::NeedShapeWaits) => {
            Err(failed.take().unwrap_or_else(|| fallback("the waits could not be found")))
        }
    }
}

/// `names` evaluated on reading `r` by the pattern programs' own evaluator (one evaluation, so what
/// one name computes the next reuses, as `LazyEnv` caches it); the waits asked of `waits` where a
/// name reads them, as the scoring asks them.
fn reading_values(ctx: &HandCtx, r: &Reading, names: &[crate::program::Node], budget: &mut Budget, waits: &mut dyn Waits) -> ReadingValues {
    let mut ev = crate::program::Eval::new(ctx.program, r);
    let values = names
        .iter()
        .map(|n| {
            // at most the waits and the shape waits are asked for, once each
            for _ in 0..3 {
                let shape = match ev.eval_node(n) {
                    Err(Stop::NeedWaits) => false,
                    Err(Stop::NeedShapeWaits) => true,
                    got => return got,
                };
                let Ok(w) = waits.waits(shape, budget) else { return Err(Stop::Bail) };
                ev.give_waits(shape, w);
            }
            Err(Stop::Bail)
        })
        .map(|v| v.and_then(|v| by_position(&v, r)))
        .collect();
    ReadingValues { values, groups: r.groups.clone() }
}

/// Names' values on a reading, a group inside one by its position in `groups` (`score_hand_reading`).
#[derive(Default)]
pub struct ReadingValues {
    pub values: Vec<Result<V, Stop>>,
    pub groups: Vec<crate::program::Group>,
}

/// `v` with each group of reading `r` named by its position among the reading's groups.
fn by_position(v: &V, r: &Reading) -> Result<V, Stop> {
    Ok(match v {
        V::Group(id) => V::Group(r.groups.iter().position(|g| g.ident == *id).ok_or(Stop::Bail)? as u16),
        V::List(items) => V::List(Arc::new(items.iter().map(|x| by_position(x, r)).collect::<Result<_, _>>()?)),
        x => x.clone(),
    })
}

/// Python `str` of a value, where the native side writes it as Python does.
fn py_str(v: &V) -> Option<String> {
    Some(match v {
        V::None => "None".to_owned(),
        V::Bool(b) => (if *b { "True" } else { "False" }).to_owned(),
        V::Int(n) => n.to_string(),
        V::Rat(n, d) => format!("{n}/{d}"),
        V::Str(s) => s.to_string(),
        _ => return None,
    })
}

/// A label with expressions (runtime/scoring.py `ReadingEvaluator.label`): its texts and values in turn.
fn label(texts: &[String], values: &[V]) -> Option<String> {
    if texts.len() != values.len() + 1 {
        return None;
    }
    let mut out = texts[0].clone();
    for (v, t) in values.iter().zip(&texts[1..]) {
        out += &py_str(v)?;
        out += t;
    }
    Some(out)
}
