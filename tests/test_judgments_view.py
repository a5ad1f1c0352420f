"""The explorer shows outside judgments beside our verdict: per source, its first mistake beside
ours in the trace summary (disagreements marked) and what it says of the selected step; source
names stay text."""

from __future__ import annotations

import json

from app_pages._judgments import AGREE, DISAGREE, step_rows, trace_rows
from db.engine import make_engine
from db.outside import import_judgments
from metrics.outside_labels import read_judgments
from db.queries import recent_traces
from tests.test_outside_labels import _dyck
from tests.test_pages import app  # noqa: F401 - the AppTest fixture
from tests.test_steps_format import DYCK_ROW

N = len(DYCK_ROW["steps"])
HOSTILE = "**judge** <b>x</b> ![p](http://127.0.0.1:9/p.png)"


def test_rows_put_each_source_beside_our_first_invalid_step():
    judgments = [{"source": "prm", "step_scores": [0.9, 0.2, 0.9]}, {"source": "judge", "first_mistake": None}]
    rows = trace_rows(1, {"mistake_index": 2}, "bbm.jsonl", judgments, 0.5)
    assert [(r["source"], r["first mistake"], r["against ours"]) for r in rows] == [
        ("Stepscope (replay)", "step 1", ""), ("bbm.jsonl", "step 2", DISAGREE + ": we flag earlier"),
        ("prm", "step 1", AGREE), ("judge", "no mistake", DISAGREE + ": it says no mistake")]
    assert trace_rows(None, {}, None, [], 0.5)[1:] == []
    says = [r["says"] for r in step_rows(1, {"mistake_index": 2, "ratings": [1, -1, 0]}, None, judgments, 0.5)]
    assert says == ["before the first mistake (step 2)", "rating -1", "score 0.2: wrong (threshold 0.5)",
                    "no mistake in the trace"]
    assert step_rows(5, {}, None, judgments[:1], 0.5)[0]["says"] == "no score for this step (it scored 3 steps)"


def test_explorer_shows_a_disagreeing_label_and_imported_judgments(app):
    from tests.test_pages import _upload

    # The dataset says step 5; our replay finds step 3 false ("< ; stack: ( [" pushes the wrong bracket).
    at = _upload(app, json.dumps(_dyck("bbm-1", mistake_index=5)).encode() + b"\n", "bbm.jsonl")
    assert not at.exception
    eng = make_engine(app.url)
    scores = [0.9] * N
    scores[3] = 0.1
    good, bad = read_judgments([json.dumps({"id": "bbm-1", "source": "toy-prm", "step_scores": scores}),
                                json.dumps({"id": "bbm-1", "source": HOSTILE, "first_mistake": 3})])
    assert not bad and import_judgments(eng, good).imported == 2
    share = next(r["share_id"] for r in recent_traces(eng, 5) if r["record_id"] == "bbm-1")

    at = app("explorer", trace=share, step="3").run()
    assert not at.exception
    trace = next(d.value for d in at.dataframe if "against ours" in d.value.columns)
    assert list(trace["source"]) == ["Stepscope (replay)", "bbm.jsonl", HOSTILE, "toy-prm"]
    assert list(trace["first mistake"]) == ["step 3", "step 5", "step 3", "step 3"]
    assert list(trace["against ours"]) == ["", DISAGREE + ": we flag earlier", AGREE, AGREE]
    (warning,) = [w.value for w in at.warning if "outside judgment" in w.value]
    assert warning.startswith("1 of 3 outside judgment(s) put the first mistake elsewhere than our replay (step 3): "
                              r"bbm\.jsonl says step 5. Both")
    step = next(d.value for d in at.dataframe if list(d.value.columns) == ["source", "says"])
    assert list(step["says"]) == ["before the first mistake (step 5)", "this step is the first mistake",
                                  "score 0.1: wrong (threshold 0.5)"]
    # the hostile source name is a cell of a table, never markdown anywhere on the page
    assert not any("![p]" in m.value for m in at.markdown)

    at = app("explorer", trace=share, step="5").run()
    step = next(d.value for d in at.dataframe if list(d.value.columns) == ["source", "says"])
    assert list(step["says"]) == ["this step is the first mistake", "after the first mistake (step 3)",
                                  "score 0.9: right (threshold 0.5)"]
