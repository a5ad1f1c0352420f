"""Crash recovery and concurrent writers, on SQLite (WAL) and PostgreSQL."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import sqlalchemy as sa

from db.engine import database_url, make_engine
from db.store import add_comment
from tests.conftest import REPO


def _write_records(path, n: int, prefix: str, offset: int = 0) -> None:
    with open(path, "w") as fh:
        for i in range(offset, offset + n):
            fh.write(json.dumps({"id": f"{prefix}{i}", "domain": "freeform", "model": "m",
                                 "trace": f"thought {i}\n\nmore {i}", "answer": str(i)}) + "\n")


def _scalar(url: str, sql: str):
    eng = sa.create_engine(database_url(url))
    try:
        with eng.connect() as conn:
            return conn.execute(sa.text(sql)).scalar()
    finally:
        eng.dispose()


def test_sigkill_mid_run_then_rerun_stores_every_record_exactly_once(db_url, tmp_path):
    n = 12_000
    src = tmp_path / "big.jsonl"
    _write_records(src, n, "k")
    make_engine(db_url)  # schema in place before the race
    cmd = [sys.executable, "cli.py", "audit", str(src), "--out", str(tmp_path / "v1.jsonl"), "--db", db_url]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        stored = _scalar(db_url, "SELECT COUNT(*) FROM record")
        if stored and stored > 1500:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = _scalar(db_url, "SELECT COUNT(*) FROM record")
    assert 0 < partial < n, "the kill should land mid-run"

    rerun = subprocess.run([*cmd[:-4], "--out", str(tmp_path / "v2.jsonl"), "--db", db_url], cwd=REPO,
                           capture_output=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr.decode()
    assert _scalar(db_url, "SELECT COUNT(*) FROM record") == n
    assert _scalar(db_url, "SELECT COUNT(DISTINCT record_id) FROM record") == n
    assert _scalar(db_url, "SELECT COUNT(*) FROM trace_verdict") == n
    assert _scalar(db_url, "SELECT COUNT(*) FROM step") == 2 * n
    verdicts = (tmp_path / "v2.jsonl").read_text().splitlines()
    assert len(verdicts) == n and json.loads(verdicts[-1])["id"] == f"k{n - 1}"


def test_two_uploads_and_comments_at_once_lose_nothing(db_url, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _write_records(a, 3000, "c", 0)
    _write_records(b, 3000, "c", 1500)  # half overlaps with a
    engine = make_engine(db_url)
    seed = subprocess.run([sys.executable, "cli.py", "audit", "-", "--db", db_url], cwd=REPO, capture_output=True,
                          input=json.dumps({"id": "seed", "trace": "x"}).encode(), timeout=60)
    assert seed.returncode == 0
    seed_pk = _scalar(db_url, "SELECT pk FROM record WHERE record_id = 'seed'")
    procs = [subprocess.Popen([sys.executable, "cli.py", "audit", str(p), "--db", db_url], cwd=REPO,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for p in (a, b, b)]
    errors: list[str] = []

    def commenter() -> None:
        for i in range(60):
            try:
                add_comment(engine, seed_pk, 0, "bot", f"comment {i}")
            except Exception as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(repr(exc))

    t = threading.Thread(target=commenter)
    t.start()
    outs = [p.communicate(timeout=300)[1].decode() for p in procs]
    t.join()
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    assert not any("locked" in o for o in outs)
    assert errors == []
    assert _scalar(db_url, "SELECT COUNT(*) FROM record") == 4500 + 1
    assert _scalar(db_url, "SELECT COUNT(*) FROM trace_verdict") == 4500 + 1
    assert _scalar(db_url, "SELECT COUNT(*) FROM comment") == 60
    assert _scalar(db_url, "SELECT COUNT(*) FROM step") == 2 * 4500 + 1
