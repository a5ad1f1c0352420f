"""Pictures of a step's state, chosen by the domain (`DomainSpec.picture`) and drawn from what
the domain says the state is (`DomainSpec.step_state`) or what the audit stored (Hanoi snapshots,
maze cells, Countdown nodes). Pure drawing: no simulation, no Streamlit, no database."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import plotly.graph_objects as go

from app_pages._view import countdown_figure, maze_figure
from validators.astar.sokoban_frames import SokobanFrame
from validators.registry import get_domain

def sokoban_figure(frame: SokobanFrame, rule: str | None = None) -> go.Figure:
    """The level: walls, floor, docks, boxes (green on a dock), the worker, and an arrow for the
    move into this state; the whole picture framed red when the step is invalid."""
    level = frame.level
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
    if not isinstance(layout, dict):
        return None
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
    spec = get_domain(p.rec.get("domain") or "")
    if spec is None or spec.step_state is None:
        return None
    frame = spec.step_state(p.rec.get("notes") or {}, p.payloads()[:p.step + 1], p.step)
    if not isinstance(frame, SokobanFrame):
        return None
    rule = p.detail.get("rule") if frame.step == p.step else None
    return StepPicture(lambda: sokoban_figure(frame, rule),
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


# The pictures a domain can name in `DomainSpec.picture`; adding a kind of picture is one function
# and one row here, and a domain whose states look like an existing kind only names it.
PICTURES: dict[str, Callable[[PictureInput], StepPicture | None]] = {
    "maze": _maze,
    "countdown_tree": _countdown,
    "sokoban_level": _sokoban,
    "hanoi_pegs": _hanoi,
}


def step_picture(p: PictureInput) -> StepPicture | None:
    """The picture of the step's state, asked of the record's domain."""
    spec = get_domain(p.rec.get("domain") or "")
    make = PICTURES.get(spec.picture or "") if spec is not None else None
    return make(p) if make is not None else None
