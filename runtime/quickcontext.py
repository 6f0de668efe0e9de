"""The settings of a batch line's context (`set`) for the native batch driver, from a table the reference
made (runtime/batchsetup.py records it): no IR objects, no `Rules`.

A context's native scoring differs from the empty context's only in its settings, the values the native
scoring programs read (`NativeScorer.hand_state`: each setting the scorer names, encoded), as long as the
catalog is the same (no room option the tiles read) and no tile's wildness depends on it (a rule set
without wildcards or stand-ins). The table lists, for each setting, the values the reference's own
conversion (runtime/contexts.py `Contexts.convert`) takes and what each becomes, encoded: booleans and
their words, every whole number of a small range, every tile's name and code. A value not in the table,
a name it does not know, a room option the catalog reads: the context is left to today's path (the
`Rules` the driver then loads), which converts it, or refuses it with its sentence.
"""
from __future__ import annotations

BOOL_WORDS = (True, False, "true", "false", "1", "0", "yes", "no", "是", "否", "True", "False")
RANGE_LISTED = 1024  # a whole-number setting whose range is at most this wide has every value listed


def _key(raw) -> tuple | None:
    t = type(raw)
    if t is bool or t is int or t is str:
        return t.__name__, raw
    return None


def context_table(rules, names: list, cat) -> dict | None:
    """{"names": the settings the native scorer reads, "settings": {name: {"pos": its position or None,
    "values": [[type, raw, encoded], …]}}}, made by the reference's conversion; None when a context can
    change more than the settings (wildcards or stand-ins whose play a context may decide, or room
    options the catalog reads whatever they are)."""
    from .hand import HandError
    from .nativecounts import Unencodable, encode

    rs = rules.ir
    if rs.wilds or rs.standins:
        return None
    read = rules.catalog_option_names()
    if read is None:
        return None
    conv = rules.contexts
    out: dict = {}
    for s in rs.settings:
        key = f"{s.role}:{s.name}"
        if key in read:
            continue  # it may set up another catalog: today's path
        raws: list = []
        if s.type == "bool":
            raws = list(BOOL_WORDS)
        elif s.type in ("int", "seat") and s.range and s.range[1] - s.range[0] <= RANGE_LISTED:
            raws = list(range(s.range[0], s.range[1] + 1))
        elif s.type == "tile":
            raws = sorted({x for k in cat.kinds for x in (k.name, k.notation_code) if isinstance(x, str) and x})
        pairs = []
        for raw in raws:
            try:
                v = conv.convert(s, raw)
                if s.type == "tile" and v is not None:
                    v = cat.by_name.get(v.name)
                pairs.append([type(raw).__name__, raw, encode(v)])
            except (HandError, Unencodable):
                continue
        out[s.name] = {"pos": names.index(key) if key in names else None, "values": pairs}
    return {"names": list(names), "settings": out}


class QuickContexts:
    """A context's settings from the recorded table: the (position, encoded value) changes from the empty
    context's settings, or None (today's path)."""

    def __init__(self, table: dict | None):
        self.settings: dict = {}
        if table is not None:
            for name, entry in table["settings"].items():
                self.settings[name] = (entry["pos"], {(t, raw): enc for t, raw, enc in entry["values"]})

    def changes(self, ctx: dict) -> list | None:
        out = []
        for name, raw in ctx.items():
            entry = self.settings.get(name)
            key = _key(raw)
            if entry is None or key is None or key not in entry[1]:
                return None
            if entry[0] is not None:
                out.append((entry[0], entry[1][key]))
        return out


__all__ = ["QuickContexts", "context_table"]
