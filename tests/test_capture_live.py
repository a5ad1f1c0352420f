"""Live capture end to end against a real OpenAI-compatible server on 127.0.0.1 (tests/
fake_llm_server.py) through the real litellm client, the real CLI entry point and a real database.

The loop needs a validator that can say valid or invalid. Two small domains are registered for
these tests only (as tests/test_registries.py does): `toy_count` (the answer must end in the
target number) and a stand-in `blocksworld` that reports failures in the planning validator's
shape (answer_error with step, unmet, unmet_nl, action_nl), so the PlanBench back-prompt can be
checked without the planning branch.
"""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa

import cli
import validators.registry as registry
from core.verdicts import AnswerError
from tests.conftest import load_dev
from tests.fake_llm_server import FakeLLMServer, Reply
from validators.base import DomainSpec, Replay

KEY = "sk-test-Stepscope-0123456789abcdef"
GOOD_PLAN = "unstack the yellow block from on top of the red block\nput down the yellow block"


def _toy_replay(record, parsed) -> Replay:
    numbers = re.findall(r"-?\d+", record.answer)
    target = record.problem["target"]
    if numbers and int(numbers[-1]) == target:
        return Replay(answer_correct=True)
    said = numbers[-1] if numbers else "no number"
    return Replay(answer_correct=False, answer_error=AnswerError(
        "wrong_value", f"the answer says {said}, but there are {target}"))


def _blocks_replay(record, parsed) -> Replay:
    if record.answer.strip() == GOOD_PLAN:
        return Replay(answer_correct=True)
    unmet_nl = ["the blue block is clear", "the hand is currently holding orange block"]
    return Replay(answer_correct=False, answer_error=AnswerError(
        "unmet_precondition", step=2, unmet=["(clear b)", "(holding c)"],
        message="step 2 (stack the orange block on top of the blue block) has unmet preconditions: "
                "the blue block is clear and the hand is currently holding orange block",
        extra={"unmet_nl": unmet_nl, "action_nl": "stack the orange block on top of the blue block"}))


@pytest.fixture(autouse=True)
def test_domains(monkeypatch):
    domains = {"toy_count": DomainSpec("toy_count", "1", "test", _toy_replay),
               "blocksworld": DomainSpec("blocksworld", "test", "test stand-in", _blocks_replay)}
    monkeypatch.setattr(registry, "_domains", lambda: domains)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")


@pytest.fixture
def toy_record(tmp_path):
    path = tmp_path / "toy.json"
    path.write_text(json.dumps({"id": "toy-1", "domain": "toy_count", "format": "sos",
                                "problem": {"question": "How many blocks are there?", "target": 7},
                                "trace": "ignored", "answer": "ignored"}))
    return path


def _capture(capsys, record, server, db_url, *extra):
    code = cli.main(["capture", str(record), "--model", "openai/fake-r1", "--api-base", server.api_base,
                     "--db", db_url, "--timeout", "10", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def _rows(db_url, sql):
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(sa.text(sql))]
    engine.dispose()
    return rows


def _db_bytes(tmp_path) -> bytes:
    return b"".join(p.read_bytes() for p in tmp_path.glob("cap.db*"))


def test_one_capture_is_stored_with_its_thinking_and_audited(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer([Reply(thinking=["Let me count: ", "one, two, ", "... seven."], answer=["There are ", "7."])],
                       required_key=KEY) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 0, err
    assert report["trace"] == "Let me count: one, two, ... seven."
    assert report["answer"] == "There are 7."
    assert report["answer_correct"] is True and report["domain"] == "toy_count"
    assert report["capture"]["stop_reason"] == "single" and report["capture"]["incomplete"] is False
    assert report["capture"]["thinking_returned"] is True
    sent = server.requests[0]["body"]
    assert sent["stream"] is True and sent["model"] == "fake-r1"
    assert "How many blocks are there?" in sent["messages"][-1]["content"]
    assert server.requests[0]["authorization"] == f"Bearer {KEY}"
    [row] = _rows(db_url, "SELECT record_id, trace, answer, format, model, meta_json, source FROM record")
    assert row["trace"] == report["trace"] and row["answer"] == "There are 7." and row["format"] is None
    assert row["model"] == "openai/fake-r1" and row["record_id"].startswith("cap-")
    meta = json.loads(row["meta_json"])
    assert meta["source_record_id"] == "toy-1" and meta["capture"]["api_base"] == server.api_base
    [verdict] = _rows(db_url, "SELECT answer_correct FROM trace_verdict")
    assert verdict["answer_correct"] == 1
    assert KEY.encode() not in _db_bytes(tmp_path)
    assert KEY not in json.dumps(report) and KEY not in err


def test_loop_converges_when_the_second_answer_is_valid(capsys, toy_record, db_url):
    replies = [Reply(thinking=["Quick guess."], answer=["5"]), Reply(thinking=["Recount ", "carefully."], answer=["7"])]
    with FakeLLMServer(replies) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url, "--rounds", "4")
    assert code == 0, err
    assert len(server.requests) == 2
    assert report["capture"]["stop_reason"] == "valid" and report["capture"]["rounds"] == 2
    assert report["answer"] == "7" and report["answer_correct"] is True
    assert report["format"] == "llm_modulo" and report["parse"]["n_steps"] == 2
    second = server.requests[1]["body"]["messages"]
    assert [m["role"] for m in second[-3:]] == ["user", "assistant", "user"]
    assert second[-2]["content"] == "5"
    assert second[-1]["content"].startswith("Your answer is not correct.\nThe answer says 5, but there are 7")
    steps = _rows(db_url, "SELECT idx, kind, text, payload_json FROM step ORDER BY idx")
    assert [s["kind"] for s in steps] == ["round", "round"]
    payloads = [json.loads(s["payload_json"]) for s in steps]
    assert [p["answer_correct"] for p in payloads] == [False, True]
    assert "Quick guess." in steps[0]["text"] and "Recount carefully." in steps[1]["text"]
    assert second[-1]["content"] in steps[1]["text"]
    assert "round 1:" in err and "answer invalid (wrong_value)" in err


def test_loop_stops_at_the_round_limit_when_no_answer_is_valid(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer(default=Reply(thinking=["Hmm."], answer=["6"])) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url, "--rounds", "3")
    assert code == 0, err
    assert len(server.requests) == 3
    assert report["capture"]["stop_reason"] == "round_limit" and report["capture"]["round_verdicts"] == [False] * 3
    assert report["answer_correct"] is False and report["parse"]["n_steps"] == 3
    assert len(server.requests[2]["body"]["messages"]) == 5


def test_blocksworld_critique_goes_back_in_planbench_words(capsys, tmp_path):
    row = next(r for r in load_dev("planbench_plans.jsonl") if r["domain"] == "blocksworld")
    record = tmp_path / "bw.json"
    record.write_text(json.dumps(row))
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    wrong = "pick up the orange block\nstack the orange block on top of the blue block"
    with FakeLLMServer([Reply(thinking=["Plan..."], answer=[wrong]), Reply(thinking=["Fix."], answer=[GOOD_PLAN])]) as server:
        code, report, err = _capture(capsys, record, server, db_url, "--rounds", "2")
    assert code == 0, err
    first = server.requests[0]["body"]["messages"][-1]["content"]
    assert first.startswith("I am playing with a set of blocks") and "\n[STATEMENT]\nAs initial conditions" in first
    assert server.requests[1]["body"]["messages"][-1]["content"] == (
        "The above plan is invalid. The following action at step 2 has unmet preconditions:\n"
        "stack the orange block on top of the blue block\n"
        "The unmet preconditions are:\n"
        "the blue block is clear and the hand is currently holding orange block")
    assert report["capture"]["stop_reason"] == "valid" and report["answer"] == GOOD_PLAN


def test_a_mid_stream_disconnect_keeps_what_arrived_and_marks_it_incomplete(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer([Reply(thinking=["First ", "second ", "third ", "fourth"], answer=["7"], cut_after=3)]) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 0, err
    assert report["trace"] == "First second third " and report["answer"] == ""
    assert report["capture"]["incomplete"] is True and report["capture"]["stop_reason"] == "incomplete"
    assert report["capture"]["error"]["kind"] == "disconnected"
    assert "lost mid-stream" in err
    [row] = _rows(db_url, "SELECT trace, meta_json FROM record")
    assert row["trace"] == "First second third " and json.loads(row["meta_json"])["capture"]["incomplete"] is True


def test_a_disconnect_in_a_later_round_keeps_every_round(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    replies = [Reply(thinking=["One."], answer=["5"]), Reply(thinking=["Two ", "and ", "a half"], cut_after=2)]
    with FakeLLMServer(replies) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url, "--rounds", "3")
    assert code == 0, err
    assert report["capture"]["rounds"] == 2 and report["capture"]["incomplete"] is True
    assert "## Round 2 · thinking\nTwo and \n" in report["trace"]
    assert '"incomplete": true' in report["trace"]
    assert report["parse"]["n_steps"] == 2


def test_a_rate_limit_gives_a_clear_message_and_stores_nothing(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer([Reply(status=429, error_message="Rate limit reached for requests")]) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 1 and report is None
    assert "rate-limiting these requests or the quota is used up (HTTP 429)" in err
    assert "nothing was stored" in err and len(server.requests) == 1
    assert _rows(db_url, "SELECT COUNT(*) AS n FROM record")[0]["n"] == 0


def test_a_bad_key_gives_a_clear_message_without_the_key(capsys, toy_record, tmp_path, monkeypatch):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    wrong = "sk-wrong-key-that-must-not-leak-42"
    monkeypatch.setenv("OPENAI_API_KEY", wrong)
    with FakeLLMServer(required_key=KEY) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 1 and report is None
    assert "rejected the API key (HTTP 401)" in err and "OPENAI_API_KEY" in err
    assert server.requests[0]["authorization"] == f"Bearer {wrong}"
    assert wrong not in err and "Incorrect API key provided" in err


def test_no_thinking_is_said_plainly(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer([Reply(answer=["7"])]) as server:
        code, report, err = _capture(capsys, toy_record, server, db_url)
    assert code == 0, err
    assert report["trace"] == "" and report["capture"]["thinking_returned"] is False
    assert "reasoning hidden or summarised" in err


def test_a_timeout_is_reported(capsys, toy_record, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer([Reply(thinking=["late"], answer=["7"], delay_s=2.5)]) as server:
        code = cli.main(["capture", str(toy_record), "--model", "openai/fake-r1", "--api-base", server.api_base,
                         "--db", db_url, "--timeout", "1"])
        err = capsys.readouterr().err
    assert code == 1 and "no response from" in err and "within 1 s" in err


def test_a_refused_connection_is_reported_as_such_not_as_http_500(capsys, toy_record, tmp_path):
    """litellm wraps the OpenAI client's "Connection error." as an HTTP 500; nothing answered at all."""
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    with FakeLLMServer() as server:
        api_base = server.api_base
    # The server is closed: its port now refuses connections.
    code = cli.main(["capture", str(toy_record), "--model", "openai/fake-r1", "--api-base", api_base,
                     "--db", db_url, "--timeout", "10"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"could not reach {api_base} (Connection refused)" in err
    assert "HTTP 500" not in err.split("Provider said")[0] and "failed with HTTP" not in err


def test_bad_inputs_fail_before_any_call(capsys, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'cap.db'}"
    two = tmp_path / "two.jsonl"
    two.write_text('{"domain": "hanoi", "problem": {"disks": 3}}\n{"domain": "hanoi", "problem": {"disks": 4}}\n')
    assert cli.main(["capture", str(two), "--model", "openai/x", "--db", db_url]) == 2
    assert "exactly one" in capsys.readouterr().err
    empty = tmp_path / "empty.json"
    empty.write_text('{"domain": "hanoi", "problem": {}}')
    assert cli.main(["capture", str(empty), "--model", "openai/x", "--db", db_url]) == 2
    assert "cannot build the prompt" in capsys.readouterr().err
    assert cli.main(["capture", str(tmp_path / "missing.json"), "--model", "openai/x", "--db", db_url]) == 2


def test_stored_problems_are_distinct_and_become_capture_sources(db_url):
    from capture.store import problem_domains, stored_problems, store_capture
    from db.engine import make_engine

    engine = make_engine(db_url)
    for i, disks in enumerate([3, 4, 3]):
        store_capture(engine, {"id": f"h{i}", "domain": "hanoi", "problem": {"disks": disks}, "trace": "", "answer": ""})
    store_capture(engine, {"id": "f0", "domain": "freeform", "trace": "no problem here", "answer": ""})
    assert problem_domains(engine) == ["hanoi"]
    found = stored_problems(engine, "hanoi")
    assert [p.problem for p in found] == [{"disks": 3}, {"disks": 4}] and found[0].record_id == "h2"
    assert found[0].to_record().problem == {"disks": 3} and "h2" in found[0].label()
