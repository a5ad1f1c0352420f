"""Stored uploads: what each source (an uploaded file, a CLI input, a capture) left, and removing
it again, whole or record by record. Owners only (app_pages/_access.py); every delete is confirmed."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages._access import can_write
from app_pages._common import engine
from db.sources import delete_pks, delete_source, list_sources, source_records

st.title("Stored uploads")
if not can_write():
    # Not in a reader's navigation; this guards a session whose rights changed.
    st.warning("Deleting needs the owner's rights on this server; this session is read-only.")
    st.stop()

done = st.session_state.pop("_stored_done", None)
if done:
    st.success(done)

eng = engine()
sources = list_sources(eng)
if not sources:
    st.info("Nothing stored.")
    st.stop()


def _name(source: str | None) -> str:
    return "(no source)" if source is None else source


st.caption("Each upload is stored under its file name (`cli.py audit`: the input path as given). Deleting a "
           "source removes its records with their steps, verdicts and comments; the same in the terminal: "
           "`cli.py delete --source NAME`.")
table = pd.DataFrame([{"source": _name(s.source), "records": s.records, "unreadable": s.malformed,
                       "last stored": str(s.last)[:19]} for s in sources])
picked = st.dataframe(table, hide_index=True, width="stretch", on_select="rerun",
                      selection_mode="multi-row", key="sources_table")
chosen = [sources[i] for i in (picked.selection.rows if picked and picked.selection else [])]
if chosen:
    total = sum(s.records for s in chosen)
    names = ", ".join(_name(s.source) for s in chosen)
    sure = st.checkbox(f"Yes, delete {total:,} record(s) from {names}", key="confirm_sources")
    if st.button(f"Delete {len(chosen)} source(s)", type="primary", disabled=not sure, key="delete_sources"):
        n = sum(delete_source(eng, s.source) for s in chosen)
        st.session_state["_stored_done"] = f"Deleted {n:,} record(s) from {names}."
        st.session_state.pop("sources_table", None)
        st.rerun()
else:
    st.caption("Select sources to delete them whole.")

st.subheader("Records of one source")
source = st.selectbox("Source", [s.source for s in sources], format_func=_name, key="stored_source")
records = pd.DataFrame(source_records(eng, source))
shown = records.drop(columns=["pk"]).rename(columns={"line_no": "line", "record_id": "id"})
shown["answer_correct"] = shown["answer_correct"].map({True: "yes", False: "no"}).fillna("undecided")
rows = st.dataframe(shown.astype(str).replace({"None": ""}), hide_index=True, width="stretch",
                    on_select="rerun", selection_mode="multi-row", key="source_records_table")
selected = [int(records.iloc[i]["pk"]) for i in (rows.selection.rows if rows and rows.selection else [])]
if selected:
    sure = st.checkbox(f"Yes, delete the {len(selected):,} selected record(s)", key="confirm_records")
    if st.button("Delete selected records", disabled=not sure, key="delete_records"):
        n = delete_pks(eng, selected)
        st.session_state["_stored_done"] = f"Deleted {n:,} record(s) from {_name(source)}."
        st.session_state.pop("source_records_table", None)
        st.rerun()
elif len(records) == 1000:
    st.caption("The first 1,000 records are listed; delete the whole source above to remove the rest.")
