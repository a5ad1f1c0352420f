"""Shared reading of A* token streams (SearchFormer and Beyond-Semantics maze dialects).

Grammars: reference-semantics.md section 1.1 (SearchFormer, facebookresearch/searchformer
`searchformer/maze.py::SimpleMazeTokenizer`) and section 2.1 (Beyond Semantics,
kstechly/beyond-semantics-maze-visualizer `headless_gen/serializer.js::serializeExample`).

Both dialects share `create|close X Y cG cH` and `plan X Y`; they differ in their markers
(`bos`/`eos` versus `query`/`reasoning`/`solution`/`end`) and in whether the prompt is part of the
same string. One regex matches a whole well-formed step, so a valid trace costs one match per
step; whatever lies between two matches is read token by token (markers, prompt entries) and
anything else becomes an "unparsed" step with a syntax error, so no character is lost.

Measured on a 30x30 Beyond-Semantics trace (bench/bench_astar.py): this regex reader is several
times faster than the LALR grammar in `astar_trace.lark`, which is kept for cross-checking.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from core.cells import cell_of
from core.steps import Step, StepGraph
from core.verdicts import ParseError

MARKERS = frozenset({"bos", "eos", "query", "reasoning", "solution", "end"})
PROMPT_WORDS = frozenset({"start", "goal", "wall"})
KEYWORDS = frozenset({"create", "close", "plan"}) | MARKERS | PROMPT_WORDS

_NUM = r"(-?\d+)"
_STEP_RE = re.compile(
    r"(?<!\S)(?:"
    rf"(create|close)\s+{_NUM}\s+{_NUM}\s+c{_NUM}\s+c{_NUM}"
    rf"|plan\s+{_NUM}\s+{_NUM}"
    rf"|(start|goal|wall)\s+{_NUM}\s+{_NUM}"
    r")(?!\S)"
)
_TOKEN_RE = re.compile(r"\S+")


@dataclass
class MazePrompt:
    """Start, goal and walls as read from a prompt (token or prose form)."""

    start: tuple[int, int] | None = None
    goal: tuple[int, int] | None = None
    walls: list[tuple[int, int]] = field(default_factory=list)
    width: int | None = None
    height: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": list(self.start) if self.start else None,
            "goal": list(self.goal) if self.goal else None,
            "walls": list(self.walls),  # (x, y) tuples; JSON writes them as pairs
        }
        if self.width is not None:
            out["width"] = self.width
        if self.height is not None:
            out["height"] = self.height
        return out


@dataclass
class TokenScan:
    """Steps read from a token stream, before they are linked into a graph."""

    steps: list[Step] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)
    prompt: MazePrompt | None = None
    markers: set[str] = field(default_factory=set)
    # (index, kind, x, y, g, h) per non-prompt step: the replay's fast input (validators/astar/_maze_replay.py).
    ops: list[tuple] = field(default_factory=list)
    prompt_at: int | None = None
    searching: bool = False

    def reserve_prompt(self, at: int) -> None:
        """Place the prompt step where its first token is, filled in once all entries are read."""
        if self.prompt_at is None:
            self.prompt_at = len(self.steps)
            self.steps.append(Step(self.prompt_at, "prompt", (at, at), "", {}))


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def scan_tokens(text: str, start: int = 0, end: int | None = None) -> TokenScan:
    """Read `text[start:end]` into prompt/create/close/plan/unparsed steps with spans."""
    end = len(text) if end is None else end
    scan = TokenScan()
    steps = scan.steps
    ops = scan.ops
    prompt_entries: list[tuple[str, int, int, int, int]] = []
    pos = start
    for m in _STEP_RE.finditer(text, start, end):
        lo, hi = m.span()
        if lo > pos and not text[pos:lo].isspace():
            _scan_gap(text, pos, lo, scan, prompt_entries)
        op, x, y, g, h, px, py, word, wx, wy = m.groups()
        if op is not None:
            i = len(steps)
            x, y, g, h = int(x), int(y), int(g), int(h)
            steps.append(Step(i, op, (lo, hi), text[lo:hi], {"x": x, "y": y, "g": g, "h": h}))
            ops.append((i, op, x, y, g, h))
            scan.searching = True
        elif px is not None:
            i = len(steps)
            x, y = int(px), int(py)
            steps.append(Step(i, "plan", (lo, hi), text[lo:hi], {"x": x, "y": y}))
            ops.append((i, "plan", x, y, None, None))
            scan.searching = True
        elif scan.searching:
            # A prompt entry after the search began is not part of any grammar.
            _add_unparsed(text, lo, hi, scan, "a prompt entry inside the search")
        else:
            scan.reserve_prompt(lo)
            prompt_entries.append((word, int(wx), int(wy), lo, hi))
        pos = hi
    if pos < end and not text[pos:end].isspace():
        _scan_gap(text, pos, end, scan, prompt_entries)
    if prompt_entries:
        scan.prompt = _prompt_from_entries(text, prompt_entries, scan)
    return scan


def _scan_gap(text: str, lo: int, hi: int, scan: TokenScan, prompt_entries: list) -> None:
    """Tokens between two well-formed steps: markers are skipped, the rest is a syntax error."""
    bad_start = bad_end = -1
    for t in _TOKEN_RE.finditer(text, lo, hi):
        tok = t.group(0)
        if tok in MARKERS:
            scan.markers.add(tok)
            if bad_start >= 0:
                _add_unparsed(text, bad_start, bad_end, scan)
                bad_start = -1
            if tok == "query" and not scan.searching:
                scan.reserve_prompt(t.start())
                prompt_entries.append(("query", 0, 0, t.start(), t.end()))
            continue
        if tok in KEYWORDS and bad_start >= 0:
            # A keyword starts a new (broken) step: close the previous broken one first, as the
            # paper's parser does when a window contains another keyword.
            _add_unparsed(text, bad_start, bad_end, scan)
            bad_start = -1
        if bad_start < 0:
            bad_start = t.start()
        bad_end = t.end()
    if bad_start >= 0:
        _add_unparsed(text, bad_start, bad_end, scan)


def _add_unparsed(text: str, lo: int, hi: int, scan: TokenScan, why: str | None = None) -> None:
    snippet = text[lo:hi]
    head = snippet.split(None, 1)[0]
    expected = {
        "create": "'create X Y cG cH'", "close": "'close X Y cG cH'", "plan": "'plan X Y'",
        "start": "'start X Y'", "goal": "'goal X Y'", "wall": "'wall X Y'",
    }.get(head)
    shown = snippet if len(snippet) <= 80 else snippet[:77] + "..."
    if why:
        message = f"unexpected {shown!r}: {why}"
    elif expected:
        message = f"cannot read {shown!r} as {expected}"
    else:
        message = f"unexpected text {shown!r}: not a create, close or plan step"
    i = len(scan.steps)
    scan.steps.append(Step(i, "unparsed", (lo, hi), snippet, {"error": message}))
    scan.ops.append((i, "unparsed", None, None, None, None))
    scan.errors.append(ParseError(message, line_of(text, lo)))


def _prompt_from_entries(text: str, entries: list, scan: TokenScan) -> MazePrompt:
    prompt = MazePrompt()
    for word, x, y, _s, _e in entries:
        if word == "start":
            prompt.start = (x, y)
        elif word == "goal":
            prompt.goal = (x, y)
        elif word == "wall":
            prompt.walls.append((x, y))
    lo = min(e[3] for e in entries)
    hi = max(e[4] for e in entries)
    step = scan.steps[scan.prompt_at]
    step.span, step.text = (lo, hi), text[lo:hi]
    step.payload = {
        "start": list(prompt.start) if prompt.start else None,
        "goal": list(prompt.goal) if prompt.goal else None,
        "n_walls": len(prompt.walls),
    }
    return prompt


# --- prompts given outside the trace ------------------------------------------------------

_PROSE_SIZE = re.compile(r"(\d+)\s*[xX×]\s*(\d+)")
_PROSE_START = re.compile(r"\bstart\b\s*[:=]?\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_PROSE_GOAL = re.compile(r"\bgoal\b\s*[:=]?\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_PROSE_WALLS = re.compile(r"\bwalls?\b\s*[:=]?\s*((?:\(\s*-?\d+\s*,\s*-?\d+\s*\)\s*,?\s*)+)")
_PAREN_PAIR = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def parse_prompt_text(text: str) -> tuple[MazePrompt | None, str | None]:
    """A maze prompt as SearchFormer tokens or as prose ("3x3, start (0,0), goal (2,2), walls (0,1)")."""
    scan = scan_tokens(text)
    if scan.prompt is not None and scan.prompt.start and scan.prompt.goal:
        bad = [s for s in scan.steps if s.kind == "unparsed"]
        if bad:
            return scan.prompt, f"prompt: {bad[0].payload['error']}"
        return scan.prompt, None
    prompt = MazePrompt()
    size = _PROSE_SIZE.search(text)
    if size:
        prompt.width, prompt.height = int(size.group(1)), int(size.group(2))
    start = _PROSE_START.search(text)
    goal = _PROSE_GOAL.search(text)
    if not (start and goal):
        return None, f"cannot find start and goal in the prompt {text[:120]!r}"
    prompt.start = (int(start.group(1)), int(start.group(2)))
    prompt.goal = (int(goal.group(1)), int(goal.group(2)))
    for block in _PROSE_WALLS.finditer(text):
        prompt.walls.extend((int(a), int(b)) for a, b in _PAREN_PAIR.findall(block.group(1)))
    return prompt, None


def parse_plan_answer(answer: str, answer_data: Any) -> tuple[list[tuple[int, int]] | None, str | None]:
    """The record's answer as a list of cells; (None, reason) when it cannot be read."""
    if isinstance(answer_data, list):
        cells = [cell_of(v) for v in answer_data]
        if any(c is None for c in cells):
            bad = next(v for v, c in zip(answer_data, cells) if c is None)
            return None, f"answer item {json.dumps(bad)[:60]} is not a cell"
        return [c for c in cells if c is not None], None
    text = answer.strip()
    if not text:
        return None, "empty answer"
    if text.startswith("["):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, list):
            return parse_plan_answer("", data)
    scan = scan_tokens(text)
    plan = [(s.payload["x"], s.payload["y"]) for s in scan.steps if s.kind == "plan"]
    if plan:
        others = [s for s in scan.steps if s.kind not in ("plan",)]
        if others:
            return None, f"the answer has text besides plan steps: {others[0].text[:60]!r}"
        return plan, None
    pairs = _PAREN_PAIR.findall(text)
    if pairs:
        return [(int(a), int(b)) for a, b in pairs], None
    return None, f"cannot read the answer {text[:80]!r} as a plan"


# --- graph -------------------------------------------------------------------------------

def link_search_graph(steps: list[Step]) -> StepGraph:
    """Steps -> StepGraph: creates hang off the close that expands them ("child" edges),
    closes follow each other in order ("next"), plan steps follow the last search step.

    A close is linked to the close before it, so the spine of the graph is the expansion
    order; `payload["created_at"]` names the create step that put the closed node in open.
    """
    kinds: list[str] = []
    last_close: int | None = None
    prev: int | None = None
    latest_create: dict[tuple[int, int], int] = {}
    plan_cells: set[tuple[int, int]] = {
        (s.payload["x"], s.payload["y"]) for s in steps if s.kind == "plan"}
    for step in steps:
        kind = step.kind
        edge = "next"
        if kind == "create":
            cell = (step.payload["x"], step.payload["y"])
            latest_create[cell] = step.index
            if last_close is not None:
                step.parent, edge = last_close, "child"
            else:
                step.parent = prev
            if cell in plan_cells:
                step.payload["in_plan"] = True
        elif kind == "close":
            cell = (step.payload["x"], step.payload["y"])
            created = latest_create.get(cell)
            if created is not None:
                step.payload["created_at"] = created
            step.parent = last_close if last_close is not None else prev
            last_close = step.index
            if cell in plan_cells:
                step.payload["in_plan"] = True
        else:
            step.parent = prev
        kinds.append(edge)
        prev = step.index
    return StepGraph.from_parents(steps, kinds)
