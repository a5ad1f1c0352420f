"""Meta-CoT style search streams: format `metacot`.

There is no public standard for Meta-CoT traces (Xiang et al. 2025 describe the idea, not a
file format), so Stepscope reads this small line grammar. A directive is an upper-case keyword
at the start of a line (after optional "- " or "**"); the lines after it, up to the next
directive, belong to it:

    metacot   := preamble? directive*
    directive := "TRY" [n] [":"] text          a new attempt (candidate solution), numbered n
               | "CHECK" [":"] text            a check of the current attempt
               | "VERIFIED" [":"] [text]       the current attempt is claimed to pass
               | "FAILED" [":"] [text]         the current attempt is claimed to fail
               | "BACKTRACK" ["TO" n] [":" text]   leave the current attempt
               | "ANSWER" [":"] text           the final answer
    preamble  := free text before the first directive (segmented like `think`)

Tree (StepGraph): an attempt is a "child" of the attempt it branches from; CHECK, VERIFIED,
FAILED and BACKTRACK are children of the current attempt. `BACKTRACK` abandons the current
attempt, so the next TRY is its sibling (a child of its parent); `BACKTRACK TO n` returns to
attempt n, so the next TRY is a child of n (it continues from n). Every BACKTRACK also gets a
"backtrack" edge to the attempt it abandons. Unknown `TO n` is a parse error; the step stays.

Kinds: TRY -> plan, CHECK/VERIFIED/FAILED -> check (VERIFIED/FAILED carry a pass/fail claim
that replay checks), BACKTRACK -> backtrack, ANSWER -> answer. Each step's payload holds
`directive`, `attempt` (the TRY step it belongs to) and, for TRY, `attempt_span` (the attempt's
own text, for the domain's candidate extraction).
"""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.steps import Step, StepGraph
from core.verdicts import ParseError
from trace_parsers._thinking import build_steps, segment
from trace_parsers.base import FormatSpec, ParsedTrace

NAME = "metacot"
_DIRECTIVE = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?P<kw>TRY|CHECK|VERIFIED|FAILED|BACKTRACK|ANSWER)\b(?:\*\*)?"
    r"(?:[ \t]+(?:TO[ \t]+)?#?(?P<num>\d+)\b)?[ \t]*(?:\*\*)?[ \t]*:?[ \t]*", re.M)
_KINDS = {"TRY": "plan", "CHECK": "check", "VERIFIED": "check", "FAILED": "check", "BACKTRACK": "backtrack",
          "ANSWER": "answer"}


def detect(record: TraceRecord) -> float:
    if record.trace.find("TRY", 0, 200_000) < 0:  # the keywords are matched case-sensitively
        return 0.0
    head = record.trace[:200_000]
    found = [m.group("kw") for m in _DIRECTIVE.finditer(head)]
    if "TRY" in found and len(found) >= 2:
        return 0.85
    return 0.0


def _line_no(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    graph = StepGraph()
    errors: list[ParseError] = []
    matches = list(_DIRECTIVE.finditer(text))
    first = matches[0].start() if matches else len(text)
    build_steps(graph, text, segment(text, 0, first), parent=None)
    attempts: dict[int, int] = {}          # attempt number -> step index
    parent_of: dict[int, int | None] = {}  # attempt step -> the attempt it branched from
    current: int | None = None
    branch_from: int | None = None
    for k, m in enumerate(matches):
        end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
        while end > m.start() and text[end - 1].isspace():
            end -= 1
        kw, num = m.group("kw"), m.group("num")
        idx = len(graph)
        payload: dict = {"directive": kw, "kind_rule": f"{kw} directive"}
        if kw == "TRY":
            parent = branch_from if branch_from is not None else (current if current is not None else
                                                                   (idx - 1 if idx else None))
            edge = "child" if parent is not None and parent in parent_of else "next"
            number = int(num) if num else len(attempts) + 1
            attempts[number] = idx
            parent_of[idx] = parent if edge == "child" else None
            payload.update({"attempt": idx, "attempt_number": number, "attempt_span": [m.end(), end]})
            graph.add(Step(idx, "plan", (m.start(), end), text[m.start():end], payload, parent), edge_kind=edge)
            current, branch_from = idx, None
            continue
        parent = current if current is not None else (idx - 1 if idx else None)
        edge = "child" if current is not None and kw != "ANSWER" else "next"
        if kw == "ANSWER":
            parent = idx - 1 if idx else None
        payload["attempt"] = current
        if kw in ("VERIFIED", "FAILED"):
            payload["claims"] = [{"polarity": "pass" if kw == "VERIFIED" else "fail", "span": [m.start(), end],
                                  "text": text[m.start():end].strip()[:200]}]
        graph.add(Step(idx, _KINDS[kw], (m.start(), end), text[m.start():end], payload, parent), edge_kind=edge)
        if kw == "BACKTRACK":
            if current is not None:
                graph.link(idx, current, "backtrack")
                payload["revises"] = current
            if num:
                target = attempts.get(int(num))
                if target is None:
                    errors.append(ParseError(f"BACKTRACK TO {num}: there is no attempt {num} before it",
                                             _line_no(text, m.start())))
                    branch_from = parent_of.get(current) if current is not None else None
                else:
                    branch_from = target
                    payload["returns_to"] = target
            else:
                branch_from = parent_of.get(current) if current is not None else None
                if branch_from is not None:
                    payload["returns_to"] = branch_from
            current = None
    kinds: dict[str, int] = {}
    for step in graph:
        kinds[step.kind] = kinds.get(step.kind, 0) + 1
    return ParsedTrace(format=NAME, graph=graph, errors=errors, extras={"kinds": kinds, "attempts": len(attempts)})


FORMAT = FormatSpec(
    name=NAME,
    description="Meta-CoT style search stream: TRY / CHECK / VERIFIED / FAILED / BACKTRACK [TO n] / ANSWER lines "
                "as a tree of attempts with backtrack edges.",
    detect=detect,
    parse=parse,
    priority=8,
)
