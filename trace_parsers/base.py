"""What a format module provides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from core.record import TraceRecord
from core.steps import StepGraph
from core.verdicts import ParseError


@dataclass
class ParsedTrace:
    """A parser's output: the step graph plus what it found besides steps.

    `extras` carries format-specific findings a validator needs (an embedded problem, a plan
    split off the trace); validators document which keys they read.
    """

    format: str
    graph: StepGraph
    errors: list[ParseError] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class FormatSpec:
    """A registered format. `detect` returns a confidence in [0, 1]; 0 means "not mine"."""

    name: str
    description: str
    detect: Callable[[TraceRecord], float]
    parse: Callable[[TraceRecord], ParsedTrace]
    priority: int = 0
