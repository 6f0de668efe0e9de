//! The efficiency bot's choice, natively: `runtime/game/bots.py` `EfficiencyBot.choose` (with the parts of
//! `GreedyBot` it uses) as a pure function of one seat's data — its tiles as catalog indices, its melds,
//! the moves offered — and the questions only the game answers (`Ask`: the seat's waits, its waits
//! without a tile, whether a win on a tile meets the rules, how many of a kind are in sight). The
//! distances are the native tables' (`distance.rs`); where they hand a hand back, the Python `Distance`
//! answers (`Ask::distance`). The same choices as the reference, the same ties (the first of equals,
//! Python's `min`/`max`/`sorted`), the same floats (the weights of `_winning_live` summed in its order),
//! and the same memo of winning waits per hand shape, cleared at the same size.

use crate::hash::{map, Map};

mod greedy; // `GreedyBot.choose` on the parts the efficiency bot shares
pub use greedy::greedy_choose;
mod mixed; // `MixedBot.choose`: greedy declaring ready, with its generators
mod seat; // what the policy reads of one seat while it chooses
use seat::Ctx;
pub use mixed::{mixed_choose, Mixed, MixedMoves};

pub const FAR: i64 = 99;
const TIE_BREAK: usize = 4;
const READY_LIVE: f64 = 4.0;
const ORPHANS_GAP: usize = 4;
const MEMO_LIMIT: usize = 20_000;

/// Per meld kind: (suit or -1, value), as the hand shapes declare them.
pub type Values = Vec<Vec<(i64, i64)>>;

/// The rule set's constants the policy reads (per catalog).
pub struct BotRules {
    pub copies: Vec<i64>,
    pub flower: Vec<bool>,
    pub suit: Vec<i64>, // -1: none
    pub rank: Vec<i64>,
    pub partners: Vec<Vec<usize>>, // per kind, the kinds it forms a concealed fixed set with
    pub orphans: Vec<Vec<usize>>,  // per orphans form, its members in catalog order
    pub shapes: usize,             // meld kinds (their ids index `floor`'s values)
    /// (least worth, per meld kind: (suit or -1, value) in declaration order) — `value_floor`
    pub floor: Option<(i64, Values)>,
    pub requires_seen: bool, // every requirement is one the waits see
}

/// One move as the policy reads it.
pub struct MoveIn {
    pub win: bool,
    pub ready: bool,
    pub meld: bool, // an action forming melds, with tiles
    pub discard: bool,
    pub pass: bool, // equal to PASS
    pub select: bool,
    pub kong: bool,
    pub shape: i64, // the meld kind whose worth it adds (-1: none)
    pub tiles: Vec<usize>,
    /// Greedy's meld: one kind of tile, by an action forming a meld kind of `same` shape.
    pub same: bool,
}

pub struct SeatIn {
    pub hand: Vec<usize>,
    pub melds: Vec<(i64, Vec<usize>)>, // (meld kind, tiles)
    pub drawn: Option<usize>,
    pub wild: Vec<bool>,
    pub outside: Option<usize>, // the tile a claim would take
    pub players: i64,
}

/// What the game answers; each may fail (a Python exception), which ends the choice.
pub trait Ask {
    type E;
    fn waits(&mut self) -> Result<Vec<usize>, Self::E>;
    fn waits_without(&mut self, kind: usize, groups: bool) -> Result<Vec<usize>, Self::E>;
    fn wins(&mut self, without: usize, kind: usize, drawn: bool) -> Result<bool, Self::E>;
    fn visible(&mut self, kind: usize) -> Result<i64, Self::E>;
    /// `Distance.distance` / `settled` / `improving` of the measure (`value`: the value measure).
    fn distance(&mut self, value: bool, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<i64, Self::E>;
    fn settled(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<i64, Self::E>;
    fn improving(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<(i64, Vec<usize>), Self::E>;
    /// `distance(value, ..)` of the counts less one of each of `kinds` in one question (None: one by one).
    fn distances_without(&mut self, _v: bool, _c: &[i64], _w: i64, _m: i64, _n: i64, _k: &[usize]) -> Result<Option<Vec<i64>>, Self::E> {
        Ok(None)
    }
    fn has_targets(&mut self, melds: i64, size: i64) -> Result<bool, Self::E>;
}

#[derive(Hash, PartialEq, Eq, Clone)]
struct Shape {
    conc: Vec<usize>,
    melds: Vec<(i64, Vec<usize>)>,
}

#[derive(Hash, PartialEq, Eq)]
enum Key {
    Shape(Shape),
    Kind(Shape, usize),
}

enum Got {
    Waits(Vec<usize>, Option<Vec<usize>>),
    Weight(f64),
}

/// One bot's state under one rule set and catalog: whether it plays for value (`gated`) and its memo of
/// winning waits, by catalog index (the caller keeps one per rule set: runtime/game/bots.py `RuleSetState`).
pub struct Policy {
    pub gated: bool,
    wins: Map<Key, Got>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { gated: false, wins: map() }
    }
}

/// The choice: the index of a move, or None for the reference's `PASS`.
pub enum Choice {
    Move(usize),
    Pass,
}

impl Policy {
    pub fn choose<A: Ask>(&mut self, r: &BotRules, s: &SeatIn, moves: &[MoveIn], ask: &mut A) -> Result<Choice, A::E> {
        let mut cx = Ctx { r, s, ask, seen: vec![None; r.copies.len()] };
        let wins: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].win).collect();
        if let Some(&first) = wins.first() {
            let better = wait_for_any(&mut cx, moves)?;
            return Ok(Choice::Move(better.unwrap_or(first)));
        }
        let discards: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].discard).collect();
        let ready: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].ready).collect();
        if let Some(&first) = ready.first() {
            let mut total = 0i64;
            for k in cx.ask.waits()? {
                total += cx.live(k)?;
            }
            if total as f64 >= READY_LIVE {
                return Ok(Choice::Move(first));
            }
        }
        let melds: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].meld).collect();
        if !melds.is_empty() {
            if let Some(m) = self.meld(&mut cx, moves, &melds)? {
                return Ok(Choice::Move(m));
            }
        }
        if !discards.is_empty() {
            return Ok(Choice::Move(self.discard(&mut cx, moves, &discards)?));
        }
        if moves.iter().any(|m| m.pass) {
            return Ok(Choice::Pass);
        }
        let selects: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].select).collect();
        if !selects.is_empty() {
            let key = |i: usize| moves[i].tiles.iter().map(|&t| cx.neighbours(t)).sum::<i64>();
            return Ok(Choice::Move(first_min(&selects, key)));
        }
        Ok(Choice::Move(0))
    }

    fn meld<A: Ask>(&mut self, cx: &mut Ctx<'_, A>, moves: &[MoveIn], melds: &[usize]) -> Result<Option<usize>, A::E> {
        if self.gated {
            if let Some(&m) = melds.iter().find(|&&i| moves[i].tiles.iter().all(|&t| t == moves[i].tiles[0])) {
                return Ok(Some(m));
            }
        }
        let s = cx.s;
        let laid = s.melds.len() as i64;
        let (counts, w) = cx.counts(&s.hand);
        let now = cx.settled(&counts, w, laid, cx.need(0))?;
        let mut best = None;
        let mut best_d = FAR + 1;
        for &i in melds {
            let m = &moves[i];
            let mut need: Vec<(usize, i64)> = Vec::new(); // a Counter: first occurrence order
            for &t in &m.tiles {
                match need.iter_mut().find(|(k, _)| *k == t) {
                    Some(e) => e.1 += 1,
                    None => need.push((t, 1)),
                }
            }
            if let Some(o) = s.outside {
                if let Some(e) = need.iter_mut().find(|(k, c)| *k == o && *c != 0) {
                    e.1 -= 1;
                }
            }
            let (mut c, mut ww) = (counts.clone(), w);
            let mut taken = 0;
            for &(t, k) in &need {
                let used = if s.wild[t] {
                    let u = k.min(ww);
                    ww -= u;
                    u
                } else {
                    let u = k.min(c[t]);
                    c[t] -= u;
                    u
                };
                taken += used;
            }
            let new = taken == need.iter().map(|e| e.1).sum::<i64>();
            let mut worth = 0;
            if cx.r.floor.is_some() {
                worth = cx.worth(m.shape, &m.tiles);
                if !new {
                    worth -= s
                        .melds
                        .iter()
                        .filter(|(_, t)| t.first() == m.tiles.first() && !t.is_empty())
                        .map(|(k, t)| cx.worth(*k, t))
                        .max()
                        .unwrap_or(0);
                }
            }
            let after = cx.settled(&c, ww, laid + new as i64, cx.need(worth))?;
            let mixed = m.tiles.iter().any(|&t| t != m.tiles[0]);
            if s.outside.is_some() && mixed && after > 1 {
                continue;
            }
            if (after < now || (m.kong && after <= now)) && after < best_d {
                best = Some(i);
                best_d = after;
            }
        }
        Ok(best)
    }

    fn discard<A: Ask>(&mut self, cx: &mut Ctx<'_, A>, moves: &[MoveIn], discards: &[usize]) -> Result<usize, A::E> {
        let s = cx.s;
        let laid = s.melds.len() as i64;
        let need = cx.need(0);
        let (mut counts, w) = cx.counts(&s.hand);
        let mut scored: Vec<(i64, usize)> = Vec::with_capacity(discards.len());
        let naturals: Vec<usize> = discards.iter().map(|&i| moves[i].tiles[0]).filter(|&t| !s.wild[t]).collect();
        let mut batch = cx.ask.distances_without(false, &counts, w, laid, need, &naturals)?.map(|d| d.into_iter());
        for &i in discards {
            let t = moves[i].tiles[0];
            let d = if s.wild[t] {
                cx.ask.distance(false, &counts, w - 1, laid, need)?
            } else if let Some(d) = batch.as_mut().and_then(|b| b.next()) {
                d
            } else {
                counts[t] -= 1;
                let d = cx.ask.distance(false, &counts, w, laid, need);
                counts[t] += 1;
                d?
            };
            scored.push((d, i));
        }
        let mut near = scored.iter().map(|x| x.0).min().unwrap_or(FAR);
        if self.gated {
            return self.value_discard(cx, moves, &scored, &mut counts, w);
        }
        let mut real: Vec<(usize, f64)> = Vec::new();
        if near == 1 {
            for e in scored.iter_mut() {
                if e.0 == 1 {
                    let live = self.winning_live(cx, moves[e.1].tiles[0])?;
                    real.push((e.1, live));
                    if live == 0.0 {
                        e.0 = 2;
                        self.gated = true;
                    }
                }
            }
            near = scored.iter().map(|x| x.0).min().unwrap_or(FAR);
        }
        let mut best: Vec<usize> = scored.iter().filter(|x| x.0 == near).map(|x| x.1).collect();
        if best.len() > TIE_BREAK && near > 1 {
            best.sort_by_key(|&i| cx.neighbours_key(moves[i].tiles[0])); // stable, as `sorted`
            best.truncate(TIE_BREAK);
        }
        if best.len() > 1 && near < FAR {
            let mut lives = Vec::with_capacity(best.len());
            for &i in &best {
                let v = if near == 1 {
                    real.iter().find(|x| x.0 == i).map(|x| x.1).unwrap_or(0.0)
                } else {
                    self.wanted(cx, &mut counts, w, moves[i].tiles[0])? as f64
                };
                lives.push(v);
            }
            let top = lives.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            best = best.iter().zip(&lives).filter(|(_, &v)| v == top).map(|(&i, _)| i).collect();
        }
        if best.len() == 1 {
            return Ok(best[0]);
        }
        Ok(greedy_discard(cx, moves, &plain(cx, moves, &best)))
    }

    fn value_discard<A: Ask>(
        &mut self,
        cx: &mut Ctx<'_, A>,
        moves: &[MoveIn],
        scored: &[(i64, usize)],
        counts: &mut [i64],
        w: i64,
    ) -> Result<usize, A::E> {
        let s = cx.s;
        let mut real: Vec<(usize, f64)> = Vec::new();
        for &(d, i) in scored {
            if d == 1 {
                let live = self.winning_live(cx, moves[i].tiles[0])?;
                if live != 0.0 {
                    real.push((i, live));
                }
            }
        }
        if !real.is_empty() {
            let top = real.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
            let best: Vec<usize> = real.iter().filter(|x| x.1 == top).map(|x| x.0).collect();
            return Ok(greedy_discard(cx, moves, &plain(cx, moves, &best)));
        }
        let laid = s.melds.len() as i64;
        let mut keyed: Vec<((i64, i64), usize)> = Vec::with_capacity(scored.len());
        let naturals: Vec<usize> = scored.iter().map(|&(_, i)| moves[i].tiles[0]).filter(|&t| !s.wild[t]).collect();
        let mut batch = cx.ask.distances_without(true, counts, w, laid, 0, &naturals)?.map(|d| d.into_iter());
        for &(d, i) in scored {
            let t = moves[i].tiles[0];
            let vd = if s.wild[t] {
                cx.ask.distance(true, counts, w - 1, laid, 0)?
            } else if let Some(vd) = batch.as_mut().and_then(|b| b.next()) {
                vd
            } else {
                counts[t] -= 1;
                let vd = cx.ask.distance(true, counts, w, laid, 0);
                counts[t] += 1;
                vd?
            };
            keyed.push(((vd, d), i));
        }
        let low = keyed.iter().map(|x| x.0).min().unwrap_or((FAR, FAR));
        let best: Vec<usize> = keyed.iter().filter(|x| x.0 == low).map(|x| x.1).collect();
        Ok(greedy_discard(cx, moves, &plain(cx, moves, &best)))
    }

    fn winning_live<A: Ask>(&mut self, cx: &mut Ctx<'_, A>, name: usize) -> Result<f64, A::E> {
        let s = cx.s;
        let mut conc = s.hand.clone();
        if let Some(p) = conc.iter().position(|&t| t == name) {
            conc.remove(p);
        }
        let mut sorted = conc.clone();
        sorted.sort_unstable();
        let shape = Shape { conc: sorted, melds: s.melds.clone() };
        let key = Key::Shape(shape.clone());
        if !self.wins.contains_key(&key) {
            let waits = cx.ask.waits_without(name, false)?;
            let got = if !waits.is_empty() && cx.r.requires_seen {
                Got::Waits(waits, None)
            } else {
                let (counts, w) = cx.counts(&conc);
                let (d, kinds) = cx.ask.improving(&counts, w, s.melds.len() as i64, 0)?;
                let mut cands: Vec<usize> = Vec::new();
                for k in waits.iter().copied().chain(if d == 1 { kinds } else { vec![] }) {
                    if !cands.contains(&k) {
                        cands.push(k);
                    }
                }
                Got::Waits(waits, Some(cands))
            };
            if self.wins.len() > MEMO_LIMIT {
                self.wins.clear();
            }
            self.wins.insert(Key::Shape(shape.clone()), got);
        }
        let Some(Got::Waits(waits, cands)) = self.wins.get(&key) else { unreachable!() };
        let (waits, cands) = (waits.clone(), cands.clone());
        let Some(cands) = cands else {
            let mut total = 0i64;
            for k in waits {
                total += cx.live(k)?;
            }
            return Ok(total as f64);
        };
        let n = 1.0 / s.players as f64;
        let mut total = 0.0f64;
        for k in cands {
            let kk = Key::Kind(shape.clone(), k);
            let got = match self.wins.get(&kk) {
                Some(Got::Weight(g)) => *g,
                _ => {
                    let tries: &[(bool, f64)] =
                        if waits.contains(&k) { &[(false, 1.0), (true, n)] } else { &[(true, n)] };
                    let mut g = 0.0;
                    for &(drawn, weight) in tries {
                        if cx.ask.wins(name, k, drawn)? {
                            g = weight;
                            break;
                        }
                    }
                    self.wins.insert(kk, Got::Weight(g));
                    g
                }
            };
            if got != 0.0 {
                total += got * cx.live(k)? as f64;
            }
        }
        Ok(total)
    }

    fn wanted<A: Ask>(&mut self, cx: &mut Ctx<'_, A>, counts: &mut [i64], w: i64, name: usize) -> Result<i64, A::E> {
        let wild = cx.s.wild[name];
        if !wild {
            counts[name] -= 1;
        }
        let need = cx.need(0);
        let got = cx.ask.improving(counts, w - wild as i64, cx.s.melds.len() as i64, need);
        if !wild {
            counts[name] += 1;
        }
        let (_, kinds) = got?;
        let mut total = 0;
        for k in kinds {
            total += cx.live(k)?;
        }
        Ok(total)
    }
}

/// The first index with the least key (Python's `min`).
fn first_min<K: Ord>(items: &[usize], key: impl Fn(usize) -> K) -> usize {
    let mut best = items[0];
    let mut bk = key(best);
    for &i in &items[1..] {
        let k = key(i);
        if k < bk {
            best = i;
            bk = k;
        }
    }
    best
}

/// The discards of `best` that are not wildcards, or all of them.
fn plain<A: Ask>(cx: &Ctx<'_, A>, moves: &[MoveIn], best: &[usize]) -> Vec<usize> {
    let p: Vec<usize> = best.iter().copied().filter(|&i| !cx.s.wild[moves[i].tiles[0]]).collect();
    if p.is_empty() {
        best.to_vec()
    } else {
        p
    }
}

/// `GreedyBot.discard`: towards an orphans form when one is near, else the fewest neighbours.
fn greedy_discard<A: Ask>(cx: &Ctx<'_, A>, moves: &[MoveIn], discards: &[usize]) -> usize {
    if let Some(i) = orphans_discard(cx, moves, discards) {
        return i;
    }
    first_min(discards, |i| cx.neighbours_key(moves[i].tiles[0]))
}

fn orphans_discard<A: Ask>(cx: &Ctx<'_, A>, moves: &[MoveIn], discards: &[usize]) -> Option<usize> {
    let s = cx.s;
    if !s.melds.is_empty() {
        return None;
    }
    let mut held = vec![0i64; cx.r.copies.len()];
    for &t in &s.hand {
        held[t] += 1;
    }
    for members in &cx.r.orphans {
        let have = members.iter().filter(|&&k| held[k] != 0).count();
        if have + ORPHANS_GAP < members.len() {
            continue;
        }
        let pairs = members.iter().filter(|&&k| held[k] >= 2).count();
        let spare = |i: usize| -> i64 {
            let n = moves[i].tiles[0];
            if s.wild[n] {
                return 2;
            }
            if !members.contains(&n) {
                return 0;
            }
            if held[n] >= 3 || (held[n] == 2 && pairs > 1) {
                1
            } else {
                2
            }
        };
        let best = first_min(discards, |i| (spare(i), -(moves[i].tiles[0] as i64)));
        if spare(best) < 2 {
            return Some(best);
        }
    }
    None
}

/// `GreedyBot._wait_for_any`: a self-drawn win given up for a discard after which the hand wins on any tile.
fn wait_for_any<A: Ask>(cx: &mut Ctx<'_, A>, moves: &[MoveIn]) -> Result<Option<usize>, A::E> {
    let s = cx.s;
    let Some(drawn) = s.drawn else { return Ok(None) };
    if !s.wild.iter().any(|&w| w) || !s.hand.iter().any(|&t| s.wild[t]) {
        return Ok(None);
    }
    let discards: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].discard).collect();
    if discards.is_empty() {
        return Ok(None);
    }
    if !s.wild[drawn] && cx.wins_on_anything(drawn)? {
        return Ok(None);
    }
    let mut order = discards.clone();
    order.sort_by_key(|&i| !s.wild[moves[i].tiles[0]]); // stable: a wildcard first
    for i in order {
        if cx.wins_on_anything(moves[i].tiles[0])? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}
