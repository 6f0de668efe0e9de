"""The Chinese words of the language itself: how the page names the closed vocabularies of runtime/ir/vocab.py
(events, who acts, what follows an action, payers, meld shapes …) and how it writes numbers.

Only words of the language live here — never a variant's own names (those come from the rule file).
"""
from __future__ import annotations

from fractions import Fraction

CN_DIGITS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")

# `table.first_dealer`
FIRST_DEALER = {"random": "第一局随机选一位玩家坐庄", "owner": "第一局由房主坐庄"}
# `table.replacement`, `reveal.from`
WALL_END = {"tail": "牌墙尾部", "head": "牌墙头部"}

# `action.on`, `phase enter/leave`, `on EVENT`, `payment.on`
EVENT = {
    "deal": "发完牌后",
    "opening": "开局检查时",
    "turn": "轮到自己时",
    "draw": "摸到一张牌后",
    "reveal": "翻出一张牌时",
    "discard": "有玩家打出一张牌时",
    "claim": "有玩家吃碰杠之后",
    "decline": "有玩家放弃可做的动作时",
    "kong": "开杠时",
    "added_kong": "有玩家把一张牌加到自己已亮出的牌组上时（如碰后加第四张）",
    "win_offer": "可以和牌时",
    "ready": "有玩家宣告待和时",
    "win": "和牌时",
    "exhaust": "流局时",
    "hand_end": "一局结束时",
    "settled": "一局结算之后",
    "phase_enter": "进入阶段时",
    "phase_leave": "离开阶段时",
}


def event(rs, name: str, unknown: str = "「{}」时") -> str:
    """When an event happens, in the page's words: a drawn hand by the rule set's own word for it."""
    if name == "exhaust":
        return f"{rs.table.exhaust_word}时"
    return EVENT.get(name, unknown.format(name))


# `table.rotation`
ROTATION = {"counter_clockwise": "逆时针", "clockwise": "顺时针"}
# `reveal.at`
REVEAL_AT = {"deal": "发牌后", "win": "和牌后"}
# `action.win_tile`
WIN_TILE = {
    "drawn": "自己摸到的牌",
    "claimed": "别人打出或翻出的那张牌",
    "last_dealt": "发牌时最后发到的一张",
    "best_wait": "所听的牌中得分最高的一张",
    "none": "不需要和张，现有的牌即可和",
}
# `action.order`: who of several claimants goes first
ORDER = {
    "seat": "按座位顺序",
    "robbed": "从被抢的玩家的下家起按座位顺序",
    "discarder": "从打出这张牌的玩家的下家起按座位顺序",
    "actor": "从摸出或打出这张牌的玩家本人起按座位顺序（他自己先）",
    "dealer": "从庄的下家起按座位顺序",
}
# `observe.what`
OBSERVE_WHAT = {"hand": "手牌", "drawn": "摸到的牌", "melds": "副露", "kong_tiles": "扣着的杠"}
# `cap of`
CAP_OF = {"payer": "付分者", "payee": "收分者"}
# engine actions a `restrict` may name besides the declared ones
BUILTIN_ACTION = {"discard": "打出这张牌", "draw": "摸一张牌", "pass": "过"}
# `action.by`
WHO = {
    "self": "自己",
    "others": "其他玩家",
    "next": "下家",
    "previous": "上家",
    "any": "任何玩家",
    "winner": "赢家",
    "loser": "输家",
    "dealer": "庄",
    "non_dealer": "闲家",
}
# `action.then`
THEN = {
    "discard": "再打出一张牌",
    "replace": "从牌墙补摸一张",
    "none": "",
    "next_turn": "不出牌，轮到下家",
    "draw": "再摸一张牌",
    "auto": "此后由系统托管摸打",
}
# `payment.from` / `payment.to`
PAYER = {
    "each_loser": "每位输家",
    "discarder": "打出这张牌的玩家",
    "each_other": "其他每位玩家",
    "each": "每位玩家",
    "robbed": "被抢的玩家",
    "winner": "赢家",
    "actor": "做这个动作的玩家",
    "dealer": "庄",
    "each_in_play": "还在局中的每位玩家",
}
PAYEE = {
    "winner": "赢家",
    "each": "每位玩家",
    "each_other": "其他每位玩家",
    "actor": "做这个动作的玩家",
    "dealer": "庄",
    "each_in_play": "还在局中的每位玩家",
}
# `unit NAME sum|product|max`
UNIT_COMBINE = {
    "sum": "各项相加",
    "product": "各项相乘",
    "max": "只取最高的一项",
}
# `state` / `phase` scope
SCOPE = {"player": "每位玩家各自", "table": "整桌"}
# how long a state keeps its value (`state … { lives }`)
LIFETIME = {"hand": "只管本局：每局开始时恢复初始值", "session": "整场保留：带到下一局"}
# setting types
TYPE = {"bool": "是/否", "int": "整数", "num": "数", "tile": "一张牌", "seat": "座位", "suit": "花色",
        "tiles": "若干张牌"}
# tile categories
CATEGORY = {"suited": "序数牌", "honor": "字牌", "flower": "花", "joker": "万能牌"}
# which meld kinds a wild may not join, etc.
TRUE_FALSE = {True: "是", False: "否"}

# Builtin names of the expression scopes, as the page writes them in formulas and conditions.
BUILTIN = {
    # reading scope
    "melds": "各副牌", "groups": "各组牌", "pairs": "对子", "pair": "将", "runs": "各副连牌",
    "triplets": "各副三张同牌", "kongs": "各杠", "exposed": "副露", "tiles": "全部的牌", "hand": "手中的牌",
    "win_tile": "和的那张牌", "self_drawn": "自己摸到", "waits": "所听的牌", "form": "和牌形式",
    "suits": "花色", "win_group": "和张所在的一组", "menqing": "门前没有副露",
    # game scope
    "actor": "行动者", "tile": "这张牌", "dealer": "庄", "winner": "赢家", "winners": "和牌的各家",
    "discarder": "打出这张牌的人",
    "payer": "付分者", "payee": "收分者", "won": "有玩家和牌", "last_drawer": "最后摸到牌的人",
    "wall_left": "牌墙剩余张数", "turn": "轮次", "round": "圈数", "players": "玩家数", "table": "整桌",
    "choice": "所选的值", "robbed": "被抢的人", "score": "得分", "task_factor": "任务倍数",
    "viewer": "看牌的人", "owner": "牌的主人",
    "in_play": "还在局中的各家", "first_winners": "第一次和牌的各家",
}
# `choice` by the decision's value type (a decision of numbers, tiles, several tiles, a suit, a player).
CHOICE = {"int": "所选的数", "num": "所选的数", "tile": "所选的牌", "list[tile]": "所选的牌", "suit": "所选的花色",
          "seat": "所选的玩家"}
# Fields of tiles, melds and seats.
FIELD = {
    "kind": "种类", "suit": "花色", "rank": "点数", "honor": "字牌", "flower": "花", "joker": "万能牌",
    "wild": "万能牌", "name": "名称", "size": "张数", "tile": "牌", "start": "起点", "end": "终点",
    "run": "连牌", "triplet": "三张同牌", "kong": "杠", "pair": "对子", "exposed": "副露", "concealed": "暗",
    "value": "数值", "wilds": "万能牌张数", "has_win": "含和张", "melds": "副露", "hand": "手牌", "tiles": "其中的牌",
    "waits": "所听的牌", "group_waits": "按成组牌型所听的牌", "in_play": "还在局中",
    "balance": "积分", "discards": "弃牌", "seat": "座位号",
}
# A seat's yes/no fields, as the page says them of a seat: (said, negated), written right after the seat
# (行动者是庄 / 行动者不是庄), not as a possessive (行动者的…).
SEAT_STATE = {"dealer": ("是庄", "不是庄"), "ready": ("已宣告待和", "没有宣告待和"),
              "in_play": ("还在局中", "已不在局中")}
# A builtin condition, negated.
NEGATED = {"won": "没有玩家和牌", "self_drawn": "不是自己摸到", "menqing": "门前有副露"}
FUNCTION = {
    "len": "{0}的个数", "distinct": "{0}（不重复）", "abs": "|{0}|", "floor": "（{0}，向下取整）",
    "visible_count": "{0}已亮明的张数", "next": "{0}的下家", "held": "{0}手中{1}的张数", "cn": "{0}",
    "after": "{0}之后的第{1}家",
    "waits_without": "{0}打出{1}后所听的牌", "group_waits_without": "{0}打出{1}后按成组牌型所听的牌",
    "best_score": "{0}所听的牌{1}时能和到的最大得分", "best_fans": "{0}所听的牌{1}时能和到的最大牌的番种",
    "best_tile": "{0}所听的牌中{1}时和得最大的那张",
}
# Functions of a hypothetical win; their second argument says how the tile is won.
HYPOTHETICAL = ("best_score", "best_fans", "best_tile")
HYPOTHETICAL_WIN = {True: "自己摸到", False: "别人打出"}
COMPARE = {"==": "＝", "!=": "≠", "<": "＜", "<=": "≤", ">": "＞", ">=": "≥", "in": "属于", "not in": "不属于"}


def cn_number(n: int) -> str:
    """Chinese numerals for small counts (0–99): 三, 十二, 二十四."""
    n = int(n)
    if n < 10:
        return CN_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CN_DIGITS[tens]) + "十" + (CN_DIGITS[ones] if ones else "")


def cn_count(n: int) -> str:
    """A count before a measure word: 两张, 三张."""
    return "两" if int(n) == 2 else cn_number(n)


def cn_ordinal(n: int) -> str:
    """Chapter numbers: 一、二、…"""
    return cn_number(n)


def num(v) -> str:
    """A number as the page writes it: 6, 0.0125, 1/3 → 0.333…; booleans as 是/否."""
    if isinstance(v, bool):
        return TRUE_FALSE[v]
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):g}"
    if isinstance(v, float):
        return f"{v:g}"
    if v is None:
        return "无"
    return str(v)


def percent(v) -> str:
    """0.0125 → 1.25%"""
    p = Fraction(v) * 100 if not isinstance(v, Fraction) else v * 100
    return f"{float(p):g}%"


# A product unit with this name is shown as a multiplier (×2) rather than as "2倍".
TIMES = "倍"


# The player's page says only the rules. A sentence of a `note` that speaks of where the rules were read
# from (the source page, its original wording) or of the tools (the engine, the rule file) is the
# encoder's: it goes to the designer's appendix only; so does a parenthesis in any page text that holds
# such a word or names something in the rule language's own (Latin) letters — `（waits）`, `（动作的 effect 里…）`.
SOURCE_WORDS = ("页面", "原文", "paili", "--set", "引擎", "规则文件", "本文件")
