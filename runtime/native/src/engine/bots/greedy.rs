//! `GreedyBot.choose` (runtime/game/bots.py), natively: the parts it shares with the efficiency bot
//! (`_wait_for_any`, greedy's discard, `give_up`) are engine/bots.rs's.

use super::{first_min, greedy_discard, wait_for_any, Ask, BotRules, Choice, Ctx, MoveIn, SeatIn};

/// `GreedyBot.choose` (it declares no ready): a win (or a discard that wins on any tile instead of a
/// self-drawn one), else the first meld of one kind of tile, else greedy's discard, `PASS`, the
/// `select` it needs least, the first move.
pub fn greedy_choose<A: Ask>(r: &BotRules, s: &SeatIn, moves: &[MoveIn], ask: &mut A) -> Result<Choice, A::E> {
    let mut cx = Ctx { r, s, ask, seen: vec![None; r.copies.len()] };
    if let Some(first) = moves.iter().position(|m| m.win) {
        return Ok(Choice::Move(wait_for_any(&mut cx, moves)?.unwrap_or(first)));
    }
    if let Some(i) = moves.iter().position(|m| m.meld && m.same && m.tiles.iter().all(|&t| t == m.tiles[0])) {
        return Ok(Choice::Move(i));
    }
    let discards: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].discard).collect();
    if !discards.is_empty() {
        return Ok(Choice::Move(greedy_discard(&cx, moves, &discards)));
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
