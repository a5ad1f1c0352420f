"""Replay speed of maze A* traces against the reference A* that generates the same traces.

For seeded 30x30 SearchFormer-style mazes, in both dialects, one run measures (best of several
interleaved repetitions, so machine load hits both sides alike):
* generation: reference A* search + writing the trace text (validators/astar/reference.py);
* replay: the maze validator on the parsed trace (validators/astar/maze.py::replay), the budget of
  design.md ("validating an A* trace costs no more than running the reference A* search");
* parse: the format's parser (text -> steps -> StepGraph);
* audit: audit.audit_record end to end (parse + replay + verdict assembly);
* lark: the LALR grammar trace_parsers/astar_trace.lark on the same text, against the regex reader.

--quick: 8 mazes and best of 3 repetitions (40 and 7 in full).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import best_of  # noqa: E402
from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402
from trace_parsers import get_format  # noqa: E402
from validators.astar.reference import DIALECTS, random_maze, record_for, run_astar  # noqa: E402
from validators.astar.maze import replay as maze_replay  # noqa: E402


def run(quick: bool) -> list[dict]:
    n_mazes, reps = (8, 3) if quick else (40, 7)
    problems = [random_maze(random.Random(seed), 30, 30) for seed in range(n_mazes)]
    rows: list[dict] = []
    for dialect in DIALECTS:
        fmt = get_format(dialect)
        records = [record_from_json(record_for(p, run_astar(p, dialect))) for p in problems]
        parsed = [fmt.parse(r) for r in records]
        n_steps = sum(len(p.graph) for p in parsed)
        assert all(maze_replay(r, p).trace_valid for r, p in zip(records, parsed))

        def gen() -> None:
            for p in problems:
                record_for(p, run_astar(p, dialect))

        def rep() -> None:
            for r, p in zip(records, parsed):
                maze_replay(r, p)

        def parse() -> None:
            for r in records:
                fmt.parse(r)

        def audit() -> None:
            for r in records:
                audit_record(r)

        times = {"gen": [], "replay": [], "parse": [], "audit": []}
        for _ in range(reps):  # interleaved, so load on the machine hits every side alike
            for key, fn in (("gen", gen), ("replay", rep), ("parse", parse), ("audit", audit)):
                times[key].append(best_of(fn, 1))
        t = {k: min(v) for k, v in times.items()}
        what = f"reference A* generating the same {n_mazes} traces ({n_steps} steps)"
        rows += [
            {"name": f"{dialect}: generation", "value": round(n_steps / t["gen"]), "unit": "steps/s",
             "compared_to": "(baseline)", "ratio": None},
            {"name": f"{dialect}: replay (validator)", "value": round(n_steps / t["replay"]), "unit": "steps/s",
             "compared_to": what, "ratio": round(t["replay"] / t["gen"], 3)},
            {"name": f"{dialect}: parse", "value": round(n_steps / t["parse"]), "unit": "steps/s",
             "compared_to": what, "ratio": round(t["parse"] / t["gen"], 3)},
            {"name": f"{dialect}: audit (parse+replay+verdict)", "value": round(n_steps / t["audit"]),
             "unit": "steps/s", "compared_to": what, "ratio": round(t["audit"] / t["gen"], 3)},
        ]
        lark_row = _lark_row(records, n_steps, reps, dialect)
        if lark_row:
            rows.append(lark_row)
    rows += _invalid_rows(reps)
    return rows


def _invalid_rows(reps: int) -> list[dict]:
    """Replay of traces that are invalid almost everywhere (the dev set's swapped traces), which
    take the full-check path at every step."""
    path = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dev" / "maze_beyond_semantics.jsonl"
    if not path.exists():
        return []
    import json

    fmt = get_format("beyond_semantics")
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    records = [record_from_json(r) for r in rows if r["meta"].get("kind", "").startswith("swapped")]
    parsed = [fmt.parse(r) for r in records]
    n_steps = sum(len(p.graph) for p in parsed)
    t = best_of(lambda: [maze_replay(r, p) for r, p in zip(records, parsed)], reps)
    return [{"name": "beyond_semantics: replay of invalid (swapped) dev traces", "value": round(n_steps / t),
             "unit": "steps/s", "compared_to": f"{len(records)} traces, {n_steps} steps, nearly every step invalid",
             "ratio": None}]


def _lark_row(records, n_steps: int, reps: int, dialect: str) -> dict | None:
    try:
        from trace_parsers._astar_lark import lark_steps
    except ImportError:
        return None
    from trace_parsers.astar_common import scan_tokens

    t_lark = best_of(lambda: [lark_steps(r.trace) for r in records], reps)
    t_regex = best_of(lambda: [scan_tokens(r.trace) for r in records], reps)
    return {"name": f"{dialect}: lark LALR tokens->steps", "value": round(n_steps / t_lark), "unit": "steps/s",
            "compared_to": "regex reader (astar_common.scan_tokens) on the same text",
            "ratio": round(t_lark / t_regex, 2)}


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    rows = run(quick)
    width = max(len(r["name"]) for r in rows)
    print(f"{'name':<{width}}  {'value':>12}  unit     ratio   compared to")
    for r in rows:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.3f}"
        print(f"{r['name']:<{width}}  {r['value']:>12,}  {r['unit']:<7}  {ratio:>6}  {r['compared_to']}")
