"""Chinese help pages generated from the rule source (`paili docs`).

    variant.py    the page of one variant, as data (IR + runtime → chapters)
    examples.py   examples scored by the runtime while the page is generated
    formula.py    expressions written out in Chinese
    tiles.py      tiles and cards as the page shows them (views, names, text forms)
    faces.py      tile and card faces drawn as SVG symbols, defined once per page
    words.py      the Chinese words of the language's own vocabulary
    language.py   the page of the rule language (docs/language.md, with `.pai` highlighting)
    site.py       every page of a set of rule files: render, write, check
"""
