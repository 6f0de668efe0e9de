"""The Chinese help pages (`paili docs`): generated from the rule files, checked against the seeds.

- Every fan / 名堂 / 牌型 of each seed, with its value, is on that variant's page; the names and values
  are read from the seed text itself, not listed here.
- The seeds' key numbers (tile counts, hand sizes, the doubling table, score formulas, payments) appear.
- Examples on the pages are computed by the runtime while the pages are generated.
- `paili docs --check` passes on the committed generated_docs/ and names a page that was modified.
- The HTML pages in a real browser: tests/test_pages_browser.py.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, RULES, SEEDS
from paili.dsl import cli
from paili.dsl.pages import site

SEED_OF = {"baijindao": "000_a458ac2558942afe.txt", "chehuzi": "001_6853749061b3e1b4.txt",
           "baicheng": "003_1e3c70aff3ac880a.txt", "longyan": "004_b433142e63c93c06.txt"}
DOCS = ROOT / "generated_docs"
RULES_BY_STEM = {Path(p).stem: Path(p) for p in RULES}
LANGUAGE = ROOT / "docs" / "language.md"


# ---------------------------------------------------------------------- helpers


@pytest.fixture(scope="session")
def pages() -> dict[str, str]:
    out = site.render_site(RULES, LANGUAGE, ROOT)
    return out


def seed(stem: str) -> str:
    path = SEEDS / SEED_OF[stem]
    if not path.exists():
        pytest.skip(f"seed {path} is not available")
    return path.read_text(encoding="utf-8").replace("<br />", "\n")


CN = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def cn_int(s: str) -> int:
    """Chinese numerals up to 99: 六, 十二, 二十四, 八十八."""
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return (CN[tens] if tens else 1) * 10 + (CN[ones] if ones else 0)
    return CN[s]


def line_with(page: str, *parts: str) -> str | None:
    """The first line of the page holding every part (numbers not glued to other digits)."""
    pats = [re.compile(r"(?<![\d.])" + re.escape(p) if p[:1].isdigit() or p[:1] in "+×" else re.escape(p))
            for p in parts]
    for line in page.splitlines():
        if all(p.search(line) for p in pats):
            return line
    return None


def md_table(page: str, heading: str) -> list[list[str]]:
    """The rows (cells) of the first Markdown table after `### heading`."""
    lines = page.splitlines()
    i = lines.index(f"### {heading}")
    rows = []
    for line in lines[i + 1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-:") for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


# ---------------------------------------------------------------------- names and values from the seeds


def baijindao_fans(text: str) -> list[tuple[str, int]]:
    """`1）碰碰和：…` under `5.1 六番牌型` …, and under `5.10其他番种` the `一番` / `二番` / `四番` lists."""
    out, value = [], None
    for raw in text.splitlines():
        line = raw.strip()
        m = re.match(r"^5\.\d+\.?\s*(\S+?)番牌型", line)
        if m:
            value = cn_int(m.group(1))
            continue
        if re.match(r"^5\.10", line):
            value = None
            continue
        m = re.match(r"^(\S{1,3})番$", line)
        if m and all(c in CN or c == "十" for c in m.group(1)):
            value = cn_int(m.group(1))
            continue
        if line.startswith(("六、", "★")):
            value = None
        m = re.match(r"^\d+）\s*([^：:]+)[：:]", line)
        if m and value is not None:
            out.append((m.group(1).strip(), value))
    return out


def test_seed_parsers_are_not_vacuous():
    fans = baijindao_fans(seed("baijindao"))
    assert len(fans) >= 60 and ("碰碰和", 6) in fans and ("加倍八次", 16) in fans and ("全带幺", 4) in fans


def test_baijindao_every_fan_with_its_value(pages):
    md = pages["baijindao.md"]
    missing = [f"{n} {v}番" for n, v in baijindao_fans(seed("baijindao")) if not line_with(md, n, f"{v}番")]
    assert not missing, "fans not on the page with their value: " + ", ".join(missing)


def test_baijindao_doubling_table(pages):
    """加倍一次：底番+2番，赢×2倍 … 加倍八次：底番+16番，赢×256倍 — one table row each."""
    md = pages["baijindao.md"]
    rows = re.findall(r"(加倍\S次)：底番\+(\d+)番，赢×(\d+)倍", seed("baijindao"))
    assert len(rows) == 8
    bad = [r for r in rows if not line_with(md, "| ", r[0], f"+{r[1]}番", f"×{r[2]}")]
    assert not bad, f"doubling rows missing: {bad}"


def test_baijindao_key_numbers(pages):
    text = seed("baijindao")
    md = pages["baijindao.md"]
    total = re.search(r"所有牌共计(\d+)张", text).group(1)
    assert f"全副牌共{total}张" in md
    m = re.search(r"庄家可得到(\S+?)张牌，对家(\S+?)张", text)
    dealer, other = cn_int(m.group(1)), cn_int(m.group(2))
    assert line_with(md, f"{other}张", f"{dealer}张")
    # 输赢的手气值=房间倍率*总番数*加倍倍数*起始加倍倍数*任务加倍倍数*（1-0.0125）
    formula = re.search(r"输赢的手气值=(\S+)", text).group(1)
    rate = re.search(r"（1-([\d.]+)）", formula).group(1)
    assert "房间倍率 × 番 × 2^加倍次数 × 起始加倍 × 任务加倍" in md
    assert f"{float(rate) * 100:g}%" in md and rate in md
    # the worked example: 碰碰胡6番, 加倍3次 → (6+6)*8=96番
    m = re.search(r"（6\+6）\*8=(\d+)番", text)
    assert line_with(md, "碰碰和", "加倍三次", f"得分 {m.group(1)}")
    assert line_with(md, "得分 80")  # 10番 以8倍开始 → 80番


def chehuzi_mingtang(text: str) -> dict[str, int]:
    """`点胡：…，3番` (七、牌型名堂) and `点胡：3番` (牌型计番); `自摸：番` has lost its number."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([^\s：]{2,3})：(?:.*?[，,])?\s*(\d*)番\s*$", line)
        if m and m.group(2):
            out.setdefault(m.group(1), int(m.group(2)))
    return out


def test_chehuzi_every_mingtang_with_its_value(pages):
    md = pages["chehuzi.md"]
    names = chehuzi_mingtang(seed("chehuzi"))
    assert len(names) == 10 and names["王炸王"] == 32 and names["自摸"] == 2
    missing = [f"{n} {v}番" for n, v in names.items() if not line_with(md, f"#### {n} · {v}番")]
    assert not missing, "名堂 not on the page with their value: " + ", ".join(missing)


def test_chehuzi_huxi_table(pages):
    """`大字倾：  12    小字倾：  9`, `大贰柒拾： 6` …: the value table of the groups, by suit."""
    text = seed("chehuzi")
    section = text[text.index("六、牌型"):text.index("七、牌型名堂")]
    table = md_table(pages["chehuzi.md"], "胡息表")
    head, rows = table[0], {r[0]: r for r in table[1:]}
    pairs = re.findall(r"([大小])(字?)(\S+?)：\s*(\d+)", section)
    assert len(pairs) == 14
    for suit, zi, what, value in pairs:
        if zi:  # 大字倾 → the row 倾, the column 大
            assert rows[what][head.index(suit)] == value, (suit, what, value)
        else:  # 大贰柒拾 → the cell that shows those cards
            assert any(f"{what} {value}" == c for r in table for c in r), (suit, what, value)
    for name in re.findall(r"^\s*(?:普通)?(\S+?)：.*无\s*胡息", section, re.MULTILINE):
        assert rows[name][1:] == ["0", "0"], name


def test_chehuzi_key_numbers(pages):
    text = seed("chehuzi")
    md = pages["chehuzi.md"]
    total = re.search(r"共(\d+)张", text).group(1)
    assert f"全副牌共{total}张" in md
    each, dealer = re.search(r"每人抓牌(\d+)张、庄家(\d+)张", text).groups()
    assert line_with(md, f"开局每人{each}张", f"共{dealer}张")
    assert "（囤 ＋ 醒） × 番" in md  # 计分公式：（囤数+醒牌）*胡牌番数
    assert "2 ＋ （（胡息 − 15） ÷ 3，向下取整）" in md  # 15胡时=2屯,以后每多3胡息加1屯 (no ⌊⌋: not in CJK fonts)
    result = re.search(r"\*2\*2=(\d+)", text).group(1)  # the 21胡 红胡 自摸 翻醒1 example: 20
    assert line_with(md, "页面例子红胡自摸翻醒") and line_with(md, "胡息 21", f"得分 {result}")
    per_wang = re.search(r"一张王霸赔付(\d+)倍基础分", text).group(1)
    assert f"× {per_wang} × 底分" in md


def test_chehuzi_page_says_the_drawer_or_thrower_comes_first(pages):
    """“摸牌：…在别人不碰不跑的情况下，才可以吃牌”, and the notes of 胡 / 吃: the player who turned the card
    is asked first (`order actor`), not the next seat."""
    md = pages["chehuzi.md"]
    for action in ("胡", "吃"):
        part = md[md.index(f"#### {action}\n"):]
        line = line_with(part[:part.index("\n#### ")], "**多人可做**")
        assert "本人起" in line and "下家起" not in line, line


def test_pages_state_replacement_draws_and_a_rotating_deal_only_where_the_rules_have_them(pages):
    """Paper cards have no replacement draw and 扯胡子's winner deals next: no 补牌从牌墙尾部, no 轮流坐庄."""
    che = pages["chehuzi.md"]
    assert "补牌" not in che and "轮流坐庄" not in che
    assert line_with(che, "**方向**", "出牌按")
    for stem in ("baicheng", "longyan", "guobiao"):  # kongs draw a replacement; the deal passes on (next(dealer))
        assert line_with(pages[f"{stem}.md"], "**补牌**", "牌墙尾部"), stem
        assert line_with(pages[f"{stem}.md"], "**方向**", "出牌和轮流坐庄"), stem


def test_chehuzi_king_compensation_formula_reads_as_the_seed(pages):
    """“王多赔差值给王少的，一张王霸赔付5倍基础分”: the difference, never below 0, × 5 × base."""
    line = line_with(pages["chehuzi.md"], "黄庄时，每位玩家付给其他每位玩家")  # the page's word (exhaust_word)
    assert "（付分者的万能牌张数 − 收分者的万能牌张数，不足0按0计） × 5 × 底分" in line, line


def test_chehuzi_red_cards_are_drawn_red(pages):
    """二七十 / 贰柒拾 are the red cards (notes/domain.md); `ink red 红` prints them red, the others not:
    each card's face (the SVG symbol it draws) writes its character in red exactly for the red cards."""
    html = pages["chehuzi.html"]
    symbols = dict(re.findall(r'<symbol id="([^"]+)"[^>]*>(.*?)</symbol>', html))
    inked: dict[str, set[bool]] = {}  # card name -> whether each of its drawings is red
    for c, name, face in re.findall(r'<span class="([^"]*)" title="[^"]*" data-tile="([^"]*)"[^>]*>'
                                    r'<svg><use href="#([^"]+)"/></svg></span>', html):
        red_face = 'fill="#c0261b"' in symbols[face]
        assert red_face == ("ink-red" in c.split()), name
        inked.setdefault(name, set()).add(red_face)
    red = {f"{r}{s}" for r in (2, 7, 10) for s in "小大"}
    assert red <= inked.keys() and len(inked) == 21  # every card and 王 is drawn somewhere
    for name, seen in inked.items():
        assert seen == {name in red}, name


MAHJONG_BLOCK = re.compile("[\U0001F000-\U0001F02F]")


def _faces(html: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """({symbol id: its SVG}, [(tile name, symbol id) of every drawn tile]) of a page."""
    ids = re.findall(r'<symbol id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "a face is defined more than once"
    symbols = dict(re.findall(r'<symbol id="([^"]+)"[^>]*>(.*?)</symbol>', html))
    drawn = re.findall(r'<span class="tile [^"]*" title="[^"]*" data-tile="([^"]*)"[^>]*><svg><use href="#([^"]+)"/>'
                       r'</svg></span>', html)
    return symbols, drawn


def test_tiles_are_drawn_as_svg_faces_defined_once(pages):
    """Every tile on a variant page is an SVG face (no tile glyph is typed, so no tile font is needed):
    one symbol per kind, each defined once and used by every drawing of that kind."""
    from paili import load

    for stem in ("baijindao", "chehuzi", "baicheng", "longyan", "guobiao"):
        html = pages[f"{stem}.html"]
        assert not MAHJONG_BLOCK.search(html), f"{stem}: a tile glyph is typed on the page"
        # the Markdown page, which cannot draw, writes names (a glyph would be a box without a tile font)
        assert not MAHJONG_BLOCK.search(pages[f"{stem}.md"]), f"{stem}.md: a tile glyph is typed on the page"
        symbols, drawn = _faces(html)
        assert html.count('class="tile ') == len(drawn) > 100, stem  # every tile is a drawn face
        by_kind: dict[str, set[str]] = {}
        for name, face in drawn:
            assert face in symbols, (stem, name)
            by_kind.setdefault(name, set()).add(face)
        assert all(len(f) == 1 for f in by_kind.values()), stem  # one face per kind
        assert len(symbols) == len(by_kind), stem  # no face is defined that is not drawn
        kinds = {k.name for k in load(RULES_BY_STEM[stem]).ir.tiles.kinds}
        assert set(by_kind) == kinds, (stem, kinds ^ set(by_kind))  # every kind is drawn (the tile table)


def test_standard_tiles_show_their_rank():
    """A standard tile's face shows what the tile is: n rings for n of dots, n sticks for n (>1) of bamboo,
    the rank's numeral over the suit's own name for characters; the wind / dragon by the kind's name."""
    from paili import load
    from paili.dsl.pages.tiles import TileBook

    rs = load(RULES_BY_STEM["guobiao"]).ir
    book = TileBook(rs)
    numerals = "一二三四五六七八九"
    seen = set()
    for k in rs.tiles.kinds:
        body = book.face(k.name).body
        o = ord(k.glyph) - 0x1F000
        if 25 <= o <= 33:  # dots
            assert body.count('fill="none"') == k.rank, k.name
            seen.add("dots")
        elif 16 <= o <= 24:  # bamboo (the one is a single large stick)
            assert body.count("<rect") == k.rank, k.name
            seen.add("bamboo")
        elif 7 <= o <= 15:  # characters
            texts = re.findall(r">([^<>]+)</text>", body)
            assert texts == [numerals[k.rank - 1], k.suit], k.name
            seen.add("characters")
        elif o in (0, 1, 2, 3, 4, 5):
            assert re.findall(r">([^<>]+)</text>", body) == [k.name]
            seen.add("honours")
        elif o == 6:  # the white dragon: its frame, no text
            assert "<text" not in body and "<rect" in body
    assert seen == {"dots", "bamboo", "characters", "honours"}


# ---------------------------------------------------------------------- players' pages, designers' pages

VARIANTS = ("baijindao", "chehuzi", "baicheng", "longyan", "guobiao")


def _notes_html(html: str) -> list[str]:
    return re.findall(r'<aside class="note"><span class="tag">说明</span>(.*?)</aside>', html)


def test_player_pages_say_only_the_rules(pages):
    """No engine internals on a player's page: no tool commands, check marks, state cards, situation values
    or encoder remarks about the source page; those are on the designer's appendix, which it links."""
    for stem in VARIANTS:
        for name in (f"{stem}.html", f"{stem}.md"):
            page = pages[name]
            body = page.split("<body>", 1)[-1]
            for word in ("paili ", "--set", "✓", "与规则文件的预期一致", "需要记住的情况", "对局情境", "运行时"):
                assert word not in body, (name, word)
            assert f"{stem}-design." in page, name  # the appendix is linked
        for note in _notes_html(pages[f"{stem}.html"]):
            for word in ("页面", "原文", "引擎", "规则文件", "这里读作"):
                assert word not in note, (stem, word, note)
            assert not re.search(r"（[^（）]*[A-Za-z_][^（）]*）", note), (stem, note)


def test_player_pages_speak_no_name_of_the_rule_language(pages):
    """A note's sentence in the language's own names (`round`, next(庄家), a `max` unit) or about "this file"
    is the encoder's: on the designer's appendix only. A lone letter is algebra and stays (2^(n-1): the
    parenthesis was once dropped as a remark, leaving 2^倍)."""
    for stem in VARIANTS:
        md = re.sub(r"\[[^\]]*\]\([^)]*\)", "", pages[f"{stem}.md"])  # links name the pages' files
        assert not re.findall(r"[A-Za-z]{2,}", md), (stem, re.findall(r".{0,20}[A-Za-z]{2,}.{0,20}", md)[:5])
        assert "本文件" not in md
    assert "所以第n圈的分饼是基础分的2^(n-1)倍。" in pages["longyan.md"]
    assert "`round` 为本局第几圈" in pages["longyan-design.html"]
    assert "next(庄家) 就是逆时针方向的下家" in pages["baicheng-design.md"]


def test_a_note_keeps_its_rule_and_leaves_its_source_remark_to_the_designer(pages):
    """The red-card note of 扯胡子 says which cards are red (a rule: on the player's page) and that the
    source page does not list them (the encoder's remark: on the appendix only)."""
    player, design = pages["chehuzi.html"], pages["chehuzi-design.html"]
    rule, remark = "红字是二、七、十和贰、柒、拾，其余为黑字。", "页面只用“红字”一词而没有列出哪些是红字"
    assert any(rule in n for n in _notes_html(player)) and remark not in player
    assert rule + remark in design


def test_an_engine_remark_stays_on_the_designer_page(pages):
    """龙岩's opening flower replacement: the player reads how it goes; the designer also reads that the
    engine does it before the deal event."""
    player, design = pages["longyan.html"], pages["longyan-design.html"]
    rule, remark = "所有人补完花，才能胡牌或做别的操作。", "开局补花由引擎在发牌后进行"
    assert any(rule in n for n in _notes_html(player)) and remark not in player
    assert rule in design and remark in design


def test_player_page_chapters_in_reading_order(pages):
    for stem in VARIANTS:
        md = pages[f"{stem}.md"]
        titles = re.findall(r"^## [一二三四五六七八九十]+、(.+)$", md, re.M)
        keys = ["游戏介绍", "牌与张数", "行牌", "和牌", "牌型", "结算"]
        at = [next(i for i, t in enumerate(titles) if t.startswith(k)) for k in keys if
              any(t.startswith(k) for t in titles)]
        assert at == sorted(at) and len(at) >= 5, (stem, titles)
        # the contents list links every chapter heading
        for t in re.findall(r"^## (.+)$", md, re.M):
            assert f"[{t}](#" in md, (stem, t)


def test_pattern_index_links_every_pattern(pages):
    from paili import load

    for stem in VARIANTS:
        html = pages[f"{stem}.html"]
        index = html[html.index('<nav class="index"'):]
        index = index[:index.index("</nav>")]
        for p in load(RULES_BY_STEM[stem]).ir.patterns:
            assert f'<a href="#p-{p.name}">{p.name}</a>' in index, (stem, p.name)
            assert f'id="p-{p.name}"' in html


def test_designer_page_has_what_the_player_page_leaves_out(pages):
    from paili import load

    for stem in VARIANTS:
        rs = load(RULES_BY_STEM[stem]).ir
        design = pages[f"{stem}-design.md"]
        for s in rs.settings:
            if s.role == "context":
                assert f"| **{s.name}** |" in design, (stem, s.name)
        for st in rs.states:
            assert f"#### {st.name}" in design, (stem, st.name)
        examples = sum(len(p.examples) + len(p.counterexamples) for p in rs.patterns) + len(rs.examples)
        table = design[design.index("## 例子核对"):]
        rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| 所属")]
        assert len(rows) == examples and all(r.rstrip().endswith("✓ |") for r in rows), stem
        notes = design[design.index("## 解读说明"):]
        assert notes.count("\n- **") >= len({(n.span.line, n.span.col) for n in _nodes_with_notes(rs)}) > 10, stem


def _nodes_with_notes(rs):
    from dataclasses import fields, is_dataclass

    from paili.runtime.ir import nodes as ir

    out, todo = [], [rs]
    while todo:
        n = todo.pop()
        if isinstance(n, ir.Node) and n.notes:
            out.append(n)
        if is_dataclass(n):
            for f in fields(n):
                v = getattr(n, f.name)
                todo.extend(x for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, ir.Node))
    return out


def baicheng_values(text: str) -> list[tuple[str, str]]:
    """`1）屁胡（1分）：…`, `5）庄家（×2）：…` under 番数计算."""
    section = text[text.index("【风雷白城麻将番数计算】"):text.index("【风雷白城麻将房间选项】")]
    return re.findall(r"\d+）(\S+?)（(\d+分|×\d+)）", section)


def test_baicheng_every_value(pages):
    md = pages["baicheng.md"]
    values = baicheng_values(seed("baicheng"))
    assert len(values) == 14
    missing = [f"{n}（{v}）" for n, v in values if not line_with(md, n, v)]
    assert not missing, "not on the page with their value: " + ", ".join(missing)


def test_baicheng_key_numbers_and_payments(pages):
    text = seed("baicheng")
    md = pages["baicheng.md"]
    total = re.search(r"共(\d+)张牌", text).group(1)
    assert f"全副牌共{total}张" in md
    dealer, other = re.search(r"庄家起手(\d+)张手牌，其余玩家(\d+)张", text).groups()
    assert line_with(md, f"{other}张", f"{dealer}张")
    # 9）明杠：+3分/人 … 13）补杠：…每补1次杠+3分/人
    kongs = re.findall(r"\d+）(\S+?)(?:（\S+?）)?：.*?\+(\d+)分/(?:人|个)", text)
    assert len(kongs) == 5
    missing = [f"{n} {v}" for n, v in kongs if not line_with(md, n, v)]
    assert not missing, "payments not on the page: " + ", ".join(missing)
    options = re.findall(r"\d+）(\S+?)：选择后", text)
    assert len(options) == 6
    for name in options:
        assert line_with(md, f"| **{name}** |"), name


def longyan_hand_types(text: str) -> list[str]:
    """The named hands under 【胡牌牌型】: `天胡：…`, `三金倒：…`, `9、十三幺胡牌类型…`, `…都算盖宝抢金`."""
    section = text[text.index("【胡牌牌型】"):text.index("打金牌和做双游打出金牌的限制")]
    # `天胡：…` lines; not a remark (`备注：…`) nor a sentence leading into a list (`优先级为：…`)
    names = [n for n in re.findall(r"^([\u4e00-\u9fff]{2,4})：", section, re.MULTILINE)
             if n != "备注" and not n.endswith("为")]
    names += re.findall(r"\d+、(\S+?)胡牌类型", section)
    names += re.findall(r"都算(\S+?)：", section)
    return names


def test_longyan_every_hand_type(pages):
    md = pages["longyan.md"]
    names = longyan_hand_types(seed("longyan"))
    assert {"天胡", "三金倒", "抢金", "游金", "双游", "三游", "七对", "十三幺", "盖宝抢金"} <= set(names)
    from paili import load

    patterns = {p.name for p in load(ROOT / "rules" / "longyan.pai").ir.patterns}
    for n in names:
        assert n in md, n
        if n in patterns:  # a scored hand type: its heading shows its value
            assert re.search(rf"^#### {n} · \d+分$", md, re.MULTILINE), n


def test_longyan_key_numbers(pages):
    text = seed("longyan")
    md = pages["longyan.md"]
    tiles, flowers = re.findall(r"共(\d+)张", text)[:2]
    assert f"全副牌共{tiles}张，另有花{flowers}张" in md
    assert "2、3或4人" in md
    for amount in re.findall(r"庄家出(\d+)分", text):  # 抢杠胡: 12 / 8 / 4
        assert f"{amount}分" in md


# ---------------------------------------------------------------------- examples are computed


def test_examples_are_computed_while_rendering(tmp_path):
    """Change a pattern's value in a copy of a rule file: the page's numbers follow."""
    src = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8")
    changed = re.sub(r"(pattern 碰碰和 \{\s*value )6( 番)", r"\g<1>7\g<2>", src, count=1)
    assert changed != src
    path = tmp_path / "baijindao.pai"
    # the file's worked examples still expect 6番: a page is not made from a file whose examples fail
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(site.PageError, match="E508"):
        site.render_site([path], None, tmp_path)
    # (7+6)×8 = 104 and (7+3+1)×8 = 88 once the file says so
    changed = changed.replace("expect score 96", "expect score 104").replace("expect score 80", "expect score 88")
    path.write_text(changed, encoding="utf-8")
    before = site.render_site([ROOT / "rules" / "baijindao.pai"], None, ROOT)
    after = site.render_site([path], None, tmp_path)
    assert "#### 碰碰和 · 6番" in before["baijindao.md"]
    assert "#### 碰碰和 · 7番" in after["baijindao.md"]
    # the seed's worked example: (6+6)×8 = 96 becomes (7+6)×8 = 104, computed by the runtime
    worked = [line for line in after["baijindao.md"].splitlines() if "加倍三次 6番" in line and "碰碰和" in line]
    assert worked and all("得分 104" in w for w in worked)
    assert line_with(before["baijindao.md"], "碰碰和 6番", "加倍三次", "得分 96")
    assert 'data-score="104"' in after["baijindao.html"]


def test_pages_are_deterministic():
    path = ROOT / "rules" / "baicheng.pai"
    first = site.render_variant(path, ROOT)
    for key in [k for k in site._CACHE if k[0].endswith(path.name)]:
        del site._CACHE[key]  # render again from scratch
    second = site.render_variant(path, ROOT)
    assert first.html == second.html and first.md == second.md
    assert not re.search(r"20\d\d-\d\d-\d\d|/work/|/tmp/", first.html + first.md)


# ---------------------------------------------------------------------- paili docs --check


def test_check_passes_on_the_committed_pages(capsys):
    assert cli.main(["docs", "--check"]) == 0, capsys.readouterr().err


def test_check_names_a_modified_page(tmp_path, capsys):
    out = tmp_path / "docs"
    assert cli.main(["docs", "-o", str(out)]) == 0
    assert cli.main(["docs", "--check", "-o", str(out)]) == 0
    page = out / "baicheng.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", "<p>手改</p></body>"), encoding="utf-8")
    assert cli.main(["docs", "--check", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "baicheng.html" in err and "baijindao.html" not in err
    (out / "index.md").unlink()
    assert cli.main(["docs", "--check", "-o", str(out)]) == 1
    assert "index.md: missing" in capsys.readouterr().err


def test_build_writes_into_the_current_directory_never_the_package(tmp_path):
    """`paili build` compiles every bundled rule file into -o and renders the pages into ./generated_docs of
    the directory it runs in; the package's own files (the checkout here, site-packages once installed) are
    left as they were."""
    def package_files():
        return {p: p.stat().st_mtime_ns for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts
                and "target" not in p.parts and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}

    before = package_files()
    p = subprocess.run([sys.executable, "-m", "paili", "build", "-o", "out"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == sorted(f"{r.stem}.json" for r in RULES)
    pages = {f.name for f in (tmp_path / "generated_docs").iterdir()}
    assert {"index.html", "index.md", "language.html"} <= pages
    assert {f"{r.stem}.html" for r in RULES} <= pages
    assert package_files() == before
    assert "paili docs --check" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


# ---------------------------------------------------------------------- generic templates, the lexer


def test_templates_and_page_code_are_generic():
    from test_generic_runtime import declared_names

    names = declared_names() | {"白金岛", "扯胡子", "白城", "龙岩", "baijindao", "chehuzi", "baicheng", "longyan"}
    files = sorted((ROOT / "dsl" / "templates").iterdir()) + sorted((ROOT / "dsl" / "pages").glob("*.py"))
    files.append(ROOT / "dsl" / "pygments_lexer.py")
    files += sorted((ROOT / "dsl" / "serve" / "static").iterdir())  # the service's scripts (paili serve)
    hits = [f"{f.name}: {n}" for f in files for n in names if n in f.read_text(encoding="utf-8")]
    assert not hits, "variant knowledge in the page generator:\n" + "\n".join(hits)


def test_pai_lexer_is_registered_and_used(pages):
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename

    assert get_lexer_by_name("pai").__class__.__name__ == "PaiLexer"
    assert get_lexer_for_filename("x.pai").__class__.__name__ == "PaiLexer"
    html = pages["language.html"]
    assert html.count('<pre class="highlight">') >= 10
    assert '<span class="k">pattern</span>' in html and '<span class="sc">' in html


def test_pages_are_self_contained(pages):
    for name, text in pages.items():
        if name.endswith(".html"):
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), name
            assert "<link" not in text and "<script" not in text and "@import" not in text, name


def test_a_drawn_hand_is_called_by_the_variants_own_word(pages):
    """`table { exhaust_word "黄庄" }` (扯胡子's page: “如果黄庄了，…”); a variant that says nothing keeps 流局."""
    assert line_with(pages["chehuzi.md"], "**黄庄**", "牌墙摸完仍没有玩家和牌，即为黄庄")
    assert "流局" not in pages["chehuzi.md"]  # nor in the events its payments and hooks are made on
    for stem in ("baijindao", "longyan", "baicheng"):
        assert line_with(pages[f"{stem}.md"], "**流局**", "即为流局"), stem


def test_the_index_links_both_editions_of_the_language_reference_as_they_are(pages):
    """The Chinese edition is Chinese throughout (docs/language.zh.md): the index once called its body the
    English original."""
    for name in ("index.html", "index.md"):
        assert "正文为英文原文" not in pages[name] and "全文中文" in pages[name], name
        assert "language-zh.html" in pages[name] and "language.html" in pages[name], name
