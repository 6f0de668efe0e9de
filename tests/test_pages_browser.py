"""The help pages in a real browser: headless Chromium (Debian's, driven by Playwright) with only a CJK font,
at a desktop (1280 px) and a phone (390 px) width.

Every page of generated_docs/ (the committed pages; `paili docs --check` in tests/test_docs.py keeps them
equal to what the rule files produce) must:
- raise no script error and log no console error;
- not overflow: the document is never wider than the viewport (wide tables scroll inside themselves);
- draw every tile as an SVG face: each `.tile` holds an `<svg>` whose `<use>` names a symbol of the page,
  with a real size, inside the tile's box;
- type no tile glyph (U+1F000–U+1F02F) in visible text — with only a CJK font such a glyph is a box;
- print every character its tile faces use with a real glyph of the installed font (not the missing-glyph
  box);
- print every character of its visible text with a real glyph (a sign such as ⌊ that no CJK font has is a
  box to a reader with only a CJK font);
- squeeze no table cell to one character a line (a cell of three or more characters is two wide).

Screenshots of every page at both widths (its top, and its first example hand) are written to
$PAILI_SCREENSHOTS, or else a folder under pytest's temporary directory (its path is printed with `-s`),
to look at.

The browser (the `browser` fixture of conftest.py, shared with tests/test_serve_browser.py) runs with a
fontconfig that knows only the CJK fonts (the machine may have more fonts, e.g. one
with the tile glyphs, that a player's phone does not). `.ci/run` installs Chromium and fonts-noto-cjk.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

DOCS = ROOT / "generated_docs"
PAGES = sorted(p.name for p in DOCS.glob("*.html"))
WIDTHS = {"desktop": 1280, "phone": 390}


PROBE = r"""() => {
  const out = {tiles: 0, bad: [], glyphText: [], chars: [], width: document.documentElement.scrollWidth};
  for (const t of document.querySelectorAll(".tile")) {
    if (t.classList.contains("back")) continue;  // a face-down tile (the replay viewer's hidden hands): no face
    out.tiles++;
    const svg = t.querySelector(":scope > svg");
    const use = svg && svg.querySelector("use");
    const ref = use && (use.getAttribute("href") || "").slice(1);
    const sym = ref && document.getElementById(ref);
    if (!svg || !sym || sym.tagName !== "symbol") { out.bad.push([t.dataset.tile, "no face"]); continue; }
    const a = t.getBoundingClientRect(), s = svg.getBoundingClientRect();
    if (s.width < 8 || s.height < 8) out.bad.push([t.dataset.tile, "face has no size", s.width, s.height]);
    else if (s.left < a.left - .5 || s.right > a.right + .5 || s.top < a.top - .5 || s.bottom > a.bottom + .5)
      out.bad.push([t.dataset.tile, "face outside its tile"]);
  }
  // visible text in the Mahjong Tiles block (code listings of the language page show what a rule
  // writer types: exempt, see the test)
  const drawText = (s, fam) => { const c = document.createElement("canvas"); c.width = c.height = 48;
    const x = c.getContext("2d"); x.font = "40px " + fam; x.fillText(s, 4, 40);
    return x.getImageData(0, 0, 48, 48).data; };
  const same = (a, b) => { for (let i = 3; i < a.length; i += 4) if (a[i] !== b[i]) return false; return true; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const tileChar = /[\u{1F000}-\u{1F02F}]/u;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!tileChar.test(n.data)) continue;
    const el = n.parentElement;
    if (el.closest("pre, code") && document.body.dataset.page === "language") continue;
    if (el.closest("svg, .sprite")) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden")
      out.glyphText.push(n.data.slice(0, 20));
  }
  // no table cell squeezed to a character a line: a cell with text of 3 or more characters is at least
  // two characters wide inside its padding
  out.narrow = [];
  for (const c of document.querySelectorAll("td, th")) {
    const text = c.innerText.trim(), cs = getComputedStyle(c), r = c.getBoundingClientRect();
    if ([...text].length < 3 || !(r.width > 0)) continue;
    const inner = r.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (inner < 2 * parseFloat(cs.fontSize)) out.narrow.push([text.slice(0, 12), Math.round(inner)]);
  }
  // every character of the visible text, drawn in its element's font, must differ from the missing-glyph
  // box (a sign such as ⌊ that no CJK font has is a box to a reader); tile glyphs in the language page's
  // code listings are what a rule writer types (exempt above)
  const textChars = new Map();  // font family -> characters
  const walk2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk2.nextNode(); n; n = walk2.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("svg, .sprite, script, style")) continue;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || getComputedStyle(el).visibility === "hidden") continue;
    const fam = getComputedStyle(el).fontFamily;
    if (!textChars.has(fam)) textChars.set(fam, new Set());
    const set = textChars.get(fam);
    for (const c of n.data) if (!/\s/u.test(c) && !tileChar.test(c)) set.add(c);
  }
  out.textBoxes = [];
  for (const [fam, set] of textChars) {
    const box = drawText("\u{10FFFD}", fam);
    for (const c of set) if (same(drawText(c, fam), box)) out.textBoxes.push([c, "U+" +
      c.codePointAt(0).toString(16).toUpperCase(), fam.slice(0, 30)]);
  }
  // every character the faces print, drawn in the faces' font, must differ from the missing-glyph box
  const chars = new Set();
  for (const t of document.querySelectorAll("symbol text")) for (const c of t.textContent) chars.add(c);
  const fams = new Set([...document.querySelectorAll(".tile > svg")].map(s => getComputedStyle(s).fontFamily));
  const draw = (s, fam) => { const c = document.createElement("canvas"); c.width = c.height = 48;
    const x = c.getContext("2d"); x.font = "bold 40px " + fam; x.fillText(s, 2, 40);
    return x.getImageData(0, 0, 48, 48).data; };
  for (const fam of fams) {
    const box = draw("\u{10FFFD}", fam);
    for (const c of chars) {
      const d = draw(c, fam);
      let ink = 0, same = true;
      for (let i = 3; i < d.length; i += 4) { if (d[i] > 0) ink++; if (d[i] !== box[i]) same = false; }
      if (same || ink < 20) out.chars.push([c, fam.slice(0, 30), ink]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_page_in_chromium_at_desktop_and_phone_width(browser, shots, name):
    url = (DOCS / name).as_uri()
    for label, width in WIDTHS.items():
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
        page.goto(url)
        if name.startswith("language"):
            page.evaluate("document.body.dataset.page = 'language'")
        probe = page.evaluate(PROBE)
        # the top of the page (summary, contents, the tile table) and the first example hand: the long
        # pages are tens of thousands of pixels tall, and a full-page PNG of each would take seconds
        height = min(2400, page.evaluate("document.documentElement.scrollHeight"))
        page.screenshot(path=str(shots / f"{Path(name).stem}-{label}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": height})
        example = page.locator(".example").first
        if example.count():
            example.screenshot(path=str(shots / f"{Path(name).stem}-{label}-example.png"))
        page.close()
        where = f"{name} at {width}px"
        assert not errors, f"{where}: {errors}"
        assert probe["width"] <= width, f"{where}: the page is {probe['width']}px wide (it overflows)"
        assert not probe["bad"], f"{where}: tiles not drawn as faces: {probe['bad'][:5]}"
        assert not probe["glyphText"], f"{where}: tile glyphs typed as text: {probe['glyphText'][:5]}"
        assert not probe["chars"], f"{where}: characters of the tile faces have no glyph: {probe['chars'][:5]}"
        assert not probe["textBoxes"], f"{where}: characters of the text have no glyph: {probe['textBoxes'][:8]}"
        assert not probe["narrow"], f"{where}: table cells a character wide: {probe['narrow'][:5]}"
        if not name.startswith("language") and "-design" not in name:  # the appendices draw no tiles
            assert probe["tiles"] > 0, f"{where}: no tiles"


def test_the_probe_catches_a_typed_glyph_and_an_overflow(browser, tmp_path):
    """Guard against a vacuous browser test: a tile typed as a glyph, a tile with no face, a sign no font
    of the machine draws and a page wider than the phone are each reported."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"></head><body>'
                   '<span class="tile" data-tile="x">\U0001F007</span><div style="width:900px">wide ⌊x⌋</div>'
                   "</body></html>", encoding="utf-8")
    page = browser.new_page(viewport={"width": 390, "height": 900})
    page.goto(bad.as_uri())
    probe = page.evaluate(PROBE)
    # and the browser really has no tile font: the glyph draws as the missing-glyph box
    same = page.evaluate(r"""() => { const draw = (s) => { const c = document.createElement("canvas");
        c.width = c.height = 48; const x = c.getContext("2d"); x.font = "40px sans-serif"; x.fillText(s, 2, 40);
        return x.getImageData(0, 0, 48, 48).data; };
      const a = draw("\u{1F007}"), b = draw("\u{10FFFD}"); return a.every((v, i) => v === b[i]); }""")
    page.close()
    assert probe["width"] > 390
    assert probe["bad"] == [["x", "no face"]]
    assert probe["glyphText"] == ["\U0001F007"]
    # ⌊ and ⌋ (no CJK font has them) are boxes; "wide x" has its glyphs, the tile glyph is reported above
    assert sorted(c for c, _, _ in probe["textBoxes"]) == ["⌊", "⌋"]
    assert same, "the browser sees a font with the tile glyphs: the test would not show what a player sees"
