"""Issue 37 item 1: a record is one record however it arrived. Demo records are marked, leave
when the user's own data arrives (or by one click), and no aggregate counts a copy twice."""

from __future__ import annotations

import io
import json

import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from records_io.intake import iter_jsonl
from db.engine import make_engine
from db.problems import problem_records, problems_with_samples, selection_metrics
from db.queries import corpus_counts
from db.store import demo_pending, demo_pks
from pipeline import DEMO_FILE, audit_units, load_demo
from tests.conftest import REPO, SAMPLE_DATA

# The sample dev files hold every demo record again (without meta.demo).
DEV_FILES = ("countdown_sos.jsonl", "maze_beyond_semantics.jsonl", "planbench_plans.jsonl",
             "planbench_r1_thinking.jsonl", "planbench_verification.jsonl")


def _upload(engine, data: bytes, source: str) -> list:
    return list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), engine, source=source))


def _records(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM record")).scalar_one()


def test_demo_then_the_dev_files_store_each_record_once(db_url, monkeypatch) -> None:
    monkeypatch.setenv("STEPSCOPE_DEMO", "1")
    engine = make_engine(db_url)
    assert load_demo(engine) == 30
    assert demo_pending(engine) and len(demo_pks(engine)) == 30
    distinct: set[str] = set()
    for name in DEV_FILES:
        data = (SAMPLE_DATA / name).read_bytes()
        distinct |= {json.loads(line)["id"] for line in data.splitlines() if line.strip()}
        _upload(engine, data, name)
    # The demo records left when the first file arrived; every record is stored once.
    assert not demo_pending(engine) and demo_pks(engine) == []
    assert _records(engine) == len(distinct)
    assert corpus_counts(engine).records == len(distinct)
    # A later start does not bring them back.
    assert load_demo(engine) == 0


def test_a_demo_copy_of_a_stored_record_is_not_a_second_record(db_url) -> None:
    engine = make_engine(db_url)
    line = (SAMPLE_DATA / "countdown_sos.jsonl").read_bytes().splitlines()[0]
    first = _upload(engine, line + b"\n", "mine.jsonl")
    obj = json.loads(line)
    obj["meta"] = {**obj.get("meta", {}), "demo": True}
    again = _upload(engine, json.dumps(obj).encode() + b"\n", "copy.jsonl")
    assert first[0].new and not again[0].new and again[0].record_pk == first[0].record_pk
    assert _records(engine) == 1


def _sample(rid: str, model: str, answer: str, note: str = "") -> dict:
    return {"id": rid, "domain": "countdown", "format": "sos", "model": model,
            "problem": {"numbers": [1, 2, 3], "target": 6}, "trace": "", "answer": answer,
            "meta": {"note": note} if note else {}}


def test_copies_sharing_a_record_id_count_once_in_every_aggregate(db_url) -> None:
    engine = make_engine(db_url)
    rows = [_sample("a", "m", "1 + 2 + 3 = 6"), _sample("b", "m", "1 * 2 = 2"),
            # the same record again, stored under another content hash (a meta edit)
            _sample("b", "m", "1 * 2 = 2", note="uploaded again"), _sample("b", "m", "1 * 2 = 2", note="and again")]
    _upload(engine, "".join(json.dumps(r) + "\n" for r in rows).encode(), "runs.jsonl")
    assert _records(engine) == 4
    [problem] = problems_with_samples(engine)
    assert problem["samples"] == 2 and problem["correct"] == 1
    assert len(problem_records(engine, problem["problem_hash"])) == 2
    row = next(r for r in selection_metrics(engine) if r.model == "m")
    assert row.samples == 2 and row.pass_at_1 == 0.5


def test_home_marks_demo_data_and_removes_it_with_one_click(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "1")
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert any("demo data" in i.value for i in at.info)
    at.button(key="remove_demo").click().run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Traces stored"] == "0"
    assert not any("demo data" in i.value for i in at.info)
    assert DEMO_FILE.exists()
