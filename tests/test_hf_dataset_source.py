"""Hugging Face datasets on disk through `cli.py audit` (issue 38): a Parquet file and a
`Dataset.save_to_disk` folder (written here as `datasets` writes it: Arrow IPC stream files
`data-XXXXX-of-NNNNN.arrow` listed by `state.json`, beside `dataset_info.json`, the schema carrying
the `huggingface` metadata) audit into SQLite and PostgreSQL with the verdicts the same traces get
in the record format; columns map by `--map` or by the aliases the summary names."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sources.columns import MappingError, parse_map, plan_columns, row_to_record
from sources.hf_dataset import dataset_files
from tests.test_lm_eval_source import audit, stored
from tests.test_rollouts import RIGHT, WRONG, run_cli, write_jsonl

WORDS = ("The first letter: \"pigeon\": \"p\" (16). \"lantern\": \"l\" (12). We now have: (12) \"lantern\" < (16) "
         "\"pigeon\". So the answer is lantern pigeon.")


def records() -> list[dict]:
    """Traces in the record format: the expected side of every comparison."""
    countdown = {"numbers": [14, 34, 28, 4], "target": 40}
    return [
        {"id": "q1", "domain": "countdown", "problem": countdown, "trace": RIGHT.split("</think>")[0].strip(),
         "answer": "(14+34)/4+28", "model": "m-7b"},
        {"id": "q2", "domain": "countdown", "problem": countdown, "trace": WRONG.split("</think>")[0].strip(),
         "answer": "(14+34)/4-28", "model": "m-7b"},
        {"id": "q3", "domain": "freeform", "problem": {"question": "What is 17*3+9?", "reference_answer": "60"},
         "trace": "17*3 = 51. 51+9 = 61.", "answer": "61", "model": "m-7b"},
        {"id": "q4", "domain": "word_sorting", "problem": {"input": "Sort the following words alphabetically: List: "
                                                                    "pigeon lantern", "target": "lantern pigeon"},
         "trace": WORDS, "answer": "lantern pigeon", "model": "m-7b"},
    ]


def dataset_rows(names: dict[str, str]) -> list[dict]:
    """The records as a dataset's rows, under the given column names (problem as JSON text)."""
    return [{names.get(k, k): json.dumps(v) if k == "problem" else v for k, v in r.items()} for r in records()]


HF_NAMES = {"id": "qid", "domain": "task", "trace": "reasoning_content", "answer": "response", "model": "model_name"}
OWN_NAMES = {"id": "key", "domain": "kind", "trace": "thoughts", "answer": "final", "model": "llm"}


def save_to_disk(folder: Path, rows: list[dict], shards: int = 2, cut_last: int = 0) -> Path:
    """The folder `Dataset.from_list(rows).save_to_disk(folder, num_shards=shards)` writes; `cut_last`
    bytes are cut off the last shard (a copy that stopped short)."""
    folder.mkdir()
    table = pa.Table.from_pylist(rows)
    features = {c: {"dtype": "string", "_type": "Value"} for c in table.column_names}
    table = table.replace_schema_metadata({"huggingface": json.dumps({"info": {"features": features}})})
    size = -(-len(rows) // shards)
    names = []
    for k in range(shards):
        name = f"data-{k:05d}-of-{shards:05d}.arrow"
        with pa.OSFile(str(folder / name), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
            for row in range(k * size, min((k + 1) * size, len(rows))):
                writer.write_batch(table.slice(row, 1).to_batches()[0])  # one batch a row: a cut loses only the last
        names.append(name)
    if cut_last:
        last = folder / names[-1]
        last.write_bytes(last.read_bytes()[:-cut_last])
    (folder / "dataset_info.json").write_text(json.dumps({"citation": "", "description": "", "features": features,
                                                          "homepage": "", "license": ""}))
    (folder / "state.json").write_text(json.dumps({"_data_files": [{"filename": n} for n in names],
                                                   "_fingerprint": "4f1c2a9be0d3", "_format_columns": None,
                                                   "_format_kwargs": {}, "_format_type": None,
                                                   "_output_all_columns": False, "_split": None}))
    return folder


@pytest.fixture
def expected(tmp_path) -> list[dict]:
    src = write_jsonl(tmp_path / "records.jsonl", records())
    verdicts, _ = audit(src, f"sqlite:///{tmp_path / 'plain.db'}", tmp_path / "plain.jsonl")
    assert [v["answer_correct"] for v in verdicts] == [True, False, False, True]
    return verdicts


def test_parquet_with_detected_columns_audits_like_the_records(tmp_path, db_url, expected):
    path = tmp_path / "generations.parquet"
    pq.write_table(pa.Table.from_pylist(dataset_rows(HF_NAMES)), path)
    verdicts, summary = audit(path, db_url, tmp_path / "v.jsonl")
    assert "hf_dataset (Parquet columns that are not the record format)" in summary
    assert ("id <- qid (detected), domain <- task (detected), problem <- problem, trace <- reasoning_content "
            "(detected), answer <- response (detected), model <- model_name (detected)") in summary
    assert verdicts == expected
    rows = stored(db_url)
    assert [r["id"] for r in rows] == ["q1", "q2", "q3", "q4"]
    assert rows[0]["meta"]["hf_dataset"] == {"path": str(path)}


def test_save_to_disk_folder_with_a_column_map_audits_like_the_records(tmp_path, db_url, expected):
    folder = save_to_disk(tmp_path / "ds", dataset_rows(OWN_NAMES))
    verdicts, summary = audit(folder, db_url, tmp_path / "v.jsonl",
                              "--map", "trace=thoughts,answer=final,id=key,domain=kind,model=llm")
    assert "hf_dataset (a Dataset.save_to_disk folder)" in summary
    assert "trace <- thoughts (given)" in summary and "problem <- problem," in summary
    assert verdicts == expected
    assert [r["status"] for r in stored(db_url)] == ["ok"] * 4


def test_a_column_map_is_remembered_for_tables_with_the_same_columns(tmp_path, db_url, expected):
    """Issue 38: a --map "remembered per source". The next dataset with the same columns, in the
    same database, is read with it and the summary says so; another database knows nothing of it."""
    given = "trace=thoughts,answer=final,id=key,domain=kind,model=llm"
    first = save_to_disk(tmp_path / "week1", dataset_rows(OWN_NAMES))
    audit(first, db_url, tmp_path / "v1.jsonl", "--map", given)
    path = tmp_path / "week2.parquet"  # same columns, other order, another layout of files
    table = pa.Table.from_pylist(dataset_rows(OWN_NAMES))
    pq.write_table(table.select(list(reversed(table.column_names))), path)
    verdicts, summary = audit(path, db_url, tmp_path / "v2.jsonl")
    assert "trace <- thoughts (given)" in summary and "given by an earlier --map for these columns" in summary
    assert verdicts == expected
    other = run_cli("audit", str(path), "--db", f"sqlite:///{tmp_path / 'other.db'}", "--out", str(tmp_path / "o.jsonl"))
    assert other.returncode == 2 and b"no column holds a trace or an answer" in other.stderr
    changed = pa.Table.from_pylist([{**r, "extra": "x"} for r in dataset_rows(OWN_NAMES)])
    pq.write_table(changed, tmp_path / "week3.parquet")  # one more column: another layout
    third = run_cli("audit", str(tmp_path / "week3.parquet"), "--db", db_url, "--out", str(tmp_path / "v3.jsonl"))
    assert third.returncode == 2 and b"no column holds a trace or an answer" in third.stderr


def test_a_save_to_disk_shard_cut_short_keeps_every_row_read(tmp_path):
    folder = save_to_disk(tmp_path / "ds", dataset_rows(HF_NAMES), cut_last=40)
    verdicts, summary = audit(folder, f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "v.jsonl")
    assert [v["parse"]["ok"] for v in verdicts] == [True, True, True, False]
    assert [v["id"] for v in verdicts[:3]] == ["q1", "q2", "q3"]
    message = verdicts[3]["parse"]["errors"][0]["message"]
    assert "data-00001-of-00002.arrow: not a readable Arrow file after the rows read from it" in message
    assert "unreadable (parse.ok=false)  1" in summary


def test_malformed_parquet_rows_and_files(tmp_path):
    rows = dataset_rows(HF_NAMES)
    rows[1]["problem"] = "{cut"
    rows[2]["problem"] = "[1, 2]"
    path = tmp_path / "g.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    verdicts, _ = audit(path, f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "v.jsonl")
    assert [v["parse"]["ok"] for v in verdicts] == [True, False, False, True]
    assert all("'problem' must be a JSON object" in v["parse"]["errors"][0]["message"] for v in verdicts[1:3])
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(path.read_bytes()[:-30])
    verdicts, _ = audit(cut, f"sqlite:///{tmp_path / 'b.db'}", tmp_path / "w.jsonl", "--source", "hf_dataset")
    assert len(verdicts) == 1 and "not a readable Parquet file" in verdicts[0]["parse"]["errors"][0]["message"]


@pytest.mark.parametrize("argv, message", [
    (("--map", "trace=nope"), "--map names column(s) the table does not have: nope"),
    (("--map", "trace"), "--map wants FIELD=COLUMN pairs"),
    (("--map", "colour=task"), "'colour' is no record field"),
    (("--source", "openrlhf"), "unknown --source 'openrlhf'"),
])
def test_bad_maps_and_sources_stop_before_anything_is_stored(tmp_path, argv, message):
    path = tmp_path / "g.parquet"
    pq.write_table(pa.Table.from_pylist(dataset_rows(HF_NAMES)), path)
    proc = run_cli("audit", str(path), "--db", f"sqlite:///{tmp_path / 'a.db'}", *argv)
    assert proc.returncode == 2 and message in proc.stderr.decode()


def test_one_completion_column_is_split_into_trace_and_answer():
    cmap = plan_columns(["prompt_id", "completion", "data_source"], {})
    assert cmap.split_answer and "trace and answer split from completion" in cmap.describe()
    record = row_to_record({"completion": "<think>2+2=4</think>\n<answer>4</answer>", "data_source": "freeform"}, cmap)
    assert (record["trace"], record["answer"], record["domain"]) == ("2+2=4", "4", "freeform")
    assert record["meta"] == {"source": "hf_dataset"}
    with pytest.raises(MappingError, match="no column holds a trace or an answer"):
        plan_columns(["a", "b"], {})
    assert parse_map(" trace = r , problem.target=gold ") == {"trace": "r", "problem.target": "gold"}


def test_dataset_dict_folders_read_split_by_split(tmp_path):
    root = tmp_path / "dd"
    root.mkdir()
    save_to_disk(root / "test", dataset_rows(HF_NAMES)[:1], shards=1)
    save_to_disk(root / "train", dataset_rows(HF_NAMES)[1:], shards=2)
    (root / "dataset_dict.json").write_text(json.dumps({"splits": ["train", "test"]}))
    assert [f"{p.parent.name}/{p.name}" for p in dataset_files(root)] == [
        "train/data-00000-of-00002.arrow", "train/data-00001-of-00002.arrow", "test/data-00000-of-00001.arrow"]
