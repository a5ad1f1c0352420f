"""Issue 37 item 9: an upload left midway (another page opened, a reload) is reported on return:
what was stored and audited, per file, and what was not."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import _upload_journal as journal
from tests.conftest import REPO

GOOD = b"".join(json.dumps({"id": f"g{i}", "domain": "freeform", "trace": f"{i} + 1 = {i + 1}",
                            "answer": str(i + 1)}).encode() + b"\n" for i in range(3))


def test_the_journal_reports_only_an_upload_that_did_not_reach_its_end():
    state: dict = {}
    assert journal.interrupted_report(state) is None
    journal.start(state, ["a.jsonl", "noise.txt", "b.jsonl", "c.jsonl"])
    journal.progress(state, 0, 1200, 1204)
    journal.file_done(state, 0)
    journal.file_done(state, 1, refused=True)
    journal.progress(state, 2, 631, 640)
    assert journal.interrupted_report(state) == [
        "a.jsonl: complete, 1,200 record(s) stored and audited.",
        "noise.txt: refused, nothing from it was stored.",
        "b.jsonl: 631 record(s) stored and audited, up to line 640; nothing after that line was audited.",
        "c.jsonl: not finished, nothing from it was audited."]
    journal.finish(state)
    assert journal.interrupted_report(state) is None


@pytest.fixture()
def upload_page(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'pages.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    return at.switch_page("app_pages/upload.py")


def test_returning_to_the_page_after_leaving_mid_upload_says_what_was_stored(upload_page):
    # The state a run stopped by Streamlit leaves behind: the journal of a file read up to line 640.
    journal.start(upload_page.session_state, ["big.jsonl"])
    journal.progress(upload_page.session_state, 0, 631, 640)
    at = upload_page.run()
    assert not at.exception
    [warning] = [w.value for w in at.warning if "stopped before its end" in w.value]
    assert "big.jsonl: 631 record(s) stored and audited, up to line 640" in warning
    assert "Upload the unfinished files again" in warning
    at.button(key="dismiss_interrupted").click().run()
    assert not any("stopped before its end" in w.value for w in at.warning)


def test_an_upload_that_runs_to_its_end_leaves_no_such_message(upload_page):
    at = upload_page.run()
    at.file_uploader[0].set_value(("good.jsonl", GOOD, "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    assert journal.interrupted_report(at.session_state) is None
    at.run()
    assert not any("stopped before its end" in w.value for w in at.warning)
