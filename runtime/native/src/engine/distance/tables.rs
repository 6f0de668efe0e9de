//! The blocks' tables a question reads: each block's table for the slots (M, P, V) made once and kept in
//! its memo, the memos' bounds (they start afresh between questions, never within one), and the
//! products of the held blocks' tables the questions in distance.rs read their answers from.

use super::product::{table, Memo, Slots};
use super::{key_of, BlockParts, Measure, ANSWERS_LIMIT, ARENA_LIMIT, HELD_BYTES, MAX_ENTRIES, MEMO_LIMIT, TRIM_EVERY};

impl Measure {
    /// The memos start afresh past their bounds, between questions only (offsets into an arena stay
    /// good for the whole of one question).
    pub(super) fn trim(&mut self) {
        // the bounds are looked at every `TRIM_EVERY` questions (a question adds a bounded number of
        // tables): walking every memo at every question was a few per cent of the bot's time
        self.asked += 1;
        if !self.asked.is_multiple_of(TRIM_EVERY) {
            return;
        }
        let bytes = |m: &Memo| 4 * (m.arena.len() + m.next_arena.len()) + 32 * (m.index.len() + m.next.len());
        let mut total = 0;
        for memo in self.memos.values_mut().flatten() {
            if memo.index.len() + memo.next.len() > MEMO_LIMIT || memo.arena.len() + memo.next_arena.len() > ARENA_LIMIT {
                *memo = Memo::new(memo.entries);
            }
            total += bytes(memo);
        }
        while total > HELD_BYTES {
            let Some(memo) = self.memos.values_mut().flatten().max_by_key(|m| bytes(m)) else { break };
            total -= bytes(memo);
            *memo = Memo::new(memo.entries);
        }
        if self.answers.len() > ANSWERS_LIMIT {
            self.answers.clear();
        }
    }

    /// The blocks' memos for the slots; None for tables of more than `MAX_ENTRIES` entries (the caller
    /// asks the reference).
    pub(super) fn memos_of(&mut self, s: Slots) -> Option<(&[BlockParts], &mut Vec<Memo>)> {
        let entries = (s.v + 1).checked_mul(s.m + 1)?.checked_mul(s.p + 1)?;
        if entries > MAX_ENTRIES {
            return None;
        }
        let parts = if s.v > 0 { self.vparts.as_ref().unwrap_or(&self.parts) } else { &self.parts };
        let nb = self.blocks.len();
        let memos = self.memos.entry((s.m, s.p, s.v)).or_insert_with(|| (0..nb).map(|_| Memo::new(entries)).collect());
        Some((parts, memos))
    }

    /// The offset of the block's table for the packed counts in its memo's arena.
    pub(super) fn block_at(&mut self, b: usize, key: u128, s: Slots) -> Option<usize> {
        let (parts, memos) = self.memos_of(s)?;
        Some(table(&parts[b], key, s.m, s.p, s.v, &mut memos[b]))
    }

    /// The blocks' memos for the slots, read (after `memos_of`; None: never made).
    pub(super) fn read_or_none(&self, s: Slots) -> Option<&[Memo]> {
        self.memos.get(&(s.m, s.p, s.v)).map(|v| v.as_slice())
    }

    /// The blocks that hold tiles of the counts, each with its table's offset (a block holding none has
    /// the product's identity for its table: nothing at any level, level 0 all zeros — left out).
    pub(super) fn block_offsets(&mut self, counts: &[i64], s: Slots) -> Option<Vec<(usize, usize)>> {
        let mut keys = Vec::with_capacity(self.blocks.len());
        for b in 0..self.blocks.len() {
            keys.push(key_of(&self.blocks[b], counts)?);
        }
        let (parts, memos) = self.memos_of(s)?;
        let held = keys.into_iter().enumerate().filter(|&(_, key)| key != 0);
        Some(held.map(|(b, key)| (b, table(&parts[b], key, s.m, s.p, s.v, &mut memos[b]))).collect())
    }

    /// The reading of the product of the blocks' tables (the last product at the read entries only).
    pub(super) fn product_fin(&self, offs: &[(usize, usize)], s: Slots) -> i64 {
        let memos = self.read_or_none(s);
        let tab = |i: usize| memos.expect("tables were made")[offs[i].0].at(offs[i].1);
        match offs.len() {
            0 => s.fin(None),
            1 => s.fin(Some(tab(0))),
            n => {
                let mut acc = tab(0).to_vec();
                let mut out = Vec::with_capacity(acc.len());
                for i in 1..n - 1 {
                    s.combine_into(&acc, tab(i), &mut out);
                    std::mem::swap(&mut acc, &mut out);
                }
                s.fin_product(&acc, tab(n - 1))
            }
        }
    }

    /// Per held block, the product of the other held blocks' tables (None: there are none), by prefix
    /// and suffix products; and the product of them all.
    pub(super) fn others(&self, offs: &[(usize, usize)], s: Slots) -> (Vec<Option<Vec<i32>>>, Option<Vec<i32>>) {
        let n = offs.len();
        let memos = self.read_or_none(s);
        let tab = |i: usize| memos.expect("tables were made")[offs[i].0].at(offs[i].1);
        let mut suffix: Vec<Option<Vec<i32>>> = vec![None; n + 1];
        for i in (1..n).rev() {
            suffix[i] = Some(match &suffix[i + 1] {
                None => tab(i).to_vec(),
                Some(x) => s.combine(tab(i), x),
            });
        }
        let mut out = Vec::with_capacity(n);
        let mut prefix: Option<Vec<i32>> = None;
        for i in 0..n {
            out.push(match (&prefix, &suffix[i + 1]) {
                (None, None) => None,
                (Some(x), None) | (None, Some(x)) => Some(x.clone()),
                (Some(x), Some(y)) => Some(s.combine(x, y)),
            });
            prefix = Some(match prefix {
                None => tab(i).to_vec(),
                Some(x) => s.combine(&x, tab(i)),
            });
        }
        (out, prefix)
    }

    /// The reading of a block's table `one` with the other blocks' product.
    pub(super) fn with_others(s: Slots, others: Option<&Vec<i32>>, one: &[i32]) -> i64 {
        match others {
            None => s.fin(Some(one)),
            Some(o) => s.fin_product(o, one),
        }
    }
}
