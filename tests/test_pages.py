"""AppTest tests for each page: query parameters, upload, filters, review mode."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from db.engine import make_engine
from db.queries import recent_traces
from tests.conftest import REPO

RECORDS = [
    {"id": "p1", "domain": "freeform", "model": "alpha", "trace": "First we add.\n\nThen <script>x()</script>.",
     "answer": "7"},
    {"id": "p2", "domain": "freeform", "model": "beta", "trace": "Only one paragraph about zebras.", "answer": "1"},
]


@pytest.fixture()
def app(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'pages.db'}"
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", url)
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")

    def make(page: str, **params: str) -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        for k, v in params.items():
            at.query_params[k] = v
        at.switch_page(f"app_pages/{page}.py")
        return at

    make.url = url
    return make


def _upload(app, data: bytes, name: str = "t.jsonl") -> AppTest:
    at = app("upload").run()
    at.file_uploader[0].set_value((name, data, "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    return at


def test_upload_audits_lists_errors_and_offers_reports(app):
    data = b"\n".join(json.dumps(r).encode() for r in RECORDS) + b"\n{broken\n"
    at = _upload(app, data)
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Records"] == "3" and metrics["New"] == "3" and metrics["Unreadable"] == "1"
    problems = next((d.value for d in at.dataframe if "file line" in d.value.columns), None)
    assert problems is not None and list(problems["file line"]) == [3]
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Report (CSV)", "Report (JSON)", "Report (HTML)"]


def test_text_file_upload_uses_the_chosen_domain(app):
    at = app("upload").run()
    at.selectbox[0].set_value("countdown")
    at.file_uploader[0].set_value(("think.txt", b"Let me think.\n\nDone.", "text/plain"))
    at.run()
    at.button[0].click().run()
    assert not at.exception
    rows = recent_traces(make_engine(app.url), 5)
    assert rows[0]["domain"] == "countdown" and rows[0]["n_steps"] == 2


def test_upload_reads_step_labelled_rows_as_the_cli_does(app):
    from tests.test_steps_format import DYCK_ROW

    at = _upload(app, json.dumps(DYCK_ROW).encode() + b"\n", "dyck.jsonl")
    assert not at.exception
    engine = make_engine(app.url)
    rows = recent_traces(engine, 5)
    assert rows[0]["domain"] == "dyck_languages" and rows[0]["n_steps"] == len(DYCK_ROW["steps"])
    from db.queries import trace_by_share_id
    stored = trace_by_share_id(engine, rows[0]["share_id"])
    assert stored["reference_labels"] == {"mistake_index": 3} and stored["verdict"]["first_invalid_step"] == 3


def test_corpus_filters_come_from_and_go_to_the_url(app):
    _upload(app, b"\n".join(json.dumps(r).encode() for r in RECORDS))
    at = app("corpus").run()
    assert not at.exception
    assert at.caption[0].value == "2 trace(s) match"
    at = app("corpus", model="beta").run()
    assert at.caption[0].value == "1 trace(s) match"
    assert at.multiselect[0].value == ["beta"]
    at = app("corpus", q="zebras").run()
    assert at.caption[0].value == "1 trace(s) match"
    at.sidebar.text_input[0].set_value("nothing-like-this").run()
    assert at.query_params["q"] in ("nothing-like-this", ["nothing-like-this"])
    assert any("No stored trace matches" in i.value for i in at.info)


def test_explorer_opens_a_trace_at_a_step_from_the_url(app):
    _upload(app, b"\n".join(json.dumps(r).encode() for r in RECORDS))
    share = next(r["share_id"] for r in recent_traces(make_engine(app.url)) if r["record_id"] == "p1")
    at = app("explorer", trace=share, step="1").run()
    assert not at.exception
    assert at.title[0].value == "Trace p1"
    assert at.subheader[0].value == "Step 1" or any(s.value == "Step 1" for s in at.subheader)
    assert any(c.value == "Then <script>x()</script>." for c in at.code)  # shown as text, verbatim
    at.number_input[0].set_value(0).run()
    assert at.query_params["step"] in ("0", ["0"])


def test_explorer_comment_round_trip_and_unknown_link(app):
    _upload(app, b"\n".join(json.dumps(r).encode() for r in RECORDS))
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share, step="0").run()
    at.text_input(key="comment_author").set_value("Rev")
    at.text_area(key="comment_text").set_value("looks <b>fine</b>")
    at.get("form_submit_button")[0].click().run()
    assert not at.exception
    assert any(t.value == "Rev: looks <b>fine</b>" for t in at.text)
    at = app("explorer", trace="not-a-real-id").run()
    assert any("No trace has this link" in e.value for e in at.error)


def test_review_mode_shows_one_trace_and_writes_nothing(app):
    _upload(app, b"\n".join(json.dumps(r).encode() for r in RECORDS))
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share, mode="review").run()
    assert not at.exception
    assert not [e for e in at.expander if "Delete" in e.label]
    assert len(at.get("form_submit_button")) == 0  # no comments either
    for page in ("upload", "corpus", "home"):
        at = app(page, mode="review").run()
        assert not at.exception
        assert len(at.file_uploader) == 0 and len(at.dataframe) == 0  # not in the navigation
        assert not any("trace(s) match" in c.value for c in at.caption)
    at = app("explorer", trace=share).run()  # a new session without the parameter: full mode
    assert [e for e in at.expander if "Delete" in e.label]


def test_server_read_only_mode_has_no_comment_form(app, monkeypatch):
    _upload(app, json.dumps(RECORDS[0]).encode())
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    monkeypatch.setenv("STEPSCOPE_READ_ONLY", "1")
    at = app("explorer", trace=share).run()
    assert not at.exception
    assert len(at.get("form_submit_button")) == 0


def test_explorer_shows_the_answer_plan_replay_for_a_plan_record(app):
    from tests.conftest import load_dev

    row = next(r for r in load_dev("planbench_verification.jsonl")
               if r["expected"].get("answer_error", {}).get("kind") == "unmet_precondition")
    _upload(app, json.dumps(row).encode())
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share).run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Answer"] == "wrong"
    table = next(d.value for d in at.dataframe if "status" in d.value.columns)
    step = row["expected"]["answer_error"]["step"]
    assert list(table["status"])[step - 1] == "invalid"
    assert all(s == "valid" for s in list(table["status"])[: step - 1])


def test_explorer_shows_the_problem_beside_the_trace(app):
    """Issue 37.5: the initial state and the goal (planning), the problem's fields as text."""
    from tests.conftest import load_dev

    row = next(r for r in load_dev("planbench_verification.jsonl"))
    _upload(app, json.dumps(row).encode())
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    at = app("explorer", trace=share).run()
    assert not at.exception
    assert any(e.label == "The problem" for e in at.expander)
    init = [d.value for d in at.dataframe if list(d.value.columns) == ["initial state"]]
    goal = [d.value for d in at.dataframe if list(d.value.columns) == ["goal"]]
    assert len(init) == 1 and len(init[0]) >= 1 and len(goal) == 1 and len(goal[0]) >= 1
    assert any(c.value == "problem\\_pddl" for c in at.caption)  # a field's name, markdown-escaped


def test_cached_pages_follow_new_data(app):
    _upload(app, json.dumps(RECORDS[0]).encode())
    assert app("corpus").run().caption[0].value == "1 trace(s) match"
    _upload(app, json.dumps(RECORDS[1]).encode())
    assert app("corpus").run().caption[0].value == "2 trace(s) match"
    share = recent_traces(make_engine(app.url))[0]["share_id"]
    from db.queries import trace_by_share_id
    from db.store import add_comment
    add_comment(make_engine(app.url), trace_by_share_id(make_engine(app.url), share)["pk"], 0, "A", "new note")
    at = app("explorer", trace=share, step="0").run()
    assert any(t.value == "A: new note" for t in at.text)


def test_explorer_shows_a_thinking_steps_line_state_and_self_correction(app):
    """Issue 15: for a thinking step, the line of reasoning it belongs to, the state its claims are
    judged against, and self-corrections shown as such (not as errors)."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM, MY_DOMAIN, MY_PROBLEM, VALID_ANSWER

    wrong = ("Okay, I need a to crave b.\n\n"
             "1. Feast c from a. Preconditions: c craves a (yes), Province c (yes), Harmony (yes).\n"
             "2. Overcome a from b. Requires Province b (yes) and Pain a (yes). So possible.\n")
    caught = ("Okay, blue is on red and I need red on blue.\n\n"
              "Maybe: 1. Pick up red. 2. Stack red on blue. But red is not clear, so step 1 can't be done.\n\n"
              "So instead: unstack blue from red, put down blue, pick up red, stack red on blue.")
    records = [
        {"id": "think1", "domain": "mystery_blocksworld", "format": "think", "model": "r1",
         "problem": {"domain_pddl": MY_DOMAIN, "problem_pddl": MY_PROBLEM}, "trace": wrong,
         "answer": "feast object c from object a"},
        {"id": "think2", "domain": "blocksworld", "format": "think", "model": "r1",
         "problem": {"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "trace": caught, "answer": VALID_ANSWER},
    ]
    _upload(app, b"\n".join(json.dumps(r).encode() for r in records) + b"\n")
    shares = {r["record_id"]: r["share_id"] for r in recent_traces(make_engine(app.url))}
    at = app("explorer", trace=shares["think1"]).run()  # opens at the first invalid step
    assert not at.exception
    assert any("invalid" in m.value for m in at.markdown)
    assert any("line of reasoning" in c.value and "(feast c a)" in c.value for c in at.caption)
    (claims,) = [d.value for d in at.dataframe if "verdict" in d.value.columns]  # a dataframe: claims stay text
    assert "FALSE" in list(claims["verdict"])
    assert any("(pain a)" in why for why in claims["why"])
    facts = [d.value for d in at.dataframe if list(d.value.columns) == ["fact"]]
    assert facts and "(pain c)" in list(facts[0]["fact"])  # the state the claims are judged against, as a table

    at = app("explorer", trace=shares["think2"], step="1").run()
    assert not at.exception
    assert any("self-correction" in m.value for m in at.markdown)
    (claims,) = [d.value for d in at.dataframe if "verdict" in d.value.columns]
    # the rejection, and "red is not clear" read as a fact of the state it is judged in: both true
    assert len(claims) >= 1 and set(claims["verdict"]) == {"true"}


def test_corpus_offers_exports_of_the_filtered_view(app):
    _upload(app, b"\n".join(json.dumps(r).encode() for r in RECORDS))
    at = app("corpus", model="alpha").run()
    assert not at.exception
    assert any("1 trace(s) match" in c.value for c in at.caption)
    assert [e for e in at.expander if e.label.startswith("Export the 1 trace(s)")]
    assert [b.label for b in at.get("download_button")] == ["CSV", "JSON", "HTML", "Parquet"]


def test_explorer_says_no_error_found_when_claims_were_left_unjudged(app):
    """A thinking trace with no false claim but claims it could not judge is not called valid
    (thinking-claims.md); the explorer says what it found and why it does not say more."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM, VALID_ANSWER

    # "Hand is empty." is true before the step and false after it, and the text does not say which
    trace = "Okay, blue is on red and I want red on blue.\n\n1. Unstack blue from red. Hand is empty."
    record = {"id": "unjudged1", "domain": "blocksworld", "format": "think", "model": "r1",
              "problem": {"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "trace": trace, "answer": VALID_ANSWER}
    _upload(app, json.dumps(record).encode() + b"\n")
    shares = {r["record_id"]: r["share_id"] for r in recent_traces(make_engine(app.url))}
    at = app("explorer", trace=shares["unjudged1"]).run()
    assert not at.exception
    (trace_metric,) = [m for m in at.metric if m.label == "Trace"]
    assert trace_metric.value == "no error found" and "could not be judged" in (trace_metric.help or "")
