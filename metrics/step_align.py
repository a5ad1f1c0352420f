"""Aligning the steps of two traces (two samples of one problem, one prompt under two models), so
a reviewer reads them side by side and sees where they part. Steps pair up when their text is
the same up to case and spacing (difflib's longest matching blocks); the rest pair in order
within each differing stretch, one side left empty where the other has more."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class AlignedRow:
    """One row of the side-by-side view: a step of each trace (None: no step there)."""

    a: int | None
    b: int | None
    same: bool  # both steps present and equal up to case and spacing


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def align_steps(a: list[str], b: list[str]) -> list[AlignedRow]:
    """Rows covering every step of both traces, each side in order."""
    na, nb = [_norm(t) for t in a], [_norm(t) for t in b]
    rows: list[AlignedRow] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, na, nb, autojunk=False).get_opcodes():
        if op == "equal":
            rows += [AlignedRow(i, j, True) for i, j in zip(range(i1, i2), range(j1, j2))]
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i = i1 + k if i1 + k < i2 else None
            j = j1 + k if j1 + k < j2 else None
            rows.append(AlignedRow(i, j, False))
    return rows


def parting_row(rows: list[AlignedRow]) -> int | None:
    """Index of the first row where the traces differ (None: the same steps throughout)."""
    return next((k for k, row in enumerate(rows) if not row.same), None)
