"""The rule sets a service serves, by id (the rule file's stem): each loaded once at start, with what the
pages and the calculator need of it — its tile set (each kind's notation and drawn face), the meld kinds a
hand can lay down, the names `set` takes."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ...runtime.rules import Rules
from ..cli_args import UsageError, bundled_rules, load_ruleset, resolve_rules_arg
from ..describe import describe_json


@dataclass
class Served:
    id: str
    path: Path
    rules: Rules
    _tiles: dict | None = field(default=None, repr=False)

    @property
    def title(self) -> str:
        return self.rules.ir.variant.title

    @property
    def has_page(self) -> bool:
        """Pages are rendered from rule files (their page text and examples), not from compiled JSON."""
        return self.path.suffix == ".pai"

    def summary(self) -> dict:
        return {"id": self.id, "variant": self.rules.ir.variant.id, "title": self.title,
                "page": f"/{self.id}.html" if self.has_page else None}

    def tileset(self) -> dict:
        """Each tile kind in play under the default options: name, the notation that writes it (its character,
        which a reader knows, else its code; "" when it has neither), its character, category,
        copies, and its face's symbol id in
        `sprite` (the SVG symbols, as the help pages draw them)."""
        if self._tiles is None:
            from ..pages.tiles import TileBook

            book = TileBook(self.rules.ir, prefix=f"serve:{self.id}")
            kinds = []
            for k in self.rules.catalog.kinds:
                code = k.code if k.code and k.code[:-1].isdigit() and k.code[-1:].isalpha() else ""
                view = book.view(k.name)
                char = k.char if len(k.char) == 1 else ""
                kinds.append({"name": k.name, "code": char or code, "char": char,
                              "category": k.category, "copies": k.copies, "face": view.face.id,
                              "classes": view.classes})
            self._tiles = {"kinds": kinds, "sprite": str(Markup(book.sprite()))}
        return self._tiles

    def describe(self) -> dict:
        """`paili describe --json`, with what a client needs to build a hand: the settings' documents and
        allowed values, the meld kinds that are laid down, the tile kinds (without their faces)."""
        from ...runtime.evaluate import compile_expr

        rs = self.rules.ir
        names = {"tile-lookup": lambda n: n}  # a tile value is written by its name
        out = describe_json(self.rules)
        docs = {s.name: s for s in rs.settings}
        for item in out["options"] + out["context"]:
            s = docs.get(item["name"])
            item["doc"] = (s.doc if s is not None else next(r.doc for r in rs.reveals if r.name == item["name"]))
            if s is not None and s.range:
                item["range"] = list(s.range)
            if s is not None and s.values:
                item["values"] = [_plain(compile_expr(x)(names)) for x in s.values]
        out["melds"] = [{"name": m.name, "exposed": m.exposed, "kong": m.kong, "shape": self.rules.shape_text(m)}
                        for m in rs.melds if not m.pair and not m.hand]
        out["tiles"] = [{k: v for k, v in t.items() if k not in ("face", "classes")}
                        for t in self.tileset()["kinds"]]
        out["id"] = self.id
        return out


def _plain(v):
    from ...runtime.result import plain_value

    return plain_value(v)


class Library:
    def __init__(self, items: list[Served]):
        self.items = {s.id: s for s in items}

    def get(self, name) -> Served | None:
        return self.items.get(name) if isinstance(name, str) else None

    def names(self) -> str:
        return ", ".join(self.items)


def load_library(args: list[str] | None = None) -> Library:
    """The rule sets named by `args` (RULES arguments: a .pai file, a compiled .json, a bundled variant's
    name; default: every bundled rule file). UsageError (one sentence) for one that does not load, or two
    with the same stem."""
    from ...runtime.backend import BackendError
    from ...runtime.hand import HandError

    paths = [resolve_rules_arg(a) for a in args] if args else bundled_rules()
    items: list[Served] = []
    for p in paths:
        if any(s.id == p.stem for s in items):
            raise UsageError(f"two rule sets are named {p.stem!r}; serve each stem once")
        try:
            rules = Rules(load_ruleset(str(p), examples=p.suffix == ".pai"))
        except (BackendError, HandError) as exc:
            raise UsageError(f"{p}: {exc}") from None
        items.append(Served(p.stem, Path(p), rules))
    return Library(items)
