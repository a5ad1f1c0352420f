"""Exact arithmetic that every arithmetic reader shares: `a op b = c` operations, free-form
expressions, and the operator aliases both accept (× x X for *, ÷ for /).

Countdown's logs and answers, the arithmetic claims of thinking traces (validators/thinking/
arith.py), free-form answers and BIG-Bench's multistep arithmetic all read numbers with this one
module, so "3 × 4" means the same everywhere. Values are exact (`fractions.Fraction`), and
expressions are read by a small recursive descent parser of our own: user text is never handed
to `eval`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

# One SoS operation as `combine_nums` prints it: "a<op>b=c" (kanishkg/stream-of-search,
# src/countdown_utils.py::combine_nums). Spaces are tolerated, negatives too, so a model's
# "3-7=-4" is read and judged rather than rejected as unreadable.
_OP_RE = re.compile(r"^\s*(-?\d+)\s*([-+*/×÷xX])\s*(-?\d+)\s*=\s*(-?\d+)\s*$")
_OP_ALIASES = {"×": "*", "x": "*", "X": "*", "÷": "/"}


@dataclass(frozen=True)
class Operation:
    """`a op b = c` as written; `c` is the claimed result."""

    a: int
    op: str
    b: int
    c: int

    @property
    def text(self) -> str:
        return f"{self.a}{self.op}{self.b}={self.c}"

    def true_value(self) -> Fraction | None:
        """The exact value of `a op b`; None for a division by zero."""
        return apply_op(Fraction(self.a), self.op, Fraction(self.b))


def parse_operation(text: str) -> Operation | None:
    m = _OP_RE.match(text)
    if not m:
        return None
    op = _OP_ALIASES.get(m.group(2), m.group(2))
    return Operation(int(m.group(1)), op, int(m.group(3)), int(m.group(4)))


def apply_op(a: Fraction, op: str, b: Fraction) -> Fraction | None:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return None if b == 0 else a / b
    raise ValueError(f"unknown operator {op!r}")


def fmt_num(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


class ExprError(ValueError):
    """An expression that cannot be read or evaluated; `kind` is "syntax" or "division_by_zero"."""

    def __init__(self, message: str, kind: str = "syntax", pos: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.pos = pos


@dataclass(frozen=True)
class Evaluated:
    value: Fraction
    numbers: tuple[int, ...]


_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([-+*/×÷()xX]))")
_MAX_DEPTH = 100
_MAX_TOKENS = 400


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise ExprError(f"unexpected character {text[pos]!r} at position {pos}", pos=pos)
        if m.group(1) is not None:
            tokens.append(("num", m.group(1), m.start(1)))
        else:
            sym = _OP_ALIASES.get(m.group(2), m.group(2))
            tokens.append(("sym", sym, m.start(2)))
        pos = m.end()
        if len(tokens) > _MAX_TOKENS:
            raise ExprError(f"expression longer than {_MAX_TOKENS} tokens")
    return tokens


class _Parser:
    """expr := term (('+'|'-') term)* ; term := factor (('*'|'/') factor)* ; factor := NUM | '(' expr ')'."""

    def __init__(self, tokens: list[tuple[str, str, int]], decimals: bool = False, signed: bool = False) -> None:
        self.tokens = tokens
        self.i = 0
        self.numbers: list[int] = []
        self.decimals = decimals
        self.signed = signed

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def expr(self, depth: int) -> Fraction:
        value = self.term(depth)
        while (tok := self.peek()) and tok[0] == "sym" and tok[1] in "+-":
            self.i += 1
            right = self.term(depth)
            value = value + right if tok[1] == "+" else value - right
        return value

    def term(self, depth: int) -> Fraction:
        value = self.factor(depth)
        while (tok := self.peek()) and tok[0] == "sym" and tok[1] in "*/":
            self.i += 1
            right = self.factor(depth)
            if tok[1] == "*":
                value = value * right
            else:
                if right == 0:
                    raise ExprError("division by zero", kind="division_by_zero", pos=tok[2])
                value = value / right
        return value

    def factor(self, depth: int) -> Fraction:
        if depth > _MAX_DEPTH:
            raise ExprError(f"parentheses nested deeper than {_MAX_DEPTH}")
        tok = self.peek()
        if tok is None:
            raise ExprError("the expression ends where a number was expected")
        if self.signed and tok[1] == "-":
            self.i += 1
            return -self.factor(depth + 1)
        if tok[0] == "num":
            self.i += 1
            if "." in tok[1]:
                if self.decimals:
                    return Fraction(tok[1])
                raise ExprError(f"{tok[1]} is not a whole number", pos=tok[2])
            n = int(tok[1])
            self.numbers.append(n)
            return Fraction(n)
        if tok[1] == "(":
            self.i += 1
            value = self.expr(depth + 1)
            close = self.peek()
            if close is None or close[1] != ")":
                raise ExprError("a '(' is never closed", pos=tok[2])
            self.i += 1
            return value
        raise ExprError(f"unexpected {tok[1]!r} at position {tok[2]} (only numbers, + - * / and parentheses)",
                        pos=tok[2])


# A whole number, or two joined by + - * (an arithmetic claim's usual side): as the parser reads it.
_SIMPLE = re.compile(r"\s*(\d+)\s*(?:([-+*×xX])\s*(\d+)\s*)?")


def _simple(text: str) -> Evaluated | None:
    """`evaluate` of a whole number or `a op b` without division, computed directly (the
    tokenizer and parser cost ten times as much), else None."""
    m = _SIMPLE.fullmatch(text)
    if m is None:
        return None
    a = int(m.group(1))
    if m.group(2) is None:
        return Evaluated(Fraction(a), (a,))
    b = int(m.group(3))
    op = _OP_ALIASES.get(m.group(2), m.group(2))
    return Evaluated(Fraction(a + b if op == "+" else a - b if op == "-" else a * b), (a, b))


def evaluate(text: str, decimals: bool = False, signed: bool = False) -> Evaluated:
    """Evaluate an arithmetic expression exactly; raise ExprError with a readable reason.

    Countdown allows whole numbers only; `decimals=True` reads "2.5" as the exact rational 5/2
    (arithmetic claims in free-form thinking); `signed=True` reads a unary minus, binding
    tighter than * and / ("7 - -7 * 4" is 35; BIG-Bench's multistep arithmetic)."""
    simple = _simple(text)
    return simple if simple is not None else _parsed(text, decimals, signed)


def _parsed(text: str, decimals: bool, signed: bool = False) -> Evaluated:
    """`evaluate` by the tokenizer and parser."""
    tokens = _tokenize(text)
    if not tokens:
        raise ExprError("empty expression")
    parser = _Parser(tokens, decimals, signed)
    value = parser.expr(0)
    if parser.i != len(tokens):
        tok = tokens[parser.i]
        raise ExprError(f"unexpected {tok[1]!r} at position {tok[2]}", pos=tok[2])
    return Evaluated(value, tuple(parser.numbers))
