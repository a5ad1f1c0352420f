"""Length generalisation: answer accuracy and the first invalid step against the problem's
length, one line per model, for the domains whose problems have a length (last_letter,
multiplication). Numbers come from SQL aggregates (db/queries.length_curves, cached per data
revision); the page only draws them."""

from __future__ import annotations

import html

import pandas as pd
import plotly.express as px
import streamlit as st

from db.queries import data_revision, length_curves, length_domains
from app_pages._common import engine

eng = engine()
rev = data_revision(eng)
qp = st.query_params


@st.cache_data(show_spinner=False, max_entries=4)
def _domains(rev: tuple) -> list[tuple[str, str]]:
    return length_domains(eng)


@st.cache_data(show_spinner=False, max_entries=16)
def _curves(domain: str, rev: tuple) -> list[dict]:
    return length_curves(eng, domain)


st.title("Length generalisation")
st.caption("Does the reasoning hold as problems get longer? Answer accuracy and where the first invalid step "
           "falls, against the problem's length, per model (Wei et al. 2022's last-letter concatenation; "
           "Dziri et al. 2023's multi-digit multiplication).")
domains = _domains(rev)
if not domains:
    st.info("No stored records of a domain whose problems have a length (last_letter, multiplication) yet. "
            "Write problems with `python cli.py generate last_letter --lengths 2..12 --per-length 20`, run a model "
            "on them (Live capture, or `cli.py capture`), and upload or audit the traces.")
    st.stop()

names = [d for d, _ in domains]
wanted = qp.get("domain")
domain = st.selectbox("Domain", names, index=names.index(wanted) if wanted in names else 0, key="lengths_domain")
if qp.get("domain") != domain:
    qp["domain"] = domain
label = dict(domains)[domain]
rows = _curves(domain, rev)
if not rows:
    st.info(f"No {domain} record has a problem whose length can be read.")
    st.stop()

data = pd.DataFrame(rows)
# Model names are the uploader's text: escaped, so plotly's label markup (<a>, <b>) stays inert.
data["model"] = data["model"].map(html.escape)
lengths = sorted(data["length"].unique())
st.caption(f"{int(data['records'].sum()):,} record(s), lengths {lengths[0]}–{lengths[-1]} ({label}).")

left, right = st.columns(2)
with left:
    st.subheader("Answer accuracy")
    fig = px.line(data, x="length", y="accuracy", color="model", markers=True, hover_data=["records", "correct"],
                  labels={"length": f"length ({label})", "accuracy": "answers right", "model": ""})
    fig.update_yaxes(range=[-0.02, 1.02], tickformat=".0%")
    fig.update_xaxes(dtick=1)
    fig.update_layout(height=400, legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    st.plotly_chart(fig, width="stretch", key="lengths_accuracy")
with right:
    st.subheader("First invalid step")
    relative = st.toggle("as a fraction of the trace", key="lengths_relative",
                         help="Off: the step's index (0 = the first step). On: where it falls in its trace.")
    column = "first_invalid_rel_mean" if relative else "first_invalid_mean"
    points = data.dropna(subset=[column])
    if points.empty:
        st.info("No trace of this domain has an invalid step.")
    else:
        fig = px.line(points, x="length", y=column, color="model", markers=True,
                      hover_data=["with_invalid_step", "records"],
                      labels={"length": f"length ({label})", "model": "",
                              column: "mean position in the trace" if relative else "mean first invalid step"})
        if relative:
            fig.update_yaxes(range=[-0.02, 1.02], tickformat=".0%")
        fig.update_xaxes(dtick=1)
        fig.update_layout(height=400, legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
        st.plotly_chart(fig, width="stretch", key="lengths_first_invalid")

st.subheader("Per model and length")
table = pd.DataFrame(rows)[["model", "length", "records", "correct", "wrong", "undecided", "accuracy",
                            "invalid_traces", "first_invalid_mean", "first_invalid_rel_mean", "steps_mean"]]
st.dataframe(table, hide_index=True, width="stretch", column_config={
    "accuracy": st.column_config.NumberColumn("accuracy", format="percent"),
    "invalid_traces": st.column_config.NumberColumn("traces with an invalid step"),
    "first_invalid_mean": st.column_config.NumberColumn("mean first invalid step", format="%.1f"),
    "first_invalid_rel_mean": st.column_config.NumberColumn("… as a fraction", format="percent"),
    "steps_mean": st.column_config.NumberColumn("mean steps", format="%.1f"),
})
