"""Issue 37, "The review workflow peers have": the record download (explorer and CLI), filters on
any meta key, signed and labelled comments."""

from __future__ import annotations

import json

from db.engine import make_engine
from db.record_export import find_records, record_json
from db.store import add_comment
from tests.test_cli import run_cli
from tests.test_pages import app  # noqa: F401  (the AppTest fixture)

RECORDS = [
    {"id": "w1", "domain": "freeform", "model": "alpha", "trace": "So 7 * 8 = 54.\n\n**bold** <b>x</b>",
     "answer": "54", "meta": {"temperature": 0.7, "run": "a"}},
    {"id": "w2", "domain": "freeform", "model": "beta", "trace": "So 7 * 8 = 56.", "answer": "56",
     "meta": {"temperature": 0, "run": "b", "seed": 3}},
]


def _audit(db_url: str, tmp_path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    proc = run_cli("audit", str(src), "--out", str(tmp_path / "v.jsonl"), "--db", db_url)
    assert proc.returncode == 0, proc.stderr.decode()


def test_cli_export_id_writes_the_record_verdict_and_comments(db_url, tmp_path):
    _audit(db_url, tmp_path)
    engine = make_engine(db_url)
    [share] = find_records(engine, "w1")
    add_comment(engine, _pk(engine, share), 0, "Ann", "misreads 7 * 8")
    proc = run_cli("export", "--db", db_url, "--format", "json", "--id", "w1")
    assert proc.returncode == 0, proc.stderr.decode()
    doc = json.loads(proc.stdout)
    assert doc["id"] == "w1" and doc["share_id"] == share
    assert doc["trace"] == RECORDS[0]["trace"] and doc["meta"] == RECORDS[0]["meta"]
    assert doc["verdict"]["trace_valid"] is False and doc["verdict"]["first_invalid_step"] == 0
    assert [(c["step"], c["author"], c["text"]) for c in doc["comments"]] == [(0, "Ann", "misreads 7 * 8")]
    assert proc.stdout.decode() == record_json(engine, share)  # the explorer's download, byte for byte
    by_share = run_cli("export", "--db", db_url, "--format", "json", "--id", share)
    assert by_share.stdout == proc.stdout
    missing = run_cli("export", "--db", db_url, "--format", "json", "--id", "nope")
    assert missing.returncode == 1 and "no record" in missing.stderr.decode()
    assert run_cli("export", "--db", db_url, "--format", "csv", "--id", "w1").returncode == 2


def test_share_ids_never_begin_with_a_dash_and_old_ones_export_with_equals(db_url, tmp_path):
    """CI once drew "-D8nxZ1v3lNFhPSL" and `--id -D8n...` became an unknown option."""
    from sqlalchemy import update

    from db.store import RECORD, new_share_ids
    assert not [s for s in new_share_ids(20_000) if s.startswith("-")]
    _audit(db_url, tmp_path)
    engine = make_engine(db_url)
    [share] = find_records(engine, "w2")
    with engine.begin() as conn:
        conn.execute(update(RECORD).where(RECORD.c.share_id == share).values(share_id="-" + share[1:]))
    proc = run_cli("export", "--db", db_url, "--format", "json", "--id=-" + share[1:])
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout)["id"] == "w2"


def _pk(engine, share: str) -> int:
    from db.queries import trace_by_share_id

    return trace_by_share_id(engine, share)["pk"]


def _upload(app, records=RECORDS):  # noqa: F811
    from tests.test_pages import _upload as upload

    return upload(app, "\n".join(json.dumps(r) for r in records).encode())


def test_explorer_offers_the_record_as_the_cli_exports_it(app):  # noqa: F811
    _upload(app)
    engine = make_engine(app.url)
    share = find_records(engine, "w1")[0]
    add_comment(engine, _pk(engine, share), None, "Bo", "<script>x()</script>")
    at = app("explorer", trace=share).run()
    assert not at.exception
    button = next(b for b in at.get("download_button") if b.label == "Download this record (JSON)")
    assert button.proto.help.endswith(f"`cli.py export --id {share}`")
    doc = json.loads(record_json(engine, share))
    assert doc["comments"][0]["text"] == "<script>x()</script>" and doc["answer"] == "54"


def test_meta_filter_on_any_key_through_the_query_layer(db_url, tmp_path):
    from db.queries import CorpusFilter, count_traces, filtered_pks, meta_options

    _audit(db_url, tmp_path)
    engine = make_engine(db_url)
    assert {"temperature", "run", "seed"} <= set(meta_options(engine))
    values = dict(meta_options(engine, "temperature"))
    assert values == {"0.7": 1, "0": 1}
    for key, value, ids in (("temperature", "0.7", ["w1"]), ("run", "b", ["w2"]), ("seed", None, ["w2"]),
                            ("seed", "4", []), ("nokey", None, [])):
        flt = CorpusFilter(meta_key=key, meta_value=value)
        assert count_traces(engine, flt) == len(ids)
        shares = [find_records(engine, i)[0] for i in ids]
        assert [_pk(engine, s) for s in shares] == filtered_pks(engine, flt)
    proc = run_cli("export", "--db", db_url, "--format", "json", "--meta-key", "run", "--meta-value", "a")
    assert [r["id"] for r in json.loads(proc.stdout)] == ["w1"]


def test_corpus_meta_filter_picks_a_key_then_a_value_and_keeps_them_in_the_url(app):  # noqa: F811
    _upload(app)
    at = app("corpus").run()
    picker = next(s for s in at.sidebar.selectbox if s.label == "Meta key")
    assert {"temperature", "run", "seed"} <= set(picker.options)
    picker.set_value("run").run()
    assert not at.exception
    value = next(s for s in at.sidebar.selectbox if s.label == "Value of run")
    assert value.options == ["any (the key is present)", "a (1)", "b (1)"]
    value.set_value("b").run()
    assert at.caption[0].value == "1 trace(s) match"
    assert at.query_params["meta_key"] in ("run", ["run"]) and at.query_params["meta_value"] in ("b", ["b"])
    at = app("corpus", meta_key="temperature", meta_value="0.7").run()
    assert at.caption[0].value == "1 trace(s) match"


def test_labelled_comments_are_stored_filtered_and_exported(db_url, tmp_path):
    from records_io.report import to_csv, to_html
    from db.comment_labels import DEFAULT_LABELS, label_set, labels_offered, save_label_set
    from db.queries import CorpusFilter, comments_for, count_traces, verdict_rows

    _audit(db_url, tmp_path)
    engine = make_engine(db_url)
    assert label_set(engine) == list(DEFAULT_LABELS)
    w1, w2 = (_pk(engine, find_records(engine, i)[0]) for i in ("w1", "w2"))
    add_comment(engine, w1, 0, "Ann", "7 * 8 is 56", "false verification")
    add_comment(engine, w2, 0, "Bo", "fine", None)
    assert count_traces(engine, CorpusFilter(label="false verification")) == 1
    assert count_traces(engine, CorpusFilter(label="misread rule")) == 0
    assert save_label_set(engine, [" wrong goal ", "", "wrong goal", "misread rule"]) == ["wrong goal", "misread rule"]
    assert labels_offered(engine) == ["wrong goal", "misread rule", "false verification"]  # still carried
    rows, comments = verdict_rows(engine, pks=[w1]), comments_for(engine, [w1])
    assert "[step 0] [false verification] Ann: 7 * 8 is 56" in to_csv(rows, comments)
    assert "<i>false verification</i>" in to_html(rows, comments)
    proc = run_cli("export", "--db", db_url, "--format", "json", "--comments", "--label", "false verification")
    [item] = json.loads(proc.stdout)
    assert item["id"] == "w1" and item["comments"][0]["label"] == "false verification"
    doc = json.loads(record_json(engine, find_records(engine, "w1")[0]))
    assert doc["comments"][0]["label"] == "false verification"


def test_owner_signs_by_name_remembered_and_labels_a_comment(app):  # noqa: F811
    _upload(app)
    share = find_records(make_engine(app.url), "w1")[0]
    at = app("explorer", trace=share, step="0").run()
    at.text_area(key="comment_text").set_value("no name given")
    at.get("form_submit_button")[0].click().run()
    assert any("comments are signed, not anonymous" in w.value for w in at.warning)
    at.text_input(key="comment_author").set_value("Olga")
    at.selectbox(key="comment_label").set_value("misread rule")
    at.text_area(key="comment_text").set_value("reads the *rule* wrong")
    at.get("form_submit_button")[0].click().run()
    assert not at.exception
    assert any(t.value == "Olga: reads the *rule* wrong" for t in at.text)
    assert any(t.value == "label: misread rule" for t in at.text)
    assert not any("anonymous" in t.value for t in at.text)
    assert at.text_input(key="comment_author").value == "Olga"  # remembered
    assert at.text_area(key="comment_text").value == "" and at.selectbox(key="comment_label").value is None
    at.switch_page("app_pages/home.py").run()
    at.query_params["trace"] = share
    at.switch_page("app_pages/explorer.py").run()
    assert at.text_input(key="comment_author").value == "Olga"  # and across pages
    at.text_area(key="label_set_text").set_value("misread rule\nwrong goal")
    at.button(key="label_set_save").click().run()
    assert at.selectbox(key="comment_label").options == ["no label", "misread rule", "wrong goal"]
    at = app("corpus", label="misread rule").run()
    assert at.caption[0].value == "1 trace(s) match"
    assert next(s for s in at.sidebar.selectbox if s.label == "Comment label").value == "misread rule"


def test_steps_align_on_equal_text_and_the_parting_step_is_the_first_difference():
    from metrics.step_align import AlignedRow, align_steps, parting_row

    rows = align_steps(["Start.", "7 * 8 = 54", "So 54.", "Done."], ["start.", "7 * 8  = 56", "Check: ok.", "So 56.",
                                                                     "Done."])
    assert rows == [AlignedRow(0, 0, True), AlignedRow(1, 1, False), AlignedRow(2, 2, False),
                    AlignedRow(None, 3, False), AlignedRow(3, 4, True)]
    assert parting_row(rows) == 1
    assert parting_row(align_steps(["a", "b"], ["A", " b "])) is None
    assert [(r.a, r.b) for r in align_steps([], ["x"])] == [(None, 0)]


def test_two_samples_side_by_side_with_first_invalid_steps_and_where_they_part(app):  # noqa: F811
    problem = {"question": "What is 7 * 8?", "reference_answer": "56"}
    samples = [
        {"id": "s1", "domain": "freeform", "model": "alpha", "problem": problem, "answer": "54",
         "trace": "We multiply.\n\nSo 7 * 8 = 54.\n\n<b>Done</b>."},
        {"id": "s2", "domain": "freeform", "model": "beta", "problem": problem, "answer": "56",
         "trace": "We multiply.\n\nSo 7 * 8 = 56.\n\n<b>Done</b>."},
    ]
    _upload(app, samples)
    engine = make_engine(app.url)
    a, b = find_records(engine, "s1")[0], find_records(engine, "s2")[0]
    from db.queries import trace_by_share_id

    at = app("problems", problem=trace_by_share_id(engine, a)["problem_hash"]).run()
    assert not at.exception and any(s.value == "Two samples step by step" for s in at.subheader)
    at = app("compare", a=a, b=b).run()
    assert not at.exception
    metrics = [(m.label, m.value) for m in at.metric]
    assert ("First invalid step", "1") in metrics and ("First invalid step", "none") in metrics
    assert any("They part at** step 1 of A and step 1 of B, after 1 shared step(s)" in m.value for m in at.markdown)
    table = at.dataframe[0].value
    assert list(table[""]) == ["same", "they part here · A's first invalid", "same"]
    assert list(table["A text"])[2] == "<b>Done</b>."  # text as text
    at = app("compare", a=a, b="nope").run()
    assert any("No trace has the link b" in e.value for e in at.error)
