"""SYNTHETIC long-multiplication traces for tests and benchmarks: written by this code, never by
a model, and never to be shown as model results (their records carry `meta.synthetic = true` and
model names that start with "synthetic").

One step per paragraph: a row per nonzero digit of `b` (units first) with its digit steps,
written digits and carries ("Multiply 123 by 5: 5 x 3 = 15, write 5, carry 1; ... So
123 x 5 = 615.", then "123 x 40 = 4920" for a shifted row), a running sum per further row, and
"So the answer is ...". At most one error is injected, at a documented step:

* `digit`: one digit step's product off by one (false claim; the row's product then too);
* `carry`: one carry off by one after a right digit step (the row's product then wrong);
* `shift`: a shifted row's product written without its zeros (false claim);
* `sum`: one running sum off by a power of ten (false claim; later sums build on it);
* `answer`: a right trace and an answer with one digit changed (no step is wrong).
Rows, sums and the answer after an error carry it on, as a model's would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

INJECTIONS = ("digit", "carry", "shift", "sum", "answer")


@dataclass(frozen=True)
class SyntheticTrace:
    trace: str
    answer: str
    injected: str | None
    injected_step: int | None


def _row(a: int, d: int, wrong_digit: int | None, wrong_carry: int | None) -> tuple[str, int]:
    """The digit steps of a x d (units first) and the value they write."""
    digits = [int(c) for c in reversed(str(a))]
    parts, written, carry = [], [], 0
    for i, ad in enumerate(digits):
        shown = f"{d} x {ad}" + (f" + {carry}" if carry else "")
        value = d * ad + carry + (1 if i == wrong_digit else 0)
        if i == len(digits) - 1:
            parts.append(f"{shown} = {value}, write {value}")
            written.append(str(value))
        else:
            carry = value // 10 + (1 if i == wrong_carry else 0)
            parts.append(f"{shown} = {value}, write {value % 10}, carry {carry}")
            written.append(str(value % 10))
    return "; ".join(parts), int("".join(reversed(written)))


def synthetic_trace(a: int, b: int, inject: str | None, rng: random.Random) -> SyntheticTrace:
    """A trace for a x b with the named error (None: a correct trace)."""
    places = [k for k, c in enumerate(reversed(str(b))) if c != "0"]
    kind, at = inject, None
    row_at = rng.choice(places) if inject in ("digit", "carry") else None
    if inject == "carry" and len(str(a)) < 2:
        kind, row_at = None, None
    shifted = [k for k in places if k > 0]
    if inject == "shift":
        row_at = rng.choice(shifted) if shifted else None
        kind = kind if shifted else None
    steps: list[str] = []
    partials: list[int] = []
    for k in places:
        d = int(str(b)[-1 - k])
        wrong_digit = rng.randrange(len(str(a))) if k == row_at and inject == "digit" else None
        wrong_carry = rng.randrange(len(str(a)) - 1) if k == row_at and inject == "carry" else None
        work, value = _row(a, d, wrong_digit, wrong_carry)
        text = f"Multiply {a} by {d}: {work}. So {a} x {d} = {value}."
        partial = value * 10 ** k
        if k:
            shown = value if k == row_at and inject == "shift" else partial
            text += f" Shifted {k} place{'s' if k > 1 else ''}: {a} x {d}{'0' * k} = {shown}."
            partial = shown
        if k == row_at:
            at = len(steps)
        steps.append(text)
        partials.append(partial)
    sum_at = rng.randrange(1, len(partials)) if inject == "sum" and len(partials) > 1 else None
    if inject == "sum" and sum_at is None:
        kind = None
    total = partials[0] if partials else 0
    for j, partial in enumerate(partials[1:], start=1):
        result = total + partial
        if j == sum_at:
            result += 10 ** rng.randrange(len(str(result)))
            at = len(steps)
        steps.append(f"{total} + {partial} = {result}.")
        total = result
    if not partials:
        steps.append(f"{b} is 0, so {a} x {b} = 0.")
    steps.append(f"So the answer is {total}.")
    answer = str(total)
    if inject == "answer":
        i = rng.randrange(len(answer))
        answer = answer[:i] + rng.choice([c for c in "0123456789" if c != answer[i] and (i or c != "0")]) + answer[i + 1:]
    return SyntheticTrace("\n\n".join(steps), answer, kind, at)
