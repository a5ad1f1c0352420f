"""Puzzle thinking traces as move lists ("The Illusion of Thinking", reference-semantics.md §5).

Every move list the trace writes (trace_parsers/move_extract.py) becomes a "move_list" step with
one "move" child step per move, each with its span; the text between lists is kept as paragraph
steps so every character stays reachable. Claimed only for the puzzle domains, and only when
the trace contains at least one move list.
"""

from __future__ import annotations

from core.record import TraceRecord
from core.steps import Step, StepGraph
from trace_parsers.base import FormatSpec, ParsedTrace
from trace_parsers.plain_text import paragraph_spans
from trace_parsers.move_extract import extract_move_lists

PUZZLE_DOMAINS = ("hanoi", "checker_jumping", "river_crossing")


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    lists = extract_move_lists(text, record.domain) if record.domain in PUZZLE_DOMAINS else []
    graph = StepGraph()
    top: int | None = None
    found: list[dict] = []

    def add(kind: str, span: tuple[int, int], payload: dict, parent: int | None, edge: str) -> int:
        idx = len(graph)
        graph.add(Step(idx, kind, span, text[span[0]:span[1]], payload, parent), edge_kind=edge)
        return idx

    def add_text(start: int, end: int) -> None:
        nonlocal top
        for s, e in paragraph_spans(text[start:end]):
            top = add("text", (start + s, start + e), {}, top, "next")

    pos = 0
    for k, lst in enumerate(lists):
        add_text(pos, lst.start)
        list_step = add("move_list", (lst.start, lst.end),
                        {"list": k, "source": lst.source, "n_moves": len(lst.moves),
                         "position": round(lst.start / max(1, len(text)), 4)}, top, "next")
        top = list_step
        move_steps = [add("move", span, {"list": k, "move": i, "value": move}, list_step, "child")
                      for i, (move, span) in enumerate(zip(lst.moves, lst.move_spans))]
        found.append({"step": list_step, "move_steps": move_steps, "moves": lst.moves, "source": lst.source,
                      "labelled": lst.labelled, "span": [lst.start, lst.end]})
        pos = lst.end
    add_text(pos, len(text))
    return ParsedTrace(format="move_lists", graph=graph, extras={"move_lists": found})


def detect(record: TraceRecord) -> float:
    if record.domain not in PUZZLE_DOMAINS or not record.trace.strip():
        return 0.0
    return 0.6 if extract_move_lists(record.trace, record.domain) else 0.0


FORMAT = FormatSpec(
    name="move_lists",
    description="Puzzle thinking trace: every move list (moves = [[...]] or prose moves) replayed in place.",
    detect=detect,
    parse=parse,
    priority=5,
)
