"""Judgments of a trace's steps made elsewhere, read from a JSONL file joined to records by id.

A process reward model's per-step scores or an LLM judge's first mistake is somebody else's
opinion of a trace we replayed; it is kept beside our verdict so the two can be compared, and
no replay ever reads it. One line per (trace, source):

    {"id": "dyck-7", "source": "my-prm", "step_scores": [0.97, 0.91, 0.12]}
    {"id": "dyck-7", "source": "gpt-judge", "first_mistake": 2}
    {"id": "dyck-8", "source": "gpt-judge", "first_mistake": null, "model": "palm-2"}

`step_scores` are numbers, one per step in step order (higher: the step looks right; a verdict
list is 1 for right and 0 for wrong); `first_mistake` is a 0-based step index, or null for "no
mistake". A line has at least one of them. `model` optionally narrows the join when several
models' traces share an id.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MAX_SOURCE = 128
MAX_SCORES = 100_000
_KNOWN = {"id", "source", "model", "step_scores", "first_mistake"}


class JudgmentError(ValueError):
    """A line that is not a judgment; the message says what is wrong with it."""


@dataclass(frozen=True)
class OutsideJudgment:
    """One source's judgment of one trace, as the file gave it."""

    record_id: str
    source: str
    model: str | None = None
    step_scores: tuple[float, ...] | None = None
    has_first_mistake: bool = False
    first_mistake: int | None = None

    def payload(self) -> dict[str, Any]:
        """What is stored: only the judgment's own fields, so a re-import replaces it whole."""
        out: dict[str, Any] = {}
        if self.step_scores is not None:
            out["step_scores"] = list(self.step_scores)
        if self.has_first_mistake:
            out["first_mistake"] = self.first_mistake
        return out


def _text(obj: dict[str, Any], key: str, required: bool) -> str | None:
    value = obj.get(key)
    if value is None or value == "":
        if required:
            raise JudgmentError(f"'{key}' is missing")
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise JudgmentError(f"'{key}' must be a string")
    return str(value).strip() or None


def _scores(value: Any) -> tuple[float, ...]:
    if not isinstance(value, list) or not value:
        raise JudgmentError("'step_scores' must be a non-empty list of numbers")
    if len(value) > MAX_SCORES:
        raise JudgmentError(f"'step_scores' has {len(value):,} entries (at most {MAX_SCORES:,})")
    out = []
    for i, x in enumerate(value):
        if isinstance(x, bool):
            x = float(x)  # an LLM judge's true/false per step: 1 right, 0 wrong
        if not isinstance(x, (int, float)) or not math.isfinite(x):
            raise JudgmentError(f"'step_scores'[{i}] is {json.dumps(x)[:40]}, not a finite number")
        out.append(float(x))
    return tuple(out)


def judgment_from_json(obj: Any) -> OutsideJudgment:
    """Validate one decoded line; raise JudgmentError with the reason."""
    if not isinstance(obj, dict):
        raise JudgmentError(f"expected a JSON object, got {type(obj).__name__}")
    record_id = _text(obj, "id", True)
    source = _text(obj, "source", True)
    if record_id is None or source is None:
        raise JudgmentError("'id' and 'source' must not be blank")
    if len(source) > MAX_SOURCE:
        raise JudgmentError(f"'source' is longer than {MAX_SOURCE} characters")
    if "step_scores" not in obj and "first_mistake" not in obj:
        raise JudgmentError("a judgment needs 'step_scores' or 'first_mistake'")
    scores = _scores(obj["step_scores"]) if "step_scores" in obj else None
    first = obj.get("first_mistake")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int) or first < 0):
        raise JudgmentError("'first_mistake' must be a step index (0 or more) or null for no mistake")
    unknown = sorted(set(obj) - _KNOWN)
    if unknown:
        raise JudgmentError(f"unknown field(s) {', '.join(map(repr, unknown))[:120]}; "
                            f"a judgment has {', '.join(sorted(_KNOWN))}")
    return OutsideJudgment(record_id, source, _text(obj, "model", False), scores,
                           "first_mistake" in obj, first)


def read_judgments(lines: list[str] | Any) -> tuple[list[tuple[int, OutsideJudgment]], list[tuple[int, str]]]:
    """Every line of a file: (line number, judgment) for the good ones, (line number, message)
    for the rest, so one bad line costs only itself."""
    good: list[tuple[int, OutsideJudgment]] = []
    bad: list[tuple[int, str]] = []
    for no, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                bad.append((no, "not UTF-8 text"))
                continue
        if no == 1:
            line = line.lstrip("\ufeff")  # a byte-order mark some editors write
        if not line.strip():
            continue
        try:
            good.append((no, judgment_from_json(json.loads(line))))
        except json.JSONDecodeError as exc:
            bad.append((no, f"not JSON: {exc.msg} at column {exc.colno}"))
        except JudgmentError as exc:
            bad.append((no, str(exc)))
    return good, bad


def first_flag(scores: list[float] | tuple[float, ...], threshold: float) -> int | None:
    """The first step a scorer calls wrong: the first score below the threshold (None: none is)."""
    return next((i for i, s in enumerate(scores) if s < threshold), None)


def judgment_first_mistake(payload: dict[str, Any], threshold: float) -> int | None:
    """The source's first mistake: its own `first_mistake` when it gave one, else its scores' first flag."""
    if "first_mistake" in payload:
        return payload["first_mistake"]
    return first_flag(payload.get("step_scores") or [], threshold)
