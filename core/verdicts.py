"""Per-step verdicts, the answer verdict, gaps, and the trace verdict JSON of record-format §2."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

# "corrected": the step catches the model's own error (a correct rejection or a retraction);
# shown as the reasoning working, never counted as invalid.
StepStatus = Literal["valid", "invalid", "unchecked", "corrected"]

GAP_KINDS = (
    "right_answer_invalid_trace",
    "answer_contradicts_trace",
    "answer_not_in_trace",
    "false_verification_claim",
    "plan_for_unsolvable",
    "wrong_answer_valid_trace",
)

ANSWER_ERROR_KINDS = (
    "unmet_precondition", "unmet_goal", "illegal_move", "arithmetic", "unparseable",
    "not_optimal", "wrong_value",
    # Added (record-format allows optional extensions): no reference could decide; an answer that
    # states the state after each move states a false one (Hanoi state-tracking tables).
    "undecided", "false_state",
)


# What the audit of a trace concluded, one name each everywhere (explorer, tables, filters,
# reports, CLI) and `trace_check` in the verdict JSON. `trace_valid` is null for both of the last
# two: "no_error_found" -- steps were checked and none is false, but some claims could not be
# judged, so the trace is not called valid; "not_checked" -- nothing in the trace was judged.
TRACE_LABELS = {"valid": "valid", "invalid": "invalid", "no_error_found": "no error found",
                "not_checked": "not checked"}


def trace_check(trace_valid: bool | None, judged: bool) -> str:
    """The trace outcome from the trace verdict and whether any step was judged valid."""
    if trace_valid is not None:
        return "valid" if trace_valid else "invalid"
    return "no_error_found" if judged else "not_checked"


def trace_label(check: str | None, trace_valid: bool | None = None) -> str:
    """The one name of a trace outcome; verdicts stored before `trace_check` existed fall back
    to `trace_valid` (their null reads as not checked)."""
    if check in TRACE_LABELS:
        return TRACE_LABELS[check]
    return TRACE_LABELS[trace_check(trace_valid, False)]


@dataclass
class StepVerdict:
    """The replay's judgement of one step; `consequence_of` names the step that caused it."""

    step: int
    status: StepStatus
    rule: str | None = None
    message: str = ""
    expected: Any = None
    found: Any = None
    consequence_of: int | None = None


@dataclass
class AnswerError:
    kind: str
    message: str
    step: int | None = None
    unmet: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "step": self.step, "message": self.message}
        if self.unmet is not None:
            out["unmet"] = list(self.unmet)
        out.update(self.extra)
        return out


@dataclass
class Gap:
    kind: str
    message: str
    steps: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in GAP_KINDS:
            raise ValueError(f"unknown gap kind {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "steps": list(self.steps)}


@dataclass
class ParseError:
    message: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message}


@dataclass
class TraceVerdict:
    """Everything the audit says about one record, serialisable as record-format §2."""

    id: str
    domain: str
    parse_ok: bool
    n_steps: int
    parse_errors: list[ParseError] = field(default_factory=list)
    answer_correct: bool | None = None
    answer_error: AnswerError | None = None
    trace_valid: bool | None = None
    invalid_steps: list[dict[str, Any]] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    format: str | None = None
    validator: str | None = None
    judged: bool = False  # some step was judged (valid or a self-correction): see TRACE_LABELS
    # "summary" when the trace is the model's summary of hidden reasoning (core/trace_kind.py);
    # written into the JSON only then, so the verdicts of ordinary traces are unchanged.
    trace_kind: str | None = None

    @property
    def first_invalid_step(self) -> int | None:
        return min((s["step"] for s in self.invalid_steps), default=None)

    def to_json(self) -> dict[str, Any]:
        out = self._json()
        if self.trace_kind == "summary":
            out["trace_kind"] = "summary"
        return out

    def _json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "domain": self.domain,
            "parse": {
                "ok": self.parse_ok,
                "n_steps": self.n_steps,
                "errors": [e.to_json() for e in self.parse_errors],
            },
            "answer_correct": self.answer_correct,
            "answer_error": self.answer_error.to_json() if self.answer_error else None,
            "trace_valid": self.trace_valid,
            "trace_check": trace_check(self.trace_valid, self.judged and not self.invalid_steps),
            "first_invalid_step": self.first_invalid_step,
            "invalid_steps": self.invalid_steps,
            "gaps": [g.to_json() for g in self.gaps],
            "format": self.format,
            "validator": self.validator,
        }
