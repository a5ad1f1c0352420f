"""Ingest: small traces per second into SQLite (and PostgreSQL when a URL is set), bulk
inserts through SQLAlchemy Core, streaming from a JSONL file; peak memory reported."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import pg_schema, print_table, row, timed  # noqa: E402


def make_jsonl(path: Path, n: int, seed: int = 7, domain: str = "freeform") -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            words = " ".join(rng.choice(["wait", "so", "then", "check", "plan", "block", "goal"]) for _ in range(12))
            rec = {"id": f"t{i}", "domain": domain, "model": f"m{i % 7}",
                   "trace": f"{words}.\n\nTherefore {i % 97}.", "answer": str(i % 97)}
            fh.write(json.dumps(rec) + "\n")


def ingest(path: Path, url: str, workers: int = 1) -> int:
    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from pipeline import audit_units

    engine = make_engine(url)
    with open(path, "rb", buffering=1 << 20) as fh:
        return sum(1 for _ in audit_units(iter_jsonl(fh), engine, workers=workers))


def _hwm_mb() -> float:
    """This process image's peak RSS. (ru_maxrss would include the parent's peak: Linux keeps
    it across fork and exec.)"""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM")) / 1024


def _ingest_in_child(path: str, url: str) -> tuple[int, float, float]:
    start = time.perf_counter()
    count = ingest(Path(path), url)
    return count, time.perf_counter() - start, _hwm_mb()


def _without_tallies():
    """A context in which the writers skip the tallies (db/tally.py): the writer as it was before
    them, in this process, for the cost comparison only."""
    from contextlib import contextmanager

    from db import store

    @contextmanager
    def patched():
        saved = store.apply_tally, store.subtract_stored
        store.apply_tally, store.subtract_stored = (lambda conn, delta: None), (lambda conn, keys, delta: {})
        try:
            yield
        finally:
            store.apply_tally, store.subtract_stored = saved
    return patched()


def tally_cost(src: Path, fresh_url, label: str, rounds: int = 2) -> dict:
    """Ingest the same file into fresh databases with and without keeping the tallies,
    alternating, best of `rounds` each (CPU time of this process and wall time)."""
    best = {True: (float("inf"), float("inf")), False: (float("inf"), float("inf"))}
    count = 0
    for _ in range(rounds):
        for keep in (True, False):
            url = fresh_url()
            from db.engine import make_engine
            make_engine(url)  # schema outside the timing
            wall, cpu = time.perf_counter(), time.process_time()
            if keep:
                count = ingest(src, url)
            else:
                with _without_tallies():
                    count = ingest(src, url)
            took = (time.perf_counter() - wall, time.process_time() - cpu)
            best[keep] = tuple(min(a, b) for a, b in zip(best[keep], took))
    (w1, c1), (w0, c0) = best[True], best[False]
    return row(f"{label}: ingest keeping the corpus tallies, {count:,} traces", count / w1, "traces/s",
               f"the same writer without them, same run: {count / w0:,.0f} traces/s; time ratio "
               f"{w1 / w0:.3f} wall, {c1 / c0:.3f} CPU (best of {rounds})", w1 / w0)


def run(quick: bool) -> list[dict]:
    """Each small trace is a real audit (think-format segmentation, free-form arithmetic
    replay), not a bare insert. Quick sizes (30,000, and 10,000 for the side figures, the re-ingest
    among them) and one round of the tallies' comparison (two in full) keep every figure and its
    comparison in a quick run that a developer still runs."""
    n = 30_000 if quick else 100_000
    m = 10_000 if quick else n
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "traces.jsonl"
        make_jsonl(src, n)
        mb = src.stat().st_size / 2**20
        # The same seed: the side file is the first m traces of src (all of it in full).
        side = Path(tmp) / "side.jsonl"
        make_jsonl(side, m)
        # A fresh process, so its peak memory is the ingest's own.
        with mp.get_context("spawn").Pool(1) as pool:
            count, secs, hwm = pool.apply(_ingest_in_child, (str(src), f"sqlite:///{tmp}/ingest.db"))
        rows.append(row(f"ingest {count:,} small traces into SQLite", count / secs, "traces/s",
                        "target 5,000 traces/s", (count / secs) / 5000))
        rows.append(row(f"  peak RSS of the ingesting process ({mb:.0f} MB input)", hwm, "MB",
                        "bounded by the batch, not the corpus"))
        if quick:  # the side file: traces all stored above
            secs2, _ = timed(lambda: ingest(side, f"sqlite:///{tmp}/ingest.db"))
            rows.append(row(f"  re-ingest of its first {m:,} traces (all duplicates)", m / secs2, "traces/s"))
        else:
            secs2, _ = timed(lambda: ingest(src, f"sqlite:///{tmp}/ingest.db"))
            rows.append(row("  re-ingest of the same file (all duplicates)", count / secs2, "traces/s"))
        plain = Path(tmp) / "plain.jsonl"
        make_jsonl(plain, m, domain="unvalidated")
        secs_p, _ = timed(lambda: ingest(plain, f"sqlite:///{tmp}/plain.db"))
        rows.append(row(f"  storage path only ({m:,} traces of a domain without a validator)", m / secs_p,
                        "traces/s", "target 5,000 traces/s", (m / secs_p) / 5000))
        secs_w, _ = timed(lambda: ingest(side, f"sqlite:///{tmp}/ingest2.db", workers=2))
        rows.append(row(f"ingest {m:,} small traces into SQLite, --workers 2", m / secs_w, "traces/s",
                        "target 5,000 traces/s", (m / secs_w) / 5000))
        fresh = iter(range(1_000))
        rounds = 1 if quick else 2
        rows.append(tally_cost(side, lambda: f"sqlite:///{tmp}/tally{next(fresh)}.db", "SQLite", rounds))
        pg = os.environ.get("STEPSCOPE_BENCH_POSTGRES_URL") or os.environ.get("STEPSCOPE_TEST_POSTGRES_URL")
        if pg:
            with ExitStack() as schemas:
                rows.append(tally_cost(side, lambda: schemas.enter_context(pg_schema(pg)), "PostgreSQL", rounds))
                url = schemas.enter_context(pg_schema(pg))
                secs3, count3 = timed(lambda: ingest(side, url))
            rows.append(row(f"ingest {count3:,} small traces into PostgreSQL", count3 / secs3, "traces/s",
                            "SQLite in this run", (count3 / secs3) / (count / secs)))
    return rows


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
