"""Rollout dumps of RL training runs as Stepscope records, so a run's completions open in the app
with the rewards the trainer gave them beside the verdicts (`cli.py audit` reads them).

The two layouts, as the trainers write them (the layout is told by a row's keys):

* **verl**: `trainer.rollout_data_dir` (training) and `trainer.validation_data_dir` (validation)
  get one JSONL file per step, `{global_step}.jsonl`, one row per response: `input` (the prompt,
  decoded with `skip_special_tokens=True`), `output` (the response, decoded the same way), `gts`
  (the row's `reward_model.ground_truth`; verl versions from mid-2025 on), `score` (the summed
  token-level reward), `step`, and every key of the reward function's `reward_extra_info` as a
  further column (`acc`, `pred`, or the keys of Stepscope's own details dict, `domain` among
  them). Source: verl, `verl/trainer/ppo/ray_trainer.py`, `RayPPOTrainer._dump_generations` and
  `_log_rollout_data`.
* **trl**: `GRPOTrainer` with `log_completions=True` logs a "completions" table per logging step
  with columns `step`, `prompt`, `completion`, one column per reward function named by its
  `__name__` (`self._logs["rewards"]`), and `advantage` (TRL 0.14 logged one `reward` column
  instead; some versions add `mode`). Source: TRL, `trl/trainer/grpo_trainer.py`,
  `GRPOTrainer.log`. It goes to wandb/trackio (export the table as JSONL or Parquet), and some
  versions also write `<output_dir>/completions/completions_{step:05d}.parquet` with `step`,
  `prompt` and `completion` only: those rows convert too, without rewards. A prompt or
  completion may be a list of chat messages (conversational datasets).

The problem comes from the row (`gts`, `ground_truth`, `reward_model`, `problem`, or Countdown's
`target` and `nums`/`numbers` columns), else from the prompt where the domain's prompt states it
whole: TinyZero's Countdown prompt ("Using the numbers [19, 36, 55, 7], create an equation that
equals 65"), and a maze prompt, which is the maze problem itself. The domain: the row's
`data_source` or `domain`, else the caller's default. A row that gives neither a domain nor a
problem raises RolloutError with the reason; the intake keeps it as an unreadable unit.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Mapping

from core.record import RecordError, canonical_json
from rewards.problem import plain, resolve_domain, resolve_problem
from rewards.split import split_completion
from rewards.trl import completion_text, prompt_text

LAYOUTS = ("verl", "trl")
# Columns that are not rewards: the text, the problem, bookkeeping.
_NOT_REWARDS = frozenset({"input", "output", "prompt", "completion", "gts", "ground_truth", "reward_model", "problem",
                          "step", "advantage", "mode", "data_source", "domain", "extra_info", "request_id", "uid",
                          "target", "nums", "numbers", "first_invalid_step", "judged_steps", "invalid_steps"})
_MAX_NOTE_CHARS = 500
# TinyZero's Countdown prompt (Jiayi-Pan/TinyZero, examples/data_preprocess/countdown.py,
# make_prefix): "Using the numbers {numbers}, create an equation that equals {target}."
_COUNTDOWN_PROMPT = re.compile(
    r"Using the numbers \[(?P<nums>\s*-?\d+(?:\s*,\s*-?\d+)*\s*)\],?\s*create an equation that equals\s+(?P<target>-?\d+)",
    re.I)


class RolloutError(RecordError):
    """A rollout row that cannot become a record; the message says why."""


def detect_layout(row: Mapping[str, Any]) -> str | None:
    """'verl' (input/output), 'trl' (prompt/completion), or None (not a rollout row)."""
    if "output" in row and "input" in row:
        return "verl"
    if "completion" in row and "prompt" in row:
        return "trl"
    return None


def is_rollout_row(obj: Any) -> bool:
    """A JSON object in a rollout layout that is not already a record or a chat completion."""
    return (isinstance(obj, Mapping) and detect_layout(obj) is not None
            and not any(k in obj for k in ("trace", "answer", "choices")))


def rollout_to_record(row: Mapping[str, Any], layout: str | None = None, domain: str | None = None) -> dict[str, Any]:
    """The record-format object of one rollout row; raises RolloutError with the reason."""
    if not isinstance(row, Mapping):
        raise RolloutError(f"a rollout row must be a JSON object, got {type(row).__name__}")
    found = detect_layout(row)
    layout = layout or found
    if layout not in LAYOUTS:
        raise RolloutError("not a rollout row: verl rows have 'input' and 'output', TRL rows 'prompt' and "
                           f"'completion' (keys here: {', '.join(sorted(map(str, row))[:12]) or 'none'})")
    text_key, prompt_key = ("output", "input") if layout == "verl" else ("completion", "prompt")
    if text_key not in row:
        raise RolloutError(f"{layout} rollout row without its '{text_key}' column")
    completion = completion_text(plain(row[text_key]))
    if completion is None:
        raise RolloutError(f"the '{text_key}' column is not text or chat messages "
                           f"(got {type(row[text_key]).__name__})")
    prompt = prompt_text(plain(row.get(prompt_key)))
    name = resolve_domain(row.get("data_source")) or resolve_domain(row.get("domain")) or resolve_domain(domain)
    if name is None:
        given = row.get("data_source") or row.get("domain") or domain
        raise RolloutError(f"{layout} rollout row names no domain Stepscope knows"
                           + (f" ({str(given)[:80]!r})" if given else "")
                           + ": give one with --domain, or a 'data_source' column")
    problem, origin = _problem(name, row, prompt)
    split = split_completion(completion, name)
    rollout: dict[str, Any] = {"layout": layout, "problem_from": origin}
    step = plain(row.get("step"))
    if step is not None:
        rollout["step"] = step
    rewards = _rewards(row)
    if rewards:
        rollout["rewards"] = rewards
    for key in ("advantage", "mode", "request_id", "uid"):
        value = plain(row.get(key))
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            rollout[key] = value[:_MAX_NOTE_CHARS] if isinstance(value, str) else value
    if split.notes:
        rollout["split"] = list(split.notes)
    return {
        "id": f"{layout}-" + hashlib.sha256(canonical_json(plain(dict(row))).encode("utf-8", "surrogatepass"))
        .hexdigest()[:20],
        "domain": name, "problem": problem, "trace": split.trace, "answer": split.answer,
        "meta": {"rollout": rollout, "prompt": prompt},
    }


def _rewards(row: Mapping[str, Any]) -> dict[str, float]:
    """The numeric columns of the row that are not bookkeeping: the trainer's score and its
    reward functions' values (verl: `score` and the `reward_extra_info` keys; TRL: one per function)."""
    out: dict[str, float] = {}
    for key, value in row.items():
        value = plain(value)
        if key in _NOT_REWARDS or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        out[str(key)[:100]] = value
    return out


def _problem(domain: str, row: Mapping[str, Any], prompt: str) -> tuple[dict[str, Any], str]:
    for key in ("gts", "ground_truth", "reward_model", "problem"):
        if row.get(key) is not None:
            resolved = resolve_problem(domain, row[key])
            if resolved.error:
                raise RolloutError(f"the '{key}' column: {resolved.error}")
            return resolved.problem, key
    if domain == "countdown" and row.get("target") is not None and (row.get("nums") or row.get("numbers")) is not None:
        resolved = resolve_problem(domain, {"numbers": row.get("numbers", row.get("nums")), "target": row["target"]})
        if resolved.error:
            raise RolloutError(f"the target/numbers columns: {resolved.error}")
        return resolved.problem, "columns"
    if domain == "countdown":
        found = {(m.group("nums"), m.group("target")) for m in _COUNTDOWN_PROMPT.finditer(prompt)}
        if len(found) == 1:
            nums, target = found.pop()
            return {"numbers": json.loads(f"[{nums}]"), "target": int(target)}, "prompt"
        if len(found) > 1:
            raise RolloutError("the prompt states more than one Countdown problem "
                               "('Using the numbers [...], create an equation that equals N'); give a 'gts' column")
    if domain in ("maze", "sokoban") and prompt.strip():
        return {"prompt": prompt}, "prompt"
    raise RolloutError(f"no {domain} problem in this rollout row: no 'gts', 'ground_truth' or 'problem' column"
                       + (" and the prompt does not state one in TinyZero's words ('Using the numbers [...], create "
                          "an equation that equals N')" if domain == "countdown" else "")
                       + " (verl writes 'gts' from mid-2025 on; with TRL, add the problem as a column)")


class RolloutConverter:
    """The intake's hook (records_io.intake.Converter): rollout rows become records, any other object
    passes unchanged. With a layout named, every row is read in that layout. A class rather than a
    closure so that it pickles (worker processes, Ray tasks)."""

    def __init__(self, layout: str = "auto", domain: str | None = None) -> None:
        if layout != "auto" and layout not in LAYOUTS:
            raise ValueError(f"rollout layout {layout!r} is not one of auto, {', '.join(LAYOUTS)}")
        self.layout = layout
        self.domain = domain

    def __call__(self, obj: Any) -> Any:
        if self.layout == "auto":
            return rollout_to_record(obj, None, self.domain) if is_rollout_row(obj) else obj
        return rollout_to_record(obj, self.layout, self.domain)
