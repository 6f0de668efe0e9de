"""What an efficiency bot (runtime/game/bots.py `EfficiencyBot`) learns while it plays, kept per rule set
and catalog: its memos are keyed by tile names (the Python policy) and by catalog indices (the native
policy, runtime/game/native_bot.py), and what it has concluded of a rule set holds for that rule set only,
so a bot reused across rule sets plays each as a fresh bot would."""
from __future__ import annotations

STATES = 8  # rule sets a bot keeps its state for; the oldest is dropped (that rule set starts afresh)


class RuleSetState:
    """One bot's state under one rule set and catalog: whether it plays for value (`gated`: a structurally
    ready hand had no winning waits, the rules want more than shape), its memo of winning waits ((hand
    shape, wait) by name -> the weight of a win on it) and the native policy, whose memo is by catalog
    index, once it chooses. The rule set and decomposer are held, so their ids are not reused meanwhile."""

    __slots__ = ("rs", "dec", "gated", "wins", "policy")

    def __init__(self, rs, dec):
        self.rs, self.dec = rs, dec
        self.gated = False
        self.wins: dict = {}
        self.policy = None


class RuleSetStates:
    """A bot's states, one per rule set and catalog (at most `STATES`), and the one it last used."""

    __slots__ = ("by_id", "last")

    def __init__(self):
        self.by_id: dict = {}  # (id(rule set), id(decomposer)) -> its RuleSetState
        self.last: RuleSetState | None = None

    def of(self, game) -> RuleSetState:
        """The state under the game's rule set and catalog, made at first use."""
        st = self.last
        if st is None or st.rs is not game.rs or st.dec is not game.dec:
            key = (id(game.rs), id(game.dec))
            st = self.by_id.get(key)
            if st is None or st.rs is not game.rs or st.dec is not game.dec:
                if len(self.by_id) >= STATES:
                    del self.by_id[next(iter(self.by_id))]
                st = self.by_id[key] = RuleSetState(game.rs, game.dec)
            self.last = st
        return st
