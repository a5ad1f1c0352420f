"""Bulk writes through SQLAlchemy Core: raw records first, audit results after."""

from __future__ import annotations

import base64
import json
import secrets
from datetime import datetime, timezone
from functools import lru_cache
from typing import Iterable, Sequence

from sqlalchemy import Table, insert, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from records_io.intake import InputUnit
from metrics.quote_anchor import Anchor, holds
from db.models import Comment, OutsideJudgmentRow, Record, Step, StepVerdictRow, TraceVerdictRow, VerdictGap
from db.rows import STEP_COLUMNS, STEP_VERDICT_COLUMNS, ResultRows, clean_text, record_row
from db.tally import Delta, apply as apply_tally, subtract_stored

RECORD = Record.__table__
STEP = Step.__table__
STEP_VERDICT = StepVerdictRow.__table__
TRACE_VERDICT = TraceVerdictRow.__table__
GAP = VerdictGap.__table__
COMMENT = Comment.__table__
OUTSIDE = OutsideJudgmentRow.__table__
_STATUS, _RULE = STEP_VERDICT_COLUMNS.index("status"), STEP_VERDICT_COLUMNS.index("rule")


def new_share_ids(n: int) -> list[str]:
    """Random, URL-safe, unguessable share ids (96 bits each), as secrets.token_urlsafe(12)
    makes them but from one read of the OS generator per batch: a read per record was ~8 us
    of system time each (bench/bench_ingest.py). An id never begins with "-": a shell user
    passes it as an argument (`cli.py export --id ID`), and argparse reads "-D8n..." as an
    option; one id in 64 would start so, and those are drawn again."""
    pool = secrets.token_bytes(12 * n)
    ids = [base64.urlsafe_b64encode(pool[i:i + 12]).decode("ascii") for i in range(0, 12 * n, 12)]
    for i, sid in enumerate(ids):
        while sid.startswith("-"):
            sid = base64.urlsafe_b64encode(secrets.token_bytes(12)).decode("ascii")
        ids[i] = sid
    return ids


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _write(engine: Engine):
    return engine.connect().execution_options(sqlite_begin="IMMEDIATE")


@lru_cache(maxsize=64)
def _sqlite_insert_plan(table: Table, columns: tuple[str, ...], suffix: str) -> tuple[str, tuple]:
    """The INSERT text and the (position, bind processor) pairs for one table and column list."""
    dialect = sqlite.dialect()
    names = ", ".join(dialect.identifier_preparer.quote(c) for c in columns)
    sql = f"INSERT INTO {table.name} ({names}) VALUES ({', '.join('?' * len(columns))}){suffix}"
    procs = ((i, table.c[c].type.bind_processor(dialect)) for i, c in enumerate(columns))
    return sql, tuple((i, p) for i, p in procs if p is not None)


def _bulk_insert(conn: Connection, table: Table, columns: tuple[str, ...], params: list[tuple],
                 *, ignore_conflict_on: str | None = None) -> None:
    """executemany of row tuples in `columns` order.

    On SQLite the statement goes straight to the driver with the columns' own bind processors
    applied: SQLAlchemy's per-row parameter processing was about a quarter of write time for
    small traces (profiled with bench/bench_ingest.py). PostgreSQL gets COPY, except where
    conflicts must be skipped (the Core INSERT ... ON CONFLICT DO NOTHING).
    """
    if not params:
        return
    if conn.dialect.name == "sqlite":
        suffix = f" ON CONFLICT ({ignore_conflict_on}) DO NOTHING" if ignore_conflict_on else ""
        sql, fixes = _sqlite_insert_plan(table, columns, suffix)
        if fixes:
            fixed = []
            last: dict[int, tuple[object, object]] = {}  # the rows of a batch share one timestamp object
            for row in params:
                values = list(row)
                for i, proc in fixes:
                    value = values[i]
                    if value is not None:
                        seen = last.get(i)
                        if seen is None or seen[0] is not value:
                            seen = last[i] = (value, proc(value))
                        values[i] = seen[1]
                fixed.append(tuple(values))
            params = fixed
        conn.exec_driver_sql(sql, params)
    elif conn.dialect.name == "postgresql":
        if ignore_conflict_on:
            stmt = postgresql.insert(table).on_conflict_do_nothing(index_elements=[ignore_conflict_on])
            conn.execute(stmt, [dict(zip(columns, row)) for row in params])
        else:
            _copy_rows(conn, table, columns, params)
    else:  # pragma: no cover - other backends are not supported
        raise RuntimeError(f"unsupported database {conn.dialect.name}")


def _copy_rows(conn: Connection, table: Table, columns: tuple[str, ...], params: list[tuple]) -> None:
    """PostgreSQL: COPY ... FROM STDIN on the transaction's own connection, instead of psycopg's
    pipelined executemany (result writes of small traces: 180 -> 131 us per record before the
    key-list change in _any); COPY cannot skip conflicts, so `record` keeps INSERT."""
    names = ", ".join(f'"{c}"' for c in columns)
    with conn.connection.dbapi_connection.cursor() as cur:  # type: ignore[union-attr]
        with cur.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:
            for row in params:
                copy.write_row(row)


def _copy_new_records(conn: Connection, rows: list[dict]) -> set[str]:
    """PostgreSQL: records go in with COPY into a session-local staging table, then one
    INSERT ... SELECT ... ON CONFLICT (content_hash) DO NOTHING, so a record that another writer
    (or an earlier try of the same batch) stored meanwhile is skipped, not duplicated. Rows are
    inserted in content-hash order, like every other writer. The staging table lives as long as
    the connection and is emptied at each commit. Returns the content hashes inserted here."""
    columns = tuple(rows[0])
    names = ", ".join(f'"{c}"' for c in columns)
    info = conn.connection.info  # survives with the pooled DBAPI connection
    if not info.get("record_incoming"):
        conn.exec_driver_sql(f"CREATE TEMPORARY TABLE IF NOT EXISTS record_incoming ON COMMIT DELETE ROWS AS "
                             f"SELECT {names} FROM record WITH NO DATA")
        info["record_incoming"] = columns
    with conn.connection.dbapi_connection.cursor() as cur:  # type: ignore[union-attr]
        with cur.copy(f"COPY record_incoming ({names}) FROM STDIN") as copy:
            for r in rows:
                copy.write_row(tuple(r[c] for c in columns))
    result = conn.exec_driver_sql(f"INSERT INTO record ({names}) SELECT {names} FROM record_incoming "
                                  "ORDER BY content_hash ON CONFLICT (content_hash) DO NOTHING RETURNING content_hash")
    return {h for (h,) in result}


def _bulk_insert_dicts(conn: Connection, table: Table, rows: list[dict], **kwargs: str) -> None:
    """_bulk_insert for rows that are dicts sharing one key set (one row per record)."""
    if rows:
        columns = tuple(rows[0])
        _bulk_insert(conn, table, columns, [tuple(r[c] for c in columns) for r in rows], **kwargs)


def _any(conn: Connection, column: str) -> str:
    """`column` is one of the values bound as :k (see _key_param).

    A batch's keys travel as one parameter (a JSON list on SQLite, an array on PostgreSQL):
    rendering a 2,000-item IN list, and psycopg parsing it back, cost more than the queries
    themselves (PostgreSQL result writes: 180 -> 62 us per small trace)."""
    if conn.dialect.name == "sqlite":
        return f"{column} IN (SELECT value FROM json_each(:k))"
    return f"{column} = ANY(:k)"


def _key_param(conn: Connection, keys: list) -> dict[str, object]:
    return {"k": json.dumps(keys) if conn.dialect.name == "sqlite" else keys}


def store_raw(engine: Engine, units: Sequence[InputUnit], source: str | None = None) -> list[tuple[int, bool]]:
    """Store each unit verbatim (idempotent); return (record pk, newly inserted) per unit."""
    if not units:
        return []
    now = _now()
    rows = []
    for unit, share_id in zip(units, new_share_ids(len(units))):
        row = record_row(unit, share_id, clean_text(source)[:512] if source else None)
        row["created_at"] = now
        rows.append(row)
    hashes = [r["content_hash"] for r in rows]
    with _write(engine) as conn, conn.begin():
        lookup = text(f"SELECT content_hash, pk FROM record WHERE {_any(conn, 'content_hash')}")
        keys = _key_param(conn, sorted(set(hashes)))
        before = dict(conn.execute(lookup, keys).all())
        fresh = {r["content_hash"]: r for r in rows if r["content_hash"] not in before}
        inserted: set[str] = set()
        if fresh:
            # One insertion order for every writer, so concurrent uploads cannot deadlock.
            ordered = [fresh[h] for h in sorted(fresh)]
            if conn.dialect.name == "postgresql":
                # What this transaction inserted, not what another writer stored meanwhile.
                inserted = _copy_new_records(conn, ordered)
            else:
                _bulk_insert_dicts(conn, RECORD, ordered, ignore_conflict_on="content_hash")
                inserted = set(fresh)  # SQLite writers hold the database lock (BEGIN IMMEDIATE)
            delta = Delta()
            for h in inserted:
                delta.add_record(fresh[h]["model"], fresh[h]["domain"], None)
            apply_tally(conn, delta)
        after = dict(conn.execute(lookup, keys).all())
    seen: set[str] = set()
    out = []
    for h in hashes:
        out.append((after[h], h in inserted and h not in seen))
        seen.add(h)
    return out


def stored_validators(engine: Engine, pks: Iterable[int]) -> dict[int, str | None]:
    pks = list(set(pks))
    if not pks:
        return {}
    with engine.connect() as conn:
        return dict(conn.execute(text(f"SELECT record_pk, validator FROM trace_verdict WHERE {_any(conn, 'record_pk')}"),
                                 _key_param(conn, pks)).all())


def store_results(engine: Engine, results: Sequence[tuple[int, ResultRows]]) -> None:
    """Replace steps and verdicts of these records in one transaction (all or nothing). A record
    deleted meanwhile (the owner pressed Delete while its audit ran) is skipped: its rows would
    point at nothing, and their foreign keys would fail the whole batch."""
    if not results:
        return
    uniq: dict[int, ResultRows] = {}
    for pk, rows in results:
        uniq[pk] = rows
    pks = list(uniq)
    now = _now()
    with _write(engine) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            # Writers of the same records take turns (SQLite's BEGIN IMMEDIATE already does).
            conn.execute(text("SELECT pk FROM record WHERE pk = ANY(:k) ORDER BY pk FOR UPDATE"), {"k": pks})
        delta = Delta()
        owners = subtract_stored(conn, _key_param(conn, pks), delta)
        _delete_results(conn, pks)
        steps, svs, tvs, gaps = [], [], [], []
        for pk, rows in uniq.items():
            if pk not in owners:
                continue
            key = (pk,)
            steps.extend([key + s for s in rows.steps])
            svs.extend([key + s for s in rows.step_verdicts])
            tvs.append({**rows.trace_verdict, "record_pk": pk, "audited_at": now})
            gaps.extend({"record_pk": pk, "kind": k} for k in rows.gaps)
            model, domain = owners[pk]
            delta.add_record(model, domain, rows.trace_verdict)
            delta.add_rules(sv[_RULE] for sv in rows.step_verdicts if sv[_STATUS] == "invalid")
            delta.add_gaps(model, domain, rows.gaps)
        if steps:
            _insert_steps(conn, steps)
        _bulk_insert(conn, STEP_VERDICT, ("record_pk", *STEP_VERDICT_COLUMNS), svs)
        _bulk_insert_dicts(conn, TRACE_VERDICT, tvs)
        _bulk_insert_dicts(conn, GAP, gaps)
        apply_tally(conn, delta)


def _delete_results(conn: Connection, pks: list[int]) -> None:
    """Remove earlier steps and verdicts of these records."""
    keys = _key_param(conn, pks)
    for table in (STEP, STEP_VERDICT, TRACE_VERDICT, GAP):
        conn.execute(text(f"DELETE FROM {table.name} WHERE {_any(conn, 'record_pk')}"), keys)


def _insert_steps(conn: Connection, steps: list[tuple]) -> None:
    """Insert steps and index their text for search.

    On SQLite the index is filled by one set-based statement per batch, not by a per-row
    trigger: FTS5 flushes its pending terms at every statement savepoint, and a trigger opens
    one per row, so the trigger wrote one tiny index segment per step and then merged them
    (measured 15 us per step against 2.4 us set-based; migration 7 dropped that trigger).
    Writers hold the database lock (BEGIN IMMEDIATE), so every id above the previous
    maximum is one of ours.
    """
    columns = ("record_pk", *STEP_COLUMNS)
    if conn.dialect.name != "sqlite":
        _bulk_insert(conn, STEP, columns, steps)
        return
    before = conn.execute(text("SELECT coalesce(max(id), 0) FROM step")).scalar()
    _bulk_insert(conn, STEP, columns, steps)
    conn.execute(text("INSERT INTO step_fts(rowid, text) SELECT id, text FROM step WHERE id > :lo"), {"lo": before})


def add_comment(engine: Engine, record_pk: int, step_idx: int | None, author: str, text: str,
                label: str | None = None, anchor: Anchor | None = None) -> int:
    """A signed comment; `label` is one of the team's labels (db/comment_labels.py), or none;
    `anchor` the span of the step it quotes, checked against the stored step text in the same
    transaction, so no comment points at characters its step does not hold."""
    author = clean_text(author.strip())[:128] or "anonymous"
    text = clean_text(text.strip())
    label = clean_text(label.strip())[:64] or None if label else None
    if not text:
        raise ValueError("a comment needs some text")
    with _write(engine) as conn, conn.begin():
        if anchor is not None:
            step_text = None if step_idx is None else conn.execute(
                select(STEP.c.text).where(STEP.c.record_pk == record_pk, STEP.c.idx == step_idx)).scalar()
            if step_text is None or not holds(step_text, anchor):
                raise ValueError("the quote is not in this step's text at the given offsets")
        span = {"quote": anchor.quote, "quote_start": anchor.start, "quote_end": anchor.end} if anchor else {}
        res = conn.execute(insert(COMMENT).values(record_pk=record_pk, step_idx=step_idx, author=author,
                                                  text=text, label=label, created_at=_now(), **span))
        return int(res.inserted_primary_key[0])


def delete_record(engine: Engine, record_pk: int) -> None:
    delete_records(engine, [record_pk])


def delete_records(engine: Engine, pks: Sequence[int]) -> None:
    """Remove records with everything hanging off them, tallies included, in one transaction."""
    pks = sorted(set(pks))
    if not pks:
        return
    with _write(engine) as conn, conn.begin():
        keys = _key_param(conn, pks)
        if conn.dialect.name == "postgresql":
            # Locked first, as store_results locks them, so the tallies subtract what is stored.
            conn.execute(text("SELECT pk FROM record WHERE pk = ANY(:k) ORDER BY pk FOR UPDATE"), keys)
        delta = Delta()
        subtract_stored(conn, keys, delta)
        for table in (COMMENT, OUTSIDE, STEP, STEP_VERDICT, TRACE_VERDICT, GAP):
            conn.execute(text(f"DELETE FROM {table.name} WHERE {_any(conn, 'record_pk')}"), keys)
        conn.execute(text(f"DELETE FROM record WHERE {_any(conn, 'pk')}"), keys)
        apply_tally(conn, delta)


# Records the app loads on a database's first start carry this source (pipeline.load_demo).
DEMO_SOURCE = "demo"


def demo_pks(engine: Engine) -> list[int]:
    """The demo records still stored: they are shown as demo and leave when real data arrives."""
    with engine.connect() as conn:
        return [pk for (pk,) in conn.execute(select(RECORD.c.pk).where(RECORD.c.source == DEMO_SOURCE))]


def demo_pending(engine: Engine) -> bool:
    """Demo data was loaded and has not been removed yet: two key lookups, no table scan, so
    every upload batch may ask."""
    return get_setting(engine, "demo_loaded") is not None and get_setting(engine, "demo_removed") is None


def remove_demo(engine: Engine) -> int:
    """Delete every demo record (the demo file can load them again) so they leave every figure;
    returns how many were removed. Called when the user's own data arrives, or by one click."""
    if not demo_pending(engine):
        return 0
    pks = demo_pks(engine)
    for i in range(0, len(pks), 2000):
        delete_records(engine, pks[i:i + 2000])
    claim_setting(engine, "demo_removed", str(len(pks)))
    return len(pks)


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


def put_setting(engine: Engine, key: str, value: str) -> None:
    """Set `key`, replacing its value (settings an owner edits, such as the comment labels)."""
    with _write(engine) as conn, conn.begin():
        conn.execute(text("INSERT INTO app_setting (key, value) VALUES (:k, :v) "
                          "ON CONFLICT (key) DO UPDATE SET value = excluded.value"), {"k": key, "v": value})


def refresh_statistics(engine: Engine) -> None:
    """Keep the planner's row estimates current during a bulk load. On PostgreSQL, tables that
    grow from empty faster than autovacuum notices get plans for tiny tables, and ingest fell
    from ~2,800 to ~450 records/s after 20k records; a periodic ANALYZE keeps it flat."""
    if engine.dialect.name != "postgresql":
        return
    with engine.begin() as conn:
        conn.execute(text("ANALYZE record, step, step_verdict, trace_verdict, verdict_gap"))
