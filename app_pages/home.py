"""Home: what Stepscope is, what is stored, how to start."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.limits import current_limits
from core.trace_kind import marked_label
from core.verdicts import trace_label
from db.queries import corpus_counts, gap_counts, recent_traces
from db.store import demo_pending, demo_pks, remove_demo
from app_pages._access import can_write
from app_pages._common import engine, go_to
from app_pages._table import dashed
from validators.registry import list_domains
from trace_parsers.registry import list_formats

st.title("Stepscope")
st.caption("Audit the reasoning traces of large reasoning models, step by step.")
st.markdown(
    "Reasoning models and search-trained transformers write long traces before their answers. "
    "Stepscope parses each trace into steps, **replays** them against sound reference semantics "
    "(A* search, STRIPS planning, Countdown arithmetic, puzzle rules), marks every invalid step with "
    "the rule it breaks, and shows it next to whether the final answer is right and whether the "
    "answer actually follows from the trace."
)

eng = engine()
counts = corpus_counts(eng)

demo = demo_pks(eng) if demo_pending(eng) else []
if demo:
    st.info(f"{len(demo):,} of these records are **demo data** (bundled with Stepscope, marked \"Demo record\" in "
            "the explorer). They leave the database, and every figure, as soon as your own data arrives.",
            icon=":material/science:")
    if can_write() and st.button("Remove demo data now", key="remove_demo"):
        removed = remove_demo(eng)
        st.success(f"{removed:,} demo records removed.")
        st.rerun()

c1, c2, c3, c4 = st.columns(4)
c1.metric("Traces stored", f"{counts.records:,}")
c2.metric("Answers correct", f"{counts.answer.get('yes', 0):,}")
c3.metric("Traces with invalid steps", f"{counts.trace.get('no', 0):,}")
c4.metric("Unreadable inputs", f"{counts.malformed:,}")

if counts.records:
    left, right = st.columns(2)
    with left:
        st.subheader("By domain")
        st.dataframe(pd.DataFrame(sorted(counts.by_domain.items()), columns=["domain", "traces"]),
                     hide_index=True, width="stretch")
    with right:
        st.subheader("By model")
        st.dataframe(pd.DataFrame(sorted(counts.by_model.items()), columns=["model", "traces"]),
                     hide_index=True, width="stretch")
    gaps = gap_counts(eng)
    if gaps:
        st.subheader("Faithfulness gaps")
        st.dataframe(pd.DataFrame(sorted(gaps.items()), columns=["gap", "traces"]), hide_index=True)
    st.subheader("Recently stored")
    recent = pd.DataFrame(recent_traces(eng, 20))
    recent["answer_correct"] = recent["answer_correct"].map({True: "yes", False: "no"}).fillna("undecided")
    recent["trace_valid"] = [marked_label(trace_label(c, v), bool(k)) for c, v, k in
                             zip(recent["trace_check"], recent["trace_valid"].astype(object), recent["trace_summary"])]
    picked = st.dataframe(dashed(recent[["record_id", "domain", "model", "n_steps", "answer_correct", "trace_valid",
                                         "n_invalid", "status"]]), hide_index=True, width="stretch",
                          on_select="rerun", selection_mode="single-row", key="recent_table")
    st.caption("select a row to open the trace")
    if picked and picked.selection and picked.selection.rows:
        go_to("explorer", trace=str(recent.iloc[picked.selection.rows[0]]["share_id"]))
else:
    st.info("Nothing stored yet.")

st.subheader("How to start")
st.markdown(
    "* **Audit a file from the command line:** "
    "`python cli.py audit traces.jsonl --out verdicts.jsonl` (one JSON record per line; "
    "see the record format in the README).\n"
    "* **Point at a shared database:** set `STEPSCOPE_DATABASE_URL` "
    "(e.g. `postgresql://user@host/stepscope`) before starting the app or the CLI.\n"
    + ("" if not can_write() else "* **Re-run old verdicts** after upgrading Stepscope: `python cli.py reaudit`.\n")
)
with st.expander("Domains and formats this installation knows"):
    st.markdown("**Domains** (replay): " + (", ".join(f"`{d.validator_id}`" for d in list_domains()) or "none yet"))
    st.markdown("**Formats** (parsing): " + ", ".join(f"`{f.name}`" for f in list_formats()))
    st.markdown("**Limits**: " + "; ".join(f"{k}: {v}" for k, v in current_limits().human().items()))
