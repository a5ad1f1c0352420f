"""The Ray engine (`cli.py audit --engine ray`) against the local engine, in the same run.

N small traces (default 1,000,000; `--quick`: 4,000; `--n N`) are generated into JSONL shards
(and one JSONL file with the same records for the local engine, which reads one file), then:

* the pure audit in this process (parse + replay + verdict, no storage): the per-core rate;
* the local engine, `cli.py audit FILE --out verdicts.parquet` (SQLite, its default store), and
  into PostgreSQL when a URL is set;
* a Ray cluster on this machine (`ray.init(address="local")`, every core), then
  `cli.py audit SHARDS/ --engine ray --address ... --out verdicts.parquet` and `--db postgresql://...`;
  the Parquet verdicts must equal the local engine's;
* PostgreSQL's write rate for these records with precomputed results (store_raw + store_results,
  COPY), one writer and two at once: the ceiling for any number of audit workers.

Each CLI run is a subprocess timed from start to exit (Ray: connecting to the running cluster
included, starting it not); its peak RSS (VmHWM) is the driver's memory. PostgreSQL figures need
STEPSCOPE_BENCH_POSTGRES_URL or STEPSCOPE_TEST_POSTGRES_URL.

    .venv/bin/python bench/bench_ray.py [--quick | --n N]
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, pg_schema, print_table, row  # noqa: E402

FULL_N = 1_000_000
# Quick: 4,000 records (250 a shard) still give every figure and its comparison; the driver's
# fixed 2-5 s per run weighs more in them, so its per-record figures are the noisier. (2026-12-06:
# the driver's CPU per record past its fixed cost read 151 us at 4,000 against 149 at 8,000, same
# machine; the quick run as a whole went from 125 s to 112 s.)
QUICK_N = 4_000
SHARDS = 16
WORDS = ["wait", "so", "then", "check", "plan", "block", "goal"]

# Runs cli.main in a fresh interpreter and reports that process's peak RSS (the driver's memory)
# and its own CPU time (with Ray: what the driver spends per record, the limit of one driver).
_DRIVER = ("import resource, sys, cli\n"
           "rc = cli.main(sys.argv[1:])\n"
           "hwm = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
           "ru = resource.getrusage(resource.RUSAGE_SELF)\n"
           "sys.stderr.write(f'\\nPEAK_KB {hwm}\\nCPU_S {ru.ru_utime + ru.ru_stime}\\n')\n"
           "sys.exit(rc)\n")


def _record(i: int, rng: random.Random) -> str:
    """The small traces of bench_ingest.py: think-format segmentation and a free-form replay."""
    words = " ".join(rng.choice(WORDS) for _ in range(12))
    return json.dumps({"id": f"t{i}", "domain": "freeform", "model": f"m{i % 7}",
                       "trace": f"{words}.\n\nTherefore {i % 97}.", "answer": str(i % 97)})


def make_corpus(tmp: Path, n: int, shards: int = SHARDS, seed: int = 7) -> tuple[Path, Path]:
    """`shards/part-XX.jsonl` and `all.jsonl`, the same records in the same order."""
    rng = random.Random(seed)
    d = tmp / "shards"
    d.mkdir()
    whole = tmp / "all.jsonl"
    with open(whole, "w", encoding="utf-8") as out:
        for k in range(shards):
            with open(d / f"part-{k:02d}.jsonl", "w", encoding="utf-8") as part:
                for i in range(k * n // shards, (k + 1) * n // shards):
                    line = _record(i, rng) + "\n"
                    part.write(line)
                    out.write(line)
    return d, whole


def _cli(args: list[str], log: Path) -> tuple[float, float, float]:
    """(seconds, driver peak MB, driver CPU seconds) of one `cli.py` run."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("RAY_ADDRESS", None)
    start = time.perf_counter()
    with open(log, "wb") as err:
        proc = subprocess.run([sys.executable, "-c", _DRIVER, *args], cwd=REPO, env=env,
                              stdout=subprocess.DEVNULL, stderr=err)
    secs = time.perf_counter() - start
    text = log.read_text(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"cli.py {' '.join(args)} failed:\n{text[-3000:]}")
    peak = next(int(line.split()[1]) for line in text.splitlines() if line.startswith("PEAK_KB"))
    cpu = next(float(line.split()[1]) for line in text.splitlines() if line.startswith("CPU_S"))
    return secs, peak / 1024, cpu


def _count(url: str, table: str) -> int:
    import sqlalchemy as sa

    from db.engine import database_url
    eng = sa.create_engine(database_url(url))
    with eng.connect() as conn:
        n = conn.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar()
    eng.dispose()
    return n


def _units(path: Path, n: int) -> list:
    from records_io.intake import iter_jsonl

    with open(path, "rb") as fh:
        out = []
        for unit in iter_jsonl(fh):
            out.append(unit)
            if len(out) >= n:
                break
    return out


def _pure_rate(units: list) -> tuple[float, float]:
    """Records per second of the pure audit (what one Ray task does per record without storage),
    by wall clock and by this process's CPU time (the per-core rate, whatever else the machine runs)."""
    import gc

    from core.limits import current_limits
    from pipeline import BULK_GC_THRESHOLD, unit_rows

    limits = current_limits()
    saved = gc.get_threshold()
    gc.set_threshold(BULK_GC_THRESHOLD, 10, 10)
    try:
        start, cpu = time.perf_counter(), time.process_time()
        for unit in units:
            unit_rows(unit, limits)
        return len(units) / (time.perf_counter() - start), len(units) / (time.process_time() - cpu)
    finally:
        gc.set_threshold(*saved)


def _store(url: str, path: str, lo: int, hi: int) -> float:
    """Store records lo..hi of `path` with precomputed results (store_raw + store_results in
    batches of 2,000, as the engines do); returns the seconds the storing took."""
    from core.limits import current_limits
    from db.engine import make_engine
    from db.store import store_raw, store_results
    from pipeline import BATCH_SIZE, unit_rows

    units = _units(Path(path), hi)[lo:]
    limits = current_limits()
    results = [unit_rows(u, limits) for u in units]
    engine = make_engine(url)
    start = time.perf_counter()
    for k in range(0, len(units), BATCH_SIZE):
        keys = store_raw(engine, units[k:k + BATCH_SIZE])
        store_results(engine, [(pk, rows) for (pk, _), rows in zip(keys, results[k:k + BATCH_SIZE])])
    return time.perf_counter() - start


def _pg_ceiling(base: str, path: Path, m: int) -> list[dict]:
    """PostgreSQL's own write rate for these records: one writer, then two writers at once."""
    out = []
    with pg_schema(base, "bench_ray") as url:
        ctx = mp.get_context("spawn")
        with ctx.Pool(1) as pool:
            secs = pool.apply(_store, (url, str(path), 0, m))
        out.append(row(f"PostgreSQL write rate, 1 writer ({m:,} records, results precomputed)", m / secs,
                       "records/s", "the ceiling for audit workers writing to one database"))
    with pg_schema(base, "bench_ray") as url:
        with ctx.Pool(2) as pool:
            jobs = [pool.apply_async(_store, (url, str(path), 0, m // 2)),
                    pool.apply_async(_store, (url, str(path), m // 2, m))]
            # Both audit their half first, then store at the same time: the slower one's storing time.
            secs = max(j.get() for j in jobs)
        out.append(row("  same, 2 writers at once (this machine's 2 cores, shared with PostgreSQL)", m / secs,
                       "records/s"))
    return out


PROJECT_NODES = 16
PROJECT_CORES = 32


def _projection(per_core: float, driver_ceiling: float) -> list[dict]:
    """What PROJECT_NODES nodes of PROJECT_CORES cores could audit into Parquet, from this run's
    figures: every core at the per-core rate (by CPU time, so a busy machine does not skew it), but
    never more than one driver takes in (it receives every verdict). An upper bound: the scaling
    efficiency printed above says how much of it this machine reached. Into PostgreSQL the
    database's write rate (measured below) is the ceiling instead."""
    cores = PROJECT_NODES * PROJECT_CORES
    capacity = cores * per_core
    return [row(f"projection, {PROJECT_NODES} nodes x {PROJECT_CORES} cores: audit capacity", capacity, "records/s"),
            row("  one driver's ceiling (1 / its CPU time per record)", driver_ceiling, "records/s"),
            row("  projected rate -> Parquet (the smaller of the two)", min(capacity, driver_ceiling), "records/s")]


def run(quick: bool, n: int | None = None) -> list[dict]:
    # The cluster listens on the loopback address only (engines/ray_engine.py, LOOPBACK_ENV).
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError:
        return [row("Ray engine: skipped, Ray is not installed (pip install --require-hashes -r "
                    "requirements-ray.txt)", 0, "")]
    import pyarrow.parquet as pq

    n = n or (QUICK_N if quick else FULL_N)
    pg = os.environ.get("STEPSCOPE_BENCH_POSTGRES_URL") or os.environ.get("STEPSCOPE_TEST_POSTGRES_URL")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        shards, whole = make_corpus(tmp, n)
        mb = whole.stat().st_size / 2**20
        units = _units(whole, min(n, 20_000))
        if quick:  # fewer records amortise the first audits' one-time costs (imports, regexes) less: warm up untimed
            _pure_rate(units[:500])
        wall_rate, per_core = _pure_rate(units)
        rows.append(row("pure audit in one process (parse + replay + verdict, no storage), by CPU time", per_core,
                        "records/s", "the per-core rate"))
        rows.append(row("  same, by wall clock", wall_rate, "records/s"))

        local_out = tmp / "local.parquet"
        secs, peak, _ = _cli(["audit", str(whole), "--db", f"sqlite:///{tmp / 'local.db'}", "--out",
                              str(local_out)], tmp / "local.log")
        local_rate = n / secs
        rows.append(row(f"local engine, {n:,} small traces ({mb:.0f} MB) -> SQLite + Parquet", local_rate,
                        "records/s"))
        rows.append(row("  its peak RSS (one process: reads, audits, writes)", peak, "MB"))
        local_pg_rate = None
        if pg:
            with pg_schema(pg, "bench_ray") as url:
                secs, peak, _ = _cli(["audit", str(whole), "--db", url, "--out", os.devnull], tmp / "local_pg.log")
                local_pg_rate = n / secs
                rows.append(row(f"local engine, {n:,} small traces -> PostgreSQL", local_pg_rate, "records/s"))

        cpus = os.cpu_count() or 1
        start = time.perf_counter()
        info = ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter() - start
        address = info.address_info["gcs_address"]
        try:
            rows.append(row(f"Ray: start a local cluster ({cpus} CPUs)", started, "s"))
            ray_out = tmp / "ray.parquet"
            secs, peak, cpu = _cli(["audit", str(shards), "--engine", "ray", "--address", address, "--out",
                                    str(ray_out)], tmp / "ray.log")
            same = (pq.read_table(ray_out, columns=["verdict_json"]).column("verdict_json")
                    .equals(pq.read_table(local_out, columns=["verdict_json"]).column("verdict_json")))
            rows.append(row(f"Ray engine, {SHARDS} shards -> Parquet (verdicts identical to local: {same})",
                            n / secs, "records/s", "local engine -> SQLite + Parquet", (n / secs) / local_rate))
            rows.append(row("  peak RSS of the Ray driver", peak, "MB"))
            rows.append(row("  Ray driver CPU time per record (receiving verdicts, writing Parquet)",
                            cpu / n * 1e6, "us", "the most one driver can take in", None))
            # The driver's fixed cost (imports, connecting, shipping the code) measured on one small
            # shard, so the ceiling comes from what each further record costs it.
            _, _, fixed = _cli(["audit", str(shards / "part-00.jsonl"), "--engine", "ray", "--address", address,
                                "--out", str(tmp / "fixed.parquet")], tmp / "fixed.log")
            per_record = max(cpu - fixed, 1e-9) / (n - n // SHARDS)
            rows.append(row("  same, past the driver's fixed cost (one shard's run)", per_record * 1e6, "us",
                            f"fixed cost {fixed:.1f} s of CPU"))
            efficiency = (n / secs) / (cpus * per_core)
            rows.append(row(f"  scaling efficiency: Ray -> Parquet rate / ({cpus} CPUs x per-core rate)", efficiency, ""))
            rows += _projection(per_core, 1 / per_record)
            if pg:
                with pg_schema(pg, "bench_ray") as url:
                    secs, peak, cpu = _cli(["audit", str(shards), "--engine", "ray", "--address", address, "--db",
                                            url], tmp / "ray_pg.log")
                    stored = _count(url, "record"), _count(url, "trace_verdict")
                    rows.append(row(f"Ray engine -> PostgreSQL ({stored[0]:,} records, {stored[1]:,} verdicts stored)",
                                    n / secs, "records/s", "local engine -> PostgreSQL",
                                    (n / secs) / local_pg_rate if local_pg_rate else None))
                    rows.append(row("  peak RSS of the Ray driver", peak, "MB"))
                    rows.append(row("  Ray driver CPU time per record (summary columns only)", cpu / n * 1e6, "us"))
        finally:
            ray.shutdown()
        if pg:
            rows += _pg_ceiling(pg, whole, min(n, 40_000))
    return rows


if __name__ == "__main__":
    args = sys.argv[1:]
    size = int(args[args.index("--n") + 1]) if "--n" in args else None
    print_table(run("--quick" in args, size))
