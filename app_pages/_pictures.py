"""Pictures of puzzle states after a step: Sokoban levels and Hanoi pegs. Pure: the state comes
from what the audit stored (each SearchFormer Sokoban step's node, the level in the replay notes,
the Hanoi simulator's snapshot per move); SearchFormer's own move function fills in plan steps
that give only the worker's cell. No Streamlit, no database."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import plotly.graph_objects as go

from app_pages._view import countdown_figure, maze_figure
from validators.astar.sokoban_core import Level, State, move, parse_state_string

Event = tuple[int, str, "str | None", "str | None"]  # (idx, kind, payload JSON, status)


@dataclass(frozen=True)
class SokobanFrame:
    """The state a Sokoban step stands for, and the worker's move into it (None: a node being
    expanded, or the first state)."""

    step: int
    kind: str
    state: State
    status: str | None
    came_from: tuple[int, int] | None


def sokoban_level(layout: dict[str, Any]) -> tuple[Level, State]:
    level = Level(int(layout["width"]), int(layout["height"]), frozenset(map(tuple, layout.get("walls") or ())),
                  frozenset(map(tuple, layout.get("docks") or ())))
    start = State(tuple(layout.get("worker") or (0, 0)), frozenset(map(tuple, layout.get("boxes") or ())))
    return level, start  # type: ignore[arg-type]


def _node(level: Level, payload: dict[str, Any]) -> State | None:
    """The search node a create/close/plan step names: a state string, or worker and boxes."""
    if isinstance(payload.get("state"), str):
        found = parse_state_string(payload["state"])
        return found[1] if not isinstance(found, str) else None
    worker, boxes = payload.get("worker"), payload.get("boxes")
    if isinstance(worker, list) and len(worker) == 2 and isinstance(boxes, list):
        try:
            return State((int(worker[0]), int(worker[1])), frozenset((int(b[0]), int(b[1])) for b in boxes))
        except (TypeError, ValueError, IndexError):
            return None
    return None


def sokoban_frame(layout: dict[str, Any], events: Sequence[Event], selected: int) -> SokobanFrame | None:
    """The state after the selected step (or after the last step before it that names one).
    A created node came from the node last closed (A* expands one node at a time); a plan step
    from the plan step before it, or the start."""
    level, start = sokoban_level(layout)
    expanding: State | None = None
    plan_at: State | None = None
    frame: SokobanFrame | None = None
    for idx, kind, raw, status in events:
        if idx > selected:
            break
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {}
        if not isinstance(payload, dict):
            continue
        state = _node(level, payload)
        came: State | None = None
        if kind == "plan":
            came = plan_at
            if state is None and "x" in payload and "y" in payload:
                prev = plan_at or start
                x, y = int(payload["x"]), int(payload["y"])
                dx, dy = x - prev.worker[0], y - prev.worker[1]
                state = move(level, prev, dx, dy) if abs(dx) + abs(dy) == 1 else State((x, y), prev.boxes)
                came = plan_at
            plan_at = state or plan_at
        elif kind == "create":
            came = expanding
        elif kind == "close" and state is not None:
            expanding = state
        if state is not None:
            frame = SokobanFrame(idx, kind, state, status, came.worker if came is not None else None)
    return frame


def sokoban_figure(layout: dict[str, Any], frame: SokobanFrame, rule: str | None = None) -> go.Figure:
    """The level: walls, floor, docks, boxes (green on a dock), the worker, and an arrow for the
    move into this state; the whole picture framed red when the step is invalid."""
    level, _ = sokoban_level(layout)
    w, h = level.width, level.height
    grid = [[1 if (x, y) in level.walls else (2 if (x, y) in level.docks else 0) for x in range(w)] for y in range(h)]
    scale = [[0.0, "#f7f4ea"], [0.33, "#f7f4ea"], [0.33, "#3b3b3b"], [0.66, "#3b3b3b"], [0.66, "#ffe08a"],
             [1.0, "#ffe08a"]]
    fig = go.Figure([go.Heatmap(_validate=False, z=grid, zmin=0, zmax=2, colorscale=scale, showscale=False,
                                xgap=1, ygap=1, hovertemplate="x %{x}, y %{y}<extra></extra>")], _validate=False)
    boxes = sorted(frame.state.boxes)
    fig.add_trace(go.Scatter(_validate=False, x=[b[0] for b in boxes], y=[b[1] for b in boxes], mode="markers",
                             name="box", hoverinfo="name",
                             marker={"symbol": "square", "size": 26,
                                     "color": ["#2ca02c" if b in level.docks else "#a0522d" for b in boxes],
                                     "line": {"width": 2, "color": "#222"}}))
    wx, wy = frame.state.worker
    fig.add_trace(go.Scatter(_validate=False, x=[wx], y=[wy], mode="markers", name="worker", hoverinfo="name",
                             marker={"symbol": "circle", "size": 22, "color": "#1f77b4",
                                     "line": {"width": 2, "color": "#000"}}))
    if frame.came_from is not None and frame.came_from != frame.state.worker:
        fig.add_annotation(x=wx, y=wy, ax=frame.came_from[0], ay=frame.came_from[1], xref="x", yref="y",
                           axref="x", ayref="y", showarrow=True, arrowhead=3, arrowwidth=3, arrowcolor="#d62728")
    bad = frame.status == "invalid"
    title = f"step {frame.step}: {frame.kind}" + (f" · invalid ({rule})" if bad and rule else " · invalid" if bad else "")
    if bad:
        fig.add_shape(type="rect", xref="paper", yref="paper", x0=0, y0=0, x1=1, y1=1,
                      line={"color": "#d62728", "width": 6})
    fig.update_yaxes(autorange="reversed", scaleanchor="x", showgrid=False, zeroline=False, visible=False)
    fig.update_xaxes(showgrid=False, zeroline=False, visible=False, range=[-0.5, w - 0.5], constrain="domain")
    fig.update_layout(height=min(640, 90 + 48 * h), margin={"t": 40, "l": 10, "r": 10, "b": 10},
                      title={"text": title, "font": {"size": 14, "color": "#d62728" if bad else "#222"}},
                      legend={"orientation": "h", "y": -0.02})
    return fig


def hanoi_pegs(state: Any) -> list[list[int]] | None:
    """Pegs (bottom to top) from a Hanoi step snapshot: a move's state, or a move list's final."""
    if isinstance(state, dict):
        state = state.get("final")
    if isinstance(state, list) and len(state) == 3 and all(isinstance(p, list) for p in state) and \
            all(isinstance(d, int) and not isinstance(d, bool) for p in state for d in p):
        return state
    return None


def hanoi_figure(pegs: list[list[int]], title: str = "", invalid: bool = False) -> go.Figure:
    """Three pegs with their disks as bars, widest at the bottom; red title when the step's move
    was illegal (the picture is then the state the move was tried on)."""
    disks = max((d for p in pegs for d in p), default=1)
    fig = go.Figure(_validate=False)
    for peg in range(3):
        fig.add_shape(type="line", x0=peg, x1=peg, y0=0, y1=disks + 0.6, line={"width": 4, "color": "#777"})
    xs, ys, labels = [], [], []
    for peg, stack in enumerate(pegs):
        for level, disk in enumerate(stack):
            half = 0.1 + 0.35 * disk / disks
            fig.add_shape(type="rect", x0=peg - half, x1=peg + half, y0=level + 0.05, y1=level + 0.9,
                          fillcolor="#9ecae1", line={"color": "#08519c", "width": 1.5})
            xs.append(peg)
            ys.append(level + 0.47)
            labels.append(str(disk))
    fig.add_trace(go.Scatter(_validate=False, x=xs, y=ys, mode="text", text=labels, hoverinfo="skip",
                             showlegend=False, textfont={"size": 12}))
    fig.add_shape(type="line", x0=-0.6, x1=2.6, y0=0, y1=0, line={"width": 3, "color": "#333"})
    fig.update_xaxes(range=[-0.6, 2.6], tickvals=[0, 1, 2], ticktext=["peg 0", "peg 1", "peg 2"], showgrid=False,
                     zeroline=False)
    fig.update_yaxes(visible=False, range=[-0.3, disks + 1])
    fig.update_layout(height=min(600, 140 + 26 * disks), margin={"t": 40 if title else 10, "l": 10, "r": 10, "b": 10},
                      title={"text": title, "font": {"size": 14, "color": "#d62728" if invalid else "#222"}})
    return fig


# --- the picture of a step, asked of the domain ---------------------------------------------------

@dataclass(frozen=True)
class StepPicture:
    draw: Callable[[], go.Figure]
    caption: str


@dataclass(frozen=True)
class PictureInput:
    """What a picture may use: the record's row, the selected step and its detail, and lazy
    readers of what the audit stored (the steps' payloads up to the step; the latest state)."""

    rec: dict[str, Any]
    step: int
    detail: dict[str, Any]
    payloads: Callable[[], Sequence[tuple]]
    latest_state: Callable[[], tuple[int, Any] | None]


def _maze(p: PictureInput) -> StepPicture | None:
    layout = (p.rec.get("notes") or {}).get("layout")
    return StepPicture(lambda: maze_figure(layout, p.payloads()[:p.step + 1], p.step),
                       "the maze after this step: dark walls · blue open (created) · orange closed · red cells of "
                       "invalid steps · green start · purple goal · black square: this step's cell")


def _countdown(p: PictureInput) -> StepPicture | None:
    tree = countdown_figure(p.payloads()[:p.step + 1], p.step)
    if tree is None:
        return None
    return StepPicture(lambda: tree, "the search tree up to this step: numbers left and the operation that made each "
                                     "node · red: nodes of invalid steps · ringed: where the search is")


def _sokoban(p: PictureInput) -> StepPicture | None:
    layout = (p.rec.get("notes") or {}).get("layout")
    frame = sokoban_frame(layout, p.payloads()[:p.step + 1], p.step) if layout else None
    if frame is None:
        return None
    rule = p.detail.get("rule") if frame.step == p.step else None
    return StepPicture(lambda: sokoban_figure(layout, frame, rule),
                       f"the level in the state of step {frame.step}: dark walls · yellow targets · brown boxes "
                       "(green on a target) · blue worker · red arrow: the move into this state · red frame: "
                       "an invalid step")


def _hanoi(p: PictureInput) -> StepPicture | None:
    found = p.latest_state()
    pegs = hanoi_pegs(found[1]) if found else None
    if pegs is None or found is None:
        return None
    bad = found[0] == p.step and p.detail.get("status") == "invalid"
    what = f"step {p.step}: the pegs its illegal move was tried on" if bad else f"the pegs after step {found[0]}"
    return StepPicture(lambda: hanoi_figure(pegs, what, bad), "disks on each peg, bottom up (1 is the smallest)")


# One row a domain with a picture of its states; a trace whose replay notes hold a maze layout
# (any A* maze format) gets the maze. Adding a domain's picture is one function and one row.
PICTURES: dict[str, Callable[[PictureInput], StepPicture | None]] = {
    "countdown": _countdown,
    "sokoban": _sokoban,
    "hanoi": _hanoi,
}


def step_picture(p: PictureInput) -> StepPicture | None:
    """The picture of the step's state, asked of the record's domain."""
    make = PICTURES.get(p.rec.get("domain") or "")
    if make is not None:
        return make(p)
    if (p.rec.get("notes") or {}).get("layout"):
        return _maze(p)
    return None
