"""The upload page reads every source as `cli.py audit` does (sources/inputs.py is the one path):
an lm-evaluation-harness sample log and a Parquet table of a dataset's columns, uploaded, store
the verdicts the CLI gives the same files, and the page says how it read each file."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from db.engine import make_engine
from db.queries import verdict_rows
from tests.test_hf_dataset_source import HF_NAMES, dataset_rows
from tests.test_lm_eval_source import GSM8K, audit
from tests.test_pages import app  # noqa: F401 - the AppTest factory fixture


def _upload(make, name: str, data: bytes):
    at = make("upload").run()
    at.file_uploader[0].set_value((name, data, "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    assert not at.exception
    return at


def _upload_beside_a_good_file(make, name: str, data: bytes):
    """Upload `name` with a good JSONL file beside it; the good file's record is always stored."""
    at = make("upload").run()
    at.file_uploader[0].set_value([(name, data, "application/octet-stream"),
                                   ("ok.jsonl", b'{"id": "k1", "domain": "freeform", "trace": "One.", "answer": "1"}\n',
                                    "application/octet-stream")])
    at.run()
    at.button[0].click().run()
    assert not at.exception
    assert "k1" in _stored(make.url)
    return at


def _stored(url: str) -> dict[str, dict]:
    return {r["record_id"]: r["verdict"] for r in verdict_rows(make_engine(url))}


def _without_id(verdict: dict) -> dict:
    return {k: v for k, v in verdict.items() if k != "id"}


def test_an_lm_eval_sample_log_uploads_as_the_cli_reads_it(app, tmp_path):  # noqa: F811 - the fixture
    cli_verdicts, _ = audit(GSM8K, f"sqlite:///{tmp_path / 'cli.db'}", tmp_path / "v.jsonl")
    at = _upload(app, GSM8K.name, GSM8K.read_bytes())
    stored = _stored(app.url)
    assert sorted(stored) == sorted(v["id"] for v in cli_verdicts)
    for v in cli_verdicts:
        assert _without_id(stored[v["id"]]) == _without_id(v)
    shown = " ".join(c.value for c in at.caption)
    assert f"{GSM8K.name}: lm_eval (the file name samples_<task>_<date>.jsonl)" in shown


def test_a_parquet_table_of_dataset_columns_uploads_as_the_cli_reads_it(app, tmp_path):  # noqa: F811
    path = tmp_path / "generations.parquet"
    pq.write_table(pa.Table.from_pylist(dataset_rows(HF_NAMES)), path)
    cli_verdicts, _ = audit(path, f"sqlite:///{tmp_path / 'cli.db'}", tmp_path / "v.jsonl")
    at = _upload(app, path.name, path.read_bytes())
    stored = _stored(app.url)
    assert sorted(stored) == ["q1", "q2", "q3", "q4"]
    for v in cli_verdicts:
        assert stored[v["id"]] == v
    shown = " ".join(c.value for c in at.caption)
    assert "generations.parquet: hf_dataset (Parquet columns that are not the record format); columns id <- qid" in shown


def test_an_unreadable_table_is_one_problem_with_its_reason_and_the_other_files_go_through(app, tmp_path):  # noqa: F811
    at = _upload_beside_a_good_file(app, "broken.parquet", b"PAR1" + b"\x00" * 64)
    problems = next(d.value for d in at.dataframe if "problem" in d.value.columns)
    assert list(problems["file line"]) == [1]
    assert problems["problem"][0].startswith("not a readable Parquet file: ArrowInvalid")
    assert "broken.parquet: record (the default)" in " ".join(c.value for c in at.caption)


def test_an_inspect_log_uploads_as_the_cli_reads_it(app, tmp_path):  # noqa: F811
    pytest.importorskip("inspect_ai", reason="Inspect is an optional extra (requirements-inspect.txt)")
    from tests.test_inspect_source import SAMPLES, run_eval

    log = run_eval(tmp_path / "logs", SAMPLES[2:])["arith"]
    cli_verdicts, _ = audit(log, f"sqlite:///{tmp_path / 'cli.db'}", tmp_path / "v.jsonl")
    at = _upload(app, log.name, log.read_bytes())
    stored = _stored(app.url)
    assert sorted(stored) == sorted(v["id"] for v in cli_verdicts)
    for v in cli_verdicts:
        assert stored[v["id"]] == v
    assert f"{log.name}: inspect (a .eval file (an Inspect log archive)); inspect task arith -> domain freeform" \
        in " ".join(c.value for c in at.caption)


def test_without_the_inspect_extra_an_eval_upload_is_refused_and_others_go_through(app, monkeypatch):  # noqa: F811
    monkeypatch.setattr("sources.inspect_log.have_inspect", lambda: False)
    at = _upload_beside_a_good_file(app, "run.eval", b"PK\x03\x04 an archive")
    assert any("run.eval: the Inspect log source needs the inspect extra" in e.value for e in at.error)


@pytest.fixture
def app_in(db_url, monkeypatch):
    """The upload page on a database of each kind (SQLite, and PostgreSQL where CI gives one)."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import REPO

    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", db_url)
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")

    def make(page: str) -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        at.switch_page(f"app_pages/{page}.py")
        return at

    make.url = db_url
    return make


def test_uploads_store_what_the_cli_stores_in_each_database(app_in, tmp_path):
    cli_verdicts, _ = audit(GSM8K, f"sqlite:///{tmp_path / 'cli.db'}", tmp_path / "v.jsonl")
    _upload(app_in, GSM8K.name, GSM8K.read_bytes())
    stored = _stored(app_in.url)
    assert sorted(stored) == sorted(v["id"] for v in cli_verdicts)
    for v in cli_verdicts:
        assert _without_id(stored[v["id"]]) == _without_id(v)


def test_an_upload_reads_a_table_with_the_column_map_the_cli_was_given(app_in, tmp_path):
    """Issue 38: a --map is remembered per table layout, in the database, for the CLI and the page alike."""
    from tests.test_hf_dataset_source import OWN_NAMES

    first = tmp_path / "week1.parquet"
    pq.write_table(pa.Table.from_pylist(dataset_rows(OWN_NAMES)), first)
    cli_verdicts, _ = audit(first, app_in.url, tmp_path / "v.jsonl", "--map",
                            "trace=thoughts,answer=final,id=key,domain=kind,model=llm")
    second = tmp_path / "week2.parquet"
    pq.write_table(pa.Table.from_pylist([{**r, "key": r["key"] + "-2"} for r in dataset_rows(OWN_NAMES)]), second)
    at = _upload(app_in, second.name, second.read_bytes())
    shown = " ".join(c.value for c in at.caption)
    assert "trace <- thoughts (given)" in shown and "given by an earlier --map for these columns" in shown
    stored = _stored(app_in.url)
    for v in cli_verdicts:
        assert _without_id(stored[v["id"] + "-2"]) == _without_id(v)
