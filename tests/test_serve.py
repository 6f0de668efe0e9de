"""`paili serve`'s JSON API and pages through FastAPI's test client (dsl/serve/): every endpoint answers what
the library answers for the same question, every kind of bad request is a 4xx with one sentence, and the
OpenAPI schema is valid and names every endpoint. The browser test is tests/test_serve_browser.py."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT

pytest.importorskip("fastapi", reason="FastAPI is the optional extra `serve` (pip install -e '.[test]' has it)")
from fastapi.routing import APIRoute  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from paili.dsl.serve.app import create_app  # noqa: E402
from paili.dsl.serve.games import GameStore  # noqa: E402
from paili.runtime.game.log import lines as log_lines  # noqa: E402
from paili.runtime.game.session import Session  # noqa: E402

VARIANT = "baijindao"
# the seed's 碰碰和 (白金岛, 5.1: four pungs or kongs and a pair, 6 fans): two pungs laid down, two concealed,
# an honour pair — no other fan of the seed applies (no 2/5/8 or terminal pair, an honour in the hand)
PUNGS = {"hand": "666m 88m 东东", "melds": ["碰:222m", "碰:444m"], "win": "8m"}


@pytest.fixture(scope="module")
def app():
    return create_app([VARIANT])


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def work(app):
    """Run a function on the service's worker thread: the native core's objects belong to the thread that
    made them (and must be freed there), so what a test scores or plays beside the service is made there."""
    import gc

    def run(fn):
        def job():
            try:
                return fn()
            finally:
                gc.collect(1)

        return app.state.service.worker.submit(job).result()

    return run


@pytest.fixture(scope="module")
def rules(client, app):
    """The rule set the service scores with (freed with the service, on its worker)."""
    return app.state.service.library.get(VARIANT).rules


def test_variants_lists_the_served_rule_sets(client):
    r = client.get("/api/variants")
    assert r.status_code == 200
    assert r.json() == {"variants": [{"id": VARIANT, "variant": VARIANT, "title": "白金岛二人麻将",
                                      "page": f"/{VARIANT}.html"}]}


def test_describe_is_paili_describe_with_melds_and_tiles(client, rules, work):
    from paili.dsl.describe import describe_json

    got = client.get(f"/api/variants/{VARIANT}").json()
    want = work(lambda: describe_json(rules))
    for key in ("variant", "title", "patterns"):
        assert got[key] == want[key]
    assert [{k: v for k, v in c.items() if k in ("name", "type", "default")} for c in got["context"]] == \
        want["context"]
    # the seed's 64 tiles: 一万…九万, 东南西北, 中发白, four of each
    assert len(got["tiles"]) == 16 and {t["copies"] for t in got["tiles"]} == {4}
    assert {"name": "一万", "code": "1m"} == {k: got["tiles"][0][k] for k in ("name", "code")}
    assert {"name": "东", "code": "东"} == {k: got["tiles"][9][k] for k in ("name", "code")}
    # the melds a hand lays down (吃, 碰, the kongs), never the concealed groups or the pair
    assert {m["name"] for m in got["melds"]} == {"吃", "碰", "明杠", "暗杠", "补杠"}


def test_score_answers_what_rules_score_answers(client, rules, work):
    r = client.post(f"/api/variants/{VARIANT}/score", json=PUNGS)
    assert r.status_code == 200
    got = r.json()
    assert got == work(lambda: rules.score(PUNGS["hand"], PUNGS["melds"], PUNGS["win"]).to_json())
    assert got["win"] and [f["name"] for f in got["fans"]] == ["碰碰和"] and got["total"] == 6


def test_score_takes_self_drawn_and_context_values(client, rules, work):
    body = {**PUNGS, "self_drawn": True, "set": {"加倍次数": 3}}
    got = client.post(f"/api/variants/{VARIANT}/score", json=body).json()
    assert got == work(lambda: rules.score(PUNGS["hand"], PUNGS["melds"], PUNGS["win"], True,
                                           {"加倍次数": 3}).to_json())
    names = {f["name"] for f in got["fans"]}
    assert {"碰碰和", "自摸", "加倍三次"} <= names  # 5.1 加倍三次 (6), 5.10 自摸 (1)


def test_a_hand_that_does_not_win_says_why(client):
    got = client.post(f"/api/variants/{VARIANT}/score", json={"hand": "123m 456m 789m 东南西北中"}).json()
    assert got["win"] is False and got["reason"]


def test_waits(client, rules, work):
    body = {"hand": PUNGS["hand"], "melds": PUNGS["melds"]}
    r = client.post(f"/api/variants/{VARIANT}/waits", json=body)
    assert r.status_code == 200
    want = work(lambda: [{"tile": k.name, "code": k.code or k.char, **res.to_json()}
                         for k, res in rules.waits(body["hand"], body["melds"])])
    assert r.json() == {"waits": want}
    # a pung of either pair completes it; each tile with its notation
    assert [(w["tile"], w["code"]) for w in r.json()["waits"]] == [("八万", "8m"), ("东", "1z")]


def test_check_returns_diagnostics_with_positions(client):
    r = client.post("/api/check", content=b"variant x\n")
    assert r.status_code == 200
    got = r.json()
    assert got["ok"] is False and got["errors"] >= 1
    first = got["diagnostics"][0]
    assert first["code"].startswith("E") and first["line"] == 1 and first["col"] == 1
    assert "^" in first["text"] and first["severity"] == "error"


def test_check_a_bundled_rule_file_is_ok(client):
    text = (ROOT / "rules" / f"{VARIANT}.pai").read_text(encoding="utf-8")
    got = client.post("/api/check?examples=false", content=text.encode()).json()
    assert got["ok"] is True and got["errors"] == 0


def test_a_game_is_played_to_its_end_through_the_api(client):
    r = client.post("/api/games", json={"variant": VARIANT, "seed": 5})
    assert r.status_code == 201
    gid, state = r.json()["id"], r.json()
    assert state["players"] == 2 and state["over"] is False
    for _ in range(2000):
        if state["over"]:
            break
        seat = state["to_act"][0]
        seen = client.get(f"/api/games/{gid}", params={"seat": seat}).json()
        assert seen["seat"] == seat and seen["to_act"] == state["to_act"]
        assert len(seen["hand"]) == seen["seats"][seat]["hand_size"]
        r = client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": seen["moves"][0]})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["over"] is True
    result = state["result"]
    # the money moves between the two seats: what one pays, the other gets (less the table fee)
    assert sum(1 for _ in result["deltas"]) == 2
    assert client.delete(f"/api/games/{gid}").status_code == 200
    assert client.get(f"/api/games/{gid}").status_code == 404


def test_a_stale_or_illegal_move_is_refused_with_409(client):
    gid = client.post("/api/games", json={"variant": VARIANT, "seed": 1}).json()["id"]
    seen = client.get(f"/api/games/{gid}", params={"seat": 0}).json()
    move = seen["moves"][0]
    assert client.post(f"/api/games/{gid}/moves", json={"seat": 0, "move": move}).status_code == 200
    again = client.post(f"/api/games/{gid}/moves", json={"seat": 0, "move": move})
    assert again.status_code == 409 and "decision" in again.json()["error"]
    wrong = client.post(f"/api/games/{gid}/moves", json={"seat": 0, "move": {"action": "discard", "tiles": ["1m"]}})
    assert wrong.status_code == 409 and "seat 0 may not act now" in wrong.json()["error"]


def test_moves_and_views_carry_tile_codes_and_a_move_sent_back_with_them_is_played(client):
    """docs/engine.md, "Tile codes in results": the listed moves have `codes` beside `tiles`, the views
    `hand_codes`, `discards_codes`, …; a listed move sent back as it is (codes and all) is played, one whose
    codes are not its tiles' is refused with one sentence."""
    gid = client.post("/api/games", json={"variant": VARIANT, "seed": 1}).json()["id"]
    seen = client.get(f"/api/games/{gid}", params={"seat": 0}).json()
    code = {"一万": "1m", "九万": "9m", "东": "1z", "白": "5z"}
    assert all(seen["hand_codes"][i] == code[n] for i, n in enumerate(seen["hand"]) if n in code)
    assert len(seen["hand_codes"]) == len(seen["hand"]) and seen["drawn_code"] in (None, *seen["hand_codes"])
    move = next(m for m in seen["moves"] if m["action"] == "discard")
    assert move["codes"] == [seen["hand_codes"][seen["hand"].index(t)] for t in move["tiles"]]
    wrong = dict(move, codes=["9p"])
    r = client.post(f"/api/games/{gid}/moves", json={"seat": 0, "move": wrong})
    assert r.status_code == 422
    assert r.json()["error"] == f"a move's codes ['9p'] are not the codes of its tiles {move['tiles']!r}"
    assert client.post(f"/api/games/{gid}/moves", json={"seat": 0, "move": move}).status_code == 200
    after = client.get(f"/api/games/{gid}/onlooker").json()["seats"][0]
    assert (after["discards"], after["discards_codes"]) == (move["tiles"], move["codes"])


def _log(work, rules, seed: int, ready: bool = False) -> list[dict]:
    """The log lines of one hand the greedy bots play (as `paili simulate --log` writes them); `ready`:
    bots that declare 报听 whenever they may."""
    from paili.runtime.game.bots import GreedyBot

    class Ready(GreedyBot):
        def choose(self, game, seat, moves):
            return next((m for m in moves if m.action == "报听"), None) or super().choose(game, seat, moves)

    def run():
        s = Session(rules, {}, seed, 1)
        s.play([(Ready if ready else GreedyBot)(seed * 31 + i) for i in range(2)])
        return json.loads(json.dumps(log_lines(s, VARIANT), ensure_ascii=False))

    return work(run)


def _text(lines: list[dict]) -> bytes:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in lines).encode("utf-8")


def test_a_log_opens_as_one_step_per_move_with_the_onlookers_view(client, work, rules):
    lines = _log(work, rules, 4)
    r = client.post("/api/replays", content=_text(lines))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["rules"] == VARIANT and len(got["hands"]) == 1
    assert got["exhaust_word"] == "流局"  # the variant's word for a drawn hand (`table { exhaust_word }`)
    hand = got["hands"][0]
    moves = [d for d in lines if d["type"] == "move"]
    assert len(hand["steps"]) == len(moves) + 1  # the deal, then one per move
    assert [s["seat"] for s in hand["steps"][1:]] == [d["seat"] for d in moves]
    # each step's move as logged, the tiles' codes included (docs/engine.md, "Tile codes in results")
    assert [s["move"] for s in hand["steps"][1:]] == [{k: v for k, v in d["move"].items() if k != "decision"}
                                                      for d in moves]
    assert any(s["move"].get("codes") for s in hand["steps"][1:])
    assert hand["result"] == lines[-1]["result"]  # the payments as logged
    # money typed one way (docs/engine.md, "Money in JSON"): a 180-point win less the 1.25% fee
    assert hand["result"]["deltas"] == ["711/4", -180] and hand["result"]["deltas_exact"] == ["711/4", "-180"]
    assert hand["result"]["balances_exact"] == ["4711/4", "820"]
    assert [p["amount_exact"] for p in hand["result"]["payments"]] == ["180"]
    assert [s["balance_exact"] for s in hand["steps"][-1]["view"]["seats"]] == ["4711/4", "820"]
    deal = hand["steps"][0]["view"]
    # after the deal an onlooker sees how many tiles each holds (14 for the dealer, 13 for the other:
    # the seed's deal), never which
    assert sorted(s["hand_size"] for s in deal["seats"]) == [13, 14]
    assert all("hand" not in s and "drawn" not in s for s in deal["seats"])
    assert hand["steps"][-1]["view"]["over"] is True


def test_the_replay_shows_the_engines_onlooker_view_not_what_a_ready_player_sees(client, work, rules):
    """“只有听牌情况下才能看见对方手牌”: a player who declared 报听 sees the other hand, an onlooker (no seat,
    so never ready) does not. Every step of the replay is the engine's `onlooker_observation()`, and the
    game endpoint answers the same view."""
    from paili.runtime.game.moves import Move

    lines = _log(work, rules, 1, ready=True)
    hand = client.post("/api/replays", content=_text(lines)).json()["hands"][0]

    def views():
        g = Session(rules, {}, lines[0]["seed"], 1).new_hand()
        out, ready_sees = [], 0
        for d in lines:
            if d["type"] == "move":
                g.apply(d["seat"], Move.from_json(d["move"], g.tile_code))
            if d["type"] in ("hand", "move"):
                out.append(json.loads(json.dumps(g.onlooker_observation()["seats"])))
                ready_sees += any("hand" in g.observation(v)["seats"][1 - v] for v in range(2))
        return out, ready_sees

    engine, ready_sees = work(views)
    assert [s["view"]["seats"] for s in hand["steps"]] == engine
    assert ready_sees >= 1  # some steps where a ready player sees the other's hand …
    assert all("hand" not in d and "drawn" not in d for s in hand["steps"] for d in s["view"]["seats"])  # … not shown
    # the same view of a game played through the API
    gid = client.post("/api/games", json={"variant": VARIANT, "seed": 3}).json()["id"]
    got = client.get(f"/api/games/{gid}/onlooker")
    assert got.status_code == 200
    view = got.json()
    assert view["seat"] is None and "hand" not in view and "legal_moves" not in view
    assert sorted(d["hand_size"] for d in view["seats"]) == [13, 14] and all("hand" not in d for d in view["seats"])
    assert client.get("/api/games/nope/onlooker").status_code == 404


def test_a_tampered_log_is_refused_naming_its_line(client, work, rules):
    lines = _log(work, rules, 4)
    n = next(i for i, d in enumerate(lines) if d["type"] == "move" and d["move"]["action"] == "discard")
    lines[n] = {**lines[n], "move": {"action": "discard", "tiles": ["不是牌"]}}
    r = client.post("/api/replays", content=_text(lines))
    assert r.status_code == 422
    assert r.json()["error"].startswith(f"line {n + 1}: ")
    lines = _log(work, rules, 4)
    lines[-1] = {**lines[-1], "result": {**lines[-1]["result"], "balances": [0, 0]}}
    r = client.post("/api/replays", content=_text(lines))
    assert r.status_code == 422 and "different result" in r.json()["error"]


def test_a_log_with_too_many_moves_is_refused(client, work, rules, monkeypatch):
    import paili.dsl.serve.replay as replay

    monkeypatch.setattr(replay, "MAX_REPLAY_MOVES", 5)
    r = client.post("/api/replays", content=_text(_log(work, rules, 4)))
    assert r.status_code == 422 and "at most 5" in r.json()["error"]


BIG = 70_000
BAD = [
    # (what, method, path, keyword arguments of the request, status, words of the sentence)
    ("malformed JSON", "post", f"/api/variants/{VARIANT}/score", {"content": b'{"hand": '}, 400, "not JSON"),
    ("NaN", "post", f"/api/variants/{VARIANT}/score", {"content": b'{"set": {"x": NaN}}'}, 400, "NaN"),
    ("Infinity", "post", f"/api/variants/{VARIANT}/score", {"content": b'{"set": {"x": -Infinity}}'}, 400,
     "Infinity"),
    ("a huge number", "post", "/api/games", {"content": b'{"variant": "x", "seed": ' + b"9" * 400 + b"}"}, 400,
     "digits"),
    ("nested too deeply", "post", f"/api/variants/{VARIANT}/score", {"content": b"[" * 20000}, 400, "nested"),
    ("not UTF-8", "post", f"/api/variants/{VARIANT}/score", {"content": b'{"hand": "\xff"}'}, 400, "UTF-8"),
    ("not an object", "post", f"/api/variants/{VARIANT}/score", {"json": [1, 2]}, 422, "JSON object"),
    ("no body", "post", "/api/games", {}, 422, "JSON body"),
    ("wrong type", "post", f"/api/variants/{VARIANT}/score", {"json": {"hand": 5}}, 422, "`hand`"),
    ("a boolean as text", "post", f"/api/variants/{VARIANT}/score", {"json": {"self_drawn": "true"}}, 422,
     "`self_drawn`"),
    ("unknown key", "post", f"/api/variants/{VARIANT}/score", {"json": {"meld": ["碰:222m"]}}, 422,
     "unknown key `meld`"),
    ("a list as a context value", "post", f"/api/variants/{VARIANT}/score", {"json": {"set": {"庄家": [1]}}},
     422, "`set.庄家` must be"),
    ("unknown context name", "post", f"/api/variants/{VARIANT}/score", {"json": {"set": {"没有": 1}}}, 422,
     "unknown option or context name '没有'"),
    ("unknown variant", "post", "/api/variants/nope/score", {"json": {}}, 404, "no variant 'nope'"),
    ("bad hand", "post", f"/api/variants/{VARIANT}/score", {"json": {"hand": "123m 东x"}}, 422, "unknown tile"),
    ("five of a kind", "post", f"/api/variants/{VARIANT}/score", {"json": {"hand": "11111m"}}, 422,
     "only 4 exist"),
    ("too many melds", "post", f"/api/variants/{VARIANT}/waits", {"json": {"melds": ["碰:111m"] * 40}}, 422,
     "`melds`"),
    ("a bad meld", "post", f"/api/variants/{VARIANT}/score", {"json": {"melds": ["碰:123m"]}}, 422, "not a 碰"),
    ("oversize body", "post", f"/api/variants/{VARIANT}/score", {"content": b" " * BIG}, 413, "65,536 bytes"),
    ("oversize rule file", "post", "/api/check", {"content": b"#" * 1_000_001}, 413, "1,000,000 bytes"),
    ("a rule file not UTF-8", "post", "/api/check", {"content": b"variant \xff"}, 400, "UTF-8"),
    ("an empty log", "post", "/api/replays", {"content": b"\n\n"}, 422, "empty"),
    ("a log line not JSON", "post", "/api/replays", {"content": b"hello\n"}, 422, "line 1: not JSON"),
    ("a log of an unserved variant", "post", "/api/replays?rules=nope",
     {"content": b'{"type": "session"}\n'}, 422, "not served"),
    ("unknown game", "get", "/api/games/nope", {}, 404, "no game"),
    ("a seat that is not a number", "get", "/api/games/nope?seat=x", {}, 422, "`seat`"),
    ("an unknown room option", "post", "/api/games", {"json": {"variant": VARIANT, "options": {"没有的选项": 1}}},
     422, "没有的选项"),
    ("a negative seed", "post", "/api/games", {"json": {"variant": VARIANT, "seed": -1}}, 422, "`seed`"),
    ("a move that is not one", "post", "/api/games/nope/moves", {"json": {"seat": 0, "move": {"action": 1}}}, 422,
     "`move.action`"),
    ("unknown path", "get", "/api/nothing", {}, 404, "no page or endpoint"),
    ("unknown page", "get", "/nothing.html", {}, 404, "no page"),
    ("wrong method", "delete", "/api/variants", {}, 405, "does not take DELETE"),
]


@pytest.mark.parametrize("what,method,path,kw,status,words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_request_is_a_4xx_with_one_sentence(client, what, method, path, kw, status, words):
    r = getattr(client, method)(path, **kw)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert list(body) == ["error"] and isinstance(body["error"], str)
    assert words in body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"] and len(body["error"]) < 400


def test_an_illegal_seat_for_a_game_is_refused(client):
    gid = client.post("/api/games", json={"variant": VARIANT}).json()["id"]
    r = client.get(f"/api/games/{gid}", params={"seat": 5})
    assert r.status_code == 422 and r.json()["error"] == "seat 5 is not a seat of this game (seats 0 to 1)"


def test_the_openapi_schema_is_valid_and_names_every_endpoint(client):
    from openapi_spec_validator import validate

    spec = client.get("/openapi.json").json()
    validate(spec)
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    from paili.dsl.serve.api import router

    routes = {(r.path, m.lower()) for r in router.routes if isinstance(r, APIRoute) for m in r.methods}
    assert routes == documented
    assert {p for p, _ in documented} == {
        "/api/variants", "/api/variants/{variant}", "/api/variants/{variant}/tiles",
        "/api/variants/{variant}/score", "/api/variants/{variant}/waits", "/api/check", "/api/games",
        "/api/games/{game_id}", "/api/games/{game_id}/moves", "/api/games/{game_id}/onlooker", "/api/replays"}
    # the request bodies and the error answer are described
    score = spec["paths"]["/api/variants/{variant}/score"]["post"]
    assert "application/json" in score["requestBody"]["content"]
    assert "text/plain" in spec["paths"]["/api/check"]["post"]["requestBody"]["content"]
    assert spec["components"]["schemas"]["Error"]["required"] == ["error"]
    assert "422" in score["responses"] and "413" in score["responses"]
    # the twin keys' exact amounts (docs/engine.md, "Money in JSON")
    exact = spec["components"]["schemas"]["ExactAmount"]
    assert exact["type"] == "string" and exact["pattern"] == r"^-?[0-9]+(/[0-9]+)?$"
    assert "amount_exact" in exact["description"] and "ExactAmount" in spec["info"]["description"]
    # a move sent back may carry its tiles' codes, and the description says where codes stand
    move = spec["components"]["schemas"]["MoveBody"]["properties"]
    assert "codes" in move and "tiles" in move
    assert "`hand_codes`" in spec["info"]["description"] and "`tile_code`" in spec["info"]["description"]


def test_the_pages_are_served_with_a_calculator_on_the_players_page(client, rules, work):
    page = client.get(f"/{VARIANT}.html")
    assert page.status_code == 200 and 'id="calculator"' in page.text
    # a palette button for each tile kind of the rule set, writing it as the notation does (its character
    # where it has one, else its code)
    for k in work(lambda: rules.catalog.kinds):
        assert f'data-tile="{k.name}" data-code="{k.char or k.code}"' in page.text
    assert "/static/calculator.js" in page.text
    assert '"win_words": {"drawn": "胡", "claimed": "胡"}' in page.text  # 白金岛's word for a win
    index = client.get("/").text
    assert 'href="/replay.html"' in index and f'href="{VARIANT}.html"' in index
    assert 'id="replay-form"' in client.get("/replay.html").text
    assert client.get("/static/calculator.js").status_code == 200
    assert client.get(f"/{VARIANT}-design.html").status_code == 200
    assert client.get("/language.html").status_code == 200
    # the static pages `paili docs` writes have no calculator: they work without the service
    assert 'id="calculator"' not in (ROOT / "generated_docs" / f"{VARIANT}.html").read_text(encoding="utf-8")


def test_every_bundled_variant_is_described_and_gets_its_calculator():
    """The service with its default rule sets (every bundled rule file): each is described, and its player's
    page carries the calculator with one input for each option and context value the rule set declares."""
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        listed = c.get("/api/variants").json()["variants"]
        assert sorted(v["id"] for v in listed) == sorted(p.stem for p in (ROOT / "rules").glob("*.pai"))
        for v in listed:
            about = c.get(f"/api/variants/{v['id']}")
            assert about.status_code == 200, about.text
            page = c.get(v["page"])
            assert page.status_code == 200, page.text
            for s in about.json()["options"] + about.json()["context"]:
                assert f'data-set="{s["name"]}"' in page.text


def test_the_game_store_is_bounded_in_count_and_lifetime():
    now = [0.0]
    store = GameStore(limit=2, idle=60, clock=lambda: now[0])
    a = store.add(object(), "v")
    b = store.add(object(), "v")
    store.get(a)  # a was used last: b is the one unused longest
    c = store.add(object(), "v")
    assert store.get(b) is None and store.get(a) is not None and store.get(c) is not None
    now[0] = 61
    assert store.get(a) is None and store.get(c) is None and store.games == {}


def test_the_calculator_calls_a_win_by_the_variants_own_word():
    """The calculator's verdict is the winning action's name for how the tile came (dsl/serve/pages.py
    `win_words`): 国标 自摸和 / 点和, 风雷白城 自摸 / 胡, 扯胡子 胡 either way; the page's data carries them."""
    from paili import load
    from paili.dsl.serve.pages import win_words

    assert {v: win_words(load(v).ir) for v in ("guobiao", "baicheng", "chehuzi", "longyan")} == {
        "guobiao": {"drawn": "自摸和", "claimed": "点和"}, "baicheng": {"drawn": "自摸", "claimed": "胡"},
        "chehuzi": {"drawn": "胡", "claimed": "胡"}, "longyan": {"drawn": "自摸", "claimed": "抢杠胡"}}
