"""Bulk writes through SQLAlchemy Core: raw records first, audit results after."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Iterable, Sequence

from sqlalchemy import delete, insert, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from core.intake import InputUnit
from db.models import Comment, Record, Step, StepVerdictRow, TraceVerdictRow, VerdictGap
from db.rows import ResultRows, clean_text, record_row, unit_hash

RECORD = Record.__table__
STEP = Step.__table__
STEP_VERDICT = StepVerdictRow.__table__
TRACE_VERDICT = TraceVerdictRow.__table__
GAP = VerdictGap.__table__
COMMENT = Comment.__table__


def new_share_id() -> str:
    """Random, URL-safe, unguessable (96 bits)."""
    return secrets.token_urlsafe(12)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _write(engine: Engine):
    return engine.connect().execution_options(sqlite_begin="IMMEDIATE")


def _insert_ignore(conn: Connection, rows: list[dict]) -> None:
    if conn.dialect.name == "postgresql":
        stmt = postgresql.insert(RECORD).on_conflict_do_nothing(index_elements=["content_hash"])
    elif conn.dialect.name == "sqlite":
        stmt = sqlite.insert(RECORD).on_conflict_do_nothing(index_elements=["content_hash"])
    else:  # pragma: no cover - other backends are not supported
        raise RuntimeError(f"unsupported database {conn.dialect.name}")
    conn.execute(stmt, rows)


def store_raw(engine: Engine, units: Sequence[InputUnit], source: str | None = None) -> list[tuple[int, bool]]:
    """Store each unit verbatim (idempotent); return (record pk, newly inserted) per unit."""
    if not units:
        return []
    now = _now()
    rows = []
    for unit in units:
        row = record_row(unit, new_share_id(), clean_text(source)[:512] if source else None)
        row["created_at"] = now
        rows.append(row)
    hashes = [r["content_hash"] for r in rows]
    with _write(engine) as conn, conn.begin():
        before = dict(conn.execute(select(RECORD.c.content_hash, RECORD.c.pk)
                                   .where(RECORD.c.content_hash.in_(set(hashes)))).all())
        fresh = {r["content_hash"]: r for r in rows if r["content_hash"] not in before}
        if fresh:
            # One insertion order for every writer, so concurrent uploads cannot deadlock.
            _insert_ignore(conn, [fresh[h] for h in sorted(fresh)])
        after = dict(conn.execute(select(RECORD.c.content_hash, RECORD.c.pk)
                                  .where(RECORD.c.content_hash.in_(set(hashes)))).all())
    seen: set[str] = set()
    out = []
    for h in hashes:
        out.append((after[h], h not in before and h not in seen))
        seen.add(h)
    return out


def stored_validators(engine: Engine, pks: Iterable[int]) -> dict[int, str | None]:
    pks = list(set(pks))
    if not pks:
        return {}
    with engine.connect() as conn:
        return dict(conn.execute(select(TRACE_VERDICT.c.record_pk, TRACE_VERDICT.c.validator)
                                 .where(TRACE_VERDICT.c.record_pk.in_(pks))).all())


def store_results(engine: Engine, results: Sequence[tuple[int, ResultRows]]) -> None:
    """Replace steps and verdicts of these records in one transaction (all or nothing)."""
    if not results:
        return
    uniq: dict[int, ResultRows] = {}
    for pk, rows in results:
        uniq[pk] = rows
    pks = list(uniq)
    now = _now()
    steps, svs, tvs, gaps = [], [], [], []
    for pk, rows in uniq.items():
        steps.extend({**s, "record_pk": pk} for s in rows.steps)
        svs.extend({**s, "record_pk": pk} for s in rows.step_verdicts)
        tvs.append({**rows.trace_verdict, "record_pk": pk, "audited_at": now})
        gaps.extend({"record_pk": pk, "kind": k} for k in rows.gaps)
    with _write(engine) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            # Writers of the same records take turns (SQLite's BEGIN IMMEDIATE already does).
            conn.execute(select(RECORD.c.pk).where(RECORD.c.pk.in_(pks)).order_by(RECORD.c.pk).with_for_update())
        for table in (STEP, STEP_VERDICT, TRACE_VERDICT, GAP):
            conn.execute(delete(table).where(table.c.record_pk.in_(pks)))
        if steps:
            conn.execute(insert(STEP), steps)
        if svs:
            conn.execute(insert(STEP_VERDICT), svs)
        conn.execute(insert(TRACE_VERDICT), tvs)
        if gaps:
            conn.execute(insert(GAP), gaps)


def add_comment(engine: Engine, record_pk: int, step_idx: int | None, author: str, text: str) -> int:
    author = clean_text(author.strip())[:128] or "anonymous"
    text = clean_text(text.strip())
    if not text:
        raise ValueError("a comment needs some text")
    with _write(engine) as conn, conn.begin():
        res = conn.execute(insert(COMMENT).values(record_pk=record_pk, step_idx=step_idx, author=author,
                                                  text=text, created_at=_now()))
        return int(res.inserted_primary_key[0])


def delete_record(engine: Engine, record_pk: int) -> None:
    with _write(engine) as conn, conn.begin():
        for table in (COMMENT, STEP, STEP_VERDICT, TRACE_VERDICT, GAP):
            conn.execute(delete(table).where(table.c.record_pk == record_pk))
        conn.execute(delete(RECORD).where(RECORD.c.pk == record_pk))


def get_setting(engine: Engine, key: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(text("SELECT value FROM app_setting WHERE key = :k"), {"k": key}).scalar()


def claim_setting(engine: Engine, key: str, value: str) -> bool:
    """Set `key` only if unset; True for the one caller that set it (first-start races)."""
    with _write(engine) as conn, conn.begin():
        if conn.execute(text("SELECT 1 FROM app_setting WHERE key = :k"), {"k": key}).first():
            return False
        conn.execute(text("INSERT INTO app_setting (key, value) VALUES (:k, :v) ON CONFLICT (key) DO NOTHING"),
                     {"k": key, "v": value})
        return True


def refresh_statistics(engine: Engine) -> None:
    """Keep the planner's row estimates current during a bulk load. On PostgreSQL, tables that
    grow from empty faster than autovacuum notices get plans for tiny tables, and ingest fell
    from ~2,800 to ~450 records/s after 20k records; a periodic ANALYZE keeps it flat."""
    if engine.dialect.name != "postgresql":
        return
    with engine.begin() as conn:
        conn.execute(text("ANALYZE record, step, step_verdict, trace_verdict, verdict_gap"))
