"""`paili serve` end to end: the command started as a user starts it (a subprocess on a free port), driven by
headless Chromium as tests/test_pages_browser.py drives it (conftest.py's `browser`: Debian's Chromium,
only a CJK font). The
calculator scores a hand clicked tile by tile, the replay viewer opens a log `paili simulate --log` wrote
and steps through it to its last move, and a malformed request — from the page's own script and from the
calculator — is answered 4xx with one sentence. Screenshots go where the pages' screenshots go."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("fastapi", reason="FastAPI is the optional extra `serve` (pip install -e '.[test]' has it)")
pytest.importorskip("uvicorn", reason="uvicorn is the optional extra `serve` (pip install -e '.[test]' has it)")

VARIANT = "baijindao"
NAMED = "guobiao"  # names its seats (`table { seat_names }`: 东家, 南家, 西家, 北家 from the dealer)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def quarter(tmp_path_factory):
    """A rule file whose score is a quarter of its fans (tests/rules/dingque.pai with `score = 番 / 4`): a
    1-fan hand scores 1/4, an amount the plain `score` key gives only as a float."""
    from conftest import ROOT

    text = (ROOT / "tests/rules/dingque.pai").read_text(encoding="utf-8")
    assert "\nscore = 番\n" in text
    f = tmp_path_factory.mktemp("quarter") / "quarter.pai"
    f.write_text(text.replace("\nscore = 番\n", "\nscore = 番 / 4\n"), encoding="utf-8")
    return f


@pytest.fixture(scope="module")
def server(tmp_path_factory, quarter):
    port = _free_port()
    cwd = tmp_path_factory.mktemp("serve")
    proc = subprocess.Popen([sys.executable, "-m", "paili", "serve", VARIANT, str(quarter), NAMED, "--port", str(port)],
                            cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # until it answers (it compiles the rule file first); not a speed check
            if proc.poll() is not None:
                raise AssertionError(f"paili serve exited: {proc.stdout.read()}")
            try:
                with urllib.request.urlopen(url + "/api/variants", timeout=5):
                    break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert list(cwd.iterdir()) == []  # the service writes nothing


def _page(browser, width=1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    return page


def _opened(browser, server: str, log):
    """The replay viewer with `log` opened."""
    page = _page(browser)
    page.goto(f"{server}/replay.html")
    page.set_input_files("#replay-file", str(log))
    page.wait_for_function("document.getElementById('replay-text').value.length > 0")
    page.click("#replay-open")
    page.wait_for_selector("#replay-view:not([hidden])")
    return page


def _click(page, name: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f'#calc-palette button[data-tile="{name}"]')


def test_the_calculator_scores_a_hand_clicked_tile_by_tile(server, browser, shots):
    page = _page(browser)
    page.goto(f"{server}/{VARIANT}.html")
    # the seed's 碰碰和 (5.1, 6 fans): 六万 and 八万 concealed, 东 the pair, 二万 and 四万 laid down as 碰,
    # won on 八万 from the other player — no other fan of the seed applies
    _click(page, "六万", 3)
    _click(page, "八万", 2)
    _click(page, "东", 2)
    assert page.input_value("#calc-hand") == "6m 6m 6m 8m 8m 东 东"
    assert page.locator("#calc-hand-tiles .tile").count() == 7
    page.check('input[name="calc-target"][value="meld"]')
    for tile in ("二万", "四万"):
        page.select_option("#calc-meld-kind", "碰")
        page.click("#calc-add-meld")
        _click(page, tile, 3)
    page.check('input[name="calc-target"][value="win"]')
    _click(page, "八万")
    page.click("#calc-go")
    page.wait_for_selector("#calc-result .calc-score")
    assert page.inner_text("#calc-result .calc-verdict") == "胡"  # the variant's word for a win
    rows = [r.split("\t") for r in page.locator("#calc-result table.calc-fans tbody tr").all_inner_texts()]
    assert rows == [["碰碰和", "6", "1"]]
    assert page.inner_text("#calc-result .calc-total") == "6"
    assert "碰[二万二万二万]" in page.inner_text("#calc-result .calc-reading")
    page.locator("#calculator").screenshot(path=str(shots / "serve-calculator-desktop.png"))
    assert page.errors == []
    # the same panel fits a phone
    phone = _page(browser, 390)
    phone.goto(f"{server}/{VARIANT}.html")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator("#calculator").screenshot(path=str(shots / "serve-calculator-phone.png"))


def test_the_calculator_shows_the_exact_score(server, browser, shots):
    """docs/engine.md, "Money in JSON": the calculator shows `score_exact` exactly (1/4 as 0.25), and the
    shown amounts follow `paili play`'s: a decimal when the amount has a finite one, never rounded, else the
    fraction; the fan's value and the total from their exact twins too."""
    page = _page(browser)
    page.goto(f"{server}/quarter.html")
    page.fill("#calc-hand", "123m 456m 789m 123s 5s")
    page.fill("#calc-win", "5s")
    page.click("#calc-go")
    page.wait_for_selector("#calc-result .calc-score")
    # tests/rules/dingque.pai wins a discard by 胡 and a drawn tile by 自摸
    assert page.inner_text("#calc-result .calc-verdict") == "胡"
    assert page.inner_text("#calc-result .calc-score") == "0.25"
    shown = page.evaluate("""() => ["-3", "0", "237/80", "-237/80", "16079/16", "1/3", "-7/6", "1/1000000",
                                     "123456789012345678901/20"].map(window.pailiAmount)""")
    assert shown == ["-3", "0", "2.9625", "-2.9625", "1004.9375", "1/3", "-7/6", "0.000001",
                     "6172839450617283945.05"]
    from paili.runtime.game.play import amount

    assert shown == [amount(x) for x in ["-3", "0", "237/80", "-237/80", "16079/16", "1/3", "-7/6", "1/1000000",
                                         "123456789012345678901/20"]]  # as the terminal shows them
    assert page.inner_text("#calc-result .calc-total") == "1"
    rows = [r.split("\t") for r in page.locator("#calc-result table.calc-fans tbody tr").all_inner_texts()]
    assert rows == [["平和", "1", "1"]]
    page.check("#calc-self-drawn")
    page.click("#calc-go")
    page.wait_for_function("document.querySelector('#calc-result .calc-verdict')?.innerText === '自摸'")
    page.uncheck("#calc-self-drawn")
    # the waits list the same exact score for the one winning tile of the hand without it
    page.fill("#calc-win", "")
    page.click("#calc-waits")
    page.wait_for_selector("#calc-result .calc-waits li")
    waits = page.locator("#calc-result .calc-waits li")
    assert waits.count() == 1 and waits.locator(".tile").get_attribute("data-tile") == "5条"
    assert waits.locator("span").last.inner_text().strip() == "得分 0.25"
    page.locator("#calculator").screenshot(path=str(shots / "serve-calculator-exact.png"))
    assert page.errors == []


def test_the_replay_viewer_steps_a_logged_game_to_its_last_move(server, browser, shots, tmp_path):
    from paili.runtime.game.play import amount

    subprocess.run([sys.executable, "-m", "paili", "simulate", VARIANT, "--games", "1", "--seed", "4", "--bots",
                    "greedy", "--log", str(tmp_path)], check=True, capture_output=True, cwd=tmp_path)
    log = next(tmp_path.glob("*.jsonl"))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    moves = sum(d["type"] == "move" for d in lines)
    result = lines[-1]["result"]
    page = _opened(browser, server, log)
    assert page.inner_text("#replay-pos") == f"第 0 / {moves} 步"
    # an onlooker sees how many tiles each holds after the deal, not which
    assert page.locator(".replay-seat").count() == 2 and page.locator(".replay-backs").count() == 2
    steps = 0
    while page.is_enabled("#replay-next"):
        page.click("#replay-next")
        steps += 1
    assert steps == moves and page.inner_text("#replay-pos") == f"第 {moves} / {moves} 步"
    text = page.inner_text("#replay-result")
    assert "结算" in text
    # the winner, and the win called by the variant's own word (白金岛: 胡), its fans from their exact values
    for w, sc in result["scores"].items():
        assert f"赢家：座位 {w}" in text and f"座位 {w}：{sc['action']} {sc['tile']}" in text
        assert "　".join(f"{f['name']} {amount(f['value_exact'])}" + (f"×{f['count']}" if f["count"] > 1 else "")
                        for f in sc["fans"]) in text
    assert "和牌" not in text
    for p in result["payments"]:  # the logged payments, each with its payer, payee and amount
        assert f"{p['name']}\t座位 {p['payer']}\t座位 {p['payee']}\t{p['amount']}" in text
    # the balances from the exact amounts (`balances_exact`), shown exactly as `paili play` shows them
    shown = [amount(v) for v in result["balances_exact"]]
    assert "余额：" + "，".join(f"座位 {i} {b}" for i, b in enumerate(shown)) in text
    page.screenshot(path=str(shots / "serve-replay-end.png"), full_page=True)
    assert page.errors == []


def test_the_replay_viewer_calls_the_seats_by_the_names_the_rules_give(server, browser, tmp_path):
    """国标 names its seats by their winds from the dealer (the onlooker view's `name`): the viewer's seat
    headings, the move line, who is to act, the winners and the payments say 东家 …, never 座位 N."""
    from paili import load
    from paili.runtime.game import Game

    subprocess.run([sys.executable, "-m", "paili", "simulate", NAMED, "--games", "1", "--seed", "4", "--bots",
                    "greedy", "--log", str(tmp_path)], check=True, capture_output=True, cwd=tmp_path)
    log = next(tmp_path.glob("*.jsonl"))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    hand = next(d for d in lines if d["type"] == "hand")
    names = Game(load(NAMED), lines[0]["options"], hand["seed"], dealer=hand["dealer"]).seat_names()
    assert names[hand["dealer"]] == "东家" and sorted(names) == sorted(["东家", "南家", "西家", "北家"])
    page = _opened(browser, server, log)
    heads = [page.locator(".replay-seat h3").nth(i).locator("span").first.inner_text() for i in range(4)]
    assert heads == names
    assert page.inner_text("#replay-info").endswith("待行动：" + names[hand["dealer"]])
    page.click("#replay-next")
    assert page.inner_text("#replay-move").startswith(names[hand["dealer"]] + "：")
    page.click("#replay-last")
    text = page.inner_text("#replay-result")
    result = lines[-1]["result"]
    for w in result["winners"]:
        assert names[w] in text.split("赢家：", 1)[1].split("\n", 1)[0]
    for p in result["payments"]:
        assert f"{p['name']}\t{names[p['payer']]}\t{names[p['payee']]}\t" in text
    assert "余额：" + names[0] + " " in text
    assert "座位 " not in page.inner_text("#replay-view")
    assert page.errors == []


@pytest.mark.parametrize("path", [f"/{VARIANT}.html", "/quarter.html", "/replay.html", "/"])
def test_the_served_pages_pass_the_pages_checks_at_both_widths(server, browser, shots, path, tmp_path):
    """The pages as served (a player's page with its calculator, the replay viewer with a game open, the
    index), at desktop and phone width, pass tests/test_pages_browser.py's checks: no overflow, every tile
    an SVG face, no tile typed as a glyph, every character of the text and of the faces with a real glyph."""
    from test_pages_browser import PROBE, WIDTHS

    log = None
    if path == "/replay.html":
        subprocess.run([sys.executable, "-m", "paili", "simulate", VARIANT, "--games", "1", "--seed", "4", "--bots",
                        "greedy", "--log", str(tmp_path)], check=True, capture_output=True, cwd=tmp_path)
        log = next(tmp_path.glob("*.jsonl"))
    for label, width in WIDTHS.items():
        page = _page(browser, width)
        page.goto(server + path)
        if log is not None:  # a game open, at its end: every seat's tiles and the payments shown
            page.set_input_files("#replay-file", str(log))
            page.wait_for_function("document.getElementById('replay-text').value.length > 0")
            page.click("#replay-open")
            page.wait_for_selector("#replay-view:not([hidden])")
            page.click("#replay-last") if page.locator("#replay-last").count() else None
        probe = page.evaluate(PROBE)
        name = path.strip("/").replace(".html", "") or "index"
        height = min(2400, page.evaluate("document.documentElement.scrollHeight"))
        page.screenshot(path=str(shots / f"serve-{name}-{label}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": height})
        where = f"{path} at {width}px"
        assert page.errors == [], f"{where}: {page.errors}"
        assert probe["width"] <= width, f"{where}: the page is {probe['width']}px wide (it overflows)"
        assert not probe["bad"], f"{where}: tiles not drawn as faces: {probe['bad'][:5]}"
        assert not probe["glyphText"], f"{where}: tile glyphs typed as text: {probe['glyphText'][:5]}"
        assert not probe["chars"], f"{where}: characters of the tile faces have no glyph: {probe['chars'][:5]}"
        assert not probe["textBoxes"], f"{where}: characters of the text have no glyph: {probe['textBoxes'][:8]}"
        assert not probe["narrow"], f"{where}: table cells a character wide: {probe['narrow'][:5]}"
        if path != "/":
            assert probe["tiles"] > 0, f"{where}: no tiles"
        page.close()


def test_a_malformed_request_is_answered_4xx_with_one_sentence(server, browser):
    page = _page(browser)
    page.goto(f"{server}/{VARIANT}.html")
    got = page.evaluate("""async () => {
      const r = await fetch('/api/variants/baijindao/score', {method: 'POST', body: '{"hand": '});
      return [r.status, await r.json()];
    }""")
    assert got[0] == 400 and list(got[1]) == ["error"] and "not JSON" in got[1]["error"]
    # a hand the rules refuse, typed into the calculator: its sentence is shown, no result
    page.fill("#calc-hand", "1m 1m 1m 1m 1m")
    page.click("#calc-go")
    page.wait_for_selector("#calc-error:not([hidden])")
    assert page.inner_text("#calc-error") == "无法计算：the hand uses 5 of 一万 but only 4 exist"
    assert page.locator("#calc-result *").count() == 0
    # the console logs the two refused requests, and nothing else
    assert len(page.errors) == 2 and all("status of 400" in e or "status of 422" in e for e in page.errors)
