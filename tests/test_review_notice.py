"""Issue 37 item 10: the review view says it is a review and exactly what its link grants; on a
private server, that the same address without `mode=review` is the owner's."""

import json

from streamlit.testing.v1 import AppTest

from app_pages._access import review_notice
from db.engine import make_engine
from db.queries import recent_traces
from tests.conftest import REPO


def test_the_notice_says_what_a_link_grants_on_each_kind_of_server():
    private = review_notice(shared=False, comments=False)
    assert private.startswith("**Review**: this link opens one trace, read-only.")
    assert "without `mode=review`, in a new tab, may upload and delete" in private and "STEPSCOPE_SHARED=1" in private
    shared = review_notice(shared=True, comments=True)
    assert "you may comment, under your name" in shared and "may upload" not in shared
    assert "uploading and deleting are not part of it" in shared


def test_the_review_view_shows_the_notice_and_full_mode_does_not(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'r.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")
    src = tmp_path / "r.jsonl"
    src.write_text(json.dumps({"id": "r1", "domain": "freeform", "trace": "1 + 1 = 2", "answer": "2"}) + "\n")
    from records_io.intake import iter_jsonl
    from pipeline import audit_units

    engine = make_engine(f"sqlite:///{tmp_path / 'r.db'}")
    with open(src, "rb") as fh:
        list(audit_units(iter_jsonl(fh), engine, source="r.jsonl"))
    share = recent_traces(engine)[0]["share_id"]

    def page(**params: str) -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        for k, v in params.items():
            at.query_params[k] = v
        return at.switch_page("app_pages/explorer.py").run()

    at = page(trace=share, mode="review")
    assert not at.exception
    notices = [i.value for i in at.info if i.value.startswith("**Review**")]
    assert len(notices) == 1 and "read-only" in notices[0]
    at = page(trace=share)
    assert not any(i.value.startswith("**Review**") for i in at.info)
