"""SYNTHETIC traces for tests and benchmarks: written by this code, never by a model, and never
to be shown as model results (their records carry `meta.synthetic = true` and model names that
start with "synthetic").

A trace follows Wei et al. 2022's chain of thought, one step per paragraph: the last letter of
each word, then the running concatenation, then "So the answer is ...". At most one error is
injected, at a documented step:

* `letter`: a wrong last letter for one word (false string claim; the concatenations after it
  repeat it: consequences, and a wrong answer);
* `concat`: a running concatenation with a wrong result (false as written);
* `order`: a running concatenation with its pieces swapped, true as written but off-task; only
  where the swapped result is no run of the true letters (else nothing could tell);
* `answer`: a right trace and an answer with one letter changed (no step is wrong).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from validators.last_letter.problem import LastLetterProblem

INJECTIONS = ("letter", "concat", "order", "answer")


@dataclass(frozen=True)
class SyntheticTrace:
    trace: str
    answer: str
    injected: str | None
    injected_step: int | None  # the step holding the injected error (None: none, or only the answer)


def _other_letter(rng: random.Random, letter: str) -> str:
    return rng.choice([c for c in string.ascii_lowercase if c != letter])


def synthetic_trace(words: list[str], inject: str | None, rng: random.Random) -> SyntheticTrace:
    """A trace for `words` with the named error (None: a correct trace)."""
    letters = list(LastLetterProblem(tuple(words)).letters)
    n = len(words)
    said = list(letters)
    steps: list[str] = []
    at: int | None = None
    kind = inject
    if inject == "letter":
        i = rng.randrange(n)
        said[i] = _other_letter(rng, letters[i])
        at = i
    for word, letter in zip(words, said):
        steps.append(f'The last letter of "{word}" is "{letter}".')
    concat_at = None
    if inject in ("concat", "order") and n >= 2:
        choices = list(range(1, n))
        if inject == "order":
            truth = "".join(letters)
            choices = [k for k in choices if letters[k] + truth[:k] not in truth]
        concat_at = rng.choice(choices) if choices else None
        if concat_at is None:
            kind = None
    elif inject in ("concat", "order"):
        kind = None
    running = said[0]
    for k in range(1, n):
        if k == concat_at and inject == "concat":
            result = running + _other_letter(rng, said[k]) + rng.choice(["", said[k]])
            steps.append(f'Concatenating "{running}" and "{said[k]}" gives "{result}".')
            at = len(steps) - 1
        elif k == concat_at and inject == "order":
            result = said[k] + running
            steps.append(f'Concatenating "{said[k]}" and "{running}" gives "{result}".')
            at = len(steps) - 1
        else:
            result = running + said[k]
            steps.append(f'Concatenating "{running}" and "{said[k]}" gives "{result}".')
        running = result
    steps.append(f'So the answer is "{running}".')
    answer = running
    if inject == "answer":
        i = rng.randrange(len(answer))
        answer = answer[:i] + _other_letter(rng, answer[i]) + answer[i + 1:]
    return SyntheticTrace("\n\n".join(steps), answer, kind, at)
