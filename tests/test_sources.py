"""The registry of input sources (sources/registry.py) and what `cli.py audit` says about them:
the detected source is named in the summary, `--source NAME` forces one (every line must then
be of it), and a large input shows its progress on standard error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pyarrow as pa

from cli import Progress
from sources.hf_dataset import iter_dataset_lines
from sources.registry import source_names
from tests.test_hf_dataset_source import HF_NAMES, dataset_rows, save_to_disk
from tests.conftest import REPO
from tests.test_lm_eval_source import audit
from tests.test_rollouts import run_cli, write_jsonl

RECORD = {"id": "r1", "domain": "freeform", "problem": {"reference_answer": "4"}, "trace": "2+2=4", "answer": "4"}
CHAT = {"id": "chatcmpl-1", "model": "m", "domain": "freeform", "problem": {"reference_answer": "4"},
        "choices": [{"message": {"role": "assistant", "reasoning_content": "2+2=4", "content": "4"}}]}


def test_every_module_with_sources_is_registered_in_order():
    assert source_names() == ("lm_eval", "inspect", "hf_dataset", "step_rows", "rollout", "chat_completion", "record")


def test_the_summary_names_the_detected_source_and_forcing_one_checks_every_line(tmp_path):
    db = f"sqlite:///{tmp_path / 'a.db'}"
    chats = write_jsonl(tmp_path / "chats.jsonl", [CHAT, RECORD])
    verdicts, summary = audit(chats, db, tmp_path / "a.jsonl")
    assert "source                       chat_completion ('choices' in the first object)" in summary
    assert [v["answer_correct"] for v in verdicts] == [True, True]
    verdicts, summary = audit(chats, db, tmp_path / "b.jsonl", "--source", "chat_completion")
    assert "chat_completion (given with --source)" in summary
    assert verdicts[0]["answer_correct"] is True
    assert "not a chat completion ('choices')" in verdicts[1]["parse"]["errors"][0]["message"]
    verdicts, summary = audit(chats, db, tmp_path / "c.jsonl", "--source", "record")
    assert "not a record" in verdicts[0]["parse"]["errors"][0]["message"] and verdicts[1]["parse"]["ok"]
    verdicts, _ = audit(chats, db, tmp_path / "d.jsonl", "--source", "rollout")
    assert all("not a rollout row" in v["parse"]["errors"][0]["message"] for v in verdicts)


def test_a_folder_is_read_only_as_a_dataset(tmp_path):
    folder = save_to_disk(tmp_path / "ds", dataset_rows(HF_NAMES))
    proc = run_cli("audit", str(folder), "--db", f"sqlite:///{tmp_path / 'a.db'}", "--source", "record")
    assert proc.returncode == 2 and "only --source hf_dataset reads it" in proc.stderr.decode()


def test_dataset_rows_are_read_lazily_batch_by_batch(tmp_path):
    folder = save_to_disk(tmp_path / "ds", dataset_rows(HF_NAMES), shards=2)
    (folder / "data-00001-of-00002.arrow").write_bytes(b"not arrow")
    lines = iter_dataset_lines(folder, batch_rows=1)
    assert json.loads(next(lines).raw)["qid"] == "q1"  # the broken shard is not opened yet
    rest = list(lines)
    assert [line.error is None for line in rest] == [True, False] and "data-00001-of-00002.arrow" in rest[1].error
    big = tmp_path / "big.arrow"
    table = pa.table({"qid": [f"q{i}" for i in range(2500)], "response": ["4"] * 2500})
    with pa.OSFile(str(big), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=2500)
    assert sum(1 for _ in iter_dataset_lines(big, batch_rows=1000)) == 2500


def test_progress_of_a_large_input_is_logged_by_tenths(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress(total=20_000)
    for done in range(500, 20_001, 500):
        progress(done)
    progress.finish()
    lines = err.getvalue().splitlines()
    assert len(lines) == 10 and lines[0].startswith("audited 2,000 of 20,000 (10%) records")
    assert lines[-1].startswith("audited 20,000 of 20,000 (100%)")
    err.truncate(0)
    small = Progress(total=50)
    small(50)
    assert err.getvalue() == ""


def test_without_the_inspect_extra_an_inspect_log_gets_a_message_not_a_traceback(tmp_path):
    hide = tmp_path / "hide"
    (hide / "inspect_ai").mkdir(parents=True)
    (hide / "inspect_ai" / "__init__.py").write_text("raise ImportError(\"No module named 'inspect_ai'\")\n")
    log = tmp_path / "run.eval"
    log.write_bytes(b"PK\x03\x04 an archive")
    json_log = tmp_path / "run.json"
    json_log.write_text(json.dumps({"version": 2, "status": "success", "eval": {"task": "arith"}, "samples": []}))
    env = {**os.environ, "PYTHONPATH": str(hide)}
    for path in (log, json_log):
        proc = subprocess.run([sys.executable, "cli.py", "audit", str(path), "--db", f"sqlite:///{tmp_path / 'a.db'}"],
                              cwd=REPO, capture_output=True, timeout=240, env=env)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and "Traceback" not in err, err
        assert f"error: {path}: the Inspect log source needs the inspect extra: STEPSCOPE_EXTRAS=inspect" in err
