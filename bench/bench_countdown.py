"""Countdown search-log replay throughput, side by side with the reference search that writes
the same logs; plus puzzle move-list replay throughput.

Inputs are generated deterministically (seeded): Countdown instances of 4 numbers, logs written
by the Stream-of-Search DFS (threshold = target, as the SoS dataset) and BFS (beam 1-5) in
validators/countdown/generate.py, which reproduces the published DFS logs byte for byte.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import best_of  # noqa: E402
from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402
from trace_parsers.sos import parse as sos_parse  # noqa: E402
from validators.countdown.generate import HEURISTICS, bfs_log, dfs_log  # noqa: E402
from validators.countdown.replay import replay as countdown_replay  # noqa: E402
from validators.puzzles import Hanoi, extract_move_lists, simulate  # noqa: E402
from validators.puzzles.hanoi import optimal_moves  # noqa: E402


def _instances(n: int, seed: int = 7) -> list[tuple[list[int], int, str, str, int]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        nums = [rng.randint(1, 99) for _ in range(4)]
        target = rng.randint(10, 100)
        heuristic = rng.choice(sorted(HEURISTICS))
        search = "dfs" if i % 2 == 0 else f"bfs_{rng.randint(1, 5)}"
        out.append((nums, target, heuristic, search, i))
    return out


def _generate(inst: list[tuple[list[int], int, str, str, int]]) -> list[str]:
    logs = []
    for nums, target, heuristic, search, seed in inst:
        h = HEURISTICS[heuristic]
        if search == "dfs":
            logs.append(dfs_log(target, nums, h, threshold=target))
        else:
            logs.append(bfs_log(target, nums, int(search.split("_")[1]), h, seed=seed))
    return logs


def run(quick: bool) -> list[dict]:
    n = 60 if quick else 400
    repeats = 2 if quick else 3
    inst = _instances(n)
    logs = _generate(inst)
    records = [record_from_json({"domain": "countdown", "format": "sos", "problem": {"numbers": i[0], "target": i[1]},
                                 "trace": log}) for i, log in zip(inst, logs)]
    lines = sum(log.count("\n") + 1 for log in logs)
    mb = sum(len(log.encode()) for log in logs) / 2**20

    def replay_all() -> None:
        for rec in records:
            out = countdown_replay(rec, sos_parse(rec))
            assert out.trace_valid is True

    def audit_all() -> None:
        for rec in records:
            audit_record(rec)

    t_gen = best_of(lambda: _generate(inst), repeats)
    t_replay = best_of(replay_all, repeats)
    t_audit = best_of(audit_all, repeats)

    disks = 12 if quick else 16
    moves = optimal_moves(disks)
    text = "Thinking...\nmoves = " + json.dumps(moves) + "\nDone."
    t_sim = best_of(lambda: simulate(Hanoi(disks), moves), repeats)
    t_extract = best_of(lambda: extract_move_lists(text, "hanoi"), repeats)

    return [
        {"name": f"sos replay (parse+replay), {n} logs, {lines:,} lines", "value": lines / t_replay, "unit": "lines/s",
         "compared_to": "reference SoS DFS/BFS writing the same logs", "ratio": t_replay / t_gen},
        {"name": "sos replay (parse+replay)", "value": mb / t_replay, "unit": "MB/s",
         "compared_to": "", "ratio": None},
        {"name": "sos full audit_record (incl. verdict assembly)", "value": lines / t_audit, "unit": "lines/s",
         "compared_to": "reference SoS DFS/BFS writing the same logs", "ratio": t_audit / t_gen},
        {"name": "reference SoS search writing the logs", "value": lines / t_gen, "unit": "lines/s",
         "compared_to": "", "ratio": None},
        {"name": f"hanoi simulate, {disks} disks ({len(moves):,} moves)", "value": len(moves) / t_sim,
         "unit": "moves/s", "compared_to": "", "ratio": None},
        {"name": f"move-list extraction ({len(text) / 2**20:.2f} MB list)", "value": len(text) / 2**20 / t_extract,
         "unit": "MB/s", "compared_to": "", "ratio": None},
    ]


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    rows = run(quick)
    print(f"{'benchmark':62} {'value':>14} {'unit':9} ratio  (vs)")
    for r in rows:
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else "-"
        print(f"{r['name']:62} {r['value']:14,.1f} {r['unit']:9} {ratio:5}  {r['compared_to']}")
