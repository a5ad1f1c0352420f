"""The trace record of `record-format.md` section 1, normalised for parsing and storage."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any


class RecordError(ValueError):
    """A JSON value that cannot be read as a trace record; the message is shown to users."""


# The problem fields that only one domain's problems have (record-format section 1): a record
# without `domain` is of that domain. PlanBench's PDDL domain names pick its built-in vocabulary
# (natural-language plans); any other PDDL is the generic `pddl` domain.
_SIGNATURES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("hanoi", ("disks",)),
    ("last_letter", ("words",)),
    ("countdown", ("numbers", "target")),
    ("river_crossing", ("pairs", "boat_capacity")),
    ("maze", ("width", "height", "walls")),
    ("multiplication", ("factors",)),
    ("multiplication", ("a", "b")),
    ("pddl", ("domain_pddl", "problem_pddl")),
)
_PLANBENCH_DOMAINS = {"blocksworld-4ops": "blocksworld", "mystery-4ops": "mystery_blocksworld",
                      "logistics-strips": "logistics"}
_PDDL_NAME = re.compile(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", re.I)


# The domain a record falls back to when nothing names its task: free-form questions, whose
# checks assume nothing of the problem.
GENERIC_DOMAIN = "freeform"


def infer_domain(problem: dict[str, Any]) -> tuple[str, str]:
    """The domain of a record that names none, and what decided it: the one domain whose fields
    the problem has, else `freeform` (whose checks know nothing of disks, words or PDDL, so it
    is taken only when no field, or the fields of two domains, say otherwise)."""
    found: dict[str, str] = {}
    for domain, keys in _SIGNATURES:
        if domain not in found and all(problem.get(k) not in (None, "") for k in keys):
            found[domain] = " and ".join(f"problem.{k}" for k in keys)
    if len(found) > 1:
        fits = " and of ".join(f"{d}, {why}" for d, why in found.items())
        return GENERIC_DOMAIN, f"{GENERIC_DOMAIN} (the record has no domain, and the problem has the fields of {fits})"
    if not found:
        return GENERIC_DOMAIN, f"{GENERIC_DOMAIN} (the record has no domain, and no problem field names one)"
    domain, why = next(iter(found.items()))
    if domain == "pddl":
        name = _PDDL_NAME.search(str(problem.get("domain_pddl")))
        if name and name.group(1).lower() in _PLANBENCH_DOMAINS:
            domain = _PLANBENCH_DOMAINS[name.group(1).lower()]
            why = f"problem.domain_pddl, PlanBench's domain {name.group(1).lower()}"
    return domain, f"{domain}, from {why} (the record has no domain)"


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
    domain_note: str | None = None  # how the domain was chosen when the record named none


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
    problem = obj.get("problem") or {}
    if not isinstance(problem, dict):
        raise RecordError("'problem' must be a JSON object")
    domain = obj.get("domain")
    domain_note = None
    if not domain:
        domain, domain_note = infer_domain(problem)
    if not isinstance(domain, str):
        raise RecordError("'domain' must be a string")
    domain = domain.strip().lower()
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
        domain_note=domain_note,
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
