"""Problems: every sample of one problem side by side (`?problem=<hash>`, a link a reviewer can
share), and without one, what choosing among samples gains per model and domain (selection
metrics, metrics/selection.py) and the problems with the most samples. Read-only: everything comes
from db/problems.py; nothing is parsed here."""

from __future__ import annotations

from core.trace_kind import marked_label
from core.verdicts import trace_label
from app_pages._text import md_escape

import string

import pandas as pd
import plotly.express as px
import streamlit as st

from metrics.selection import MIN_CURVE_PROBLEMS, majority, verified_at_k
from db.problems import (ALL_MODELS, problem_records, problem_text, problems_with_samples, selection_metrics)
from db.queries import data_revision, filter_options
from app_pages._common import engine, go_to
from app_pages._table import dashed

eng = engine()
rev = data_revision(eng)


@st.cache_data(show_spinner=False, max_entries=16)
def _records(problem_hash: str, rev: tuple) -> list[dict]:
    return problem_records(eng, problem_hash)


@st.cache_data(show_spinner=False, max_entries=16)
def _selection(domains: tuple[str, ...], curve_models: tuple[str, ...] | None, rev: tuple) -> list[dict]:
    return [r.to_json() for r in selection_metrics(eng, domains, curve_models=curve_models)]


@st.cache_data(show_spinner=False, max_entries=16)
def _problems(domains: tuple[str, ...], rev: tuple) -> list[dict]:
    return problems_with_samples(eng, domains)


def _app_base() -> str:
    """The app's root URL as the browser sees it, for links to records."""
    base = (st.context.url or "").split("?", 1)[0].rstrip("/")
    return base.rsplit("/", 1)[0] if base.count("/") > 2 else base


def _verdict(value: bool | None, yes: str, no: str, none: str) -> str:
    return {True: yes, False: no}.get(value, none)  # type: ignore[arg-type]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _compare_picker(rows: list[dict]) -> None:
    """Two samples of this problem, step-aligned on the side-by-side page."""
    st.subheader("Two samples step by step")
    names = {r["share_id"]: f"{r['model']} · {r['record_id'] or r['share_id']} · first invalid "
             f"{'none' if r['first_invalid_step'] is None else r['first_invalid_step']}" for r in rows}
    ids = list(names)
    left, right, go = st.columns([2, 2, 1])
    a = left.selectbox("Sample A", ids, index=0, format_func=names.get, key="compare_a")
    b = right.selectbox("Sample B", ids, index=1, format_func=names.get, key="compare_b")
    with go:
        st.page_link("app_pages/compare.py", label="Compare side by side", icon=":material/view_column_2:",
                     query_params={"a": a, "b": b}, disabled=a == b)


def _show_problem(problem_hash: str) -> None:
    rows = _records(problem_hash, rev)
    st.title("Problem")
    if not rows:
        st.error("No stored record poses this problem. The link may be incomplete, or its records were deleted.")
        st.stop()
    models = sorted({r["model"] for r in rows})
    st.caption(f"{md_escape(rows[0]['domain'])} · problem `{problem_hash}` · {len(rows)} sample(s) from {len(models)} model(s)")

    # Answers that agree share a letter: A is the most frequent answer, B the next, ...
    votes = [(r["answer_key"], r["answer_correct"]) for r in rows]
    counts = pd.Series([k for k, _ in votes if k is not None]).value_counts(sort=False)
    order = sorted(counts.index, key=lambda k: (-counts[k], next(i for i, r in enumerate(rows) if r["answer_key"] == k)))
    letters = {k: (string.ascii_uppercase[i] if i < 26 else f"#{i + 1}") for i, k in enumerate(order)}
    winners, maj_correct = majority(votes)
    n, c = len(rows), sum(1 for r in rows if r["answer_correct"] is True)

    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Samples", f"{n}", help=f"models: {md_escape(', '.join(models))}")
    m2.metric("pass@1", _pct(c / n), help="share of samples whose answer is correct")
    if winners:
        label = " = ".join(letters[w] for w in winners)
        m3.metric("Majority vote", f"answer {label}",
                  help="the most frequent normalised answer (self-consistency); ties count as a random pick")
        majority_text = ("correct" if maj_correct == 1 else "wrong" if maj_correct == 0
                         else f"correct with probability {maj_correct:.0%} (a tie)")
    else:
        m3.metric("Majority vote", "no answers")
        majority_text = "no sample has an answer to vote with"
    m4.metric(f"verified@{n}", "yes" if c else "no",
              help="some sample passes the sound validator: what an LLM-Modulo loop would return")
    st.markdown(f"**Majority answer**: {majority_text} · **verified@{n}**: "
                f"{'a sample passes the validator' if c else 'no sample passes the validator'}")

    base = _app_base()
    table = pd.DataFrame([{
        "model": r["model"],
        "answer group": letters.get(r["answer_key"], "–"),
        "answer": (r["answer"] or "")[:300],
        "answer verdict": _verdict(r["answer_correct"], "correct", "wrong", "undecided"),
        "trace": marked_label(trace_label(r["trace_check"], r["trace_valid"]), r["trace_summary"]),
        "first invalid step": r["first_invalid_step"],
        "invalid steps": r["n_invalid"],
        "steps": r["n_steps"],
        "trace chars": r["trace_chars"],
        "gaps": ", ".join(r["gaps"]),
        "answer error": r["answer_error_kind"] or "",
        "open": f"{base}/explorer?trace={r['share_id']}"
                + (f"&step={r['first_invalid_step']}" if r["first_invalid_step"] is not None else ""),
    } for r in rows])
    st.subheader("Samples side by side")
    st.dataframe(dashed(table), hide_index=True, width="stretch",
                 column_config={"open": st.column_config.LinkColumn("open", display_text="open in explorer"),
                                "answer": st.column_config.TextColumn(width="large")})

    if n > 1:
        _compare_picker(rows)

    st.subheader("Which answers agree")
    groups = []
    for key in order:
        members = [r for r in rows if r["answer_key"] == key]
        right = sum(1 for r in members if r["answer_correct"] is True)
        groups.append({"answer group": letters[key], "votes": len(members),
                       "models": ", ".join(sorted({r["model"] for r in members})),
                       "verdict": "correct" if right == len(members) else "wrong" if right == 0 else "mixed",
                       "majority": key in winners, "answer": (members[0]["answer"] or "")[:300]})
    no_answer = sum(1 for r in rows if r["answer_key"] is None)
    if groups:
        frame = pd.DataFrame(groups)
        frame["majority"] = frame["majority"].map({True: "majority", False: ""})
        st.dataframe(frame, hide_index=True, width="stretch",
                     column_config={"answer": st.column_config.TextColumn(width="large")})
    if no_answer:
        st.caption(f"{no_answer} sample(s) without an answer do not vote")

    if n > 1:
        st.subheader("Picking among k samples of this problem")
        curve = pd.DataFrame([{"k": k, "verified@k": verified_at_k(n, c, k)} for k in range(1, n + 1)])
        st.table(curve.set_index("k").style.format("{:.0%}"))
        st.caption("verified@k: the chance that some sample among k drawn from these n passes the validator "
                   "(the unbiased estimator of Chen et al. 2021)")

    per_model = []
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        mc = sum(1 for r in mine if r["answer_correct"] is True)
        per_model.append({"model": model, "samples": len(mine), "correct": mc,
                          "majority correct": _pct(majority([(r["answer_key"], r["answer_correct"]) for r in mine])[1]),
                          "verified@k (k = samples)": "yes" if mc else "no"})
    st.subheader("Per model")
    frame = pd.DataFrame(per_model)
    frame["model"] = frame["model"].map(md_escape)  # st.table renders markdown: model names stay text
    st.table(frame.set_index("model"))

    problem = problem_text(eng, problem_hash) or {}
    with st.expander("The problem"):
        if problem.get("problem_pddl"):
            st.code(problem["problem_pddl"], language=None)
        else:
            st.json(problem, expanded=1)


def _overview() -> None:
    st.title("Problems")
    st.caption("Problems posed more than once (the same problem however written: a canonical hash of it), "
               "and what choosing among their samples gains.")
    domains = st.multiselect("Domain", filter_options(eng)["domains"], key="problems_domain")
    rows = _selection(tuple(domains), (), rev)
    if not rows:
        st.info("No problem has several stored samples yet.")
        return
    st.subheader("Selection metrics per model and domain")
    frame = pd.DataFrame([{k: v for k, v in r.items() if k != "curve"} for r in rows])
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in ("pass@1", "majority@n", "verified@n", "gap")})
    st.caption("Over problems with at least two samples of that model; '(all models)' pools every model's "
               "samples of a problem. pass@1: mean correctness · majority@n: the most frequent answer is correct "
               "(ties: a random pick) · verified@n: some sample passes the sound validator (LLM-Modulo, "
               "best-of-n) · gap: verified@n − majority@n.")
    shown = sorted({r["model"] for r in rows}, key=lambda m: (m != ALL_MODELS, m))
    pick = st.multiselect("Models in the chart", shown, default=shown[:3], key="problems_models")
    charted = _selection(tuple(domains), tuple(sorted(pick)), rev)
    curves = pd.DataFrame([{"model": r["model"], "domain": r["domain"], "k": p["k"], "metric": m, "value": p[m],
                            "problems": p["problems"]}
                           for r in charted for p in r["curve"]
                           for m in ("pass@1", "majority@k", "verified@k") if p[m] is not None])
    cuts = [f"{r['model']} · {r['domain']}: stops before k = {r['curve_cut']['k']} "
            f"({r['curve_cut']['problems']} problem(s) have that many samples)" for r in charted if r["curve_cut"]]
    if not curves.empty:
        data = curves
        fig = px.line(data, x="k", y="value", color="model", line_dash="metric", facet_col="domain", markers=True,
                      hover_data={"problems": True}, labels={"value": "share of problems", "k": "samples k"})
        fig.update_layout(height=380, margin={"t": 40, "b": 10})
        st.plotly_chart(fig, width="stretch", key="selection_chart")
        st.caption("Each metric against k: verified@k by the unbiased estimator over n ≥ k samples (Chen et al. "
                   "2021), majority@k as the mean over k-subsets (up to 20, else 200 drawn with a fixed seed; over the first 200 "
                   "problems by hash). Each point stands on the problems with at least k samples (hover: "
                   f"how many), so the set shrinks as k grows; a curve stops where fewer than {MIN_CURVE_PROBLEMS} "
                   "problems remain.")
    if cuts:
        st.caption("Curves cut short: " + "; ".join(cuts) + ".")
    st.subheader("Problems with the most samples")
    problems = pd.DataFrame(_problems(tuple(domains), rev))
    if problems.empty:
        return
    picked = st.dataframe(problems, hide_index=True, width="stretch", on_select="rerun",
                          selection_mode="single-row", key="problems_table")
    if picked and picked.selection and picked.selection.rows:
        go_to("problems", problem=str(problems.iloc[picked.selection.rows[0]]["problem_hash"]))
    st.caption("click a row to see every sample of that problem side by side")


asked = st.query_params.get("problem", "")
if asked:
    _show_problem(asked)
else:
    _overview()
