"""Outside judgments beside our verdict in the explorer: the dataset's first-mistake label and
imported judgments (a PRM's per-step scores, a judge's first mistake), for the whole trace and
for the selected step. Where they and we disagree both are shown and marked, so a reader can
judge; nothing here decides who is right.

The row builders are pure (tested without a page); `render_*` draw them with st.dataframe,
which shows cells as text, never as markdown or HTML: sources and labels come from files.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from metrics.agreement import compare, has_label, label_first_mistake
from metrics.outside_labels import judgment_first_mistake
from app_pages._text import md_escape

DISAGREE = "✗ disagrees"
AGREE = "✓ agrees"
_COMPARED = {"exact": AGREE, "earlier": DISAGREE + ": we flag earlier", "later": DISAGREE + ": we flag later",
             "we_flag_none": DISAGREE + ": we flag nothing", "label_says_none": DISAGREE + ": it says no mistake"}


def _step(value: int | None) -> str:
    return "no mistake" if value is None else f"step {value}"


def _sources(labels: dict[str, Any], record_source: str | None, judgments: list[dict[str, Any]],
             threshold: float) -> list[tuple[str, str, int | None]]:
    """(source, what it is, its first mistake) of every judgment of the trace, the dataset's label first."""
    out = []
    if has_label(labels):
        key = "mistake_index" if "mistake_index" in labels else "label"
        out.append((record_source or "reference labels", f"dataset label ({key})", label_first_mistake(labels)))
    for j in judgments:
        what = ("first mistake" if "first_mistake" in j
                else f"step scores (first below {threshold:g})")
        out.append((j["source"], what, judgment_first_mistake(j, threshold)))
    return out


def trace_rows(ours: int | None, labels: dict[str, Any], record_source: str | None,
               judgments: list[dict[str, Any]], threshold: float) -> list[dict[str, str]]:
    """One row per source: its first mistake beside ours, and whether they agree."""
    rows = [{"source": "Stepscope (replay)", "judgment": "our first invalid step", "first mistake": _step(ours),
             "against ours": ""}]
    for source, what, first in _sources(labels, record_source, judgments, threshold):
        rows.append({"source": source, "judgment": what, "first mistake": _step(first),
                     "against ours": _COMPARED[compare(first, ours)]})
    return rows


def _at_step(step: int, first: int | None) -> str:
    if first is None:
        return "no mistake in the trace"
    if first == step:
        return "this step is the first mistake"
    return f"before the first mistake (step {first})" if step < first else f"after the first mistake (step {first})"


def step_rows(step: int, labels: dict[str, Any], record_source: str | None, judgments: list[dict[str, Any]],
              threshold: float) -> list[dict[str, str]]:
    """One row per source: what it says of this step (its score, or where the step sits against
    its first mistake)."""
    rows = []
    if has_label(labels):
        rows.append({"source": record_source or "reference labels", "says": _at_step(step, label_first_mistake(labels))})
    ratings = labels.get("ratings")
    if isinstance(ratings, list) and step < len(ratings):
        rows.append({"source": record_source or "reference labels", "says": f"rating {ratings[step]}"})
    for j in judgments:
        if "step_scores" in j:
            scores = j["step_scores"]
            if step < len(scores):
                verdict = "wrong" if scores[step] < threshold else "right"
                says = f"score {scores[step]:g}: {verdict} (threshold {threshold:g})"
            else:
                says = f"no score for this step (it scored {len(scores)} steps)"
            rows.append({"source": j["source"], "says": says})
        if "first_mistake" in j:
            rows.append({"source": j["source"], "says": _at_step(step, j["first_mistake"])})
    return rows


def render_trace_summary(ours: int | None, labels: dict[str, Any], record_source: str | None,
                         judgments: list[dict[str, Any]], threshold: float) -> None:
    """The trace's first mistake by every source beside ours (nothing when no source judged it)."""
    rows = trace_rows(ours, labels, record_source, judgments, threshold)
    if len(rows) == 1:
        return
    disagree = [r for r in rows if r["against ours"].startswith(DISAGREE)]
    with st.container(border=True):
        st.markdown("**Outside judgments beside ours**")
        if disagree:
            where = "; ".join(f"{md_escape(r['source'])} says {r['first mistake']}" for r in disagree[:5])
            st.warning(f"{len(disagree)} of {len(rows) - 1} outside judgment(s) put the first mistake elsewhere "
                       f"than our replay ({rows[0]['first mistake']}): {where}"
                       f"{' …' if len(disagree) > 5 else ''}. Both are shown; the reader judges.",
                       icon=":material/compare_arrows:")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="outside_trace")
        st.caption(f"a step score below {threshold:g} counts as the scorer saying the step is wrong · "
                   "no replay reads these judgments")


def render_step(step: int, labels: dict[str, Any], record_source: str | None, judgments: list[dict[str, Any]],
                threshold: float) -> None:
    """What every outside source says of the selected step."""
    rows = step_rows(step, labels, record_source, judgments, threshold)
    if rows:
        st.markdown("**Outside judgments of this step**")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="outside_step")
