"""Comments anchored to a quote of their step (issue 37): the quote and its offsets are found,
checked, stored on SQLite and PostgreSQL, exported, listed and highlighted, and model text in a
quote stays text."""

from __future__ import annotations

import base64
import csv
import io
import json

import pytest
import sqlalchemy as sa

from metrics.quote_anchor import Anchor, anchor_in, merged_spans, occurrences
from records_io.report import to_csv, to_html, to_json
from db.engine import make_engine
from db.queries import comments_for, comments_of, recent_traces, steps_of
from db.record_export import record_document
from db.store import add_comment
from app_pages._anchors import anchored_html, anchored_spans
from pipeline import audit_units
from tests.test_db import _units
from tests.test_pages import _upload, app  # noqa: F401 - the AppTest fixture

HOSTILE = "Check <script>alert(1)</script> and ![x](http://127.0.0.1:9/p.png) twice: ![x](http://127.0.0.1:9/p.png)"
RECORD = {"id": "q1", "domain": "freeform", "model": "m", "trace": f"First we add 2 and 2.\n\n{HOSTILE}",
          "answer": "4"}


def test_a_quote_is_found_by_occurrence() -> None:
    text = "ab ab ab"
    assert occurrences(text, "ab") == [0, 3, 6] and occurrences(text, "aa") == [] and occurrences(text, "") == []
    assert occurrences("aaa", "aa") == [0, 1]
    assert anchor_in(text, "ab", 2) == Anchor("ab", 3, 5)
    with pytest.raises(ValueError, match="does not occur"):
        anchor_in(text, "AB")
    with pytest.raises(ValueError, match="occurs 3 time"):
        anchor_in(text, "ab", 4)
    assert merged_spans([(5, 9), (0, 2), (1, 3), (9, 10), (4, 4)]) == [(0, 3), (5, 10)]


def _stored(url: str) -> tuple:
    engine = make_engine(url)
    pk = next(iter(audit_units(_units([RECORD]), engine))).record_pk
    step = next(s for s in steps_of(engine, pk, 0, 10) if "<script>" in s["text"])
    return engine, pk, step


def test_anchors_are_stored_checked_and_exported(db_url) -> None:
    engine, pk, step = _stored(db_url)
    anchor = anchor_in(step["text"], "![x](http://127.0.0.1:9/p.png)", 2)
    add_comment(engine, pk, step["idx"], "Ada", "the image again", "misread rule", anchor)
    add_comment(engine, pk, step["idx"], "Ada", "whole step")
    with pytest.raises(ValueError, match="not in this step"):
        add_comment(engine, pk, step["idx"], "Ada", "moved", None, Anchor("<script>", 0, 8))
    with pytest.raises(ValueError, match="not in this step"):
        add_comment(engine, pk, None, "Ada", "no step", None, anchor)
    anchored, plain = comments_of(engine, pk)
    assert (anchored["quote"], anchored["quote_start"], anchored["quote_end"]) == (anchor.quote, anchor.start,
                                                                                  anchor.end)
    assert step["text"][anchored["quote_start"]:anchored["quote_end"]] == anchor.quote
    assert plain["quote"] is plain["quote_start"] is plain["quote_end"] is None

    doc = record_document(engine, recent_traces(engine)[0]["share_id"])
    assert [c["anchor"] for c in doc["comments"]] == [
        {"quote": anchor.quote, "start": anchor.start, "end": anchor.end}, None]
    rows = [{"pk": pk, "record_id": "q1", "verdict": {}}]
    exported = json.loads(to_json(rows, comments_for(engine, [pk])))[0]["comments"]
    assert exported[0]["anchor"]["start"] == anchor.start
    (cell,) = [r["comments"] for r in csv.DictReader(io.StringIO(to_csv(rows, comments_for(engine, [pk]))))]
    assert f'on "{anchor.quote}" ({anchor.start}-{anchor.end}) Ada: the image again' in cell
    page = to_html(rows, comments_for(engine, [pk]))
    assert "<q>![x](http://127.0.0.1:9/p.png)</q>" in page and "<img" not in page


def test_older_comments_survive_the_anchor_migration(tmp_path) -> None:
    import db.migrations as m

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    old = m.MIGRATIONS
    try:
        m.MIGRATIONS = [x for x in old if x[0] <= 13]
        assert m.migrate(engine) == 13
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO record (content_hash, share_id, status, domain, problem_json, trace, answer, meta_json, "
                "raw, raw_truncated, created_at) VALUES ('h', 's', 'ok', 'freeform', '{}', 't', '', '{}', :raw, 0, "
                "CURRENT_TIMESTAMP)"), {"raw": b"{}"})
            conn.execute(sa.text("INSERT INTO comment (record_pk, step_idx, author, text, created_at) "
                                 "VALUES (1, 0, 'A', 'old note', CURRENT_TIMESTAMP)"))
    finally:
        m.MIGRATIONS = old
    assert m.migrate(engine) == m.LATEST >= 14
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT text, quote, quote_start, quote_end FROM comment")).one()
    assert tuple(row) == ("old note", None, None, None)


def test_the_highlight_escapes_model_text() -> None:
    script, image = HOSTILE.find("<script>"), HOSTILE.find("![x]")
    spans = [(script, script + 25), (image, image + 30)]
    page = anchored_html(HOSTILE, spans)
    assert "<script" not in page and "<img" not in page and "<a " not in page
    assert "<mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark>" in page
    assert "![x](http://127.0.0.1:9/p.png)" in page  # literal text: nothing renders markdown here
    stale = {"quote": "gone", "quote_start": 0, "quote_end": 4}
    assert anchored_spans(HOSTILE, [stale, {"quote": None}]) == []


def _frames(at) -> list[str]:
    """The HTML of every sandboxed data: frame on the page."""
    out = []
    for el in at.get("iframe"):
        src = el.proto.src
        if src.startswith("data:text/html"):
            out.append(base64.b64decode(src.split(",", 1)[1]).decode("utf-8"))
    return out


def test_the_explorer_anchors_lists_and_highlights_a_quote(app) -> None:  # noqa: F811
    _upload(app, json.dumps(RECORD).encode() + b"\n")
    engine = make_engine(app.url)
    share = recent_traces(engine)[0]["share_id"]
    at = app("explorer", trace=share, step="1").run()
    assert not at.exception
    at.text_input(key="comment_quote").set_value("not in the step").run()
    assert any("does not occur in this step" in w.value for w in at.warning)
    at.text_input(key="comment_quote").set_value("![x](http://127.0.0.1:9/p.png)").run()
    assert any("occurs 2 times" in c.value for c in at.caption)
    at.number_input(key="comment_occurrence").set_value(2).run()
    at.text_input(key="comment_author").set_value("Ada")
    at.text_area(key="comment_text").set_value("the second image")
    at.get("form_submit_button")[0].click().run()
    assert not at.exception
    (stored,) = comments_of(engine, _pk(engine, share))
    second = HOSTILE.rfind("![x]")
    assert (stored["quote_start"], stored["quote_end"]) == (second, second + 30)
    assert any(t.value == f"on “![x](http://127.0.0.1:9/p.png)” (characters {second}–{second + 30} of the step)"
               for t in at.text)
    marked = [f for f in _frames(at) if "<mark>" in f]
    assert len(marked) == 1 and "<img" not in marked[0] and "&lt;script&gt;" in marked[0]
    assert at.text_input(key="comment_quote").value == ""  # cleared with the comment


def test_a_script_quote_is_listed_as_text(app) -> None:  # noqa: F811
    _upload(app, json.dumps(RECORD).encode() + b"\n")
    engine = make_engine(app.url)
    share = recent_traces(engine)[0]["share_id"]
    at = app("explorer", trace=share, step="1").run()
    at.text_input(key="comment_quote").set_value("<script>alert(1)</script>").run()
    at.text_input(key="comment_author").set_value("Ada")
    at.text_area(key="comment_text").set_value("a script")
    at.get("form_submit_button")[0].click().run()
    assert not at.exception
    assert any(t.value.startswith("on “<script>alert(1)</script>”") for t in at.text)  # st.text: never HTML
    assert not any("<script>" in m.value for m in at.markdown)


def _pk(engine, share: str) -> int:
    from db.queries import trace_by_share_id

    return trace_by_share_id(engine, share)["pk"]
