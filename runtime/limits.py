"""The stated limits on input size and work (docs/language.md, "Limits").

Rule files, hands and batch lines come from users, so every size that could make the compiler or the
runtime work without bound has a limit here, checked before the work starts. Each one is refused with
its own diagnostic (rule files) or one sentence (hands, batch lines). The checker (dsl/) and the runtime
both read these numbers, so they live in the runtime, which does not depend on the compiler.
"""
from __future__ import annotations

# ---- rule files (checked by the compiler; codes E7xx)
MAX_RULE_FILE_BYTES = 1_000_000  # E701: the bundled files are 30-50 KB
MAX_NUMBER_DIGITS = 30  # E702: digits of one number literal (integer and fraction parts together)
MAX_EXPONENT = 1000  # E702: a constant exponent of `^`
MAX_EXPR_DEPTH = 64  # E703: nesting of one expression (operators, calls, parentheses)
MAX_COMP_DEPTH = 8  # E703: comprehensions nested in one another
MAX_BLOCK_DEPTH = 16  # E703: `{ … }` blocks nested in one another
MAX_EXPR_NODES = 2000  # E704: nodes of one expression
MAX_COMP_WORK = 100_000  # E705: body evaluations of one expression per reading (product of list bounds)
MAX_COPIES = 64  # E706: copies of one tile kind
MAX_KINDS = 512  # E706: tile kinds in play (ranks × suits + honors + …)
MAX_TABLE_SIZE = 256  # E706: players, hand size and the other counts of `table`
MAX_WILDS_HELD = 8  # E706 at compile time (the most wildcards one hand can hold); HandError at run time
MAX_ROLL_TIMES = 20  # E402: items one `roll` draws (`times N`, dice summed)
MAX_SELECT = 4  # E402: tiles one `select N` decision chooses (its moves are the distinct sets of N tiles)
SELECT_WORK = 20_000  # sets of tiles one `select` offer examines (a hand of 40 tiles and N = 4 has 91,390)

# ---- compiled JSON rule sets (checked by the loader, runtime/ir/serialize.py; one sentence)
MAX_RULESET_JSON_BYTES = 16_000_000  # the bundled ones are 0.2-0.5 MB, about ten times their source

# ---- values at run time: a number that would pass this is an error of the reading (the reading is rejected,
# like a division by zero), in the closures and in the generated code alike; a power is refused before it
# is computed
MAX_VALUE_DIGITS = 100  # digits of a number's numerator or denominator
MAX_VALUE = 10 ** MAX_VALUE_DIGITS

# ---- hands and batch lines (checked by the runtime and the CLI; one-sentence errors)
MAX_TILE_TEXT = 1000  # characters of one hand, meld or winning-tile text
MAX_MELDS = 32  # exposed melds given with one hand
MAX_HAND_TILES = 64  # tiles of one hand, melds and winning tile included
MAX_BATCH_LINE = 65_536  # bytes of one `score --batch` line
CONTEXTS_KEPT = 1024  # distinct contexts whose environment a rule set keeps (the table starts over past it)
MAX_BATCH_DEPTH = 32  # arrays and objects nested in one batch line's JSON (a valid line needs 2)

# ---- work of one hand (runtime/rules.py; a one-sentence HandError). Counted over the whole question asked
# of the hand: its score, or its waits (every trial tile), together with the waits that scoring reads
HAND_WORK = 1_000_000  # work units: a table entry of the signature decomposition or a split read is one,
READING_WORK = 20  # and a reading scored or tested is this many (a few microseconds each, in Python)
SPLIT_LIMIT = 200_000  # splits of one hand read one by one (where signatures are not used), within HAND_WORK
# What a hand past those limits is refused with (its wildcards' readings: runtime/hand_signatures.py and
# the native readings alike)
LIMIT_SENTENCE = ("this hand has more ways to read its wildcards than paili examines for one hand "
                  f"({HAND_WORK:,} work units: a table entry or a split read is one, a reading scored "
                  f"{READING_WORK}; or {SPLIT_LIMIT:,} splits when every split is read)")
EXAMPLES_WORK = 4_000_000  # work units the examples of one rule file may use together (runtime/examples.py)


class LimitError(ValueError):
    """A limit exceeded at run time; the message is one sentence for the user."""


def too_big(v) -> bool:
    """Whether a number passes MAX_VALUE (ints and Fractions; anything else is not a number here)."""
    if type(v) is int:
        return not -MAX_VALUE < v < MAX_VALUE
    num = getattr(v, "numerator", None)
    if num is None or isinstance(v, bool):
        return False
    return not (-MAX_VALUE < num < MAX_VALUE and v.denominator < MAX_VALUE)


def power_too_big(base, exp: int) -> bool:
    """Whether base ^ exp passes MAX_VALUE, decided without computing a huge power: an estimate from bit
    lengths first, the exact value only when it is small enough to compute at once."""
    if exp == 0:
        return False
    num, den = abs(getattr(base, "numerator", base)), getattr(base, "denominator", 1)
    if exp < 0:
        num, den = den, num
    if num <= 1 and den <= 1:
        return False
    bits = max(num.bit_length(), den.bit_length()) * abs(exp)
    if bits > 4 * 4 * MAX_VALUE_DIGITS:  # more than 4 × log2(10^MAX_VALUE_DIGITS): certainly too big
        return True
    return num ** abs(exp) >= MAX_VALUE or den ** abs(exp) >= MAX_VALUE
