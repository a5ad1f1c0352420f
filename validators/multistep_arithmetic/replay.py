"""The `multistep_arithmetic` replay: BIG-Bench's "((-1 + 2) * (3 - -4)) =" evaluated exactly.

BIG-Bench Mistake's chains name the parts of the expression ('This equation can be written as
"(A * B)", where A = (...) and B = (...)'), compute each part as a chain of rewrites ("Let's
calculate A = (2 + -1 - -8) = (2 + -1 + 8) = 9"), then combine them ("Then, the final equation
is (A * B) = (9 * 16) = 144. So the answer is 144"). Every expression is evaluated exactly
(fractions, never floats) by Countdown's reader with the unary minus on
(`validators.exact_arithmetic.evaluate(signed=True)`), so operator precedence and signs are the
arithmetic's own ("7 - -7 * 4" is 35):

* the parts must make up the input (`wrong_decomposition`: the template with the parts'
  values differs from the input's value);
* a part's chain must start from its definition (`wrong_restatement`) and every "=" must keep
  the value (`wrong_rewrite`: the first one that does not is named, with both values);
* the final combination is read with the values the trace computed for the parts.

A chain whose every rewrite holds but which starts from a part computed wrongly earlier (or a
wrong template) is a consequence of that step (`consequence_of`). Steps that claim none of
these are not judged. The answer is right when it is the input's exact value.

Reading (validators/reading): each step is segmented by `read_text`, and the first unit that
makes one of the three claims is the step's claim (its span, in the step's text, is kept in
`states[step]["claim"]`). A unit's text is read without markdown emphasis ("**A** = ...",
backticks) and with its numbers and operators as `numbers.expression` gives them ("1,260",
"−7", "×"), so the expression grammar sees ASCII. What stays a pattern of this package: the
template's wording ('written as "A * B", where ...'), "calculate A = ..." and "the final
equation is ...", and the expressions themselves, which Countdown's evaluator reads; the
layer's tokens drop "*", "-" and "/", so an expression is read from the unit's text, not from
its tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.exact_arithmetic import ExprError, evaluate
from validators.reading.numbers import expression as ascii_expression
from validators.reading.text import read_text, without_emphasis

VERSION = "2"
_PROMPT = re.compile(r"^\s*(?P<expr>[-+*/()\d\s]*\d[-+*/()\d\s]*?)\s*=?\s*$")
_TEMPLATE = re.compile(r'written as\s*"(?P<template>[^"]+)"\s*,?\s*where\s+(?P<defs>.*)$', re.I | re.S)
_DEF = re.compile(r"\b([A-Z])\s*=\s*")
_CALC = re.compile(r"calculate\s+(?P<name>[A-Z])\s*=\s*(?P<chain>.*)$", re.I | re.S)
_FINAL = re.compile(r"final equation is\s*:?\s*(?P<chain>.*?)(?:\.?\s*So,?\s+the answer is.*)?$", re.I | re.S)
_LETTER = re.compile(r"\b[A-Z]\b")
_NUMBER = re.compile(r"-?\d+(?:/\d+)?")


def _balanced(text: str) -> str:
    """The text with unmatched parentheses closed or opened, as a typo ("((-5 * -8 + 4)") means."""
    depth = low = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        low = min(low, depth)
    return "(" * -low + text + ")" * (depth - low)


def value_of(text: str, env: dict[str, Fraction] | None = None) -> Fraction | None:
    """The exact value of an expression whose part names take their values from `env`; None if unreadable."""
    text = ascii_expression(text).strip().rstrip(".").strip()
    if env is not None:
        missing = [n for n in _LETTER.findall(text) if n not in env]
        if missing:
            return None
        text = _LETTER.sub(lambda m: f"({env[m.group(0)]})", text)
    try:
        return evaluate(_balanced(text), signed=True).value
    except ExprError:
        return None


def read_expression(problem: dict) -> str | None:
    text = problem.get("input") or problem.get("question") or ""
    if not isinstance(text, str):
        return None
    text = ascii_expression(without_emphasis(text))
    m = _PROMPT.match(text)
    if m is None or not re.search(r"\d\s*[-+*/]", m.group("expr")):
        return None
    return m.group("expr") if value_of(m.group("expr")) is not None else None


def recognise(problem: dict) -> bool:
    """An input that is one integer expression, optionally followed by "="."""
    return read_expression(problem) is not None


def _show(v: Fraction | None) -> str:
    return "unreadable" if v is None else str(v)


@dataclass
class _Run:
    """The parts' definitions, their true values and the values the trace claimed, with where each went wrong."""

    target: Fraction
    template: str | None = None
    defs: dict[str, str] = field(default_factory=dict)
    true: dict[str, Fraction] = field(default_factory=dict)
    claimed: dict[str, Fraction] = field(default_factory=dict)
    wrong_at: dict[str, int] = field(default_factory=dict)
    root: int | None = None
    verdicts: list[StepVerdict] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)

    def invalid(self, step: int, rule: str, message: str, expected, found, cause: int | None) -> None:
        self.verdicts.append(StepVerdict(step, "invalid", rule, message, _show(expected), _show(found),
                                         consequence_of=cause))
        if cause is None and self.root is None:
            self.root = step

    def cause_of(self, text: str) -> int | None:
        """The earliest step that made a part this text uses wrong, else the first root."""
        steps = [self.wrong_at[n] for n in _LETTER.findall(text) if n in self.wrong_at]
        return min(steps) if steps else self.root


def _definitions(text: str) -> dict[str, str]:
    marks = list(_DEF.finditer(text))
    out = {}
    for m, nxt in zip(marks, marks[1:] + [None]):
        body = text[m.end(): nxt.start() if nxt else len(text)]
        body = re.sub(r"(?:\s*,)?\s*(?:and\s*)?$", "", body.strip().rstrip("."))
        out[m.group(1)] = body.strip()
    return out


def _decomposition(run: _Run, step: int, m: re.Match) -> None:
    run.template = m.group("template").strip()
    run.defs = _definitions(m.group("defs"))
    for name, body in run.defs.items():
        v = value_of(body)
        if v is not None:
            run.true[name] = v
    whole = value_of(run.template, run.true)
    if whole is None:
        run.verdicts.append(StepVerdict(step, "unchecked"))
    elif whole != run.target:
        run.invalid(step, "wrong_decomposition",
                    f'"{run.template}" with these parts is {whole}, but the input is {run.target}', run.target, whole, None)
    else:
        run.verdicts.append(StepVerdict(step, "valid"))


def _chain(run: _Run, step: int, links: list[str], truth: Fraction | None) -> Fraction | None:
    """Judge one chain of rewrites; its last value as the trace computed it (None: unreadable)."""
    values = [value_of(t, run.claimed) for t in links]
    if any(v is None for v in values):
        run.verdicts.append(StepVerdict(step, "unchecked"))
        return None
    for i in range(1, len(links)):
        if values[i] != values[i - 1]:
            run.invalid(step, "wrong_rewrite",
                        f"{links[i - 1].strip()} is {values[i - 1]}, not {values[i]} ({links[i].strip()})",
                        values[i - 1], values[i], None)
            return values[-1]
    if truth is not None and values[-1] != truth:
        run.invalid(step, "wrong_value", f"{links[0].strip()} is {truth}, not {values[-1]}"
                    + (" (from a part computed wrongly before)" if run.cause_of(links[0]) is not None else ""),
                    truth, values[-1], run.cause_of(links[0]))
        return values[-1]
    run.verdicts.append(StepVerdict(step, "valid"))
    return values[-1]


def _calculation(run: _Run, step: int, name: str, links: list[str]) -> None:
    first = value_of(links[0])
    definition = run.defs.get(name)
    truth = run.true.get(name)
    if truth is None and first is not None:
        run.true[name] = truth = first
    if definition is not None and first is not None and truth is not None and first != truth:
        run.invalid(step, "wrong_restatement", f"{name} is {definition} = {truth}, not {links[0].strip()} = {first}",
                    truth, first, None)
        last = value_of(links[-1], run.claimed)
    else:
        last = _chain(run, step, links, truth)
    if last is None:
        return
    run.claimed[name] = last
    if truth is not None and last != truth:
        bad = run.verdicts[-1]
        run.wrong_at[name] = bad.consequence_of if bad.consequence_of is not None else step


def _claim(text: str) -> tuple[str, re.Match, tuple[int, int]] | None:
    """The step's claim: the first unit that decomposes, calculates a part or combines them."""
    for unit in read_text(text).units:
        said = ascii_expression(without_emphasis(unit.text(text)))
        for kind, pattern in (("template", _TEMPLATE), ("calc", _CALC), ("final", _FINAL)):
            m = pattern.search(said)
            if m and (kind != "final" or "=" in m.group("chain")):
                return kind, m, unit.span
    return None


def _step(run: _Run, step: int, text: str) -> None:
    found = _claim(text)
    if found is None:
        run.verdicts.append(StepVerdict(step, "unchecked"))
        return
    kind, m, span = found
    run.states[step] = {"claim": list(span)}
    if kind == "template":
        _decomposition(run, step, m)
    elif kind == "calc":
        _calculation(run, step, m.group("name"), m.group("chain").split("="))
    else:
        _chain(run, step, m.group("chain").split("="), run.target)


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    expression = read_expression(record.problem)
    if expression is None:
        return Replay(answer_correct=None, answer_error=AnswerError(
            "undecided", "problem.input is not an arithmetic expression Stepscope can read"))
    target = value_of(expression)
    assert target is not None
    run = _Run(target)
    for step in parsed.graph:
        _step(run, step.index, step.text)
    found = _NUMBER.findall(ascii_expression(without_emphasis(record.answer)))
    given = Fraction(found[-1]) if found else None
    ok = given == target
    error = None if ok else AnswerError(
        "wrong_value", f"the input is {target}; the answer is {record.answer.strip()!r}", extra={"expected": str(target)})
    return Replay(step_verdicts=run.verdicts, answer_correct=ok, answer_error=error, states=run.states,
                  notes={"value": str(target)})


DOMAIN = DomainSpec(
    name="multistep_arithmetic", version=VERSION,
    description="BIG-Bench multistep arithmetic: the parts, every rewrite and value and the final combination "
                "evaluated exactly; the answer against the input's exact value.",
    replay=replay, recognise=recognise,
)
