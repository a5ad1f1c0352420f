"""A scorer's per-step scores (a process reward model, an LLM judge's step verdicts) beside our
step verdicts, counted per source and domain at a threshold.

A score below the threshold is the scorer saying "this step is wrong". Two questions, as for
reference labels (metrics.agreement) but with the scorer in the label's place: where do the first
flags fall (ours against the scorer's first low score: exact, earlier, later, we_flag_none,
scorer_flags_none), and step by step, how well do the scorer's low scores pick out our invalid
steps (precision: of the steps it flags, how many we find invalid; recall: of our invalid
steps, how many it flags). Steps past either end (a score list of another length than the
trace) are not compared; such traces are counted in `length_mismatch`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from metrics.agreement import compare, harmonic_mean
from metrics.outside_labels import first_flag

DEFAULT_THRESHOLD = 0.5
LOCATION_KINDS = ("exact", "earlier", "later", "we_flag_none", "scorer_flags_none")
_RENAME = {"label_says_none": "scorer_flags_none"}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


@dataclass
class ScoreAgreement:
    """Counts for one (source, domain)."""

    source: str
    domain: str
    threshold: float = DEFAULT_THRESHOLD
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LOCATION_KINDS, 0))
    traces: int = 0
    steps: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    length_mismatch: int = 0

    def add(self, scores: Sequence[float], ours_first: int | None, ours_invalid: Iterable[int], n_steps: int) -> None:
        """One trace: its scores, our first invalid step, our invalid steps and its step count."""
        n = min(len(scores), n_steps) if n_steps else len(scores)
        theirs = first_flag(scores[:n], self.threshold)
        ours = ours_first if ours_first is None or ours_first < n else None
        self.counts[_RENAME.get(k := compare(theirs, ours), k)] += 1
        self.traces += 1
        self.length_mismatch += bool(n_steps) and len(scores) != n_steps
        bad = {i for i in ours_invalid if 0 <= i < n}
        flagged = {i for i in range(n) if scores[i] < self.threshold}
        self.steps += n
        self.tp += len(bad & flagged)
        self.fp += len(flagged - bad)
        self.fn += len(bad - flagged)

    def figures(self) -> dict[str, Any]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else None
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else None
        f1 = harmonic_mean(precision, recall)
        return {"source": self.source, "domain": self.domain, "threshold": self.threshold, "traces": self.traces,
                **self.counts, "location": _r(self.counts["exact"] / self.traces) if self.traces else None,
                "steps": self.steps, "flagged": self.tp + self.fp, "our_invalid": self.tp + self.fn,
                "precision": _r(precision), "recall": _r(recall), "f1": _r(f1),
                "length_mismatch": self.length_mismatch}


SCORE_COLUMNS = ("source", "domain", "threshold", "traces", *LOCATION_KINDS, "location", "steps", "flagged",
                 "our_invalid", "precision", "recall", "f1", "length_mismatch")


def score_table(rows: Iterable[tuple[str, str, Sequence[float], int | None, Iterable[int], int]],
                threshold: float = DEFAULT_THRESHOLD) -> list[dict[str, Any]]:
    """(source, domain, scores, our first invalid step, our invalid steps, step count) rows ->
    figures per source and domain."""
    groups: dict[tuple[str, str], ScoreAgreement] = {}
    for source, domain, scores, first, invalid, n_steps in rows:
        groups.setdefault((source, domain), ScoreAgreement(source, domain, threshold)).add(
            scores, first, invalid, n_steps)
    return [groups[k].figures() for k in sorted(groups)]
