"""Reasoning summaries captured through the Responses API, end to end: the real litellm client
against the fake OpenAI-compatible server on 127.0.0.1 (real HTTP, real SSE events), the CLI
entry point and a real database (SQLite, and PostgreSQL where the URL is set). A summary is stored
and marked as one; it is never presented as the derivation."""

from __future__ import annotations

import json

import sqlalchemy as sa

import cli
from tests.fake_llm_server import FakeLLMServer, Reply
from tests.test_capture_live import KEY, _rows, test_domains, toy_record  # noqa: F401 (fixtures)

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'


def _capture(capsys, record, server, db_url, *extra):
    code = cli.main(["capture", str(record), "--model", "openai/o3-mini", "--api-base", server.api_base,
                     "--db", db_url, "--timeout", "10", "--api", "responses", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_a_summary_is_captured_stored_and_marked(capsys, toy_record, db_url):
    reply = Reply(summary_parts=[["I count ", "the blocks."], ["There are ", "seven."]], answer=["There are ", "7."])
    with FakeLLMServer([reply], required_key=KEY) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 0, err
    assert server.requests[0]["path"].endswith("/responses")
    assert report["trace"] == "I count the blocks.\n\nThere are seven."
    assert report["answer"] == "There are 7." and report["answer_correct"] is True
    assert report["trace_kind"] == "summary"
    assert "summary" in err and "not the reasoning" in err
    [row] = _rows(db_url, "SELECT trace, meta_json FROM record")
    assert row["trace"] == report["trace"] and json.loads(row["meta_json"])["trace_kind"] == "summary"
    [verdict] = _rows(db_url, "SELECT verdict_json FROM trace_verdict")
    assert json.loads(verdict["verdict_json"])["trace_kind"] == "summary"


def test_a_chat_capture_is_no_summary(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'chat.db'}"
    with FakeLLMServer([Reply(thinking=["one, two ... seven."], answer=["7"])], required_key=KEY) as server:
        code = cli.main(["capture", str(toy_record), "--model", "openai/fake-r1", "--api-base", server.api_base,
                         "--db", db_url, "--timeout", "10"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "trace_kind" not in json.loads(out)


def test_hostile_text_in_a_summary_is_text_in_the_reports(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'h.db'}"
    with FakeLLMServer([Reply(summary_parts=[[HOSTILE]], answer=["7"])], required_key=KEY) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 0, err
    assert report["trace"] == HOSTILE
    outs = {}
    for fmt in ("html", "csv"):
        out = tmp_path / f"export.{fmt}"
        assert cli.main(["export", "--db", db_url, "--format", fmt, "--out", str(out)]) == 0
        outs[fmt] = out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert "<script>alert(1)</script>" not in outs["html"] and 'onerror="alert' not in outs["html"]
    assert "summary" in outs["html"].lower() and "summary" in outs["csv"]


def test_a_stream_error_is_a_clear_message(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'e.db'}"
    with FakeLLMServer([Reply(summary_parts=[["Hmm."]], stream_error="the model is overloaded")],
                       required_key=KEY) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert "overloaded" in err
    assert "HTTP 500" not in err
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM trace_verdict")).scalar() in (0, 1)
