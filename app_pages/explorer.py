"""Explorer: one trace, its verdicts and its steps. The URL (?trace=<share id>&step=<n>) is the
whole view state, so a copied link reopens exactly this view."""

from __future__ import annotations

import hashlib
import json
from array import array

import pandas as pd
import streamlit as st

from db.outside import judgments_of
from db.comment_labels import label_set, save_label_set
from db.problems import problem_size
from db.record_export import record_json
from db.queries import (comments_of, data_revision, latest_state, search_steps, step_detail, step_outline,
                        step_payloads, step_spans, step_states, steps_of, trace_by_share_id)
from metrics.quote_anchor import anchor_in, occurrences
from metrics.score_agreement import DEFAULT_THRESHOLD
from core.trace_kind import SUMMARY_BANNER, SUMMARY_NOTE, is_summary, verdict_is_summary
from core.verdicts import trace_label
from app_pages._text import md_escape
from db.search import SYNTAX as SEARCH_SYNTAX, parse_query
from db.store import DEMO_SOURCE, add_comment, delete_record
from app_pages._gaps import steps_not_listed
from app_pages._anchors import anchored_height, anchored_html, anchored_spans
from app_pages._access import can_comment, can_write, is_owner, is_shared, review_view
from app_pages._common import engine, go_to
from app_pages._judgments import render_step as render_step_judgments, render_trace_summary
from app_pages._pictures import PictureInput, step_picture
from app_pages._reading import is_reading, step_reading_height, step_reading_html
from app_pages._thinking_map import around, build_map, map_figure
from app_pages._view import (STATUS_LABELS, answer_html, blocks_figure, claim_rows, is_blocks_state, line_caption,
                             rollout_line,
                             neighbourhood, overview_figure, reading_html, sandboxed, text_window,
                             tree_html, tree_page, verdict_label)
from validators.registry import get_domain

TREE_CAP = 1000
LIST_WINDOW = 60

eng = engine()
rev = data_revision(eng)


@st.cache_data(show_spinner=False, max_entries=32)
def _trace(share_id: str, rev: tuple) -> dict | None:
    return trace_by_share_id(eng, share_id)


@st.cache_data(show_spinner=False, max_entries=16)
def _outline(pk: int, rev: tuple) -> list[tuple]:
    return step_outline(eng, pk)


@st.cache_data(show_spinner=False, max_entries=16)
def _spans(pk: int, rev: tuple) -> list[tuple]:
    return step_spans(eng, pk)


@st.cache_data(show_spinner=False, max_entries=32)
def _problem_size(problem_hash: str, rev: tuple) -> int:
    return problem_size(eng, problem_hash)


@st.cache_data(show_spinner=False, max_entries=16)
def _payloads(pk: int, rev: tuple) -> list[tuple]:
    """Every step's payload: a picture replays a prefix of them, and stepping re-reads nothing."""
    return step_payloads(eng, pk, 1 << 62)


@st.cache_data(show_spinner=False, max_entries=16)
def _map(pk: int, rev: tuple, _rec: dict, _outline: list[tuple]):
    """The thinking map's lanes, per trace (the page draws the part around the selected step)."""
    verdict = _rec["verdict"] or {}
    return build_map((_rec.get("notes") or {}).get("thinking"), _outline, step_states(eng, pk),
                     verdict.get("answer_correct"), verdict.get("gaps") or [])


@st.cache_data(show_spinner=False, max_entries=16)
def _tree_page(pk: int, rev: tuple, nodes_key: str, matches: tuple[int, ...], link: str,
               _outline: list[tuple], _nodes: list[int]) -> str:
    """The step tree without a selection, per trace and neighbourhood (`nodes_key` names it:
    Streamlit's hashing of 1,000 ints would cost more than the lookup saves): built once,
    marked per step."""
    return tree_page(_outline, _nodes, set(matches), link=link)


def _explorer_base() -> str:
    """This app's explorer URL as the browser sees it (for links that must be absolute)."""
    base = (st.context.url or "").split("?", 1)[0].rstrip("/")
    if base.endswith("/explorer"):
        return base
    return (base.rsplit("/", 1)[0] if base.count("/") > 2 else base) + "/explorer"


share_id = st.query_params.get("trace", "")
if not share_id:
    st.title("Explorer")
    st.info("Open a trace from the Corpus page, or paste a link of the form `?trace=<id>&step=<n>`.")
    st.stop()

rec = _trace(share_id, rev)
if rec is None:
    st.title("Explorer")
    st.error("No trace has this link. It may have been deleted, or the link is incomplete.")
    st.stop()

verdict = rec["verdict"] or {}
outline = _outline(rec["pk"], rev)
n_steps = len(outline)
invalid = [o[0] for o in outline if o[3] == "invalid"]

asked = st.query_params.get("step")
try:
    step = int(asked if asked is not None else (invalid[0] if invalid else 0))
except ValueError:
    step = 0
clamped = max(0, min(step, max(n_steps - 1, 0)))
if asked is not None and (clamped != step or str(clamped) != asked) and n_steps:
    # The URL must name the step on screen, or a copied link would open another one.
    st.session_state["_step_note"] = (f"This trace has no step {asked}: it has {n_steps:,} steps "
                                      f"(0 to {n_steps - 1:,}); showing step {clamped}.")
    st.query_params["step"] = str(clamped)
step = clamped
if st.session_state.get("_explorer_for") != (share_id, step):
    st.session_state["_explorer_for"] = (share_id, step)
    st.session_state["step_input"] = step


def _open(tab) -> bool:
    """Whether a tab's content should run: the open one (None: the tabs do not track it)."""
    return tab.open is not False


def _select(idx: int) -> None:
    """Select a step. Only ever called from widget callbacks, which run before the script, so
    setting the step box's state here is allowed (in the script body it is not)."""
    idx = max(0, min(int(idx), max(n_steps - 1, 0)))
    st.query_params["step"] = str(idx)
    st.session_state["step_input"] = idx
    st.session_state["_explorer_for"] = (share_id, idx)


def _pick_from(key: str) -> None:
    value = st.session_state.get(key)
    if value is not None:
        _select(value)
        st.session_state[key] = None


def _step_params(step_idx: int) -> dict[str, str]:
    """The query of a link to a step of this trace (`?trace=..&step=..`, review mode kept);
    Streamlit URL-encodes it."""
    return {"trace": share_id, "step": str(step_idx), **({"mode": "review"} if review_view() else {})}


def _link_section(step_idx: int | None) -> None:
    """Absolute links with a copy button: the view, and the read-only review form of it."""
    base = _explorer_base()
    query = f"?trace={share_id}" + (f"&step={step_idx}" if step_idx is not None else "")
    st.markdown("**Link to this view**")
    st.code(base + query, language=None)
    st.markdown("**Review link** (opens this trace alone, read-only"
                + (")" if is_shared() else " in that tab; on this private server the address without "
                   "`mode=review` still grants everything)"))
    st.code(base + query + "&mode=review", language=None)


def _comments_section(step_idx: int | None, comments: list[dict], step_text: str | None = None) -> None:
    """Comments on one step (or, for a record without steps, on the record), each signed,
    optionally labelled from the team's set and anchored to a quote of the step."""
    what = f"step {step_idx}" if step_idx is not None else "this record"
    st.markdown(f"**Comments on {what}**")
    here = [c for c in comments if c["step_idx"] == step_idx]
    for c in here:
        with st.container(border=True):
            st.caption(f"{c['created_at']:%Y-%m-%d %H:%M} UTC")
            if c.get("label"):
                st.text(f"label: {c['label']}")
            if c.get("quote"):
                st.text(f"on “{c['quote']}” (characters {c['quote_start']}–{c['quote_end']} of the step)")
            st.text(f"{c['author']}: {c['text']}")
    if not here:
        st.caption("none yet")
    elsewhere = sorted({c["step_idx"] for c in comments if c["step_idx"] != step_idx and c["step_idx"] is not None})
    if elsewhere:
        st.caption("comments on other steps: " + ", ".join(map(str, elsewhere)))
    if not can_comment():
        return
    _comment_form(step_idx, step_text)
    if is_owner() and can_write() and not review_view():
        _label_set_editor()


def _quote_picker(step_text: str) -> None:
    """The span a comment quotes, named by its exact text (Streamlit has no selection widget);
    which occurrence, when the quote repeats. Outside the form, so the count follows the quote."""
    quote = st.text_input("Quote from this step (optional)", key="comment_quote",
                          placeholder="copy the exact words the comment is about")
    if not quote.strip():
        return
    found = len(occurrences(step_text, quote))
    if found == 0:
        st.warning("The quote does not occur in this step's text: copy it exactly (same case and spacing).")
    elif found > 1:
        if int(st.session_state.get("comment_occurrence") or 1) > found:
            st.session_state["comment_occurrence"] = found
        st.number_input("Which occurrence of the quote", min_value=1, max_value=found, key="comment_occurrence",
                        help=f"the quote occurs {found} times in this step; 1 is the first")
        st.caption(f"the quote occurs {found} times in this step: choose which one (1 to {found})")


def _occurrence(step_text: str, quote: str) -> int:
    """The occurrence chosen for `quote` (the first when it occurs once)."""
    if len(occurrences(step_text, quote)) < 2:
        return 1
    return int(st.session_state.get("comment_occurrence") or 1)


def _comment_form(step_idx: int | None, step_text: str | None = None) -> None:
    """Everyone signs: the name is remembered for the session (across pages and traces), the
    text, label and quote are cleared once the comment is stored."""
    named = not is_owner()
    if st.session_state.pop("_comment_sent", False):
        st.session_state["comment_text"] = ""
        st.session_state["comment_label"] = None
        st.session_state["comment_quote"] = ""
        st.session_state.pop("comment_occurrence", None)
    if step_text is not None:
        _quote_picker(step_text)
    if "comment_author" not in st.session_state and st.session_state.get("_signed_as"):
        st.session_state["comment_author"] = st.session_state["_signed_as"]  # the widget left with the page
    labels = _labels(rev)
    with st.form("comment"):
        # no help icon: its button would carry the same accessible name as the box
        author = st.text_input("Your name" + (" (required)" if named else ""), key="comment_author",
                               placeholder="comments are signed; remembered for this session")
        label = st.selectbox("Label", [None, *labels], key="comment_label",
                             format_func=lambda v: "no label" if v is None else v,
                             help="the team's labels (owners edit the set below)")
        body_text = st.text_area("Comment", key="comment_text")
        if st.form_submit_button("Add comment"):
            if not author.strip():
                st.warning("Please give your name: " + ("reviewers' comments are signed." if named
                                                        else "comments are signed, not anonymous."))
            elif not can_comment():
                st.warning("Comments are closed on this server.")
            else:
                quote = st.session_state.get("comment_quote", "") if step_text is not None else ""
                try:
                    anchor = anchor_in(step_text or "", quote, _occurrence(step_text or "", quote)) \
                        if quote.strip() else None
                    add_comment(eng, rec["pk"], step_idx, author, body_text, label, anchor)
                except ValueError as exc:
                    st.warning(str(exc))
                else:
                    st.session_state["_signed_as"] = author.strip()
                    st.session_state["_comment_sent"] = True
                    st.rerun()


@st.cache_data(show_spinner=False, max_entries=4)
def _labels(rev: tuple) -> list[str]:
    """The team's labels (cleared when an owner saves a new set)."""
    return label_set(eng)


def _label_set_editor() -> None:
    """The owner defines the labels the team picks from (one a line)."""
    with st.expander("Comment labels of this team"):
        lines = st.text_area("One label a line", "\n".join(_labels(rev)), key="label_set_text")
        if st.button("Save labels", key="label_set_save"):
            if not can_write():
                st.error("Editing labels needs the owner's rights on this server.")
                return
            save_label_set(eng, lines.splitlines())
            _labels.clear()
            st.rerun()


def _download_section() -> None:
    """The record, its verdict and its comments as one JSON file: `cli.py export --id` writes the
    same document (db/record_export.py). Built only when clicked: a trace may be megabytes."""
    st.download_button("Download this record (JSON)", lambda: record_json(eng, share_id) or "",
                       f"stepscope-{share_id}.json", "application/json", key="download_record",
                       icon=":material/download:", help="the record as stored, its verdict and its comments; "
                       f"the same file as `cli.py export --id {share_id}`")


def _delete_section() -> None:
    if not can_write() or review_view():
        return
    with st.expander("Delete this trace"):
        st.warning("Deleting removes the record, its steps, verdicts and comments.")
        if st.checkbox("I understand", key="confirm_delete") and st.button("Delete", type="primary"):
            if not can_write():  # rights are checked again at the moment of writing
                st.error("Deleting needs the owner's rights on this server.")
                st.stop()
            delete_record(eng, rec["pk"])
            st.cache_data.clear()
            go_to("corpus")


# --- header: what the trace is and what the audit says -------------------------------------
st.title(f"Trace {md_escape(rec['record_id'] or share_id)}")
st.caption(" · ".join(md_escape(x) for x in (rec["domain"], rec["model"] or "model unknown",
                                        verdict.get("format") or rec["format"] or "", rec.get("validator") or "")
                      if x))
# A summary of hidden reasoning (Responses API reasoning summaries): its claims are checked, but no
# view may present it as the derivation (core/trace_kind.py).
summary_trace = is_summary(rec.get("meta")) or verdict_is_summary(verdict)
if summary_trace:
    st.warning(f"**{SUMMARY_BANNER}** {SUMMARY_NOTE}", icon=":material/summarize:")
if rec.get("source") == DEMO_SOURCE:
    st.info("Demo record: bundled with Stepscope to show what it does. Demo records leave the database, and every "
            "figure, when your own data arrives (or by the button on Home).", icon=":material/science:")
if not review_view() and rec.get("problem_hash"):
    samples = _problem_size(rec["problem_hash"], rev)
    if samples > 1:
        st.page_link("app_pages/problems.py", label=f"All samples of this problem ({samples}), side by side",
                     icon=":material/compare:", query_params={"problem": rec["problem_hash"]})
if rec["status"] != "ok":
    st.error("This input could not be read as a record.")
    st.text(rec["error"] or "")

c1, c2, c3, c4 = st.columns(4)
c1.metric("Answer", verdict_label(verdict.get("answer_correct"), "answer"))
unjudged = ((rec.get("notes") or {}).get("thinking") or {}).get("claims_unjudged") or 0
check = rec.get("trace_check") or verdict.get("trace_check")
if check == "no_error_found":
    c2.metric("Trace", trace_label(check), help=f"every claim judged holds, but {unjudged:,} claim(s) could not be "
              "judged (a line of reasoning the reader lost, or a state another step may explain), so the trace is "
              "not called valid")
else:
    c2.metric("Trace", trace_label(check, verdict.get("trace_valid")))
c3.metric("Steps", f"{n_steps:,}")
c4.metric("Invalid steps", f"{len(invalid):,}",
          help=None if not invalid else f"first invalid step: {invalid[0]}")

# Not cached: an import changes no verdict, so data_revision would not follow it (one indexed read).
judgments = judgments_of(eng, rec["pk"])
render_trace_summary(verdict.get("first_invalid_step"), rec.get("reference_labels") or {}, rec.get("source"),
                     judgments, DEFAULT_THRESHOLD)

rollout = (rec.get("meta") or {}).get("rollout")
if isinstance(rollout, dict):
    with st.container(border=True):
        st.markdown("**Rewards from the training run**")
        st.text(rollout_line(rollout))

err = verdict.get("answer_error")
if err:
    with st.container(border=True):
        where = f" at answer step {err['step']}" if err.get("step") is not None else ""
        st.markdown(f"**Answer error**: `{err.get('kind')}`{where}")
        st.text(err.get("message") or "")
        if err.get("unmet"):
            st.text("unmet: " + ", ".join(map(str, err["unmet"])))
for perr in (verdict.get("parse") or {}).get("errors") or []:
    st.warning("Parse problem" + (f" (line {perr['line']})" if perr.get("line") else ""))
    st.text(perr.get("message") or "")

gaps = verdict.get("gaps") or []
if gaps:
    st.subheader("Faithfulness gaps")
    for g_i, gap in enumerate(gaps):
        with st.container(border=True):
            st.markdown(f"**{gap['kind']}**")
            st.text(gap.get("message") or "")
            gap_steps = sorted({s for s in gap.get("steps") or [] if 0 <= s < n_steps})
            if gap_steps:
                # Pills wrap, so every step of the gap gets its own readable button.
                st.pills("open a step of this gap", gap_steps, key=f"gap{g_i}", format_func=lambda s: f"step {s}",
                         on_change=_pick_from, args=(f"gap{g_i}",), label_visibility="collapsed")
            more = steps_not_listed(gap, gap_steps, invalid)
            if more:
                st.caption(f"and {more:,} more invalid step(s), not listed: step through them with "
                           "“next invalid ▶” (Alt+Shift+→)")

def _problem_section() -> None:
    """The problem the trace answers (initial state and goal, numbers and target, words ...), to
    check the model's restatement of it without leaving the trace. Shown as text, never rendered."""
    notes = rec.get("notes") or {}
    problem = rec.get("problem") or {}
    if not problem and not notes.get("initial_state"):
        return
    with st.expander("The problem"):
        if notes.get("initial_state") or notes.get("goal"):
            left, right = st.columns(2)
            left.dataframe(pd.DataFrame({"initial state": notes.get("initial_state") or []}), hide_index=True,
                           width="stretch")
            right.dataframe(pd.DataFrame({"goal": notes.get("goal") or []}), hide_index=True, width="stretch")
        short = {k: v for k, v in problem.items() if not (isinstance(v, str) and len(v) > 120)}
        if short:
            st.dataframe(pd.DataFrame([{"field": k, "value": json.dumps(v, ensure_ascii=False)[:2000]}
                                       for k, v in short.items()]), hide_index=True, width="stretch")
        for k, v in problem.items():
            if isinstance(v, str) and len(v) > 120:
                st.caption(md_escape(k))
                st.code(v[:20_000], language=None, wrap_lines=True)


def _answer_details() -> None:
    """The answer replayed action by action, where the domain reports it (planning)."""
    notes = rec.get("notes") or {}
    plan = notes.get("answer_plan")
    if plan or notes.get("plan_source"):
        st.markdown("**What was read as the plan**: " + (notes.get("plan_source") or "nothing"))
        st.iframe(sandboxed(answer_html(rec["answer"] or "", notes.get("plan_span"), plan or [])), height=300)
        st.caption("dashed outline: the text read as the plan · green: action valid when replayed · red: the "
                   "failing or unreadable action (hover for why)")
    if plan:
        st.markdown("**The answer, action by action** (replayed from the initial state)")
        st.dataframe(pd.DataFrame([{
            "step": a.get("step"), "status": a.get("status"), "as written": a.get("text"),
            "action": a.get("action"), "adds": ", ".join(a.get("added") or []),
            "deletes": ", ".join(a.get("deleted") or []), "problem": a.get("message") or "",
        } for a in plan]), hide_index=True, width="stretch")
    spec = get_domain(rec.get("domain") or "")
    states = spec.answer_states(notes) if spec is not None and spec.answer_states is not None else []
    if plan and states:
        k = st.slider("state after answer step", 0, len(states) - 1, len(states) - 1, key="answer_state") \
            if len(states) > 1 else 0
        what = "initial state" if k == 0 else f"after step {k}: {plan[k - 1].get('action_nl') or plan[k - 1].get('action')}"
        if is_blocks_state(states[k]):
            st.plotly_chart(blocks_figure(states[k], what), width="stretch", key="answer_blocks")
        else:
            st.caption(what)
            st.dataframe(pd.DataFrame({"fact": states[k]}), hide_index=True, width="stretch", height=260)
    other = {k: v for k, v in notes.items() if k not in ("answer_plan", "initial_state", "goal")}
    if other:
        with st.expander("Replay notes"):
            st.json(other, expanded=1)


_problem_section()

if n_steps == 0:
    st.info("This record has no trace steps (the trace text is empty); the answer is below.")
    st.subheader("Answer")
    st.code(rec["answer"] or "(no answer)", language=None, wrap_lines=True)
    _answer_details()
    _comments_section(None, comments_of(eng, rec["pk"]))
    _link_section(None)
    _delete_section()
    st.stop()

if st.session_state.get("_step_note"):
    st.warning(st.session_state.pop("_step_note"))

# --- navigation ------------------------------------------------------------------------------
prev_bad = max((i for i in invalid if i < step), default=None)
next_bad = min((i for i in invalid if i > step), default=None)
n0, n1, n2, n3, n5 = st.columns([0.8, 1.6, 1.1, 1.6, 0.8])
# Keyboard: Alt+Left/Right step by step, Alt+Shift+Left/Right from invalid step to invalid step.
n0.button("◀", disabled=step <= 0, on_click=_select, args=(step - 1,), width="stretch",
          shortcut="Alt+Left", help="previous step (Alt+←)", key="prev_step")
n1.button("◀ previous invalid", disabled=prev_bad is None, on_click=_select, args=(prev_bad or 0,),
          width="stretch", shortcut="Alt+Shift+Left", key="prev_bad")
n2.number_input("step", min_value=0, max_value=max(n_steps - 1, 0), key="step_input",
                on_change=lambda: _select(st.session_state["step_input"]), label_visibility="collapsed")
n3.button("next invalid ▶", disabled=next_bad is None, on_click=_select, args=(next_bad or 0,),
          width="stretch", shortcut="Alt+Shift+Right", key="next_bad")
n5.button("▶", disabled=step >= n_steps - 1, on_click=_select, args=(step + 1,), width="stretch",
          shortcut="Alt+Right", help="next step (Alt+→)", key="next_step")
query = st.text_input("Search in this trace", value=st.query_params.get("q", ""), key="trace_q",
                      placeholder="search this trace's steps for a phrase", label_visibility="collapsed",
                      help=SEARCH_SYNTAX)
if query != st.query_params.get("q", ""):
    if query:
        st.query_params["q"] = query
    elif "q" in st.query_params:
        del st.query_params["q"]
matches = sorted({h["idx"] for h in search_steps(eng, query, limit=500, record_pk=rec["pk"])}) if query else []
search_error = parse_query(query).error
if search_error:
    st.warning(f"Search: {search_error}.")
elif query:
    if matches:
        st.caption(f"{len(matches)} matching step(s) (outlined in yellow): "
                   + ", ".join(map(str, matches[:40])) + (" …" if len(matches) > 40 else ""))
        st.selectbox("jump to a match", matches, index=None, key="match_pick", placeholder="jump to a match",
                     on_change=lambda: _select(st.session_state["match_pick"]) if st.session_state["match_pick"]
                     is not None else None, label_visibility="collapsed")
    else:
        st.caption("no step matches")

# --- the selected step and its context -------------------------------------------------------
detail = step_detail(eng, rec["pk"], step) or {}
left, right = st.columns([3, 2])
with right:
    status = detail.get("status") or "unchecked"
    badge = {"invalid": ":red", "valid": ":green", "corrected": ":blue"}.get(status, ":gray")
    st.subheader(f"Step {step}")
    st.markdown(f"{badge}[**{STATUS_LABELS.get(status, status)}**] · kind `{detail.get('kind')}`"
                + (f" · rule `{detail['rule']}`" if detail.get("rule") else ""))
    if detail.get("consequence_of") is not None:
        cause = int(detail["consequence_of"])
        st.page_link("app_pages/explorer.py", label=f"consequence of step {cause}", icon=":material/north_west:",
                     query_params=_step_params(cause), help="open the step this error repeats")
    if detail.get("message"):
        st.text(detail["message"])
    render_step_judgments(step, rec.get("reference_labels") or {}, rec.get("source"), judgments, DEFAULT_THRESHOLD)
    claims = claim_rows(detail.get("state"))
    if claims is not None:
        # A thinking step: what its claims are about and what they are judged against.
        st.markdown("**Claims in this step**")
        st.caption(line_caption(detail["state"]))
        if claims:
            st.dataframe(pd.DataFrame(claims), hide_index=True, width="stretch")
        else:
            st.caption("no claim in this step was judged")
        with st.expander("State the claims are judged against", expanded=True):
            judged = detail["state"].get("judged_against") or []
            if judged and is_blocks_state(judged):
                st.plotly_chart(blocks_figure(judged), width="stretch", key="claims_blocks")
                st.text("\n".join(judged))
            elif judged:
                st.dataframe(pd.DataFrame({"fact": judged}), hide_index=True, width="stretch",
                             height=min(400, 38 + 35 * len(judged)))
            else:
                st.text("(not known)")
        if is_reading(detail["state"]):
            # Why each claim was read so: its rule rows, the state it was judged against, and in
            # grey what was read but left unjudged. A sandboxed frame like the reading view (every
            # character escaped besides).
            st.markdown("**The reading of this step**")
            st.iframe(sandboxed(step_reading_html(detail["state"])), height=step_reading_height(detail["state"]))
            st.caption("per claim: kind, verdict, modality, why, the state it was judged against and the rule rows "
                       "that read it (with the example each row was written for) · grey: read but not judged")
    elif detail.get("expected") is not None or detail.get("found") is not None:
        st.json({"expected": detail.get("expected"), "found": detail.get("found")}, expanded=True)
    if detail.get("state") and claims is None:
        with st.expander("State after this step", expanded=True):
            st.json(detail["state"], expanded=1)
    if detail.get("payload"):
        with st.expander("Parsed step"):
            st.json(detail["payload"], expanded=1)
    if detail.get("links"):
        st.caption("links: " + ", ".join(f"{kind} → step {dst}" for dst, kind in detail["links"]))
    st.markdown("**Trace text** (the step in the box)")
    before, body, after = text_window(rec["trace"], detail.get("start", 0), detail.get("end", 0))
    record_comments = comments_of(eng, rec["pk"])
    step_text = detail.get("text") or ""
    marked = anchored_spans(step_text, [c for c in record_comments if c["step_idx"] == step])
    if before:
        st.text(before)
    if marked:
        st.iframe(sandboxed(anchored_html(step_text, marked)), height=anchored_height(step_text))
        st.caption("yellow: text quoted by a comment on this step")
    else:
        st.code(body or " ", language=None, wrap_lines=True)
    if after:
        st.text(after)

    _comments_section(step, record_comments, step_text)

with left:
    shown = step_picture(PictureInput(rec, step, detail, lambda: _payloads(rec["pk"], rev),
                                      lambda: latest_state(eng, rec["pk"], step)))
    picture = (shown.draw, shown.caption) if shown is not None else None
    tmap = _map(rec["pk"], rev, rec, outline) if (rec.get("notes") or {}).get("thinking") else None
    names = (["Picture"] if picture else []) + (["Map"] if tmap else []) + ["Reading", "Tree", "Overview",
                                                                              "Step list", "Answer"]
    # Only the open tab runs (its label is in the URL as ?tab=...): every view of a step change
    # sent at once cost the server and, more, each reader's browser (a tree frame reparses
    # vis-network on every step).
    tabs = st.tabs(names, key="tab", bind="query-params")
    if picture:
        with tabs[0]:
            if _open(tabs[0]):
                st.plotly_chart(picture[0](), width="stretch", key="state_picture")
                st.caption(picture[1] + ". Step through with Alt+← / Alt+→.")
    if tmap:
        with tabs[names.index("Map")]:
            if _open(tabs[names.index("Map")]):
                shown = around(tmap, step)
                if len(shown.lanes) < len(tmap.lanes):
                    st.caption(f"showing {len(shown.lanes)} of {len(tmap.lanes)} lines of reasoning and candidates, "
                               f"those nearest step {step}")
                map_key = f"thinking_map-{step}"

                def _map_picked(key: str = map_key) -> None:
                    points = st.session_state[key].selection.points
                    if points and points[0].get("customdata"):
                        _select(int(points[0]["customdata"][0]))

                st.plotly_chart(map_figure(shown, step), width="stretch", key=map_key, on_select=_map_picked,
                                selection_mode="points")
                if summary_trace:
                    st.caption("the lines of the model's summary of its reasoning, not of the reasoning itself")
                st.caption("one row per line of reasoning (circle) and candidate (square; green: solves, red: fails, "
                           "grey: a fragment), oldest on top; it ends at ★ settled on, ☆ concluded then taken back, ✕ "
                           "rejected (where the trace turned away) or ○ left; step dots by verdict; ◆ the answer. "
                           "Click a mark to open its step.")
    tab_read, tab_tree, tab_overview, tab_list, tab_answer = tabs[-5:]
    view_link = f"{_explorer_base()}?trace={share_id}" + (f"&q={query}" if query else "") + (
        "&mode=review" if review_view() else "")
    with tab_read:
        if _open(tab_read):
            # The whole trace, every step marked; a sandboxed frame (opaque origin) so nothing in it
            # can reach the app, whatever the trace holds (every character is escaped besides).
            st.iframe(sandboxed(reading_html(rec["trace"] or "", _spans(rec["pk"], rev), step, view_link,
                                             set(matches))), height=560)
            st.caption(("the model's summary of its reasoning, not the reasoning itself · " if summary_trace else "")
                       + "red: invalid (hover for why) · green: valid · blue: self-correction · plain: not checked · "
                       "black outline: selected · yellow outline: search match · click a step to open it")
    with tab_tree:
        if _open(tab_tree):
            nodes = neighbourhood(outline, step, TREE_CAP)
            if len(nodes) < n_steps:
                st.caption(f"showing {len(nodes):,} of {n_steps:,} steps around step {step}")
            nodes_key = hashlib.blake2b(array("l", nodes).tobytes(), digest_size=16).hexdigest()
            page = _tree_page(rec["pk"], rev, nodes_key, tuple(matches), view_link, outline, nodes)
            st.iframe(sandboxed(tree_html(outline, nodes, step, page=page)), height=580)
            st.caption("red: invalid · green: valid · grey: not checked · black border: selected · "
                       "yellow border: search match · click a node to open its step")
    with tab_overview:
        if _open(tab_overview):
            st.plotly_chart(overview_figure(outline, step), width="stretch", key="overview")
            st.caption("blocks of 100 steps; red blocks hold invalid steps; click a block to zoom in")
    with tab_list:
        if _open(tab_list):
            lo = max(0, step - LIST_WINDOW // 2)
            rows = steps_of(eng, rec["pk"], lo, lo + LIST_WINDOW)
            frame = pd.DataFrame([{"step": r["idx"], "kind": r["kind"], "status": STATUS_LABELS.get(r["status"], r["status"] or "unchecked"),
                                   "rule": r["rule"] or "", "match": r["idx"] in matches,
                                   "text": (r["text"] or "")[:200], "message": r["message"] or ""} for r in rows])
            ids = [int(x) for x in frame["step"]] if len(frame) else []
            list_key = f"steplist-{lo}-{step}"

            def _row_picked(key: str = list_key, ids: list[int] = ids) -> None:
                rows_sel = st.session_state[key].selection.rows
                if rows_sel:
                    _select(ids[rows_sel[0]])

            st.dataframe(frame, hide_index=True, width="stretch", on_select=_row_picked,
                         selection_mode="single-row", key=list_key)
    with tab_answer:
        if _open(tab_answer):
            st.code(rec["answer"] or "(no answer)", language=None, wrap_lines=True)
            _answer_details()

_download_section()
_link_section(step)
_delete_section()
