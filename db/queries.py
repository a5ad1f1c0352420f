"""Read-only queries the pages use. Pages never parse traces; they read what the audit stored."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ARRAY, Integer, and_, case, false, func, select, text
from sqlalchemy import bindparam as sa_bindparam
from sqlalchemy.engine import Engine

from db import tally
from db.meta_filter import meta_condition, meta_keys, meta_values
from db.search import parse_query, snippet, step_condition
from core.verdicts import TRACE_LABELS, trace_label
from db.trace_kinds import KIND_META, flag_summary
from db.store import COMMENT, GAP, RECORD, STEP, STEP_VERDICT, TRACE_VERDICT
from validators.registry import get_domain


@dataclass(frozen=True)
class CorpusCounts:
    records: int
    malformed: int
    by_domain: dict[str, int]
    by_model: dict[str, int]
    answer: dict[str, int]
    trace: dict[str, int]


def _label(value: bool | None) -> str:
    return {True: "yes", False: "no", None: "undecided"}[value]


def corpus_counts(engine: Engine) -> CorpusCounts:
    """Aggregates in SQL: never loads the corpus to count it."""
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(RECORD)).scalar_one()
        malformed = conn.execute(select(func.count()).select_from(RECORD)
                                 .where(RECORD.c.status != "ok")).scalar_one()
        by_domain = dict(conn.execute(select(RECORD.c.domain, func.count()).group_by(RECORD.c.domain)).all())
        by_model = {m or "(unknown)": c for m, c in conn.execute(
            select(RECORD.c.model, func.count()).group_by(RECORD.c.model)).all()}
        answer = {_label(v): c for v, c in conn.execute(
            select(TRACE_VERDICT.c.answer_correct, func.count()).group_by(TRACE_VERDICT.c.answer_correct)).all()}
        trace: dict[str, int] = {}
        for v, check, c in conn.execute(select(TRACE_VERDICT.c.trace_valid, TRACE_VERDICT.c.trace_check, func.count())
                                        .group_by(TRACE_VERDICT.c.trace_valid, TRACE_VERDICT.c.trace_check)):
            name = {True: "yes", False: "no"}.get(v, trace_label(check, v))
            trace[name] = trace.get(name, 0) + c
    return CorpusCounts(total, malformed, by_domain, by_model, answer, trace)


def recent_traces(engine: Engine, limit: int = 20) -> list[dict[str, Any]]:
    stmt = (
        select(RECORD.c.share_id, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model, RECORD.c.status,
               TRACE_VERDICT.c.n_steps, TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_valid, TRACE_VERDICT.c.trace_check,
               TRACE_VERDICT.c.n_invalid, RECORD.c.created_at, KIND_META)
        .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
        .order_by(RECORD.c.pk.desc()).limit(limit)
    )
    with engine.connect() as conn:
        return [flag_summary(dict(r._mapping)) for r in conn.execute(stmt)]


def trace_by_share_id(engine: Engine, share_id: str) -> dict[str, Any] | None:
    """One trace with its verdict, by the random id used in links (never by sequential pk)."""
    stmt = (
        select(RECORD, TRACE_VERDICT.c.verdict_json, TRACE_VERDICT.c.validator,
               TRACE_VERDICT.c.audited_at, TRACE_VERDICT.c.notes_json, TRACE_VERDICT.c.trace_check)
        .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
        .where(RECORD.c.share_id == share_id)
    )
    with engine.connect() as conn:
        row = conn.execute(stmt).first()
    if row is None:
        return None
    out = dict(row._mapping)
    out["verdict"] = json.loads(out.pop("verdict_json")) if out.get("verdict_json") else None
    out["notes"] = json.loads(out.pop("notes_json")) if out.get("notes_json") else {}
    out["problem"] = json.loads(out.pop("problem_json") or "{}")
    out["meta"] = json.loads(out.pop("meta_json") or "{}")
    out["reference_labels"] = json.loads(out.pop("labels_json", None) or "{}")
    return out


def steps_of(engine: Engine, record_pk: int, lo: int = 0, hi: int | None = None) -> list[dict[str, Any]]:
    """Steps [lo, hi) with their verdict status, rule and message (left join)."""
    names = ("idx", "kind", "start", "end", "parent", "text", "payload_json", "status", "rule", "message",
             "consequence_of")
    rows = _steps_with_verdicts(engine, record_pk, [STEP.c.kind, STEP.c.start, STEP.c.end, STEP.c.parent, STEP.c.text,
                                                    STEP.c.payload_json],
                                [STEP_VERDICT.c.status, STEP_VERDICT.c.rule, STEP_VERDICT.c.message,
                                 STEP_VERDICT.c.consequence_of], lo, hi)
    return [dict(zip(names, r)) for r in rows]


def comments_of(engine: Engine, record_pk: int) -> list[dict[str, Any]]:
    stmt = select(COMMENT).where(COMMENT.c.record_pk == record_pk).order_by(COMMENT.c.created_at, COMMENT.c.id)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]




def search_steps(engine: Engine, query: str, limit: int = 50, record_pk: int | None = None) -> list[dict[str, Any]]:
    """Steps matching the search syntax of db/search.py (phrases), in trace order, each with a
    snippet around the match; a query with an error or a record id finds no step."""
    parsed = parse_query(query)
    if not parsed.phrases:
        return []
    with engine.connect() as conn:
        join, cond, params = step_condition(conn, parsed)
        scope = "AND s.record_pk = :pk" if record_pk is not None else ""
        sql = text("SELECT s.record_pk, s.idx, r.share_id, r.domain, r.model, s.text FROM step s "
                   f"{join} JOIN record r ON r.pk = s.record_pk WHERE {cond} {scope} "
                   "ORDER BY s.record_pk, s.idx LIMIT :lim")
        rows = [dict(r._mapping) for r in conn.execute(sql, {**params, "lim": limit, "pk": record_pk})]
    for row in rows:
        row["snippet"] = snippet(row.pop("text"), parsed)
    return rows


def first_hits(engine: Engine, pks: list[int], query: str) -> dict[int, dict[str, Any]]:
    """Per record, its first step matching `query` and a snippet around the match (the corpus
    table's "match" column); a record found by its id gets a note instead."""
    parsed = parse_query(query)
    if not pks or not parsed.phrases:
        return {}
    out: dict[int, dict[str, Any]] = {}
    with engine.connect() as conn:
        join, cond, params = step_condition(conn, parsed)
        keys = ", ".join(str(int(pk)) for pk in pks)
        sql = text(f"SELECT s.record_pk, s.idx, s.text FROM step s {join} WHERE s.record_pk IN ({keys}) AND {cond} "
                   "ORDER BY s.record_pk, s.idx")
        for pk, idx, body in conn.execute(sql, params):
            if pk not in out:
                out[pk] = {"step": idx, "snippet": snippet(body, parsed)}
    return out


def gap_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(select(GAP.c.kind, func.count()).group_by(GAP.c.kind)).all())


# --- explorer -------------------------------------------------------------------------------

def _verdicts_by_step(conn: Any, record_pk: int, columns: list[Any], lo: int = 0,
                      hi: int | None = None) -> dict[int, tuple]:
    """Step verdict columns by step index for steps [lo, hi). Read apart from the steps and joined
    here: step_verdict is indexed by record only, so SQLite's nested-loop left join scanned every
    verdict of the record once per step (quadratic: 0.2 s for a 1,300-step trace)."""
    cond = [STEP_VERDICT.c.record_pk == record_pk, STEP_VERDICT.c.step_idx >= lo]
    if hi is not None:
        cond.append(STEP_VERDICT.c.step_idx < hi)
    return {r[0]: tuple(r[1:]) for r in conn.execute(select(STEP_VERDICT.c.step_idx, *columns).where(*cond))}


def _steps_with_verdicts(engine: Engine, record_pk: int, step_cols: list[Any], verdict_cols: list[Any],
                         lo: int = 0, hi: int | None = None) -> list[tuple]:
    """(step columns..., verdict columns...) of steps [lo, hi) in order; verdict columns None
    for a step without a verdict (a left join)."""
    cond = [STEP.c.record_pk == record_pk, STEP.c.idx >= lo]
    if hi is not None:
        cond.append(STEP.c.idx < hi)
    missing = (None,) * len(verdict_cols)
    with engine.connect() as conn:
        verdicts = _verdicts_by_step(conn, record_pk, verdict_cols, lo, hi)
        rows = conn.execute(select(STEP.c.idx, *step_cols).where(*cond).order_by(STEP.c.idx)).all()
    return [(r[0], *r[1:], *verdicts.get(r[0], missing)) for r in rows]


def step_outline(engine: Engine, record_pk: int) -> list[tuple[int, int | None, str, str | None, str | None, str]]:
    """(idx, parent, kind, status, rule, text head) for every step: the tree and the overview."""
    rows = _steps_with_verdicts(engine, record_pk, [STEP.c.parent, STEP.c.kind, func.substr(STEP.c.text, 1, 160)],
                                [STEP_VERDICT.c.status, STEP_VERDICT.c.rule])
    return [(idx, parent, kind, status, rule, head) for idx, parent, kind, head, status, rule in rows]


def step_payloads(engine: Engine, record_pk: int, hi: int) -> list[tuple[int, str, str | None, str | None]]:
    """(idx, kind, payload JSON, status) of steps [0, hi): what a state picture replays."""
    return _steps_with_verdicts(engine, record_pk, [STEP.c.kind, STEP.c.payload_json], [STEP_VERDICT.c.status],
                                hi=hi)  # type: ignore[return-value]


def step_spans(engine: Engine, record_pk: int) -> list[tuple[int, int, int, str | None, str | None]]:
    """(idx, start, end, status, message) of every step, for the reading view."""
    return _steps_with_verdicts(engine, record_pk, [STEP.c.start, STEP.c.end],
                                [STEP_VERDICT.c.status, STEP_VERDICT.c.message])  # type: ignore[return-value]


def step_states(engine: Engine, record_pk: int) -> dict[int, Any]:
    """The replay's state snapshot of every step that has one, by step index (the thinking map
    reads each claim's line of reasoning from them)."""
    stmt = (select(STEP.c.idx, STEP.c.state_json)
            .where(STEP.c.record_pk == record_pk, STEP.c.state_json.is_not(None)).order_by(STEP.c.idx))
    with engine.connect() as conn:
        return {idx: json.loads(raw) for idx, raw in conn.execute(stmt) if raw}


def latest_state(engine: Engine, record_pk: int, idx: int) -> tuple[int, Any] | None:
    """(step, state) of the last step at or before `idx` with a state snapshot: the state a
    picture shows at a step that changes nothing (prose between two moves)."""
    stmt = (select(STEP.c.idx, STEP.c.state_json)
            .where(STEP.c.record_pk == record_pk, STEP.c.idx <= idx, STEP.c.state_json.is_not(None))
            .order_by(STEP.c.idx.desc()).limit(1))
    with engine.connect() as conn:
        row = conn.execute(stmt).first()
    return (row[0], json.loads(row[1])) if row and row[1] else None


def step_detail(engine: Engine, record_pk: int, idx: int) -> dict[str, Any] | None:
    stmt = (
        select(STEP, STEP_VERDICT.c.status, STEP_VERDICT.c.rule, STEP_VERDICT.c.message,
               STEP_VERDICT.c.expected_json, STEP_VERDICT.c.found_json, STEP_VERDICT.c.consequence_of)
        .select_from(STEP.outerjoin(STEP_VERDICT, and_(STEP_VERDICT.c.record_pk == STEP.c.record_pk,
                                                       STEP_VERDICT.c.step_idx == STEP.c.idx)))
        .where(STEP.c.record_pk == record_pk, STEP.c.idx == idx)
    )
    with engine.connect() as conn:
        row = conn.execute(stmt).first()
    if row is None:
        return None
    out = dict(row._mapping)
    for key in ("payload_json", "links_json", "state_json", "expected_json", "found_json"):
        raw = out.pop(key, None)
        out[key[:-5]] = json.loads(raw) if raw else None
    return out


# --- corpus ---------------------------------------------------------------------------------

ANSWER_CHOICES = {"correct": True, "wrong": False, "undecided": None}
# The corpus filter's trace outcomes, by their one name (core.verdicts.TRACE_LABELS).
TRACE_CHOICES = {label: check for check, label in TRACE_LABELS.items()}


@dataclass(frozen=True)
class CorpusFilter:
    """Every corpus filter; all of it round-trips through the page URL."""

    models: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    answer: str | None = None
    trace: str | None = None
    gap: str | None = None
    q: str = ""
    rule: str | None = None  # traces with an invalid step of this rule ("(unnamed)": no rule)
    pos: float | None = None  # traces whose first invalid step starts this 1/POS_BINS slice of the trace
    meta_key: str | None = None  # traces whose meta has this key (db/meta_filter.py) ...
    meta_value: str | None = None  # ... with this value (its text form; None: any value)
    label: str | None = None  # traces with a comment carrying this label (db/comment_labels.py)


POS_BINS = tally.POS_BINS


def _filter_conditions(conn: Any, f: CorpusFilter) -> list[Any]:
    conds: list[Any] = []
    if f.models:
        named = [m for m in f.models if m != "(unknown)"]
        model_cond = RECORD.c.model.in_(named)
        conds.append(model_cond | RECORD.c.model.is_(None) if "(unknown)" in f.models else model_cond)
    if f.domains:
        conds.append(RECORD.c.domain.in_(f.domains))
    if f.answer in ANSWER_CHOICES:
        value = ANSWER_CHOICES[f.answer]
        conds.append(TRACE_VERDICT.c.answer_correct.is_(None) if value is None
                     else TRACE_VERDICT.c.answer_correct == value)
    if f.trace in TRACE_CHOICES:
        check = TRACE_CHOICES[f.trace]
        column = TRACE_VERDICT.c.trace_check
        conds.append((column == check) | column.is_(None) if check == "not_checked" else column == check)
    if f.gap:
        conds.append(RECORD.c.pk.in_(select(GAP.c.record_pk).where(GAP.c.kind == f.gap)))
    if f.rule:
        rule_cond = STEP_VERDICT.c.rule.is_(None) if f.rule == "(unnamed)" else STEP_VERDICT.c.rule == f.rule
        conds.append(RECORD.c.pk.in_(select(STEP_VERDICT.c.record_pk).where(STEP_VERDICT.c.status == "invalid",
                                                                            rule_cond)))
    if f.pos is not None:
        lo = round(f.pos * POS_BINS) / POS_BINS
        hi = lo + 1 / POS_BINS
        rel = TRACE_VERDICT.c.first_invalid_rel
        conds.append((rel >= lo) & ((rel < hi) if hi < 1 - 1e-9 else (rel <= 1)))
    if f.label:
        conds.append(RECORD.c.pk.in_(select(COMMENT.c.record_pk).where(COMMENT.c.label == f.label)))
    if f.meta_key:
        sub = meta_condition(conn, f.meta_key, f.meta_value)
        conds.append(RECORD.c.pk.in_(sub.columns(pk=RECORD.c.pk.type)))
    parsed = parse_query(f.q)
    if parsed.error:
        conds.append(false())  # a query that cannot be searched matches nothing (the page says why)
    elif parsed.record_id is not None:
        conds.append(RECORD.c.record_id == parsed.record_id)
    elif parsed.phrases:
        join, cond, params = step_condition(conn, parsed)
        sub = text(f"SELECT s.record_pk FROM step s {join} WHERE {cond}").bindparams(**params)
        # a plain query that is a record's id finds that record too
        conds.append(RECORD.c.pk.in_(sub.columns(record_pk=RECORD.c.pk.type)) | (RECORD.c.record_id == f.q.strip()))
    return conds


def _joined():
    return RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk)


def filter_options(engine: Engine, from_rows: bool = False) -> dict[str, list[str]]:
    """What each filter offers. From the writers' tallies (db/tally.py) unless `from_rows`:
    DISTINCT over every record cost a scan per page view."""
    with engine.connect() as conn:
        if not from_rows:
            got = tally.options(conn)
            return {"models": sorted(m or "(unknown)" for m in got["models"]), "domains": sorted(got["domains"]),
                    "gaps": sorted(got["gaps"]), "rules": sorted(r or "(unnamed)" for r in got["rules"])}
        models = [m or "(unknown)" for (m,) in conn.execute(select(RECORD.c.model).distinct())]
        domains = [d for (d,) in conn.execute(select(RECORD.c.domain).distinct())]
        gaps = [g for (g,) in conn.execute(select(GAP.c.kind).distinct())]
        rules = [r or "(unnamed)" for (r,) in conn.execute(
            select(STEP_VERDICT.c.rule).where(STEP_VERDICT.c.status == "invalid").distinct())]
    return {"models": sorted(models), "domains": sorted(domains), "gaps": sorted(gaps), "rules": sorted(rules)}


def meta_options(engine: Engine, key: str | None = None) -> list[str] | list[tuple[str, int]]:
    """The meta keys present (no key), or one key's values with their record counts."""
    with engine.connect() as conn:
        return meta_keys(conn) if key is None else meta_values(conn, key)


def _tallied(conn: Any, f: CorpusFilter, from_rows: bool) -> bool:
    """The unfiltered view is read from the writers' tallies (db/tally.py), any filter from rows."""
    return not from_rows and not _filter_conditions(conn, f)


def corpus_matrix(engine: Engine, f: CorpusFilter, from_rows: bool = False) -> list[dict[str, Any]]:
    """Counts per (model, answer_correct, trace outcome) over the filtered traces; `trace` is the
    outcome's name (core.verdicts.TRACE_LABELS)."""
    with engine.connect() as conn:
        if _tallied(conn, f, from_rows):
            rows = [(m, a, t, n) for m, a, t, n in tally.matrix(conn)]
        else:
            stmt = (select(RECORD.c.model, TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_check,
                           func.count().label("n"))
                    .select_from(_joined()).where(*_filter_conditions(conn, f))
                    .group_by(RECORD.c.model, TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_check))
            rows = list(conn.execute(stmt))
    merged: dict[tuple[str, str, str], int] = {}
    for m, a, t, n in rows:
        key = (m or "(unknown)", _label(a), trace_label(t))
        merged[key] = merged.get(key, 0) + int(n)
    return [{"model": m, "answer": a, "trace": t, "n": n} for (m, a, t), n in merged.items()]


def first_invalid_histogram(engine: Engine, f: CorpusFilter, bins: int = POS_BINS,
                            from_rows: bool = False) -> list[tuple[float, int]]:
    """How many traces first go wrong in each 1/bins slice of their length."""
    with engine.connect() as conn:
        if bins == tally.POS_BINS and _tallied(conn, f, from_rows):
            return [(b / bins, n) for b, n in tally.first_invalid_bins(conn)]
        bucket = func.min(func.floor(TRACE_VERDICT.c.first_invalid_rel * bins), bins - 1)
        if conn.dialect.name == "postgresql":
            bucket = func.least(func.floor(TRACE_VERDICT.c.first_invalid_rel * bins), bins - 1)
        stmt = (select(bucket.label("b"), func.count()).select_from(_joined())
                .where(TRACE_VERDICT.c.first_invalid_rel.is_not(None), *_filter_conditions(conn, f))
                .group_by("b").order_by("b"))
        return [(float(b) / bins, n) for b, n in conn.execute(stmt)]


def invalid_by_rule(engine: Engine, f: CorpusFilter, limit: int = 30, from_rows: bool = False
                    ) -> list[tuple[str, int]]:
    """Invalid steps per rule, most first (ties by rule name)."""
    with engine.connect() as conn:
        if _tallied(conn, f, from_rows):
            return [(r or "(unnamed)", n) for r, n in tally.rules(conn, limit)]
        conds = _filter_conditions(conn, f)
        # Unfiltered, every step verdict counts: no membership test against every record.
        scope = [STEP_VERDICT.c.record_pk.in_(select(RECORD.c.pk).select_from(_joined()).where(*conds))] if conds else []
        stmt = (select(STEP_VERDICT.c.rule, func.count().label("n"))
                .where(STEP_VERDICT.c.status == "invalid", *scope)
                .group_by(STEP_VERDICT.c.rule).order_by(text("n DESC"), func.coalesce(STEP_VERDICT.c.rule, ""))
                .limit(limit))
        return [(r or "(unnamed)", n) for r, n in conn.execute(stmt)]


def length_sample(engine: Engine, f: CorpusFilter, limit: int = 3000) -> list[dict[str, Any]]:
    """A bounded sample of traces for the length-vs-correctness chart (each point opens a trace).

    Unfiltered, the sample is drawn by key: random record keys looked up by index, instead of
    sorting every trace by random() (the corpus page's first view over 1,000,000 traces,
    bench/bench_problems.py). Keys are dense, so the draw is near uniform; when deletions leave
    too few hits the sort is used."""
    cols = (RECORD.c.share_id, RECORD.c.record_id, RECORD.c.model, TRACE_VERDICT.c.n_steps,
            TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_valid)
    with engine.connect() as conn:
        conds = _filter_conditions(conn, f)
        if not conds:
            lo, hi = conn.execute(select(func.min(RECORD.c.pk), func.max(RECORD.c.pk))).one()
            if lo is not None and hi - lo + 1 > 4 * limit:
                rng = random.Random(hi)
                keys = sorted(set(rng.randint(lo, hi) for _ in range(2 * limit)))
                # One bound parameter for all keys (as db.store does): a 6,000-item IN list costs more to render.
                if conn.dialect.name == "sqlite":
                    among = RECORD.c.pk.in_(text("SELECT value FROM json_each(:keys)").bindparams(keys=json.dumps(keys))
                                            .columns(value=RECORD.c.pk.type))
                else:
                    among = RECORD.c.pk == func.any(sa_bindparam("keys", keys, type_=ARRAY(Integer)))
                rows = [dict(r._mapping) for r in conn.execute(
                    select(*cols).select_from(_joined()).where(TRACE_VERDICT.c.n_steps > 0, among))]
                if len(rows) >= limit // 2:
                    return rows[:limit]
        stmt = (select(*cols).select_from(_joined()).where(TRACE_VERDICT.c.n_steps > 0, *conds)
                .order_by(func.random()).limit(limit))
        return [dict(r._mapping) for r in conn.execute(stmt)]


def count_traces(engine: Engine, f: CorpusFilter, from_rows: bool = False) -> int:
    with engine.connect() as conn:
        if _tallied(conn, f, from_rows):
            return tally.total(conn)
        return conn.execute(select(func.count()).select_from(_joined())
                            .where(*_filter_conditions(conn, f))).scalar_one()


def list_traces(engine: Engine, f: CorpusFilter, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
    """One page of the corpus table; `trace_summary`: the trace is a summary of hidden reasoning."""
    with engine.connect() as conn:
        stmt = (select(RECORD.c.pk, RECORD.c.share_id, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model,
                       RECORD.c.status, TRACE_VERDICT.c.n_steps, TRACE_VERDICT.c.answer_correct,
                       TRACE_VERDICT.c.trace_valid, TRACE_VERDICT.c.trace_check,
                       TRACE_VERDICT.c.first_invalid_step, TRACE_VERDICT.c.n_invalid,
                       TRACE_VERDICT.c.answer_error_kind, KIND_META)
                .select_from(_joined()).where(*_filter_conditions(conn, f))
                .order_by(RECORD.c.pk.desc()).limit(limit).offset(offset))
        return [flag_summary(dict(r._mapping)) for r in conn.execute(stmt)]


def filtered_pks(engine: Engine, f: CorpusFilter, limit: int | None = None) -> list[int]:
    """The records a corpus view shows, in record order (for exports of that view)."""
    with engine.connect() as conn:
        stmt = select(RECORD.c.pk).select_from(_joined()).where(*_filter_conditions(conn, f)).order_by(RECORD.c.pk)
        if limit is not None:
            stmt = stmt.limit(limit)
        return [pk for (pk,) in conn.execute(stmt)]


def data_revision(engine: Engine) -> tuple[str, int, int, str]:
    """Changes whenever the database, its records, verdicts or comments change: the key for
    cached page queries (pages pass it as a hashed argument)."""
    with engine.connect() as conn:
        # The record count from the tallies, which change with it in every writer's transaction:
        # COUNT(*) scanned an index of every record on each page view.
        records = tally.total(conn)
        top = conn.execute(select(func.max(RECORD.c.pk))).scalar()
        audited = conn.execute(select(func.max(TRACE_VERDICT.c.audited_at))).scalar()
        comments = conn.execute(select(func.count()).select_from(COMMENT)).scalar_one()
    return (engine.url.render_as_string(hide_password=True), records,
            int(top or 0) * 1_000_003 + int(comments), str(audited))


def verdict_rows(engine: Engine, share_ids: list[str] | None = None, pks: list[int] | None = None
                 ) -> list[dict[str, Any]]:
    """Stored verdicts (with record fields) for reports, in record order."""
    stmt = (select(RECORD.c.pk, RECORD.c.share_id, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model,
                   RECORD.c.status, RECORD.c.error, RECORD.c.line_no, TRACE_VERDICT.c.verdict_json, RECORD.c.meta_json,
                   TRACE_VERDICT.c.trace_check)
            .select_from(_joined()).order_by(RECORD.c.pk))
    if share_ids is not None:
        stmt = stmt.where(RECORD.c.share_id.in_(share_ids))
    if pks is not None:
        stmt = stmt.where(RECORD.c.pk.in_(pks))
    with engine.connect() as conn:
        out = []
        for r in conn.execute(stmt):
            row = dict(r._mapping)
            row["verdict"] = json.loads(row.pop("verdict_json")) if row.get("verdict_json") else None
            check = row.pop("trace_check")
            if row["verdict"] is not None and check:  # verdicts stored before the field existed
                row["verdict"].setdefault("trace_check", check)
            meta = row.pop("meta_json") or ""
            # An RL rollout's rewards (rewards/rollouts.py) go beside its verdict in every report.
            rollout = json.loads(meta).get("rollout") if '"rollout"' in meta else None
            row["rollout"] = rollout if isinstance(rollout, dict) else None
            out.append(row)
        return out


def comments_for(engine: Engine, pks: list[int]) -> dict[int, list[dict[str, Any]]]:
    if not pks:
        return {}
    stmt = select(COMMENT).where(COMMENT.c.record_pk.in_(pks)).order_by(COMMENT.c.created_at, COMMENT.c.id)
    out: dict[int, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for r in conn.execute(stmt):
            out.setdefault(r.record_pk, []).append(dict(r._mapping))
    return out


# --- length generalisation (app_pages/lengths.py) -------------------------------------------

def length_domains(engine: Engine) -> list[tuple[str, str]]:
    """(domain, what its length counts) for the stored domains whose problems have a length
    (DomainSpec.problem_length: last_letter, multiplication)."""
    with engine.connect() as conn:
        stored = [d for (d,) in conn.execute(select(RECORD.c.domain).distinct())]
    specs = {spec.name: spec for spec in (get_domain(d) for d in stored) if spec and spec.problem_length}
    return sorted((name, spec.length_label) for name, spec in specs.items())


def length_curves(engine: Engine, domain: str) -> list[dict[str, Any]]:
    """Per model and problem length: records, answers right / wrong / undecided, traces with an
    invalid step, and the mean first invalid step (index, and fraction of the trace). Counted in
    SQL per distinct problem; each problem's length comes from its domain's own reader, so a
    problem written without a length field still counts. Problems it cannot read are left out."""
    spec = get_domain(domain)
    if spec is None or spec.problem_length is None:
        return []
    tv = TRACE_VERDICT.c
    first = tv.first_invalid_step
    stmt = (select(RECORD.c.model, RECORD.c.problem_json, func.count().label("n"),
                   func.sum(case((tv.answer_correct == True, 1), else_=0)),  # noqa: E712 - SQL boolean
                   func.sum(case((tv.answer_correct == False, 1), else_=0)),  # noqa: E712
                   func.sum(case((tv.trace_valid == False, 1), else_=0)),  # noqa: E712
                   func.count(first), func.sum(first), func.sum(tv.first_invalid_rel), func.sum(tv.n_steps))
            .select_from(_joined())
            .where(RECORD.c.domain.in_([spec.name, *spec.aliases]), RECORD.c.status == "ok")
            .group_by(RECORD.c.model, RECORD.c.problem_json))
    lengths: dict[str, int | None] = {}
    acc: dict[tuple[str, int], list[float]] = {}
    with engine.connect() as conn:
        for model, problem_json, n, right, wrong, invalid, n_first, sum_first, sum_rel, steps in conn.execute(stmt):
            if problem_json not in lengths:
                try:
                    lengths[problem_json] = spec.problem_length(json.loads(problem_json or "{}"))
                except ValueError:
                    lengths[problem_json] = None
            length = lengths[problem_json]
            if length is None:
                continue
            row = acc.setdefault((model or "(unknown)", length), [0.0] * 8)
            for i, value in enumerate((n, right, wrong, invalid, n_first, sum_first, sum_rel, steps)):
                row[i] += float(value or 0)
    out = []
    for (model, length), (n, right, wrong, invalid, n_first, sum_first, sum_rel, steps) in sorted(acc.items()):
        out.append({"model": model, "length": length, "records": int(n), "correct": int(right), "wrong": int(wrong),
                    "undecided": int(n - right - wrong), "accuracy": right / n, "invalid_traces": int(invalid),
                    "with_invalid_step": int(n_first),
                    "first_invalid_mean": sum_first / n_first if n_first else None,
                    "first_invalid_rel_mean": sum_rel / n_first if n_first else None,
                    "steps_mean": steps / n})
    return out


def labelled_verdicts(engine: Engine) -> list[tuple[str, str, dict[str, Any], int | None]]:
    """(source, domain, reference labels, first invalid step) of every stored record that came with labels."""
    stmt = (
        select(RECORD.c.source, RECORD.c.domain, RECORD.c.labels_json, TRACE_VERDICT.c.first_invalid_step)
        .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
        .where(RECORD.c.labels_json.is_not(None))
        .order_by(RECORD.c.pk)
    )
    with engine.connect() as conn:
        return [(source or "", domain or "", json.loads(labels), first)
                for source, domain, labels, first in conn.execute(stmt)]
