"""The audit command as record-format §3 specifies it, run as a real subprocess."""

import json
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from tests.conftest import REPO, dev_path


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "cli.py", *args], cwd=REPO, input=stdin,
                          capture_output=True, timeout=240)


def _count(db_url: str, sql: str) -> int:
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        n = conn.execute(sa.text(sql)).scalar()
    engine.dispose()
    return n


def test_planbench_plans_one_verdict_per_line_same_ids_same_order(db_url, tmp_path):
    src = dev_path("planbench_plans.jsonl")
    out = tmp_path / "v.jsonl"
    proc = run_cli("audit", str(src), "--out", str(out), "--db", db_url)
    assert proc.returncode == 0, proc.stderr.decode()
    ids = [json.loads(line)["id"] for line in src.read_text().splitlines() if line.strip()]
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert [v["id"] for v in verdicts] == ids
    for v in verdicts:
        assert v["answer_correct"] in (True, False, None)
        if v["answer_correct"] is None:
            assert v["answer_error"]["message"]
    assert "Stepscope audit summary" in proc.stderr.decode()
    assert _count(db_url, "SELECT COUNT(*) FROM record") == len(ids)


def test_mixed_bad_input_gives_a_verdict_for_every_line_and_stores_good_records(db_url, tmp_path):
    good = [{"id": f"ok{i}", "domain": "freeform", "trace": f"step {i}\n\nnext", "answer": str(i)} for i in range(3)]
    lines = [
        json.dumps(good[0]).encode(),
        b'{"id": "trunc", "domain": "freeform", "trace": "half a rec',
        json.dumps(good[1]).encode(),
        b"<<< definitely not json >>>",
        bytes(b for b in range(256) if b != 10),
        json.dumps(good[2]).encode(),
    ]
    src = tmp_path / "mixed.jsonl"
    src.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "v.jsonl"
    proc = run_cli("audit", str(src), "--out", str(out), "--db", db_url)
    assert proc.returncode == 0, proc.stderr.decode()
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(verdicts) == 6
    assert [v["parse"]["ok"] for v in verdicts] == [True, False, True, False, False, True]
    assert [v["id"] for v in verdicts] == ["ok0", "trunc", "ok1", None, None, "ok2"]
    for v in (verdicts[1], verdicts[3], verdicts[4]):
        assert v["parse"]["errors"][0]["message"]
    assert _count(db_url, "SELECT COUNT(*) FROM record WHERE status = 'ok'") == 3
    assert _count(db_url, "SELECT COUNT(*) FROM record WHERE status = 'malformed'") == 3
    # Running the same file again stores nothing twice.
    assert run_cli("audit", str(src), "--out", str(out), "--db", db_url).returncode == 0
    assert _count(db_url, "SELECT COUNT(*) FROM record") == 6


def test_stdin_default_stdout_and_workers_give_identical_verdicts(tmp_path):
    rows = [{"id": f"r{i}", "domain": "freeform", "trace": "a\n\nb\n\nc" * (i % 5 + 1)} for i in range(40)]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    one = run_cli("audit", "-", "--db", f"sqlite:///{tmp_path / 'one.db'}", stdin=data)
    two = run_cli("audit", "-", "--db", f"sqlite:///{tmp_path / 'two.db'}", "--workers", "2", stdin=data)
    assert one.returncode == two.returncode == 0, two.stderr.decode()
    assert one.stdout == two.stdout
    assert [json.loads(l)["id"] for l in one.stdout.decode().splitlines()] == [r["id"] for r in rows]


def test_missing_input_and_bad_database_fail_clearly(tmp_path):
    proc = run_cli("audit", str(tmp_path / "nope.jsonl"), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert proc.returncode == 2 and b"cannot read" in proc.stderr
    proc = run_cli("audit", "-", "--db", "postgresql://nobody@127.0.0.1:1/none", stdin=b"")
    assert proc.returncode == 2 and b"cannot open database" in proc.stderr


def test_reaudit_reruns_only_outdated_verdicts(db_url, tmp_path):
    """A verdict made by an older validator version is re-run (by `cli.py reaudit`), others are
    left alone; the re-run replaces steps and verdicts and keeps the record."""
    src = dev_path("planbench_plans.jsonl")
    lines = [line for line in src.read_text().splitlines() if line.strip()][:12]
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines) + "\n")
    assert run_cli("audit", str(part), "--out", str(tmp_path / "v.jsonl"), "--db", db_url).returncode == 0
    fresh = {r: (v, n) for r, v, n in _rows(db_url, "SELECT record_pk, verdict_json, n_steps FROM trace_verdict")}
    _exec(db_url, "UPDATE trace_verdict SET validator = 'blocksworld@0+pipeline@0', verdict_json = '{}', n_steps = -1 "
                  "WHERE record_pk IN (SELECT pk FROM record ORDER BY pk LIMIT 5)")
    _exec(db_url, "DELETE FROM step WHERE record_pk IN (SELECT pk FROM record ORDER BY pk LIMIT 5)")

    from db.engine import dispose_engines, make_engine
    from pipeline import stale_count
    assert stale_count(make_engine(db_url)) == 5
    dispose_engines()
    proc = run_cli("reaudit", "--db", db_url)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "re-audited 5 record(s)" in proc.stderr.decode()
    after = {r: (v, n) for r, v, n in _rows(db_url, "SELECT record_pk, verdict_json, n_steps FROM trace_verdict")}
    assert after == fresh
    assert _count(db_url, "SELECT COUNT(*) FROM step") == sum(n for _, n in fresh.values())
    assert "re-audited 0 record(s)" in run_cli("reaudit", "--db", db_url).stderr.decode()


def _rows(db_url: str, sql: str) -> list:
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(sa.text(sql))]
    engine.dispose()
    return rows


def _exec(db_url: str, sql: str) -> None:
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        conn.execute(sa.text(sql))
    engine.dispose()


def test_export_writes_a_filtered_view_in_every_format(db_url, tmp_path):
    import pandas as pd

    records = [
        {"id": "x-bad", "domain": "freeform", "model": "m1", "trace": "So 7 * 8 = 54.", "answer": "54"},
        {"id": "x-ok", "domain": "freeform", "model": "m1", "trace": "So 7 * 8 = 56.", "answer": "56"},
        {"id": "x-other", "domain": "countdown", "model": "m2", "trace": "", "answer": "1 + 1 = 2",
         "problem": {"numbers": [1, 1], "target": 2}},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run_cli("audit", str(src), "--out", str(tmp_path / "v.jsonl"), "--db", db_url).returncode == 0

    proc = run_cli("export", "--db", db_url, "--format", "csv", "--domain", "freeform", "--trace", "invalid")
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 2 and lines[1].startswith("x-bad,") and "arithmetic_claim_false" in lines[1]

    out = tmp_path / "all.parquet"
    assert run_cli("export", "--db", db_url, "--format", "parquet", "--out", str(out)).returncode == 0
    frame = pd.read_parquet(out)
    assert sorted(frame["record_id"]) == ["x-bad", "x-ok", "x-other"]
    assert str(frame["trace_valid"].dtype) == "boolean" and str(frame["n_invalid"].dtype) == "Int64"

    html_out = tmp_path / "r.html"
    proc = run_cli("export", "--db", db_url, "--format", "html", "--rule", "arithmetic_claim_false",
                   "--base-url", "http://stepscope.example:8501", "--out", str(html_out))
    assert proc.returncode == 0
    page = html_out.read_text()
    assert "<script" not in page and "x-ok" not in page and "x-bad" in page
    assert "http://stepscope.example:8501/explorer?trace=" in page and "&amp;step=0" in page
    assert "<details>" in page
    assert run_cli("export", "--db", db_url, "--format", "parquet").returncode == 2  # parquet needs --out


def test_the_local_engine_never_imports_ray_and_writes_parquet_verdicts(tmp_path):
    """Ray is an optional extra: a default audit runs without importing it. `--out *.parquet`
    writes the same verdicts as JSONL, one row each."""
    import pyarrow.parquet as pq

    rows = [{"id": f"p{i}", "domain": "freeform", "trace": f"So {i} + 1 = {i + 1}.", "answer": str(i + 1)}
            for i in range(5)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    script = ("import sys, cli\n"
              "rc = cli.main(sys.argv[1:])\n"
              "print('ray imported' if 'ray' in sys.modules else 'no ray')\n"
              "sys.exit(rc)\n")
    db = f"sqlite:///{tmp_path / 'x.db'}"
    proc = subprocess.run([sys.executable, "-c", script, "audit", str(src), "--db", db, "--out", str(tmp_path / "v.parquet")],
                          cwd=REPO, capture_output=True, timeout=240)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().strip() == "no ray"
    assert run_cli("audit", str(src), "--db", db, "--out", str(tmp_path / "v.jsonl")).returncode == 0
    table = pq.read_table(tmp_path / "v.parquet")
    assert table.column("verdict_json").to_pylist() == (tmp_path / "v.jsonl").read_text().splitlines()
    assert table.column("line").to_pylist() == [1, 2, 3, 4, 5, 6]
    assert table.column("unreadable").to_pylist() == [False] * 5 + [True]


def test_ray_engine_refuses_sqlite_and_says_how_to_install_ray(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "domain": "freeform", "trace": "x"}) + "\n")
    proc = run_cli("audit", str(src), "--engine", "ray", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert proc.returncode == 2 and b"must be a PostgreSQL URL" in proc.stderr
    # Without the extra (simulated by making `import ray` fail), the message says what to install.
    script = "import sys; sys.modules['ray'] = None; import cli; sys.exit(cli.main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", script, "audit", str(src), "--engine", "ray"], cwd=REPO,
                          capture_output=True, timeout=240)
    assert proc.returncode == 2 and b"requirements-ray.txt" in proc.stderr
