"""RL rollout dumps through `cli.py audit` (issue 21): verl's `rollout_data_dir` JSONL and TRL's
GRPOTrainer completions table (JSONL and Parquet), into a real SQLite file, with the trainer's
rewards beside the verdicts in the explorer and the corpus export.

The files are written here in the layouts the trainers write (rewards/rollouts.py cites where
each comes from): verl rows `input`/`output`/`gts`/`score`/`step` plus reward_extra_info keys;
TRL rows `step`/`prompt`/`completion`, one column per reward function, `advantage`.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import sqlalchemy as sa

from db.engine import make_engine
from db.queries import recent_traces, verdict_rows
from audit import audit_record
from core.record import record_from_json
from records_io.report import to_csv, to_html, to_json
from rewards.rollouts import RolloutConverter, RolloutError, detect_layout, rollout_to_record
from tests.conftest import REPO, load_dev
from tests.test_pages import app  # noqa: F401 - the AppTest factory fixture

# TinyZero's Countdown prompt with Qwen's chat template, decoded without special tokens as verl
# dumps it (the prompt ends inside the <think> block, so the response starts in the thinking).
TINYZERO_PROMPT = (
    "system\nYou are a helpful assistant. You first thinks about the reasoning process in the mind and then "
    "provides the user with the answer.\nuser\n Using the numbers [14, 34, 28, 4], create an equation that "
    "equals 40. You can use basic arithmetic operations (+, -, *, /) and each number can only be used once. Show "
    "your work in <think> </think> tags. And return the final answer in <answer> </answer> tags, for example "
    "<answer> (1 + 2) / 3 </answer>.\nassistant\nLet me solve this step by step.\n<think>")
RIGHT = " 14+34=48, and 48/4=12. Then 12+28=40.</think>\n<answer>(14+34)/4+28</answer>"
WRONG = " 14+34=48, and 48/4=12. Then 12-28=40.</think>\n<answer>(14+34)/4-28</answer>"
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)></think><answer><b>1</b></answer>"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "cli.py", *args], cwd=REPO, capture_output=True, timeout=240)


def write_jsonl(path: Path, rows: list, raw_lines: tuple[str, ...] = ()) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        for line in raw_lines:
            fh.write(line + "\n")
    return path


def verl_rows() -> list[dict]:
    plan = next(r for r in load_dev("planbench_plans.jsonl") if r["domain"] == "blocksworld")
    return [
        # verl with gts and Stepscope's own details dict as reward_extra_info (its `domain` key names it)
        {"input": TINYZERO_PROMPT, "output": RIGHT, "gts": {"target": 40, "numbers": [14, 34, 28, 4]},
         "score": 1.1, "step": 7, "outcome": 1.0, "format": 1.0, "process": 0.0, "domain": "countdown",
         "reason": "the answer is right", "first_invalid_step": -1},
        # older verl: no gts; the problem comes from TinyZero's prompt, the domain from --domain
        {"input": TINYZERO_PROMPT, "output": WRONG, "score": 0.1, "step": 7, "acc": 0.0},
        {"input": TINYZERO_PROMPT, "output": HOSTILE, "score": 0.0, "step": 7},
        # a planning row: data_source names the domain, gts holds the PDDL as a JSON string
        {"input": "plan it", "output": f"<think>I will stack.</think>\n{plan['answer']}",
         "gts": json.dumps({"domain_pddl": plan["problem"]["domain_pddl"],
                            "problem_pddl": plan["problem"]["problem_pddl"]}),
         "data_source": "planbench/blocksworld", "score": 1.0, "step": 8},
        # malformed rows: no problem anywhere; output that is not text; a gts that is not a problem
        {"input": "Reach 24.", "output": "<answer>4*6</answer>", "score": 0.0, "step": 8},
        {"input": TINYZERO_PROMPT, "output": 12, "score": 0.0, "step": 8},
        {"input": TINYZERO_PROMPT, "output": RIGHT, "gts": "not a problem", "score": 0.0, "step": 8},
    ]


def test_verl_dump_through_cli_into_sqlite(tmp_path):
    src = write_jsonl(tmp_path / "7.jsonl", verl_rows(), raw_lines=('{"input": "cut short", "output": "x', ))
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    out = tmp_path / "v.jsonl"
    proc = run_cli("audit", str(src), "--db", db, "--out", str(out), "--domain", "countdown")
    assert proc.returncode == 0, proc.stderr.decode()
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(verdicts) == 8  # one per line, malformed ones included
    right, wrong, hostile, plan = verdicts[:4]
    assert right["domain"] == "countdown" and right["answer_correct"] is True
    assert wrong["answer_correct"] is False and "-16" in wrong["answer_error"]["message"]
    assert hostile["answer_correct"] is False
    assert plan["domain"] == "blocksworld" and plan["answer_correct"] in (True, False)
    errors = [v["parse"]["errors"][0]["message"] for v in verdicts[4:]]
    assert "no countdown problem" in errors[0] and "gts" in errors[0]
    assert "'output' column is not text" in errors[1]
    assert "the 'gts' column" in errors[2] and "countdown" in errors[2]
    assert "not valid JSON" in errors[3]

    engine = make_engine(db)
    rows = sorted(verdict_rows(engine), key=lambda r: r["line_no"])
    assert len(rows) == 8 and [r["status"] == "ok" for r in rows] == [True] * 4 + [False] * 4
    first = rows[0]["rollout"]
    assert first["layout"] == "verl" and first["step"] == 7 and first["problem_from"] == "gts"
    assert first["rewards"] == {"score": 1.1, "outcome": 1.0, "format": 1.0, "process": 0.0}
    assert rows[1]["rollout"]["problem_from"] == "prompt" and rows[1]["rollout"]["rewards"] == {"score": 0.1,
                                                                                               "acc": 0.0}
    with engine.connect() as conn:  # the rows are stored verbatim, malformed ones included
        raws = [bytes(r[0]) for r in conn.execute(sa.text("SELECT raw FROM record ORDER BY line_no"))]
    assert json.loads(raws[2]) == verl_rows()[2] and raws[7] == b'{"input": "cut short", "output": "x'

    # a second run stores nothing twice
    again = run_cli("audit", str(src), "--db", db, "--domain", "countdown")
    assert again.returncode == 0 and "new records stored           0" in again.stderr.decode()


def trl_rows(conversational: bool) -> list[dict]:
    def msg(role: str, text: str) -> list[dict]:
        return [{"role": role, "content": text}]

    prompt = TINYZERO_PROMPT.split("user\n", 1)[1].split("\nassistant", 1)[0].strip()
    rows = []
    for k, (text, outcome) in enumerate(((RIGHT, 1.0), (WRONG, 0.0))):
        completion = "<think>" + text
        rows.append({"step": 30, "prompt": msg("user", prompt) if conversational else prompt,
                     "completion": msg("assistant", completion) if conversational else completion,
                     "stepscope_countdown_outcome": outcome, "stepscope_countdown_format": 1.0,
                     "stepscope_countdown_process": 1.0 - k, "advantage": 0.7 if outcome else -0.7})
    return rows


def test_trl_completions_jsonl_conversational_and_parquet(tmp_path):
    db = f"sqlite:///{tmp_path / 'trl.db'}"
    src = write_jsonl(tmp_path / "completions_00030.jsonl", trl_rows(conversational=True))
    proc = run_cli("audit", str(src), "--db", db, "--domain", "countdown", "--out", str(tmp_path / "a.jsonl"))
    assert proc.returncode == 0, proc.stderr.decode()
    table = pa.Table.from_pylist(trl_rows(conversational=False))
    pq.write_table(table, tmp_path / "completions_00030.parquet")
    proc = run_cli("audit", str(tmp_path / "completions_00030.parquet"), "--db", db, "--domain", "countdown",
                   "--out", str(tmp_path / "b.jsonl"))
    assert proc.returncode == 0, proc.stderr.decode()
    for name in ("a.jsonl", "b.jsonl"):
        got = [json.loads(line)["answer_correct"] for line in (tmp_path / name).read_text().splitlines()]
        assert got == [True, False], name
    rows = sorted(verdict_rows(make_engine(db)), key=lambda r: (r["line_no"], r["pk"]))
    assert len(rows) == 4
    for row in rows:
        assert row["rollout"]["layout"] == "trl" and row["rollout"]["step"] == 30
        assert set(row["rollout"]["rewards"]) == {"stepscope_countdown_outcome", "stepscope_countdown_format",
                                                  "stepscope_countdown_process"}
        assert row["rollout"]["advantage"] in (0.7, -0.7)
    # TRL's reward columns agree with the stored verdicts
    assert [r["rollout"]["rewards"]["stepscope_countdown_outcome"] == 1.0 for r in rows] == \
        [r["verdict"]["answer_correct"] for r in rows]


def test_trl_planning_rows_with_a_ground_truth_column_and_layout_override(tmp_path):
    plan = next(r for r in load_dev("planbench_plans.jsonl") if r["domain"] == "mystery_blocksworld")
    row = {"step": 2, "prompt": "Here is the problem ...", "completion": plan["answer"], "stepscope_score": 0.5,
           "ground_truth": json.dumps(plan["problem"]), "advantage": 0.0}
    src = write_jsonl(tmp_path / "c.jsonl", [row])
    db = f"sqlite:///{tmp_path / 'p.db'}"
    proc = run_cli("audit", str(src), "--db", db, "--domain", "mystery_blocksworld", "--rollout-layout", "trl",
                   "--out", str(tmp_path / "v.jsonl"))
    assert proc.returncode == 0, proc.stderr.decode()
    verdict = json.loads((tmp_path / "v.jsonl").read_text())
    assert verdict["domain"] == "mystery_blocksworld"
    expected = audit_record(record_from_json(plan)).verdict
    assert verdict["answer_correct"] == expected.answer_correct
    # the layout named: a record-format line is not a TRL row
    src2 = write_jsonl(tmp_path / "d.jsonl", [{"id": "r1", "domain": "countdown", "trace": "", "answer": "1"}])
    proc = run_cli("audit", str(src2), "--db", db, "--rollout-layout", "trl", "--out", str(tmp_path / "w.jsonl"))
    assert proc.returncode == 0
    assert "without its 'completion' column" in json.loads((tmp_path / "w.jsonl").read_text())["parse"]["errors"][0][
        "message"]


def test_records_pass_unchanged_in_auto_mode():
    convert = RolloutConverter()
    record = {"id": "x", "domain": "countdown", "trace": "t", "answer": "a", "prompt": "p", "completion": "c"}
    assert convert(record) is record
    chat = {"choices": [{"message": {"content": "hi"}}], "input": "a", "output": "b"}
    assert convert(chat) is chat
    assert detect_layout({"input": 1, "output": 2}) == "verl" and detect_layout({"prompt": 1, "completion": 2}) == "trl"
    with pytest.raises(ValueError):
        RolloutConverter("openrlhf")


@pytest.mark.parametrize("prompt, error", [
    ("Using the numbers [1, 2, 3], create an equation that equals 6. Using the numbers [4, 5], create an "
     "equation that equals 9.", "more than one Countdown problem"),
    ("Use 1, 2 and 3 to make 6.", "no countdown problem"),
    ("Using the numbers [1, 2, x], create an equation that equals 6.", "no countdown problem"),
])
def test_countdown_prompt_is_read_only_when_it_states_one_problem(prompt, error):
    with pytest.raises(RolloutError, match=error):
        rollout_to_record({"input": prompt, "output": "<answer>1+2+3</answer>"}, domain="countdown")


def test_countdown_prompt_read_whole():
    rec = rollout_to_record({"input": TINYZERO_PROMPT, "output": RIGHT, "score": 1.0}, domain="countdown")
    assert rec["problem"] == {"numbers": [14, 34, 28, 4], "target": 40}
    assert rec["trace"] == "14+34=48, and 48/4=12. Then 12+28=40." and rec["answer"] == "(14+34)/4+28"
    assert rec["meta"]["rollout"] == {"layout": "verl", "problem_from": "prompt", "rewards": {"score": 1.0}}


def test_no_domain_is_a_clear_error():
    with pytest.raises(RolloutError, match="names no domain.*--domain"):
        rollout_to_record({"input": TINYZERO_PROMPT, "output": RIGHT, "data_source": "openai/gsm9k-ish"})


def test_upload_page_reads_a_verl_dump_as_the_cli_does(app):  # noqa: F811 - the fixture
    """A rollout dump uploaded in the browser becomes records with their rewards; the chosen
    domain stands for rows that name none, and a row that cannot become a record is listed with
    its reason while the others go through."""
    rows = verl_rows()[:3] + [verl_rows()[4]]
    at = app("upload").run()
    at.selectbox[0].set_value("countdown")
    at.file_uploader[0].set_value(("7.jsonl", "\n".join(json.dumps(r) for r in rows).encode(), "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Records"] == "4" and metrics["Unreadable"] == "1"
    stored = sorted(verdict_rows(make_engine(app.url)), key=lambda r: r["line_no"])
    assert [r["domain"] for r in stored[:3]] == ["countdown"] * 3
    assert [r["verdict"]["answer_correct"] for r in stored[:3]] == [True, False, False]
    assert stored[0]["rollout"]["rewards"]["score"] == 1.1 and stored[1]["rollout"]["problem_from"] == "prompt"
    problems = next(d.value for d in at.dataframe if "file line" in d.value.columns)
    assert list(problems["file line"]) == [4] and "no countdown problem" in " ".join(map(str, problems.iloc[0]))


def test_export_and_explorer_show_the_rewards(app, tmp_path):  # noqa: F811 - the fixture
    rows = verl_rows()[:3]
    rows[2] = {**rows[2], "<img src=x onerror=alert(3)>": 2.5}  # a hostile reward column name
    src = write_jsonl(tmp_path / "7.jsonl", rows)
    proc = run_cli("audit", str(src), "--db", app.url, "--domain", "countdown")
    assert proc.returncode == 0, proc.stderr.decode()
    engine = make_engine(app.url)
    stored = sorted(verdict_rows(engine), key=lambda r: r["line_no"])
    csv_text = to_csv(stored)
    assert "reward,rewards" in csv_text.splitlines()[0]
    assert "1.1,score=1.1; outcome=1; format=1; process=0" in csv_text
    exported = json.loads(to_json(stored))
    assert exported[1]["rollout"]["rewards"] == {"score": 0.1, "acc": 0.0}
    html_report = to_html(stored)
    assert "rollout rewards: score=1.1" in html_report and "<img src=x" not in html_report

    traces = {r["record_id"]: r["share_id"] for r in recent_traces(engine)}
    share = traces[stored[0]["record_id"]]
    at = app("explorer", trace=share).run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert any(t.startswith("verl rollout · step 7 · score=1.1; outcome=1; format=1; process=0") for t in texts), texts
    assert any(m.label == "Answer" and m.value == "correct" for m in at.metric)
    at = app("explorer", trace=traces[stored[2]["record_id"]]).run()
    assert not at.exception
    assert any("<img src=x onerror=alert(3)>=2.5" in t.value for t in at.text)  # shown as text, verbatim


def test_the_ray_engines_audit_block_converts_rollouts_as_the_local_engine_does():
    """The Ray engine's task body (engines/ray_engine.py, audit_block) called directly, without a
    cluster: with the CLI's converter it gives the local engine's verdict line for line."""
    ray_engine = pytest.importorskip("engines.ray_engine")
    from records_io.intake import iter_jsonl
    from core.limits import current_limits
    from pipeline import unit_rows

    lines = [json.dumps(row).encode() for row in verl_rows()]
    convert = RolloutConverter("auto", "countdown")
    batch = pa.table({"source": ["7.jsonl"] * len(lines), "line": list(range(1, len(lines) + 1)), "raw": lines,
                      "first": [i == 0 for i in range(len(lines))], "error": [None] * len(lines)})
    out = ray_engine.audit_block(batch, db_url=None, default_domain="countdown", limits=current_limits(),
                                 with_verdicts=True, convert=convert).to_pylist()
    local = [unit_rows(u, current_limits()).verdict
             for u in iter_jsonl(io.BytesIO(b"\n".join(lines)), default_domain="countdown", convert=convert)]
    assert [json.loads(r["verdict_json"]) for r in out] == local
    assert [r["domain"] for r in out][:4] == ["countdown", "countdown", "countdown", "blocksworld"]
