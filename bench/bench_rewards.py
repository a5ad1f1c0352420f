"""Rewards per second (rewards/, issue 21), in process, as a trainer calls them.

* Countdown, both modes: completions in TinyZero's base-model layout (prompt + thinking with
  arithmetic claims + `<answer>`), generated from fixed seeds: a random expression over 3-5
  numbers sets the target; a quarter of the answers is wrong, a quarter of the traces has a false
  claim. Mode "tinyzero" is compared with mode "stepscope"; mode "stepscope" with `audit_record`
  on the same records (what the reward layer adds: splitting, weighing).
* Planning: the 1,000 plans of bench_planning.make_batch (random walks on the PlanBench dev
  problems, half corrupted, in PDDL or PlanBench wording) as `<answer>` completions: with the
  default weights (no trace to replay) and with process weight 0, against `audit_record` on the
  same records (the path every plan reward took before rewards/plan_answer.py) and
  `validate_plan_text` with optimality off (the validator alone).
* Countdown and planning rows are timed by CPU time of this process (the machine may be shared). Repeated runs reuse the lines the answer reader has read
  per problem (validators/planning/extract.py, as a GRPO group's answers to one problem do); the
  "first pass" row empties those memos first.
* Process rewards per MB of thinking: the DeepSeek-R1 PlanBench traces of the dev set as
  `<think>` completions with their answers, against `audit_record` on the same records.
"""

from __future__ import annotations

import json
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, best_of, print_table, row  # noqa: E402
from bench.bench_planning import make_batch  # noqa: E402
from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402
from rewards import compute_score, split_completion  # noqa: E402
from validators.planning import planning_task, validate_plan_text  # noqa: E402

DEV = REPO.parent / "shared" / "data" / "dev"
SAMPLE = REPO / "tests" / "data" / "dev"
PREFIX = ("A conversation between User and Assistant.\nUser: Using the numbers {nums}, create an equation that equals "
          "{target}. Show your work in <think> </think> tags and the answer in <answer> </answer> tags.\n"
          "Assistant: Let me solve this step by step.\n<think>")


def _expression(rng: random.Random, nums: list[int]) -> tuple[str, Fraction, list[str]]:
    """A random expression over all numbers, its value, and the claims a model would write."""
    items = [(str(n), Fraction(n)) for n in nums]
    claims: list[str] = []
    while len(items) > 1:
        i = rng.randrange(len(items) - 1)
        (ea, va), (eb, vb) = items[i], items[i + 1]
        op = rng.choice("+-*/" if vb else "+-*")
        value = {"+": va + vb, "-": va - vb, "*": va * vb, "/": va / vb if vb else va}[op]
        if value.denominator == 1 and va.denominator == vb.denominator == 1:
            claims.append(f"{va}{op}{vb}={value}")
        items[i:i + 2] = [(f"({ea}{op}{eb})", value)]
    expr, value = items[0]
    return expr[1:-1] if expr.startswith("(") else expr, value, claims


def countdown_batch(n: int, seed: int = 21) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        nums = [rng.randint(1, 60) for _ in range(rng.choice((3, 4, 4, 5)))]
        expr, value, claims = _expression(rng, nums)
        if value.denominator != 1 or not 0 < value <= 1000 or not claims:
            continue
        if rng.random() < 0.25:  # a false claim in the trace
            a, rest = claims[0].split("=")
            claims[0] = f"{a}={int(rest) + 1}"
        answer = expr if rng.random() >= 0.25 else expr.replace("+", "-", 1)
        thinking = (f"Okay, I need to reach {int(value)} with {nums}. Let me try a few combinations. "
                    + " Then ".join(f"{c}." for c in claims) + " That gives the target, so I will use it.")
        solution = PREFIX.format(nums=nums, target=int(value)) + f"{thinking}</think>\n<answer>{answer}</answer>"
        out.append((solution, {"numbers": nums, "target": int(value)}))
    return out


def cpu_time(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def best_cpu_of(fn: Callable[[], object], repeats: int) -> float:
    """Least CPU time of `repeats` calls: other processes on a shared machine do not count."""
    return min(cpu_time(fn) for _ in range(repeats))


def _dev_rows(name: str) -> list[dict]:
    path = DEV / name if (DEV / name).exists() else SAMPLE / name
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run(quick: bool) -> list[dict]:
    repeats = 2 if quick else 3
    n = 2000 if quick else 20000
    batch = countdown_batch(n)
    tz, ours, outcome_only = {"mode": "tinyzero"}, {"mode": "stepscope"}, {"mode": "stepscope", "process_weight": 0}
    records = []
    for solution, gt in batch:
        split = split_completion(solution, "countdown")
        records.append(record_from_json({"id": "r", "domain": "countdown", "problem": gt, "trace": split.trace,
                                         "answer": split.answer}))
    for solution, gt in batch[:50]:  # warm-up: imports, regexes, registries
        compute_score("countdown", solution, gt, tz)
        compute_score("countdown", solution, gt, ours)
    t_tz = best_cpu_of(lambda: [compute_score("countdown", s, g, tz) for s, g in batch], repeats)
    t_ours = best_cpu_of(lambda: [compute_score("countdown", s, g, ours) for s, g in batch], repeats)
    t_outcome = best_cpu_of(lambda: [compute_score("countdown", s, g, outcome_only) for s, g in batch], repeats)
    t_audit = best_cpu_of(lambda: [audit_record(r) for r in records], repeats)
    scores = [compute_score("countdown", s, g, tz) for s, g in batch]

    plans = make_batch(300 if quick else 1000)
    plan_jobs = [(job["domain"], f"<answer>{job['text']}</answer>", job["problem"]) for job in plans]
    plan_records = [record_from_json({"id": "r", "domain": d, "problem": p, "trace": "", "answer": j["text"]})
                    for (d, _, p), j in zip(plan_jobs, plans)]
    lexicons = {id(lex): lex for lex in (planning_task(p, d)[2] for d, _, p in plan_jobs)}
    for lex in lexicons.values():
        lex.line_memo.clear()
        lex.item_memo.clear()
    t_first = cpu_time(lambda: [compute_score(d, s, p, outcome_only) for d, s, p in plan_jobs])
    t_plans = best_cpu_of(lambda: [compute_score(d, s, p) for d, s, p in plan_jobs], repeats)
    t_plans_outcome = best_cpu_of(lambda: [compute_score(d, s, p, outcome_only) for d, s, p in plan_jobs], repeats)
    t_plan_audit = best_cpu_of(lambda: [audit_record(r) for r in plan_records], repeats)
    t_val = best_cpu_of(lambda: [validate_plan_text(j["text"], j["problem"], j["domain"], optimality=False)
                                 for j in plans], repeats)

    r1 = [r for r in _dev_rows("planbench_r1_thinking.jsonl") if len(r["trace"]) <= (15_000 if quick else 10**9)]
    thinking = [(r["domain"], f"<think>\n{r['trace']}\n</think>\n\n{r['answer']}", r["problem"]) for r in r1]
    mb = sum(len(s.encode()) for _, s, _ in thinking) / 2**20
    r1_records = [record_from_json(r) for r in r1]
    [audit_record(r) for r in r1_records]  # warm the parse and reference-plan caches for both
    t_think = best_of(lambda: [compute_score(d, s, p) for d, s, p in thinking], repeats)
    t_think_audit = best_of(lambda: [audit_record(r) for r in r1_records], repeats)

    return [
        row(f"countdown, mode tinyzero ({n:,} completions), CPU", n / t_tz, "rewards/s", "mode stepscope", t_ours / t_tz),
        row("countdown, mode stepscope (outcome+format+process), CPU", n / t_ours, "rewards/s",
            "audit_record on the same records", t_ours / t_audit),
        row("  audit_record alone", n / t_audit, "records/s"),
        row("countdown, mode stepscope, process weight 0 (trace not replayed), CPU", n / t_outcome, "rewards/s",
            "mode tinyzero", t_outcome / t_tz),
        row("  completions TinyZero scores 1.0", scores.count(1.0) / n, "share",
            f"0.1: {scores.count(0.1) / n:.2f}, 0: {scores.count(0) / n:.2f}"),
        row(f"planning plan answers ({len(plans):,}, PlanBench dev problems), default weights, CPU",
            len(plans) / t_plans, "rewards/s", "audit_record on the same records", t_plans / t_plan_audit),
        row("planning plan answers, process weight 0 (outcome + format), CPU", len(plans) / t_plans_outcome,
            "rewards/s", "audit_record on the same records", t_plans_outcome / t_plan_audit),
        row("  same, first pass (answer reader's line memos emptied)", len(plans) / t_first, "rewards/s",
            "repeated runs", t_plans_outcome / t_first),
        row("  audit_record alone (the plan reward's path before)", len(plans) / t_plan_audit, "records/s"),
        row("  validate_plan_text alone (optimality off), CPU", len(plans) / t_val, "plans/s"),
        row(f"process rewards on R1 thinking ({len(r1)} traces, {mb:.2f} MB)", mb / t_think, "MB/s",
            "audit_record on the same records", t_think / t_think_audit),
        row("  per trace", len(r1) / t_think, "rewards/s"),
    ]


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
