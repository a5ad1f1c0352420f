"""How much of a faithfulness gap its step list leaves out. The audit keeps at most 50 steps per
gap (audit.py) so a verdict stays small; the explorer says how many more there are rather than
letting the pills end as if they were all."""

from __future__ import annotations

from typing import Any, Sequence

ALL_INVALID = "right_answer_invalid_trace"  # its steps are the trace's invalid steps, the first 50


def steps_not_listed(gap: dict[str, Any], listed: Sequence[int], invalid: Sequence[int]) -> int:
    """Steps of `gap` that its list does not hold (0 when the gap names no more than it lists)."""
    if gap.get("kind") != ALL_INVALID:
        return 0
    return len(set(invalid) - set(listed))
