"""What a domain module provides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from core.record import TraceRecord
from core.verdicts import AnswerError, Gap, StepVerdict
from trace_parsers.base import ParsedTrace


@dataclass
class Replay:
    """A domain's findings for one record.

    `trace_valid` is None when the trace is empty or the domain has no step semantics.
    `states` maps a step index to a JSON-able snapshot (open/closed sets, planning state) for
    the explorer. `notes` says how the replay was configured (e.g. which rule set).
    """

    step_verdicts: list[StepVerdict] = field(default_factory=list)
    answer_correct: bool | None = None
    answer_error: AnswerError | None = None
    trace_valid: bool | None = None
    gaps: list[Gap] = field(default_factory=list)
    states: dict[int, Any] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)
    # assertions the replay found but could not judge (a lost line of reasoning, a state another
    # step may explain): a trace with any is never called valid, only not invalid
    unjudged: int = 0


@dataclass(frozen=True)
class DomainSpec:
    """A registered domain. Bump `version` whenever a verdict could change."""

    name: str
    version: str
    description: str
    replay: Callable[[TraceRecord, ParsedTrace], Replay]
    aliases: tuple[str, ...] = ()
    # Length-generalisation domains (validators/last_letter, validators/multiplication): the
    # length of a problem (None when it cannot be read), what that length counts (for the Length
    # page's axis), and problems of a given length, deterministic by seed:
    # generate(length, count, seed) -> problem dicts.
    problem_length: Callable[[dict[str, Any]], int | None] | None = None
    length_label: str = "length"
    generate: Callable[[int, int, int], list[dict[str, Any]]] | None = None
    # Whether a problem statement ({"input": text}) is surely one of this domain's, so that rows
    # which do not name their task (step-labelled datasets) can be given one; None: never guessed.
    recognise: Callable[[dict[str, Any]], bool] | None = None

    @property
    def validator_id(self) -> str:
        return f"{self.name}@{self.version}"
