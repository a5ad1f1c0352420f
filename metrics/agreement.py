"""Our first invalid step beside a reference label's first mistake (BIG-Bench Mistake's
`mistake_index`, ProcessBench's `label`), counted per source and domain.

A label says where the first mistake is, or that there is none. Against our verdict's first
invalid step, a trace is `exact` (same step, or both none), `earlier` / `later` (we flag before
or after the label's step), `we_flag_none` (the label has a mistake, we flag nothing) or
`label_says_none` (we flag a step where the label has none). ProcessBench's F1 is the harmonic
mean of the accuracy on the traces with a mistake and on those without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("exact", "earlier", "later", "we_flag_none", "label_says_none")
_NO_LABEL = object()


def label_first_mistake(labels: dict[str, Any] | None) -> Any:
    """The labelled first mistake (an index, None for "no mistake"), or _NO_LABEL when the labels say nothing."""
    if not labels:
        return _NO_LABEL
    if "mistake_index" in labels:
        v = labels["mistake_index"]
        return v if isinstance(v, int) and v >= 0 else None
    if "label" in labels and isinstance(labels["label"], int):
        return labels["label"] if labels["label"] >= 0 else None
    return _NO_LABEL


def has_label(labels: dict[str, Any] | None) -> bool:
    return label_first_mistake(labels) is not _NO_LABEL


def harmonic_mean(a: float | None, b: float | None) -> float | None:
    """F1 of two rates (precision and recall, or ProcessBench's accuracies with and without a
    mistake); None when either is missing or both are 0."""
    return 2 * a * b / (a + b) if a is not None and b is not None and a + b else None


def compare(label: int | None, ours: int | None) -> str:
    if label == ours:
        return "exact"
    if label is None:
        return "label_says_none"
    if ours is None:
        return "we_flag_none"
    return "earlier" if ours < label else "later"


@dataclass
class Agreement:
    """Counts for one (source, domain)."""

    source: str
    domain: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    with_mistake: int = 0
    right_with: int = 0
    without: int = 0
    right_without: int = 0

    def add(self, label: int | None, ours: int | None) -> None:
        kind = compare(label, ours)
        self.counts[kind] += 1
        if label is None:
            self.without += 1
            self.right_without += kind == "exact"
        else:
            self.with_mistake += 1
            self.right_with += kind == "exact"

    @property
    def n(self) -> int:
        return self.with_mistake + self.without

    def figures(self) -> dict[str, Any]:
        acc_with = self.right_with / self.with_mistake if self.with_mistake else None
        acc_without = self.right_without / self.without if self.without else None
        f1 = harmonic_mean(acc_with, acc_without)
        r = (lambda x: None if x is None else round(x, 3))
        return {"source": self.source, "domain": self.domain, "traces": self.n, **self.counts,
                "accuracy": r(self.counts["exact"] / self.n) if self.n else None,
                "acc_mistake": r(acc_with), "acc_no_mistake": r(acc_without), "processbench_f1": r(f1)}


def agreement_table(rows: list[tuple[str, str, dict[str, Any] | None, int | None]]) -> list[dict[str, Any]]:
    """(source, domain, reference labels, our first invalid step) rows -> figures per source and domain."""
    groups: dict[tuple[str, str], Agreement] = {}
    for source, domain, labels, ours in rows:
        label = label_first_mistake(labels)
        if label is _NO_LABEL:
            continue
        key = (source, domain)
        groups.setdefault(key, Agreement(source, domain)).add(label, ours)
    return [groups[k].figures() for k in sorted(groups)]
