"""Reading SearchFormer Sokoban traces: tokens or the JSON fixture form.

Token grammar (reference-semantics.md section 1.6; facebookresearch/searchformer
`searchformer/sokoban.py::WithBoxSokobanTokenizer`):
  prompt := "worker" X Y ("box" X Y)* ("dock" X Y)* ("wall" X Y)*
  step   := ("create"|"close") "worker" X Y ("box" X Y)* cG cH   -- only boxes not on a dock
  plan   := ("plan" X Y)+                                          -- worker positions
JSON fixture form (`test/trace_sokoban.json`): items {action, state, cost_from_start, heuristic}
where state is the level as rows joined by "-" ("#####-#@$.#-#####") or {"state": [[...]]}.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from core.steps import Step
from core.verdicts import ParseError
from trace_parsers.astar_common import line_of

_STEP_RE = re.compile(
    r"(?<!\S)(?:(create|close)\s+worker\s+(\d+)\s+(\d+)((?:\s+box\s+\d+\s+\d+)*)\s+c(\d+)\s+c(\d+)"
    r"|plan\s+(\d+)\s+(\d+)"
    r"|(worker|box|dock|wall)\s+(\d+)\s+(\d+))(?!\S)"
)
_BOX_RE = re.compile(r"box\s+(\d+)\s+(\d+)")
_TOKEN_RE = re.compile(r"\S+")
_MARKERS = frozenset({"bos", "eos"})


def scan_sokoban_tokens(text: str) -> tuple[list[Step], list[ParseError], dict[str, Any] | None]:
    """Token stream -> steps (prompt/create/close/plan/unparsed), errors, prompt dict."""
    steps: list[Step] = []
    errors: list[ParseError] = []
    prompt: dict[str, Any] = {"worker": None, "boxes": [], "docks": [], "walls": []}
    prompt_span: list[int] = []
    pos = 0

    def gap(lo: int, hi: int) -> None:
        bad: list[int] = []
        for t in _TOKEN_RE.finditer(text, lo, hi):
            if t.group(0) in _MARKERS:
                if bad:
                    _unparsed(text, bad[0], bad[1], steps, errors)
                    bad = []
                continue
            bad = [bad[0] if bad else t.start(), t.end()]
        if bad:
            _unparsed(text, bad[0], bad[1], steps, errors)

    for m in _STEP_RE.finditer(text):
        if m.start() > pos:
            gap(pos, m.start())
        pos = m.end()
        if m.group(1):
            boxes = [[int(a), int(b)] for a, b in _BOX_RE.findall(m.group(4) or "")]
            steps.append(Step(len(steps), m.group(1), m.span(), m.group(0), {
                "worker": [int(m.group(2)), int(m.group(3))], "boxes": boxes,
                "g": int(m.group(5)), "h": int(m.group(6)),
            }))
        elif m.group(7):
            steps.append(Step(len(steps), "plan", m.span(), m.group(0),
                              {"x": int(m.group(7)), "y": int(m.group(8))}))
        elif steps:
            _unparsed(text, m.start(), m.end(), steps, errors)
        else:
            word, cell = m.group(9), [int(m.group(10)), int(m.group(11))]
            if word == "worker":
                prompt["worker"] = cell
            else:
                prompt[word + "s" if word != "box" else "boxes"].append(cell)
            prompt_span = [prompt_span[0] if prompt_span else m.start(), m.end()]
    if pos < len(text):
        gap(pos, len(text))
    if not prompt_span:
        return steps, errors, None
    lo, hi = prompt_span
    step = Step(0, "prompt", (lo, hi), text[lo:hi], {"worker": prompt["worker"], "n_boxes": len(prompt["boxes"])})
    steps.insert(sum(1 for s in steps if s.span[0] < lo), step)
    for i, s in enumerate(steps):
        s.index = i
    return steps, errors, prompt


def _unparsed(text: str, lo: int, hi: int, steps: list[Step], errors: list[ParseError]) -> None:
    snippet = text[lo:hi]
    shown = snippet if len(snippet) <= 80 else snippet[:77] + "..."
    message = f"cannot read {shown!r} as a Sokoban step ('create|close worker X Y (box X Y)* cG cH' or 'plan X Y')"
    steps.append(Step(len(steps), "unparsed", (lo, hi), snippet, {"error": message}))
    errors.append(ParseError(message, line_of(text, lo)))


def state_string(value: Any) -> str | None:
    """A level as SearchFormer's "-"-joined rows, from a string, rows or {"state": rows}."""
    if isinstance(value, dict) and "state" in value:
        value = value["state"]
    if isinstance(value, str):
        return value if value and set(value) <= set("# .@+$*-") else None
    if isinstance(value, list) and value and all(isinstance(r, (list, str)) for r in value):
        rows = ["".join(r) if isinstance(r, list) else r for r in value]
        return "-".join(rows) if all(set(r) <= set("# .@+$*") for r in rows) else None
    return None


def number(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def json_items_payload(item: Any) -> tuple[str, dict[str, Any]] | str:
    """One JSON trace item -> (kind, payload) or an error message (shared by maze and Sokoban)."""
    if not isinstance(item, dict):
        return f"trace item {json.dumps(item)[:60]} is not an object"
    action = item.get("action")
    if action not in ("create", "close", "plan"):
        return f"trace item has action {action!r}, expected create, close or plan"
    return action, item
