"""The steps-list format and step-labelled dataset rows: one step per element, labels kept beside
the verdict (never used by it), through the CLI, the upload converter and the database."""

import io
import json

import pytest

from audit import audit_record
from records_io.intake import iter_jsonl, object_to_record
from core.record import RecordError, record_from_json, record_to_json
from records_io.step_rows import is_step_row, step_row_to_record
from db.engine import make_engine
from db.queries import steps_of, trace_by_share_id
from pipeline import audit_units, reaudit_stale
from tests.test_cli import run_cli
from trace_parsers.registry import choose_format, parse_record
from validators.registry import infer_domain
from validators.step_rows import StepRowsConverter

DYCK_ROW = {"input": "( < [ ( )", "target": "] > )", "answer": "] > )", "mistake_index": 3,
            "steps": ["We should process each input one by one.", "stack: empty", "( ; stack: (",
                      "< ; stack: ( [", "[ ; stack: ( [ [", "( ; stack: ( [ [ (", ") ; stack: ( [ [",
                      "Now, we have reached the end. The final stack is \"( [ [\".",
                      "We will need to pop out \"[\", \"[\", \"(\" one by one in that order.",
                      "So, we need \"]\", \"]\", \")\". So the answer is ] ] )"]}


def _units(rows, convert):
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    return iter_jsonl(io.BufferedReader(io.BytesIO(data)), convert=convert)


def test_a_list_of_step_strings_is_one_step_per_element_never_resegmented():
    steps = ["First paragraph.\n\nStill the first step.", "", "Third: 1. a 2. b", "Wait, fourth."]
    record = record_from_json({"domain": "freeform", "trace": steps, "answer": "x"})
    assert choose_format(record).name == "steps"
    parsed = parse_record(record)
    assert [s.text for s in parsed.graph] == steps
    assert [record.trace[a:b] for a, b in (s.span for s in parsed.graph)] == [json.dumps(s) for s in steps]
    # a record rebuilt from the stored text (no list beside it) reads back the same steps
    again = record_from_json({"domain": "freeform", "format": "steps", "trace": record.trace, "answer": "x"})
    assert [s.text for s in parse_record(again).graph] == steps


def test_bigbench_mistake_rows_become_records_with_their_labels():
    assert is_step_row(DYCK_ROW) and not is_step_row({"trace": "x", "steps": []})
    record = record_from_json(step_row_to_record(DYCK_ROW, "dyck_languages"))
    assert record.domain == "dyck_languages" and record.format == "steps"
    assert record.problem == {"input": "( < [ ( )", "target": "] > )"}
    assert record.trace_data == DYCK_ROW["steps"] and record.answer == "] > )"
    assert record.reference_labels == {"mistake_index": 3}
    assert record_to_json(record)["reference_labels"] == {"mistake_index": 3}
    with pytest.raises(RecordError, match="names no task"):
        step_row_to_record(DYCK_ROW, None)
    # null is a label too: "no mistake"
    clean = record_from_json(step_row_to_record({**DYCK_ROW, "mistake_index": None}, "dyck_languages"))
    assert clean.reference_labels == {"mistake_index": None}


def test_processbench_and_per_step_ratings_are_kept_as_labels():
    row = {"id": "pb-1", "problem": "What is 2+3?", "steps": ["2+3=6.", "So 6."], "label": 0,
           "final_answer_correct": False, "generator": "m"}
    record = object_to_record(row, convert=StepRowsConverter("freeform"))
    assert record.id == "pb-1" and record.domain == "freeform"
    assert record.reference_labels == {"label": 0, "final_answer_correct": False}
    assert record.meta == {"generator": "m"}


def test_the_task_is_inferred_from_the_input_only_when_unambiguous():
    assert infer_domain({"input": "( < [ ( )"}) == "dyck_languages"
    assert infer_domain({"input": "What is 2+3?"}) is None
    convert = StepRowsConverter()
    assert object_to_record(DYCK_ROW, convert=convert).domain == "dyck_languages"
    # the row's own task, then the user's choice, win over the guess
    assert object_to_record({**DYCK_ROW, "task": "freeform"}, convert=convert).domain == "freeform"
    assert object_to_record(DYCK_ROW, convert=StepRowsConverter("freeform")).domain == "freeform"
    # the upload form's default does not override what the input shows, and catches the rest
    upload = StepRowsConverter(None, fallback="freeform")
    assert object_to_record(DYCK_ROW, convert=upload).domain == "dyck_languages"
    assert object_to_record({**DYCK_ROW, "input": "Sort: b a"}, convert=upload).domain == "freeform"
    # records of the usual format pass unchanged
    plain = {"domain": "freeform", "trace": "t", "answer": "a"}
    assert object_to_record(plain, convert=convert) == record_from_json(plain)


def test_each_task_of_the_dev_files_is_inferred_from_its_input():
    from tests.conftest import DEV_DATA

    folder = DEV_DATA / "bigbench_mistake"
    if not folder.exists():
        pytest.skip("BIG-Bench Mistake dev files are not present")
    convert = StepRowsConverter()
    for task in ("dyck_languages", "tracking_shuffled_objects"):
        rows = [json.loads(line) for line in (folder / f"{task}.jsonl").read_text().splitlines() if line.strip()]
        assert {object_to_record(row, convert=convert).domain for row in rows} == {task}


def test_labels_are_never_used_by_the_replay():
    verdicts = []
    for label in (3, None, 0, 7):
        record = object_to_record({**DYCK_ROW, "mistake_index": label}, convert=StepRowsConverter())
        verdicts.append(audit_record(record).verdict.to_json())
    assert all({k: v for k, v in v.items() if k != "id"} == {k: v for k, v in verdicts[0].items() if k != "id"}
               for v in verdicts)
    assert verdicts[0]["first_invalid_step"] == 3


def test_labels_survive_the_database_and_a_reaudit(db_url):
    engine = make_engine(db_url)
    [out] = list(audit_units(_units([DYCK_ROW], StepRowsConverter()), engine, source="bbm.jsonl"))
    stored = trace_by_share_id(engine, _share_id(engine, out.record_pk))
    assert stored["reference_labels"] == {"mistake_index": 3}
    assert stored["domain"] == "dyck_languages" and stored["format"] == "steps"
    assert [s["text"] for s in steps_of(engine, out.record_pk)] == DYCK_ROW["steps"]
    assert stored["verdict"]["first_invalid_step"] == 3
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE trace_verdict SET validator = 'old'")
    assert reaudit_stale(engine) == 1
    again = trace_by_share_id(engine, stored["share_id"])
    assert again["verdict"] == stored["verdict"] and again["reference_labels"] == {"mistake_index": 3}


def _share_id(engine, pk):
    with engine.connect() as conn:
        return conn.exec_driver_sql(f"SELECT share_id FROM record WHERE pk = {int(pk)}").scalar()


def test_cli_audits_dataset_rows_with_and_without_domain(db_url, tmp_path):
    src = tmp_path / "bbm.jsonl"
    src.write_text(json.dumps(DYCK_ROW) + "\n" + json.dumps({**DYCK_ROW, "task": "freeform"}) + "\n"
                   + json.dumps({**DYCK_ROW, "input": "Sort these words: b a"}) + "\n")
    out = tmp_path / "v.jsonl"
    proc = run_cli("audit", str(src), "--out", str(out), "--db", db_url)
    assert proc.returncode == 0, proc.stderr.decode()
    first, second, third = [json.loads(line) for line in out.read_text().splitlines()]
    assert first["domain"] == "dyck_languages" and first["first_invalid_step"] == 3
    assert second["domain"] == "freeform" and second["parse"]["n_steps"] == len(DYCK_ROW["steps"])
    assert third["parse"]["ok"] is False and "--domain" in third["parse"]["errors"][0]["message"]
    proc = run_cli("audit", str(src), "--out", str(out), "--db", db_url, "--domain", "dyck_languages")
    assert proc.returncode == 0, proc.stderr.decode()
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert [v["domain"] for v in verdicts] == ["dyck_languages", "freeform", "dyck_languages"]
