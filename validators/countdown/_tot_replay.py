"""Replay of Tree of Thoughts' Game of 24 steps ("a op b = c (left: ...)", trace_parsers/tot.py).

Each step claims an arithmetic fact and the numbers left after it. Both are checked: the
expression's value against every side after "=", and the written "left" against the numbers the
step starts from with its operands taken out and its result put in. A value rounded to the
decimals it is written with ("11 / 3 ≈ 3.67", also with "=") is accepted, as the ToT prompts
write them; the next step then goes on from the number as written.

A step starts from the "left" its predecessor wrote (the model's own state, so one miscopied
list is one error, not a cascade). A chain of thought often starts a new line from an earlier
state: a step holds when, from some state the trace has written (the initial numbers included),
its operands are there and its "left" follows; otherwise it is judged from the latest state that
has its operands (`left_mismatch`), and when none has them it is `operand_unavailable`. A line reaches
the goal only when its "left" is the target alone, which is how "use every number" shows in a
trace: "3 * 8 = 24 (left: 8 24)" has not used the 8.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from core.steps import StepGraph
from core.verdicts import StepVerdict
from validators.exact_arithmetic import ExprError, evaluate, fmt_num
from validators.reading.numbers import number_value

_OPERAND = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")


@dataclass
class TotReplay:
    verdicts: list[StepVerdict] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)


def _value(text: str) -> Fraction | None:
    """A written number or a fraction such as "2/15"; None for anything else."""
    plain = number_value(text)
    if plain is not None:
        return plain
    try:
        return evaluate(text, decimals=True).value
    except (ExprError, ZeroDivisionError):
        return None


def _rounds_to(true: Fraction, written: str, claimed: Fraction) -> bool:
    """`claimed` equals `true`, or is `true` rounded to the decimals `written` shows."""
    if true == claimed:
        return True
    places = len(written.split(".", 1)[1]) if "." in written else None
    return places is not None and abs(true - claimed) <= Fraction(1, 2 * 10 ** places) + Fraction(1, 10 ** 9)


def _written(value: Fraction) -> str:
    """A terminating decimal as a decimal ("2.857", as the trace wrote it), else as fmt_num does."""
    for places in range(7):
        if (value * 10 ** places).denominator == 1:
            return fmt_num(value) if places == 0 else f"{float(value):.{places}f}"
    return fmt_num(value)


def _show(values: list[Fraction]) -> str:
    return " ".join(_written(v) for v in sorted(values))


def _after(state: list[Fraction], operands: list[Fraction], result: Fraction) -> list[Fraction]:
    return list((Counter(state) - Counter(operands)).elements()) + [result]


def replay_tot(graph: StepGraph, numbers: list[int]) -> TotReplay:
    """Judge every operation step; text steps are left alone."""
    out = TotReplay()
    states: list[list[Fraction]] = [[Fraction(n) for n in numbers]]
    last_invalid: int | None = None
    for step in graph:
        if step.kind != "operation":
            continue
        p = step.payload
        operands = [Fraction(t) for t in _OPERAND.findall(p["lhs"])]
        results = [(r, _value(r)) for r in p["results"]]
        left = [_value(t) for t in p["left"]]
        if any(v is None for _, v in results) or any(v is None for v in left):
            out.verdicts.append(StepVerdict(step.index, "unknown", "formatting_unparseable_step",
                                            f"'{step.text}' has a number that cannot be read"))
            continue
        try:
            true = evaluate(p["lhs"], decimals=True, signed=True).value
        except (ExprError, ZeroDivisionError) as exc:
            out.verdicts.append(StepVerdict(step.index, "invalid", "arithmetic",
                                            f"'{p['lhs']}' cannot be evaluated: {exc}", found=p["lhs"]))
            last_invalid = step.index
            states.append(left)
            continue
        starts = [s for s in reversed(states) if not Counter(operands) - Counter(s)]
        start = next((s for s in starts if Counter(_after(s, operands, results[-1][1])) == Counter(left)),
                     starts[0] if starts else None)
        verdict = None
        wrong = [w for w, v in results if not _rounds_to(true, w, v)]
        if wrong:
            verdict = StepVerdict(step.index, "invalid", "arithmetic",
                                  f"{p['lhs']} = {_written(true)}, not {wrong[0]}", expected=_written(true),
                                  found=wrong[0])
        elif start is None:
            verdict = StepVerdict(step.index, "invalid", "operand_unavailable",
                                  f"'{p['lhs']}' uses numbers that no state so far holds (now: "
                                  f"{_show(states[-1])})", expected=_show(states[-1]), found=p["lhs"],
                                  consequence_of=last_invalid)
        else:
            expected = _after(start, operands, results[-1][1])
            if Counter(expected) != Counter(left):
                verdict = StepVerdict(step.index, "invalid", "left_mismatch",
                                      f"from {_show(start)}, '{p['lhs']} = {results[-1][0]}' leaves "
                                      f"{_show(expected)}, not {' '.join(p['left'])}",
                                      expected=_show(expected), found=" ".join(p["left"]))
        if verdict is None:
            verdict = StepVerdict(step.index, "valid", None, f"{p['lhs']} = {results[-1][0]}, left: "
                                                             f"{' '.join(p['left'])}")
        last_invalid = step.index if verdict.status == "invalid" else None
        out.verdicts.append(verdict)
        states.append(left)
        out.states[step.index] = {"left": list(p["left"])}
    return out
