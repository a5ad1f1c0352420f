"""Soundness of thinking-trace verdicts against span annotations of false claims, scored as
../shared/docs/thinking-claims.md says ("Scoring"):

* precision: a flagged invalid step is right when its span overlaps an annotated root or
  consequence (a `questionable` annotation counts here);
* recall: over roots only (not questionable): a root is found when some flagged step overlaps it;
* first root: the trace's first root (by span start) is located when the verdict's first flagged
  step overlaps it; a trace with no root is located when nothing is flagged;
* trace verdict: `trace_valid` is false exactly for traces with an annotated error (one without
  may be true, or null when not every claim was judged); `right_answer_invalid_trace` is raised
  exactly when the answer is right and an error is annotated.

The dev annotations are split into two halves by trace (`halves`), so that a rule is built on
one and its figure read on the other (DEVELOPERS.md: a figure from the traces tuned on is no
evidence). The split is fixed by the file, not by any verdict.

    .venv/bin/python bench/claims_score.py [path/to/thinking_claims_dev_v2.jsonl] [--show] [--half A|B]
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dev" / "thinking_claims_dev_v2.jsonl"


@dataclass
class TraceScore:
    id: str
    flagged: int
    flagged_right: int
    roots: int
    roots_found: int
    has_errors: bool
    first_root_located: bool
    trace_valid: bool | None
    trace_verdict_right: bool
    riit_right: bool
    false_flags: list[dict[str, Any]] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Score:
    traces: list[TraceScore]

    def _sum(self, name: str) -> int:
        return sum(getattr(t, name) for t in self.traces)

    @property
    def precision(self) -> float:
        flagged = self._sum("flagged")
        return self._sum("flagged_right") / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        roots = self._sum("roots")
        return self._sum("roots_found") / roots if roots else 1.0

    @property
    def first_root_rate(self) -> float:
        return self._sum("first_root_located") / len(self.traces) if self.traces else 1.0

    @property
    def traces_right(self) -> int:
        return self._sum("trace_verdict_right")

    @property
    def riit_right(self) -> int:
        return self._sum("riit_right")

    def summary(self) -> str:
        n = len(self.traces)
        return (f"flagged steps that are real errors {self.precision:.3f} ({self._sum('flagged_right')}/"
                f"{self._sum('flagged')}), roots found {self.recall:.3f} ({self._sum('roots_found')}/{self._sum('roots')}), "
                f"first root located {self._sum('first_root_located')}/{n}, trace verdicts right {self.traces_right}/{n}, "
                f"right-answer-invalid-trace right {self.riit_right}/{n}")


def _overlaps(a: Iterable[int], b: Iterable[int]) -> bool:
    a0, a1 = a
    b0, b1 = b
    return a0 < b1 and b0 < a1


def score_trace(row: dict[str, Any], verdict: dict[str, Any]) -> TraceScore:
    errors = row["expected"]["claims"]["errors"]
    roots = sorted((e for e in errors if "consequence_of" not in e and not e.get("questionable")),
                   key=lambda e: e["span"][0])
    flagged = sorted(verdict["invalid_steps"], key=lambda f: f["span"][0])
    right = [f for f in flagged if any(_overlaps(f["span"], e["span"]) for e in errors)]
    found = [e for e in roots if any(_overlaps(f["span"], e["span"]) for f in flagged)]
    valid = verdict["trace_valid"]
    verdict_right = (valid is False) if errors else (valid is not False)
    first_root = next((e for e in sorted(errors, key=lambda e: e["span"][0]) if "consequence_of" not in e), None)
    if first_root is None:
        located = not flagged
    else:
        located = bool(flagged) and _overlaps(flagged[0]["span"], first_root["span"])
    riit = "right_answer_invalid_trace" in {g["kind"] for g in verdict.get("gaps", [])}
    riit_expected = bool(errors) and row["expected"].get("answer_correct") is True
    return TraceScore(
        row["id"], len(flagged), len(right), len(roots), len(found), bool(errors), located, valid, verdict_right,
        riit == riit_expected,
        false_flags=[f for f in flagged if f not in right],
        missed=[e for e in roots if e not in found])


def halves(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Two halves by trace, stratified so that each holds about half the traces with errors and
    half the roots: traces with errors, most roots first, each to the half with fewer roots so far
    (ties by a hash of the id); clean traces alternate by that hash."""
    def h(row: dict[str, Any]) -> str:
        return hashlib.sha256(row["id"].encode()).hexdigest()

    def n_roots(row: dict[str, Any]) -> int:
        return sum("consequence_of" not in e for e in row["expected"]["claims"]["errors"])

    out: dict[str, list[dict[str, Any]]] = {"A": [], "B": []}
    with_errors = sorted((r for r in rows if n_roots(r)), key=lambda r: (-n_roots(r), h(r)))
    roots = {"A": 0, "B": 0}
    for k, row in enumerate(with_errors):
        if len(out["A"]) != len(out["B"]):
            half = "A" if len(out["A"]) < len(out["B"]) else "B"
        else:
            half = "A" if roots["A"] <= roots["B"] else "B"
        out[half].append(row)
        roots[half] += n_roots(row)
    for k, row in enumerate(sorted((r for r in rows if not n_roots(r)), key=h)):
        out["AB"[k % 2]].append(row)
    return out


def score_rows(rows: list[dict[str, Any]]) -> Score:
    from audit import audit_record
    from core.record import record_from_json

    return Score([score_trace(row, audit_record(record_from_json(row)).verdict.to_json()) for row in rows])


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    path = Path(args[0]) if args and not args[0] in "AB" else DEFAULT
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    parts = halves(rows)
    only = argv[argv.index("--half") + 1] if "--half" in argv else None
    for name in ("A", "B"):
        if only and name != only:
            continue
        score = score_rows(parts[name])
        print(f"half {name} ({len(parts[name])} traces)")
        for t in score.traces:
            print(f"  {t.id[:12]}  flagged {t.flagged_right}/{t.flagged}  roots {t.roots_found}/{t.roots}  "
                  f"first {'yes' if t.first_root_located else 'no '}  trace_valid {t.trace_valid}  "
                  f"{'ok' if t.trace_verdict_right else 'WRONG'}")
            if "--show" in argv:
                row = next(r for r in rows if r["id"] == t.id)
                for f in t.false_flags:
                    s0, s1 = f["span"]
                    print(f"     FALSE FLAG step {f['step']} {f['rule']}: {row['trace'][s0:s1][:160]!r}\n"
                          f"        {f['message'][:220]}")
                for e in t.missed:
                    print(f"     MISSED ROOT {e['kind']} {e['span']}: {e['quote'][:160]!r}")
        print("  " + score.summary())
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main(sys.argv[1:]))
