//! `MixedBot.choose` (runtime/game/bots.py), natively: greedy that declares ready, with its two
//! generators (`random.Random(seed)` for the ready declaration it picks, `random.Random(seed ^ 0x5EED)`
//! for its mix) drawn exactly as the reference draws them, and the parts it shares with greedy
//! (`_wait_for_any`, greedy's discard) as engine/bots.rs has them.

use super::{greedy_choose, greedy_discard, Ask, BotRules, Choice, Ctx, MoveIn, SeatIn};
use crate::engine::rng::Rng;

/// The mixed bot's generators and its patience (`MixedBot.rng`, `.mix`, `.patience`).
#[derive(Clone)]
pub struct Mixed {
    pub rng: Rng,
    pub mix: Rng,
    pub patience: f64,
}

/// What the mixed bot reads of the moves beyond `MoveIn`: per move the index of its action among the
/// distinct actions offered (in order of first appearance, `dict.fromkeys`), per distinct action whether
/// it is `discard`, and the first move equal to `Move("discard", (drawn,))` (None: none is).
pub struct MixedMoves<'a> {
    pub kind_of: &'a [usize],
    pub discard_kind: &'a [bool],
    pub throw: Option<usize>,
}

/// `MixedBot.choose`: keep waiting on any tile (`_keep_waiting`), else greedy declaring ready half the
/// time (and whenever only discards are offered), else a random kind of move: greedy's discard, or a
/// random move of that kind. `discards`: the seat's discards so far.
pub fn mixed_choose<A: Ask>(r: &BotRules, s: &SeatIn, discards: &[usize], moves: &[MoveIn], mm: &MixedMoves<'_>, m: &mut Mixed, ask: &mut A) -> Result<Choice, A::E> {
    if let Some(i) = keep_waiting(r, s, discards, moves, mm, m, ask)? {
        return Ok(Choice::Move(i));
    }
    let only_discards = mm.discard_kind.len() == 1 && mm.discard_kind[0];
    if only_discards || m.mix.random() >= 0.5 {
        return ready_greedy(r, s, moves, &mut m.rng, ask);
    }
    let kind = m.mix.randrange(mm.discard_kind.len() as u64) as usize;
    if mm.discard_kind[kind] {
        let cx = Ctx { r, s, ask, seen: vec![None; r.copies.len()] };
        let ds: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].discard).collect();
        return Ok(Choice::Move(greedy_discard(&cx, moves, &ds)));
    }
    let of_kind: Vec<usize> = (0..moves.len()).filter(|&i| mm.kind_of[i] == kind).collect();
    Ok(Choice::Move(of_kind[m.mix.randrange(of_kind.len() as u64) as usize]))
}

/// `GreedyBot.choose` with `declares_ready`: a win as greedy takes it, else a ready declaration picked
/// by `rng`, else greedy.
fn ready_greedy<A: Ask>(r: &BotRules, s: &SeatIn, moves: &[MoveIn], rng: &mut Rng, ask: &mut A) -> Result<Choice, A::E> {
    if !moves.iter().any(|m| m.win) {
        let ready: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].ready).collect();
        if !ready.is_empty() {
            return Ok(Choice::Move(ready[rng.randrange(ready.len() as u64) as usize]));
        }
    }
    greedy_choose(r, s, moves, ask)
}

/// `MixedBot._keep_waiting`: a hand that wins on any tile, offered a self-drawn win on an ordinary tile,
/// throws the drawn tile instead with probability `patience`, until it has thrown a wildcard and while one
/// can still come. The questions asked, and the draw made, in the reference's order.
fn keep_waiting<A: Ask>(r: &BotRules, s: &SeatIn, discards: &[usize], moves: &[MoveIn], mm: &MixedMoves<'_>, m: &mut Mixed, ask: &mut A) -> Result<Option<usize>, A::E> {
    let Some(drawn) = s.drawn else { return Ok(None) };
    if !s.wild.iter().any(|&w| w) || s.wild[drawn] || !s.hand.iter().any(|&t| s.wild[t]) {
        return Ok(None);
    }
    if discards.iter().any(|&t| s.wild[t]) {
        return Ok(None);
    }
    // `_wildcard_to_come`: a wildcard kind of which fewer than all copies are in sight or in the hand
    let mut to_come = false;
    for k in (0..s.wild.len()).filter(|&k| s.wild[k]) {
        let own = s.hand.iter().filter(|&&t| t == k).count() as i64;
        if ask.visible(k)? + own < r.copies[k] {
            to_come = true;
            break;
        }
    }
    if !to_come || !moves.iter().any(|x| x.win) {
        return Ok(None);
    }
    let Some(throw) = mm.throw else { return Ok(None) };
    if m.mix.random() >= m.patience {
        return Ok(None);
    }
    let mut cx = Ctx { r, s, ask, seen: vec![None; r.copies.len()] };
    if !cx.wins_on_anything(drawn)? {
        return Ok(None);
    }
    Ok(Some(throw))
}
