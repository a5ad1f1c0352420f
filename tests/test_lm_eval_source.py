"""lm-evaluation-harness sample logs through `cli.py audit` (issue 38): the hand-written logs in
tests/data/lm_eval/ (their README says which lm-eval version's layout they follow) audit into
SQLite and PostgreSQL with the verdicts the same traces get in the record format, and the
harness's metrics kept as outside judgments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from db.engine import make_engine
from sources.lm_eval import LmEvalError, sample_to_record, task_domain, task_from_filename
from tests.conftest import REPO
from tests.test_rollouts import run_cli, write_jsonl

DATA = REPO / "tests" / "data" / "lm_eval"
WORD_SORTING = DATA / "samples_bbh_cot_fewshot_word_sorting_2026-11-20T09-14-03.118221.jsonl"
GSM8K = DATA / "samples_gsm8k_2026-11-20T09-14-03.118221.jsonl"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def as_record(sample: dict, domain: str, task: str) -> dict:
    """The record a person would write for the sample, by hand from the record format."""
    response = sample["resps"][0][0]
    filtered = sample["filtered_resps"][0]
    if domain == "freeform":
        problem = {"question": sample["doc"]["question"],
                   "reference_answer": sample["target"].split("####")[-1].strip()}
    else:
        problem = {"input": sample["doc"]["input"], "target": sample["target"]}
    return {"id": f"{task}/{sample['doc_id']}/{sample['filter']}", "domain": domain, "problem": problem,
            "trace": response, "answer": response if filtered == "[invalid]" else filtered}


def audit(src: Path, db: str, out: Path, *extra: str) -> tuple[list[dict], str]:
    proc = run_cli("audit", str(src), "--db", db, "--out", str(out), *extra)
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(line) for line in out.read_text().splitlines()], proc.stderr.decode()


def stored(db: str) -> list[dict]:
    with make_engine(db).connect() as conn:
        rows = conn.execute(sa.text("SELECT record_id, status, error, meta_json FROM record ORDER BY line_no, pk"))
        return [{"id": r[0], "status": r[1], "error": r[2], "meta": json.loads(r[3] or "{}")} for r in rows]


@pytest.mark.parametrize("path, domain, task", [(WORD_SORTING, "word_sorting", "bbh_cot_fewshot_word_sorting"),
                                                (GSM8K, "freeform", "gsm8k")])
def test_lm_eval_samples_audit_like_the_same_records(tmp_path, db_url, path, domain, task):
    verdicts, summary = audit(path, db_url, tmp_path / "v.jsonl")
    assert "source                       lm_eval (the file name samples_<task>_<date>.jsonl)" in summary
    assert f"{task} -> domain {domain}" in summary
    samples = lines(path)
    records = write_jsonl(tmp_path / "records.jsonl", [as_record(s, domain, task) for s in samples])
    expected, plain = audit(records, f"sqlite:///{tmp_path / 'plain.db'}", tmp_path / "w.jsonl")
    assert "source                       record (record-format fields)" in plain
    assert verdicts == expected
    assert [v["answer_correct"] for v in verdicts] == [s["exact_match"] == 1.0 for s in samples]
    rows = stored(db_url)
    assert [r["status"] for r in rows] == ["ok"] * len(samples)
    for row, sample in zip(rows, samples):
        link = row["meta"]["lm_eval"]
        assert link["metrics"] == {"exact_match": sample["exact_match"]}
        assert link["doc_id"] == sample["doc_id"] and link["task"] == task and link["file"] == str(path)
        assert link["filter"] == sample["filter"]


def test_malformed_lm_eval_lines_are_reported_and_the_rest_go_through(tmp_path):
    good, other = lines(WORD_SORTING)[:2]
    loglikelihood = {**good, "doc_id": 7, "resps": [[[-1.25, False]], [[-0.5, True]]],
                     "filtered_resps": [[-1.25, False]]}
    src = write_jsonl(tmp_path / "samples_bbh_cot_fewshot_word_sorting_2026-11-21T10-00-00.000001.jsonl",
                      [good, loglikelihood, ["not", "an", "object"], {"doc_id": 9, "doc": {}}, other],
                      raw_lines=(json.dumps(good)[:120],))
    db = f"sqlite:///{tmp_path / 'bad.db'}"
    verdicts, summary = audit(src, db, tmp_path / "v.jsonl")
    assert len(verdicts) == 6 and "unreadable (parse.ok=false)  4" in summary
    assert [v["parse"]["ok"] for v in verdicts] == [True, False, False, False, True, False]
    errors = [v["parse"]["errors"][0]["message"] for v in verdicts if not v["parse"]["ok"]]
    assert "'resps' holds no generated text" in errors[0]
    assert "must be a JSON object, got list" in errors[1]
    assert "not an lm-eval sample" in errors[2] and "doc_id" in errors[2]
    assert "not valid JSON" in errors[3] and "truncated" in errors[3]
    assert verdicts[0]["answer_correct"] is True and verdicts[4]["answer_correct"] is False
    assert [r["status"] for r in stored(db)] == ["ok", "malformed", "malformed", "malformed", "ok", "malformed"]


def test_forced_lm_eval_refuses_records_and_detection_passes_them(tmp_path):
    record = {"id": "r1", "domain": "freeform", "problem": {"reference_answer": "4"}, "trace": "2+2=4", "answer": "4"}
    src = write_jsonl(tmp_path / "mixed.jsonl", [lines(GSM8K)[0], record])
    verdicts, summary = audit(src, f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "a.jsonl")
    assert "lm_eval ('doc_id' and 'resps' in the first line)" in summary
    assert [v["parse"]["ok"] for v in verdicts] == [True, True] and verdicts[1]["answer_correct"] is True
    verdicts, summary = audit(src, f"sqlite:///{tmp_path / 'b.db'}", tmp_path / "b.jsonl", "--source", "lm_eval")
    assert "lm_eval (given with --source)" in summary
    assert verdicts[0]["parse"]["ok"] and "not an lm-eval sample" in verdicts[1]["parse"]["errors"][0]["message"]


@pytest.mark.parametrize("task, domain", [
    ("bbh_cot_fewshot_word_sorting", "word_sorting"), ("bbh_cot_fewshot_dyck_languages", "dyck_languages"),
    ("bbh_cot_fewshot_multistep_arithmetic_two", "multistep_arithmetic"),
    ("bbh_cot_fewshot_logical_deduction_five_objects", "logical_deduction"),
    ("bbh_cot_zeroshot_tracking_shuffled_objects_seven_objects", "tracking_shuffled_objects"),
    ("gsm8k", "freeform"), ("gsm8k_cot", "freeform"), ("bbh_cot_fewshot_boolean_expressions", "freeform"),
    (None, "freeform"),
])
def test_task_names_map_to_registered_domains(task, domain):
    assert task_domain(task) == domain


def test_task_from_the_file_name_or_the_line():
    assert task_from_filename("out/model__x/samples_gsm8k_cot_2024-05-01T10-11-12.345678.jsonl") == "gsm8k_cot"
    assert task_from_filename("results_2024-05-01T10-11-12.345678.json") is None
    sample = {**lines(GSM8K)[2], "task": "gsm8k_cot"}
    record = sample_to_record(sample, "anything.jsonl")
    assert record["meta"]["lm_eval"]["task"] == "gsm8k_cot" and record["problem"]["reference_answer"] == "235"
    older = {**sample, "arguments": [["Question: ...", {"until": ["Q:"]}]], "doc": {}}
    assert sample_to_record(older)["problem"]["question"] == "Question: ..."
    with pytest.raises(LmEvalError, match="no generated text"):
        sample_to_record({**sample, "resps": [[[-0.1, True]]]})
