"""Hostile and malformed input through the real audit command: a verdict per line, every line
stored, clear messages, no exception, bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from tests.conftest import REPO

HOSTILE = REPO / "tests" / "hostile"


def _audit(path: Path, db: str, *extra: str) -> tuple[list[dict], str]:
    proc = subprocess.run([sys.executable, "cli.py", "audit", str(path), "--db", db, *extra], cwd=REPO,
                          capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return [json.loads(line) for line in proc.stdout.decode().splitlines()], proc.stderr.decode()


def _scalar(db: str, sql: str):
    eng = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://"))
    with eng.connect() as conn:
        out = conn.execute(sa.text(sql)).scalar()
    eng.dispose()
    return out


def test_hostile_corpus_gets_a_verdict_per_line_and_everything_is_stored(db_url):
    expected_lines = {"empty.jsonl": 0, "bom_only.jsonl": 0, "utf16.jsonl": 2, "invalid_utf8.jsonl": 2,
                      "nul_bytes.jsonl": 2, "nested.jsonl": 2, "hostile.jsonl": 8}
    total = 0
    by_id: dict[str, dict] = {}
    for name, n in expected_lines.items():
        verdicts, _ = _audit(HOSTILE / name, db_url)
        assert len(verdicts) == n, name
        total += n
        for v in verdicts:
            json.dumps(v)
            if v["id"]:
                by_id[v["id"]] = v
    assert _scalar(db_url, "SELECT COUNT(*) FROM record") == total
    assert _scalar(db_url, "SELECT COUNT(*) FROM trace_verdict") == total

    assert "not valid UTF-8" in by_id["bad-utf8"]["parse"]["errors"][0]["message"]
    assert by_id["good-after"]["parse"]["ok"]
    assert by_id["u16-1"]["parse"]["ok"]
    assert "NUL" in by_id["nul-raw"]["parse"]["errors"][0]["message"]
    assert by_id["nul-escaped"]["parse"]["ok"]
    assert "nested too deeply" in by_id["deep"]["parse"]["errors"][0]["message"]
    assert by_id["shallow"]["parse"]["ok"]
    for rid in ("xss-1", "maze-huge", "maze-negative", "pddl-unknown-pred", "plan-wrong-arity", "countdown-huge",
                "hanoi-huge", "lark-deep"):
        assert rid in by_id, rid
        v = by_id[rid]
        assert v["answer_correct"] in (True, False, None)
        if v["answer_correct"] is None:
            assert v["answer_error"]["message"]
    # VAL crashes on wrong arity (reference-semantics §4.4); we reject the plan with a reason.
    assert by_id["plan-wrong-arity"]["answer_correct"] is False
    assert by_id["plan-wrong-arity"]["answer_error"]["kind"] == "unparseable"
    assert "takes 2 arguments" in by_id["plan-wrong-arity"]["answer_error"]["message"]
    assert "nested too deeply" in by_id["lark-deep"]["answer_error"]["message"]
    assert "declared" in by_id["pddl-unknown-pred"]["answer_error"]["message"]


def test_a_100_mb_single_line_is_refused_clearly_and_the_rest_goes_through(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as fh:
        fh.write(b'{"id": "huge", "trace": "')
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            fh.write(chunk)
        fh.write(b'"}\n{"id": "after-huge", "trace": "small"}\n')
    db = f"sqlite:///{tmp_path / 'big.db'}"
    proc = subprocess.run(
        [sys.executable, "-c",
         "import runpy, sys; sys.argv = ['cli.py', 'audit', sys.argv[1], '--db', sys.argv[2]];"
         "sys.path.insert(0, '.');"
         "code = 0\n"
         "try:\n runpy.run_path('cli.py', run_name='__main__')\n"
         "except SystemExit as e:\n code = e.code\n"
         # VmHWM belongs to this process image; ru_maxrss would carry pytest's own peak across exec.
         "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
         "print('PEAK', hwm, file=sys.stderr); sys.exit(code)",
         str(big), db], cwd=REPO, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    verdicts = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [v["id"] for v in verdicts] == ["huge", "after-huge"]
    assert "over the limit" in verdicts[0]["parse"]["errors"][0]["message"]
    assert verdicts[1]["parse"]["ok"]
    peak_kib = int(proc.stderr.decode().split("PEAK")[1].split()[0])
    assert peak_kib < 400 * 1024, f"peak RSS {peak_kib / 1024:.0f} MB (a 64 MB line limit plus the interpreter)"
    assert _scalar(db, "SELECT COUNT(*) FROM record WHERE raw_truncated") == 1


def test_a_million_tiny_lines_stream_in_bounded_memory():
    import io
    import tracemalloc

    from records_io.intake import iter_jsonl

    data = b"1\n" * 1_000_000
    tracemalloc.start()
    n = bad = 0
    for unit in iter_jsonl(io.BufferedReader(io.BytesIO(data))):
        n += 1
        bad += unit.record is None
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == bad == 1_000_000
    assert peak < 5 * 2**20, f"peak {peak / 2**20:.1f} MB while streaming"
