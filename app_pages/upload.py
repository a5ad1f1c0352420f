"""Upload & audit: files in, verdicts out, with progress, per-record errors and reports."""

from __future__ import annotations

import io

import pandas as pd
import streamlit as st

from core.limits import current_limits
from core.record import GENERIC_DOMAIN
from metrics.outside_labels import read_judgments
from core.verdicts import TRACE_LABELS, trace_label
from records_io.report import summary, to_csv, to_html, to_json
from core.trace_kind import SUMMARY_BANNER, SUMMARY_LABEL, SUMMARY_NOTE, marked_label, verdict_is_summary
from db.column_maps import StoredColumnMaps
from db.outside import import_judgments
from db.queries import comments_for, verdict_rows
from app_pages import _upload_journal as journal
from app_pages._access import can_write
from app_pages._common import engine, go_to
from pipeline import audit_units
from sources.base import Options, SourceError
from sources.inputs import input_format, read_units, refusal
from sources.records import auto_chain
from validators.domain_names import UnknownDomains
from validators.registry import list_domains

st.title("Upload & audit")
if not can_write():
    # The page is not in a reader's navigation; this guards a session whose rights changed.
    st.warning("Uploading needs the owner's rights on this server; this session is read-only.")
    st.stop()

limits = current_limits()
st.caption("JSONL (one record per line), a JSON record or array, a plain-text trace, chat-completion "
           "responses, verl / TRL rollout dumps, step-labelled dataset rows, lm-evaluation-harness sample logs "
           "(`samples_<task>_<date>.jsonl`), Inspect eval logs (`.eval` or `.json`; the inspect extra) or a Parquet table (a Hugging Face dataset's shard), each detected "
           f"from the file as `cli.py audit` does. Up to {limits.max_upload_bytes / 2**20:.0f} MB per file and "
           f"{limits.max_records_per_upload:,} records per upload.")

interrupted = journal.interrupted_report(st.session_state)
if interrupted:
    st.warning("**Your last upload stopped before its end** (the page was left or reloaded while it ran):\n"
               + "\n".join(f"* {line}" for line in interrupted)
               + "\n\nUpload the unfinished files again to complete them: records already stored are not "
               "stored twice, and any stored without a verdict get one.", icon=":material/warning:")
    if st.button("Dismiss", key="dismiss_interrupted"):
        journal.dismiss(st.session_state)
        st.rerun()

files = st.file_uploader("Trace files", type=["jsonl", "ndjson", "json", "txt", "md", "log", "parquet", "eval"],
                         accept_multiple_files=True)
c1, c2 = st.columns(2)
DOMAINS = [spec.name for spec in list_domains()]
domain = c1.selectbox("Domain for records that do not name one (and for text files)", DOMAINS,
                      index=DOMAINS.index("freeform") if "freeform" in DOMAINS else 0)
fmt = c2.selectbox("Read files as", ["auto", "jsonl", "json", "text", "parquet", "eval"],
                   help="auto: by file extension, else by content")

if st.button("Audit", type="primary", disabled=not files):
    eng = engine()
    all_outcomes = []
    notes: list[str] = []
    refusals: list[str] = []
    read_as: list[str] = []
    journal.start(st.session_state, [up.name for up in files or []])
    for n_file, up in enumerate(files or []):
        data = up.getvalue()
        if len(data) > limits.max_upload_bytes:
            st.error(f"{up.name}: {len(data) / 2**20:.1f} MB is over the upload limit of "
                     f"{limits.max_upload_bytes / 2**20:.0f} MB; nothing from it was read.")
            journal.file_done(st.session_state, n_file, refused=True)
            continue
        stream = io.BufferedReader(io.BytesIO(data), buffer_size=1 << 20)
        kind = input_format(stream, up.name, fmt)
        refused = refusal(stream, up.name, kind)
        if refused:
            refusals.append(refused)
            journal.file_done(st.session_state, n_file, refused=True)
            continue
        # The same reading as `cli.py audit` (sources/inputs.py): the source detected from the
        # file (lm-eval samples, step-labelled rows, rollouts, chat completions, records), its
        # rows converted alike. The picker's default (freeform) does not override the task a
        # step-labelled row surely poses; it is only the last resort.
        generic = domain == GENERIC_DOMAIN
        options = Options(domain=None if generic else domain,
                          fallback=auto_chain(None if generic else domain, fallback=domain if generic else None),
                          memory=StoredColumnMaps(eng))  # a table's columns read as a --map said before
        try:
            plan, units = read_units(stream, up.name, None, kind, options, default_domain=domain)
        except SourceError as exc:
            refusals.append(f"{up.name}: {exc}")
            journal.file_done(st.session_state, n_file, refused=True)
            continue
        read_as.append(f"{up.name}: {plan.source} ({plan.reason})"
                       + "".join(f"; {label} {value}" for label, value in plan.notes))
        estimate = plan.total or (max(1, data.count(b"\n") + 1) if kind == "jsonl" else 1)
        bar = st.progress(0.0, text=f"{up.name}: starting")

        def progress(done: int, _bar=bar, _name=up.name, _est=estimate) -> None:
            _bar.progress(min(1.0, done / _est), text=f"{_name}: {done:,} records audited")

        outcomes = []
        unknown = UnknownDomains()
        for i, outcome in enumerate(audit_units(units, eng, source=up.name, on_progress=progress)):
            if i >= limits.max_records_per_upload:
                st.warning(f"{up.name}: stopped after {limits.max_records_per_upload:,} records "
                           "(STEPSCOPE_MAX_RECORDS); the rest of the file was not read.")
                break
            outcomes.append(outcome)
            journal.progress(st.session_state, n_file, len(outcomes), outcome.unit_line)
            if outcome.error is None:
                unknown.add(outcome.verdict.get("domain"))
        notes.extend(unknown.notes(up.name))
        bar.progress(1.0, text=f"{up.name}: {len(outcomes):,} records audited")
        journal.file_done(st.session_state, n_file)
        all_outcomes.extend(outcomes)
    st.session_state["last_upload_pks"] = [o.record_pk for o in all_outcomes]
    st.session_state["last_upload_errors"] = [
        {"file line": o.unit_line, "id": o.verdict.get("id"),
         "problem": o.error or "; ".join(e["message"] for e in o.verdict["parse"]["errors"])}
        for o in all_outcomes if o.error or not o.verdict["parse"]["ok"]
    ]
    st.session_state["last_upload_new"] = sum(o.new for o in all_outcomes)
    st.session_state["last_upload_notes"] = notes
    st.session_state["last_upload_refused"] = refusals
    st.session_state["last_upload_read_as"] = read_as
    journal.finish(st.session_state)

for refusal in st.session_state.get("last_upload_refused") or []:
    st.error(refusal)
for note in st.session_state.get("last_upload_notes") or []:
    st.warning(note)
if st.session_state.get("last_upload_read_as"):
    st.caption("Read as: " + " · ".join(st.session_state["last_upload_read_as"]))

pks = st.session_state.get("last_upload_pks")
if pks:
    eng = engine()
    seen: set[int] = set()
    ordered = [pk for pk in pks if not (pk in seen or seen.add(pk))]
    rows = verdict_rows(eng, pks=ordered)
    s = summary(rows)
    st.subheader("Summary")
    m = st.columns(5)
    m[0].metric("Records", f"{s['records']:,}")
    m[1].metric("New", f"{st.session_state.get('last_upload_new', 0):,}")
    m[2].metric("Answers correct", f"{s['answers'].get('correct', 0):,}")
    m[3].metric("Answers wrong", f"{s['answers'].get('wrong', 0):,}")
    m[4].metric("Unreadable", f"{s['unreadable']:,}")
    t = st.columns(5)
    for col, name in zip(t, TRACE_LABELS.values()):
        col.metric(f"Traces {name}", f"{s['traces'].get(name, 0):,}")
    if s["summaries"]:
        st.info(f"{s['summaries']:,} record(s) hold a {SUMMARY_LABEL} (marked so in the table below): "
                f"{SUMMARY_BANNER} {SUMMARY_NOTE}", icon=":material/summarize:")
    if s["gaps"]:
        st.dataframe(pd.DataFrame(sorted(s["gaps"].items()), columns=["gap", "traces"]), hide_index=True)
    errors = st.session_state.get("last_upload_errors") or []
    if errors:
        st.subheader(f"Problems in {len(errors):,} input(s)")
        st.caption("Every other record went through; problem inputs are stored verbatim.")
        st.dataframe(pd.DataFrame(errors), hide_index=True, width="stretch")
    table = pd.DataFrame([{"share_id": r["share_id"], "id": r["record_id"], "domain": r["domain"],
                           "model": r["model"],
                           "answer": {True: "correct", False: "wrong"}.get((r["verdict"] or {}).get("answer_correct"),
                                                                           "undecided"),
                           "trace": marked_label(trace_label((r["verdict"] or {}).get("trace_check"),
                                                             (r["verdict"] or {}).get("trace_valid")),
                                                 verdict_is_summary(r["verdict"])),
                           "first invalid": (r["verdict"] or {}).get("first_invalid_step")} for r in rows])
    st.subheader("Records")
    picked = st.dataframe(table.drop(columns=["share_id"]), hide_index=True, width="stretch",
                          on_select="rerun", selection_mode="single-row", key="upload_table")
    if picked and picked.selection and picked.selection.rows:
        go_to("explorer", trace=table.iloc[picked.selection.rows[0]]["share_id"])
    st.page_link("app_pages/stored.py", label="Remove an upload, or some of its records", icon=":material/delete:")
    with_comments = st.checkbox("Include reviewer comments in reports", value=True)
    comments = comments_for(eng, ordered) if with_comments else None
    d1, d2, d3 = st.columns(3)
    d1.download_button("Report (CSV)", to_csv(rows, comments), "stepscope-report.csv", "text/csv")
    d2.download_button("Report (JSON)", to_json(rows, comments), "stepscope-report.json", "application/json")
    app_base = (st.context.url or "").split("?", 1)[0].rstrip("/").rsplit("/", 1)[0]
    d3.download_button("Report (HTML)", to_html(rows, comments, base_url=app_base), "stepscope-report.html",
                       "text/html")

with st.expander("Import outside judgments (a PRM's per-step scores, an LLM judge's first mistakes)"):
    st.caption('JSONL joined to stored records by id, one line per trace and source, as `cli.py labels import`: '
               '`{"id": ..., "source": "my-prm", "step_scores": [0.9, 0.2, ...]}` or '
               '`{"id": ..., "source": "my-judge", "first_mistake": 3}` (null: no mistake). '
               "Shown in the explorer beside our verdicts; a re-import of a source replaces it.")
    judged = st.file_uploader("Judgments file", type=["jsonl", "ndjson"], key="judgments_file")
    if st.button("Import judgments", disabled=judged is None) and judged is not None:
        if not can_write():  # rights are checked again at the moment of writing
            st.error("Importing needs the owner's rights on this server.")
            st.stop()
        good, bad = read_judgments(io.BytesIO(judged.getvalue()))
        report = import_judgments(engine(), good)
        st.success(f"{report.imported:,} judgment(s) of {report.records:,} record(s) imported.")
        problems = ([{"file line": n, "problem": m} for n, m in bad + report.ambiguous + report.warnings]
                    + [{"file line": n, "problem": f"no stored record has id {rid!r}"} for n, rid in report.unknown])
        if problems:
            st.dataframe(pd.DataFrame(sorted(problems, key=lambda p: p["file line"])), hide_index=True,
                         width="stretch")
