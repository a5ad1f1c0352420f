"""What a domain module provides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

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
    # Which records pose the same problem, when the generic canonical form (PDDL, Countdown
    # numbers, JSON; metrics/problem_key.py) is not enough: (problem, trace) -> canonical text, or
    # None to fall back. Stored hashes depend on it: change it only with a migration.
    problem_identity: Callable[[dict[str, Any], str], str | None] | None = None
    # The state a trace step stands for, from what the audit stored, for the explorer's picture:
    # (replay notes, stored steps up to the selected one as (index, kind, payload JSON, status),
    # selected index) -> a domain state, or None when no step up to it names one.
    step_state: Callable[[dict[str, Any], Sequence[tuple], int], Any] | None = None
    # Which of the explorer's pictures draws this domain's steps (app_pages/_pictures.py
    # PICTURES: "maze", "countdown_tree", "sokoban_level", "hanoi_pegs"); None: no picture.
    picture: str | None = None
    # Every state along the answer (initial first), rebuilt from the replay notes; [] when the
    # notes hold no replayed answer.
    answer_states: Callable[[dict[str, Any]], list[Any]] | None = None

    @property
    def validator_id(self) -> str:
        return f"{self.name}@{self.version}"
