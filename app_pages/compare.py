"""Two traces side by side, step-aligned (`?a=<share id>&b=<share id>`): two samples of one
problem, or one prompt under two models. Each side's verdict and first invalid step on top, the
step where they part marked, every step's text shown as text (a table cell, never rendered)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.step_align import align_steps, parting_row
from core.trace_kind import SUMMARY_BANNER, is_summary, verdict_is_summary
from core.verdicts import trace_label
from db.queries import data_revision, steps_of, trace_by_share_id
from app_pages._common import engine
from app_pages._text import md_escape
from app_pages._view import verdict_label

STEP_CAP = 3000  # steps read per side: the alignment is quadratic in the worst case

eng = engine()
rev = data_revision(eng)


@st.cache_data(show_spinner=False, max_entries=16)
def _side(share_id: str, rev: tuple) -> tuple[dict | None, list[dict]]:
    """A trace and its first STEP_CAP steps (text, status, rule)."""
    rec = trace_by_share_id(eng, share_id)
    return rec, ([] if rec is None else steps_of(eng, rec["pk"], 0, STEP_CAP))


def _first_invalid(steps: list[dict]) -> int | None:
    return next((s["idx"] for s in steps if s["status"] == "invalid"), None)


def _header(col, name: str, rec: dict, steps: list[dict]) -> None:
    verdict = rec["verdict"] or {}
    with col:
        st.markdown(f"**{name}**: {md_escape(rec['record_id'] or rec['share_id'])} · "
                    f"{md_escape(rec['model'] or 'model unknown')}")
        st.page_link("app_pages/explorer.py", label="open in the explorer", icon=":material/account_tree:",
                     query_params={"trace": rec["share_id"]})
        c1, c2, c3 = st.columns(3)
        c1.metric("Answer", verdict_label(verdict.get("answer_correct"), "answer"))
        check = rec.get("trace_check") or verdict.get("trace_check")
        c2.metric("Trace", trace_label(check, verdict.get("trace_valid")))
        first = _first_invalid(steps)
        c3.metric("First invalid step", "none" if first is None else str(first))
        if is_summary(rec.get("meta")) or verdict_is_summary(verdict):
            st.warning(SUMMARY_BANNER, icon=":material/summarize:")


st.title("Two traces side by side")
a_id, b_id = st.query_params.get("a", ""), st.query_params.get("b", "")
if not a_id or not b_id:
    st.info("Pick two samples on a problem's page (Problems), or open `?a=<share id>&b=<share id>`.")
    st.stop()
(rec_a, steps_a), (rec_b, steps_b) = _side(a_id, rev), _side(b_id, rev)
if rec_a is None or rec_b is None:
    st.error("No trace has " + ("either link" if rec_a is rec_b else f"the link {'a' if rec_a is None else 'b'}")
             + ". It may have been deleted, or the link is incomplete.")
    st.stop()
if rec_a.get("problem_hash") != rec_b.get("problem_hash"):
    st.warning("These traces answer different problems: the alignment pairs equal steps only.")
left, right = st.columns(2)
_header(left, "A", rec_a, steps_a)
_header(right, "B", rec_b, steps_b)

first_a, first_b = _first_invalid(steps_a), _first_invalid(steps_b)


def _idx(steps: list[dict], pos: int | None) -> int | None:
    """The stored step index at a position of the alignment."""
    return None if pos is None else steps[pos]["idx"]


rows = align_steps([s["text"] for s in steps_a], [s["text"] for s in steps_b])
part = parting_row(rows)
if part is None:
    st.success("The two traces take the same steps throughout.")
else:
    where = rows[part]
    at_a, at_b = _idx(steps_a, where.a), _idx(steps_b, where.b)
    st.markdown(f"**They part at** step {'–' if at_a is None else at_a} of A and step "
                f"{'–' if at_b is None else at_b} of B, after {part} shared step(s).")
if max(len(steps_a), len(steps_b)) >= STEP_CAP:
    st.caption(f"the first {STEP_CAP:,} steps of each trace are aligned")



def _mark(k: int, row) -> str:
    """What the row is: where they part, a first invalid step, shared or different."""
    marks = []
    if k == part:
        marks.append("they part here")
    if row.a is not None and _idx(steps_a, row.a) == first_a:
        marks.append("A's first invalid")
    if row.b is not None and _idx(steps_b, row.b) == first_b:
        marks.append("B's first invalid")
    return " · ".join(marks) or ("same" if row.same else "")


table = pd.DataFrame([{
    "": _mark(k, row),
    "A step": _idx(steps_a, row.a), "A status": None if row.a is None else steps_a[row.a]["status"] or "unchecked",
    "A text": "" if row.a is None else steps_a[row.a]["text"][:2000],
    "B step": _idx(steps_b, row.b), "B status": None if row.b is None else steps_b[row.b]["status"] or "unchecked",
    "B text": "" if row.b is None else steps_b[row.b]["text"][:2000],
} for k, row in enumerate(rows)])
st.dataframe(table, hide_index=True, width="stretch", height=600,
             column_config={"A text": st.column_config.TextColumn(width="large"),
                            "B text": st.column_config.TextColumn(width="large"),
                            "A step": st.column_config.NumberColumn(format="%d"),
                            "B step": st.column_config.NumberColumn(format="%d")})
st.caption("rows pair steps whose text is the same up to case and spacing; between them steps pair in order, "
           "an empty side where the other trace has more")
