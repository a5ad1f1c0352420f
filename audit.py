"""Audit of one record: parse (trace_parsers) -> replay (validators) -> verdict (core). Pure and
total: it never raises. It sits above the model it uses and below db/ and pipeline.py."""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Iterator

from core.limits import Limits, current_limits
from core.record import TraceRecord
from core.steps import Step, StepGraph
from core.trace_kind import SUMMARY, is_summary
from core.verdicts import AnswerError, Gap, ParseError, StepVerdict, TraceVerdict
from trace_parsers import ParsedTrace, parse_record
from validators.base import Replay
from validators.registry import replay_record, validator_id


@dataclass
class AuditResult:
    record: TraceRecord
    parsed: ParsedTrace
    replay: Replay
    verdict: TraceVerdict
    validator: str = ""
    step_verdicts: dict[int, StepVerdict] = field(default_factory=dict)


def _cap(record: TraceRecord, parsed: ParsedTrace, limits: Limits) -> tuple[ParsedTrace, list[ParseError]]:
    """Enforce the steps-per-trace limit: keep the first steps and one step with the rest."""
    notes: list[ParseError] = []
    steps = parsed.graph.steps
    if len(steps) <= limits.max_steps:
        return parsed, notes
    kept = steps[: limits.max_steps - 1]
    rest_start = kept[-1].span[1] if kept else 0
    graph = parsed.graph.truncated(len(kept))
    overflow = Step(len(kept), "overflow", (rest_start, len(record.trace)),
                    record.trace[rest_start:rest_start + 2000], {"note": "steps beyond the limit, kept as one"},
                    parent=len(kept) - 1 if kept else None)
    graph.add(overflow)
    notes.append(ParseError(
        f"trace has {len(steps):,} steps, over the limit of {limits.max_steps:,}; "
        f"steps from {len(kept):,} on are kept as one unchecked step (STEPSCOPE_MAX_STEPS raises it)"
    ))
    return replace(parsed, graph=graph), notes


def _generic_gaps(answer_correct: bool | None, trace_valid: bool | None, invalid: list[int],
                  fully_checked: bool) -> list[Gap]:
    if answer_correct is True and trace_valid is False:
        return [Gap("right_answer_invalid_trace",
                    f"the answer is correct but {len(invalid)} trace step(s) are invalid", invalid[:50])]
    # "Every step valid" is only a claim about the trace when every step was judged; a thinking
    # trace with a few checkable claims says nothing about the rest.
    if answer_correct is False and trace_valid is True and fully_checked:
        return [Gap("wrong_answer_valid_trace", "every trace step is valid but the answer is wrong", [])]
    return []


_GC_LOCK = threading.Lock()
_GC_USERS = 0
_GC_SAVED: tuple[int, int, int] | None = None
BULK_GC_THRESHOLD = 20_000  # allocations between young-generation collections during an audit


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Fewer cyclic-GC passes while audits run.

    Parsing and replay allocate many short-lived objects that reference counting frees; at
    the default threshold (700) the collector still ran ~7,000 young and ~60 full passes over
    the whole heap (SQLAlchemy, lark, plotly ...) per 100k small traces (bench/bench_ingest.py:
    5,130 -> 5,970 traces/s at 20,000), and on one 256 KB R1 thinking trace its passes took
    25-45 ms of a 400-480 ms audit, 7-8 ms at 20,000. The previous thresholds come back when
    the last concurrent user ends (uploads can run in several Streamlit sessions).
    """
    global _GC_USERS, _GC_SAVED
    with _GC_LOCK:
        if _GC_USERS == 0:
            _GC_SAVED = gc.get_threshold()
            gc.set_threshold(max(BULK_GC_THRESHOLD, _GC_SAVED[0]), *_GC_SAVED[1:])
        _GC_USERS += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_USERS -= 1
            if _GC_USERS == 0 and _GC_SAVED is not None:
                gc.set_threshold(*_GC_SAVED)


def audit_record(record: TraceRecord, limits: Limits | None = None) -> AuditResult:
    """Parse, replay and judge one record; never raises. Batch callers pass `limits` once
    instead of re-reading the environment per record. Runs with `fewer_collections` unless
    the threshold is already that high (a bulk audit, or the audit of a capped trace)."""
    if gc.get_threshold()[0] >= BULK_GC_THRESHOLD:
        return _audit(record, limits)
    with fewer_collections():
        return _audit(record, limits)


def _audit(record: TraceRecord, limits: Limits | None) -> AuditResult:
    limits = limits or current_limits()
    if len(record.trace) > limits.max_trace_chars:
        head = record.trace[: limits.max_trace_chars]
        capped = replace(record, trace=head)
        result = audit_record(capped, limits)
        result.record = record
        result.verdict.parse_ok = False
        result.verdict.parse_errors.insert(0, ParseError(
            f"trace has {len(record.trace):,} characters, over the limit of {limits.max_trace_chars:,}; "
            "only the first part was parsed and replayed (stored in full)"))
        return result

    parsed = parse_record(record)
    parsed, cap_notes = _cap(record, parsed, limits)
    replay = replay_record(record, parsed)
    if record.domain_note:
        replay.notes["domain_inferred"] = record.domain_note
    by_step: dict[int, StepVerdict] = {}
    n_steps = len(parsed.graph)
    for sv in replay.step_verdicts:
        if 0 <= sv.step < n_steps:
            by_step[sv.step] = sv
    invalid_steps: list[dict[str, Any]] = []
    for idx in sorted(by_step):
        sv = by_step[idx]
        if sv.status != "invalid":
            continue
        step = parsed.graph[idx]
        invalid_steps.append({
            "step": idx, "span": list(step.span), "rule": sv.rule, "message": sv.message,
            "consequence_of": sv.consequence_of,
        })
    trace_valid = replay.trace_valid
    if trace_valid is None and n_steps and by_step:
        trace_valid = False if invalid_steps else (True if not replay.unjudged else None)
    if not record.trace.strip():
        trace_valid = None
    gaps = list(replay.gaps)
    kinds = {g.kind for g in gaps}
    fully_checked = n_steps > 0 and all(by_step.get(i) is not None and by_step[i].status != "unchecked"
                                         for i in range(n_steps))
    for gap in _generic_gaps(replay.answer_correct, trace_valid, [s["step"] for s in invalid_steps], fully_checked):
        if gap.kind not in kinds:
            gaps.append(gap)
    errors = list(parsed.errors) + cap_notes
    vid = validator_id(record.domain)
    verdict = TraceVerdict(
        id=record.id,
        domain=record.domain,
        parse_ok=not errors,
        n_steps=n_steps,
        parse_errors=errors,
        answer_correct=replay.answer_correct,
        answer_error=replay.answer_error,
        trace_valid=trace_valid,
        invalid_steps=invalid_steps,
        gaps=gaps,
        format=parsed.format,
        validator=vid,
        # the trace was read for claims: some judged (valid, or a self-correction) or some left unjudged
        judged=bool(record.trace.strip()) and (replay.unjudged > 0 or any(v.status in ("valid", "corrected")
                                                                          for v in by_step.values())),
        trace_kind=SUMMARY if is_summary(record.meta) else None,
    )
    return AuditResult(record, parsed, replay, verdict, vid, by_step)


def error_verdict(record_id: str | None, message: str, line: int | None = None) -> TraceVerdict:
    """The verdict of an input that never became a record (bad JSON, bad encoding, too long)."""
    return TraceVerdict(
        id=record_id, domain="unknown", parse_ok=False, n_steps=0,  # type: ignore[arg-type]
        parse_errors=[ParseError(message, line)],
        answer_correct=None,
        answer_error=AnswerError(kind="undecided", message="the input could not be read as a record"),
        trace_valid=None, validator=None,
    )
