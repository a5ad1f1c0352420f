"""Recall of false claims planted into clean R1 thinking traces, and the flags a plant causes
elsewhere (docs/thinking-claims-reviews.md, "Recall where no one annotated").

Each row of a planted set (tests/data/planted_claims_set*.jsonl) is one sentence, written by a
tester with their own STRIPS simulator into a copy of a PlanBench R1 trace whose answer is right
(`inserted` at character `at` of the base trace, from ../shared/data/dev/planbench_r1_thinking.jsonl),
false unless its `truth` says "true". A false plant is found when the audit's verdict has an invalid
step overlapping the planted sentence; a true plant so flagged is a false flag. A copy causes a
flag elsewhere when it has an invalid step, away from the plant, whose message the base trace's
verdict does not have. Each set is split in two halves by base trace (`half`): rules were built on
the first (P in set 5, R in set 6, X in set 8) and the second is the figure to trust.

    .venv/bin/python bench/planted_score.py [--show [HALF]] [--set 5|6|7|8|9|10]

`--show P` prints the sentences of half P only, so a held-out half can stay unread while building.
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
SETS = {k: REPO / "tests" / "data" / f"planted_claims_set{k}.jsonl" for k in ("5", "6", "7", "8", "9", "10")}
BASES = REPO.parent / "shared" / "data" / "dev" / "planbench_r1_thinking.jsonl"


@dataclass
class PlantedScore:
    found: Counter = field(default_factory=Counter)    # (half, kind) -> false plants flagged
    total: Counter = field(default_factory=Counter)    # (half, kind) -> false plants
    true_flagged: Counter = field(default_factory=Counter)  # half -> true plants flagged (false flags)
    true_total: Counter = field(default_factory=Counter)
    caused: Counter = field(default_factory=Counter)   # copies with a flag caused away from the plant
    lines: list[str] = field(default_factory=list)
    line_halves: list[str] = field(default_factory=list)  # the half of each line's plant

    def summary(self, half: str) -> str:
        by_kind = {k[1]: f"{self.found[k]}/{n}" for k, n in sorted(self.total.items()) if k[0] == half}
        n = sum(v for k, v in self.total.items() if k[0] == half)
        hit = sum(v for k, v in self.found.items() if k[0] == half)
        copies = n + self.true_total[half]
        true_part = f", true plants flagged {self.true_flagged[half]}/{self.true_total[half]}" if self.true_total[half] else ""
        return (f"half {half}: false plants found {hit}/{n}{true_part}, copies with a flag caused elsewhere "
                f"{self.caused[half]}/{copies}; by kind {by_kind}")


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
        true = p.get("truth", "false") == "true"
        if true:
            out.true_total[p["half"]] += 1
            out.true_flagged[p["half"]] += bool(here)
            mark = "FALSE FLAG" if here else "ok (true)"
        else:
            key = (p["half"], p["kind"])
            out.total[key] += 1
            out.found[key] += bool(here)
            mark = "FOUND" if here else "miss "
        out.caused[p["half"]] += bool(caused)
        out.line_halves.append(p["half"])
        out.lines.append(f"{mark} {p['half']} {p['id']} {p['kind']:<13} {p['sentence'][:90]}"
                         + "".join(f"\n      here: {s['message'][:140]}" for s in here[:1] if true)
                         + "".join(f"\n      caused: {s['message'][:140]}" for s in caused[:2]))
    return out


def main(argv: list[str]) -> None:
    which = argv[argv.index("--set") + 1] if "--set" in argv else "5"
    plants = load_plants(SETS[which])
    result = score(plants)
    if "--show" in argv:
        # "--show P" prints one half's sentences only: the held-out half's stay unread while building
        half = argv[argv.index("--show") + 1] if argv.index("--show") + 1 < len(argv) else ""
        shown = [ln for ln, h in zip(result.lines, result.line_halves) if len(half) != 1 or h == half]
        print("\n".join(shown))
    for half in sorted({p["half"] for p in plants}):
        print(f"set {which}, " + result.summary(half))


if __name__ == "__main__":
    main(sys.argv[1:])
