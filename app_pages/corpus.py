"""Corpus: filter the stored traces and see where reasoning breaks, per model. All filters live
in the URL; all numbers come from SQL aggregates (cached per data revision)."""

from __future__ import annotations

from core.trace_kind import SUMMARY_BANNER, SUMMARY_LABEL, marked_label
from core.verdicts import trace_label

import pandas as pd
import plotly.express as px
import streamlit as st

from records_io.report import to_csv, to_html, to_json, to_parquet
from db.search import SYNTAX as SEARCH_SYNTAX, parse_query
from db.queries import (first_hits, ANSWER_CHOICES, POS_BINS, TRACE_CHOICES, CorpusFilter, corpus_matrix, count_traces,
                        comments_for, data_revision, filter_options, filtered_pks, first_invalid_histogram,
                        invalid_by_rule, length_sample, list_traces, meta_options, verdict_rows)
from db.comment_labels import labels_offered
from db.trace_kinds import summary_trace_count
from db.agreement import label_agreement, score_agreement
from db.outside import judgments_revision
from db.summary import flat_rows, summary
from metrics.agreement import KINDS
from metrics.score_agreement import DEFAULT_THRESHOLD, SCORE_COLUMNS
from app_pages._common import engine, go_to
from app_pages._table import dashed

PAGE_SIZE = 100
EXPORT_CAP = 50_000

eng = engine()
rev = data_revision(eng)
qp = st.query_params


@st.cache_data(show_spinner=False, max_entries=64)
def _cached(name: str, f: CorpusFilter, rev: tuple, *args: int) -> object:
    fn = {"matrix": corpus_matrix, "hist": first_invalid_histogram, "rules": invalid_by_rule,
          "sample": length_sample, "count": count_traces, "list": list_traces}[name]
    return fn(eng, f, *args)


@st.cache_data(show_spinner=False, max_entries=4)
def _options(rev: tuple) -> dict[str, list[str]]:
    return filter_options(eng)


@st.cache_data(show_spinner=False, max_entries=16)
def _meta(rev: tuple, key: str | None = None) -> list:
    """The meta keys present, or one key's (value, records): a scan of every record's meta."""
    return meta_options(eng, key)


@st.cache_data(show_spinner=False, max_entries=4)
def _summary(rev: tuple) -> list[dict]:
    return flat_rows(summary(eng))


@st.cache_data(show_spinner=False, max_entries=4)
def _summaries(rev: tuple) -> int:
    return summary_trace_count(eng)


@st.cache_data(show_spinner=False, max_entries=4)
def _agreement(rev: tuple, judged: tuple) -> tuple[list[dict], list[dict]]:
    """`cli.py agreement`'s two tables (judged: the judgments' revision, which rev does not follow)."""
    return label_agreement(eng), score_agreement(eng, DEFAULT_THRESHOLD)


st.title("Corpus")
opts = _options(rev)
FILTER_KEYS = ("model", "domain", "answer", "trace", "gap", "rule", "label", "meta_key", "meta_value", "pos", "q", "page")
# Every combination of answer and trace verdict gets its own colour: green only for a right answer
# with a valid trace, red for a wrong answer with an invalid one, greys where nothing was checked.
CELL_COLOURS = {
    "answer yes / trace valid": "#2ca02c", "answer yes / trace invalid": "#ff7f0e",
    "answer yes / trace no error found": "#bcdfa8", "answer yes / trace not checked": "#98df8a",
    "answer no / trace valid": "#9467bd", "answer no / trace invalid": "#d62728",
    "answer no / trace no error found": "#f7c4a6", "answer no / trace not checked": "#f4a6a6",
    "answer undecided / trace valid": "#c5b0d5", "answer undecided / trace invalid": "#8c564b",
    "answer undecided / trace no error found": "#dcdcdc", "answer undecided / trace not checked": "#c7c7c7",
}
if st.session_state.pop("_corpus_clear", False):
    st.session_state.pop("_corpus_url", None)
    qp.clear()
elif st.session_state.get("_corpus_url") is not None and (
        not any(k in qp for k in FILTER_KEYS) or qp.get("trace") not in (None, *TRACE_CHOICES)):
    # Back from a trace, or the sidebar entry: the URL has lost the filters, or holds the trace link
    # that Streamlit wrote into the corpus URL while switching pages. The session's last corpus
    # view is put back, URL included.
    qp.clear()
    for key, value in st.session_state["_corpus_url"].items():
        qp[key] = value


def _param_list(key: str, allowed: list[str]) -> list[str]:
    return [v for v in qp.get_all(key) if v in allowed]


def _param_choice(key: str, allowed) -> str | None:
    value = qp.get(key)
    return value if value in allowed else None


def _spans_decades(steps: pd.Series) -> bool:
    """A log axis only when lengths differ tenfold: on a narrow range plotly labels minor ticks of
    several decades around a handful of points."""
    low = steps[steps > 0]
    return not low.empty and low.max() >= 10 * low.min()


def _meta_filter() -> tuple[str | None, str | None]:
    """A key of the records' `meta` (from the keys present), then one of its values."""
    keys = _meta(rev)
    key_opts = [None, *keys]
    key = st.selectbox("Meta key", key_opts, index=key_opts.index(_param_choice("meta_key", keys)),
                       format_func=lambda v: "any" if v is None else v,
                       help="any key of the records' meta (temperature, seed, run ...)")
    if key is None:
        return None, None
    counts = dict(_meta(rev, key))
    asked = qp.get("meta_value") if qp.get("meta_key") == key else None  # a value of another key is dropped
    value_opts = [None, *counts] + ([asked] if asked not in (None, *counts) else [])
    value = st.selectbox(f"Value of {key}", value_opts, index=value_opts.index(asked),
                         format_func=lambda v: "any (the key is present)" if v is None
                         else f"{v} ({counts[v]:,})" if v in counts else v)
    return key, value


with st.sidebar:
    st.header("Filters")
    models = st.multiselect("Model", opts["models"], default=_param_list("model", opts["models"]))
    domains = st.multiselect("Domain", opts["domains"], default=_param_list("domain", opts["domains"]))
    answer_opts = [None, *ANSWER_CHOICES]
    answer = st.selectbox("Answer", answer_opts, index=answer_opts.index(_param_choice("answer", ANSWER_CHOICES)),
                          format_func=lambda v: "any" if v is None else v)
    trace_opts = [None, *TRACE_CHOICES]
    trace = st.selectbox("Trace", trace_opts, index=trace_opts.index(_param_choice("trace", TRACE_CHOICES)),
                         format_func=lambda v: "any" if v is None else v)
    gap_opts = [None, *opts["gaps"]]
    gap = st.selectbox("Gap", gap_opts, index=gap_opts.index(_param_choice("gap", opts["gaps"])),
                       format_func=lambda v: "any" if v is None else v)
    rule_opts = [None, *opts["rules"]]
    rule = st.selectbox("Invalid step rule", rule_opts, index=rule_opts.index(_param_choice("rule", opts["rules"])),
                        format_func=lambda v: "any" if v is None else v)
    label_opts = [None, *labels_offered(eng)]  # two small reads, not cached: an owner's new set shows at once
    label = st.selectbox("Comment label", label_opts, index=label_opts.index(_param_choice("label", label_opts[1:])),
                         format_func=lambda v: "any" if v is None else v,
                         help="traces with a comment carrying this label (the team's set, from the explorer)")
    meta_key, meta_value = _meta_filter()
    try:
        pos = float(qp["pos"]) if "pos" in qp and 0 <= float(qp["pos"]) < 1 else None
    except ValueError:
        pos = None
    if pos is not None and not st.checkbox(f"first invalid step at {pos:.0%}–{pos + 1 / POS_BINS:.0%} of the trace",
                                           value=True, key="pos_on"):
        pos = None
    q = st.text_input("Text in any step, or a record id", value=qp.get("q", ""), help=SEARCH_SYNTAX)
    st.caption(SEARCH_SYNTAX)
    search_error = parse_query(q).error
    if search_error:
        st.warning(f"Search: {search_error}. No trace is listed for it.")
    if st.button("Clear filters", key="corpus_clear"):
        st.session_state["_corpus_clear"] = True
        st.rerun()

flt = CorpusFilter(models=tuple(models), domains=tuple(domains), answer=answer, trace=trace, gap=gap, q=q.strip(),
                   rule=rule, pos=pos, meta_key=meta_key, meta_value=meta_value, label=label)

wanted = {"model": list(flt.models), "domain": list(flt.domains), "answer": flt.answer, "trace": flt.trace,
          "gap": flt.gap, "rule": flt.rule, "label": flt.label, "meta_key": flt.meta_key, "meta_value": flt.meta_value,
          "pos": None if flt.pos is None else f"{flt.pos:g}", "q": flt.q or None}
current = {k: (qp.get_all(k) if isinstance(v, list) else qp.get(k)) for k, v in wanted.items()}
if current != {k: (v if v is not None else None) for k, v in wanted.items()}:
    keep = {k: v for k, v in qp.to_dict().items() if k not in wanted and k in FILTER_KEYS}
    if "page" in keep and current != {k: None if not v else v for k, v in current.items()}:
        keep.pop("page")  # other filters: back to page 1
    qp.clear()
    qp.update(keep)
    for key, value in wanted.items():
        if value:
            qp[key] = value

total = _cached("count", flt, rev)
st.caption(f"{total:,} trace(s) match")
if not total:
    st.info("No stored trace matches these filters.")
    st.stop()

left, right = st.columns(2)
with left:
    st.subheader("Answer × trace, per model")
    matrix = pd.DataFrame(_cached("matrix", flt, rev))
    matrix["cell"] = "answer " + matrix["answer"] + " / trace " + matrix["trace"]
    share = st.toggle("share of each model's traces", key="matrix_share",
                      help="Models with many more traces (or '(unknown)') no longer flatten the others.")
    matrix["checked"] = matrix["trace"].map(lambda t: "trace not checked" if t == "not checked" else "trace checked")
    fig = px.bar(matrix, x="model", y="n", color="cell", barmode="stack", color_discrete_map=CELL_COLOURS,
                 pattern_shape="checked", pattern_shape_map={"trace checked": "", "trace not checked": "/"},
                 category_orders={"cell": list(CELL_COLOURS)}, labels={"n": "traces", "cell": "", "model": ""})
    fig.for_each_trace(lambda t: t.update(name=t.name.split(",")[0]))  # the hatching already says "not checked"
    fig.update_layout(legend_title_text="")
    if share:
        fig.update_layout(barnorm="percent", yaxis_title="% of the model's traces")
    # Legend above the plot, model names whole (tilted, never cut).
    fig.update_layout(height=420, margin={"t": 80, "b": 10},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 11}})
    fig.update_xaxes(tickangle=-30, automargin=True)
    ev = st.plotly_chart(fig, width="stretch", on_select="rerun", key="matrix_chart")
    points = (ev or {}).get("selection", {}).get("points", []) if isinstance(ev, dict) else \
        (ev.selection.points if ev and hasattr(ev, "selection") else [])
    if points:
        model = points[0].get("x")
        if model and list(flt.models) != [model]:
            qp["model"] = [model]
            st.rerun()
with right:
    st.subheader("Where the first invalid step falls")
    hist = _cached("hist", flt, rev)
    if hist:
        frame = pd.DataFrame(hist, columns=["start", "traces"])
        frame["position"] = frame["start"].map(lambda p: f"{p:.0%}–{p + 1 / POS_BINS:.0%}")
        fig = px.bar(frame, x="position", y="traces", custom_data=["start"],
                     labels={"position": "relative position in the trace"})
        fig.update_layout(height=340, margin={"t": 10, "b": 10})
        ev = st.plotly_chart(fig, width="stretch", on_select="rerun", key="hist_chart")
        pts = ev.selection.points if ev and hasattr(ev, "selection") else []
        if pts and pts[0].get("customdata"):
            start = float(pts[0]["customdata"][0])
            if flt.pos is None or abs(flt.pos - start) > 1e-9:
                qp["pos"] = f"{start:g}"
                st.session_state.pop("pos_on", None)
                st.rerun()
        st.caption("click a bar to list the traces that first go wrong there")
    else:
        st.caption("no invalid steps in these traces")

left, right = st.columns(2)
with left:
    st.subheader("Invalid steps by rule")
    rules = _cached("rules", flt, rev)
    if rules:
        frame = pd.DataFrame(rules, columns=["rule", "steps"])
        fig = px.bar(frame, x="steps", y="rule", orientation="h")
        fig.update_layout(height=max(240, 26 * len(frame)), margin={"t": 10, "b": 10},
                          yaxis={"categoryorder": "total ascending"})
        ev = st.plotly_chart(fig, width="stretch", on_select="rerun", key="rules_chart")
        pts = ev.selection.points if ev and hasattr(ev, "selection") else []
        if pts and pts[0].get("y") and pts[0]["y"] != flt.rule:
            qp["rule"] = pts[0]["y"]
            st.rerun()
        st.caption("click a bar to list the traces with that rule broken")
    else:
        st.caption("no invalid steps in these traces")
with right:
    st.subheader("Trace length vs answer")
    sample = pd.DataFrame(_cached("sample", flt, rev))
    if not sample.empty:
        sample["answer"] = sample["answer_correct"].map({True: "correct", False: "wrong"}).fillna("undecided")
        fig = px.strip(sample, x="answer", y="n_steps", color="answer", hover_data=["record_id", "model"],
                       custom_data=["share_id"], log_y=_spans_decades(sample["n_steps"]),
                       color_discrete_map={"correct": "#2ca02c", "wrong": "#d62728", "undecided": "#999999"},
                       labels={"n_steps": "steps"})
        fig.update_layout(height=340, margin={"t": 10, "b": 10}, showlegend=False)
        ev = st.plotly_chart(fig, width="stretch", on_select="rerun", key="length_chart")
        pts = ev.selection.points if ev and hasattr(ev, "selection") else []
        if pts and pts[0].get("customdata"):
            go_to("explorer", trace=str(pts[0]["customdata"][0]))
        if len(sample) >= 3000:
            st.caption("a random sample of 3,000 traces; click a point to open it")
        else:
            st.caption("click a point to open the trace")

st.subheader("Model × domain")
table = pd.DataFrame(_summary(rev))
rates = ("answer_correct_rate", "unknown_rate", "trace_valid_rate")
picked_cell = st.dataframe(table, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                           key="summary_table",
                           column_config={**{c: st.column_config.NumberColumn(format="%.3f") for c in rates},
                                          "first_invalid_median": st.column_config.NumberColumn(format="%.1f")})
if picked_cell and picked_cell.selection and picked_cell.selection.rows:
    cell = table.iloc[picked_cell.selection.rows[0]]
    if (list(flt.models), list(flt.domains)) != ([cell["model"]], [cell["domain"]]):
        qp["model"], qp["domain"] = [cell["model"]], [cell["domain"]]
        qp.pop("page", None)
        st.rerun()
st.caption("Every stored trace, whatever the filters (the same table: `python cli.py summary`): answer rates over "
           "all records, trace valid rate over checked traces, median first invalid step, gaps by kind. Click a "
           "row to filter by it.")
n_summaries = _summaries(rev)
if n_summaries:
    st.info(f"{n_summaries:,} stored trace(s) are a {SUMMARY_LABEL}, marked so in the traces table: "
            f"{SUMMARY_BANNER} Their trace verdicts judge the summary's claims (filter on them: meta key "
            "`trace_kind`, value `summary`).", icon=":material/summarize:")
st.page_link("app_pages/problems.py", label="Compare the samples of each problem: majority vote vs verified@k",
             icon=":material/compare:")

labels_table, scores_table = _agreement(rev, judgments_revision(eng))
if labels_table or scores_table:
    st.subheader("Agreement with outside labels")
    if labels_table:
        columns = ["source", "domain", "traces", *KINDS, "accuracy", "acc_mistake", "acc_no_mistake",
                   "processbench_f1"]
        st.dataframe(pd.DataFrame(labels_table)[columns], hide_index=True, width="stretch", key="label_agreement")
        st.caption("our first invalid step against each source's first mistake (a dataset's label, an imported "
                   "judge's): exact, we flag earlier / later, we flag none, the label says none; accuracy on "
                   "traces with and without a mistake and their harmonic mean (ProcessBench's F1). Every stored "
                   "trace, whatever the filters (the same table: `python cli.py agreement`).")
    if scores_table:
        st.dataframe(pd.DataFrame(scores_table)[[c for c in SCORE_COLUMNS if c != "threshold"]], hide_index=True,
                     width="stretch", key="score_agreement")
        st.caption(f"imported per-step scores against our step verdicts; a score below {DEFAULT_THRESHOLD:g} is the "
                   "scorer saying the step is wrong (`python cli.py agreement --threshold T` for another): where its "
                   "first low score falls against our first invalid step, and step by step its precision and recall "
                   "against our invalid steps.")

st.subheader("Traces")
pages = max(1, -(-total // PAGE_SIZE))
try:
    asked_page = min(max(1, int(qp.get("page", "1"))), pages)
except ValueError:
    asked_page = 1
page = st.number_input("page", 1, pages, asked_page) if pages > 1 else 1
if page > 1:
    qp["page"] = str(page)
elif "page" in qp:
    del qp["page"]
st.session_state["_corpus_url"] = {k: (qp.get_all(k) if k in ("model", "domain") else qp.get(k)) for k in FILTER_KEYS
                                   if k in qp}
rows = pd.DataFrame(_cached("list", flt, rev, PAGE_SIZE, (page - 1) * PAGE_SIZE))
rows["answer"] = rows["answer_correct"].map({True: "correct", False: "wrong"}).fillna("undecided")
rows["trace"] = [marked_label(trace_label(c, v), bool(k)) for c, v, k in
                 zip(rows["trace_check"], rows["trace_valid"].astype(object), rows.get("trace_summary", [False] * len(rows)))]
columns = ["record_id", "domain", "model", "n_steps", "answer", "trace", "first_invalid_step", "n_invalid",
           "answer_error_kind"]
if flt.q and not rows.empty:
    hits = first_hits(eng, [int(pk) for pk in rows["pk"]], flt.q)
    rows["match"] = [f"step {hits[pk]['step']}: {hits[pk]['snippet']}" if pk in hits else
                     ("record id" if rid == flt.q else "") for pk, rid in zip(rows["pk"], rows["record_id"])]
    columns.insert(1, "match")
shown = rows[columns]
picked = st.dataframe(dashed(shown), hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                      key=f"corpus_table_{page}")
if picked and picked.selection and picked.selection.rows:
    row = rows.iloc[picked.selection.rows[0]]
    target = {"trace": str(row["share_id"])}
    if pd.notna(row["first_invalid_step"]):
        target["step"] = str(int(row["first_invalid_step"]))
    if flt.q:
        target["q"] = flt.q  # the explorer highlights the same search
    go_to("explorer", **target)


with st.expander(f"Export the {min(total, EXPORT_CAP):,} trace(s) of this view"):
    st.caption("The verdicts of every trace matching the filters above"
               + (f" (the first {EXPORT_CAP:,})" if total > EXPORT_CAP else "")
               + ". The HTML report links each record and invalid step back here. The same from the "
               "command line: `python cli.py export --format csv|json|html|parquet` with the same filters.")
    with_comments = st.checkbox("Include reviewer comments", value=True, key="export_comments")
    base = (st.context.url or "").split("?", 1)[0].rstrip("/").rsplit("/", 1)[0]

    def _export(kind: str, flt: CorpusFilter = flt, with_comments: bool = with_comments, base: str = base):
        """Built only when its button is clicked (Streamlit runs the callable then)."""
        def build() -> bytes | str:
            pks = filtered_pks(eng, flt, EXPORT_CAP)
            rows = verdict_rows(eng, pks=pks)
            comments = comments_for(eng, pks) if with_comments else None
            return {"csv": lambda: to_csv(rows, comments), "json": lambda: to_json(rows, comments),
                    "parquet": lambda: to_parquet(rows, comments),
                    "html": lambda: to_html(rows, comments, title="Stepscope corpus export", base_url=base)}[kind]()
        return build

    e1, e2, e3, e4 = st.columns(4)
    e1.download_button("CSV", _export("csv"), "stepscope-corpus.csv", "text/csv", key="export_csv")
    e2.download_button("JSON", _export("json"), "stepscope-corpus.json", "application/json", key="export_json")
    e3.download_button("HTML", _export("html"), "stepscope-corpus.html", "text/html", key="export_html")
    e4.download_button("Parquet", _export("parquet"), "stepscope-corpus.parquet", "application/vnd.apache.parquet",
                       key="export_parquet")
