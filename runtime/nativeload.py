"""The native core's extension module, imported once: the one place it is named (pyproject.toml builds it).

Apart from runtime/backend.py (which re-exports it with the backend's choice) so that a start-up that
needs only the module — the quick batch, runtime/quickbatch.py — does not compile the backend's
protocols and structures (this package's modules are compiled from source at each start where no
bytecode is written).
"""
from __future__ import annotations

import importlib

NATIVE_MODULE = f"{__package__}._native"

_MODULE: list = []  # [module or None], imported once


def native_module():
    """The extension module, or None when it is not built (or cannot be loaded)."""
    if not _MODULE:
        try:
            _MODULE.append(importlib.import_module(NATIVE_MODULE))
        except ImportError:
            _MODULE.append(None)
    return _MODULE[0]


__all__ = ["NATIVE_MODULE", "native_module"]
