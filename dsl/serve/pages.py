"""The pages the service serves: every page `paili docs` writes for the served rule files, rendered in
memory on first use (nothing is written anywhere), with, on each player's page, the calculator (a panel
of the variant's own tiles and names that scores through the API), and the replay viewer. The pages
`paili docs` writes to disk stay as they are: without the service they have no calculator."""
from __future__ import annotations

import gc
import json
from importlib.resources import files

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup

from ..cli_args import ROOT
from ..pages.render import render_html
from .api import refuse, service

router = APIRouter(include_in_schema=False)
LANGUAGE_MD = ROOT / "docs" / "language.md"
STYLE = '<link rel="stylesheet" href="/static/serve.css">\n'


def static_files() -> StaticFiles:
    return StaticFiles(directory=str(files(__package__) / "static"))


def site(svc) -> dict[str, str]:
    """{file name: text} of every page, rendered once per service (on its worker thread)."""
    if svc.pages is None:
        from ..pages.site import render_site

        rule_files = [s.path for s in svc.library.items.values() if s.has_page]
        svc.pages = render_site(rule_files, LANGUAGE_MD, ROOT)
        gc.collect()  # the rule sets the pages were rendered with (see api.Service.collect_generation)
    return svc.pages


def _script_json(data) -> Markup:
    """Data for a page's script, inert inside <script type="application/json"> (no `</` can end it)."""
    text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("&", "\\u0026"))


def win_words(rs) -> dict:
    """The variant's own word for a win the calculator scores, by how the tile came: the first winning action
    that takes a drawn tile (`drawn`) and the first that takes another's tile (`claimed`), an action with no
    `win_tile` standing for both; None where the rules have none (the page then says 和牌)."""
    out: dict[str, str | None] = {"drawn": None, "claimed": None}
    for a in rs.actions:
        if not a.wins:
            continue
        for how in out:
            if out[how] is None and a.win_tile in (how, ""):
                out[how] = a.name
    return out


def calculator(served) -> str:
    tiles = served.tileset()
    about = served.describe()
    data = {"id": served.id, "kinds": tiles["kinds"], "melds": about["melds"], "context": about["context"],
            "options": about["options"], "win_words": win_words(served.rules.ir)}
    return render_html("serve_calculator.html.j2", sprite=Markup(tiles["sprite"]), kinds=tiles["kinds"],
                       melds=about["melds"], context=about["context"], options=about["options"],
                       data=_script_json(data))


def _with_calculator(page: str, panel: str) -> str:
    page = page.replace("</head>", STYLE + "</head>", 1)
    page = page.replace("</header>", "</header>\n" + panel, 1)
    scripts = '<script src="/static/tiles.js"></script>\n<script src="/static/calculator.js"></script>\n'
    return page.replace("</body>", scripts + "</body>", 1)


def _index(page: str) -> str:
    link = ('<p class="serve-nav">本服务另有：<a href="/replay.html">对局回放</a>（打开对局记录逐步查看）'
            ' · <a href="/openapi.json">接口说明（OpenAPI）</a></p>\n')
    return page.replace("</head>", STYLE + "</head>", 1).replace("</header>", "</header>\n" + link, 1)


@router.get("/")
def index() -> RedirectResponse:
    return RedirectResponse("/index.html")


@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(status_code=204)  # no icon: answered so that a browser's request is not an error


@router.get("/replay.html", response_class=HTMLResponse)
def replay_page(request: Request) -> HTMLResponse:
    svc = service(request)
    variants = [s.summary() for s in svc.library.items.values()]
    return HTMLResponse(render_html("serve_replay.html.j2", variants=variants))


@router.get("/{name}")
async def page(request: Request, name: str):
    svc = service(request)

    def run():
        text = site(svc).get(name)
        if text is None:
            raise refuse(404, f"there is no page {name[:80]}")
        if name.endswith(".md"):
            return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")
        if name == "index.html":
            return HTMLResponse(_index(text))
        served = svc.library.get(name.removesuffix(".html"))
        if served is not None and served.has_page:
            return HTMLResponse(_with_calculator(text, calculator(served)))
        return HTMLResponse(text)

    return await svc.call(run)
