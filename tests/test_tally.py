"""The corpus tallies (db/tally.py) equal a recount from the rows after every kind of write:
inserts, re-audits that change verdicts, deletes, concurrent writers, and the migration that
fills them from rows stored before; on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import random
import threading

import sqlalchemy as sa

from records_io.intake import iter_jsonl
from db.engine import make_engine
from db.queries import (CorpusFilter, corpus_matrix, count_traces, filter_options, first_invalid_histogram,
                        invalid_by_rule)
from db.store import delete_record, store_results
from db.summary import summary
from pipeline import audit_units, unit_rows
from tests.conftest import DEV_DATA

ALL = CorpusFilter()


def _records(n: int, seed: int, prefix: str = "r") -> list[dict | str]:
    """Free-form traces with a wrong claim at a random step (or none), right / wrong / unchecked
    answers, several models and none, and a few unreadable lines."""
    rng = random.Random(seed)
    out: list[dict | str] = []
    for i in range(n):
        if rng.random() < 0.05:
            out.append(f"{{not json {prefix}{i}")
            continue
        steps = rng.randrange(1, 9)
        bad = rng.randrange(steps) if rng.random() < 0.5 else None
        lines = [f"{k} + {k} = {2 * k + (1 if k == bad else 0)}" if rng.random() < 0.8 else f"{k} * 2 = {2 * k}"
                 for k in range(steps)]
        rec = {"id": f"{prefix}{i}", "domain": rng.choice(["freeform", "freeform", "unvalidated"]),
               "trace": "\n\n".join(lines), "answer": str(rng.randrange(3))}
        model = rng.choice(["m1", "m2", "m3", None])
        if model:
            rec["model"] = model
        if rng.random() < 0.7:
            rec["problem"] = {"reference_answer": str(rng.randrange(3))}
        out.append(rec)
    return out


def _units(records: list[dict | str]):
    data = "\n".join(json.dumps(r) if isinstance(r, dict) else r for r in records).encode()
    return list(iter_jsonl(io.BytesIO(data)))


def _dev_lines(name: str, n: int) -> list[str]:
    path = DEV_DATA / name
    return [line for line in path.read_text().splitlines() if line.strip()][:n] if path.exists() else []


def assert_tallies_match_rows(engine) -> None:
    assert count_traces(engine, ALL) == count_traces(engine, ALL, from_rows=True)
    assert sorted(corpus_matrix(engine, ALL), key=str) == sorted(corpus_matrix(engine, ALL, from_rows=True), key=str)
    assert first_invalid_histogram(engine, ALL) == first_invalid_histogram(engine, ALL, from_rows=True)
    assert invalid_by_rule(engine, ALL, limit=1000) == invalid_by_rule(engine, ALL, limit=1000, from_rows=True)
    assert invalid_by_rule(engine, ALL, limit=2) == invalid_by_rule(engine, ALL, limit=2, from_rows=True)
    assert filter_options(engine) == filter_options(engine, from_rows=True)
    for by in (("model", "domain"), ("model",), ("domain",), ()):
        assert summary(engine, by) == summary(engine, by, from_rows=True), by


def _tally_rows(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.text("SELECT COUNT(*) FROM verdict_tally WHERE n > 0")).scalar_one()


def test_tallies_equal_rows_after_inserts_reaudit_and_delete(db_url) -> None:
    engine = make_engine(db_url)
    assert_tallies_match_rows(engine)  # empty
    units = _units(_records(300, seed=1)) + _units(_dev_lines("planbench_plans.jsonl", 12))
    outcomes = list(audit_units(units, engine, source="t"))
    assert count_traces(engine, ALL) == len(outcomes) and _tally_rows(engine) > 10
    assert invalid_by_rule(engine, ALL) and first_invalid_histogram(engine, ALL)
    assert_tallies_match_rows(engine)
    list(audit_units(units[:50], engine, source="again"))  # duplicates: nothing changes
    assert_tallies_match_rows(engine)

    # A re-audit that changes verdicts: each record gets another record's results.
    with engine.connect() as conn:
        pks = [pk for (pk,) in conn.execute(sa.text("SELECT pk FROM record ORDER BY pk"))]
    rng = random.Random(3)
    chosen = rng.sample(range(len(units)), 80)
    donors = [unit_rows(units[k]) for k in rng.sample(range(len(units)), 80)]
    store_results(engine, [(pks[k], rows) for k, rows in zip(chosen, donors)])
    assert_tallies_match_rows(engine)

    for pk in pks[::7]:
        delete_record(engine, pk)
    assert count_traces(engine, ALL) == len(pks) - len(pks[::7])
    assert_tallies_match_rows(engine)
    for pk in pks:
        delete_record(engine, pk)
    assert count_traces(engine, ALL) == 0 and _tally_rows(engine) == 0
    assert summary(engine) == [] and filter_options(engine)["models"] == []
    assert_tallies_match_rows(engine)


def test_results_of_a_record_deleted_during_its_audit_do_not_fail_the_batch(db_url) -> None:
    """Delete pressed while a batch is being audited: the batch's other records still get their
    verdicts, the deleted one stays gone (its rows used to fail the batch on a foreign key)."""
    engine = make_engine(db_url)
    units = _units(_records(40, seed=9, prefix="d"))
    list(audit_units(units, engine, source="t"))
    with engine.connect() as conn:
        pks = [pk for (pk,) in conn.execute(sa.text("SELECT pk FROM record ORDER BY pk"))]
    gone = pks[::4]
    for pk in gone:
        delete_record(engine, pk)
    donors = [unit_rows(u) for u in units if not isinstance(u, str)][:len(pks)]
    store_results(engine, list(zip(pks, donors)))
    with engine.connect() as conn:
        stored = {pk for (pk,) in conn.execute(sa.text("SELECT record_pk FROM trace_verdict"))}
        orphans = conn.execute(sa.text("SELECT COUNT(*) FROM step WHERE record_pk NOT IN (SELECT pk FROM record)")).scalar()
    assert stored == set(pks) - set(gone) and orphans == 0
    assert count_traces(engine, ALL) == len(pks) - len(gone)
    assert_tallies_match_rows(engine)


def test_tallies_equal_rows_after_concurrent_writers(db_url) -> None:
    """Four writers at once on overlapping records: uploads, re-audits that change verdicts and
    deletes. On PostgreSQL they update the same tally rows; a deadlock would fail a writer."""
    engine = make_engine(db_url)
    shared = _records(400, seed=5, prefix="s")
    errors: list[str] = []

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for round_ in range(3):
                mine = _records(40, seed=100 * seed + round_, prefix=f"w{seed}-{round_}-")
                units = _units(rng.sample(shared, 150) + mine)
                pks = [o.record_pk for o in audit_units(units, engine, source=f"w{seed}")]
                donors = [unit_rows(u) for u in rng.sample(units, 30)]
                store_results(engine, list(zip(rng.sample(pks, 30), donors)))
                for pk in rng.sample(pks[150:], 5):  # only its own records: another writer may re-audit shared ones
                    delete_record(engine, pk)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(repr(exc))

    threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert count_traces(engine, ALL) > 400
    assert_tallies_match_rows(engine)


def test_migration_fills_the_tallies_from_rows_stored_before(db_url) -> None:
    import db.migrations as m
    from db.engine import database_url

    engine = sa.create_engine(database_url(db_url))
    old = m.MIGRATIONS
    try:
        m.MIGRATIONS = [x for x in old if x[0] < 9]
        assert m.migrate(engine) == 8
        units = _units(_records(200, seed=9))
        # The writer of that time: rows only. The current writer also updates tallies, which
        # do not exist yet, so its row statements are replayed here without them.
        from db import store

        from db.tally import _keys_clause

        def owners_only(conn, keys, delta):  # the records found, no tallies touched
            return {pk: (model, domain) for pk, model, domain in conn.execute(
                sa.text(f"SELECT pk, model, domain FROM record WHERE {_keys_clause(conn, 'pk')}"), keys)}

        saved = store.apply_tally, store.subtract_stored
        store.apply_tally, store.subtract_stored = (lambda conn, delta: None), owners_only
        # Columns added after version 9 (reference labels, trace outcome) are written by today's
        # writer: they exist while it writes and are dropped again, leaving a version-8 table.
        later = [("record", "labels_json TEXT"), ("trace_verdict", "trace_check VARCHAR(16)")]
        with engine.begin() as conn:
            for table, column in later:
                conn.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {column}"))
        try:
            keys = store.store_raw(engine, units)
            store.store_results(engine, [(pk, unit_rows(u)) for (pk, _), u in zip(keys, units)][:150])
        finally:
            store.apply_tally, store.subtract_stored = saved
            with engine.begin() as conn:
                for table, column in later:
                    conn.execute(sa.text(f"ALTER TABLE {table} DROP COLUMN {column.split()[0]}"))
    finally:
        m.MIGRATIONS = old
    assert m.migrate(engine) == m.LATEST
    current = make_engine(db_url)
    assert count_traces(current, ALL) == len(units) and first_invalid_histogram(current, ALL)
    assert_tallies_match_rows(current)
    engine.dispose()
