"""The map of a thinking trace: its lines of reasoning and candidate solutions on one timeline,
each ending where the trace settled on it, rejected it or left it, and the answer after them.
Pure: built from what the audit stored (the thinking validator's candidates and conclusion in
the record's notes, each claim's line of reasoning in the step states, the step kinds), never
from the trace text, so the page only draws it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import plotly.graph_objects as go

from app_pages._view import STATUS_COLOURS, Outline

SETTLED, REJECTED, ABANDONED, TAKEN_BACK = "settled", "rejected", "abandoned", "taken back"
_SOLVES_COLOUR = {True: "#2ca02c", False: "#d62728", None: "#8c8c8c"}
_END_MARK = {SETTLED: ("star", "#2ca02c"), REJECTED: ("x", "#d62728"), ABANDONED: ("circle-open", "#666666"),
             TAKEN_BACK: ("star-open", "#ff7f0e")}


@dataclass
class Lane:
    """One row of the map. `end` is the step where the trace rejected it (a backtrack step right
    after it), else its last step; `solves`: the candidate's replay (None: a fragment, or a line
    of reasoning, which is judged claim by claim instead)."""

    kind: str  # "candidate" | "line"
    label: str
    steps: list[int]
    outcome: str
    end: int
    solves: bool | None = None
    detail: str = ""
    statuses: dict[int, str | None] = field(default_factory=dict)

    @property
    def invalid(self) -> list[int]:
        return [s for s in self.steps if self.statuses.get(s) == "invalid"]

    @property
    def first(self) -> int:
        return self.steps[0]


@dataclass
class ThinkingMap:
    lanes: list[Lane]
    n_steps: int
    answer: str  # "correct" | "wrong" | "undecided"
    answer_detail: str = ""
    settled: Lane | None = None


def _left_at(last: int, next_start: int | None, kinds: Sequence[str]) -> int | None:
    """The backtrack step ("Wait", "But", "Alternatively" ... as the segmenter marks them) that
    follows a lane before anything else begins: where the trace turned away from it."""
    stop = min(len(kinds), next_start if next_start is not None else len(kinds))
    for idx in range(last + 1, stop):
        if kinds[idx] == "backtrack":
            return idx
        if kinds[idx] in ("plan", "conclude"):
            return None
    return None


def _lines(states: dict[int, Any]) -> dict[int, tuple[list[int], list[str]]]:
    """Line of reasoning id -> (its steps with judged claims, its longest action sequence)."""
    out: dict[int, tuple[list[int], list[str]]] = {}
    for idx in sorted(states):
        state = states[idx]
        line = state.get("line_of_reasoning") if isinstance(state, dict) else None
        if not isinstance(line, dict) or line.get("id") is None:
            continue
        steps, actions = out.setdefault(int(line["id"]), ([], []))
        steps.append(idx)
        if len(line.get("actions") or ()) >= len(actions):
            actions[:] = [str(a) for a in line.get("actions") or ()]
    return out


def _short(actions: list[str], n: int = 4) -> str:
    if not actions:
        return "from the initial state"
    shown = " → ".join(actions[:n])
    return shown + (f" → … ({len(actions)} actions)" if len(actions) > n else "")


def build_map(thinking: dict[str, Any] | None, outline: Outline, states: dict[int, Any],
              answer_correct: bool | None, gaps: Sequence[dict[str, Any]] = ()) -> ThinkingMap | None:
    """The map, or None when the audit found neither candidates nor lines of reasoning."""
    thinking = thinking or {}
    kinds = [o[2] for o in outline]
    status = {o[0]: o[3] for o in outline}
    n = len(outline)
    conclusion = thinking.get("conclusion") or None
    taken_back = thinking.get("retracted_conclusion") or None
    raw: list[tuple[str, dict[str, Any]]] = [("candidate", c) for c in thinking.get("candidates") or ()
                                            if c.get("steps")]
    lines = _lines(states)
    concluded = str((conclusion or {}).get("label") or "")
    for line_id, (steps, actions) in lines.items():
        raw.append(("line", {"id": line_id, "steps": steps, "actions": actions}))
    raw = [(k, c) for k, c in raw if all(0 <= s < n for s in c["steps"])]
    raw.sort(key=lambda kc: (kc[1]["steps"][0], kc[0] != "candidate"))
    if not raw:
        return None
    starts = sorted({c["steps"][0] for k, c in raw if k == "candidate"})
    lanes: list[Lane] = []
    settled: Lane | None = None
    for kind, c in raw:
        steps = sorted(c["steps"])
        nxt = next((s for s in starts if s > steps[-1]), None)
        left = _left_at(steps[-1], nxt, kinds)
        if kind == "candidate":
            is_settled = conclusion is not None and list(conclusion.get("steps") or ()) == list(c["steps"])
            # Concluded, then doubted or rejected without a reaffirmation: the trace ends unsettled.
            was_taken_back = taken_back is not None and list(taken_back.get("steps") or ()) == list(c["steps"])
            outcome = (SETTLED if is_settled else TAKEN_BACK if was_taken_back
                       else REJECTED if left is not None else ABANDONED)
            lane = Lane("candidate", str(c.get("label") or "a candidate"), steps, outcome,
                        steps[-1] if left is None else left, c.get("solves") if c.get("complete") else None,
                        str(c.get("summary") or ""))
            if is_settled:
                settled = lane
        else:
            actions = c["actions"]
            # A line whose actions are the settled plan is the one the trace went with.
            adopted = bool(actions) and concluded.endswith("(" + ", ".join(actions) + ")")
            outcome = SETTLED if adopted else (REJECTED if left is not None else ABANDONED)
            lane = Lane("line", f"line of reasoning {c['id']}: {_short(actions)}", steps, outcome,
                        steps[-1] if left is None or adopted else left, None,
                        f"{len(steps)} step(s) with judged claims")
        lane.statuses = {s: status.get(s) for s in steps}
        lanes.append(lane)
    # A line of reasoning inside a candidate's steps is that candidate spelled out: one row.
    spans = [(lane.first, lane.end) for lane in lanes if lane.kind == "candidate"]
    lanes = [lane for lane in lanes if lane.kind == "candidate" or lane.outcome == SETTLED
             or not any(a <= lane.first and lane.steps[-1] <= b for a, b in spans)]
    answer = {True: "correct", False: "wrong"}.get(answer_correct, "undecided")
    contradiction = next((g for g in gaps if g.get("kind") == "answer_contradicts_trace"), None)
    detail = str(contradiction.get("message")) if contradiction else (
        "the answer is the settled candidate's" if settled is not None
        else f"the trace concluded {taken_back.get('label') or 'a candidate'} and took it back" if taken_back
        else "no conclusion in the trace")
    return ThinkingMap(lanes, n, answer, detail, settled)


def around(tmap: ThinkingMap, selected: int, cap: int = 30) -> ThinkingMap:
    """At most `cap` lanes: those nearest the selected step (by where they start), always with
    the settled one, in their order, so a trace that tries a hundred plans stays readable."""
    if len(tmap.lanes) <= cap:
        return tmap
    near = sorted(range(len(tmap.lanes)), key=lambda i: (not (tmap.lanes[i].first <= selected <= tmap.lanes[i].end),
                                                        abs(tmap.lanes[i].first - selected)))[:cap]
    keep = set(near) | ({tmap.lanes.index(tmap.settled)} if tmap.settled is not None else set())
    return ThinkingMap([lane for i, lane in enumerate(tmap.lanes) if i in keep], tmap.n_steps, tmap.answer,
                       tmap.answer_detail, tmap.settled)


def map_figure(tmap: ThinkingMap, selected: int) -> go.Figure:
    """One row per lane, oldest on top: a bar from its first step to where it ended, each of its
    steps coloured by verdict, its start (click: open its first step) and its end marked as
    settled (star), concluded then taken back (open star), rejected (x) or abandoned (open
    circle); the answer after the last step."""
    names = [f"{i + 1}. {lane.label[:70]}" for i, lane in enumerate(tmap.lanes)]
    answer_row = f"answer: {tmap.answer}"
    rows = names + [answer_row]
    fig = go.Figure(_validate=False)
    for name, lane in zip(names, tmap.lanes):
        fig.add_trace(go.Scatter(_validate=False, x=[lane.first, lane.end], y=[name, name], mode="lines",
                                 line={"color": _END_MARK[lane.outcome][1], "width": 6}, opacity=0.35,
                                 hoverinfo="skip", showlegend=False))
    xs, ys, colours, sizes, symbols, lines, hover, data = [], [], [], [], [], [], [], []

    def point(x: int, y: str, colour: str, size: int, symbol: str, text: str, step: int, ring: str = "#333") -> None:
        xs.append(x)
        ys.append(y)
        colours.append(colour)
        sizes.append(size)
        symbols.append(symbol)
        lines.append(ring)
        hover.append(text)
        data.append([step])

    for name, lane in zip(names, tmap.lanes):
        head = f"{lane.label}<br>{lane.detail}" if lane.detail else lane.label
        for s in lane.steps[1:]:
            point(s, name, STATUS_COLOURS.get(lane.statuses.get(s), "#b0b0b0"), 8, "circle",
                  f"step {s}" + (" · invalid" if s in lane.invalid else ""), s)
        point(lane.first, name, _SOLVES_COLOUR[lane.solves], 15, "square" if lane.kind == "candidate" else "circle",
              f"{head}<br>opens step {lane.first}", lane.first, "#000" if lane.first == selected else "#333")
        symbol, colour = _END_MARK[lane.outcome]
        where = {SETTLED: f"the trace settles on this (step {lane.end})", REJECTED: f"rejected at step {lane.end}",
                 ABANDONED: f"left after step {lane.end}",
                 TAKEN_BACK: f"concluded at step {lane.end}, then taken back"}[lane.outcome]
        point(lane.end, name, colour, 14, symbol, where, lane.end)
    last = max(tmap.n_steps - 1, 0)
    point(tmap.n_steps, answer_row, {"correct": "#2ca02c", "wrong": "#d62728"}.get(tmap.answer, "#8c8c8c"), 16,
          "diamond", f"the answer is {tmap.answer}<br>{tmap.answer_detail}", last)
    fig.add_trace(go.Scatter(_validate=False, x=xs, y=ys, mode="markers", customdata=data, hovertext=hover,
                             hoverinfo="text", showlegend=False,
                             marker={"color": colours, "size": sizes, "symbol": symbols,
                                     "line": {"width": 1.5, "color": lines}}))
    if tmap.settled is not None:
        name = names[tmap.lanes.index(tmap.settled)]
        fig.add_trace(go.Scatter(_validate=False, x=[tmap.settled.end, tmap.n_steps], y=[name, answer_row],
                                 mode="lines", hoverinfo="skip", showlegend=False,
                                 line={"color": "#2ca02c" if tmap.answer != "wrong" else "#d62728", "dash": "dot"}))
    fig.add_vline(x=selected, line={"color": "#000", "width": 1, "dash": "dash"})
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(rows)), tickfont={"size": 11})
    fig.update_xaxes(title_text="step", range=[-1, tmap.n_steps + 2])
    fig.update_layout(height=90 + 30 * len(rows), margin={"t": 10, "l": 10, "r": 10, "b": 40},
                      clickmode="event+select", dragmode=False)
    return fig
