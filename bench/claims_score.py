"""Soundness of thinking-trace verdicts against span annotations of false claims.

Scoring follows ../shared/docs/thinking-claims.md: a flagged invalid step is right when its span
overlaps an annotated error; an annotated error is found when some flagged step overlaps it. A
trace verdict is right when `trace_valid` is false exactly for traces with annotated errors (a
trace without any may be true, or null when not every claim was judged).

    .venv/bin/python bench/claims_score.py [path/to/thinking_claims_dev.jsonl] [--show]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dev" / "thinking_claims_dev.jsonl"


@dataclass
class TraceScore:
    id: str
    flagged: int
    flagged_right: int
    errors: int
    errors_found: int
    trace_valid: bool | None
    trace_verdict_right: bool
    false_flags: list[dict[str, Any]] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Score:
    traces: list[TraceScore]

    @property
    def precision(self) -> float:
        flagged = sum(t.flagged for t in self.traces)
        return sum(t.flagged_right for t in self.traces) / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        errors = sum(t.errors for t in self.traces)
        return sum(t.errors_found for t in self.traces) / errors if errors else 1.0

    @property
    def traces_right(self) -> int:
        return sum(t.trace_verdict_right for t in self.traces)

    def summary(self) -> str:
        flagged = sum(t.flagged for t in self.traces)
        errors = sum(t.errors for t in self.traces)
        return (f"step precision {self.precision:.3f} ({sum(t.flagged_right for t in self.traces)}/{flagged} flagged "
                f"steps overlap a false claim), recall {self.recall:.3f} "
                f"({sum(t.errors_found for t in self.traces)}/{errors} false claims found), "
                f"trace verdicts right {self.traces_right}/{len(self.traces)}")


def _overlaps(a: Iterable[int], b: Iterable[int]) -> bool:
    a0, a1 = a
    b0, b1 = b
    return a0 < b1 and b0 < a1


def score_trace(row: dict[str, Any], verdict: dict[str, Any]) -> TraceScore:
    errors = row["expected"]["claims"]["errors"]
    flagged = verdict["invalid_steps"]
    right = [f for f in flagged if any(_overlaps(f["span"], e["span"]) for e in errors)]
    found = [e for e in errors if any(_overlaps(f["span"], e["span"]) for f in flagged)]
    valid = verdict["trace_valid"]
    verdict_right = (valid is False) if errors else (valid is not False)
    return TraceScore(
        row["id"], len(flagged), len(right), len(errors), len(found), valid, verdict_right,
        false_flags=[f for f in flagged if f not in right],
        missed=[e for e in errors if e not in found])


def score_rows(rows: list[dict[str, Any]]) -> Score:
    from audit import audit_record
    from core.record import record_from_json

    return Score([score_trace(row, audit_record(record_from_json(row)).verdict.to_json()) for row in rows])


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    score = score_rows(rows)
    for t in score.traces:
        print(f"{t.id}  flagged {t.flagged_right}/{t.flagged}  found {t.errors_found}/{t.errors}  "
              f"trace_valid {t.trace_valid}  {'ok' if t.trace_verdict_right else 'WRONG'}")
        if "--show" in argv:
            row = next(r for r in rows if r["id"] == t.id)
            for f in t.false_flags:
                s0, s1 = f["span"]
                print(f"   FALSE FLAG step {f['step']} {f['rule']}: {row['trace'][s0:s1][:160]!r}\n      {f['message'][:200]}")
            for e in t.missed:
                print(f"   MISSED {e['kind']} {e['span']}: {e['quote'][:160]!r}")
    print(score.summary())
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main(sys.argv[1:]))
