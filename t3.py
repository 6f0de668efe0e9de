import sys
sys.path.insert(0, "/work/wt/gevents/tests")
from test_engine_native_events import _rules, EVERYTHING, _play
chk, games = _play(_rules(EVERYTHING + 'cap balance { doc "x" }\n'), {}, range(12), balances=[100]*4)
print({w[:90] for w in chk.tally.refused})
