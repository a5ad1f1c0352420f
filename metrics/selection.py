"""Selection metrics over several samples of one problem: what picking among samples gains.

* **pass@1**: the mean correctness of single samples (c / n per problem).
* **majority@k** (self-consistency, Wang et al. 2023): the most frequent answer among k samples,
  by `metrics.problem_key.answer_key`, is correct. Samples without an answer do not vote. A tie
  between the most frequent answers counts as the expected correctness of picking one of them at
  random (each tied answer equally likely): deterministic, and no answer is favoured by its
  position in the corpus. An answer's correctness is the share of its samples judged correct (its
  samples normally agree: they are the same normalised answer).
* **verified@k**: some sample among k passes the sound validator (`answer_correct` is true): what
  an LLM-Modulo loop or best-of-k with a sound verifier returns. Over n >= k samples it is
  estimated with the unbiased estimator of pass@k, 1 - C(n-c, k) / C(n, k) (Chen et al. 2021,
  "Evaluating Large Language Models Trained on Code", eq. 1). majority@k for k < n is the mean over
  k-subsets: all of them when there are at most `EXACT`, else `SUBSETS` drawn with a fixed seed.
* **gap**: verified@n - majority@n, what a sound verifier adds to the model's own vote.

Against k, each point stands on the problems with at least k samples (`problems` in the point),
so the problem set shrinks as k grows; a curve stops before the first k with fewer than
`MIN_CURVE_PROBLEMS` problems: past that a point is one or two problems' luck (issue 37 saw a
pooled curve fall to 0 at a k that one problem reached). 10 problems keep the standard error of a
share under 0.16 (at p = 0.5); the row's `curve_cut` says where a curve stopped and why.

Undecided verdicts (`answer_correct` null) count as not correct.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Iterable, Sequence

import numpy as np

MIN_CURVE_PROBLEMS = 10  # a point of a curve against k stands on at least this many problems
SUBSETS = 200
EXACT = 20  # up to this many k-subsets, every one is voted
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
    return majority_curve(votes, [k], seed)[0]


def majority_curve(votes: Sequence[Vote], ks: Sequence[int], seed: int = 0) -> list[float | None]:
    """majority@k of one problem for each k in ks (every k <= len(votes))."""
    n = len(votes)
    if all(key is None for key, _ in votes):
        return [None] * len(ks)
    out: list[float | None] = []
    sampled = None
    for k in ks:
        if k == n:
            out.append(majority(votes)[1])
        elif comb(n, k) <= EXACT:
            # A subset where nobody answers has no majority: it counts as not correct, as a vote
            # that returns nothing; only a problem where no sample answers has no majority (None).
            scores = [majority([votes[i] for i in s])[1] or 0.0 for s in combinations(range(n), k)]
            out.append(sum(scores) / len(scores))
        else:
            sampled = sampled or _Sampler(votes, seed)
            out.append(sampled.majority(k))
    return out


class _Sampler:
    """SUBSETS random orderings of one problem's samples; the first k of each is a uniform
    k-subset, so every k is voted on the same draws, all subsets at once with numpy."""

    def __init__(self, votes: Sequence[Vote], seed: int) -> None:
        codes: dict[str, int] = {}
        index = np.array([codes.setdefault(key, len(codes)) if key is not None else -1 for key, _ in votes])
        right = np.zeros(len(codes) + 1)
        total = np.zeros(len(codes) + 1)
        np.add.at(total, index, 1)
        np.add.at(right, index, np.array([ok is True for _, ok in votes], dtype=float))
        self.share = np.divide(right, total, out=np.zeros_like(right), where=total > 0)[:-1]  # -1 (no answer) dropped
        rng = np.random.default_rng(seed * 1_000_003 + len(votes))
        self.order = index[np.argsort(rng.random((SUBSETS, len(votes))), axis=1)]
        self.onehot = self.order[:, :, None] == np.arange(len(codes))[None, None, :]  # subsets x position x answer
        self.counts = np.cumsum(self.onehot, axis=1)

    def majority(self, k: int) -> float:
        counts = self.counts[:, k - 1, :]
        top = counts.max(axis=1, keepdims=True)
        winners = (counts == top) & (top > 0)
        n_win = winners.sum(axis=1)
        scores = np.divide((winners * self.share).sum(axis=1), n_win, out=np.zeros(SUBSETS), where=n_win > 0)
        return float(scores.mean())


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
    # the first k left out of the curve and how many problems reach it (None: the curve is whole)
    curve_cut: dict[str, int] | None = None

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "domain": self.domain, "problems": self.problems, "samples": self.samples,
                "pass@1": self.pass_at_1, "majority@n": self.majority, "verified@n": self.verified,
                "gap": self.gap, "curve": self.curve, "curve_cut": self.curve_cut,
                "curve_min_problems": MIN_CURVE_PROBLEMS}


def selection_row(model: str, domain: str, problems: Sequence[Sequence[Vote]], max_k: int = 10,
                  curve_problems: int = 200, curve: bool = True,
                  min_problems: int = MIN_CURVE_PROBLEMS) -> SelectionRow:
    """Metrics over `problems` (each the votes of its samples; problems with one sample are left
    out), and with `curve` each against k up to `max_k`. The majority@k curve is the costly part
    (subsets of samples voted one by one): it uses the first `curve_problems` problems (in the
    caller's order); the other curves use all of them. The curve stops before the first k that
    fewer than `min_problems` problems reach."""
    many = [p for p in problems if len(p) >= 2]
    row = SelectionRow(model, domain, problems=len(many), samples=sum(map(len, many)))
    if not many:
        return row
    cs = [sum(1 for _, ok in p if ok is True) for p in many]
    row.pass_at_1 = sum(c / len(p) for c, p in zip(cs, many)) / len(many)
    row.majority = _mean(majority(p)[1] for p in many)
    row.verified = sum(1.0 for c in cs if c > 0) / len(many)
    row.gap = None if row.majority is None else row.verified - row.majority
    top = min(max(map(len, many)), max_k) if curve else 0
    for k in range(1, top + 1):
        reach = sum(1 for p in many if len(p) >= k)
        if reach < min_problems:
            row.curve_cut = {"k": k, "problems": reach}
            top = k - 1
            break
    votes_at: dict[int, list[float | None]] = {}
    for i, p in enumerate(many[:curve_problems]):
        ks = list(range(1, min(len(p), top) + 1))
        for k, value in zip(ks, majority_curve(p, ks, seed=i)):
            votes_at.setdefault(k, []).append(value)
    for k in range(1, top + 1):
        having = [(p, c) for p, c in zip(many, cs) if len(p) >= k]
        row.curve.append({
            "k": k, "problems": len(having),
            "pass@1": sum(c / len(p) for p, c in having) / len(having),
            "majority@k": _mean(votes_at.get(k, [])),
            "verified@k": sum(verified_at_k(len(p), c, k) for p, c in having) / len(having),
        })
    return row
