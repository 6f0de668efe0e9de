import sys
sys.path.insert(0, "/work/wt/gevents/tests")
from test_engine_native_events import _rules, EVERYTHING, _play
chk, games = _play(_rules(EVERYTHING), {}, range(3))
for g in games:
    print([str(s.balance) for s in g.st.seats], len(g.st.payments), [(p.name, p.payer, p.payee, str(p.amount)) for p in g.st.payments][:8], g.st.dealer)
