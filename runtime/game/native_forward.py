"""What a native game (native_game.py `NativeGame`) forwards to the Python game replayed beside it
(`NativeGame.mirror`): every attribute of the reference's game (`flow.Game`: its methods, class attributes
and the slots every instance sets) that the native game does not answer itself, one class attribute each.

Why not a `__getattr__` hook: CPython (3.11 on) specialises no attribute read of an instance whose type has
one, so every `self.x` in the native game's hot methods (a step of the learning environment runs several)
cost a generic look-up. A forwarder is a non-data descriptor (`__get__` only), looked up as `__getattr__`
was reached: after the instance's own attributes, so a value set on the native game still wins."""
from __future__ import annotations


class Forward:
    """The reference's attribute `name`, read of the game's Python game (`mirror()`, replayed on first use)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:  # (read of the class: the class answers none of the reference's attributes)
            raise AttributeError(self.name)
        return getattr(obj.mirror(), self.name)


def reference_names(ref: type) -> set[str]:
    """Every attribute a caller can read of a game of class `ref` (its class's names — methods, class
    attributes, the instances' slots — but the special `__x__` ones). The reference declares every
    attribute its instances set in `__slots__` and has no instance `__dict__` (flow.py)."""
    return {name for name in dir(ref) if not name.startswith("__")}


# the names forwarded, by the native class they are installed on (`forward`)
INSTALLED: dict[type, tuple[str, ...]] = {}


def forward(native: type, own: tuple[str, ...], ref: type) -> None:
    """Install on class `native` (once) a `Forward` for each of `ref`'s attributes that neither `native` nor
    its instances (`own`: the names each sets) answer. Those it answers are left to it: a class attribute of
    an instance's own name would cost that name's reads their specialisation."""
    if native not in INSTALLED:
        names = tuple(sorted(reference_names(ref) - set(dir(native)) - set(own)))
        for name in names:
            setattr(native, name, Forward(name))
        INSTALLED[native] = names
