//! The game engine, natively (issue 17): the same IR game declarations executed with the same seeded
//! randomness as the Python engine (runtime/game/), which stays the reference. Ported so far: Python's
//! generator (rng.rs), the hand's state (state.rs), the game records of the rule set (rules.rs), a rule
//! set under room options (table.rs), the setup up to the hand's first event (setup.rs), a state read
//! from the reference's snapshot (snapshot.rs), and game-scope expressions lowered (scope.rs) and
//! evaluated on a state (values.rs); docs/engine-native.md gives the port order of the rest. The Python
//! surface: `EngineRandom` (random_binding.rs: the generator, for the tests that prove it equal to
//! `random.Random`), `EngineTable` (table_binding.rs: hands set up from one rule set, a snapshot read
//! back, game-scope expressions evaluated on one), the arguments they take as `Game` takes them (args.rs),
//! and the classes registered below.

#![allow(dead_code)] // the state's fields and records the later steps of the port read (docs/engine-native.md)

pub mod args; // the arguments taken from Python as `Game` takes them
pub mod random_binding; // `EngineRandom`
pub mod table_binding; // `EngineTable`
pub mod bot_binding;
pub mod bot_play;
pub mod bots;
pub mod distance;
// step 3: events and settlement (event_rules.rs, events.rs, settle.rs; their Python surface event_binding.rs)
pub mod event_binding;
pub mod event_rules;
pub mod counts; // the hand's event counts, by index for the names a rule set knows
pub mod effects; // the effects of hooks and actions on the state
pub mod events;
pub mod settle;
pub mod rng;
pub mod rules;
pub mod scope;
pub mod setup;
pub mod snapshot;
pub mod state;
pub mod table;
pub mod values;
pub mod winning;

// the legal moves (step 6, docs/engine-native.md)
pub mod offer_binding;
pub mod offer_choices;
pub mod decision;
pub mod offer_decisions;
pub mod offer_melds;
pub mod offer_restricts; // `restrict` at a decision: the restrictions naming an action, found once
pub mod offer_rules;
pub mod offer_wins;
pub mod kept; // conditions not asked again where their answer is known
pub mod guard; // conditions decided from their bindings' flags and seats before an evaluation
pub mod moving; // a reveal's `moves_when` kept while what it reads is unchanged
pub mod moves; // a move by its action's id, its tiles in place
pub mod offers;

// the hand played natively: its continuation (step 4) and its course (step 7)
pub mod claims;
pub mod course;
pub mod ending;
pub mod hand_binding;
pub mod env_arrays; // the learning environment's arrays written, the action's move found
pub mod env_layout; // the learning environment's layout: the vector's parts, the action slots
pub mod observe; // a seat's observation and the learning environment's arrays, natively
pub mod opening;
pub mod bound;
pub mod steps;
pub mod continuation; // the continuation as the reference's JSON
pub mod turn;
pub mod turn_card;
pub mod window;
pub mod win;
pub mod simulate; // whole hands played natively by native bots (`EngineSim`)

use pyo3::prelude::*;

pub(crate) use args::{carried_values, notation_text, options_of, seed_words};

/// `f` with the whole-hand scoring's programs and tables where the win questions have them.
pub(super) fn with_hand<T>(py: Python<'_>, w: &winning::Winning, f: impl FnOnce(Option<(Python<'_>, &crate::hand::HandCtx)>) -> T) -> T {
    match &w.scoring {
        Some(s) => {
            let hands = s.hands.bind(py).borrow();
            hands.with_ctx(py, |ctx| f(Some((py, ctx))))
        }
        None => f(None),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<random_binding::EngineRandom>()?;
    m.add_class::<table_binding::EngineTable>()?;
    m.add_class::<simulate::EngineSim>()?;
    m.add_class::<distance::DistanceTables>()?;
    m.add_class::<bot_binding::EfficiencyRules>()?;
    m.add_class::<bot_binding::EfficiencyPolicy>()?;
    m.add_class::<bot_binding::MixedState>()?;
    m.add_class::<offer_binding::EngineOffers>()?; // the legal moves (step 6)
    m.add_class::<event_binding::EngineEvents>()?; // step 3
    m.add_class::<hand_binding::EngineHand>()?; // steps 4 and 7
    m.add_class::<observe::EngineObserver>()?;
    Ok(())
}
