"""The live-capture page with Streamlit's AppTest: inputs, validation, review mode, and a real
capture streamed from the fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

import validators.registry as registry
from core.verdicts import AnswerError
from tests.conftest import REPO
from tests.fake_llm_server import FakeLLMServer, Reply
from validators.base import DomainSpec, Replay


def _toy_replay(record, parsed) -> Replay:
    numbers = re.findall(r"\d+", record.answer)
    if numbers and int(numbers[-1]) == record.problem["target"]:
        return Replay(answer_correct=True)
    return Replay(answer_correct=False, answer_error=AnswerError("wrong_value", "that is not the count"))


@pytest.fixture
def page(tmp_path, monkeypatch):
    def make(demo: str = "0") -> AppTest:
        monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'page.db'}")
        monkeypatch.setenv("STEPSCOPE_DEMO", demo)
        return AppTest.from_file(str(REPO / "app_pages" / "live_capture.py"), default_timeout=60)
    monkeypatch.delenv("STEPSCOPE_READ_ONLY", raising=False)
    return make


def _run_off(at: AppTest) -> str:
    """The page's note on why Run is off ('' when it is on)."""
    return next((i.value for i in at.info if i.value.startswith("Run is off")), "")


def test_page_renders_and_checks_inputs_before_running(page):
    at = page().run()
    assert not at.exception
    assert at.title[0].value == "Live capture"
    assert any("No stored record has a problem yet" in i.value for i in at.info)
    # Run stays off, and says why, until the inputs are complete (issue 37 item 11).
    assert at.button(key="cap_run").disabled
    off = _run_off(at)
    assert "Choose a stored problem" in off and "Enter a model" in off
    at.radio(key="cap_source").set_value("Paste a record").run()
    at.text_area(key="cap_pasted").input('{"domain": "hanoi", "problem": {"disks": 3}}').run()
    at.text_input(key="cap_model").input("openai/x").run()
    at.text_input(key="cap_api_base").input("localhost:8000").run()
    assert at.button(key="cap_run").disabled
    assert _run_off(at) == ("Run is off until this is fixed:\n"
                            "* The API base must be an http:// or https:// URL, e.g. http://localhost:8000/v1.")
    at.text_input(key="cap_api_base").input("http://localhost:8000/v1").run()
    assert not at.button(key="cap_run").disabled and _run_off(at) == ""
    assert any("I have a puzzle with 3 disks" in c.value for c in at.code)
    at.text_area(key="cap_pasted").input("{not json").run()
    assert any("This is not a record" in e.value for e in at.error)


def test_stored_problems_are_offered_with_their_domain_prompt(page):
    at = page(demo="1").run()
    assert not at.exception
    assert "blocksworld" in at.selectbox(key="cap_domain").options
    at.selectbox(key="cap_domain").set_value("blocksworld").run()
    assert at.selectbox(key="cap_template").value == "planbench"
    assert any("[STATEMENT]" in c.value for c in at.code)


def test_review_mode_turns_capture_off(page, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_READ_ONLY", "1")
    at = page().run()
    assert not at.exception
    assert any("needs the owner's rights" in i.value for i in at.info)
    assert not at.button and not at.text_input


def test_a_capture_streams_into_the_page_and_is_stored(page, monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "_domains", lambda: {"toy_count": DomainSpec("toy_count", "1", "test", _toy_replay)})
    monkeypatch.setenv("OPENAI_API_KEY", "sk-page-test-0123456789")
    replies = [Reply(thinking=["Counting ", "quickly."], answer=["5"]), Reply(answer=["7"])]
    with FakeLLMServer(replies) as server:
        at = page().run()
        at.radio(key="cap_source").set_value("Paste a record").run()
        at.text_area(key="cap_pasted").input(json.dumps(
            {"domain": "toy_count", "problem": {"question": "How many?", "target": 7}})).run()
        at.text_input(key="cap_model").input("openai/fake").run()
        at.text_input(key="cap_api_base").input(server.api_base).run()
        at.number_input(key="cap_rounds").set_value(3).run()
        assert any("environment variable OPENAI_API_KEY" in c.value for c in at.caption)
        at.button(key="cap_run").click().run()
    assert not at.exception
    assert len(server.requests) == 2
    codes = [c.value for c in at.code]
    assert "Counting quickly." in codes and "5" in codes and "7" in codes
    assert any(c.startswith("Your answer is not correct.") for c in codes)
    assert any("Reasoning hidden or summarised" in i.value for i in at.info)
    assert any("validator accepts" in s.value for s in at.success)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Answer": "correct", "Rounds": "2", "Stopped": "valid"}
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'page.db'}")
    with engine.connect() as conn:
        fmt, answer = conn.execute(sa.text("SELECT format, answer FROM record")).one()
    engine.dispose()
    assert (fmt, answer) == ("llm_modulo", "7")


def test_run_is_refused_without_a_key_for_a_hosted_provider(page, monkeypatch):
    for name in ("STEPSCOPE_LLM_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    at = page().run()
    at.radio(key="cap_source").set_value("Paste a record").run()
    at.text_area(key="cap_pasted").input('{"domain": "hanoi", "problem": {"disks": 3}}').run()
    at.text_input(key="cap_model").input("deepseek/deepseek-reasoner").run()
    assert at.button(key="cap_run").disabled
    assert "No API key for deepseek" in _run_off(at) and "DEEPSEEK_API_KEY" in _run_off(at)
    assert "No API key for deepseek" in at.button(key="cap_run").help
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-page-test-0123456789")
    at.run()
    assert not at.button(key="cap_run").disabled and _run_off(at) == ""


def test_an_unreachable_host_is_not_reported_as_a_server_error():
    from capture.client import ModelSettings, classify_error

    class InternalServerError(Exception):
        status_code = 500

    exc = InternalServerError("litellm.InternalServerError: DeepseekException - [Errno -2] Name or service not known")
    err = classify_error(exc, ModelSettings(model="deepseek/deepseek-reasoner"))
    assert err.kind == "connection" and err.status is None
    assert "could not reach deepseek (Name or service not known)" in err.message and "HTTP 500" not in err.message
