"""Tree of Thoughts' Game of 24 steps: one line "a op b = c (left: x y z)" per operation.

Yao et al. 2023 (princeton-nlp/tree-of-thought-llm, prompts/game24.py) have the model write each
step as the operation and the numbers that remain after it; chain-of-thought and ToT-BFS outputs
share the form. Each such line is one `operation` step; its payload keeps the text as written
(`lhs`, every `results` side of "=", the `left` tokens, `approx` for "≈" or "(approx)"), so the
validator decides what the numbers are. Any other line ("Answer: ...", "24 * 11 = 264 (not
valid)") is a `text` step.
"""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.steps import Step, StepGraph
from trace_parsers.base import FormatSpec, ParsedTrace
from trace_parsers.lines import numbered_line_spans

TOT_FORMAT = "tot"

_STEP = re.compile(r"^(?P<claim>[^()\n]*(?:\([^()\n]*\)[^()\n]*)*?)\s*"
                   r"(?:\((?P<approx>approx(?:imately)?)\)\s*)?\(left:\s*(?P<left>[^()\n]*)\)"
                   r"(?P<rest>[^\n]*)$", re.I)
_APPROX = re.compile(r"≈|~=|\u2248")


def read_step(line: str) -> dict | None:
    """The parts of one "a op b = c (left: ...)" line, or None when the line is not one."""
    m = _STEP.match(line.strip())
    if m is None:
        return None
    claim = m.group("claim")
    approx = bool(m.group("approx")) or bool(_APPROX.search(claim))
    sides = [s.strip() for s in re.split(r"=|≈|~=|\u2248", claim)]
    if len(sides) < 2 or not all(sides):
        return None
    return {"lhs": sides[0], "results": sides[1:], "left": m.group("left").replace(",", " ").split(),
            "approx": approx, "rest": m.group("rest").strip()}


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    steps = []
    for i, (_, span) in enumerate(numbered_line_spans(text)):
        line = text[span[0]:span[1]]
        payload = read_step(line)
        steps.append(Step(index=i, kind="operation" if payload else "text", span=span, text=line,
                          payload=payload or {}))
    return ParsedTrace(format=TOT_FORMAT, graph=StepGraph.chain(steps))


def detect(record: TraceRecord) -> float:
    """Most non-blank lines, the first among them, are "... = c (left: ...)" steps."""
    if "(left:" not in record.trace[:4000].lower():
        return 0.0
    lines = [record.trace[a:b] for _, (a, b) in numbered_line_spans(record.trace)[:50]]
    steps = [read_step(line) is not None for line in lines]
    return 0.9 if steps and steps[0] and 2 * sum(steps) > len(steps) else 0.0


FORMAT = FormatSpec(
    name=TOT_FORMAT,
    description="Tree of Thoughts Game of 24 steps ('10 - 4 = 6 (left: 5 6 6)'), one operation a line.",
    detect=detect,
    parse=parse,
    priority=5,
)
