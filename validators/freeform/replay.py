"""Free-form questions: problem {"question": ..., "reference_answer": ...}.

The answer is compared with `reference_answer` when one is given:
* numerically when the reference states a number (exact rationals; "1,234", "$1,234.00",
  "\\boxed{1234}" and "1234" are equal; "0.5" equals "1/2");
* else as a string, exactly, after `clean_answer` on both sides: surrounding whitespace, markdown
  bold, `\\boxed{}`, a leading "The answer is" / "Answer:" / "[Answer]", a trailing period and surrounding
  quotes are removed; case is ignored ("**The answer is 'KN'.**" equals "kn"), and letters spelled
  out one by one are the word they spell ('"n a o a"' and "s-a-n-n" are "naoa", "sann"). A longer answer that
  contains the reference among other words ("The capital is Paris") is not judged (null, said
  why): only a semantic judge could tell whether the rest changes it. Any other difference is
  wrong, and `answer_error.message` shows the two strings compared.
`answer_correct` is null when no reference is given.

In the trace, whatever its format (`think`, `metacot`, or plain text), every arithmetic and string claim is checked
(validators/thinking/arith.py, strings.py) and the trace's result is compared with the reference
and with the answer (validators/thinking/analysis.py gives the gaps). What the trace settles on:
* numbers: each step that states a result ("so the answer is 42", "the total is 448") is a
  candidate, and the last one is the trace's conclusion; a result stated as a chain ("the final
  answer is 48 x 1 + 96 x 10 = 48 + 960 = 1008") states its last side. Only when no step states a result, the
  last computed value counts ("... so 56 * 8 = 448."): the right side of the last arithmetic claim
  of the last step that holds any number, when that claim closes its step, the step is not a
  check, and its sentence is not hedged ("maybe", "if", "?"). So a trace that computes
  intermediate values after its stated result, or checks one, keeps that result; a trace that
  ends unresolved (a retraction after the result: "Wait, ...", "But ...") has no conclusion.
  When the conclusion differs from the answer's number: `answer_contradicts_trace`.
* strings (the reference, or without a reference the answer, states no number): each step that
  says "the answer is X" with X quoted, bold, boxed, or one word ending the sentence; the last
  one is compared with the cleaned answer (only when the answer is a value of at most four words).
The answer counts as derived in the trace when its number (or string, as a whole word) appears
anywhere in it.
"""

from __future__ import annotations

import re
from dataclasses import replace as with_fields
from fractions import Fraction
from typing import Any, Callable

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.exact_arithmetic import fmt_num
from validators.base import DomainSpec, Replay
from validators.reading.text import spelled_out
from validators.thinking.analysis import Candidate, analyse, merge_verdicts
from validators.thinking.arith import find_claims
from validators.thinking.numbers import final_number, numbers_in, stated_number

VERSION = "6"
MAX_VALUE_WORDS = 4

_BOLD = re.compile(r"^(\*\*|__)(.+)\1$", re.S)
_BOXED = re.compile(r"^\\boxed\s*\{(.*)\}$", re.S)
_LEAD = re.compile(r"^(?:(?:so\s*,?\s*)?the\s+(?:final\s+)?answer\s+is\b\s*:?|(?:final\s+)?answer\s*:|\[answer\]\s*:?)\s*",
                   re.I)
_QUOTES = {"'": "'", '"': '"', "‘": "’", "“": "”", "`": "`"}
_STRING_STATED = re.compile(
    r"\b(?:final\s+)?answer\s*(?:is|would be|should be|:|=)\s*(?P<v>'[^'\n]{1,60}'|‘[^’\n]{1,60}’|\"[^\"\n]{1,60}\""
    r"|“[^”\n]{1,60}”|\*\*[^*\n]{1,60}\*\*|\\boxed\{[^{}\n]{1,60}\}|[^\s.,;:!?'\"*]+(?=\s*(?:[.!?,;\n]|$)))", re.I)
_NOT_VALUES = frozenset("it this that them these those yes no unknown unclear correct wrong above below".split())
_HEDGE = re.compile(r"\b(?:maybe|perhaps|if|suppose|assume|might|could|would|try|trying|guess|whether)\b|\?", re.I)


def clean_answer(text: str) -> str:
    """The value an answer (or reference) writes, without its dressing (module docstring)."""
    value = text.strip()
    while True:
        before = value
        value = value.strip()
        m = _BOLD.match(value) or _BOXED.match(value)
        if m:
            value = m.group(m.lastindex or 1)
        value = _LEAD.sub("", value)
        if value.endswith(".") and not value.endswith(".."):
            value = value[:-1]
        if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
            value = value[1:-1]
        if value == before:
            return value


def _is_whole_word(needle: str, text: str) -> bool:
    return bool(needle) and re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", text, re.I) is not None


def _judge(answer: str, reference: object) -> tuple[bool | None, AnswerError | None]:
    if reference is None or (isinstance(reference, str) and not reference.strip()):
        return None, AnswerError(kind="undecided", message="the problem gives no reference_answer to compare with")
    ref_text = str(reference)
    if not answer.strip():
        return False, AnswerError(kind="unparseable", message="the answer is empty")
    ref_value, value = final_number(ref_text), final_number(answer)
    if ref_value is not None:
        if value is None:
            return False, AnswerError(kind="unparseable", message=f"the answer states no number; the reference is "
                                                                   f"{fmt_num(ref_value)}")
        if value == ref_value:
            return True, None
        return False, AnswerError(kind="wrong_value", message=f"the answer is {fmt_num(value)}, the reference is "
                                                              f"{fmt_num(ref_value)}",
                                  extra={"found": fmt_num(value), "expected": fmt_num(ref_value)})
    got, want = clean_answer(answer), clean_answer(ref_text)
    if string_key(got) == string_key(want):
        return True, None
    if len(got.split()) > len(want.split()) and _is_whole_word(want, got):
        return None, AnswerError(kind="undecided", message=f"the answer '{got}' contains the reference '{want}' among "
                                                           "other words; whether the rest changes it needs a semantic "
                                                           "judge")
    return False, AnswerError(kind="wrong_value", message=f"compared as strings (quotes, bold, a trailing period and a "
                                                          f"leading 'The answer is' removed; case ignored): the answer "
                                                          f"'{got}' differs from the reference '{want}'",
                              extra={"found": got, "expected": want})


def _computed_conclusion(parsed: ParsedTrace, text: str) -> tuple[int, Fraction, str] | None:
    """(step, value, claim) of the last computed result when it closes the trace's reasoning
    (module docstring); None when the trace does not end on one plainly."""
    numbered = [s for s in parsed.graph if numbers_in(s.text)]
    if not numbered or numbered[-1].kind == "check":
        return None
    step = numbered[-1]
    claims = find_claims(text, 0, step.span[0], step.span[1])
    if not claims or not re.fullmatch(r"[\s.!*)\]]*", text[claims[-1].end:step.span[1]]):
        return None
    claim = claims[-1]
    head = text[step.span[0]:claim.start]
    sentence = re.split(r"[.!?:;]\s|\n", head)[-1]
    value = final_number(claim.text.rsplit("=", 1)[-1])
    if value is None or _HEDGE.search(sentence):
        return None
    return step.index, value, claim.text


def _stated_value(text: str, found: tuple[Fraction, int, int]) -> tuple[Fraction, str]:
    """The value a step states, and the claim it comes from: a result written as a chain ("The
    final answer is 48 x 1 + 96 x 10 = 48 + 960 = 1008.") states its last side, not its first
    number."""
    value, start, end = found
    for claim in find_claims(text, 0, start):
        if claim.start >= end:
            break
        last = final_number(claim.text.rsplit("=", 1)[-1])
        return (last, claim.text) if last is not None else (value, "")
    return value, ""


def _number_candidates(parsed: ParsedTrace, text: str, reference: Fraction | None) -> list[Candidate]:
    stated: list[tuple[int, Fraction, str]] = []
    for step in parsed.graph:
        found = stated_number(step.text)
        if found is not None:
            stated.append((step.index, *_stated_value(step.text, found)))
    if not stated:
        computed = _computed_conclusion(parsed, text)
        stated = [computed] if computed else []
    out = []
    for idx, value, claim in stated:
        solves = None if reference is None else value == reference
        verdicts = []
        if solves is not None:
            verdicts.append(StepVerdict(idx, "valid", None,
                                        f"states {fmt_num(value)}: {'matches' if solves else 'differs from'} "
                                        f"the reference {fmt_num(reference)}"))
        label = f"the value {fmt_num(value)}" + (f" from '{claim}'" if claim else "")
        out.append(Candidate([idx], label, True, solves, value,
                             "equals the reference" if solves else
                             ("differs from the reference" if solves is False else "no reference"),
                             verdicts, stated=True))
    return out


def string_key(value: str) -> str:
    """A cleaned string value as it compares: case ignored, and letters spelled out one by one
    ("n a o a", "s-a-n-n") as the word they spell."""
    return (spelled_out(value) or value).casefold()


def _string_key(text: str) -> str | None:
    """The string an answer states, compared as `string_key`; None when it is not a short value."""
    value = clean_answer(text)
    if not value or len(value.split()) > MAX_VALUE_WORDS or "\n" in value:
        return None
    return string_key(value)


def _string_candidates(parsed: ParsedTrace, reference: str | None) -> list[Candidate]:
    out = []
    for step in parsed.graph:
        found = [m for m in _STRING_STATED.finditer(step.text) if clean_answer(m.group("v")).casefold() not in _NOT_VALUES]
        if not found:
            continue
        value = clean_answer(found[-1].group("v"))
        solves = None if reference is None else string_key(value) == string_key(reference)
        out.append(Candidate([step.index], f"'{value}'", True, solves, string_key(value),
                             "equals the reference" if solves else
                             ("differs from the reference" if solves is False else "no reference"), stated=True))
    return out


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    reference = record.problem.get("reference_answer") if isinstance(record.problem, dict) else None
    if isinstance(reference, str) and not reference.strip():
        reference = None
    out = Replay(notes={"rules": "exact arithmetic and string claims; answers compared as numbers, else as strings "
                                 "(validators/freeform.py)"})
    out.answer_correct, out.answer_error = _judge(record.answer, reference)
    # Any free-form reasoning is read as thinking: a plain-text trace ("Wait, 12 + 5 = 18") makes
    # the same arithmetic and string claims as a <think> block, and they are checked the same way.
    if record.trace.strip():
        ref_value = final_number(str(reference)) if reference is not None else None
        answer_value = final_number(record.answer) if record.answer.strip() else None
        as_string = (ref_value is None) if reference is not None else (answer_value is None and bool(record.answer.strip()))
        candidates: list[Candidate]
        answer_key: Any
        if as_string:
            answer_key = _string_key(record.answer)
            candidates = _string_candidates(parsed, clean_answer(str(reference)) if reference is not None else None)
            label = f"'{clean_answer(record.answer)}'"
            mentioned = lambda: _is_whole_word(clean_answer(record.answer), record.trace)  # noqa: E731
        else:
            answer_key, label = answer_value, (fmt_num(answer_value) if answer_value is not None else "")
            candidates = _number_candidates(parsed, record.trace, ref_value)
            mentioned = lambda: answer_value in set(numbers_in(record.trace))  # noqa: E731
        findings = analyse(parsed, record.trace, candidates, answer_key, label, mentioned=mentioned)
        out.step_verdicts = findings.step_verdicts
        out.gaps = findings.gaps
        out.notes["thinking"] = findings.notes
    return out


def replay_against(record: TraceRecord, parsed: ParsedTrace, reference: str,
                   task: Callable[[], list[StepVerdict]] | None = None) -> Replay:
    """This replay with the reference a domain computes from its own problem (last_letter,
    multiplication): answer verdict, arithmetic and string claims, and the gaps; the domain's own
    step verdicts (`task`, run only on a non-empty trace) merged in, one verdict per step."""
    out = replay(with_fields(record, problem={**record.problem, "reference_answer": reference}), parsed)
    if task is not None and record.trace.strip():
        out.step_verdicts = merge_verdicts(out.step_verdicts + task())
    return out


DOMAIN = DomainSpec(
    name="freeform",
    version=VERSION,
    description="Free-form questions: arithmetic and string claims in the thinking checked exactly; the answer "
                "compared with the reference (numbers exactly, else as cleaned strings).",
    replay=replay,
    aliases=("free_form", "math"),
)
