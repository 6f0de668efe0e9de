//! What `Winning::on` works out from a state's context and reveal values alone, kept for the next state
//! with the same values (the scoring environments and wildcards rarely change within a hand, and working
//! them out was a sixth of a native hand's time).

use super::{settings_of, wild, HandCtx, HandState, Python, Table, Value, Winning, V};

/// What `on` works out from a state's context and reveal values alone (and the scoring handed over).
pub(super) struct OnValues {
    pub(super) context: Vec<(String, Value)>,
    pub(super) reveals: Vec<(String, Value)>,
    pub(super) hand: usize, // the scoring's settings it was made with (their address), 0: none
    /// The values id (`HandState::values_id`) of a state last seen holding these values: a state with
    /// that id holds them, unchanged (set anew when another state is found equal).
    pub(super) values_id: std::sync::atomic::AtomicU64,
    pub(super) settings: Result<Vec<Option<V>>, &'static str>,
    pub(super) hand_settings: Result<Vec<Option<V>>, &'static str>,
    pub(super) env_json: Option<String>,
    pub(super) wild_kinds: Vec<(Option<usize>, bool)>,
    pub(super) hand_wild: Vec<bool>,
    pub(super) standin_kinds: Vec<Option<usize>>, // the stand-ins' kinds, by catalog index
    /// Which of the `OnValues` worked out this is (what a seat's kept answers are keyed by).
    pub(super) generation: u64,
    /// What the exact shortcuts read of the tables and the free kinds (None: no tables to read), worked
    /// out on the first state that asks (winning/shortcut.rs).
    pub(super) mend: std::sync::OnceLock<Option<std::sync::Arc<super::shortcut::MendShape>>>,
    /// What the blocks' reading of a wait question reads of the tables and the free kinds (winning/refute.rs).
    pub(super) places: super::refute::KeptPlaces,
}

impl Winning {
    /// `on`'s values of a state's context and reveal values: the scoring environments (the table's
    /// settings, the state's values over them), the environment the signature search rebuilds, each
    /// wildcard declaration's kind (named, or its reveal's tile; none while not turned) and whether it is
    /// wild as the winning tile only, the kinds wild in a hand.
    pub(super) fn on_values(&self, t: &Table, st: &HandState, hand: Option<(Python<'_>, &HandCtx<'_>)>, hand_key: usize) -> OnValues {
        let settings = match &self.trials {
            Ok(tr) => settings_of(t, st, &tr.program.settings),
            Err(_) => Err("no wait trials"),
        };
        let hand_settings = match hand {
            Some((_, ctx)) => settings_of(t, st, &ctx.program.settings),
            None => Err("no native scoring of whole hands"),
        };
        let kind_named = |name: &str| t.names.iter().position(|n| n == name);
        let wild_kinds = t
            .rules
            .wilds
            .iter()
            .map(|(tiles, scope)| {
                let kind = kind_named(tiles).or_else(|| match crate::engine::state::get(&st.reveals, tiles) {
                    Some(Value::Tile(i)) if *i < t.names.len() => Some(*i),
                    _ => None,
                });
                (kind, scope == "win_tile")
            })
            .collect();
        OnValues {
            context: st.context.clone(),
            reveals: st.reveals.clone(),
            hand: hand_key,
            values_id: std::sync::atomic::AtomicU64::new(st.values_id),
            settings,
            hand_settings,
            env_json: if self.wild.is_some() { wild::env_json(st) } else { None },
            wild_kinds,
            hand_wild: crate::engine::values::hand_wilds(t, st),
            standin_kinds: self.standins.iter().map(|n| t.names.iter().position(|x| x == n)).collect(),
            generation: self.generations.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            mend: std::sync::OnceLock::new(),
            places: std::sync::OnceLock::new(),
        }
    }
}
