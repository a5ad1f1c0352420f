"""Recall of false claims planted into clean R1 thinking traces, and the flags a plant causes
elsewhere (docs/thinking-claims-reviews.md, "Recall where no one annotated").

Each row of tests/data/planted_claims_set5.jsonl is one false sentence, written by a tester with
their own STRIPS simulator into a copy of a PlanBench R1 trace whose answer is right (`inserted`
at character `at` of the base trace, from ../shared/data/dev/planbench_r1_thinking.jsonl). A plant
is found when the audit's verdict has an invalid step overlapping the planted sentence; a copy
causes a flag elsewhere when it has an invalid step, away from the plant, whose message the base
trace's verdict does not have. The rows are split in two halves by base trace: rules were built on
half P and half Q is the figure to trust.

    .venv/bin/python bench/planted_score.py [--show]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402

PLANTS = REPO / "tests" / "data" / "planted_claims_set5.jsonl"
BASES = REPO.parent / "shared" / "data" / "dev" / "planbench_r1_thinking.jsonl"


@dataclass
class PlantedScore:
    found: Counter = field(default_factory=Counter)
    total: Counter = field(default_factory=Counter)
    caused: Counter = field(default_factory=Counter)   # copies with a flag caused away from the plant
    lines: list[str] = field(default_factory=list)

    def summary(self, half: str) -> str:
        by_kind = {k[1]: f"{self.found[k]}/{n}" for k, n in sorted(self.total.items()) if k[0] == half}
        n = sum(v for k, v in self.total.items() if k[0] == half)
        hit = sum(v for k, v in self.found.items() if k[0] == half)
        return f"half {half}: found {hit}/{n}, copies with a flag caused elsewhere {self.caused[half]}/{n}; by kind {by_kind}"


def _invalid(row: dict[str, Any]) -> list[dict[str, Any]]:
    verdict = audit_record(record_from_json(row)).verdict.to_json()
    return list(verdict.get("invalid_steps") or [])


def load_plants(path: Path = PLANTS) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def score(plants: list[dict[str, Any]], bases_path: Path = BASES) -> PlantedScore:
    wanted = {p["base_id"] for p in plants}
    bases: dict[str, dict[str, Any]] = {}
    with open(bases_path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip() and (row := json.loads(line))["id"] in wanted:
                bases[row["id"]] = row
    base_flags = {bid: {s["message"] for s in _invalid(row)} for bid, row in bases.items()}
    out = PlantedScore()
    for p in plants:
        base = bases[p["base_id"]]
        text = base["trace"][:p["at"]] + p["inserted"] + base["trace"][p["at"]:]
        start = p["at"] + p["inserted"].index(p["sentence"])
        end = start + len(p["sentence"])
        flags = _invalid({**base, "id": f"{base['id']}-p5-{p['id']}", "trace": text})
        here = [s for s in flags if s["span"][0] < end and start < s["span"][1]]
        caused = [s for s in flags if s not in here and s["message"] not in base_flags[p["base_id"]]]
        key = (p["half"], p["kind"])
        out.total[key] += 1
        out.found[key] += bool(here)
        out.caused[p["half"]] += bool(caused)
        out.lines.append(f"{'FOUND' if here else 'miss '} {p['half']} {p['id']} {p['kind']:<13} {p['sentence'][:90]}"
                         + "".join(f"\n      caused: {s['message'][:140]}" for s in caused[:2]))
    return out


def main(argv: list[str]) -> None:
    result = score(load_plants())
    if "--show" in argv:
        print("\n".join(result.lines))
    for half in ("P", "Q"):
        print(result.summary(half))


if __name__ == "__main__":
    main(sys.argv[1:])
