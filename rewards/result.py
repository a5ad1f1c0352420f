"""The reward of one completion and its parts, for training and for logging.

`to_dict` is what `compute_score` returns when details are asked for: verl appends every key
of it to `reward_extra_info` and averages the numeric ones per data source in validation
(skipping strings), so the dict always has the same keys, numbers are never None, and text
fields are always strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ANSWER_PREVIEW = 200


@dataclass
class RewardResult:
    score: float
    outcome: float = 0.0
    format: float = 0.0
    process: float = 0.0
    mode: str = "stepscope"
    domain: str = ""
    reason: str = ""
    answer_correct: bool | None = None
    trace_valid: bool | None = None
    judged_steps: int = 0
    invalid_steps: int = 0
    first_invalid_step: int | None = None
    answer_source: str = "none"
    answer: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return {True: "right", False: "wrong", None: "undecided"}[self.answer_correct]

    def to_dict(self) -> dict[str, Any]:
        """Flat and stable: `first_invalid_step` is -1 when no step is invalid."""
        return {
            "score": float(self.score),
            "outcome": float(self.outcome),
            "format": float(self.format),
            "process": float(self.process),
            "judged_steps": int(self.judged_steps),
            "invalid_steps": int(self.invalid_steps),
            "first_invalid_step": -1 if self.first_invalid_step is None else int(self.first_invalid_step),
            "verdict": self.verdict,
            "trace": {True: "valid", False: "invalid", None: "not judged"}[self.trace_valid],
            "mode": self.mode,
            "domain": self.domain,
            "answer_source": self.answer_source,
            "answer": self.answer[:ANSWER_PREVIEW],
            "reason": self.reason,
        }


def failed(reason: str, mode: str = "stepscope", domain: str = "") -> RewardResult:
    """A 0 reward for input that cannot be scored at all; the reason says why."""
    return RewardResult(score=0.0, mode=mode, domain=domain, reason=reason)
