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
