"""`cli.py agreement`: our first invalid step against reference labels, from a verdicts file and from
the database, after `cli.py audit` of each original BIG-Bench Mistake dev file with --domain."""

import json

import pytest

import cli
from metrics.agreement import agreement_table, compare, label_first_mistake
from tests.conftest import DEV_DATA

TASKS = ("dyck_languages", "logical_deduction", "multistep_arithmetic", "tracking_shuffled_objects", "word_sorting")


def test_labels_and_comparisons():
    assert label_first_mistake({"mistake_index": None}) is None and label_first_mistake({"mistake_index": 3}) == 3
    assert label_first_mistake({"label": -1}) is None and label_first_mistake({"label": 2}) == 2
    assert [compare(2, 2), compare(None, None), compare(3, 1), compare(1, 3), compare(2, None), compare(None, 0)] == [
        "exact", "exact", "earlier", "later", "we_flag_none", "label_says_none"]
    (row,) = agreement_table([("s", "d", {"mistake_index": 1}, 1), ("s", "d", {"mistake_index": None}, None),
                              ("s", "d", {"mistake_index": None}, 4), ("s", "d", {}, 2)])
    assert row["traces"] == 3 and row["exact"] == 2 and row["label_says_none"] == 1
    assert row["acc_mistake"] == 1.0 and row["acc_no_mistake"] == 0.5 and row["processbench_f1"] == 0.667


@pytest.mark.parametrize("task", TASKS)
def test_audit_then_agreement_on_each_original_file(task, tmp_path, capsys):
    path = DEV_DATA / "bigbench_mistake" / f"{task}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} is not present")
    db, out = f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "v.jsonl"
    assert cli.main(["audit", str(path), "--domain", task, "--db", db, "--out", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["agreement", str(out), "--labels", str(path), "--format", "json"]) == 0
    (from_file,) = json.loads(capsys.readouterr().out)
    assert cli.main(["agreement", "--db", db, "--format", "json"]) == 0
    (from_db,) = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    exact = sum(v["first_invalid_step"] == r["mistake_index"] for v, r in zip(verdicts, rows))
    print(task, from_file)
    assert from_file["domain"] == task and from_file["traces"] == len(rows) and from_file["exact"] == exact
    assert sum(from_file[k] for k in ("exact", "earlier", "later", "we_flag_none", "label_says_none")) == len(rows)
    assert {k: v for k, v in from_db.items() if k != "source"} == {k: v for k, v in from_file.items() if k != "source"}
    assert from_file["processbench_f1"] >= 0.7


def test_a_verdicts_file_needs_its_labels(tmp_path, capsys):
    (tmp_path / "v.jsonl").write_text("{}\n")
    assert cli.main(["agreement", str(tmp_path / "v.jsonl")]) == 2
    assert "--labels" in capsys.readouterr().err
