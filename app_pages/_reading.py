"""The reading of one thinking step, as a page for a sandboxed frame: each claim read in it, its
verdict and modality, the state it was judged against, the rule rows that read it (with the
example each row was written for), and, in grey, what was read but left unjudged and why.

Pure: the step's stored state dict in, HTML out; no Streamlit and no database, so it is tested
directly. Everything in the dict comes from the trace or from what the audit made of it, so
every value is escaped (`html.escape`, quotes too) and the page holds no script and no link.

The claim reader (validators/planning/reading.py, via claims.py) stores per claim "modality",
"rules" and "judged_against" and lists "unjudged" claims; audits stored before it (and other
domains' readers) store claims without them. What is absent is not shown.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

# A state up to this many facts is shown open; a longer one is collapsed behind its count.
OPEN_STATE = 8

_STYLE = """
body{font:13px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:6px 8px;color:#222}
h3{font-size:13px;margin:10px 0 4px}
.line{color:#444;margin-bottom:6px}
.claim{border:1px solid #ddd;border-left:5px solid #b0b0b0;border-radius:4px;padding:5px 8px;margin:6px 0}
.claim.false{border-left-color:#d62728;background:#fff5f5}.claim.holds{border-left-color:#2ca02c}
.claim.retracted{border-left-color:#1f77b4;background:#f4f8fd}
.claim.unjudged{color:#777;background:#f6f6f6;border-left-color:#c8c8c8}
.head{display:flex;flex-wrap:wrap;gap:6px;align-items:baseline}
.kind{font-weight:600}
.verdict{font-weight:700;padding:0 4px;border-radius:3px}
.false .verdict{color:#fff;background:#d62728}.holds .verdict{color:#fff;background:#2ca02c}
.retracted .verdict{color:#fff;background:#1f77b4}.unjudged .verdict{color:#555;background:#e2e2e2}
.modality{font-style:italic;color:#666}
.text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;word-wrap:break-word;
margin:3px 0}
.message,.why{margin:2px 0;white-space:pre-wrap;word-wrap:break-word}
.against{margin:3px 0;color:#444}
details>summary{cursor:pointer;color:#444}
ul.atoms{margin:2px 0 2px 0;padding-left:18px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
div.rules{margin:4px 0 0;color:#444}
ul.rules{margin:2px 0 0;padding-left:16px}
li.rule{margin:2px 0}
.rid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:600;color:#222}
.unjudged .rid{color:#777}
.sets,.source{color:#555}.unjudged .sets,.unjudged .source,.unjudged div.rules{color:#888}
.example{font-style:italic;color:#555}
.none{color:#888;font-style:italic}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def is_reading(state: Any) -> bool:
    """Whether a step's state is a thinking step's reading (a line of reasoning with claims)."""
    return isinstance(state, dict) and "line_of_reasoning" in state and bool(
        _list(state.get("claims")) or _list(state.get("unjudged")))


def _list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else []


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in _list(value) if isinstance(v, dict)]


def verdict_of(claim: dict[str, Any]) -> tuple[str, str]:
    """(css class, label) of a judged claim: retracted before holds, as the audit counts it."""
    if claim.get("retracted"):
        return "retracted", "retracted"
    holds = claim.get("holds")
    if holds is True:
        return "holds", "holds"
    if holds is False:
        return "false", "false"
    return "unjudged", "not judged"


def line_text(state: dict[str, Any]) -> str:
    line = state.get("line_of_reasoning") if isinstance(state.get("line_of_reasoning"), dict) else {}
    actions = [str(a) for a in _list(line.get("actions"))]
    where = " → ".join(actions) if actions else "the initial state (no action applied yet)"
    return f"line of reasoning {line.get('id', '?')}: {where}"


def _atoms(atoms: Sequence[Any], label: str, collapsed: bool = False) -> str:
    """A state as a list of its facts, open when short (`OPEN_STATE`), else behind its count."""
    items = "".join(f"<li>{_e(a)}</li>" for a in atoms)
    opened = " open" if len(atoms) <= OPEN_STATE and not collapsed else ""
    return (f"<details class='against'{opened}><summary>{_e(label)} ({len(atoms)} fact{'s' if len(atoms) != 1 else ''})"
            f"</summary><ul class='atoms'>{items}</ul></details>")


def _against(claim: dict[str, Any], step_state: list[Any] | None) -> str:
    """The state one claim was judged against: its own (second reader), else the step's."""
    if "judged_against" in claim:
        own = claim.get("judged_against")
        if own is None:
            if claim.get("kind") in ("rule", "effect"):  # what an action adds or needs: its schema says
                return "<div class='against none'>judged against the action's schema, not a state</div>"
            return "<div class='against none'>judged against no recorded state</div>"
        own = _list(own)
        if step_state is not None and sorted(map(str, own)) == sorted(map(str, step_state)):
            return "<div class='against'>judged against the state above</div>"
        return _atoms(own, "judged against")
    if step_state is not None:
        return "<div class='against'>judged against the state above</div>"
    return ""


def _rules(rows: Any) -> str:
    """The rule rows that read a claim, one block each (the explorer's column is narrow: a row's
    id, what it sets and its source on one line, the example it was written for under them)."""
    rows = _dicts(rows)
    if not rows:
        return ""
    body = "".join(
        f"<li class='rule'><span class='rid'>{_e(r.get('id'))}</span> <span class='sets'>sets: {_e(r.get('sets'))}</span>"
        + (f" · <span class='source'>source: {_e(r.get('source'))}</span>" if r.get("source") else "")
        + (f"<div class='example'>example: <q>{_e(r.get('example'))}</q></div>" if r.get("example") else "")
        + "</li>" for r in rows)
    return f"<div class='rules'>read by:<ul class='rules'>{body}</ul></div>"


def _head(kind: Any, label: str, modality: Any) -> str:
    return (f"<div class='head'><span class='kind'>{_e(kind or 'claim')}</span>"
            f"<span class='verdict'>{_e(label)}</span>"
            + (f"<span class='modality'>{_e(modality)}</span>" if modality else "") + "</div>")


def _judged(claim: dict[str, Any], step_state: list[Any] | None) -> str:
    cls, label = verdict_of(claim)
    return (f"<div class='claim {cls}'>" + _head(claim.get("kind"), label, claim.get("modality"))
            + f"<div class='text'>{_e(claim.get('text'))}</div>"
            + (f"<div class='message'>{_e(claim.get('message'))}</div>" if claim.get("message") else "")
            + _against(claim, step_state) + _rules(claim.get("rules")) + "</div>")


def _unjudged(claim: dict[str, Any]) -> str:
    return ("<div class='claim unjudged'>" + _head(claim.get("kind"), "not judged", claim.get("modality"))
            + f"<div class='text'>{_e(claim.get('text'))}</div>"
            + f"<div class='why'>why: {_e(claim.get('why') or 'not said')}</div>"
            + _rules(claim.get("rules")) + "</div>")


def step_reading_html(state: dict[str, Any]) -> str:
    """The reading of one step as a whole HTML document (for `_view.sandboxed`)."""
    claims = _dicts(state.get("claims"))
    unjudged = _dicts(state.get("unjudged"))
    step_state = state.get("judged_against")
    step_state = _list(step_state) if step_state is not None else None
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><style>{_STYLE}</style></head><body>",
             f"<div class='line'>{_e(line_text(state))}</div>"]
    if step_state is not None:
        # The explorer shows this state above the frame too (as stacks or a table): closed here.
        parts.append(_atoms(step_state, "the state the step's claims are judged against", collapsed=True))
    parts.append(f"<h3>Claims judged ({len(claims)})</h3>")
    parts.extend(_judged(c, step_state) for c in claims)
    if not claims:
        parts.append("<div class='none'>none</div>")
    if unjudged:
        parts.append(f"<h3>Read but not judged ({len(unjudged)})</h3>")
        parts.extend(_unjudged(c) for c in unjudged)
    parts.append("</body></html>")
    return "".join(parts)


def step_reading_height(state: dict[str, Any], cap: int = 900, chars: int = 42) -> int:
    """A frame height (px) that shows the reading without scrolling in most steps: a data: frame
    cannot be measured by the page, so it is estimated from what will be drawn, `chars` characters
    to a line (the explorer's right column; the frame scrolls past `cap`)."""
    def lines(*texts: Any) -> int:
        return sum(max(1, -(-len(str(t or "")) // chars)) for t in texts)

    def own_state(atoms: Any) -> int:
        n = len(_list(atoms))
        return 20 + (18 * n if n <= OPEN_STATE else 0)

    def rules(rows: list[dict[str, Any]]) -> int:
        return (20 + sum(19 * lines(f"{r.get('id')} sets: {r.get('sets')} source: {r.get('source')}",
                                    f"example: {r.get('example')}") + 4 for r in rows)) if rows else 0

    step_state = state.get("judged_against")
    height = 24 + 19 * lines(line_text(state)) + (22 if step_state is not None else 0) + 30
    for c in _dicts(state.get("claims")):
        height += 42 + 19 * lines(c.get("text"), c.get("message"))
        own = c.get("judged_against")
        same = own is None or sorted(map(str, _list(own))) == sorted(map(str, _list(step_state)))
        height += 20 if same else own_state(own)
        height += rules(_dicts(c.get("rules")))
    unjudged = _dicts(state.get("unjudged"))
    if unjudged:
        height += 30
    for c in unjudged:
        height += 42 + 19 * lines(c.get("text"), "why: " + str(c.get("why") or ""))
        height += rules(_dicts(c.get("rules")))
    return max(120, min(cap, height))
