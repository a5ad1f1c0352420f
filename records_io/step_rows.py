"""Rows of step-labelled datasets (BIG-Bench Mistake, ProcessBench, PRM800K-style lists) as records.

Such a row holds its chain of thought as a list of step strings (`steps`) and labels a person
gave it. The steps become the record's trace, read one step per element by the `steps` format
(trace_parsers/steps.py), so step i of a verdict is element i of the list. The labels become
`reference_labels`: kept beside our verdicts for comparison, never read by a replay.

This module knows the layout only; which task a row poses is the domains' business
(validators.registry.infer_domain).
"""

from __future__ import annotations

from typing import Any

from core.record import RecordError

STEPS_FORMAT = "steps"

# Label fields of the datasets read here: BIG-Bench Mistake's `mistake_index` (0-based, null
# when there is none), ProcessBench's `label` (-1 when there is none), per-step ratings.
LABEL_KEYS = ("mistake_index", "label", "ratings", "step_labels", "final_answer_correct")
# Where the problem statement sits: BIG-Bench Mistake `input`, ProcessBench `problem`.
_PROBLEM_KEYS = ("input", "problem", "question")
_ANSWER_KEYS = ("answer", "final_answer")
_TASK_KEYS = ("domain", "task")


def is_step_row(obj: Any) -> bool:
    """A row of the layout: a `steps` list of strings instead of a record's `trace`."""
    return (isinstance(obj, dict) and "trace" not in obj and isinstance(obj.get("steps"), list)
            and all(isinstance(s, str) for s in obj["steps"])
            and any(isinstance(obj.get(k), str) for k in _PROBLEM_KEYS))


def row_task(obj: dict[str, Any]) -> str | None:
    """The task the row names itself, if any."""
    for key in _TASK_KEYS:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    return None


def row_problem(obj: dict[str, Any]) -> dict[str, Any]:
    """The problem of a row: its statement as `input`, its reference answer as `target`."""
    problem: dict[str, Any] = {}
    for key in _PROBLEM_KEYS:
        if isinstance(obj.get(key), str):
            problem["input"] = obj[key]
            break
    if "target" in obj:
        problem["target"] = obj["target"]
    return problem


def step_row_to_record(obj: dict[str, Any], domain: str | None) -> dict[str, Any]:
    """The record object of one row; `domain` is the task it poses (None: the row must name it)."""
    if not is_step_row(obj):
        raise RecordError("not a steps row: expected a 'steps' list of strings and an 'input' or 'problem'")
    domain = row_task(obj) or domain
    if not domain:
        raise RecordError("this steps row names no task and its input is not recognisably one; "
                          "give the task (cli.py audit FILE --domain NAME, or the domain picker)")
    used = {"steps", "target", "id", "model", *LABEL_KEYS, *_PROBLEM_KEYS, *_ANSWER_KEYS, *_TASK_KEYS}
    answer = next((obj[k] for k in _ANSWER_KEYS if k in obj), "")
    record: dict[str, Any] = {
        "domain": domain, "format": STEPS_FORMAT, "problem": row_problem(obj), "trace": list(obj["steps"]),
        "answer": answer if isinstance(answer, str) else ("" if answer is None else str(answer)),
        "reference_labels": {k: obj[k] for k in LABEL_KEYS if k in obj},
        "meta": {k: v for k, v in obj.items() if k not in used},
    }
    for key in ("id", "model"):
        if obj.get(key) is not None:
            record[key] = obj[key]
    return record
