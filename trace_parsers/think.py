"""Free-form thinking traces (R1-style "Okay, let's see ... Wait, ..."): format `think`.

One step per paragraph, numbered item or cue-led sentence run, each with a kind from a small
taxonomy and backtrack links to the step it revises (rules: trace_parsers/_thinking.py). The
parser only segments and labels; candidate solutions and claims inside the steps are found and
replayed by the record's domain (validators/thinking/).

Detection: prose only (a token stream, a search log, a PDDL plan or a bare move list is never
taken), and below the formats that recognise structure inside prose: `move_lists` (0.6) for
puzzle traces that write move lists, `plan_text` (0.6) for [PLAN] blocks without prose lines.
"""

from __future__ import annotations

from core.record import TraceRecord
from core.steps import StepGraph
from trace_parsers._thinking import build_steps, looks_like_prose, segment
from trace_parsers.base import FormatSpec, ParsedTrace

NAME = "think"
# Domains whose thinking traces are prose: planning, puzzles, countdown, free-form questions.
PROSE_DOMAINS = frozenset({
    "blocksworld", "mystery_blocksworld", "logistics", "pddl", "blocksworld_3", "mystery_blocksworld_3",
    "blocksworld_hard", "blocks_world", "hanoi", "checker_jumping", "river_crossing", "countdown", "freeform",
})


def detect(record: TraceRecord) -> float:
    text = record.trace
    if not text.strip() or not looks_like_prose(text):
        return 0.0
    return 0.5 if record.domain in PROSE_DOMAINS else 0.2


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    graph = StepGraph()
    build_steps(graph, text, segment(text), parent=None)
    kinds: dict[str, int] = {}
    for step in graph:
        kinds[step.kind] = kinds.get(step.kind, 0) + 1
    return ParsedTrace(format=NAME, graph=graph, extras={"kinds": kinds})


FORMAT = FormatSpec(
    name=NAME,
    description="Free-form thinking text: paragraphs and cue-led sentences as steps with kinds "
                "(restate, plan, compute, check, backtrack, conclude, answer, reason) and backtrack links.",
    detect=detect,
    parse=parse,
    priority=0,
)
