"""The layers of the package, read from the source (every import, at module level or inside a function):
the runtime never imports the compiler (`dsl/`) or the packages only the compiler uses, and no two
modules import each other, directly or around a cycle."""
import ast
from pathlib import Path

from conftest import ROOT

# Packages only the compiler side (parser, pages, terminal output) may use.
COMPILER_ONLY = ("lark", "jinja2", "rich", "markdown_it", "pygments")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["paili", *parts])


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in ("tests", "bench", "build") or "target" in rel.parts or rel.name == "__main__.py":
            continue
        out[_module_name(path)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> list[str]:
    """Every module `name` imports (absolute names; a `from P import x` names P.x when that is a module)."""
    is_pkg = path.name == "__init__.py"
    package = name.split(".") if is_pkg else name.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append(sub if sub in MODULES else base)
    return out


GRAPH = {name: [m for m in _imports(name, path) if m in MODULES and m != name] for name, path in MODULES.items()}


def test_the_graph_is_read():
    assert "paili.runtime.rules" in GRAPH and "paili.dsl.checker" in GRAPH
    assert "paili.runtime.ir.nodes" in GRAPH["paili.dsl.checker"]


def test_the_runtime_imports_neither_the_compiler_nor_its_packages():
    bad = []
    for name, path in MODULES.items():
        if not name.startswith("paili.runtime"):
            continue
        for m in _imports(name, path):
            if m.startswith("paili.dsl") or m.split(".")[0] in COMPILER_ONLY:
                bad.append(f"{name} imports {m}")
    assert bad == []


def test_no_import_cycles():
    """Tarjan's strongly connected components over the module graph: each must be one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # the graph is a few hundred modules deep at most: recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert cycles == []


def test_a_cycle_is_found():
    """The cycle search itself: two modules importing each other form one component."""
    saved = dict(GRAPH)
    try:
        GRAPH["paili.runtime.ir.span"] = GRAPH["paili.runtime.ir.span"] + ["paili.runtime.ir.expr"]
        try:
            test_no_import_cycles()
        except AssertionError as exc:
            assert "paili.runtime.ir.expr" in str(exc) and "paili.runtime.ir.span" in str(exc)
        else:
            raise AssertionError("the cycle span ↔ expr was not found")
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def _private_crossings(name: str, path: Path) -> list[str]:
    """`from M import _x` and `m._x` (m a module imported by name) where M is another module of the package."""
    is_pkg = path.name == "__init__.py"
    package = name.split(".") if is_pkg else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # local name -> module of the package it stands for
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if not base.startswith("paili"):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in MODULES:
                    aliases[a.asname or a.name] = sub
                elif a.name.startswith("_") and not a.name.startswith("__") and base != name:
                    out.append(f"{name} imports {base}.{a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES and a.asname:
                    aliases[a.asname] = a.name
    own = _own_private_names(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in aliases:
            if aliases[node.value.id] != name:
                out.append(f"{name} reads {aliases[node.value.id]}.{node.attr}")
        elif node.attr not in own and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            # an object's private attribute that no class of this module defines: another module's
            out.append(f"{name} reads another module's attribute .{node.attr} (line {node.lineno})")
    return out


def _private(attr: str) -> bool:
    return attr.startswith("_") and not attr.startswith("__")


def _own_private_names(tree) -> set[str]:
    """The private names this module defines: functions and methods, class attributes, and attributes it
    assigns (`self._x = …`, `obj._x = …`)."""
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for t in ast.walk(target):
                    if isinstance(t, ast.Attribute):
                        own.add(t.attr)
                    elif isinstance(t, ast.Name):
                        own.add(t.id)
    return own


def test_no_private_name_crosses_a_module():
    found = [c for name, path in MODULES.items() for c in _private_crossings(name, path)]
    assert found == []


def test_a_private_crossing_is_found(tmp_path):
    text = "from .rules import _forms\nfrom . import scoring\nx = scoring._label_parts\ny = x._cache\n"
    tree_path = tmp_path / "probe.py"
    tree_path.write_text(text, encoding="utf-8")
    found = _private_crossings("paili.runtime.probe_private", tree_path)
    assert found == ["paili.runtime.probe_private imports paili.runtime.rules._forms",
                     "paili.runtime.probe_private reads paili.runtime.scoring._label_parts",
                     "paili.runtime.probe_private reads another module's attribute ._cache (line 4)"]


# The runtime's layers, left to right: a module imports only its own layer and those to its left
# (docs/architecture.md, "Layers").
RUNTIME_LAYERS = (
    # the IR with the stated limits (constants a loaded rule set is checked against)
    ("ir", lambda m: m.startswith("paili.runtime.ir") or m == "paili.runtime.limits"),
    ("model", lambda m: m in {f"paili.runtime.{n}" for n in ("notation", "tiles", "evaluate", "codegen")}),
    ("rules", lambda m: m in ("paili.runtime.rules", "paili.runtime.examples")),
    ("game", lambda m: m.startswith("paili.runtime.game")),
    ("hand", lambda m: m.startswith("paili.runtime.") and m.count(".") == 2),  # the rest of runtime/*.py
)
ORDER = ("ir", "model", "hand", "rules", "game")


def _runtime_layer(module: str) -> str | None:
    return next((name for name, test in RUNTIME_LAYERS if test(module)), None)


def test_each_runtime_layer_imports_only_the_layers_below():
    bad = []
    for name, deps in GRAPH.items():
        own = _runtime_layer(name)
        if own is None:
            continue
        for d in deps:
            other = _runtime_layer(d)
            if other is not None and ORDER.index(other) > ORDER.index(own):
                bad.append(f"{name} ({own}) imports {d} ({other})")
    assert bad == []


def test_the_ir_is_standard_library_only():
    """runtime/ir/ imports nothing of the package but itself and runtime/limits.py, and only standard-library
    modules (runtime/limits.py likewise)."""
    import sys

    bad = []
    for name, path in MODULES.items():
        if not (name.startswith("paili.runtime.ir") or name == "paili.runtime.limits"):
            continue
        for m in _imports(name, path):
            top = m.split(".")[0]
            if m.startswith("paili") and not (m.startswith("paili.runtime.ir") or m == "paili.runtime.limits"):
                bad.append(f"{name} imports {m}")
            elif not m.startswith("paili") and top not in sys.stdlib_module_names and top != "__future__":
                bad.append(f"{name} imports {m}")
    assert bad == []


# Runtime packages and modules that may read or write an object's `__dict__`, each with why. A cache
# belongs to the object whose data keys it, as a declared attribute (docs/architecture.md, "Who owns which
# cache"). An entry is a module or package name mapped to the reason.
DICT_ALLOWED: dict[str, str] = {
    "paili.runtime.game.native_game": "`_move` sets a frozen `Move`'s fields at once, no cache: a native "
                                      "decision's every move is made so, twice as fast as the dataclass's "
                                      "`__init__` (joker.pai with random bots, BENCHMARKS.md branch `nauto`)",
}


def _allowed(name: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in DICT_ALLOWED)


def _dict_uses(path: Path) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute) and node.attr == "__dict__"]


def test_no_cache_is_hung_on_an_objects_dict():
    """No runtime module keeps a cache in an object's `__dict__` by a string key (its own or another's),
    outside the allow-list: caches are declared attributes of their owner."""
    found = {name: _dict_uses(path) for name, path in MODULES.items() if name.startswith("paili.runtime")}
    bad = [f"{name} line {n}" for name, lines in found.items() if not _allowed(name) for n in lines]
    assert bad == []


def test_a_dict_cache_is_found(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f(dec):\n    return dec.__dict__.setdefault('_cache', {})\n", encoding="utf-8")
    assert _dict_uses(probe) == [2]
    assert not any(_allowed(m) for m in ("paili.runtime.rules", "paili.runtime.game", "paili.runtime.game.offers"))
    DICT_ALLOWED["paili.runtime.game"] = "a probe of the allow-list itself"
    try:  # an entry covers its package's modules and no module that merely shares its prefix
        assert _allowed("paili.runtime.game.offers") and _allowed("paili.runtime.game")
        assert not _allowed("paili.runtime.gamex") and not _allowed("paili.runtime.rules")
    finally:
        del DICT_ALLOWED["paili.runtime.game"]
