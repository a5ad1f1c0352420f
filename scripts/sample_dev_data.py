"""Write tests/data/dev/: a small sample of the shared development data for fresh clones.

    .venv/bin/python -m scripts.sample_dev_data

From each dev file whose license allows copying (PlanBench: MIT; Beyond-Semantics and
Stream-of-Search generators: MIT, Apache-2.0; not SearchFormer's CC BY-NC traces), the first
`PER_GROUP` rows of every (domain, kind, expected answer) group in file order, so each group's
cases and verdicts stay represented (the two thinking files whole). The tests read ../shared/data/dev when it exists, else this sample.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from scripts.verdict_snapshot import DEV, REPO

OUT = REPO / "tests" / "data" / "dev"
# The thinking files are copied whole: their tests check hand annotations of named traces.
WHOLE = 10**9
PER_GROUP = {"thinking_claims_dev_v2.jsonl": WHOLE, "planbench_r1_thinking.jsonl": WHOLE, "countdown_sos.jsonl": 2}
DEFAULT_PER_GROUP = 5
NOT_COPIED = {"searchformer_reference.jsonl"}  # CC BY-NC 4.0


def _group(row: dict) -> tuple:
    meta = row.get("meta") or {}
    return row.get("domain"), meta.get("kind") or meta.get("search_type"), (row.get("expected") or {}).get(
        "answer_correct")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for path in sorted(DEV.glob("*.jsonl")):
        if path.name in NOT_COPIED:
            continue
        seen: Counter = Counter()
        keep = []
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            g = _group(row)
            if seen[g] < PER_GROUP.get(path.name, DEFAULT_PER_GROUP):
                seen[g] += 1
                keep.append(line)
        (OUT / path.name).write_text("\n".join(keep) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(keep)} rows")


if __name__ == "__main__":
    main()
