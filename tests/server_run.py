"""What a game server does with a compiled rule set: load it, score every example the file writes, play
a few moves (tests/test_bundled_rules.py runs it with and without the compiler in the process). Standard
library and the runtime only."""
from paili.runtime.examples import check_all, score_example
from paili.runtime.game import Game
from paili.runtime.game.flow import unsupported


def run(rules):
    outcomes = check_all(rules)
    bad = [o.where + ': ' + o.message for o in outcomes if not o.ok]
    examples = [x for p in rules.ir.patterns for x in p.examples] + list(rules.ir.examples)
    scores = [score_example(rules, x).to_json() for x in examples]
    moves = []
    if not unsupported(rules.ir):
        g = Game(rules, seed=7)
        for _ in range(40):
            seats = g.current_seats()
            if not seats:
                break
            m = g.legal_moves(seats[0])[0]
            moves.append([seats[0], str(m)])
            g.apply(seats[0], m)
    return {"examples": len(outcomes), "failed": bad, "scores": scores, "moves": moves}
