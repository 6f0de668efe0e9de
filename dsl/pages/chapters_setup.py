"""The chapters of a help page about the tile set and the table: tiles with their counts, players, dealer
and dealing, reveals and wildcards, groups."""
from __future__ import annotations

from fractions import Fraction

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from . import words as W
from .page_data import AttrRow, Chapter, Fact, Item, MeldRow, Text, TileRow, ValueTable
from .page_support import markup
from .tiles import TileView


class SetupChapters:
    """The chapters of the tile set and the table: tiles, players and dealing, reveals and wildcards,
    groups (a mixin of `PageBuilder`, dsl/pages/variant.py)."""

    # ------------------------------------------------------------------ tiles

    def tile_totals(self, options: dict) -> tuple[int, list[str]]:
        from ...runtime.tiles import Catalog

        cat = Catalog(self.rs, {f"option:{k}": v for k, v in options.items()})
        main = sum(k.copies for k in cat.kinds if k.category in ("suited", "honor"))
        extra = []
        flowers = sum(k.copies for k in cat.kinds if k.category == "flower")
        if flowers:
            extra.append(f"花{flowers}张")
        for k in cat.kinds:
            if k.category == "joker":
                extra.append(f"{k.name}{k.copies}张")
        return main, extra

    def copies_text(self, e: E.Expr) -> tuple[str, str, int | None]:
        """(copies, where the number comes from, value)"""
        v = self.eval_setup(e)
        if isinstance(e, E.Num) or v is not None:
            return W.num(v), self.setting_note(e), v
        return self.w.text(e), "", None

    def tiles(self) -> Chapter:
        rs = self.rs
        t = rs.tiles
        self.place("tiles", t)
        rows: list[TileRow] = []
        for s in t.suits:
            kinds = [k for k in t.kinds if k.category == "suited" and k.suit == s.name]
            each, note, n = self.copies_text(s.copies)
            sub = W.num(n * len(kinds)) if isinstance(n, (int, Fraction)) else ""
            rows.append(TileRow(s.name, self.book.views(k.name for k in kinds), each, sub, Text.of(s),
                                self.only_when(s.enabled), note))
        merged: dict[tuple, TileRow] = {}
        counts: dict[int, int | None] = {}
        for k in t.kinds:
            if k.category == "suited":
                continue
            each, note, n = self.copies_text(k.copies)
            label = ("、".join(k.attrs) if k.attrs else W.CATEGORY[k.category]) if k.category == "honor" else (
                k.flower_class or W.CATEGORY[k.category])
            cond = self.only_when(k.enabled)
            key = (k.category, label, each, note, k.doc, k.notes, cond)
            row = merged.get(key)
            if row is None:
                row = merged[key] = TileRow(label, [], each, "", Text.of(k), cond, note)
                rows.append(row)
                counts[id(row)] = n
            row.tiles.append(self.book.view(k.name))
        for row in rows:
            n = counts.get(id(row))
            if not row.subtotal and isinstance(n, (int, Fraction)):
                row.subtotal = W.num(n * len(row.tiles))
        total, extra = self.tile_totals({})
        totals = [f"全副牌共{total}张" + "".join(f"，另有{x}" for x in extra) + "（按默认的房间选项）"]
        for s in rs.settings:
            if s.role != "option" or s.type != "bool":
                continue
            uses = [x for x in list(t.suits) + list(t.kinds) if x.enabled is not None and any(
                isinstance(n, E.Name) and n.ref == f"option:{s.name}" for n in E.walk(x.enabled))]
            if uses:
                alt = not self.defaults.get(s.name)
                n2, extra2 = self.tile_totals({s.name: alt})
                totals.append(f"{'选' if alt else '不选'}「{s.name}」时共{n2}张"
                              + "".join(f"，另有{x}" for x in extra2))
        attrs: list[AttrRow] = []
        from ...runtime.tiles import Catalog

        cat = Catalog(rs, {})
        declared = []
        for k in t.kinds:
            for a in k.attrs:
                if a not in declared:
                    declared.append(a)
        defs = {a.name: a for a in t.attrs}
        for a in declared + [a.name for a in t.attrs if a.name not in declared]:
            members = [k.name for k in cat.kinds if k.attrs.get(a)]
            d = defs.get(a)
            attrs.append(AttrRow(a, self.book.views(members), self.w.both(d.expr, True) if d else None, Text.of(d)))
        return Chapter("tiles", "牌与张数", {"text": Text.of(t), "rows": rows, "totals": totals, "attrs": attrs})

    def only_when(self, e: E.Expr | None) -> str:
        if e is None:
            return ""
        c = self.w.text(e, True)
        return f"{c}时才有"

    # ------------------------------------------------------------------ table

    def players_text(self) -> str:
        p = self.rs.table.players
        if isinstance(p, E.Num):
            return f"{p.text}人"
        if isinstance(p, E.Name):
            s = self.rs.setting(p.name)
            if s is not None and s.values:
                vals = [W.num(self.eval_setup(v)) for v in s.values]
                return f"{'、'.join(vals[:-1])}或{vals[-1]}人（房间选项「{s.name}」，默认{self.default_text(s)}人）"
            if s is not None:
                return f"{self.default_text(s)}人（房间选项「{s.name}」）"
        return self.w.text(p)

    def table(self) -> Chapter:
        t = self.rs.table
        self.place("table", t)
        facts = [Fact("玩家", self.players_text())]
        hand = f"开局每人{t.hand}张"
        if t.dealer_extra:
            hand += f"，庄多拿{t.dealer_extra}张（共{t.hand + t.dealer_extra}张）"
        facts.append(Fact("开局", hand))
        facts.append(Fact("首局", W.FIRST_DEALER.get(t.first_dealer, t.first_dealer)))
        rotation = getattr(t, "rotation", "")
        if rotation:
            way = W.ROTATION.get(rotation, rotation)
            # the deal passes round the table only when the next dealer is someone's next seat
            rotates = t.next_dealer is not None and any(
                isinstance(n, E.Call) and n.func == "next" for n in E.walk(t.next_dealer))
            what = "出牌和轮流坐庄都" if rotates else "出牌"
            facts.append(Fact("方向", f"{what}按{way}方向，「下家」即{way}方向的下一位"))
        if t.next_dealer is not None:
            cases = self.w.cases(t.next_dealer)
            parts_t, parts_h = [], []
            for cond, who in cases:
                if cond is None:
                    parts_t.append(f"否则由{who.text}坐庄" if len(cases) > 1 else f"由{who.text}坐庄")
                    parts_h.append(f"否则由{who.html}坐庄" if len(cases) > 1 else f"由{who.html}坐庄")
                else:
                    parts_t.append(f"{cond.text}时，由{who.text}坐庄")
                    parts_h.append(f"{cond.html}时，由{who.html}坐庄")
            from markupsafe import Markup
            facts.append(Fact("下一局", "；".join(parts_t), Markup("；".join(parts_h))))
        if t.winners_leave:
            ends = []
            if t.ends_when is not None:
                ends.append(self.w.text(t.ends_when, True))
            ends += ["只剩一位玩家还在局中", "牌墙摸完" if t.exhaust_at == 0 else f"牌墙只剩{t.exhaust_at}张"]
            facts.append(Fact("和牌之后", "玩家和牌时本局并不结束：赢家离场，不再抓牌、出牌，也不能吃、碰、杠、和，"
                              "每次和牌当时就结算；其余玩家从最后一位赢家的下家接着打，直到"
                              + "、".join(ends[:-1]) + "或" + ends[-1] + "时本局结束"))
        if t.seat_names:
            # (a number of players past the names is refused by the compiler; an expression may give more)
            more = "" if isinstance(t.players, E.Num) else f"；玩家多于{len(t.seat_names)}位时按座位号称呼"
            facts.append(Fact("座位", "从坐庄的玩家起按行牌方向依次称为" + "、".join(t.seat_names) + more))
        word = t.exhaust_word
        facts.append(Fact(word, f"牌墙摸完仍没有玩家和牌，即为{word}" if t.exhaust_at == 0
                          else f"牌墙只剩{t.exhaust_at}张时仍没有玩家和牌，即为{word}"))
        # replacement draws exist only after an action with `then replace` or for a flower set aside
        if any(a.then == "replace" for a in self.rs.actions) or \
                any(k.category == "flower" for k in self.rs.tiles.kinds):
            facts.append(Fact("补牌", f"开杠等需要补牌时，从{W.WALL_END.get(t.replacement, t.replacement)}摸取"))
        return Chapter("table", "玩家、坐庄与发牌", {"facts": facts, "text": Text.of(t)})

    # ------------------------------------------------------------------ reveals and wildcards

    def wilds(self) -> Chapter | None:
        rs = self.rs
        items: list[Item] = []
        for r in rs.reveals:
            self.place("wilds", r)
            at = W.REVEAL_AT.get(getattr(r, "at", "deal"), "发牌后")
            facts = [Fact("翻出", f"{at}从{W.WALL_END.get(r.source, r.source)}翻开一张"
                                 + (f"（跳过{r.offset}张）" if r.offset else "")
                                 + ("，所有人可见" if r.visible else "，不公开"))]
            if r.skip:
                facts.append(Fact("重翻", f"翻出的是{W.FIELD.get(r.skip, r.skip)}时放在一边，再翻一张"))
            facts.append(Fact("这一张", "不再参与牌局" if r.removes_copy else "仍留在牌墙里"))
            if getattr(r, "unless", None) is not None:
                u = self.w.both(r.unless, True)
                facts.append(Fact("不翻", f"{u.text}时不翻", markup("", u.html, "时不翻")))
            if r.moves_when is not None:
                f = self.w.both(r.moves_when, True)
                facts.append(Fact("换牌", f"当{f.text}时，改翻下一张", markup("当", f.html, "时，改翻下一张")))
            items.append(Item(r.name, facts, Text.of(r), anchor=f"reveal-{r.name}"))
        for wd in rs.wilds:
            self.place("wilds", wd)
            src = (f"翻出的「{wd.tiles}」及与它相同的牌" if any(r.name == wd.tiles for r in rs.reveals)
                   else f"「{wd.tiles}」")
            facts = [Fact("万能牌", f"{src}可以当作任何一张牌"
                          + (f"（{W.FIELD.get(wd.except_attr, wd.except_attr)}除外）" if wd.except_attr else ""))]
            if wd.no_meld:
                facts.append(Fact("不能组成", "、".join(wd.no_meld)))
            if getattr(wd, "no_action", ()):
                facts.append(Fact("不能用于", "、".join(self.action_word(a) for a in wd.no_action)))
            if wd.scope == "win_tile":
                facts.append(Fact("范围", "只有和的那一张可以当万能牌"))
            if wd.active is not None:
                f = self.w.both(wd.active, True)
                facts.append(Fact("生效", f"仅当{f.text}时", markup("仅当", f.html, "时")))
            items.append(Item(wd.name, facts, Text.of(wd), self.book.views(
                [wd.tiles] if wd.tiles in self.book.kinds else []), anchor=f"wild-{wd.name}"))
        for s in rs.standins:
            self.place("wilds", s)
            plays = self.w.both(s.plays)
            # A stand-in plays as one tile kind (for a reveal: the kind flipped, its 本牌), never as a wildcard.
            ref = getattr(s.plays, "ref", "") or ""
            if ref.startswith("reveal:"):
                pre, post = f"「{s.name}」当作翻出的", "那种牌本身（本牌）：只当这一种牌，不是万能牌"
            else:
                pre, post = f"「{s.name}」当作", "：只当这一种牌，不是万能牌"
            facts = [Fact("当作", f"{pre}{plays.text}{post}", markup(pre, plays.html, post))]
            if s.unless is not None:
                u = self.w.both(s.unless, True)
                facts.append(Fact("除非", u.text, u.html))
            items.append(Item(s.name, facts, Text.of(s), self.book.views([s.name] if s.name in self.book.kinds
                                                                          else []), anchor=f"standin-{s.name}"))
        if not items:
            return None
        return Chapter("wilds", "翻牌与万能牌", {"items": items})

    # ------------------------------------------------------------------ melds

    def value_quantity(self) -> str:
        """The quantity that adds up the groups' values (its name heads the value table)."""
        for q in self.rs.quantities:
            if any(isinstance(x, E.Attr) and x.name == "value" for x in E.walk(q.expr)):
                return q.name
        return "数值"

    def shape(self, m: ir.MeldKind) -> tuple[str, list[TileView]]:
        s = m.shape
        if s.kind == "run":
            return f"同一花色相连的{W.cn_count(s.size)}张", []
        if s.kind == "same":
            return f"{W.cn_count(s.size)}张相同的牌", []
        if s.kind == "ranks":
            return f"同一花色的{'、'.join(str(r) for r in s.ranks)}", []
        if s.kind == "tiles":
            return "正是这几张：" + "、".join(s.tiles), self.book.views(s.tiles)
        if s.kind == "same_rank":
            return (f"点数相同的{W.cn_count(s.size)}张" + ("，不止一种花色" if s.mixed else "")), []
        return s.kind, []

    def melds(self) -> Chapter | None:
        rs = self.rs
        if not rs.melds:
            return None
        rows = []
        for m in rs.melds:
            self.place("melds", m)
            flags = []
            if m.pair:
                flags.append("对子")
            if m.hand:
                flags.append("可在手中组成")
            if m.exposed:
                flags.append("亮在桌面（副露）")
            elif not m.hand:
                flags.append("暗放在桌面")
            if m.kong:
                flags.append("算杠")
            if m.upgrades:
                ups = [m.upgrades] if isinstance(m.upgrades, str) else list(m.upgrades)
                flags.append(f"在{'或'.join(f'「{u}」' for u in ups)}上加第四张而成")
            if m.grows:
                flags.append("可再加一张其中的牌" if m.grow_limit == 1 else
                             f"可一次一张地再加其中的牌，最多再加{W.cn_count(m.grow_limit)}张")
            if getattr(m, "shown", None) is not None:
                flags.append(f"亮出{W.cn_count(m.shown)}张" if m.shown else "全部扣着")
            shape, tiles = self.shape(m)
            vals = "，".join(f"{v.suit}{W.num(self.eval_setup(v.value))}" if v.suit else
                            W.num(self.eval_setup(v.value)) for v in m.values)
            rows.append(MeldRow(m.name, shape, tiles, "、".join(flags), vals, Text.of(m)))
        table = None
        valued = [m for m in rs.melds if m.values]
        if valued:
            suits = [s.name for s in rs.tiles.suits if any(v.suit == s.name for m in valued for v in m.values)]
            cols = suits if suits else ["—"]
            trows = []
            for m in valued:
                cells = []
                for s in cols:
                    v = next((x for x in m.values if x.suit == s), None) or next(
                        (x for x in m.values if not x.suit), None)
                    if v is None:
                        cells.append("")
                        continue
                    val = W.num(self.eval_setup(v.value))
                    sample = self.rank_sample(m, s)
                    cells.append(f"{sample} {val}" if sample else val)
                trows.append((m.name, cells))
            q = self.value_quantity()
            table = ValueTable(f"{q}表", q, cols, trows)
        return Chapter("melds", "牌组", {"rows": rows, "table": table})

    def rank_sample(self, m: ir.MeldKind, suit: str) -> str:
        """The cards of a fixed-rank group in one suit (e.g. 贰柒拾), written with the suit's characters."""
        if m.shape.kind != "ranks":
            return ""
        kinds = {k.rank: k for k in self.rs.tiles.kinds if k.suit == suit}
        return "".join((kinds[r].char or kinds[r].name) if r in kinds else str(r) for r in m.shape.ranks)
