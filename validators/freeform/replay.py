"""Free-form questions: problem {"question": ..., "reference_answer": ...}.

The answer is compared with `reference_answer` when one is given: numerically when both state a
number (exact rationals; "1,234", "$1,234.00", "\\boxed{1234}" and "1234" are equal; "0.5"
equals "1/2"), by normalised text otherwise (case, punctuation and spacing ignored). A
non-numeric answer that differs in wording cannot be judged without a semantic judge:
`answer_correct` is null with that reason, as it is when no reference is given.

In a thinking trace (`think`, `metacot`) every arithmetic claim is checked exactly
(validators/thinking/arith.py), and each step that states a result ("so the answer is 42") is a
candidate: compared with the reference, and the last one with the answer
(validators/thinking/analysis.py gives the gaps). The answer counts as derived in the trace when
its number appears anywhere in it.
"""

from __future__ import annotations

from fractions import Fraction

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.countdown.arith import fmt_num
from validators.base import DomainSpec, Replay
from validators.thinking.analysis import THINKING_FORMATS, Candidate, analyse
from validators.thinking.numbers import final_number, normalise_text, numbers_in, stated_number

VERSION = "1"


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
    if normalise_text(answer) == normalise_text(ref_text):
        return True, None
    return None, AnswerError(kind="undecided", message="the reference is not a number and the answer's wording "
                                                       "differs; free text cannot be judged without a semantic judge")


def _candidates(record: TraceRecord, parsed: ParsedTrace, reference: Fraction | None) -> list[Candidate]:
    out = []
    for step in parsed.graph:
        found = stated_number(step.text)
        if found is None:
            continue
        value = found[0]
        solves = None if reference is None else value == reference
        verdicts = []
        if solves is not None:
            verdicts.append(StepVerdict(step.index, "valid", None,
                                        f"states {fmt_num(value)}: {'matches' if solves else 'differs from'} "
                                        f"the reference {fmt_num(reference)}"))
        out.append(Candidate([step.index], f"the value {fmt_num(value)}", True, solves, value,
                             "equals the reference" if solves else
                             ("differs from the reference" if solves is False else "no reference"),
                             verdicts, stated=True))
    return out


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    reference = record.problem.get("reference_answer") if isinstance(record.problem, dict) else None
    out = Replay(notes={"rules": "exact arithmetic claims; numeric answer comparison (validators/freeform.py)"})
    out.answer_correct, out.answer_error = _judge(record.answer, reference)
    if parsed.format in THINKING_FORMATS and record.trace.strip():
        ref_value = final_number(str(reference)) if reference is not None else None
        answer_value = final_number(record.answer) if record.answer.strip() else None
        findings = analyse(parsed, record.trace, _candidates(record, parsed, ref_value), answer_value,
                           f"{fmt_num(answer_value)}" if answer_value is not None else "",
                           mentioned=lambda: answer_value in set(numbers_in(record.trace)))
        out.step_verdicts = findings.step_verdicts
        out.gaps = findings.gaps
        out.notes["thinking"] = findings.notes
    return out


DOMAIN = DomainSpec(
    name="freeform",
    version=VERSION,
    description="Free-form questions: arithmetic claims in the thinking checked exactly; the answer compared "
                "with the reference (numbers exactly, text normalised).",
    replay=replay,
    aliases=("free_form", "math"),
)
