"""The line layouts Stepscope read before there were sources: records, chat completions,
step-labelled dataset rows (validators/step_rows.py) and RL rollout dumps (rewards/rollouts.py).
Detected, they keep the per-row conversion they always had (a file may mix them); forced
(`--source NAME`), every row must be of that layout."""

from __future__ import annotations

from typing import Any, Callable

from records_io.intake import Converter
from core.record import RecordError
from records_io.step_rows import is_step_row
from rewards.rollouts import RolloutConverter, is_rollout_row, rollout_to_record
from sources.base import Options, Plan, Probe, Source
from validators.step_rows import StepRowsConverter


def auto_chain(domain: str | None, rollout_layout: str = "auto", fallback: str | None = None) -> Converter:
    """Steps rows and rollout rows become records, anything else passes unchanged; `fallback` is
    a steps row's task when neither the row, `domain` nor its input tells one (the upload form's default)."""
    return StepRowsConverter(domain, RolloutConverter(rollout_layout, domain), fallback=fallback)


class OnlyLayout:
    """Refuses objects not of one layout, converting those that are; pickles (worker processes)."""

    def __init__(self, what: str, accepts: Callable[[Any], bool], convert: Converter | None = None) -> None:
        self.what = what
        self.accepts = accepts
        self.convert = convert

    def __call__(self, obj: Any) -> Any:
        if not self.accepts(obj):
            keys = ", ".join(sorted(map(str, obj))[:12]) if isinstance(obj, dict) else type(obj).__name__
            raise RecordError(f"not {self.what} (--source was given; keys here: {keys or 'none'})")
        return self.convert(obj) if self.convert is not None else obj


def is_chat_completion(obj: Any) -> bool:
    return isinstance(obj, dict) and "choices" in obj and "trace" not in obj


def is_not_completion(obj: Any) -> bool:
    return isinstance(obj, dict) and not is_chat_completion(obj)


def is_record(obj: Any) -> bool:
    return isinstance(obj, dict) and not is_chat_completion(obj) and not is_step_row(obj) and not is_rollout_row(obj)


def _line_plan(name: str, forced: Converter) -> Callable[[Probe, Options, str], Plan]:
    def plan(probe: Probe, options: Options, reason: str) -> Plan:
        return Plan(name, reason, forced if options.forced else options.fallback)
    return plan


def _first_is(accepts: Callable[[Any], bool], reason: str) -> Callable[[Probe, Options], str | None]:
    def detect(probe: Probe, options: Options) -> str | None:
        return reason if probe.fmt in ("jsonl", "json", "parquet") and accepts(probe.first) else None
    return detect


class _StrictRollout:
    def __init__(self, layout: str, domain: str | None) -> None:
        self.layout = None if layout == "auto" else layout
        self.domain = domain

    def __call__(self, obj: Any) -> Any:
        return rollout_to_record(obj, self.layout, self.domain)


def _rollout_plan(probe: Probe, options: Options, reason: str) -> Plan:
    if not options.forced:
        return Plan("rollout", reason, options.fallback)
    return Plan("rollout", reason, _StrictRollout(options.rollout_layout, options.domain))


def _steps_plan(probe: Probe, options: Options, reason: str) -> Plan:
    if not options.forced:
        return Plan("step_rows", reason, options.fallback)
    return Plan("step_rows", reason, OnlyLayout("a step-labelled row ('steps' list and 'input')", is_step_row,
                                                StepRowsConverter(options.domain)))


def _record_detect(probe: Probe, options: Options) -> str:
    return "record-format fields" if is_record(probe.first) else "the default"


SOURCES = (
    Source("step_rows", "step-labelled dataset rows (BIG-Bench Mistake, ProcessBench): a 'steps' list", 30,
           _first_is(is_step_row, "a 'steps' list in the first row"), _steps_plan),
    Source("rollout", "verl / TRL rollout dumps (input/output or prompt/completion rows)", 40,
           _first_is(is_rollout_row, "rollout columns in the first row"), _rollout_plan),
    Source("chat_completion", "OpenAI/litellm chat-completion responses", 50,
           _first_is(is_chat_completion, "'choices' in the first object"),
           _line_plan("chat_completion", OnlyLayout("a chat completion ('choices')", is_chat_completion))),
    Source("record", "Stepscope's record format (README, 'The record format')", 100, _record_detect,
           _line_plan("record", OnlyLayout("a record (a JSON object that is no chat completion)", is_not_completion))),
)
