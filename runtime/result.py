"""What scoring one hand gives the caller: ScoreResult (its JSON form is a contract), and values as JSON writes them."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .money import exact
from .scoring import Evaluation
from .tiles import TileInfo


@dataclass
class ScoreResult:
    win: bool
    reason: str = ""
    evaluation: Evaluation | None = None
    readings: int = 0
    rejected: list[str] = field(default_factory=list)

    @property
    def fans(self):
        return self.evaluation.fans if self.evaluation else []

    @property
    def score(self):
        return self.evaluation.score if self.evaluation else 0

    @property
    def total(self):
        return self.evaluation.total if self.evaluation else 0

    def to_json(self) -> dict:
        ev = self.evaluation
        out: dict[str, Any] = {"win": self.win}
        if not self.win:
            out["reason"] = self.reason
        out["fans"] = [{"name": f.name, "value": plain_value(f.value), "count": f.count,
                        "value_exact": exact(f.value)} for f in self.fans]
        out["total"] = plain_value(ev.total) if ev else 0
        out["score"] = plain_value(ev.score) if ev else 0
        out["total_exact"] = exact(ev.total) if ev else "0"
        out["score_exact"] = exact(ev.score) if ev else "0"
        out["quantities"] = {k: plain_value(v) for k, v in (ev.quantities.items() if ev else [])}
        reading = ev.reading if ev else None
        win = reading.win_tile if reading else None
        out["trace"] = {
            "reading": reading.describe() if reading else "",
            # the reading's tiles beside their names in the notation's codes (`5m`, `东`): its groups
            # (declared melds first), the concealed tiles it reads, the winning tile
            "groups": [group_json(g) for g in (reading.groups if reading else [])],
            "concealed": [t.kind.name for t in reading.hand] if reading else [],
            "concealed_codes": [t.kind.notation_code for t in reading.hand] if reading else [],
            "win_tile": win.kind.name if win else None,
            "win_tile_code": win.kind.notation_code if win else None,
            "form": ev.reading.form if ev else "",
            "readings_considered": self.readings,
            "fired": [{"pattern": f.pattern, "unit": f.unit, "count": f.count} for f in self.fans],
            "excluded": [{"pattern": p, "by": by} for p, by in (ev.excluded if ev else [])],
            "units": {k: plain_value(v) for k, v in (ev.units.items() if ev else [])},
            "rejected": self.rejected[:10],
        }
        return out


def group_json(g) -> dict:
    """A group of a reading as JSON: its meld kind, its tiles (what each plays as) by name and by code,
    whether it was laid down before the win (`declared`), exposed, and holds the winning tile."""
    return {"kind": g.kind, "tiles": [t.kind.name for t in g.tiles], "codes": [t.kind.notation_code for t in g.tiles],
            "wild": [t.wild for t in g.tiles], "declared": g.declared, "exposed": g.exposed, "has_win": g.has_win}


def plain_value(v):
    """A value as JSON writes it: a whole Fraction as an int, another as a float, a tile by its name."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, TileInfo):
        return v.name
    return v
