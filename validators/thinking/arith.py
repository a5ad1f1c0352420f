"""Arithmetic claims anywhere in a text: `a op b = c` and chains, checked exactly.

A claim is a run of numbers joined by + - * / (also × ÷ − · and a spaced " x "), an "=", and
one or more further sides. Values are exact rationals (validators/exact_arithmetic.evaluate,
our own parser: user text never reaches `eval`).

What is left alone, on purpose (a claim we cannot read is never reported as false):
* a number glued to a letter, `^`, `%` or a unit ("2x + 3 = 7", "2^3 = 8", "50% of ..."),
* a number whose digit groups do not read as thousands ("= 1,23"); numbers with thousands
  separators ("278,700", LaTeX "1,\\!800") are read as one number (validators/reading/numbers.py),
* a left side with no operator ("x = 5", "step 3 = ..."),
* approximations written with "≈" or "~", and "= 3 remainder 1".

Chains: "E0 = E1 = E2" claims every side equal. Models also write running totals
("2 + 3 = 5 + 4 = 9"): a side that does not equal the value so far but starts with that value
and goes on with an operator is read as a continuation, not as a false claim.

Rounded results: a claimed value written with d decimals passes when it is the exact value
rounded (half up) or truncated to d decimals ("10 / 3 = 3.33", "2 / 3 = 0.67"); a whole-number
claim must be exact.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from validators.exact_arithmetic import ExprError, evaluate, fmt_num
from validators.reading.numbers import DECIMAL, SEPARATOR, plain

_NUM = DECIMAL
_TERM = rf"[(\[]*[ \t]*-?{_NUM}[ \t]*[)\]]*"
_OP = r"(?:[ \t]*[-+*/×÷−·][ \t]*|[ \t]+[xX][ \t]+)"
_SIDE = rf"{_TERM}(?:{_OP}{_TERM})*"
# Not inside a number: a claim starts after no digit group's separator ("1,\!800", "291{,}580").
_CLAIM = re.compile(
    rf"(?<![\w.^/=<>+\-*×÷−·$€£%,}}!\\\u2009\u202f])(?P<claim>{_SIDE}(?:[ \t]*=[ \t]*{_SIDE})+)"
    rf"(?![\w^%/]|\.\d|{SEPARATOR}\d|[ \t]*(?:%|remainder\b|rem\b))")
_HAS_OP = re.compile(rf"{_NUM}[)\]]*{_OP}[(\[]*-?\d")
_DECIMALS = re.compile(r"-?\d+\.(\d+)")
_LEADING_NUMBER = re.compile(rf"\s*(-?{_NUM})\s*[-+*/×÷xX]")
_SPACED_X = re.compile(r"[ \t]+[xX][ \t]+")
_LEADING_MINUS = re.compile(r"^-")
_NORMALISE = str.maketrans({"−": "-", "·": "*", "[": "(", "]": ")"})
MAX_CLAIM_CHARS = 400


@dataclass(frozen=True)
class ArithClaim:
    """One claim: its [start, end) in the text, the text, and whether it holds."""

    start: int
    end: int
    text: str
    holds: bool
    message: str


def _balance(side: str) -> str:
    """Drop unmatched leading '(' and trailing ')' that belong to the surrounding prose."""
    side = side.strip()
    while side.startswith("(") and side.count("(") > side.count(")"):
        side = side[1:].lstrip()
    while side.endswith(")") and side.count(")") > side.count("("):
        side = side[:-1].rstrip()
    return side


def _decimals(side: str) -> int | None:
    m = _DECIMALS.fullmatch(plain(side.strip()))
    return len(m.group(1)) if m else None


def _equal(value: Fraction, side: str, claimed: Fraction) -> bool:
    if claimed == value:
        return True
    places = _decimals(side)
    if places is None:
        return False
    scale = 10 ** places
    magnitude = abs(value) * scale
    sign = -1 if value < 0 else 1
    truncated = Fraction(sign * math.floor(magnitude), scale)
    rounded = Fraction(sign * math.floor(magnitude + Fraction(1, 2)), scale)
    return claimed in (truncated, rounded)


def _leading_number(side: str) -> Fraction | None:
    m = _LEADING_NUMBER.match(plain(side))
    return Fraction(m.group(1)) if m else None


def _computable(side: str) -> str:
    # Spaced "x" is multiplication; a leading minus is read as 0 - ... (the parser has no unary minus).
    return _LEADING_MINUS.sub("0-", _SPACED_X.sub(" * ", plain(side)))


# The usual claim, "a op b = c" in whole numbers without division: judged directly, as
# `_check_read` judges it (a whole-number side equals or not; it continues no chain).
_WHOLE_CLAIM = re.compile(r"[ \t]*([0-9]+)[ \t]*([-+*])[ \t]*([0-9]+)[ \t]*=[ \t]*([0-9]+)[ \t]*")


def check_claim(text: str) -> tuple[bool, str] | None:
    """(holds, message) for one claim text; None when it cannot be read."""
    m = _WHOLE_CLAIM.fullmatch(text)
    if m is None:
        return _check_read(text)
    a, op, b = int(m.group(1)), m.group(2), int(m.group(3))
    value = a + b if op == "+" else a - b if op == "-" else a * b
    if value == int(m.group(4)):
        return True, f"'{text.strip()}' holds"
    return False, f"'{text.strip()}' is false: {text[:text.index('=')].strip()} = {value}, not {m.group(4)}"


def _check_read(text: str) -> tuple[bool, str] | None:
    """`check_claim` of any claim: each side read by the expression parser."""
    parts = [_balance(p) for p in text.translate(_NORMALISE).split("=")]
    if len(parts) < 2 or not all(parts) or not _HAS_OP.search(parts[0]):
        return None
    try:
        value = evaluate(_computable(parts[0]), decimals=True).value
    except ExprError as exc:
        if exc.kind == "division_by_zero":
            return False, f"'{parts[0]}' divides by zero"
        return None
    for side in parts[1:]:
        try:
            claimed = evaluate(_computable(side), decimals=True).value
        except ExprError as exc:
            if exc.kind == "division_by_zero":
                return False, f"'{side}' divides by zero"
            return None
        if _equal(value, side, claimed):
            continue
        lead = _leading_number(side)
        if lead is not None and lead == value:
            value = claimed
            continue
        shown = fmt_num(value) if value.denominator == 1 else f"{fmt_num(value)} (about {float(value):.6g})"
        return False, f"'{text.strip()}' is false: {parts[0]} = {shown}, not {side}"
    return True, f"'{text.strip()}' holds"


def find_claims(text: str, offset: int = 0, lo: int = 0, hi: int | None = None) -> list[ArithClaim]:
    """Every readable arithmetic claim in text[lo:hi]; spans are shifted by `offset`."""
    out: list[ArithClaim] = []
    for m in _CLAIM.finditer(text, lo, len(text) if hi is None else hi):
        raw = m.group("claim")
        if len(raw) > MAX_CLAIM_CHARS or "\n" in raw.strip():
            continue
        result = check_claim(raw)
        if result is None:
            continue
        lead = len(raw) - len(raw.lstrip())
        start, end = m.start("claim") + lead, m.end("claim")
        while end > start and text[end - 1] in " \t":
            end -= 1
        out.append(ArithClaim(offset + start, offset + end, text[start:end], result[0], result[1]))
    return out
