"""Outside judgments (a PRM's per-step scores, an LLM judge's first mistake) from a JSONL file
joined to stored records by id, on SQLite and PostgreSQL: malformed lines and unknown ids are
reported line by line and cost only themselves; a re-import replaces a source's judgment; a
re-audit and the replay never touch them."""

from __future__ import annotations

import io
import json

import pytest

import cli
from records_io.intake import iter_jsonl
from metrics.outside_labels import first_flag, judgment_first_mistake, read_judgments
from db.engine import make_engine
from db.outside import judged_records, judgments_of
from db.queries import recent_traces, trace_by_share_id
from db.store import delete_record
from pipeline import audit_units
from tests.test_pages import app  # noqa: F401 - the AppTest fixture
from tests.test_steps_format import DYCK_ROW
from validators.step_rows import StepRowsConverter


def _store(url: str, rows: list[dict]) -> dict[str, int]:
    """Audit rows into the database; record pk by record id."""
    eng = make_engine(url)
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data)), convert=StepRowsConverter()), eng))
    return {r["record_id"]: trace_by_share_id(eng, r["share_id"])["pk"] for r in recent_traces(eng, 100)}


def _dyck(rid: str, **extra) -> dict:
    return {**DYCK_ROW, "id": rid, **extra}


def test_lines_are_read_or_told_what_is_wrong_with_them():
    lines = ['{"id": "a", "source": "prm", "step_scores": [0.9, 0.2, true]}',
             '{"id": 7, "source": "judge", "first_mistake": null}',
             "", "{not json", '{"id": "a", "source": "prm"}', '{"id": "a", "source": "prm", "step_scores": [0.1, "x"]}',
             '{"id": "a", "source": "j", "first_mistake": -1}', '{"source": "j", "first_mistake": 1}',
             '{"id": "a", "source": "j", "first_mistake": 1, "score": 3}', "[1, 2]"]
    good, bad = read_judgments(lines)
    assert [(n, j.record_id, j.source) for n, j in good] == [(1, "a", "prm"), (2, "7", "judge")]
    assert good[0][1].step_scores == (0.9, 0.2, 1.0) and good[1][1].payload() == {"first_mistake": None}
    messages = dict(bad)
    assert sorted(messages) == [4, 5, 6, 7, 8, 9, 10]
    assert "not JSON" in messages[4] and "'step_scores' or 'first_mistake'" in messages[5]
    assert "'step_scores'[1]" in messages[6] and "step index" in messages[7] and "'id' is missing" in messages[8]
    assert "unknown field(s) 'score'" in messages[9] and "JSON object" in messages[10]
    assert len(read_judgments([b'\xef\xbb\xbf{"id": "a", "source": "j", "first_mistake": 0}', b"\xff"])[0]) == 1
    assert read_judgments([b"\xff"])[1] == [(1, "not UTF-8 text")]
    assert first_flag([0.9, 0.5, 0.49, 0.1], 0.5) == 2 and first_flag([0.9], 0.5) is None
    assert judgment_first_mistake({"step_scores": [0.9, 0.1], "first_mistake": None}, 0.5) is None
    assert judgment_first_mistake({"step_scores": [0.9, 0.1]}, 0.5) == 1


def test_import_a_generated_scores_file_by_id(db_url, tmp_path, capsys):
    pks = _store(db_url, [_dyck("d1"), _dyck("d2", mistake_index=None), _dyck("shared", model="m1"),
                          _dyck("shared", model="m2", answer="] ] )")])
    n = len(DYCK_ROW["steps"])
    scores = [round(0.9 - 0.1 * i, 2) for i in range(n)]  # a made-up PRM: falls below 0.5 at step 5
    lines = [json.dumps({"id": "d1", "source": "toy-prm", "step_scores": scores}),
             json.dumps({"id": "d1", "source": "gpt-judge", "first_mistake": 3}),
             json.dumps({"id": "d2", "source": "toy-prm", "step_scores": scores[:4]}),
             "{broken", json.dumps({"id": "nobody", "source": "toy-prm", "first_mistake": 1}),
             json.dumps({"id": "shared", "source": "gpt-judge", "first_mistake": 2}),
             json.dumps({"id": "shared", "source": "gpt-judge", "first_mistake": None, "model": "m2"})]
    path = tmp_path / "scores.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert cli.main(["labels", "import", str(path), "--db", db_url]) == 0
    err = capsys.readouterr().err
    assert f"{path}:4: not JSON" in err and f"{path}:5: no stored record has id 'nobody'" in err
    assert f"{path}:6: id 'shared' names traces of 2 models (m1, m2)" in err
    assert f"{path}:3: 4 scores for a trace of {n} steps" in err
    assert "imported 4 judgment(s) of 3 record(s); 1 malformed line(s), 1 unknown id(s), 1 ambiguous" in err
    eng = make_engine(db_url)
    got = judgments_of(eng, pks["d1"])
    assert [(j["source"], j.get("first_mistake"), j.get("step_scores")) for j in got] == [
        ("gpt-judge", 3, None), ("toy-prm", None, scores)]
    shared = {r["model"]: r["share_id"] for r in recent_traces(eng, 100) if r["record_id"] == "shared"}
    assert judgments_of(eng, trace_by_share_id(eng, shared["m2"])["pk"])[0]["first_mistake"] is None
    assert judgments_of(eng, trace_by_share_id(eng, shared["m1"])["pk"]) == []
    # the record's own labels are untouched: the judgments sit beside them
    assert trace_by_share_id(eng, shared["m2"])["reference_labels"] == {"mistake_index": 3}

    # a re-import replaces that source's judgment and leaves the others
    path.write_text(json.dumps({"id": "d1", "source": "toy-prm", "step_scores": [0.1] * n}) + "\n")
    assert cli.main(["labels", "import", str(path), "--db", db_url]) == 0
    got = {j["source"]: j for j in judgments_of(eng, pks["d1"])}
    assert got["toy-prm"]["step_scores"] == [0.1] * n and got["gpt-judge"]["first_mistake"] == 3
    rows = [r for r in judged_records(eng) if r["source"] == "toy-prm" and r["n_steps"] == n]
    assert {r["first_invalid_step"] for r in rows} == {3} and all(r["invalid_steps"] for r in rows)

    # a re-audit keeps them; deleting the record takes them along
    assert cli.main(["reaudit", "--db", db_url]) == 0
    assert len(judgments_of(eng, pks["d1"])) == 2
    delete_record(eng, pks["d1"])
    assert judgments_of(eng, pks["d1"]) == []


def test_an_unreadable_file_is_an_error(tmp_path, capsys):
    assert cli.main(["labels", "import", str(tmp_path / "missing.jsonl"), "--db",
                     f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_an_empty_file_imports_nothing(text, tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.write_text(text)
    assert cli.main(["labels", "import", str(path), "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 0
    assert "imported 0 judgment(s)" in capsys.readouterr().err


def test_the_upload_page_imports_a_judgments_file(app):
    from tests.test_pages import _upload

    at = _upload(app, json.dumps(_dyck("u1")).encode() + b"\n", "dyck.jsonl")
    assert not at.exception
    lines = [json.dumps({"id": "u1", "source": "toy-prm", "step_scores": [0.9] * len(DYCK_ROW["steps"])}),
             json.dumps({"id": "ghost", "source": "toy-prm", "first_mistake": 0}), "nope"]
    at.file_uploader(key="judgments_file").set_value(("j.jsonl", "\n".join(lines).encode(), "application/json"))
    at.run()
    next(b for b in at.button if b.label == "Import judgments").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == ["1 judgment(s) of 1 record(s) imported."]
    problems = next(d.value for d in at.dataframe if "problem" in d.value.columns)
    assert list(problems["file line"]) == [2, 3] and "ghost" in problems["problem"][0]
    eng = make_engine(app.url)
    (row,) = [r for r in recent_traces(eng, 5) if r["record_id"] == "u1"]
    assert judgments_of(eng, trace_by_share_id(eng, row["share_id"])["pk"])[0]["source"] == "toy-prm"
