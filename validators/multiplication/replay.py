"""The `multiplication` replay.

Every arithmetic claim is checked exactly (validators/thinking/arith.py: partial products
"123 x 5 = 615", "123 x 40 = 4920", running sums "615 + 4920 = 5535", digit steps
"5 x 2 + 1 = 11"), the answer against the exact product, and the trace's stated conclusion
against the answer, as in the `freeform` domain. On top, what long multiplication writes
(the scratchpads of Dziri et al. 2023):

* Written digits and carries right after a claim ("5 x 3 = 15, write 5, carry 1"): the digit
  must be the claimed value's last digit and the carry the rest (15: write 5, carry 1); a digit
  alone may also be the whole value, as the last column writes it ("write 11"). Checked against
  the value the claim states, so a false claim is one error, not two (`carry_wrong`).
* A partial product of a factor by a digit with its place's zeros ("123 x 40", for a multiplier
  345) must use the digit the other factor has in that place (`partial_product_wrong_digit`).
  Only written with zeros: "123 x 3 = 369" may be the hundreds row before its shift.
  A place value above the other factor ("231272201 x 300000000" for x 299529654: rounded up to
  subtract the rest) is no row of it, and its digit is not judged.
* Any other decomposition (123 x 350 - 123 x 5, ...) is checked only claim by claim. Numbers
  with thousands separators ("929 x 300 = 278,700") are read whole (validators/reading/numbers.py).
"""

from __future__ import annotations

import re
from fractions import Fraction

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.freeform.replay import replay_against
from validators.multiplication.generate import generate
from validators.multiplication.problem import MultiplicationProblem, problem_length, read_problem
from validators.reading.numbers import plain
from validators.thinking.arith import find_claims
from validators.thinking.numbers import final_number

VERSION = "3"

_LEAD = r"[ \t]*[,;:]?[ \t]*(?:(?:and|so|then)[ \t]+)?(?:we[ \t]+)?"
_WRITE = re.compile(_LEAD + r"(?:write|put|bring)[ \t]+(?:down[ \t]+)?(?:the[ \t]+)?(?:digit[ \t]+)?(?P<d>\d+)\b"
                    r"(?:" + _LEAD + r"carry(?:ing)?[ \t]+(?:over[ \t]+)?(?:the[ \t]+|a[ \t]+)?(?P<c>\d+)\b)?", re.I)
_CARRY = re.compile(_LEAD + r"carry(?:ing)?[ \t]+(?:over[ \t]+)?(?:the[ \t]+|a[ \t]+)?(?P<c>\d+)\b", re.I)
_PRODUCT = re.compile(r"\s*(\d+)\s*(?:[xX×*·])\s*(\d+)\s*")
_PLACE = re.compile(r"([1-9])(0+)")


def _claimed(claim_text: str) -> int | None:
    value = final_number(claim_text.rsplit("=", 1)[-1])
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 and value >= 0 else None


def _written(step: int, claim_text: str, value: int, digit: int, carry: int | None, said: str) -> StepVerdict:
    if carry is None:
        ok = digit in (value % 10, value)
        want = f"{value % 10} (or the whole {value})"
    else:
        ok = digit == value % 10 and carry == value // 10
        want = f"{value % 10}, carry {value // 10}"
    if ok:
        return StepVerdict(step, "valid", None, f"'{claim_text}', '{said.strip(' ,;:')}': right")
    return StepVerdict(step, "invalid", "carry_wrong",
                       f"'{claim_text}' then '{said.strip(' ,;:')}': {value} is written {want}",
                       expected=[value % 10, value // 10], found=[digit, carry])


def _place_digit(number: int, place: int) -> int | None:
    text = str(number)
    return int(text[-1 - place]) if place < len(text) else None


def _partial(step: int, claim_text: str, problem: MultiplicationProblem) -> StepVerdict | None:
    m = _PRODUCT.fullmatch(plain(claim_text.split("=", 1)[0]))
    if m is None:
        return None
    x, y = int(m.group(1)), int(m.group(2))
    readings = []
    for factor, part in ((x, m.group(2)), (y, m.group(1))):
        place = _PLACE.fullmatch(part)
        if place is None or factor not in (problem.a, problem.b):
            continue
        digit, zeros = int(place.group(1)), len(place.group(2))
        others = ([problem.b] if factor == problem.a else []) + ([problem.a] if factor == problem.b else [])
        # A row of long multiplication is at most the factor it comes from: 231272201 x 300000000
        # for x 299529654 rounds up to subtract the rest, it uses no digit of it.
        others = [o for o in others if o >= int(part)]
        if not others:
            continue
        readings.append(any(_place_digit(o, zeros) == digit for o in others))
        if readings[-1]:
            return StepVerdict(step, "valid", None, f"'{claim_text}': a partial product by the digit {digit} "
                                                    f"in the 10^{zeros} place")
    if not readings:
        return None
    return StepVerdict(step, "invalid", "partial_product_wrong_digit",
                       f"'{claim_text}' is no partial product of {problem.a} x {problem.b}: the other factor has a "
                       f"different digit in that place", found=claim_text)


def task_verdicts(parsed: ParsedTrace, text: str, problem: MultiplicationProblem) -> list[StepVerdict]:
    """The task's own step verdicts (module docstring)."""
    out: list[StepVerdict] = []
    for step in parsed.graph:
        lo, hi = step.span
        if "=" not in text[lo:hi]:
            continue
        for claim in find_claims(text, 0, lo, hi):
            partial = _partial(step.index, claim.text, problem)
            if partial is not None:
                out.append(partial)
            value = _claimed(claim.text)
            if value is None:
                continue
            m = _WRITE.match(text, claim.end, hi)
            if m is not None:
                carry = int(m.group("c")) if m.group("c") else None
                out.append(_written(step.index, claim.text, value, int(m.group("d")), carry, m.group(0)))
                continue
            m = _CARRY.match(text, claim.end, hi)
            if m is not None:
                carry = int(m.group("c"))
                ok = carry == value // 10
                out.append(StepVerdict(step.index, "valid" if ok else "invalid", None if ok else "carry_wrong",
                                       f"'{claim.text}' then '{m.group(0).strip(' ,;:')}': {value} carries "
                                       f"{value // 10}", expected=value // 10, found=carry))
    return out


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    problem = read_problem(record.problem)
    if isinstance(problem, str):
        return Replay(answer_correct=None, answer_error=AnswerError("undecided", problem))
    out = replay_against(record, parsed, str(problem.product), lambda: task_verdicts(parsed, record.trace, problem))
    out.notes["rules"] = ("arithmetic claims checked exactly; written digits, carries and partial products' digits "
                          "checked (validators/multiplication/replay.py)")
    out.notes["length"] = problem.length
    return out


DOMAIN = DomainSpec(
    name="multiplication",
    version=VERSION,
    description="Multi-digit multiplication (Dziri et al. 2023): partial products, running sums, written digits "
                "and carries checked exactly; the answer against the exact product.",
    replay=replay,
    aliases=("multiply", "long_multiplication"),
    problem_length=problem_length,
    length_label="digits of the longer factor",
    generate=generate,
)
