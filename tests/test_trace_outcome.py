"""Issue 37 item 2: one outcome, one name. A thinking trace whose judged claims all hold but some
were left unjudged is "no error found" everywhere, `trace_check` tells it from "not checked" in
the verdict JSON, and the upload summary counts invalid traces too."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import sqlalchemy as sa

from records_io.intake import iter_jsonl
from records_io.report import summary as report_summary, to_csv, to_html
from db.engine import make_engine
from db.queries import CorpusFilter, corpus_matrix, list_traces, verdict_rows
from db.summary import summary
from pipeline import audit_units
from tests.conftest import REPO, SAMPLE_DATA
from tests.test_pages import _upload, app  # noqa: F401 - the AppTest factory fixture

R1 = (SAMPLE_DATA / "planbench_r1_thinking.jsonl").read_bytes().splitlines()
# Line 1 has unjudged claims and no false one; line 20 is invalid; line 5 is valid.
NO_ERROR, INVALID, VALID = R1[1], R1[20], R1[5]
UNCHECKED = json.dumps({"id": "nothing-to-check", "domain": "freeform", "trace": "Let me think about it.",
                        "answer": "yes"}).encode()
ALL = b"\n".join((NO_ERROR, INVALID, VALID, UNCHECKED)) + b"\n"
EXPECTED = {"3e6353d3e5053cdb": "no_error_found", "371a2541262a6fbd": "invalid", "501e90d3ca20bda5": "valid",
            "nothing-to-check": "not_checked"}


def _store(engine) -> list:
    return list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(ALL))), engine, source="four.jsonl"))


def test_the_verdict_json_tells_no_error_found_from_not_checked(db_url) -> None:
    outcomes = _store(make_engine(db_url))
    got = [(o.verdict["trace_valid"], o.verdict["trace_check"]) for o in outcomes]
    assert got == [(None, "no_error_found"), (False, "invalid"), (True, "valid"), (None, "not_checked")]


def test_filters_tallies_and_summaries_use_the_same_four_outcomes(db_url) -> None:
    engine = make_engine(db_url)
    _store(engine)
    for name, expected in (("no error found", ["3e6353d3e5053cdb"]), ("not checked", ["nothing-to-check"]),
                           ("invalid", ["371a2541262a6fbd"])):
        assert [r["record_id"] for r in list_traces(engine, CorpusFilter(trace=name))] == expected, name
    for from_rows in (False, True):
        traces = sorted(r["trace"] for r in corpus_matrix(engine, CorpusFilter(), from_rows=from_rows))
        assert traces == ["invalid", "no error found", "not checked", "valid"], from_rows
    tallied, counted = summary(engine, ()), summary(engine, (), from_rows=True)
    assert tallied == counted
    assert (tallied[0]["trace_no_error_found"], tallied[0]["trace_not_checked"]) == (1, 1)


def test_reports_name_the_outcome(db_url) -> None:
    engine = make_engine(db_url)
    _store(engine)
    rows = verdict_rows(engine)
    assert report_summary(rows)["traces"] == {"no error found": 1, "invalid": 1, "valid": 1, "not checked": 1}
    table = list(csv.DictReader(io.StringIO(to_csv(rows, None))))
    assert {r["record_id"]: r["trace_check"] for r in table} == EXPECTED
    assert "no error found</span>" in to_html(rows, None)


def test_a_database_migrated_from_version_10_names_the_outcome_of_old_rows(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    _store(engine)
    with engine.begin() as conn:  # as version 10 left them: no trace_check
        conn.execute(sa.text("UPDATE trace_verdict SET trace_check = NULL, verdict_json = "
                             "json_remove(verdict_json, '$.trace_check')"))
        conn.execute(sa.text("DELETE FROM schema_version WHERE version >= 11"))
        conn.execute(sa.text("ALTER TABLE trace_verdict DROP COLUMN trace_check"))
        conn.execute(sa.text("DROP TABLE outside_judgment"))  # migration 12, after it
        conn.execute(sa.text("DROP INDEX ix_comment_label"))  # and migration 13
        conn.execute(sa.text("ALTER TABLE comment DROP COLUMN label"))
        for column in ("quote", "quote_start", "quote_end"):  # and migration 14
            conn.execute(sa.text(f"ALTER TABLE comment DROP COLUMN {column}"))
    from db.engine import dispose_engines
    dispose_engines()
    engine = make_engine(url)
    assert sorted(r["trace"] for r in corpus_matrix(engine, CorpusFilter())) == [
        "invalid", "no error found", "not checked", "valid"]
    assert {r["record_id"]: r["verdict"]["trace_check"] for r in verdict_rows(engine)} == EXPECTED


def test_cli_audit_summary_counts_no_error_found_apart(tmp_path) -> None:
    src = tmp_path / "four.jsonl"
    src.write_bytes(ALL)
    proc = subprocess.run([sys.executable, "cli.py", "audit", str(src), "--db", f"sqlite:///{tmp_path / 'c.db'}",
                           "--out", str(tmp_path / "v.jsonl")], cwd=REPO, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = {" ".join(line.split()[:-1]): line.split()[-1] for line in proc.stderr.decode().splitlines()[1:]}
    assert lines["trace no error found"] == "1" and lines["trace not checked"] == "1"
    assert lines["trace invalid"] == "1" and lines["trace valid"] == "1"
    verdicts = [json.loads(v) for v in (tmp_path / "v.jsonl").read_text().splitlines()]
    assert [v["trace_check"] for v in verdicts] == ["no_error_found", "invalid", "valid", "not_checked"]


def test_upload_table_summary_and_explorer_say_no_error_found(app) -> None:  # noqa: F811
    at = _upload(app, ALL, "four.jsonl")
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Traces invalid"] == "1" and metrics["Traces valid"] == "1"
    assert metrics["Traces no error found"] == "1" and metrics["Traces not checked"] == "1"
    table = next(d.value for d in at.dataframe if "trace" in d.value.columns)
    labels = {"no_error_found": "no error found", "not_checked": "not checked"}
    assert dict(zip(table["id"], table["trace"])) == {k: labels.get(v, v) for k, v in EXPECTED.items()}
    engine = make_engine(app.url)
    with engine.connect() as conn:
        share = conn.execute(sa.text("SELECT share_id FROM record WHERE record_id = '3e6353d3e5053cdb'")).scalar_one()
    at = app("explorer", trace=share).run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Trace"] == "no error found"
    corpus = app("corpus", trace="no error found").run()
    assert not corpus.exception
    listed = next(d.value for d in corpus.dataframe if "record_id" in d.value.columns)
    assert list(listed["record_id"]) == ["3e6353d3e5053cdb"] and list(listed["trace"]) == ["no error found"]
