"""Judging a Countdown answer: an expression such as `(14+34)/4+28 = 40`, or a list of operations.

Free-form answers follow the Countdown rules as the SoS paper states them: reach the target
with + - * /, each given number used at most once. Game of 24 (Tree of Thoughts, Yao et al.
2023) asks for every number exactly once: a problem with `"use_all_numbers": true` rejects an
answer that leaves one out (`unused_numbers`), which SoS's "at most once" would accept. Values are exact rationals. A list of
SoS operations (`['34-28=6', '14+6=20', ...]`) is replayed like the search path
(src/countdown_utils.py::parse_trajectory), but with one copy of a number removed per use.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from core.verdicts import AnswerError
from validators.countdown.solver import multiset_minus
from validators.exact_arithmetic import ExprError, evaluate, fmt_num, parse_operation

# Possessive quantifiers and starting only at a sign or at the first digit of a run keep this
# linear; `-?\d+\s*...` retried from every digit of a long digit run took quadratic time
# (100,000 digits: minutes). The matches are the same.
_EQUATION = re.compile(r"(?:-|(?<!\d))\d++\s*+[-+*/×÷]\s*+-?\d++\s*+=\s*+-?\d++")
_LABEL = re.compile(r"^[^\d(]*")


@dataclass
class AnswerCheck:
    correct: bool
    error: AnswerError | None
    value: Fraction | None = None
    numbers_used: tuple[int, ...] = ()
    form: str = "expression"


def _fail(kind: str, message: str, step: int | None = None, form: str = "expression") -> AnswerCheck:
    return AnswerCheck(False, AnswerError(kind=kind, message=message, step=step), form=form)


def _unused(numbers: list[int], used: Counter, what: str, form: str, value: Fraction | None) -> AnswerCheck | None:
    """Under "use every number exactly once", the given numbers `what` leaves out, as a failure."""
    left = Counter(numbers) - used
    if not left:
        return None
    return AnswerCheck(False, AnswerError(kind="unused_numbers", message=f"{what} leaves {sorted(left.elements())} "
                       f"unused; the problem asks to use every number of {numbers} exactly once"),
                       value, tuple(used.elements()), form)


def check_operations(ops: list[str], numbers: list[int], target: int, form: str = "operations",
                     use_all: bool = False) -> AnswerCheck:
    """Replay operations from the given numbers; each number (given or derived) is used once."""
    have: list[Fraction] = [Fraction(n) for n in numbers]
    used: list[int] = []
    derived: list[Fraction] = []
    value: Fraction | None = None
    for k, text in enumerate(ops, start=1):
        op = parse_operation(text)
        if op is None:
            return _fail("unparseable", f"operation {k} '{text}' is not of the form a+b=c", k, form)
        rest, missing = multiset_minus(have, [Fraction(op.a), Fraction(op.b)])
        if missing:
            return _fail("illegal_move", f"operation {k} '{text}' uses {fmt_num(missing[0])}, which is not "
                         f"available (available: {[fmt_num(v) for v in have]})", k, form)
        true = op.true_value()
        if true is None:
            return _fail("arithmetic", f"operation {k} '{text}' divides by zero", k, form)
        if true != op.c:
            return _fail("arithmetic", f"operation {k} '{text}' is false: {op.a}{op.op}{op.b} = {fmt_num(true)}",
                         k, form)
        for operand in (op.a, op.b):
            if Fraction(operand) in derived:
                derived.remove(Fraction(operand))
            else:
                used.append(operand)
        have = rest + [true]
        derived.append(true)
        value = true
    if value is None:
        return _fail("unparseable", "no operation found", None, form)
    if value != target:
        return AnswerCheck(False, AnswerError(kind="wrong_value", message=f"the operations end at {fmt_num(value)}, "
                           f"not the target {target}"), value, tuple(used), form)
    if use_all and (short := _unused(numbers, Counter(used), "the operations", form, value)):
        return short
    return AnswerCheck(True, None, value, tuple(used), form)


def _expression_part(text: str) -> str:
    line = [ln for ln in text.strip().splitlines() if re.search(r"\d", ln)]
    if not line:
        return ""
    candidate = line[-1].strip().strip("`$*").strip()
    candidate = _LABEL.sub("", candidate)
    return candidate.rstrip(" .")


def check_expression(text: str, numbers: list[int], target: int, use_all: bool = False) -> AnswerCheck:
    """`expr`, `expr = value` or a chain `expr = expr = value`: every part must be equal."""
    body = _expression_part(text)
    if not body:
        return _fail("unparseable", "the answer contains no arithmetic expression")
    parts = [p.strip() for p in body.split("=")]
    if any(not p for p in parts):
        return _fail("unparseable", f"'{body}' has an empty side of '='")
    try:
        first = evaluate(parts[0])
    except ExprError as exc:
        kind = "arithmetic" if exc.kind == "division_by_zero" else "unparseable"
        return _fail(kind, f"'{parts[0]}': {exc}")
    given, used = Counter(numbers), Counter(first.numbers)
    extra = used - given
    if extra:
        what = ", ".join(f"{n} (used {used[n]}x, given {given[n]}x)" for n in sorted(extra))
        return AnswerCheck(False, AnswerError(kind="illegal_move", message=f"'{parts[0]}' uses numbers that are not "
                           f"available: {what}; the given numbers are {numbers}, each usable once"),
                           first.value, first.numbers)
    for part in parts[1:]:
        try:
            claimed = evaluate(part).value
        except ExprError as exc:
            return _fail("unparseable", f"'{part}': {exc}")
        if claimed != first.value:
            return AnswerCheck(False, AnswerError(kind="arithmetic", message=f"'{parts[0]}' is "
                               f"{fmt_num(first.value)}, not {part}"), first.value, first.numbers)
    if first.value != target:
        return AnswerCheck(False, AnswerError(kind="wrong_value", message=f"'{parts[0]}' is {fmt_num(first.value)}, "
                           f"not the target {target}"), first.value, first.numbers)
    if use_all and (short := _unused(numbers, used, f"'{parts[0]}'", "expression", first.value)):
        return short
    return AnswerCheck(True, None, first.value, first.numbers)


def check_answer(text: str, numbers: list[int], target: int, use_all: bool = False) -> AnswerCheck:
    """An answer with two or more `a op b = c` equations is a list of operations; else an expression."""
    equations = _EQUATION.findall(text)
    if len(equations) >= 2:
        return check_operations([e.replace(" ", "") for e in equations], numbers, target, use_all=use_all)
    return check_expression(text, numbers, target, use_all)
