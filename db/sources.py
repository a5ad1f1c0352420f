"""What each upload left in the database, and removing it again: by source file or by records.

Every stored record keeps its `source` (the uploaded file's name, the CLI's input path, `demo`,
a capture's label), so an upload that should not have been made can be taken out whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import case, func, select
from sqlalchemy.engine import Engine

from db.store import RECORD, TRACE_VERDICT, delete_records

# Deleted in chunks of this many records, one transaction each, so a large upload does not hold
# the write lock (SQLite's whole database) for minutes.
DELETE_CHUNK = 2000


@dataclass(frozen=True)
class SourceSummary:
    """One source: how many records it stored, how many of them unreadable, and when."""

    source: str | None
    records: int
    malformed: int
    first: Any
    last: Any


def list_sources(engine: Engine) -> list[SourceSummary]:
    """Every source with its record counts, the most recent first."""
    malformed = func.sum(case((RECORD.c.status != "ok", 1), else_=0))
    stmt = (select(RECORD.c.source, func.count(), malformed, func.min(RECORD.c.created_at),
                   func.max(RECORD.c.created_at))
            .group_by(RECORD.c.source).order_by(func.max(RECORD.c.created_at).desc()))
    with engine.connect() as conn:
        return [SourceSummary(s, int(n), int(m or 0), a, b) for s, n, m, a, b in conn.execute(stmt)]


def source_pks(engine: Engine, source: str | None) -> list[int]:
    """The records one source stored (None: records stored without a source)."""
    cond = RECORD.c.source.is_(None) if source is None else RECORD.c.source == source
    with engine.connect() as conn:
        return [pk for (pk,) in conn.execute(select(RECORD.c.pk).where(cond).order_by(RECORD.c.pk))]


def source_records(engine: Engine, source: str | None, limit: int = 1000) -> list[dict[str, Any]]:
    """The first records of one source, for picking some to delete."""
    cond = RECORD.c.source.is_(None) if source is None else RECORD.c.source == source
    stmt = (select(RECORD.c.pk, RECORD.c.line_no, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model,
                   RECORD.c.status, RECORD.c.error, TRACE_VERDICT.c.answer_correct)
            .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
            .where(cond).order_by(RECORD.c.line_no, RECORD.c.pk).limit(limit))
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]


def delete_pks(engine: Engine, pks: Sequence[int]) -> int:
    """Delete these records with their steps, verdicts, comments and tallies; returns how many."""
    pks = sorted(set(pks))
    for i in range(0, len(pks), DELETE_CHUNK):
        delete_records(engine, pks[i:i + DELETE_CHUNK])
    return len(pks)


def delete_source(engine: Engine, source: str | None) -> int:
    """Delete everything one source stored; returns how many records went."""
    return delete_pks(engine, source_pks(engine, source))
