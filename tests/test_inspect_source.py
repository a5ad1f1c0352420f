"""Inspect eval logs through `cli.py audit` (issue 38): a real Inspect eval, run offline here on
Inspect's mock model (`mockllm/model` with custom outputs) in a subprocess, writes a `.eval` log
that audits into SQLite and PostgreSQL with the verdicts the same traces get in the record
format, the scorers' values kept as outside judgments; the same log as `.json`, an archive cut
short and a sample with no output each read with a message per record.

Skipped, with the reason, when inspect_ai is not installed (an optional extra,
requirements-inspect.txt); .ci/run installs it and sets STEPSCOPE_REQUIRE_INSPECT=1, so there it
must run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

if os.environ.get("STEPSCOPE_REQUIRE_INSPECT") == "1":
    import inspect_ai  # noqa: F401
else:
    pytest.importorskip("inspect_ai", reason="Inspect is an optional extra: .venv/bin/pip install --require-hashes "
                        "-r requirements-inspect.txt (or STEPSCOPE_EXTRAS=inspect ./stepscope test)")

from inspect_ai.log import read_eval_log  # noqa: E402

from tests.conftest import REPO  # noqa: E402
from tests.test_lm_eval_source import audit, stored  # noqa: E402
from tests.test_rollouts import RIGHT, WRONG, run_cli, write_jsonl  # noqa: E402

COUNTDOWN = {"numbers": [14, 34, 28, 4], "target": 40}
COUNTDOWN_Q = "Using the numbers [14, 34, 28, 4], create an equation that equals 40."
COUNTDOWN_Q2 = COUNTDOWN_Q + " Show your work."
RIGHT_TRACE, WRONG_TRACE = (t.split("</think>")[0].strip() for t in (RIGHT, WRONG))
# (task, sample id, input, target, metadata, reasoning block or None, text of the completion)
SAMPLES = [
    ("countdown", "c1", COUNTDOWN_Q, "(14+34)/4+28", COUNTDOWN, None, "<think>" + RIGHT),
    ("countdown", "c2", COUNTDOWN_Q2, "(14+34)/4+28", COUNTDOWN, WRONG_TRACE, "<answer>(14+34)/4-28</answer>"),
    ("arith", "a1", "What is 17*3+9?", "60", {}, "17*3 = 51. 51+9 = 60.", "60"),
    ("arith", 2, "What is 17*3+8?", "59", {}, None, "17*3 = 51. 51+8 = 60. The answer is 60."),
]
# The same traces as a person would write them in the record format.
RECORDS = {
    "c1": {"domain": "countdown", "problem": {"input": COUNTDOWN_Q, **COUNTDOWN}, "trace": RIGHT_TRACE,
           "answer": "(14+34)/4+28"},
    "c2": {"domain": "countdown", "problem": {"input": COUNTDOWN_Q2, **COUNTDOWN}, "trace": WRONG_TRACE,
           "answer": "(14+34)/4-28"},
    "a1": {"domain": "freeform", "problem": {"question": "What is 17*3+9?", "reference_answer": "60"},
           "trace": "17*3 = 51. 51+9 = 60.", "answer": "60"},
    "2": {"domain": "freeform", "problem": {"question": "What is 17*3+8?", "reference_answer": "59"},
          "trace": SAMPLES[3][6], "answer": SAMPLES[3][6]},
}

EVAL_SCRIPT = r"""
import json, sys
from inspect_ai import Task, eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ContentReasoning, ContentText, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

log_dir, spec = sys.argv[1], json.loads(sys.argv[2])
by_input = {}
tasks = {}
for task, sid, question, target, metadata, reasoning, text in spec["samples"]:
    content = text if reasoning is None else [ContentReasoning(reasoning=reasoning), ContentText(text=text)]
    by_input[question] = content
    tasks.setdefault(task, []).append(Sample(id=sid, input=question, target=target, metadata=metadata))

def respond(messages, tools, tool_choice, config):
    content = by_input[messages[-1].text]
    if content == "FAIL":
        raise RuntimeError("the mock model fails on this sample")
    output = ModelOutput.from_content("mockllm/model", content)
    output.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)  # no tokenizer download
    return output

model = get_model("mockllm/model", custom_outputs=respond)
logs = inspect_eval([Task(name=t, dataset=s, solver=generate(), scorer=match(), epochs=spec["epochs"])
                     for t, s in tasks.items()], model=model, log_dir=log_dir, display="none",
                    fail_on_error=False, retry_on_error=0)
print(json.dumps({log.eval.task: log.location for log in logs}))
"""


def run_eval(log_dir: Path, samples: list[tuple], epochs: int = 1) -> dict[str, Path]:
    """Runs the eval (a subprocess, so Inspect's logging set-up stays out of this one): task -> .eval log."""
    proc = subprocess.run([sys.executable, "-c", EVAL_SCRIPT, str(log_dir),
                           json.dumps({"samples": samples, "epochs": epochs})],
                          cwd=REPO, capture_output=True, timeout=240,
                          env={**os.environ, "INSPECT_LOG_LEVEL": "warning"})
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return {task: Path(location) for task, location in json.loads(proc.stdout.decode().splitlines()[-1]).items()}


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    return run_eval(tmp_path_factory.mktemp("inspect-logs"), SAMPLES)


def expected_records(log: Path, epochs: int = 1) -> list[dict]:
    header = read_eval_log(str(log), header_only=True).eval
    return [{"id": f"{header.task}/{header.eval_id}/{sid}/{epoch}", "model": "mockllm/model", **RECORDS[str(sid)]}
            for sid in header.dataset.sample_ids for epoch in range(1, epochs + 1)]


def plain_verdicts(tmp_path: Path, records: list[dict], name: str) -> list[dict]:
    src = write_jsonl(tmp_path / f"{name}.jsonl", records)
    verdicts, summary = audit(src, f"sqlite:///{tmp_path / f'{name}.db'}", tmp_path / f"{name}-v.jsonl")
    assert "source                       record (record-format fields)" in summary
    return verdicts


@pytest.mark.parametrize("task, domain", [("countdown", "countdown"), ("arith", "freeform")])
def test_an_inspect_eval_log_audits_like_the_same_records(tmp_path, db_url, logs, task, domain):
    log = logs[task]
    verdicts, summary = audit(log, db_url, tmp_path / "v.jsonl")
    assert "source                       inspect (a .eval file (an Inspect log archive))" in summary
    assert f"inspect task                 {task} -> domain {domain}" in summary
    assert verdicts == plain_verdicts(tmp_path, expected_records(log), "plain")
    assert [v["answer_correct"] for v in verdicts] == ([True, False] if task == "countdown" else [True, False])
    rows = stored(db_url)
    assert [r["status"] for r in rows] == ["ok", "ok"]
    header = read_eval_log(str(log), header_only=True).eval
    for row, sid in zip(rows, header.dataset.sample_ids):
        link = row["meta"]["inspect"]
        assert link["log"] == str(log) and link["sample_id"] == sid and link["epoch"] == 1
        assert link["task"] == task and link["eval_id"] == header.eval_id
        assert set(link["scores"]) == {"match"} and link["scores"]["match"]["value"] in ("C", "I")
    if task == "countdown":
        assert [r["meta"]["inspect"]["answer_from"] for r in rows] == ["answer_tag", "reasoning blocks"]


def test_the_same_log_as_json_and_every_epoch(tmp_path, logs):
    from inspect_ai.log import write_eval_log

    log = logs["arith"]
    json_log = tmp_path / "arith.json"
    write_eval_log(read_eval_log(str(log)), str(json_log), format="json")
    verdicts, summary = audit(json_log, f"sqlite:///{tmp_path / 'j.db'}", tmp_path / "j.jsonl")
    assert "inspect (an Inspect JSON log ('version' and 'eval' at its top))" in summary
    expected = plain_verdicts(tmp_path, expected_records(log), "plain")
    assert sorted(verdicts, key=lambda v: v["id"]) == sorted(expected, key=lambda v: v["id"])
    twice = run_eval(tmp_path / "epochs", SAMPLES[2:], epochs=2)["arith"]
    verdicts, _ = audit(twice, f"sqlite:///{tmp_path / 'e.db'}", tmp_path / "e.jsonl")
    assert verdicts == plain_verdicts(tmp_path, expected_records(twice, epochs=2), "epochs")
    assert [v["id"].rsplit("/", 1)[1] for v in verdicts] == ["1", "2", "1", "2"]


def test_an_archive_cut_short_keeps_the_samples_before_the_cut(tmp_path, logs):
    log = logs["countdown"]
    entries = {i.filename: i for i in zipfile.ZipFile(log).infolist()}
    second = entries["samples/c2_epoch_1.json"]
    cut = tmp_path / "cut.eval"
    cut.write_bytes(log.read_bytes()[:second.header_offset + 40])
    verdicts, summary = audit(cut, f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "v.jsonl")
    assert "unreadable (parse.ok=false)  1" in summary
    first = [v for v in plain_verdicts(tmp_path, expected_records(log), "plain") if v["id"].endswith("/c1/1")]
    assert verdicts[:1] == first
    message = verdicts[1]["parse"]["errors"][0]["message"]
    assert "the .eval archive is cut short (no ZIP directory): 1 sample entry before the cut read" in message
    assert [r["status"] for r in stored(f"sqlite:///{tmp_path / 'a.db'}")] == ["ok", "malformed"]


def test_a_sample_with_no_output_and_files_that_are_no_logs(tmp_path):
    flaky = run_eval(tmp_path / "flaky", [("arith", "ok", "What is 2+2?", "4", {}, None, "4"),
                                          ("arith", "bad", "What is 3+3?", "6", {}, None, "FAIL")])["arith"]
    verdicts, summary = audit(flaky, f"sqlite:///{tmp_path / 'f.db'}", tmp_path / "f.jsonl")
    assert [v["parse"]["ok"] for v in verdicts] == [True, False] and verdicts[0]["answer_correct"] is True
    message = verdicts[1]["parse"]["errors"][0]["message"]
    assert "sample 'bad' epoch 1 has no output" in message and "the mock model fails on this sample" in message
    other = write_jsonl(tmp_path / "other.json", [{"id": "r1", "trace": "2+2=4", "answer": "4"}])
    verdicts, summary = audit(other, f"sqlite:///{tmp_path / 'o.db'}", tmp_path / "o.jsonl", "--source", "inspect")
    assert "inspect (given with --source)" in summary and len(verdicts) == 1
    assert "other.json: not a readable Inspect eval log" in verdicts[0]["parse"]["errors"][0]["message"]
    junk = tmp_path / "junk.eval"
    junk.write_bytes(b"\x00\x01 not a zip")
    verdicts, _ = audit(junk, f"sqlite:///{tmp_path / 'k.db'}", tmp_path / "k.jsonl")
    assert "junk.eval: not an Inspect log" in verdicts[0]["parse"]["errors"][0]["message"]
    proc = run_cli("audit", str(junk), "--db", f"sqlite:///{tmp_path / 'r.db'}", "--source", "record")
    assert proc.returncode == 2 and b"only --source inspect reads it" in proc.stderr
