"""Verdicts on real model output from other people's experiments against their authors' labels
(`../shared/data/dev/real/*.jsonl`, each row's `expected`): answers, traces, LLM-Modulo rounds,
Hanoi valid prefixes (where our first error is an illegal move; where it is a false claimed state in
a state-tracking table, that it comes no later than the published checker's stop), and how often a thinking trace behind a right answer gets a flag.

Agreement is not soundness (published labels can be wrong: `--show` prints each disagreement to
read), but a drop in any figure after a change is a regression to explain. Each file is split into
two halves by a hash of the record id, so a rule built while reading one half's disagreements is
read on the other.

    .venv/bin/python bench/real_outputs_score.py [FILE ...] [--show N] [--workers N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dev" / "real"


def half(record_id: str) -> str:
    return "AB"[hashlib.sha256(record_id.encode()).digest()[0] % 2]


@dataclass
class Tally:
    agree: int = 0
    total: int = 0
    disagreements: list[str] = field(default_factory=list)

    def add(self, ok: bool, what: str) -> None:
        self.total += 1
        self.agree += ok
        if not ok:
            self.disagreements.append(what)

    def __str__(self) -> str:
        return f"{self.agree}/{self.total}" + (f" ({self.agree / self.total:.3f})" if self.total else "")


def judge(line: str) -> dict:
    """One labelled row audited; what the figures need of its verdict (runs in a worker)."""
    from audit import audit_record
    from core.record import record_from_json

    row = json.loads(line)
    res = audit_record(record_from_json(row))
    v = res.verdict.to_json()
    return {"id": row.get("id", ""), "expected": row.get("expected") or {}, "has_trace": bool(row.get("trace")),
            "answer_correct": v["answer_correct"], "trace_valid": v["trace_valid"],
            "answer_error": v["answer_error"], "flags": len(v["invalid_steps"]),
            "steps": {i: sv.status for i, sv in res.step_verdicts.items()}}


def _prefix(got: dict) -> int | None:
    """Legal moves before the answer's first illegal one, where the answer has one."""
    err = got["answer_error"] or {}
    return err["step"] - 1 if err.get("kind") == "illegal_move" and err.get("step") else None


def score(results: list[dict]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    for got in results:
        exp, rid = got["expected"], got["id"]
        if "answer_correct" in exp:
            tallies["answers"].add(got["answer_correct"] == exp["answer_correct"],
                                   f"{rid}: ours {got['answer_correct']}, label {exp['answer_correct']}")
        if "trace_valid" in exp:
            tallies["traces"].add(got["trace_valid"] == exp["trace_valid"],
                                  f"{rid}: trace ours {got['trace_valid']}, label {exp['trace_valid']}")
        for i, label in enumerate(exp.get("rounds") or []):
            status = got["steps"].get(i)
            ours = {"valid": True, "invalid": False}.get(status or "")
            tallies["rounds"].add(ours == label, f"{rid} round {i + 1}: ours {status}, label {label}")
        if "valid_prefix_length" in exp and (ours := _prefix(got)) is not None:
            tallies["valid prefixes (illegal-move answers)"].add(
                ours == exp["valid_prefix_length"], f"{rid}: prefix ours {ours}, label {exp['valid_prefix_length']}")
        err = got["answer_error"] or {}
        if "valid_prefix_length" in exp and err.get("kind") == "false_state" and err.get("step"):
            # The published checker trusts the claimed pegs and stops at its first illegal move
            # (row prefix + 1); our first error, a false claimed state, must not come after it.
            tallies["state tables: false state at or before the label's stop"].add(
                err["step"] <= exp["valid_prefix_length"] + 1,
                f"{rid}: false state at row {err['step']}, label prefix {exp['valid_prefix_length']}")
        if got["has_trace"] and got["answer_correct"] is True and exp.get("answer_correct") is True \
                and "rounds" not in exp:  # an LLM-Modulo loop's failed rounds are flagged by design: `rounds`
            tallies["right answers whose trace has no flag"].add(got["flags"] == 0, f"{rid}: {got['flags']} flags")
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print up to N disagreements per figure")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    files = args.files or sorted(REAL.glob("*.jsonl"))
    if not files:
        print(f"no labelled files under {REAL}", file=sys.stderr)
        return 2
    with ProcessPoolExecutor(args.workers) as pool:
        for path in files:
            lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
            results = list(pool.map(judge, lines, chunksize=8))
            print(f"\n{path.name} ({len(results)} rows)")
            by_half = {h: score([r for r in results if half(r["id"]) == h]) for h in "AB"}
            for name, whole in score(results).items():
                print(f"  {name:<42} {str(whole):<20} A {by_half['A'][name]}  B {by_half['B'][name]}")
                for what in whole.disagreements[:args.show]:
                    print(f"      {what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
