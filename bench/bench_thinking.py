"""Thinking-trace throughput: segmentation, candidate extraction and replay, in MB of thinking
text per second, and the time for one 100 KB trace.

Inputs are generated deterministically (seeded) from the DeepSeek-R1 PlanBench development
traces: paragraphs of the mystery-blocksworld and blocksworld traces are drawn at random,
perturbed (a paragraph's numbers renumbered, an arithmetic claim appended, some "Wait," turned
into "Hmm,") and concatenated up to the wanted size; each record keeps the problem of the trace
its first paragraph came from, so candidate plans are replayed against a real problem.

Compared against splitting the same text into paragraphs (the plain-text fallback format),
the least any format must do.

--quick: 256 KB traces (2 MB in full), best of 2 passes (3), the whole audit's wall-clock and CPU
figures from the same 2 passes (separate passes in full), 3 traces of 100 KB (10).
"""

from __future__ import annotations

import json
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, best_of, print_table, row  # noqa: E402
from audit import audit_record  # noqa: E402
from core.record import record_from_json  # noqa: E402
from trace_parsers.plain_text import parse as plain_parse  # noqa: E402
from trace_parsers.think import parse as think_parse  # noqa: E402

DEV = REPO.parent / "shared" / "data" / "dev" / "planbench_r1_thinking.jsonl"


def _rows() -> list[dict[str, Any]]:
    with open(DEV, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _perturb(paragraph: str, rng: random.Random) -> str:
    if rng.random() < 0.3:
        paragraph = re.sub(r"\b(\d+)\.", lambda m: f"{(int(m.group(1)) + rng.randint(0, 2)) % 9 + 1}.", paragraph)
    if rng.random() < 0.2:
        a, b = rng.randint(2, 99), rng.randint(2, 99)
        paragraph += f" Check: {a} * {b} = {a * b + (rng.random() < 0.2)}."
    if rng.random() < 0.2:
        paragraph = paragraph.replace("Wait,", "Hmm,", 1)
    return paragraph


def make_record(size: int, seed: int, domain: str = "mystery_blocksworld") -> dict[str, Any]:
    """A thinking record of about `size` characters built from dev traces of `domain`."""
    rng = random.Random(seed)
    rows = [r for r in _rows() if r["domain"] == domain]
    first = rng.choice(rows)
    paragraphs = [p for r in rows for p in r["trace"].split("\n\n") if p.strip()]
    parts: list[str] = []
    total = 0
    while total < size:
        p = _perturb(rng.choice(paragraphs), rng)
        parts.append(p)
        total += len(p) + 2
    trace = "\n\n".join(parts)[:size]
    return {"id": f"bench-{domain}-{size}-{seed}", "domain": domain, "problem": first["problem"], "trace": trace,
            "answer": first["answer"]}


def _rate(fn, record, repeat: int) -> tuple[float, float]:
    """(MB per second, seconds per call), best of `repeat`."""
    best = best_of(lambda: fn(record), repeat)
    return len(record.trace) / 2**20 / best, best


def _cpu_rate(fn, record, repeat: int) -> float:
    """MB per second by CPU time, best of `repeat`: the figure the 1 MB/s target is read on (wall
    clock on a machine shared with other jobs measures them too)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn(record)
        best = min(best, time.process_time() - start)
    return len(record.trace) / 2**20 / best


def _wall_and_cpu_rate(fn, record, repeat: int) -> tuple[float, float]:
    """(MB per second by wall clock, by CPU time) of the same `repeat` calls, each the best of them:
    what `_rate` and `_cpu_rate` measure in passes of their own, in half the audits."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn(record)
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    mb = len(record.trace) / 2**20
    return mb / wall, mb / cpu


def run(quick: bool) -> list[dict]:
    big = 256 * 1024 if quick else 2 * 2**20
    repeat = 2 if quick else 3
    out = []
    for domain in ("mystery_blocksworld", "blocksworld"):
        # Warm the domain's one-time costs (grammar, problem parse caches) outside the timing:
        # with a single cold run the first domain measured read about half its steady rate.
        audit_record(record_from_json(make_record(8 * 1024, seed=5, domain=domain)))
        rec = record_from_json(make_record(big, seed=11, domain=domain))
        base, _ = _rate(plain_parse, rec, repeat)
        seg, _ = _rate(think_parse, rec, repeat)
        if quick:  # the whole audit is most of the time: wall and CPU time read off the same passes
            full, cpu = _wall_and_cpu_rate(audit_record, rec, repeat)
        else:
            full, _ = _rate(audit_record, rec, repeat)
            cpu = _cpu_rate(audit_record, rec, repeat)
        label = f"{len(rec.trace) / 2**20:.2f} MB {domain} thinking"
        out.append(row(f"segmentation ({label})", round(seg, 2), "MB/s",
                       "plain_text paragraph split of the same text", round(seg / base, 3)))
        out.append(row(f"segmentation + extraction + replay ({label})", round(full, 2), "MB/s",
                       "plain_text paragraph split of the same text", round(full / base, 3)))
        out.append(row(f"segmentation + extraction + replay, by CPU time ({label})", round(cpu, 2), "MB/s",
                       "target 1 MB/s", round(cpu, 3)))
    times = []
    for seed in range(3 if quick else 10):
        rec = record_from_json(make_record(100 * 1024, seed=100 + seed))
        start = time.perf_counter()
        result = audit_record(rec)
        times.append(time.perf_counter() - start)
        assert result.verdict.format == "think"
    out.append(row("one 100 KB thinking trace, full audit (median)", round(statistics.median(times) * 1000, 1), "ms",
                   "", None))
    return out


if __name__ == "__main__":
    print_table(run(quick="--quick" in sys.argv))
