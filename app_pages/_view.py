"""Pure view helpers for the pages: neighbourhoods, tree HTML, overview figure. No Streamlit
and no database here, so they are tested directly."""

from __future__ import annotations

import base64
import functools
import html
import json
from collections import deque
from pathlib import Path
from typing import Any, Sequence

import plotly.graph_objects as go

from records_io.report import rollout_rewards
from core.verdicts import trace_label

Outline = Sequence[tuple[int, "int | None", str, "str | None", "str | None", str]]

# "corrected": the model catching its own error (a correct rejection or a retraction), blue so it
# reads as the reasoning working, never as an error.
STATUS_COLOURS = {"invalid": "#d62728", "valid": "#2ca02c", "corrected": "#1f77b4", None: "#b0b0b0",
                  "unchecked": "#b0b0b0"}
STATUS_LABELS = {"corrected": "self-correction"}


def _figure(*traces: Any) -> go.Figure:
    """A figure of traces built here from known-good values, without plotly's per-element
    validation (8x the cost of building a 1,000-point figure: the explorer's largest server cost)."""
    return go.Figure(list(traces), _validate=False)


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


@functools.cache
def _vis_network() -> tuple[str, str]:
    """vis-network 9.1.2's script and stylesheet as pyvis ships them (read once; nothing from a CDN)."""
    import pyvis

    lib = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
    return (lib / "vis-network.min.js").read_text(encoding="utf-8"), (lib / "vis-network.css").read_text(encoding="utf-8")


_TREE_OPTIONS = {
    "layout": {"hierarchical": {"enabled": True, "direction": "UD", "sortMethod": "directed",
                                "levelSeparation": 70, "nodeSpacing": 60}},
    "physics": {"enabled": False},
    "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": True},
    "edges": {"arrows": {"to": {"enabled": True}}},
}


def tree_page(outline: Outline, nodes: list[int], matches: set[int] | None = None, height: int = 560,
              link: str | None = None) -> str:
    """A vis-network page (hierarchical, physics off) of the given steps, no step selected: the
    part of the tree view that does not change with the step, so a page can cache it per trace
    and `tree_html` marks the selection with a few bytes of script. Written here rather than
    through pyvis, which recompiles its template and checks duplicates by list scans (0.15 s for
    1,000 nodes, against 0.01 s); pyvis still supplies the vis-network files.

    Every user-derived string is HTML-escaped (vis-network 9.1.2 shows titles as text, so this
    only matters to a future popup that assigns innerHTML) and the data is a JSON literal that
    cannot close its script element.
    """
    matches = matches or set()
    wanted = set(nodes)
    data_nodes, data_edges = [], []
    for idx in nodes:
        _, parent, kind, status, rule, head = outline[idx]
        title = f"step {idx} · {kind}" + (f" · {status}" if status else "") + (f" · {rule}" if rule else "")
        data_nodes.append({
            "id": idx, "label": f"{idx} {kind}"[:40], "title": html.escape(title + "\n" + head),
            "color": {"background": STATUS_COLOURS.get(status, "#b0b0b0"),
                      "border": "#f5b700" if idx in matches else "#666666"},
            "borderWidth": 4 if idx in matches else 1, "shape": "dot", "size": 10, "font": {"size": 11}})
        if parent is not None and parent in wanted:
            data_edges.append({"from": parent, "to": idx})
    script, css = _vis_network()
    # A click on a node opens that step in the app (a new tab: see `sandboxed`).
    return ("<!doctype html><html><head><meta charset='utf-8'>"
            f"<style>{css}</style><style>body{{margin:0}}#net{{width:100%;height:{int(height)}px;"
            "border:1px solid #ddd}</style>"
            f"<script>{script}</script></head><body><div id='net'></div><script>"
            f"var LINK={_js_string(link or '')};"
            f"var nodes=new vis.DataSet({_js_string(data_nodes)});var edges=new vis.DataSet({_js_string(data_edges)});"
            "var network=new vis.Network(document.getElementById('net'),{nodes:nodes,edges:edges},"
            f"{json.dumps(_TREE_OPTIONS)});"
            "network.on('click',function(p){if(p.nodes.length&&LINK){window.open(LINK+'&step='+p.nodes[0],'_blank','noopener');}});"
            "</script><!--selection--></body></html>")


def tree_html(outline: Outline, nodes: list[int], selected: int, matches: set[int] | None = None,
              height: int = 560, link: str | None = None, page: str | None = None) -> str:
    """The tree page (`page`, else built here) with `selected` drawn as a black box, opened
    centred on it at a readable zoom (vis fits every node by default: a hairline for a long
    trace)."""
    page = page if page is not None else tree_page(outline, nodes, matches, height, link)
    sel = int(selected)
    mark = (f"<script>if(nodes.get({sel})){{nodes.update({{id:{sel},shape:'box',size:18,borderWidth:5,"
            f"font:{{size:14}},color:{{background:nodes.get({sel}).color.background,border:'#000000'}}}});}}"
            f"network.once('afterDrawing',function(){{network.focus({sel},{{scale:1.0}});}});</script>")
    return page.replace("<!--selection-->", mark, 1)


def _js_string(value: Any) -> str:
    """A JSON literal that cannot end the script element it stands in."""
    return json.dumps(value).replace("</", "<" + chr(92) + "/")


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
    fig = _figure(go.Icicle(_validate=False, ids=ids, parents=parents, labels=labels, marker={"colors": colours},
                              hovertext=hover, hoverinfo="text", maxdepth=2 if blocked else 2,
                              tiling={"orientation": "v"}))
    fig.update_layout(margin={"t": 10, "l": 0, "r": 0, "b": 0}, height=260)
    return fig


def text_window(trace: str, start: int, end: int, context: int = 1200) -> tuple[str, str, str]:
    """The step's text with up to `context` characters of its neighbours on each side, cut at the
    line break farthest from the step so whole lines (and whole neighbouring steps) show."""
    lo = max(0, start - context)
    if lo > 0:
        cut = trace.find("\n", lo, start)
        lo = cut + 1 if cut != -1 else lo
    hi = min(len(trace), end + context)
    if hi < len(trace):
        cut = trace.rfind("\n", end, hi)
        hi = cut if cut != -1 else hi
    before = ("…" if lo > 0 else "") + trace[lo:start]
    after = trace[end:hi] + ("…" if hi < len(trace) else "")
    return before, trace[start:end], after


def sandboxed(page: str) -> str:
    """A data: URL for st.iframe. Unlike an HTML string (embedded same-origin, with access to
    the app), a data: document has an opaque origin: its scripts cannot read or change the app.
    Streamlit's frame sandbox allows no top navigation, so a click opens the step in a new tab
    (popups may leave the sandbox); that tab's URL is the step's link."""
    return "data:text/html;charset=utf-8;base64," + base64.b64encode(page.encode("utf-8")).decode("ascii")


READING_CAP = 3000  # steps shown around the selection in the reading view (the rest elided)

_READING_STYLE = """
body{font:14px/1.55 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0;padding:8px 10px;color:#222;
white-space:pre-wrap;word-wrap:break-word}
a{color:inherit;text-decoration:none;border-radius:3px;padding:0 1px}
a:hover{outline:1px solid #888}
.invalid{background:#fde2e2;border-bottom:2px solid #d62728}.valid{background:#e3f4e1}
.corrected{background:#dde9f7;border-bottom:2px solid #1f77b4}.unchecked{background:transparent}
.hit{outline:2px solid #f5b700}.sel{outline:3px solid #000;background:#fff3bf}
.note{color:#777;font-style:italic}
"""


def reading_html(trace: str, spans: Sequence[tuple[int, int, int, str | None, str | None]], selected: int,
                 link: str, matches: set[int] | None = None, cap: int = READING_CAP) -> str:
    """The whole trace as text with every step's span marked by its verdict (hover: the rule and
    message), search hits outlined, the selected step scrolled into view; a click on a step opens
    it in the app (`link` + step number, in a new tab: see `sandboxed`). Every trace character is escaped;
    `spans` are (idx, start, end, status, message) in step order."""
    matches = matches or set()
    e = html.escape
    lo_i = max(0, min(selected - cap // 2, len(spans) - cap))
    shown = spans[lo_i:lo_i + cap]
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><style>{_READING_STYLE}</style></head><body>"]
    pos = shown[0][1] if shown else 0
    if lo_i > 0:
        parts.append(f"<span class='note'>[steps 0 to {lo_i - 1} not shown: select one of them to read it]</span>\n")
    elif pos > 0:
        parts.append(e(trace[:pos]))
    for idx, start, end, status, message in shown:
        if start > pos:
            parts.append(e(trace[pos:start]))
        cls = [status or "unchecked"] + (["hit"] if idx in matches else []) + (["sel"] if idx == selected else [])
        tip = f"step {idx}" + (f" · {status}" if status else "") + (f": {message}" if message else "")
        parts.append(f"<a id='s{idx}' class='{' '.join(cls)}' href='{e(link)}&amp;step={idx}' target='_blank' "
                     "rel='noopener' "
                     f"title='{e(tip[:600])}'>{e(trace[start:end])}</a>")
        pos = max(pos, end)
    last = lo_i + len(shown)
    if last < len(spans):
        parts.append(f"\n<span class='note'>[steps {last} to {len(spans) - 1} not shown]</span>")
    elif pos < len(trace):
        parts.append(e(trace[pos:]))
    parts.append(f"<script>var s=document.getElementById('s{int(selected)}');"
                 "if(s){s.scrollIntoView({block:'center'});}</script></body></html>")
    return "".join(parts)


def maze_figure(layout: dict[str, Any], events: Sequence[tuple[int, str, str | None, str | None]],
                selected: int) -> go.Figure:
    """The maze after the selected step: walls, start and goal, the cells created (open) and
    closed so far, cells of invalid steps, and the selected step's cell. `events` are the
    (idx, kind, payload JSON, status) of steps 0..selected."""
    width, height = int(layout["width"]), int(layout["height"])
    grid = [[0] * width for _ in range(height)]  # 0 free, 1 wall, 2 open, 3 closed, 4 invalid
    for x, y in layout.get("walls") or ():
        if 0 <= x < width and 0 <= y < height:
            grid[y][x] = 1
    here: tuple[int, int] | None = None
    for idx, kind, payload, status in events:
        p = json.loads(payload) if payload else {}
        if "x" not in p or "y" not in p:
            continue
        x, y = int(p["x"]), int(p["y"])
        if not (0 <= x < width and 0 <= y < height):
            continue
        if status == "invalid":
            grid[y][x] = 4
        elif kind == "close":
            grid[y][x] = 3
        elif kind == "create" and grid[y][x] in (0, 2):
            grid[y][x] = 2
        if idx == selected:
            here = (x, y)
    scale = [[0.0, "#ffffff"], [0.2, "#ffffff"], [0.2, "#3b3b3b"], [0.4, "#3b3b3b"], [0.4, "#9ecae1"],
             [0.6, "#9ecae1"], [0.6, "#fdd0a2"], [0.8, "#fdd0a2"], [0.8, "#d62728"], [1.0, "#d62728"]]
    fig = _figure(go.Heatmap(_validate=False, z=grid, zmin=0, zmax=4, colorscale=scale, showscale=False, xgap=1, ygap=1,
                               hovertemplate="x %{x}, y %{y}<extra></extra>"))
    marks = [("start", layout["start"], "#2ca02c", "circle"), ("goal", layout["goal"], "#9467bd", "star")]
    if here is not None:
        marks.append((f"step {selected}", list(here), "#000000", "square-open"))
    for name, (x, y), colour, symbol in marks:
        fig.add_trace(go.Scatter(_validate=False, x=[x], y=[y], mode="markers", name=name, hoverinfo="name",
                                 marker={"color": colour, "symbol": symbol, "size": 14, "line": {"width": 3}}))
    fig.update_yaxes(autorange="reversed", scaleanchor="x", showgrid=False, zeroline=False)
    fig.update_xaxes(showgrid=False, zeroline=False, side="top", range=[-0.5, width - 0.5], constrain="domain")
    fig.update_layout(height=min(700, 60 + 18 * height), margin={"t": 30, "l": 10, "r": 10, "b": 10},
                      legend={"orientation": "h", "y": -0.02})
    return fig


def countdown_figure(events: Sequence[tuple[int, str, str | None, str | None]], selected: int) -> go.Figure | None:
    """The Countdown search tree as the log has built it up to the selected step: the start
    numbers at the root, one node per generated state (its numbers and the operation that made
    it), nodes of invalid steps red, the node the search is at ringed. None when the log holds
    no search state."""
    nodes: dict[tuple[int, ...], dict[str, Any]] = {}
    at: tuple[int, ...] | None = ()
    for idx, kind, payload, status in events:
        p = json.loads(payload) if payload else {}
        if kind == "state" and not nodes and "numbers" in p:
            nodes[()] = {"label": f"{p.get('target')}: {p['numbers']}", "bad": status == "invalid", "step": idx}
        elif kind == "generate" and isinstance(p.get("node"), list):
            node = tuple(int(n) for n in p["node"])
            nodes[node] = {"label": f"{p.get('numbers')}<br>{p.get('operation', '')}", "step": idx,
                           "bad": status == "invalid" or (node in nodes and nodes[node]["bad"])}
        elif kind == "move" and isinstance(p.get("node"), list):
            at = tuple(int(n) for n in p["node"])
            if status == "invalid" and at in nodes:
                nodes[at]["bad"] = True
    if not nodes:
        return None
    def parent(node: tuple[int, ...]) -> tuple[int, ...] | None:
        """"#0,1" is child 1 of node "#0", whose own parent is the root (the start numbers)."""
        if not node:
            return None
        up = node[:-1]
        while up and up not in nodes:
            up = up[:-1]
        return up if up in nodes else (() if () in nodes else None)

    children: dict[tuple[int, ...] | None, list[tuple[int, ...]]] = {}
    for node in nodes:
        children.setdefault(parent(node), []).append(node)
    order: dict[tuple[int, ...], float] = {}
    level: dict[tuple[int, ...], int] = {}
    leaves = iter(range(len(nodes)))

    def place(node: tuple[int, ...], depth: int) -> float:
        level[node] = depth
        kids = sorted(children.get(node, ()))
        order[node] = sum(place(k, depth + 1) for k in kids) / len(kids) if kids else float(next(leaves))
        return order[node]

    for top in sorted(children.get(None, ())):
        place(top, 0)
    fig = _figure()
    for node in nodes:
        up = parent(node)
        if up is not None:
            fig.add_trace(go.Scatter(_validate=False, x=[order[up], order[node]], y=[level[up], level[node]], mode="lines",
                                     line={"color": "#999", "width": 1}, hoverinfo="skip", showlegend=False))
    keys = list(nodes)
    fig.add_trace(go.Scatter(_validate=False,
        x=[order[k] for k in keys], y=[level[k] for k in keys], mode="markers+text", showlegend=False,
        text=[nodes[k]["label"] for k in keys], textposition="bottom center", textfont={"size": 10},
        hovertext=[f"step {nodes[k]['step']}: " + nodes[k]["label"].replace("<br>", " ") for k in keys],
        hoverinfo="text",
        marker={"size": 16, "color": ["#d62728" if nodes[k]["bad"] else "#9ecae1" for k in keys],
                "line": {"width": [4 if k == at else 1 for k in keys], "color": "#000"}}))
    depth = max(level.values())
    fig.update_yaxes(autorange="reversed", visible=False, range=[depth + 0.8, -0.5])
    fig.update_xaxes(visible=False)
    fig.update_layout(height=140 + 90 * depth, margin={"t": 10, "l": 10, "r": 10, "b": 10})
    return fig


def answer_html(answer: str, plan_span: Sequence[int] | None, actions: Sequence[dict[str, Any]]) -> str:
    """The answer as text with the part read as the plan outlined and each action marked by its
    replay status (hover: the action read and any problem), so a reader sees exactly what was
    judged. Every character is escaped; no links, no script."""
    e = html.escape
    marks = sorted((int(a["span"][0]), int(a["span"][1]), a) for a in actions if a.get("span"))
    lo, hi = (int(plan_span[0]), int(plan_span[1])) if plan_span else (len(answer), len(answer))
    out, pos = [f"<!doctype html><html><head><meta charset='utf-8'><style>{_READING_STYLE}"
                ".plan{outline:2px dashed #555;outline-offset:2px;display:inline}</style></head><body>"], 0
    cuts = sorted({0, len(answer), lo, hi} | {m[0] for m in marks} | {m[1] for m in marks})
    for a, b in zip(cuts, cuts[1:]):
        if b <= pos:
            continue
        piece = e(answer[a:b])
        act = next((m[2] for m in marks if m[0] <= a and b <= m[1]), None)
        if act is not None:
            status = {"valid": "valid", "invalid": "invalid"}.get(act.get("status"), "unchecked")
            tip = f"step {act.get('step')}: {act.get('action') or 'not read'}" + (
                f" · {act['message']}" if act.get("message") else "")
            piece = f"<span class='{status}' title='{e(tip[:600])}'>{piece}</span>"
        if lo <= a and b <= hi:
            piece = f"<span class='plan'>{piece}</span>"
        out.append(piece)
        pos = b
    out.append("</body></html>")
    return "".join(out)


def _atoms(state: Sequence[str]) -> list[list[str]]:
    return [a.strip("()").split() for a in state]


def is_blocks_state(state: Sequence[str]) -> bool:
    return any(a[0] in ("on", "ontable") for a in _atoms(state))


def blocks_figure(state: Sequence[str], title: str = "") -> go.Figure:
    """Blocksworld stacks: one tower per block on the table, bottom up along `on`, and the block
    in the hand (if any) above them."""
    atoms = _atoms(state)
    on = {a[1]: a[2] for a in atoms if a[0] == "on" and len(a) == 3}
    above = {below: top for top, below in on.items()}
    bases = sorted(a[1] for a in atoms if a[0] == "ontable" and len(a) == 2)
    held = [a[1] for a in atoms if a[0] == "holding" and len(a) == 2]
    fig = _figure()
    xs, ys, labels = [], [], []
    for col, base in enumerate(bases):
        block, level, seen = base, 0, set()
        while block is not None and block not in seen:
            seen.add(block)
            xs.append(col)
            ys.append(level)
            labels.append(block)
            block, level = above.get(block), level + 1
    top = max(ys, default=0) + 2
    for block in held:
        xs.append((len(bases) - 1) / 2 if bases else 0)
        ys.append(top)
        labels.append(f"{block} (held)")
    fig.add_trace(go.Scatter(_validate=False, x=xs, y=ys, mode="markers+text", text=labels, textposition="middle center",
                             textfont={"size": 16, "color": "#111"},
                             marker={"symbol": "square", "size": 46, "color": "#c6dbef", "line": {"width": 2, "color": "#333"}},
                             hoverinfo="text", showlegend=False))
    fig.add_shape(type="line", x0=-0.6, x1=max(len(bases) - 0.4, 0.6), y0=-0.6, y1=-0.6, line={"width": 3})
    fig.update_xaxes(visible=False, range=[-0.8, max(len(bases) - 0.2, 1)])
    fig.update_yaxes(visible=False, range=[-1, top + 1])
    fig.update_layout(height=120 + 55 * (top + 1), margin={"t": 30 if title else 10, "l": 10, "r": 10, "b": 10},
                      title={"text": title, "font": {"size": 13}} if title else None)
    return fig


def rollout_line(rollout: dict[str, Any]) -> str:
    """An RL rollout's origin and every reward its trainer logged, on one line (rewards/rollouts.py)."""
    _, rewards = rollout_rewards({"rollout": rollout})
    parts = [f"{rollout.get('layout', 'unknown')} rollout"]
    if rollout.get("step") is not None:
        parts.append(f"step {rollout['step']}")
    parts.append(rewards or "no reward columns logged")
    if isinstance(rollout.get("advantage"), (int, float)):
        parts.append(f"advantage={rollout['advantage']:g}")
    if rollout.get("problem_from"):
        parts.append(f"problem from {rollout['problem_from']}")
    return " · ".join(parts)


def verdict_label(value: Any, kind: str) -> str:
    if kind == "answer":
        return {True: "correct", False: "wrong"}.get(value, "undecided")
    return trace_label(None, value)


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
