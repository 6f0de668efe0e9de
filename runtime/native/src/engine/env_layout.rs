//! The learning environment's layout (env.py `Layout`) as the native observer reads it: where each part of
//! the observation vector starts, and the action slots a seat's legal moves take (`Layout.actions_of`).

use std::collections::HashMap;

use serde_json::Value as J;

use super::offers::{Act, Mv};

/// env.py `Layout`: where each part of the observation vector starts, and the action slots.
pub(super) struct Layout {
    pub(super) dim: usize,
    pub(super) size: usize,
    pub(super) extra: usize,
    pub(super) actions: Vec<String>,
    pub(super) reveals: Vec<String>,
    pub(super) wilds: Vec<String>, // each wildcard's `tiles` (a kind's name or a reveal's)
    /// per wildcard of `wilds`, the kind its `tiles` names (None: a reveal's name), set with the catalog
    /// (`EngineObserver.set_layout`)
    pub(super) wild_kind: Vec<Option<usize>>,
    pub(super) tasks: Vec<String>,
    pub(super) player_states: Vec<String>,
    pub(super) table_states: Vec<String>,
    pub(super) seat_off: Vec<[usize; 5]>, // per seat counted from the viewer: melds, discards, aside, shown_hand, scalars
    pub(super) reveal_off: Vec<usize>,    // per reveal of `reveals`
    pub(super) at: [usize; 7],            // hand, drawn, wild, task, wall_left, player_states, table_states
    /// per declared action (the rule set's action id), its place in `actions` (-1: not in the layout), so
    /// that a move's slot is found without comparing names (each step's mask and action read it)
    act_index: Vec<i64>,
}

impl Layout {
    /// The layout given as JSON text (dim, size, extra, actions, reveals, wilds, tasks, player_states,
    /// table_states, and each part's offset by name), checked to fit a catalog of `k` kinds; `names`: the
    /// rule set's actions' names by id (what the moves' action ids stand for).
    pub(super) fn parse(layout_json: &str, k: usize, names: &[String]) -> Result<Layout, &'static str> {
        let j: J = serde_json::from_str(layout_json).map_err(|_| "the layout does not parse")?;
        let strs = |key: &str| -> Vec<String> {
            j.get(key).and_then(J::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect()).unwrap_or_default()
        };
        let num = |key: &str| j.get(key).and_then(J::as_u64).map(|x| x as usize);
        let (Some(dim), Some(size), Some(extra)) = (num("dim"), num("size"), num("extra")) else {
            return Err("a layout gives dim, size and extra");
        };
        let off: HashMap<String, usize> = j
            .get("offset")
            .and_then(J::as_object)
            .map(|o| o.iter().filter_map(|(k, v)| v.as_u64().map(|x| (k.clone(), x as usize))).collect())
            .unwrap_or_default();
        let mut layout = Layout {
            seat_off: Vec::new(),
            reveal_off: Vec::new(),
            at: [0; 7],
            act_index: Vec::new(),
            dim,
            size,
            extra,
            actions: strs("actions"),
            reveals: strs("reveals"),
            wilds: strs("wilds"),
            wild_kind: Vec::new(),
            tasks: strs("tasks"),
            player_states: strs("player_states"),
            table_states: strs("table_states"),
        };
        let need = |name: String, len: usize| off.get(&name).is_some_and(|&o| o + len <= dim);
        let players_ok = (0..6).take_while(|r| off.contains_key(&format!("seat{r}.melds"))).count();
        let ok = need("hand".into(), k)
            && need("drawn".into(), k)
            && need("wild".into(), k)
            && need("task".into(), layout.tasks.len())
            && need("wall_left".into(), 1)
            && need("player_states".into(), layout.player_states.len())
            && need("table_states".into(), layout.table_states.len())
            && layout.reveals.iter().all(|r| need(format!("reveal.{r}"), k))
            && players_ok > 0
            && (0..players_ok).all(|r| {
                ["melds", "discards", "aside", "shown_hand"].iter().all(|p| need(format!("seat{r}.{p}"), k))
                    && need(format!("seat{r}.scalars"), 6)
            })
            && size == k + 1 + layout.actions.len() * k + extra;
        if !ok {
            return Err("the layout does not fit the rule set's catalog");
        }
        layout.seat_off = (0..players_ok)
            .map(|r| ["melds", "discards", "aside", "shown_hand", "scalars"].map(|p| off[&format!("seat{r}.{p}")]))
            .collect();
        layout.reveal_off = layout.reveals.iter().map(|r| off[&format!("reveal.{r}")]).collect();
        layout.at = ["hand", "drawn", "wild", "task", "wall_left", "player_states", "table_states"].map(|p| off[p]);
        layout.act_index =
            names.iter().map(|n| layout.actions.iter().position(|a| a == n).map_or(-1, |j| j as i64)).collect();
        Ok(layout)
    }

    /// A move's own slot (before overflow) over a catalog of `k_n` kinds: -1 for an action not in the layout.
    fn own(&self, k_n: usize, m: &Mv) -> i64 {
        if m.action == Act::DISCARD {
            m.tiles.first().map(|&k| k as i64).unwrap_or(-1)
        } else if m.action == Act::PASS {
            k_n as i64
        } else {
            match self.act_index.get(m.action.0 as usize) {
                None | Some(-1) => -1,
                Some(&j) => (k_n + 1 + j as usize * k_n + m.tiles.iter().copied().min().unwrap_or(0)) as i64,
            }
        }
    }

    /// env.py `Layout.actions_of` over a catalog of `k_n` kinds: per action slot, the index of the legal
    /// move it stands for (-1: none).
    pub(super) fn slots(&self, k_n: usize, moves: &[Mv], out: &mut [i32]) {
        let mut spill = self.size - self.extra;
        for (i, m) in moves.iter().enumerate() {
            let own = self.own(k_n, m);
            let a = if own < 0 || out[own as usize] >= 0 {
                if spill >= self.size {
                    continue;
                }
                spill += 1;
                spill - 1
            } else {
                own as usize
            };
            out[a] = i as i32;
        }
    }

    /// The action mask of `slots` (1 where a slot stands for a legal move) into `mask` (zeroed).
    pub(super) fn mask(&self, k_n: usize, moves: &[Mv], mask: &mut [u8]) {
        let mut spill = self.size - self.extra;
        for m in moves {
            let own = self.own(k_n, m);
            if own < 0 || mask[own as usize] != 0 {
                if spill < self.size {
                    mask[spill] = 1;
                    spill += 1;
                }
            } else {
                mask[own as usize] = 1;
            }
        }
    }

    /// The legal move action `action` stands for among `moves` (its index), None where it names none.
    pub(super) fn move_of(&self, k_n: usize, moves: &[Mv], action: i64) -> Option<usize> {
        if action < 0 || action as usize >= self.size {
            return None;
        }
        let a = action as usize;
        if a < self.size - self.extra {
            // an own slot: the first move whose own slot it is holds it (a later one spills; no spill
            // lands below `size - extra`)
            return moves.iter().position(|m| self.own(k_n, m) == action);
        }
        let mut slots = vec![-1i32; self.size];
        self.slots(k_n, moves, &mut slots);
        usize::try_from(slots[a]).ok()
    }
}
