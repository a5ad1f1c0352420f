"""Grid cells as records write them: shared by the maze readers and the problem identity."""

from __future__ import annotations

from typing import Any


def cell_of(value: Any) -> tuple[int, int] | None:
    """[x, y], (x, y) or {"x": x, "y": y} -> (x, y); anything else -> None."""
    try:
        if isinstance(value, dict):
            return int(value["x"]), int(value["y"])
        if isinstance(value, (list, tuple)) and len(value) == 2:
            return int(value[0]), int(value[1])
    except (KeyError, TypeError, ValueError):
        return None
    return None
