//! A winner's result as `Game._record` keeps it (runtime/game/ending.py): the win scored on the state as
//! it is — with the pattern of each fan for the native simulation's tallies (engine/simulate.rs), and
//! whole (label, pattern, value, count of each fan; score, total, form) for `EngineHand.results`.

use std::sync::Arc;

use super::reading::Name;
use super::{Budget, HandState, OnValues, Scored, ScoredHand, StateWins, Stop, WinReading, HAND_WORK, V};
use crate::engine::state::Meld;

impl StateWins<'_> {
    /// The win seat `s` made (its concealed tiles without the winning tile) scored on `st` as `rescore`
    /// scores it; None when it does not score a win there.
    fn won(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<Box<ScoredHand>>, Stop> {
        let mut budget = Budget { work: HAND_WORK };
        Ok(match self.score_by(st, s, conc, tile, self_drawn, forms, &mut budget, false)? {
            (Scored::Hand(h), _) if h.win => Some(h),
            _ => None,
        })
    }

    /// The win's score and the pattern of each fan in the scorer's order.
    pub fn recorded(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<(V, Vec<String>)>, Stop> {
        let Some(h) = self.won_scoring(st, s, conc, tile, self_drawn, forms, None)?.0.filter(|h| h.win) else { return Ok(None) };
        let names = &self.hand.ok_or(Stop::Bail)?.1.setup.pattern_names;
        let fans = h.fin.iter().map(|&i| names.get(i).cloned()).collect::<Option<Vec<String>>>().ok_or(Stop::Bail)?;
        Ok(Some((h.score, fans)))
    }
}

/// What a won hand's scoring gave (`Scored::Hand`): whether it wins, its score, each fan's pattern.
#[derive(Clone)]
pub struct WonHand {
    pub win: bool,
    pub score: V,
    fin: Vec<usize>,
}

/// The names' nodes of one scope (`set_reading_names`), a part of a joined reading.
type Part = Vec<Result<Name, &'static str>>;

/// A won hand's scoring after the win (the reading taken, the rescorings around the `win` hooks, the
/// decisions the win opens, the simulation's record) or on the trial it was offered on (the context its
/// `win` hooks set, applied to a copy of the state: engine/winning/trial.rs), kept with what it was scored
/// on: the rule set's programs, the context and reveal values (`OnValues`: the very same, or equal ones —
/// it is worked out from them alone), the seat's melds and tiles set aside (their marks: the very same
/// parts, unchanged; else equal ones, as a copy of the state holds), its hand, the concealed tiles, the
/// tile, self-drawn, the forms. A scoring reads nothing else of the state (the waits a pattern reads are
/// the seat's trials on those same parts), so where all are the same the scoring is the same; and the
/// names read of it (each scope's part) are kept beside it.
pub struct KeptWon {
    program: usize,
    on: Arc<OnValues>,
    marks: [u64; 2],
    melds: Vec<Meld>,
    aside: Vec<usize>,
    held: Vec<usize>,
    seat: usize,
    conc: Vec<usize>,
    tile: Option<usize>,
    self_drawn: bool,
    forms: Vec<String>,
    got: Option<WonHand>,
    parts: Vec<(Part, WinReading)>,
}

/// How many scorings `Winning::kept_won` holds (the last trial's, the win's before and after its `win`
/// hooks), the oldest dropped first.
pub(super) const KEPT_WON: usize = 4;

/// Two melds alike in all a scoring may read of them.
fn same_meld(a: &Meld, b: &Meld) -> bool {
    a.kind == b.kind && a.tiles == b.tiles && a.exposed == b.exposed && a.source == b.source && a.claimed == b.claimed
}

impl KeptWon {
    /// The reading of `nodes` in parts of `lens` from the parts kept (None: some part is not kept).
    fn reading(&self, nodes: &[Result<Name, &'static str>], lens: &[usize]) -> Option<Option<WinReading>> {
        if self.got.is_none() {
            return Some(None);
        }
        let mut values = Vec::with_capacity(nodes.len());
        let mut groups = None;
        let mut at = 0;
        for &n in lens {
            let piece = &nodes[at..at + n];
            at += n;
            if piece.is_empty() {
                continue;
            }
            let (_, r) = self.parts.iter().find(|(p, _)| p.as_slice() == piece)?;
            values.extend_from_slice(&r.values);
            groups.get_or_insert_with(|| r.groups.clone());
        }
        Some(Some(WinReading { values, groups: groups.unwrap_or_default() }))
    }
}

impl StateWins<'_> {
    /// Seat `s`'s won hand scored on `st` as `rescore` scores it (the scoring, and with `read` the names
    /// set, in parts of the lengths given — `join_reading_names`'s, or one part: `&[]`), kept
    /// (`KeptWon`) and taken from there where it was scored on the same; None: no `Scored::Hand`.
    #[allow(clippy::too_many_arguments)]
    pub fn won_scoring(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String], read: Option<&[usize]>) -> Result<(Option<WonHand>, Option<WinReading>), Stop> {
        let whole;
        let lens = match read {
            Some([]) => {
                whole = [self.nodes().len()];
                Some(&whole[..])
            }
            x => x,
        };
        let program = self.hand.map_or(0, |(_, ctx)| ctx.program as *const _ as usize);
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let marks = [seat.melds.mark(), seat.aside.mark()];
        let on = &self.on;
        let same = |k: &KeptWon| {
            k.program == program
                && k.seat == s
                && k.tile == tile
                && k.self_drawn == self_drawn
                && k.conc == conc
                && k.held == seat.hand
                && k.forms == forms
                && (Arc::ptr_eq(&k.on, on) || (k.on.hand == on.hand && k.on.context == on.context && k.on.reveals == on.reveals))
                && (k.marks == marks
                    || (k.aside == *seat.aside && k.melds.len() == seat.melds.len() && k.melds.iter().zip(seat.melds.iter()).all(|(a, b)| same_meld(a, b))))
        };
        let mut kept = self.w.kept_won.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = kept.iter().rev().find(|k| same(k)) {
            match lens {
                None => return Ok((k.got.clone(), None)),
                Some(lens) => {
                    if let Some(r) = k.reading(self.nodes(), lens) {
                        return Ok((k.got.clone(), r));
                    }
                }
            }
        }
        let mut budget = Budget { work: HAND_WORK };
        let (scored, r) = self.score_by(st, s, conc, tile, self_drawn, forms, &mut budget, lens.is_some())?;
        let got = match scored {
            Scored::Hand(h) => Some(WonHand { win: h.win, score: h.scored.score.clone(), fin: h.scored.fin.iter().map(|&(i, _)| i).collect() }),
            _ => None,
        };
        if self.declined.get().is_none() {
            // (a scoring declined on the way is not kept: it is asked again, and declines again)
            let at = match kept.iter().rposition(&same) {
                Some(at) => at,
                None => {
                    if kept.len() >= KEPT_WON {
                        kept.remove(0);
                    }
                    kept.push(KeptWon {
                        program,
                        on: self.on.clone(),
                        marks,
                        melds: seat.melds.to_vec(),
                        aside: seat.aside.to_vec(),
                        held: seat.hand.clone(),
                        seat: s,
                        conc: conc.to_vec(),
                        tile,
                        self_drawn,
                        forms: forms.to_vec(),
                        got: got.clone(),
                        parts: Vec::new(),
                    });
                    kept.len() - 1
                }
            };
            if let (Some(lens), Some(r)) = (lens, &r) {
                let k = &mut kept[at];
                let nodes = self.nodes();
                let mut at = 0;
                for (&n, part) in lens.iter().zip(r.split(lens)) {
                    let piece = &nodes[at..at + n];
                    at += n;
                    if !piece.is_empty() && !k.parts.iter().any(|(p, _)| p.as_slice() == piece) {
                        k.parts.push((piece.to_vec(), part));
                    }
                }
            }
        }
        Ok((got, r))
    }

    /// The reading of `won_scoring` where the hand scores (won or not), as `reading_of` gives it.
    #[allow(clippy::too_many_arguments)]
    pub fn won_reading(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String], lens: &[usize]) -> Result<Option<WinReading>, Stop> {
        Ok(match self.won_scoring(st, s, conc, tile, self_drawn, forms, Some(lens))? {
            (Some(_), r) => r,
            (None, _) => None,
        })
    }
}

/// A win's record as `Game._record` writes it from the win's scoring (`ScoreResult`): its score and
/// total, the form of the reading that counts, and each fan's label, pattern, value and count.
pub struct WinRecord {
    pub score: V,
    pub total: V,
    pub form: String,
    pub fans: Vec<(String, String, V, i64)>,
}

impl StateWins<'_> {
    /// The record of the win seat `s` made (scored as `rescore` scores it, on the state as it is now).
    /// None: no win scores there. Declined where a fan's label has expressions the scorer did not compute.
    pub fn record(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<WinRecord>, Stop> {
        let Some(h) = self.won(st, s, conc, tile, self_drawn, forms)? else { return Ok(None) };
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let setup = &ctx.setup;
        let mut fans = Vec::with_capacity(h.scored.fin.len());
        for (k, (&(i, n), v)) in h.scored.fin.iter().zip(&h.scored.values).enumerate() {
            let pattern = setup.pattern_names.get(i).ok_or_else(|| self.decline("a pattern the setup does not name"))?;
            let label = match setup.labels.get(i).and_then(|x| x.as_deref()) {
                Some(l) => l,
                None => h.labels.get(k).and_then(|x| x.as_deref()).ok_or_else(|| self.decline("a label whose expressions the native side did not compute"))?,
            };
            fans.push((label.to_owned(), pattern.clone(), v.clone(), n));
        }
        let form = setup.forms.get(h.reading.form).map(|f| f.name.to_string()).unwrap_or_default();
        Ok(Some(WinRecord { score: h.scored.score.clone(), total: h.scored.total.clone(), form, fans }))
    }
}
