"""The trace record of `record-format.md` section 1, normalised for parsing and storage."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

KNOWN_DOMAINS = (
    "maze", "sokoban", "blocksworld", "mystery_blocksworld", "logistics", "pddl",
    "countdown", "hanoi", "checker_jumping", "river_crossing", "freeform",
    "dyck_languages", "tracking_shuffled_objects",
)


class RecordError(ValueError):
    """A JSON value that cannot be read as a trace record; the message is shown to users."""


@dataclass(frozen=True)
class TraceRecord:
    """One record. `trace`/`answer` are always text; structured originals are kept beside them.

    Spans in verdicts index into `trace`. When the input held a list (SearchFormer's JSON
    fixtures do), `trace` is that list rendered one JSON item per line so spans stay readable.
    """

    id: str
    domain: str
    trace: str
    answer: str
    problem: dict[str, Any] = field(default_factory=dict)
    format: str | None = None
    model: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    trace_data: Any = None
    answer_data: Any = None
    id_given: bool = True
    # Judgments made outside Stepscope (a dataset's first-mistake label, per-step ratings),
    # kept beside our verdicts for comparison; no replay reads them.
    reference_labels: dict[str, Any] = field(default_factory=dict)


def _as_text(value: Any) -> tuple[str, Any]:
    if value is None:
        return "", None
    if isinstance(value, str):
        return value, None
    if isinstance(value, list):
        return "\n".join(json.dumps(item, ensure_ascii=False, sort_keys=True) for item in value), value
    if isinstance(value, (int, float, bool)):
        return json.dumps(value), value
    return json.dumps(value, ensure_ascii=False, sort_keys=True), value


def canonical_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def content_id(domain: str, problem: Any, trace: Any, answer: Any) -> str:
    """The default record id: a hash of what defines the record (record-format section 1)."""
    blob = canonical_json([domain, problem, trace, answer]).encode("utf-8", "surrogatepass")
    return hashlib.sha256(blob).hexdigest()[:16]


def record_from_json(obj: Any) -> TraceRecord:
    """Validate a decoded JSON value as a record; raise RecordError with a readable reason."""
    if not isinstance(obj, dict):
        raise RecordError(f"expected a JSON object, got {type(obj).__name__}")
    domain = obj.get("domain") or "freeform"
    if not isinstance(domain, str):
        raise RecordError("'domain' must be a string")
    domain = domain.strip().lower()
    problem = obj.get("problem") or {}
    if not isinstance(problem, dict):
        raise RecordError("'problem' must be a JSON object")
    meta = obj.get("meta") or {}
    if not isinstance(meta, dict):
        meta = {"value": meta}
    fmt = obj.get("format")
    if fmt is not None and not isinstance(fmt, str):
        raise RecordError("'format' must be a string")
    labels = obj.get("reference_labels") or {}
    if not isinstance(labels, dict):
        raise RecordError("'reference_labels' must be a JSON object")
    model = obj.get("model")
    if model is not None and not isinstance(model, str):
        model = str(model)
    trace, trace_data = _as_text(obj.get("trace"))
    answer, answer_data = _as_text(obj.get("answer"))
    rid = obj.get("id")
    id_given = rid is not None and rid != ""
    if not id_given:
        rid = content_id(domain, problem, obj.get("trace"), obj.get("answer"))
    elif not isinstance(rid, str):
        rid = str(rid)
    return TraceRecord(
        id=rid, domain=domain, trace=trace, answer=answer, problem=problem,
        format=fmt.strip().lower() if fmt else None, model=model, meta=meta,
        trace_data=trace_data, answer_data=answer_data, id_given=id_given, reference_labels=labels,
    )


def record_to_json(record: TraceRecord) -> dict[str, Any]:
    """The record in its interchange form (structured trace/answer restored)."""
    out: dict[str, Any] = {"id": record.id, "domain": record.domain}
    if record.format:
        out["format"] = record.format
    out["problem"] = record.problem
    out["trace"] = record.trace_data if record.trace_data is not None else record.trace
    out["answer"] = record.answer_data if record.answer_data is not None else record.answer
    if record.model is not None:
        out["model"] = record.model
    if record.meta:
        out["meta"] = record.meta
    if record.reference_labels:
        out["reference_labels"] = record.reference_labels
    return out
