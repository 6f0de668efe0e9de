"""Human-readable (Chinese) rendering of scoring results for the terminal, with rich."""
from __future__ import annotations

from io import StringIO

from rich.console import Console
from rich.table import Table


def _fmt(v) -> str:
    from fractions import Fraction

    if isinstance(v, Fraction):
        return str(int(v)) if v.denominator == 1 else f"{float(v):g}"
    if isinstance(v, bool):
        return "是" if v else "否"
    if v is None:
        return "—"
    return str(v)


def render_score(rules, res) -> str:
    out = StringIO()
    con = Console(file=out, width=100, color_system=None, legacy_windows=False)
    title = rules.ir.variant.title
    if not res.win:
        con.print(f"{title}：不能和牌 — {res.reason}")
        if res.evaluation is None:
            return out.getvalue()
        con.print("（下面是这手牌最好的拆法能得到的番种与合计）")
    ev = res.evaluation
    units = {u.name: u.combine for u in rules.ir.units}
    t = Table(title=f"{title} · 计分", show_lines=False)
    t.add_column("番种 / 名堂")
    t.add_column("数值", justify="right")
    t.add_column("次数", justify="right")
    for f in ev.fans:
        how = units.get(f.unit, "sum")
        shown = f"×{_fmt(f.value)}" if how == "product" else f"{_fmt(f.value)}{f.unit}"
        t.add_row(f.name, shown, str(f.count))
    con.print(t)
    for name, v in ev.units.items():
        con.print(f"{name}：{_fmt(v)}")
    for name, v in ev.quantities.items():
        con.print(f"{name}：{_fmt(v)}")
    con.print(f"合计：{_fmt(ev.total)}    得分：{_fmt(ev.score)}")
    con.print(f"拆牌：{ev.reading.describe()}（{ev.reading.form}）")
    if ev.excluded:
        con.print("不计：" + "，".join(f"{p}（{by}）" for p, by in ev.excluded))
    return out.getvalue()


def render_waits(rules, waits) -> str:
    out = StringIO()
    con = Console(file=out, width=100, color_system=None)
    if not waits:
        con.print("没有可以和的牌。")
        return out.getvalue()
    t = Table(title=f"{rules.ir.variant.title} · 和张")
    t.add_column("和张")
    t.add_column("番种 / 名堂")
    t.add_column("得分", justify="right")
    for k, res in waits:
        t.add_row(f"{k.glyph} {k.name}" if k.glyph else k.name,
                  "、".join(f"{f.name}×{f.count}" if f.count > 1 else f.name for f in res.fans),
                  _fmt(res.score))
    con.print(t)
    return out.getvalue()


def render_describe(rules) -> str:
    rs = rules.ir
    out = StringIO()
    con = Console(file=out, width=110, color_system=None)
    con.print(f"{rs.variant.title}（{rs.variant.id}）")
    t = Table(title="可设定的名称（--set NAME=VALUE）")
    for col in ("名称", "种类", "类型", "默认", "说明"):
        t.add_column(col)
    from ..runtime.evaluate import compile_expr

    for s in rs.settings:
        try:
            d = compile_expr(s.default)({"tile-lookup": lambda n: n})
        except Exception:
            d = None
        t.add_row(s.name, "房间选项" if s.role == "option" else "情境", s.type, _fmt(d), s.doc.split("\n")[0][:40])
    for r in rs.reveals:
        t.add_row(r.name, "翻牌", "tile", "—", r.doc.split("\n")[0][:40])
    con.print(t)
    t = Table(title="番种 / 名堂")
    for col in ("名称", "数值", "不计"):
        t.add_column(col)
    from ..runtime.ir import expr as E

    for p in rs.patterns:
        v = p.value.text if isinstance(p.value, E.Num) else "按公式"
        t.add_row(p.name, f"{v} {p.unit}", "、".join(x.pattern + (f"−{x.decrement}" if x.decrement else "")
                                                   for x in p.excludes))
    con.print(t)
    return out.getvalue()
