"""The types of the expression language (they live with the IR: runtime/ir/types.py)."""
from ..runtime.ir.types import NUMERIC, assignable, base, compatible, elem, is_list, is_num, show  # noqa: F401
