"""Read-only queries the pages use. Pages never parse traces; they read what the audit stored."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select, text
from sqlalchemy.engine import Engine

from db.store import COMMENT, GAP, RECORD, STEP, STEP_VERDICT, TRACE_VERDICT


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
        trace = {_label(v): c for v, c in conn.execute(
            select(TRACE_VERDICT.c.trace_valid, func.count()).group_by(TRACE_VERDICT.c.trace_valid)).all()}
    return CorpusCounts(total, malformed, by_domain, by_model, answer, trace)


def recent_traces(engine: Engine, limit: int = 20) -> list[dict[str, Any]]:
    stmt = (
        select(RECORD.c.share_id, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model, RECORD.c.status,
               TRACE_VERDICT.c.n_steps, TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_valid,
               TRACE_VERDICT.c.n_invalid, RECORD.c.created_at)
        .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
        .order_by(RECORD.c.pk.desc()).limit(limit)
    )
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]


def trace_by_share_id(engine: Engine, share_id: str) -> dict[str, Any] | None:
    """One trace with its verdict, by the random id used in links (never by sequential pk)."""
    stmt = (
        select(RECORD, TRACE_VERDICT.c.verdict_json, TRACE_VERDICT.c.validator,
               TRACE_VERDICT.c.audited_at)
        .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
        .where(RECORD.c.share_id == share_id)
    )
    with engine.connect() as conn:
        row = conn.execute(stmt).first()
    if row is None:
        return None
    out = dict(row._mapping)
    out["verdict"] = json.loads(out.pop("verdict_json")) if out.get("verdict_json") else None
    out["problem"] = json.loads(out.pop("problem_json") or "{}")
    out["meta"] = json.loads(out.pop("meta_json") or "{}")
    return out


def steps_of(engine: Engine, record_pk: int, lo: int = 0, hi: int | None = None) -> list[dict[str, Any]]:
    """Steps [lo, hi) with their verdict status, rule and message (left join)."""
    cond = [STEP.c.record_pk == record_pk, STEP.c.idx >= lo]
    if hi is not None:
        cond.append(STEP.c.idx < hi)
    stmt = (
        select(STEP.c.idx, STEP.c.kind, STEP.c.start, STEP.c.end, STEP.c.parent, STEP.c.text,
               STEP.c.payload_json, STEP_VERDICT.c.status, STEP_VERDICT.c.rule, STEP_VERDICT.c.message,
               STEP_VERDICT.c.consequence_of)
        .select_from(STEP.outerjoin(STEP_VERDICT, and_(STEP_VERDICT.c.record_pk == STEP.c.record_pk,
                                                       STEP_VERDICT.c.step_idx == STEP.c.idx)))
        .where(*cond).order_by(STEP.c.idx)
    )
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]


def comments_of(engine: Engine, record_pk: int) -> list[dict[str, Any]]:
    stmt = select(COMMENT).where(COMMENT.c.record_pk == record_pk).order_by(COMMENT.c.created_at, COMMENT.c.id)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]


_WORD = re.compile(r"\w+", re.UNICODE)


def _fts5_query(query: str) -> str:
    """User words -> an FTS5 AND of quoted terms, so operators in user text are inert."""
    words = _WORD.findall(query)
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


def search_steps(engine: Engine, query: str, limit: int = 50, record_pk: int | None = None) -> list[dict[str, Any]]:
    """Full-text search over step text: FTS5 on SQLite, tsvector/GIN on PostgreSQL."""
    if not _WORD.search(query or ""):
        return []
    with engine.connect() as conn:
        scope = "AND s.record_pk = :pk" if record_pk is not None else ""
        if conn.dialect.name == "sqlite":
            sql = text(
                "SELECT s.record_pk, s.idx, r.share_id, r.domain, r.model, substr(s.text, 1, 300) AS snippet "
                "FROM step_fts JOIN step s ON s.id = step_fts.rowid JOIN record r ON r.pk = s.record_pk "
                f"WHERE step_fts MATCH :q {scope} ORDER BY s.record_pk, s.idx LIMIT :lim"
            )
            params = {"q": _fts5_query(query), "lim": limit, "pk": record_pk}
        else:
            sql = text(
                "SELECT s.record_pk, s.idx, r.share_id, r.domain, r.model, left(s.text, 300) AS snippet "
                "FROM step s JOIN record r ON r.pk = s.record_pk "
                f"WHERE s.tsv @@ plainto_tsquery('simple', :q) {scope} ORDER BY s.record_pk, s.idx LIMIT :lim"
            )
            params = {"q": query, "lim": limit, "pk": record_pk}
        return [dict(r._mapping) for r in conn.execute(sql, params)]


def gap_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(select(GAP.c.kind, func.count()).group_by(GAP.c.kind)).all())
