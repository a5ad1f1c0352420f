"""Selection metrics over several samples of one problem: what picking among samples gains.

* **pass@1**: the mean correctness of single samples (c / n per problem).
* **majority@k** (self-consistency, Wang et al. 2023): the most frequent answer among k samples,
  by `core.problem_key.answer_key`, is correct. Samples without an answer do not vote. A tie
  between the most frequent answers counts as the expected correctness of picking one of them at
  random (each tied answer equally likely): deterministic, and no answer is favoured by its
  position in the corpus. An answer's correctness is the share of its samples judged correct (its
  samples normally agree: they are the same normalised answer).
* **verified@k**: some sample among k passes the sound validator (`answer_correct` is true): what
  an LLM-Modulo loop or best-of-k with a sound verifier returns. Over n >= k samples it is
  estimated with the unbiased estimator of pass@k, 1 - C(n-c, k) / C(n, k) (Chen et al. 2021,
  "Evaluating Large Language Models Trained on Code", eq. 1). majority@k for k < n is the mean over
  k-subsets: all of them when there are at most `SUBSETS`, else `SUBSETS` drawn with a fixed seed.
* **gap**: verified@n - majority@n, what a sound verifier adds to the model's own vote.

Undecided verdicts (`answer_correct` null) count as not correct.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Iterable, Sequence

SUBSETS = 64
Vote = tuple[str | None, bool | None]  # (answer key, answer correct)


def verified_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate that some of k samples (of n, c correct) is correct (Chen et al. 2021)."""
    if k > n or k <= 0:
        raise ValueError(f"k={k} must be in 1..n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def majority(votes: Sequence[Vote]) -> tuple[list[str], float | None]:
    """(the most frequent answers, ties included, in key order; expected correctness of the vote,
    None when no sample has an answer to vote with)."""
    counts: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for key, correct in votes:
        if key is not None:
            counts[key] += 1
            right[key] += correct is True
    if not counts:
        return [], None
    top = max(counts.values())
    winners = sorted(k for k, v in counts.items() if v == top)
    return winners, sum(right[k] / counts[k] for k in winners) / len(winners)


def majority_at_k(votes: Sequence[Vote], k: int, seed: int = 0) -> float | None:
    n = len(votes)
    if all(key is None for key, _ in votes):
        return None
    if k == n:
        return majority(votes)[1]
    if comb(n, k) <= SUBSETS:
        subsets: Iterable[Sequence[int]] = combinations(range(n), k)
    else:
        rng = random.Random(seed * 1_000_003 + n * 101 + k)
        subsets = [rng.sample(range(n), k) for _ in range(SUBSETS)]
    # A subset where nobody answers has no majority: it counts as not correct, as a vote that
    # returns nothing; only a problem where no sample answers at all has no majority (None).
    scores = [majority([votes[i] for i in s])[1] or 0.0 for s in subsets]
    return sum(scores) / len(scores)


def _mean(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


@dataclass
class SelectionRow:
    """One (model, domain): metrics over its problems with at least two samples."""

    model: str
    domain: str
    problems: int = 0
    samples: int = 0
    pass_at_1: float = 0.0
    majority: float | None = None  # None: no sample of these problems has an answer to vote with
    verified: float = 0.0
    gap: float | None = None
    curve: list[dict[str, float]] = field(default_factory=list)  # k, problems, pass@1, majority@k, verified@k

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "domain": self.domain, "problems": self.problems, "samples": self.samples,
                "pass@1": self.pass_at_1, "majority@n": self.majority, "verified@n": self.verified,
                "gap": self.gap, "curve": self.curve}


def selection_row(model: str, domain: str, problems: Sequence[Sequence[Vote]], max_k: int = 16,
                  curve_problems: int = 2_000) -> SelectionRow:
    """Metrics over `problems` (each the votes of its samples; problems with one sample are left
    out). The majority@k curve uses the first `curve_problems` of them (the caller's order)."""
    many = [p for p in problems if len(p) >= 2]
    row = SelectionRow(model, domain, problems=len(many), samples=sum(map(len, many)))
    if not many:
        return row
    cs = [sum(1 for _, ok in p if ok is True) for p in many]
    row.pass_at_1 = sum(c / len(p) for c, p in zip(cs, many)) / len(many)
    row.majority = _mean(majority(p)[1] for p in many)
    row.verified = sum(1.0 for c in cs if c > 0) / len(many)
    row.gap = None if row.majority is None else row.verified - row.majority
    top = min(max(map(len, many)), max_k)
    for k in range(1, top + 1):
        having = [(p, c) for p, c in zip(many, cs) if len(p) >= k]
        voted = having[:curve_problems]
        row.curve.append({
            "k": k, "problems": len(having),
            "pass@1": sum(c / len(p) for p, c in having) / len(having),
            "majority@k": _mean(majority_at_k(p, k, seed=i) for i, (p, _) in enumerate(voted)),
            "verified@k": sum(verified_at_k(len(p), c, k) for p, c in having) / len(having),
        })
    return row
