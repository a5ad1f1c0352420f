"""Turning an audit into plain row dicts: pure, so worker processes can do it and ship
small picklable payloads back to the writer."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from audit import AuditResult
from records_io.intake import InputUnit
from metrics.problem_key import answer_key
from core.record import canonical_json, record_to_json
from core.verdicts import trace_check
from validators.identity import record_problem_hash


# A per-step state larger than this is summarised instead of stored (explorer detail, not data).
MAX_STATE_CHARS = 20_000
MAX_NOTES_CHARS = 200_000
# Notes that repeat what per-step states already hold, or that are too bulky to keep per trace.
_NOTES_LEFT_OUT = ("answer_states",)


def clean_text(value: str) -> str:
    """Text both SQLite and PostgreSQL accept, same length so spans stay true.

    PostgreSQL text cannot hold NUL and neither database takes lone surrogates; each such
    character becomes U+FFFD. The verbatim bytes stay in `record.raw`.
    """
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = "".join(ch if not 0xD800 <= ord(ch) <= 0xDFFF else "\ufffd" for ch in value)
    return value


# One encoder for every row: json.dumps with non-default options builds a new encoder per call.
_ENCODE = json.JSONEncoder(ensure_ascii=False, default=str).encode


def _json(value: Any) -> str | None:
    if value is None:
        return None
    if not value and isinstance(value, dict):
        return "{}"
    return clean_text(_ENCODE(value))


def unit_hash(unit: InputUnit) -> str:
    """Identity for de-duplication: the record's canonical content, or the raw bytes.

    `meta.demo` is left out: the demo copy of a record and the user's own upload of it are one
    record, not two samples (issue 37)."""
    if unit.record is not None:
        obj = record_to_json(unit.record)
        if "demo" in obj.get("meta", {}):
            meta = {k: v for k, v in obj["meta"].items() if k != "demo"}
            obj = {**obj, "meta": meta} if meta else {k: v for k, v in obj.items() if k != "meta"}
        blob = canonical_json(obj).encode("utf-8", "surrogatepass")
        return hashlib.sha256(blob).hexdigest()
    return unit.content_hash


def record_row(unit: InputUnit, share_id: str, source: str | None) -> dict[str, Any]:
    rec = unit.record
    row: dict[str, Any] = {
        "content_hash": unit_hash(unit), "share_id": share_id, "raw": unit.raw,
        "raw_truncated": unit.raw_truncated, "source": source, "line_no": unit.line,
    }
    if rec is None:
        row.update(record_id=unit.guessed_id, status="malformed", error=clean_text(unit.error or ""),
                   domain="unknown", format=None, model=None, problem_json="{}", problem_hash=None, trace="",
                   answer="", meta_json="{}", labels_json=None)
    else:
        row.update(record_id=clean_text(rec.id), status="ok", error=None, domain=clean_text(rec.domain)[:64],
                   format=clean_text(rec.format)[:64] if rec.format else None,
                   model=clean_text(rec.model)[:256] if rec.model else None,
                   problem_json=_json(rec.problem) or "{}",
                   problem_hash=record_problem_hash(clean_text(rec.domain)[:64], rec.problem, rec.trace),
                   trace=clean_text(rec.trace),
                   answer=clean_text(rec.answer), meta_json=_json(rec.meta) or "{}",
                   labels_json=_json(rec.reference_labels) if rec.reference_labels else None)
    return row


# Column order of the per-step row tuples (the writer puts record_pk in front). Steps are the
# bulk of what a long trace writes; tuples pickle and bind faster than one dict per step.
STEP_COLUMNS = ("idx", "kind", "start", "end", "parent", "text", "payload_json", "links_json", "state_json")
STEP_VERDICT_COLUMNS = ("step_idx", "status", "rule", "message", "expected_json", "found_json", "consequence_of")


@dataclass
class ResultRows:
    """Everything one audit writes, minus the record key (filled in by the writer)."""

    validator: str | None
    verdict: dict[str, Any]
    steps: list[tuple[Any, ...]] = field(default_factory=list)  # STEP_COLUMNS
    step_verdicts: list[tuple[Any, ...]] = field(default_factory=list)  # STEP_VERDICT_COLUMNS
    trace_verdict: dict[str, Any] = field(default_factory=dict)
    gaps: list[str] = field(default_factory=list)


def result_rows(result: AuditResult) -> ResultRows:
    verdict = result.verdict.to_json()
    graph = result.parsed.graph
    links: dict[int, list[list[Any]]] = {}
    for src, dst, kind in graph.edges():
        if graph.steps[dst].parent != src:
            links.setdefault(src, []).append([dst, kind])
    states = result.replay.states
    steps = []
    for step in graph.steps:
        state = _json(states.get(step.index)) if step.index in states else None
        if state is not None and len(state) > MAX_STATE_CHARS:
            state = _json({"note": f"state snapshot of {len(state):,} characters not stored"})
        steps.append((
            step.index, step.kind[:32], step.span[0], step.span[1], step.parent, clean_text(step.text),
            _json(step.payload) if step.payload else None,
            _json(links[step.index]) if step.index in links else None,
            state,
        ))
    svs = []
    for sv in result.step_verdicts.values():
        if sv.status == "unchecked":
            continue
        svs.append((
            sv.step, sv.status, (sv.rule or None) and sv.rule[:64], clean_text(sv.message or ""),
            _json(sv.expected), _json(sv.found), sv.consequence_of,
        ))
    n_steps = len(steps)
    first = verdict["first_invalid_step"]
    summary_row = verdict_summary_row(verdict, result.validator, n_steps, first)
    notes = {k: v for k, v in result.replay.notes.items() if k not in _NOTES_LEFT_OUT}
    notes_json = _json(notes) if notes else None
    if notes_json is not None and len(notes_json) > MAX_NOTES_CHARS:
        notes_json = _json({k: v for k, v in notes.items() if isinstance(v, (str, int, float, bool))})
    summary_row["notes_json"] = notes_json
    summary_row["answer_key"] = answer_key(result.record.answer, result.replay.notes)
    return ResultRows(
        validator=result.validator,
        verdict=verdict,
        steps=steps,
        step_verdicts=svs,
        trace_verdict=summary_row,
        gaps=sorted({g["kind"] for g in verdict["gaps"]}),
    )


def verdict_summary_row(verdict: dict[str, Any], validator: str | None, n_steps: int,
                        first: int | None) -> dict[str, Any]:
    error = verdict.get("answer_error") or {}
    return {
        "validator": validator, "format": verdict.get("format"), "parse_ok": verdict["parse"]["ok"],
        "n_steps": n_steps, "n_invalid": len(verdict["invalid_steps"]),
        "answer_correct": verdict["answer_correct"], "trace_valid": verdict["trace_valid"],
        "trace_check": verdict.get("trace_check") or trace_check(verdict["trace_valid"], False),
        "first_invalid_step": first,
        "first_invalid_rel": (first / max(n_steps - 1, 1)) if first is not None and n_steps else None,
        "answer_error_kind": error.get("kind"),
        "verdict_json": clean_text(_ENCODE(verdict)),
        "notes_json": None,
        "answer_key": None,
    }


def malformed_rows(verdict: dict[str, Any]) -> ResultRows:
    return ResultRows(validator=None, verdict=verdict,
                      trace_verdict=verdict_summary_row(verdict, None, 0, None))
