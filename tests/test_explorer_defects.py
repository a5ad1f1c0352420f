"""Explorer and upload defects of issue 18 that Streamlit's AppTest can show (the browser-only
ones are in tests/test_review_access.py): every step of a gap gets a readable button, a record
without steps keeps comments, links and delete, and plain-text reasoning is checked."""

from __future__ import annotations

import json

import validators.registry as registry
from core.verdicts import Gap
from db.engine import make_engine
from db.queries import recent_traces, step_outline, trace_by_share_id
from tests.test_pages import app  # noqa: F401 - the per-test database and AppTest factory
from validators.base import DomainSpec, Replay

GAP_STEPS = list(range(3, 17))  # 14 steps, two-digit labels included


def _gap_replay(record, parsed) -> Replay:
    return Replay(answer_correct=True, gaps=[Gap("answer_contradicts_trace", "a gap over many steps", GAP_STEPS)])


def _upload(app, name: str, data: bytes, domain: str | None = None) -> None:
    at = app("upload").run()
    if domain:
        at.selectbox[0].set_value(domain)
    at.file_uploader[0].set_value((name, data, "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    assert not at.exception


def test_every_step_of_a_long_gap_gets_its_own_button(app, monkeypatch):
    real = registry._domains()
    monkeypatch.setattr(registry, "_domains", lambda: {**real, "toy_gap": DomainSpec("toy_gap", "1", "test",
                                                                                     _gap_replay)})
    trace = "\n\n".join(f"Paragraph {i} of the reasoning." for i in range(20))
    _upload(app, "gap.jsonl", json.dumps({"id": "g", "domain": "toy_gap", "trace": trace, "answer": "x"}).encode())
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share, step="0").run()
    assert not at.exception
    pills = at.get("button_group")
    assert pills, "the gap's steps are offered as buttons"
    assert list(pills[0].options) == [f"step {s}" for s in GAP_STEPS]


def test_a_record_without_steps_keeps_comments_links_and_delete(app):
    from tests.conftest import load_dev

    row = next(r for r in load_dev("planbench_plans.jsonl") if not r["trace"].strip())
    _upload(app, "plan.jsonl", json.dumps(row).encode())
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share).run()
    assert not at.exception
    assert any("no trace steps" in i.value for i in at.info)
    assert len(at.get("form_submit_button")) == 1
    assert any(f"/explorer?trace={share}" in c.value and "mode=review" not in c.value for c in at.code)
    assert any(f"/explorer?trace={share}" in c.value and c.value.endswith("&mode=review") for c in at.code)
    assert [e for e in at.expander if "Delete" in e.label]
    at.text_area(key="comment_text").set_value("the plan is fine")
    at.get("form_submit_button")[0].click().run()
    assert any("Please give your name" in w.value for w in at.warning)  # comments are signed
    at.text_input(key="comment_author").set_value("Ada")
    at.text_area(key="comment_text").set_value("the plan is fine")
    at.get("form_submit_button")[0].click().run()
    assert any(t.value == "Ada: the plan is fine" for t in at.text)


def test_plain_text_reasoning_is_checked(app):
    _upload(app, "notes.txt", b"Let me add these.\n\nWait, 12 + 5 = 18.\n\nSo the answer is 18.", domain="freeform")
    eng = make_engine(app.url)
    rec = trace_by_share_id(eng, recent_traces(eng)[0]["share_id"])
    outline = step_outline(eng, rec["pk"])
    assert [o[0] for o in outline if o[3] == "invalid"] == [1]
