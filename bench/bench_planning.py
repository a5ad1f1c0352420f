"""Plans validated per second: in-process batch vs one fresh process per plan.

PlanBench validates each plan by spawning VAL (`utils/task_utils.py::validate_plan`), so the
comparison runs the same validator both ways: a 1,000-plan batch through
`validators.planning.validate_plan_text` in one process, and the same plans one per freshly
spawned `python -c` that imports the validator and checks one plan. Plans are random walks on
the PlanBench dev problems (seeded), half corrupted, written in PDDL or PlanBench wording.
Optimality search is off in both runs (VAL does not compute it); its cost is reported apart.
Plan reading alone is measured on the real answers of the PlanBench dev files (free-form text
from many models, extract.py's precedence of plan sources), parse caches warm.
"""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from validators.planning import extract_plan, load_task, planning_task, validate_plan_text  # noqa: E402
from validators.planning import pddl_parse  # noqa: E402
from validators.planning.search import ground_all, reference_plan  # noqa: E402
from validators.planning.strips import apply, unmet_preconditions  # noqa: E402
from validators.planning.vocab import builtin_vocabulary  # noqa: E402

DEV = REPO.parent / "shared" / "data" / "dev"
FILES = ("planbench_verification.jsonl", "planbench_plans.jsonl", "planbench_r1_thinking.jsonl")
ANSWER_FILES = ("planbench_plans.jsonl", "planbench_plans_more.jsonl", "planbench_r1_thinking.jsonl")
CHILD = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); "
    "from validators.planning import validate_plan_text; "
    "job = json.load(open(sys.argv[2])); "
    "c = validate_plan_text(job['text'], job['problem'], job['domain'], optimality=False); "
    "print(json.dumps(c.answer_correct))"
)


def _problems() -> list[tuple[str, dict]]:
    seen: dict[str, tuple[str, dict]] = {}
    for name in FILES:
        path = DEV / name
        if not path.exists():
            continue
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            key = row["problem"]["problem_pddl"]
            seen.setdefault(key, (row["domain"], row["problem"]))
    return list(seen.values())


_BATCHES: dict[int, list[dict]] = {}


def make_batch(n: int, seed: int = 7) -> list[dict]:
    """n plan texts with their problems: random applicable walks, half of them corrupted.

    Plan i draws from the generator after plans 0..i-1 whatever n is, so the first n plans of a
    longer batch of the same seed are this batch: one made earlier in the process (bench_planning's
    1,000 before bench_rewards in one run.py) is reused, copied, not made again (its A* searches
    are most of the time)."""
    made = _BATCHES.get(seed)
    if made is None or len(made) < n:
        # Input, not a measurement: the cyclic GC paused while the A* searches allocate (about a
        # quarter of their time), and run once after, so what is timed next starts from a clean heap.
        enabled = gc.isenabled()
        gc.disable()
        try:
            made = _BATCHES[seed] = _make_batch(n, seed)
        finally:
            gc.collect()
            if enabled:
                gc.enable()
    return [dict(job) for job in made[:n]]


def _make_batch(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    problems = _problems()
    batch = []
    for i in range(n):
        domain, problem = problems[rng.randrange(len(problems))]
        task = load_task(problem["domain_pddl"], problem["problem_pddl"])
        vocab = builtin_vocabulary(domain)
        state, walk = task.problem.init, []
        actions = ground_all(task)
        ref = reference_plan(task) if i % 4 == 0 else None
        if ref is not None and ref.plan:
            walk = [(a.name, a.args) for a in ref.plan]
        for _ in range(0 if walk else rng.randint(2, 14)):
            options = [a for a in actions if not unmet_preconditions(a, state)]
            if not options:
                break
            act = rng.choice(options)
            walk.append((act.name, act.args))
            state = apply(act, state)
        if i % 2 and len(walk) > 1:
            j, k = rng.sample(range(len(walk)), 2)
            walk[j], walk[k] = walk[k], walk[j]
        if rng.random() < 0.5:
            lines = [f"({name} {' '.join(args)})" for name, args in walk]
        else:
            lines = [f"{n}. {vocab.action_nl(name, args).capitalize()}." for n, (name, args) in enumerate(walk, 1)]
        batch.append({"domain": domain, "problem": problem, "text": "\n".join(lines)})
    return batch


def _real_answers() -> list[tuple[str, object]]:
    """(answer, lexicon) for every answer of the dev PlanBench files that are present."""
    jobs = []
    for name in ANSWER_FILES:
        path = DEV / name
        if not path.exists():
            continue
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            jobs.append((row.get("answer") or "", planning_task(row["problem"], row["domain"])[2]))
    return jobs


def _reading_rate(jobs: list[tuple[str, object]], repeats: int) -> float:
    """Answers read per second (best of `repeats`): which text is the plan, and its steps."""
    best = float("inf")
    lexicons = {id(lex): lex for _, lex in jobs}.values()
    for _ in range(repeats):
        for lex in lexicons:  # each run reads afresh: no line remembered from the run before
            lex.line_memo.clear()  # type: ignore[attr-defined]
            lex.item_memo.clear()  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        for text, lexicon in jobs:
            extract_plan(text, lexicon)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - t0)
    return len(jobs) / best


def _clear_caches() -> None:
    for cache in (pddl_parse._TASKS, pddl_parse._PROBLEMS, pddl_parse._DOMAINS):
        cache.items.clear()
    pddl_parse._RECENT_TASKS.clear()


def _in_process(batch: list[dict], optimality: bool) -> tuple[float, list]:
    t0 = time.perf_counter()
    results = [validate_plan_text(job["text"], job["problem"], job["domain"], optimality=optimality).answer_correct
               for job in batch]
    return time.perf_counter() - t0, results


def _per_process(batch: list[dict]) -> tuple[float, list]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, job in enumerate(batch):
            path = Path(tmp) / f"job{i}.json"
            path.write_text(json.dumps(job), encoding="utf-8")
            paths.append(path)
        t0 = time.perf_counter()
        for path in paths:
            out = subprocess.run([sys.executable, "-c", CHILD, str(REPO), str(path)],
                                 capture_output=True, text=True, check=True)
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
        return time.perf_counter() - t0, results


def run(quick: bool) -> list[dict]:
    batch = make_batch(1000)
    sample = batch[:10] if quick else batch  # each costs a Python start-up (~0.3-0.5 s); 10 give the mean
    _in_process(batch[:20], optimality=False)  # imports and regex warm-up, as in a long-lived app
    _clear_caches()
    t_in, res_in = _in_process(batch, optimality=False)
    t_proc, res_proc = _per_process(sample)
    assert res_proc == res_in[: len(sample)], "the two ways of running disagree"
    per_plan_proc = t_proc / len(sample)
    rate_in = len(batch) / t_in
    rate_proc = 1 / per_plan_proc
    _clear_caches()
    t_opt, _ = _in_process(batch, optimality=True)
    answers = _real_answers()
    reading = [{"name": f"plan reading alone, {len(answers):,} real PlanBench answers (warm parse caches)",
                "value": round(_reading_rate(answers, 2 if quick else 5), 1), "unit": "answers/s",
                "compared_to": "target >= 1,000 answers/s", "ratio": None}] if answers else []
    return reading + [
        {"name": "in-process, 1,000-plan batch (cold parse caches)", "value": round(rate_in, 1),
         "unit": "plans/s", "compared_to": "one fresh python process per plan (PlanBench's way of calling VAL)",
         "ratio": round(rate_in / rate_proc, 1)},
        {"name": f"one process per plan ({len(sample)} plans{' sampled' if quick else ''})",
         "value": round(rate_proc, 2), "unit": "plans/s", "compared_to": "", "ratio": None},
        {"name": "1,000 plans, one process each (measured or extrapolated)",
         "value": round(per_plan_proc * len(batch), 1), "unit": "s", "compared_to": "in-process batch",
         "ratio": round(per_plan_proc * len(batch) / t_in, 1)},
        {"name": "in-process with optimal-length search (cold; A* cached per problem)",
         "value": round(len(batch) / t_opt, 1), "unit": "plans/s", "compared_to": "in-process without it",
         "ratio": round(t_in / t_opt, 3)},
        {"name": "answers judged valid in the batch", "value": sum(1 for r in res_in if r), "unit": "plans",
         "compared_to": "", "ratio": None},
    ]


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    rows = run(quick)
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        ratio = f"x{r['ratio']}" if r["ratio"] is not None else ""
        print(f"{r['name']:<{width}}  {r['value']:>10} {r['unit']:<8} {ratio:>8}  {r['compared_to']}")
