"""Pure view helpers for the pages: neighbourhoods, tree HTML, overview figure. No Streamlit
and no database here, so they are tested directly."""

from __future__ import annotations

import html
from collections import deque
from typing import Any, Sequence

import plotly.graph_objects as go

Outline = Sequence[tuple[int, "int | None", str, "str | None", "str | None", str]]

# "corrected": the model catching its own error (a correct rejection or a retraction), blue so it
# reads as the reasoning working, never as an error.
STATUS_COLOURS = {"invalid": "#d62728", "valid": "#2ca02c", "corrected": "#1f77b4", None: "#b0b0b0",
                  "unchecked": "#b0b0b0"}
STATUS_LABELS = {"corrected": "self-correction"}


def neighbourhood(outline: Outline, centre: int, cap: int = 1000) -> list[int]:
    """Up to `cap` step indices nearest to `centre` in the step tree (parent links, both ways),
    always including the path from `centre` to its root so the context is never cut off."""
    n = len(outline)
    if n <= cap:
        return list(range(n))
    children: dict[int, list[int]] = {}
    for idx, parent, *_ in outline:
        if parent is not None and 0 <= parent < n:
            children.setdefault(parent, []).append(idx)
    keep: set[int] = set()
    node: int | None = centre
    while node is not None and node not in keep and len(keep) < cap // 2:
        keep.add(node)
        parent = outline[node][1]
        node = parent if parent is not None and 0 <= parent < n else None
    queue = deque([centre])
    seen = {centre}
    while queue and len(keep) < cap:
        cur = queue.popleft()
        keep.add(cur)
        parent = outline[cur][1]
        nbrs = list(children.get(cur, ()))
        if parent is not None and 0 <= parent < n:
            nbrs.append(parent)
        for nb in nbrs:
            if nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return sorted(keep)


def tree_html(outline: Outline, nodes: list[int], selected: int, matches: set[int] | None = None,
              height: int = 560) -> str:
    """A pyvis network (hierarchical, physics off) of the given steps.

    Every user-derived string is HTML-escaped: pyvis 0.3.2's vis-network 9.1.2 shows titles as
    text, but pyvis's own popup mode assigns innerHTML, so escaping keeps the tree safe either way.
    """
    from pyvis.network import Network

    matches = matches or set()
    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line")
    wanted = set(nodes)
    for idx in nodes:
        _, parent, kind, status, rule, head = outline[idx]
        title = f"step {idx} · {kind}" + (f" · {status}" if status else "")
        if rule:
            title += f" · {rule}"
        title += "\n" + head
        net.add_node(
            idx, label=f"{idx} {kind}"[:40], title=html.escape(title),
            color={"background": STATUS_COLOURS.get(status, "#b0b0b0"),
                   "border": "#000000" if idx == selected else ("#f5b700" if idx in matches else "#666666")},
            borderWidth=5 if idx == selected else (4 if idx in matches else 1),
            shape="box" if idx == selected else "dot", size=18 if idx == selected else 10,
            font={"size": 14 if idx == selected else 11},
        )
    for idx in nodes:
        parent = outline[idx][1]
        if parent is not None and parent in wanted:
            net.add_edge(parent, idx)
    net.set_options("""{
      "layout": {"hierarchical": {"enabled": true, "direction": "UD", "sortMethod": "directed",
                                  "levelSeparation": 70, "nodeSpacing": 60}},
      "physics": {"enabled": false},
      "interaction": {"hover": true, "tooltipDelay": 120, "navigationButtons": true}
    }""")
    return net.generate_html(notebook=False)


def overview_figure(outline: Outline, selected: int, block: int = 100) -> go.Figure:
    """Icicle of the whole trace in blocks of `block` steps; any size, drill down by clicking."""
    n = len(outline)
    ids, parents, labels, colours, hover = ["root"], [""], [f"{n} steps"], ["#ffffff"], [""]
    blocked = n > block * 2
    block_bad: dict[int, int] = {}
    for idx, _, _, status, _, _ in outline:
        if status == "invalid":
            block_bad[idx // block] = block_bad.get(idx // block, 0) + 1
    if blocked:
        for b in range((n + block - 1) // block):
            lo, hi = b * block, min(n, (b + 1) * block) - 1
            bad = block_bad.get(b, 0)
            ids.append(f"b{b}")
            parents.append("root")
            labels.append(f"{lo}–{hi}")
            colours.append("#d62728" if bad else ("#f5b700" if lo <= selected <= hi else "#9ecae1"))
            hover.append(f"steps {lo}–{hi}: {bad} invalid")
    for idx, _, kind, status, rule, _ in outline:
        ids.append(f"s{idx}")
        parents.append(f"b{idx // block}" if blocked else "root")
        labels.append(str(idx))
        colours.append("#000000" if idx == selected else STATUS_COLOURS.get(status, "#b0b0b0"))
        hover.append(html.escape(f"step {idx} · {kind}" + (f" · {rule}" if rule else "")))
    fig = go.Figure(go.Icicle(ids=ids, parents=parents, labels=labels, marker={"colors": colours},
                              hovertext=hover, hoverinfo="text", maxdepth=2 if blocked else 2,
                              tiling={"orientation": "v"}))
    fig.update_layout(margin={"t": 10, "l": 0, "r": 0, "b": 0}, height=260)
    return fig


def text_window(trace: str, start: int, end: int, context: int = 1200) -> tuple[str, str, str]:
    """The step's text with some context on each side, cut at line breaks where possible."""
    lo = max(0, start - context)
    cut = trace.rfind("\n", lo, start)
    lo = cut + 1 if cut != -1 and start - cut < context else lo
    hi = min(len(trace), end + context)
    cut = trace.find("\n", end, hi)
    hi = cut if cut != -1 and cut - end < context else hi
    before = ("…" if lo > 0 else "") + trace[lo:start]
    after = trace[end:hi] + ("…" if hi < len(trace) else "")
    return before, trace[start:end], after


def verdict_label(value: Any, kind: str) -> str:
    if kind == "answer":
        return {True: "correct", False: "wrong"}.get(value, "undecided")
    return {True: "valid", False: "invalid"}.get(value, "not checked")


def claim_rows(state: Any) -> list[dict[str, str]] | None:
    """The claims a thinking step makes, as table rows; None when the step's state snapshot is
    not a line-of-reasoning record (A* and plan replays keep their own snapshots)."""
    if not isinstance(state, dict) or "line_of_reasoning" not in state:
        return None
    rows = []
    for c in state.get("claims") or ():
        verdict = "taken back" if c.get("retracted") else {True: "true", False: "FALSE"}.get(c.get("holds"), "not judged")
        rows.append({"claim": str(c.get("kind", "")), "as written": str(c.get("text", "")), "verdict": verdict,
                     "why": str(c.get("message", ""))})
    return rows


def line_caption(state: dict[str, Any]) -> str:
    """"line 3: (feast b a) → (succumb b)" -- the actions the step's claims are judged after."""
    line = state.get("line_of_reasoning") or {}
    actions = line.get("actions") or []
    where = " → ".join(actions) if actions else "the initial state (no action applied yet)"
    return f"line of reasoning {line.get('id', '?')}: {where}"
