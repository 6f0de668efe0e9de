"""What `Game.clone()` costs: a 龙岩 hand (4 players) played by seeded mixed bots up to move 87 (the first
seed whose hand lasts that long), then cloned 20 times; prints the best CPU time.

    python bench/clone_speed.py
"""
import time

import paili
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS

r = load("longyan")
for seed in range(1, 200):
    g = Game(r, {"人数": 4}, seed)
    b = [BOTS["mixed"](seed * 31 + i) for i in range(g.n)]
    while not g.is_over() and len(g.moves) < 87:
        s = g.current_seats()[0]
        g.apply(s, b[s].choose(g, s, g.legal_moves(s)))
    if len(g.moves) == 87 and not g.is_over():
        break
best = min(
    (lambda t0: (g.clone(), time.process_time() - t0)[1])(time.process_time()) for _ in range(20))
print(f"{paili.__file__}: seed {seed}, {len(g.moves)} moves: clone {best * 1000:.2f} ms CPU (best of 20)")
