"""Roots found in R1 thinking traces that an outside annotator marked by span, with their own
STRIPS simulator and the semantics (../shared/docs/thinking-claims.md), without the reader's code.

tests/data/roots_outside_r1.jsonl holds the root errors (the first appearance of each
misconception) of four Mystery Blocksworld traces of ../shared/data/dev/planbench_r1_thinking.jsonl
that the dev annotations do not cover, one row a root: its span in the trace, kind, why it is
false, whether it is the trace's first root, and whether the annotator was unsure
(`questionable`: left out of recall, as the semantics scores). A root is found when an invalid
step of the verdict overlaps it; the first root is located when the verdict's first invalid step
overlaps it. Measured blind: 0 of 7 roots, 0 of 4 first roots; the readings built on them since
make the figures below no held-out evidence.

tests/data/roots_outside_r1_set3.jsonl (`--set 3`) holds every false claim of four right-answer
traces (roots and their consequences, `root`), by a second annotator: roots and all false claims
found are reported apart, and how many flags fall on an annotated claim.

    .venv/bin/python bench/roots_score.py [--show] [--set 1|3]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402

ROOTS = REPO / "tests" / "data" / "roots_outside_r1.jsonl"
SETS = {"1": ROOTS, "3": REPO / "tests" / "data" / "roots_outside_r1_set3.jsonl"}
TRACES = REPO.parent / "shared" / "data" / "dev" / "planbench_r1_thinking.jsonl"


def score(roots_path: Path = ROOTS, traces_path: Path = TRACES) -> dict[str, Any]:
    with open(roots_path, encoding="utf-8") as fh:
        roots = [json.loads(line) for line in fh if line.strip()]
    wanted = {r["trace_id"] for r in roots}
    with open(traces_path, encoding="utf-8") as fh:
        rows = {row["id"]: row for row in map(json.loads, filter(str.strip, fh)) if row["id"] in wanted}
    found = total = located = claims_found = claims = flagged = flags_on_claims = 0
    lines = []
    for tid in sorted(wanted):
        flags = audit_record(record_from_json(rows[tid])).verdict.to_json()["invalid_steps"] or []
        first = min(flags, key=lambda s: s["span"][0]) if flags else None
        mine = sorted((r for r in roots if r["trace_id"] == tid), key=lambda r: r["start"])
        flagged += len(flags)
        flags_on_claims += sum(any(s["span"][0] < r["end"] and r["start"] < s["span"][1] for r in mine) for s in flags)
        for r in mine:
            hit = any(s["span"][0] < r["end"] and r["start"] < s["span"][1] for s in flags)
            if not r["questionable"]:
                claims += 1
                claims_found += hit
                if r.get("root", True):  # set 1 marks roots only; set 3 marks consequences too
                    total += 1
                    found += hit
            if r["first"]:
                located += first is not None and first["span"][0] < r["end"] and r["start"] < first["span"][1]
            lines.append(f"{'FOUND' if hit else 'miss '} {tid[:6]} {'first ' if r['first'] else '      '}"
                         f"{'' if r.get('root', True) else '(consequence) '}"
                         f"{'(questionable) ' if r['questionable'] else ''}{r['kind']}: {r['text'][:90]}")
    firsts = sum(1 for r in roots if r["first"])
    return {"roots_found": found, "roots": total, "first_located": located, "traces": len(wanted), "lines": lines,
            "firsts": firsts, "claims_found": claims_found, "claims": claims, "flags": flagged,
            "flags_on_claims": flags_on_claims}


def main(argv: list[str]) -> None:
    which = argv[argv.index("--set") + 1] if "--set" in argv else "1"
    result = score(SETS[which])
    if "--show" in argv:
        print("\n".join(result["lines"]))
    print(f"outside root annotation set {which}: roots found {result['roots_found']}/{result['roots']}, "
          f"first root located {result['first_located']}/{result['firsts']} (of {result['traces']} traces); "
          f"false claims found {result['claims_found']}/{result['claims']}; flags on an annotated claim "
          f"{result['flags_on_claims']}/{result['flags']}")


if __name__ == "__main__":
    main(sys.argv[1:])
