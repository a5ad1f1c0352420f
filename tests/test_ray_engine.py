"""The Ray engine (`cli.py audit --engine ray`, engines/ray_engine.py) on a real local Ray cluster.

The cluster is started here (`ray.init(address="local", num_cpus=2)`, on 127.0.0.1 only) and
shut down at the end; every audit runs as a user would run it, `cli.py audit ... --engine ray
--address <this cluster>` in a subprocess, and is compared with the local engine on the same
input. Verdicts must be identical byte for byte (both engines run with PYTHONHASHSEED=0, though
no verdict depends on it: tests/test_planning.py).

Skipped, with the reason, when Ray is not installed (it is an optional extra,
requirements-ray.txt); .ci/run installs it and sets STEPSCOPE_REQUIRE_RAY=1, so there it must run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

# The test cluster uses the loopback address only (read when Ray is imported; engines/ray_engine.py,
# LOOPBACK_ENV); the CLI runs inherit it, so their drivers find the cluster's node on 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

# CI sets STEPSCOPE_REQUIRE_RAY=1 (it installs the extra): there a missing Ray fails instead of skipping.
if os.environ.get("STEPSCOPE_REQUIRE_RAY") == "1":
    import ray
else:
    ray = pytest.importorskip(
        "ray", reason="Ray is an optional extra: .venv/bin/pip install --require-hashes -r requirements-ray.txt "
        "(or STEPSCOPE_EXTRAS=ray ./stepscope test)")

import psutil  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from tests.conftest import DEV_DATA, REPO, postgres_schema_url  # noqa: E402

HOSTILE = REPO / "tests" / "hostile"
MAP_TASK_TITLE = "ray::MapBatches(audit_block)"  # the process title of a worker running an audit task


@pytest.fixture(scope="module")
def cluster() -> str:
    """A two-CPU Ray cluster on this machine, for this module; its GCS address."""
    info = ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=512 * 2**20,
                    log_to_driver=False)
    try:
        address = info.address_info["gcs_address"]
        assert address.startswith("127.0.0.1:"), address
        yield address
    finally:
        ray.shutdown()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema on the test PostgreSQL (the Ray engine stores only in PostgreSQL)."""
    yield from postgres_schema_url("t_ray")


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": "0", **(extra or {})}
    env.pop("RAY_ADDRESS", None)
    return env


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: int = 280) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "cli.py", *args], cwd=REPO, env=_env(env), capture_output=True,
                          timeout=timeout)


def local_verdicts(files: list[Path], tmp: Path, env: dict[str, str] | None = None) -> list[str]:
    """The local engine's verdict lines for each file in turn (one process, one SQLite database)."""
    outs = [tmp / f"local-{i}.jsonl" for i in range(len(files))]
    script = ("import sys, cli\n"
              "db, pairs = sys.argv[1], sys.argv[2:]\n"
              "for src, out in zip(pairs[::2], pairs[1::2]):\n"
              "    assert cli.main(['audit', src, '--db', db, '--out', out]) == 0\n")
    args = [str(x) for pair in zip(files, outs) for x in pair]
    proc = subprocess.run([sys.executable, "-c", script, f"sqlite:///{tmp / 'local.db'}", *args], cwd=REPO,
                          env=_env(env), capture_output=True, timeout=280)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return [line for out in outs for line in out.read_text(encoding="utf-8").splitlines()]


def summary_value(stderr: bytes, label: str) -> str:
    for line in stderr.decode("utf-8", "replace").splitlines():
        if line.strip().startswith(label):
            return line.strip()[len(label):].strip()
    raise AssertionError(f"no '{label}' in the summary:\n{stderr.decode()[-2000:]}")


def dev_mix(per_file: dict[str, int]) -> list[bytes]:
    """Records from several dev files, interleaved so every block mixes domains."""
    sources = []
    for name, n in per_file.items():
        path = DEV_DATA / name
        if path.exists():
            sources.append([line for line in path.read_bytes().splitlines() if line.strip()][:n])
    mixed = []
    for i in range(max(len(s) for s in sources)):
        mixed += [s[i] for s in sources if i < len(s)]
    return mixed


DEV_MIX = {"maze_beyond_semantics.jsonl": 70, "countdown_sos.jsonl": 60, "planbench_plans.jsonl": 60,
           "planbench_r1_thinking.jsonl": 16, "thinking_claims_dev_v2.jsonl": 6, "planbench_verification.jsonl": 30}


def test_same_verdicts_as_the_local_engine_on_dev_data(cluster, tmp_path):
    """A few hundred records (mazes, Countdown, PlanBench plans and verification, R1 thinking) as
    a glob of JSONL shards -> Parquet verdicts, and as a Parquet file of records -> JSONL verdicts:
    both identical to the local engine's verdicts on the same records."""
    lines = dev_mix(DEV_MIX)
    assert len(lines) >= 100
    shards = tmp_path / "shards"
    shards.mkdir()
    files = []
    for k in range(4):
        part = lines[k * len(lines) // 4:(k + 1) * len(lines) // 4]
        files.append(shards / f"part-{k:02d}.jsonl")
        files[-1].write_bytes(b"\n".join(part) + b"\n")
    local = local_verdicts(files, tmp_path)
    assert len(local) == len(lines)

    out = tmp_path / "ray.parquet"
    proc = run_cli("audit", str(shards / "part-*.jsonl"), "--engine", "ray", "--address", cluster, "--out", str(out))
    assert proc.returncode == 0, proc.stderr.decode()[-4000:]
    table = pq.read_table(out)
    assert table.column("verdict_json").to_pylist() == local
    assert table.column("source").to_pylist()[0].endswith("part-00.jsonl")
    verdicts = [json.loads(v) for v in local]
    assert table.column("id").to_pylist() == [v["id"] for v in verdicts]
    assert table.column("answer_correct").to_pylist() == [v["answer_correct"] for v in verdicts]
    assert {v["domain"] for v in verdicts} >= {"maze", "countdown", "blocksworld"}
    assert summary_value(proc.stderr, "input units") == f"{len(lines):,}"
    assert "ray: 1 node(s), 2 CPUs, 4 input file(s)" in proc.stderr.decode()

    # The same records as a Parquet table with the record columns (problem/meta as JSON text).
    records = [json.loads(line) for line in lines]
    columns = {key: [] for key in ("id", "domain", "format", "model", "problem", "trace", "answer", "meta")}
    for r in records:
        for key in columns:
            value = r.get(key)
            columns[key].append(json.dumps(value) if key in ("problem", "meta") and value is not None else value)
    src = tmp_path / "records.parquet"
    pq.write_table(pa.table(columns), src, row_group_size=50)
    out2 = tmp_path / "ray2.jsonl"
    proc = run_cli("audit", str(src), "--engine", "ray", "--address", cluster, "--out", str(out2))
    assert proc.returncode == 0, proc.stderr.decode()[-4000:]
    assert out2.read_text(encoding="utf-8").splitlines() == local
    # ... and the local engine reads that Parquet file the same way.
    (tmp_path / "pq").mkdir()
    assert local_verdicts([src], tmp_path / "pq") == local


def _hostile_dir(tmp_path: Path) -> Path:
    d = tmp_path / "hostile"
    d.mkdir()
    for f in sorted(HOSTILE.glob("*.jsonl")):
        (d / f.name).write_bytes(f.read_bytes())
    good = json.dumps({"id": "g", "domain": "freeform", "trace": "So 7 * 8 = 56.", "answer": "56"}).encode()
    (d / "mixed.jsonl").write_bytes(b"\r\n".join([
        b"\xef\xbb\xbf" + good,                                        # UTF-8 BOM on the first line
        b'{"id": "trunc", "domain": "freeform", "trace": "half a rec',  # truncated JSON
        b"<<< definitely not json >>>",
        b"",                                                            # blank: skipped, numbering kept
        bytes(b for b in range(256) if b not in (10, 13)),              # binary
        b'{"id": "latin1", "trace": "caf\xe9"}',                        # wrong encoding
        b'{"id": "nul", "trace": "a\x00b"}',                            # raw NUL
        b'{"id": "problem-list", "domain": "countdown", "problem": [1, 2]}',  # not a record
        b'[1, 2, 3]',
        json.dumps({"id": "g2", "domain": "countdown", "problem": {"numbers": [1, 2], "target": 3},
                    "trace": "", "answer": "1 + 2 = 3"}).encode(),
    ]) + b"\r\n")
    big = json.dumps({"id": "big", "domain": "freeform", "trace": "x" * 300_000}).encode()
    cut = json.dumps({"id": "big-and-cut", "domain": "freeform", "trace": "y" * 300_000}).encode()[:-2]
    (d / "oversized.jsonl").write_bytes(b"\n".join([good, big, json.dumps({"id": "after"}).encode(), cut]))
    (d / "utf16_more.jsonl").write_bytes(("\n".join([good.decode(), '{"id": "bad"', ""])).encode("utf-16"))
    return d


@pytest.mark.postgres
def test_malformed_lines_wrong_encodings_and_oversized_lines_get_the_local_verdicts(cluster, pg_url, tmp_path):
    """The hostile set (UTF-16, invalid UTF-8, NUL bytes, 50,000-deep nesting, HTML payloads, ...),
    truncated and binary lines, a BOM, CRLF, lines over the size limit (the limit comes from the
    driver's environment): the same verdict for every line as locally, every line stored once,
    and a second run stores nothing."""
    d = _hostile_dir(tmp_path)
    limit = {"STEPSCOPE_MAX_LINE_BYTES": "200000"}
    files = sorted(p for p in d.iterdir())
    local = local_verdicts(files, tmp_path, env=limit)
    unreadable = sum(1 for v in map(json.loads, local) if v["domain"] == "unknown")
    assert unreadable >= 10

    out = tmp_path / "ray.jsonl"
    args = ("audit", str(d), "--engine", "ray", "--address", cluster, "--db", pg_url, "--out", str(out))
    proc = run_cli(*args, env=limit)
    assert proc.returncode == 0, proc.stderr.decode()[-4000:]
    assert out.read_text(encoding="utf-8").splitlines() == local
    assert summary_value(proc.stderr, "unreadable (parse.ok=false)") == f"{unreadable:,}"
    over = [json.loads(v) for v in local if "over the limit of 200,000" in v]
    assert len(over) == 2 and all(v["parse"]["errors"][0]["line"] in (2, 4) for v in over)

    engine = sa.create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        n_records, n_hashes = conn.execute(sa.text("SELECT COUNT(*), COUNT(DISTINCT content_hash) FROM record")).one()
        n_verdicts = conn.execute(sa.text("SELECT COUNT(*) FROM trace_verdict")).scalar()
        malformed = conn.execute(sa.text("SELECT COUNT(*) FROM record WHERE status = 'malformed'")).scalar()
        truncated = conn.execute(sa.text("SELECT COUNT(*) FROM record WHERE raw_truncated")).scalar()
    assert n_records == n_hashes == n_verdicts and malformed >= 10 and truncated == 2
    assert int(summary_value(proc.stderr, "new records stored").replace(",", "")) == n_records

    again = run_cli(*args, env=limit)
    assert again.returncode == 0, again.stderr.decode()[-4000:]
    assert out.read_text(encoding="utf-8").splitlines() == local
    assert summary_value(again.stderr, "new records stored") == "0"
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT COUNT(*) FROM record")).scalar() == n_records
        assert conn.execute(sa.text("SELECT COUNT(*) FROM trace_verdict")).scalar() == n_verdicts
    engine.dispose()


def _audit_workers() -> list[psutil.Process]:
    """Worker processes of this test's cluster (descendants of this process) running an audit task."""
    found = []
    for p in psutil.Process().children(recursive=True):
        try:
            if " ".join(p.cmdline()).startswith(MAP_TASK_TITLE):
                found.append(p)
        except psutil.Error:
            continue
    return found


@pytest.mark.postgres
def test_a_worker_killed_mid_run_loses_nothing_and_stores_nothing_twice(cluster, pg_url, tmp_path):
    """SIGKILL to the worker process of a running audit task, after part of the input is stored:
    Ray runs the task again, the run completes with a verdict per line identical to the local
    engine's, and PostgreSQL holds every record and its results exactly once (the app's queries
    see them all)."""
    src = tmp_path / "dev.jsonl"
    lines = [line for f in sorted(DEV_DATA.glob("*.jsonl")) for line in f.read_bytes().splitlines() if line.strip()]
    src.write_bytes(b"\n".join(lines) + b"\n")
    local = local_verdicts([src], tmp_path)

    out = tmp_path / "ray.jsonl"
    proc = subprocess.Popen([sys.executable, "cli.py", "audit", str(src), "--engine", "ray", "--address", cluster,
                             "--db", pg_url, "--out", str(out)], cwd=REPO, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    engine = sa.create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    killed, stored_at_kill = None, None
    deadline = time.monotonic() + 200
    try:
        while killed is None and time.monotonic() < deadline and proc.poll() is None:
            stored = 0
            try:
                with engine.connect() as conn:
                    stored = conn.execute(sa.text("SELECT COUNT(*) FROM trace_verdict")).scalar()
            except sa.exc.ProgrammingError:
                pass  # the schema is being migrated
            workers = _audit_workers() if stored else []
            if workers:
                victim = workers[0]
                stored_at_kill = stored
                os.kill(victim.pid, signal.SIGKILL)
                killed = victim.pid
            else:
                time.sleep(0.1)
        stdout, stderr = proc.communicate(timeout=280)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert killed is not None, "no audit task was caught running"
    assert 0 < stored_at_kill < len(lines), "the kill did not land in the middle of the run"
    assert not psutil.pid_exists(killed) or psutil.Process(killed).status() == psutil.STATUS_ZOMBIE
    assert proc.returncode == 0, stderr.decode()[-4000:]
    assert out.read_text(encoding="utf-8").splitlines() == local  # nothing lost, nothing twice, in order

    local_db = sa.create_engine(f"sqlite:///{tmp_path / 'local.db'}")
    checks = {
        "records": "SELECT COUNT(*) FROM record",
        "distinct content": "SELECT COUNT(DISTINCT content_hash) FROM record",
        "verdicts": "SELECT COUNT(*) FROM trace_verdict",
        "steps": "SELECT COUNT(*) FROM step",
        "steps per verdicts": "SELECT COALESCE(SUM(n_steps), 0) FROM trace_verdict",
        "step verdicts": "SELECT COUNT(*) FROM step_verdict",
        "gaps": "SELECT COUNT(*) FROM verdict_gap",
    }
    with engine.connect() as conn, local_db.connect() as lconn:
        got = {k: conn.execute(sa.text(q)).scalar() for k, q in checks.items()}
        want = {k: lconn.execute(sa.text(q)).scalar() for k, q in checks.items()}
        pg_verdicts = sorted(r[0] for r in conn.execute(sa.text("SELECT verdict_json FROM trace_verdict")))
        local_stored = sorted(r[0] for r in lconn.execute(sa.text("SELECT verdict_json FROM trace_verdict")))
    assert got == want
    assert got["records"] == got["distinct content"] == got["verdicts"] and got["steps"] == got["steps per verdicts"]
    assert pg_verdicts == local_stored
    engine.dispose()
    local_db.dispose()

    from db.engine import dispose_engines, make_engine
    from db.queries import CorpusFilter, filtered_pks, verdict_rows

    rows = verdict_rows(make_engine(pg_url), pks=filtered_pks(make_engine(pg_url), CorpusFilter()))
    assert len(rows) == got["records"]
    # The killed task's transaction took its tally updates with it; the retry counted once.
    from tests.test_tally import assert_tallies_match_rows
    assert_tallies_match_rows(make_engine(pg_url))
    dispose_engines()


def test_input_that_cannot_be_read_fails_clearly(tmp_path):
    proc = run_cli("audit", str(tmp_path / "nope.jsonl"), "--engine", "ray")
    assert proc.returncode == 2 and b"no such file or directory" in proc.stderr
    proc = run_cli("audit", str(tmp_path / "*.jsonl"), "--engine", "ray")
    assert proc.returncode == 2 and b"no file matches" in proc.stderr
    (tmp_path / "notes.txt").write_text("x")
    proc = run_cli("audit", str(tmp_path), "--engine", "ray")
    assert proc.returncode == 2 and b"holds no .jsonl" in proc.stderr
    proc = run_cli("audit", "-", "--engine", "ray")
    assert proc.returncode == 2 and b"not standard input" in proc.stderr
