"""The registry of diagnostic codes: one entry per code, with its title, an explanation, an example that
triggers it and how to fix it.

Codes are a public contract (tools and users match on them): never renumber one, and retire a code by
keeping its entry with `retired` set. `paili explain CODE` prints an entry, and the code table of
docs/language.md §39 is generated from this registry (`python -m paili explain --markdown --write
docs/language.md`; a test checks it is current). Each example is a fragment read after PRELUDE (a
minimal rule file) unless it is `standalone`; a test compiles every example and checks it
reports its code, so the examples cannot fall behind the compiler.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

# The examples below are fragments read after this minimal rule file. Its names are one character (like
# the fragments' names): the registry must not carry a variant's vocabulary (tests/test_generic_runtime.py).
PRELUDE = """\
variant demo "示例" { doc "diagnostic examples" }
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z" }
  honor 中 { code "7z" }
}
table { players 4; hand 13 }
option 底 int = 1 { range 1..100 }
meld 顺 { shape run 3; hand true }
meld 刻 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 胡 { melds 4; pairs 1 }
unit 番 sum
score = 番
"""

# Codes reported only when a file's examples are scored (compile_text(…, examples=True)).
EXAMPLE_CODES = frozenset({"E506", "E508"})


@dataclass(frozen=True)
class Code:
    code: str  # E… is an error (the file does not compile), W… a warning
    title: str  # one line: the row of the table in docs/language.md §39
    explanation: str  # a paragraph: what the compiler found and why it refuses (or warns about) it
    fix: str  # one or two sentences: what to change
    example: str = ""  # rule-file text that reports this code (after PRELUDE unless standalone)
    no_example: str = ""  # why there is no example (exactly one of example / no_example is given)
    standalone: bool = False  # the example is a whole file, not a fragment after PRELUDE
    retired: str = ""  # set when the compiler no longer reports the code (the code is never reused)

    @property
    def severity(self) -> str:
        # The letter decides, as it does for Diagnostic.is_error.
        return "error" if self.code.startswith("E") else "warning"

    def source(self) -> str:
        """The whole rule file of the example ("" when there is none)."""
        if not self.example:
            return ""
        if self.standalone:
            return self.example
        return PRELUDE + f"# the prelude ends; these lines report {self.code}:\n" + self.example

    def render(self) -> str:
        """The text of `paili explain CODE`."""
        out = [f"{self.code} ({self.severity}): {self.title}", "", textwrap.fill(self.explanation, 100), "",
               textwrap.fill(f"Fix: {self.fix}", 100)]
        if self.retired:
            out += ["", f"Retired: {self.retired}"]
        if self.example:
            # The whole file, prelude included, so that it can be saved and given to `paili check`.
            out += ["", f"Example (a whole rule file; `paili check` on it reports {self.code}):", ""]
            out += ["    " + ln if ln else "" for ln in self.source().rstrip("\n").split("\n")]
        else:
            out += ["", f"No example: {self.no_example}"]
        return "\n".join(out)


REGISTRY: tuple[Code, ...] = (
    # ------------------------------------------------------------------ E1xx: syntax
    Code("E101", "syntax error: unexpected token",
         "The parser met a word, number or symbol where the grammar allows none: a doubled operator, an "
         "extra `)` or `}`, a key that starts with a digit, a missing operand. The caret is on the token.",
         "Look just before the caret: the mistake is usually there (a missing operand, a stray bracket).",
         example="pattern 甲 { value 1 番; when len(melds) == == 4 }\n"),
    Code("E102", "syntax error: unexpected character (e.g. a Chinese quotation mark)",
         "The file holds a character the language does not use outside strings: most often a Chinese "
         "quotation mark (“ ” ‘ ’) typed for a plain one, or a string or tile literal left unclosed.",
         "Write strings with plain double quotes \"…\" and tiles with plain single quotes '…', and close them.",
         example="pattern 甲 { value 1 番; label “甲”; when true }\n"),
    Code("E103", "syntax error: unexpected end of file (a missing `}` or `)`)",
         "The file ends inside a block or an expression: a `{` or `(` is not closed. The caret is at the end "
         "of the file; the unclosed bracket is earlier.",
         "Close the block or parenthesis that is still open (the last statement is usually the one).",
         example="pattern 甲 { value 1 番; when true\n"),
    Code("E104", "the file cannot be read or is not UTF-8",
         "The rule file does not exist, cannot be read, or its bytes are not UTF-8 text (a file saved as "
         "GBK, for example). A byte-order mark at the start is accepted.",
         "Check the path and save the file as UTF-8.",
         no_example="the fault is in the file's bytes or its path, not in rule text"),
    # ------------------------------------------------------------------ E2xx: structure
    Code("E201", "unknown key in this block (with \"did you mean\")",
         "A block (or the top level) has a key the language does not define there, usually a misspelling. "
         "The message suggests the closest key that the block accepts.",
         "Correct the spelling, or move the key to the block it belongs to (docs/language.md lists each "
         "block's keys).",
         example="pattern 甲 { value 1 番; when true; lable \"甲\" }\n"),
    Code("E202", "a key given more than once (also a second `tiles`, `table`, `score`, `priority`)",
         "A key that may appear once in its block is given twice, or a statement the file may have only "
         "once (`tiles`, `table`, `score`, `priority`) appears again.",
         "Keep one of them (merge the two if both say something).",
         example="pattern 甲 { value 1 番; value 2 番; when true }\n"),
    Code("E203", "a missing required key (also a missing `tiles`, `table`, `score`)",
         "A block lacks a key it needs (a pattern without `when` or `count`, a meld without `shape`, a table "
         "without `hand`), or the file lacks a required statement.",
         "Add the key the message names.",
         example="pattern 甲 { value 1 番 }\n"),
    Code("E204", "wrong arguments for this key, or a word not in its vocabulary",
         "A key got the wrong kind or number of arguments, or a word that is not one of the words it accepts "
         "(a setting type, a shape, a unit combination …). The message lists the accepted words.",
         "Use one of the words the message lists, with the arguments docs/language.md shows for the key.",
         example="unit 分 add\n"),
    Code("E205", "this key takes no block / needs a block",
         "A key written with a `{ … }` block takes a plain value, or a key that needs a block (an `example`, "
         "a `pattern`) has none.",
         "Remove the block, or add the `{ … }` the key needs.",
         example="example 空\n"),
    Code("E206", "a missing or extra `variant` block",
         "Every rule file starts with exactly one `variant` block (its name, title and description). This "
         "file has none, or a second one.",
         "Keep one `variant NAME \"title\" { … }` at the top of the file.",
         example="variant two \"二\" { doc \"二\" }\n"),
    Code("E207", "this key takes no `= expression` / needs one",
         "A key that is computed (`quantity`, `score`, `value =`, `count =`) has no `= expression`, or a key "
         "with a fixed value is written with `=`.",
         "Add `= expression` after the key, or write its value without `=`.",
         example="quantity 甲\n"),
    Code("E208", "a `when` condition is not allowed here",
         "`when` is written after a key that is not conditional: only patterns, actions, restrictions, hooks "
         "and a few settings take a condition.",
         "Remove the `when …`, or put the condition in a pattern or action that uses this one.",
         example="meld 杠 { shape same 4; kong true when true }\n"),
    # ------------------------------------------------------------------ E3xx: names
    Code("E301", "unknown name (also an unknown event, meld kind, form, action or state)",
         "An expression or a reference names something that is not declared and is not a builtin name of "
         "this scope. Names of another scope (a hand's `self_drawn` inside a tile attribute) are unknown "
         "there too.",
         "Declare the name, correct its spelling, or use it where its scope provides it (docs/language.md "
         "§33 lists the builtin names of each scope).",
         example="pattern 甲 { value 1 番; when 乙 }\n"),
    Code("E302", "duplicate name",
         "Two declarations of the same kind share a name (two patterns, two options, two melds).",
         "Rename one of them, or merge them.",
         example="pattern 甲 { value 1 番; when true }\npattern 甲 { value 2 番; when true }\n"),
    Code("E303", "unknown tile in a tile literal",
         "A tile literal ('5p', '东东东') names a tile the `tiles` block does not declare, in the variant's "
         "notation (a suit code, an honor's code or name).",
         "Use the codes and names of the `tiles` block (each suit's `code`, each honor's name or code).",
         example="pattern 甲 { value 1 番; when win_tile in '5p' }\n"),
    Code("E304", "unknown field",
         "`x.field` names a field that values of that type do not have (a meld has `triplet`, not "
         "`triplets`; a boolean has no fields).",
         "Use a field of docs/language.md §34 (the message suggests the closest one).",
         example="pattern 甲 { value 1 番; when count(m in melds: m.triplets) == 4 }\n"),
    Code("E305", "unknown function",
         "A call names a function or comprehension the language does not have.",
         "Use a function of docs/language.md §32 (the message suggests the closest one).",
         example="pattern 甲 { value 1 番; when lenn(suits) == 1 }\n"),
    Code("E306", "a name declared in several kinds that the context does not decide: qualify it",
         "The name is declared as more than one kind of thing (an option and a pattern, say) and the place "
         "where it is used accepts either, so the compiler cannot tell which is meant.",
         "Qualify the name (`option.门`, `pattern.门`; docs/language.md §35) or rename one declaration.",
         example="option 门 bool = false\npattern 门 { value 1 番; when true }\n"
                 "pattern 甲 { value = 2 * 门; unit 番; when true }\n"),
    # ------------------------------------------------------------------ E4xx: types and values
    Code("E401", "type mismatch (also a non-whole number where a whole one is needed)",
         "An expression has a type its place does not accept: a count where a condition is needed, text in "
         "arithmetic, a tile compared with a number, branches of `if` of different types, a decimal where a "
         "whole number is needed.",
         "Make the expression produce the type the message names (compare a count with `== n`, for example).",
         example="pattern 甲 { value 1 番; when count(m in melds: m.triplet) }\n"),
    Code("E402", "value out of range",
         "A number is outside what its key allows: an option's default outside its `range`, a hand size or "
         "meld size the game cannot have, an empty range like `9..1`.",
         "Choose a value inside the range the message gives.",
         example="option 倍 int = 200 { range 1..100 }\n"),
    Code("E403", "wrong number of arguments",
         "A function is called with more or fewer arguments than it takes.",
         "Call it with the arguments docs/language.md §32 lists for it.",
         example="pattern 甲 { value 1 番; when len(suits, tiles) == 1 }\n"),
    Code("E404", "malformed comprehension",
         "A comprehension (`count(m in melds: …)`, `all(…)`, `filter(…)`) has no binder, a binder that is not "
         "a plain name, the same binder twice, or more binders than the function takes; or a plain function "
         "is written like a comprehension.",
         "Write it as `count(m in melds: condition)`, with one new name per binder.",
         example="pattern 甲 { value 1 番; when count(melds) == 4 }\n"),
    Code("E405", "an option's default is not one of its `values`",
         "An option lists the values a room may choose (`values [...]`) and its default is not among them.",
         "Make the default one of the listed values, or add it to the list.",
         example="option 人 int = 5 { values [2, 3, 4] }\n"),
    Code("E406", "bad label template",
         "A pattern's `label` has an unbalanced `{` or `}`, or the text inside `{…}` is not an expression.",
         "Balance the braces; inside `{…}` write an expression such as `{cn(底)}`.",
         example="pattern 甲 { value 1 番; label \"加{cn(底)\"; when true }\n"),
    # ------------------------------------------------------------------ E5xx: rule semantics
    Code("E501", "an exclusion or a combine names an unknown pattern",
         "`excludes`, `combine` or an example's `expect fans` names a pattern the file does not declare.",
         "Declare the pattern or correct the name.",
         example="pattern 甲 { value 1 番; when true; excludes 乙 }\n"),
    Code("E502", "exclusion cycle (lowering a count included)",
         "Patterns exclude one another in a circle (A excludes B, B excludes A), so no order of applying the "
         "exclusions decides which one scores.",
         "Keep the exclusion in one direction only (usually the higher-valued pattern excludes the lower).",
         example="pattern 甲 { value 2 番; when true; excludes 乙 }\n"
                 "pattern 乙 { value 2 番; when true; excludes 甲 }\n"),
    Code("E503", "dependency cycle between quantities, patterns and the score",
         "A quantity, a pattern's value or a unit depends on itself through other names (甲 uses 乙 and 乙 "
         "uses 甲; a pattern's value uses the unit it adds to), so it has no value.",
         "Break the circle: compute one of the values from the hand or the situation directly.",
         example="quantity 甲 = 乙 + 1\nquantity 乙 = 甲 * 2\n"),
    Code("E504", "`combine` names a pattern that is not counted per combination of melds",
         "A combination principle only applies to patterns that count combinations of melds (`count = "
         "count(a, b in runs: …)`); this one is a plain yes/no pattern.",
         "Name only counted patterns in the `combine`, or give the pattern a `count =`.",
         example="pattern 甲 { value 6 番; when len(triplets) == 4 }\ncombine 乙 { patterns [甲] }\n"),
    Code("E505", "`priority` names an unknown action, or one twice",
         "The `priority` list names an action the file does not declare, or names one action twice.",
         "List each declared action once, highest priority first.",
         example="priority [胡, 碰]\n"),
    Code("E506", "an example hand is malformed (too many copies, an unknown meld kind …; reported with the "
                 "examples, below)",
         "An example's hand cannot be scored at all: it holds more copies of a tile than the game has, a "
         "meld of a kind that does not exist or of the wrong tiles, or the wrong number of tiles. Reported "
         "when the examples are scored (`paili check`, `compile`, `build`, `docs`).",
         "Correct the example's hand (count the copies and the tiles).",
         example="example 甲 { hand '11111m 222m 333m 东东'; win '东'; expect score 0 }\n"),
    Code("E507", "a meld shape is impossible with the declared tiles",
         "A meld's `shape` can never be formed with the declared tiles: a run longer than the suit, ranks the "
         "suits do not have, a mixed shape with only one suit.",
         "Make the shape fit the `tiles` block, or declare the tiles it needs.",
         example="meld 怪 { shape ranks [2, 7, 10]; hand true }\n"),
    Code("E508", "an example does not hold: a top-level `example`'s `expect` line (the caret is on the "
                 "expected value), a pattern's `example` that does not score it, or a `counterexample` that does",
         "The runtime scored an example and the result differs from what the file claims: an `expect` line "
         "gives another value, a pattern's `example` hand does not score the pattern, or a "
         "`counterexample` does. Reported when the examples are scored (`paili check`, `compile`, `build`, "
         "`docs`); a file whose examples do not hold gets no page.",
         "Fix the rule or the example, whichever is wrong: the seed text decides.",
         example="pattern 甲 {\n  value 6 番\n  when len(triplets) == 4\n"
                 "  example { hand '123m 222m 333m 东东东 5m'; win '5m' }\n}\n"),
    Code("E510", "a game rule reads the winning hand's values or the score where no hand is won",
         "The engine binds the winning reading (`form`, a pattern, a quantity, a unit, `melds`, `hand` …) "
         "and the score only around a win: in a winning action's guard, on its own event (the reading, "
         "not yet the score), and once the hand is won on `win`, `hand_end`, `settled` and the decisions "
         "they open. A hook, a phase trigger, a payment or an action that only happens at another event "
         "(`discard`, `draw`, `exhaust`, a pung …) would find no reading (an error at run time) and a "
         "score of 0 — a payment there can never see a score.",
         "Move the rule to an event after the win (`on win`, `on hand_end`), read the value in the guard "
         "of a winning action, or keep what is needed in a state when it is known.",
         example="payment 甲 { on discard; from each_other; to actor; amount = score }\n"),
    Code("E511", "an effect on something that cannot change",
         "An effect's target is not a value a rule may store: a room option, a reveal or a pattern (only "
         "context values, `actor.STATE` and `table.STATE` change), a seat's own fields kept by the "
         "engine (`hand`, `melds`, `discards` …), a phase (the engine enters and leaves it by its "
         "triggers), or a seat that does not exist where the effect runs (`payer` and `payee` outside "
         "payments — effects never run in one —, `winner` before a hand is won). A `give` moves tiles out "
         "of the actor's concealed hand, so it needs an actor (not a hook on `hand_end` or `settled`) and "
         "tiles the actor is sure to hold: the tiles its `select` chose, or tiles of `actor.hand`.",
         "Declare a state for what the rule remembers and change that, or change the phase's triggers; "
         "name a seat the event has (`actor`, `discarder` …); let the player choose the tiles it gives "
         "(`select 3`, `give = choice { to = next(actor) }`).",
         example="on discard { set 底 = 2 }\n"),
    # ------------------------------------------------------------------ E7xx: stated limits (§40)
    Code("E701", "the rule file is larger than the limit (§40)",
         "A rule file is at most 1,000,000 bytes (docs/language.md §40, runtime/limits.py): the compiler "
         "refuses a larger one before parsing it, so that any file is checked in bounded time and memory.",
         "Split the text that makes it so large (a generated list, a pasted document) or shorten it.",
         no_example="it takes a file of more than a million bytes"),
    Code("E702", "a number literal has too many digits, a constant exponent is too large, or a constant "
                 "power too large (§40)",
         "A number literal has more than 30 digits, a constant exponent of `^` is over 1,000, or a power of "
         "constants has more than 100 digits. No score needs such a number, and computing one could take "
         "without end.",
         "Write a smaller number; a score that grows by doubling is bounded with `cap` or a smaller exponent.",
         example="quantity 甲 = 1000000000000000000000000000000000\n"),
    Code("E703", "nested too deeply: an expression, comprehensions in one another, or `{ … }` blocks (§40)",
         "An expression nests more than 64 levels (operators, calls, comprehensions), more than 8 "
         "comprehensions are nested in one another, or more than 16 `{ … }` blocks. The limits keep the "
         "compiler and the runtime from running out of stack on any file.",
         "Name a part of the expression as a `quantity` and use the name, or flatten the blocks.",
         example="quantity 甲 = " + "-" * 70 + "1\n"),
    Code("E704", "an expression has too many parts (§40)",
         "An expression has more than 2,000 parts (nodes), counting each quantity it reads as written out in "
         "place: a few quantities that each use the one before several times grow past the limit quickly.",
         "Compute the value more directly (a product instead of repeated sums, a comprehension over a list).",
         example="".join(f"quantity {b} = " + " + ".join([a] * 4) + "\n"
                         for a, b in zip("底甲乙丙丁戊", "甲乙丙丁戊己"))),
    Code("E705", "nested comprehensions may evaluate their bodies too many times per reading (§40)",
         "Nested comprehensions multiply: five nested over a hand's 14 tiles evaluate the innermost body "
         "hundreds of thousands of times for every reading. The compiler estimates the work from the longest "
         "lists and refuses more than 100,000 body evaluations per reading.",
         "Use one comprehension with several binders over combinations (`count(a, b in runs: …)`), or count "
         "over a shorter list (`melds`, `suits`).",
         example="pattern 甲 { value 1 番; when count(a in tiles: count(b in tiles: count(c in tiles: "
                 "count(d in tiles: count(e in tiles: a == e) > 0) > 0) > 0) > 0) > 0 }\n"),
    Code("E706", "too many copies of a tile, tile kinds, players, or wildcards one hand can hold (§40)",
         "The tiles or the table exceed a stated limit: more than 64 copies of a tile kind, more than 512 "
         "tile kinds, more than 256 players, or more than 8 wildcards one hand can hold. The runtime's "
         "tables are sized by these numbers.",
         "Declare fewer copies, kinds, players or wild tiles.",
         example=PRELUDE.replace("copies 4 }", "copies 65 }"), standalone=True),
    Code("E707", "a division (`/`, `//`, `%`) by the constant 0, or `0 ^` a negative constant",
         "A division whose divisor is the constant 0, or 0 raised to a negative constant, has no value in "
         "any reading; the compiler says so instead of letting every reading fail.",
         "Divide by a value that is not zero, or guard the division with `if … then … else`.",
         example="quantity 甲 = 底 / 0\n"),
    # ------------------------------------------------------------------ E9xx: the compiler itself
    Code("E900", "internal compiler error (please report it with the file)",
         "The compiler itself failed on this file. It reports this instead of a traceback; the file may "
         "well have a mistake, but the compiler should have named it.",
         "Report it with the rule file; meanwhile, look for an unusual construct near the reported line.",
         no_example="it is a bug of the compiler: a file that triggers it is fixed, not kept"),
    # ------------------------------------------------------------------ W6xx: warnings
    Code("W601", "a pattern can never match with the declared tiles",
         "Proved by rules and a bounded search over the declared tiles: no winning hand satisfies the "
         "pattern's condition (too few tiles of the named ranks, more suits than exist …).",
         "Check the condition against the `tiles` block; the pattern is dead as written.",
         example="pattern 甲 { value 24 番; when all(t in tiles: t.rank in [4, 5, 6]) }\n"),
    Code("W602", "a lower-valued pattern excludes a higher-valued one",
         "A pattern excludes one worth more, so a hand with both scores less than with the higher one alone; "
         "usually the exclusion is written the wrong way round.",
         "Let the higher-valued pattern exclude the lower one (or state in a `note` why it is meant).",
         example="pattern 大 { value 6 番; when len(triplets) == 4 }\n"
                 "pattern 小 { value 1 番; when true; excludes 大 }\n"),
    Code("W603", "a pattern has no example hand (reserved: not reported yet)",
         "Reserved for a pattern without an `example` hand; the compiler does not report it yet.",
         "Give every pattern an `example { hand …; win … }`.",
         no_example="the compiler does not report this code yet"),
    Code("W604", "a pattern excludes itself",
         "A pattern lists itself under `excludes`; the exclusion has no effect.",
         "Remove the pattern's own name from its `excludes`.",
         example="pattern 自 { value 1 番; when true; excludes 自 }\n"),
    Code("W605", "the game engine does not execute this construct (`emit` of an event that opens actions, "
                 "`restrict` on `draw`); games from the file are refused",
         "The construct compiles and scoring, pages and examples work, but the game engine cannot run it "
         "(runtime/game/engine_limits.py lists these), so `paili simulate` and `Game` refuse the file.",
         "Express the rule another way if the file must be playable; scoring is unaffected.",
         example="restrict 甲 { actions [draw]; when wall_left < 3 }\n"),
)

BY_CODE: dict[str, Code] = {c.code: c for c in REGISTRY}


def closest(code: str) -> str:
    """The registered code nearest to `code` (same letter and hundred first), for 'did you mean'."""
    code = code.strip().upper()

    def dist(c: str) -> tuple[int, int]:
        same_class = c[:2] == code[:2]
        try:
            gap = abs(int(c[1:]) - int(code[1:]))
        except ValueError:
            gap = 10**6
        return (0 if same_class else 1, gap + (0 if c[0] == code[:1] else 1000))

    return min(BY_CODE, key=dist)


# Markdown link-reference definitions: invisible on the rendered page (an HTML comment would show there).
MARK_BEGIN = '[//]: # "BEGIN diagnostic codes: generated from dsl/codes.py by ' \
             '`python -m paili explain --markdown --write docs/language.md`"'
MARK_END = '[//]: # "END diagnostic codes"'


def markdown_table() -> str:
    """The table of docs/language.md §39, markers included."""
    rows = [MARK_BEGIN, "", "| code | meaning |", "|---|---|"]
    rows += [f"| `{c.code}` | {c.title} |" for c in REGISTRY]
    return "\n".join(rows + ["", MARK_END])


def replace_table(text: str) -> str:
    """`text` (docs/language.md) with its generated table replaced by the current one."""
    start, end = text.find(MARK_BEGIN), text.find(MARK_END)
    if start < 0 or end < start:
        raise ValueError("no generated diagnostic table (marker comments) in the file")
    return text[:start] + markdown_table() + text[end + len(MARK_END):]
