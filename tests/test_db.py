"""Storage on SQLite and PostgreSQL: migrations, idempotent raw storage, results, search."""

import io
import json

import pytest
import sqlalchemy as sa
from sqlmodel import SQLModel

import db.models  # noqa: F401 - registers the SQLModel tables
from records_io.intake import iter_jsonl
from db.engine import make_engine
from db.migrations import LATEST, MIGRATIONS, migrate
from db.queries import (comments_of, corpus_counts, search_steps, steps_of, trace_by_share_id)
from db.store import add_comment, delete_record, store_raw
from pipeline import audit_units

RECORDS = [
    {"id": "a", "domain": "freeform", "model": "m1", "trace": "Let me think about zebras.\n\nWait, giraffes.",
     "answer": "giraffe"},
    {"id": "b", "domain": "freeform", "model": "m2", "trace": "Plain <b>bold</b> \x00 text", "answer": ""},
]


def _units(rows):
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    return iter_jsonl(io.BufferedReader(io.BytesIO(data)))


def test_migrated_schema_matches_models(db_url):
    engine = make_engine(db_url)
    insp = sa.inspect(engine)
    for table in SQLModel.metadata.sorted_tables:
        stored = {c["name"] for c in insp.get_columns(table.name)} - {"tsv"}
        assert stored == {c.name for c in table.columns}, table.name
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT MAX(version) FROM schema_version")).scalar() == LATEST
    assert migrate(engine) == LATEST  # idempotent


def test_upgrade_from_an_older_schema_keeps_data(db_url):
    engine = sa.create_engine(make_engine.__globals__["database_url"](db_url))
    if engine.dialect.name == "sqlite":
        from db.engine import _sqlite_setup
        _sqlite_setup(engine)
    import db.migrations as m
    old = m.MIGRATIONS
    try:
        m.MIGRATIONS = old[:1]
        assert migrate(engine) == 1
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO record (content_hash, share_id, status, domain, problem_json, trace, answer, "
                "meta_json, raw, raw_truncated, created_at) VALUES ('h', 's', 'ok', 'freeform', '{}', "
                "'kept text', '', '{}', :raw, false, CURRENT_TIMESTAMP)"), {"raw": b"{}"})
    finally:
        m.MIGRATIONS = old
    assert migrate(engine) == LATEST
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT trace FROM record WHERE share_id = 's'")).scalar() == "kept text"
    engine.dispose()


def test_pipeline_stores_everything_once_and_search_finds_steps(db_url):
    engine = make_engine(db_url)
    first = list(audit_units(_units(RECORDS), engine, source="t"))
    assert [o.new for o in first] == [True, True]
    again = list(audit_units(_units(RECORDS), engine, source="t"))
    assert [o.new for o in again] == [False, False]
    assert [o.verdict for o in again] == [o.verdict for o in first]
    counts = corpus_counts(engine)
    assert counts.records == 2 and counts.by_model == {"m1": 1, "m2": 1}

    hits = search_steps(engine, "giraffes")
    assert [(h["idx"], h["model"]) for h in hits] == [(1, "m1")]
    # the query is a phrase (db/search.py): operators are inert text, not FTS syntax
    assert search_steps(engine, 'giraffes" * (') == []
    assert [h["idx"] for h in search_steps(engine, '"giraffes" NEAR(')] == [1]
    assert search_steps(engine, "   ") == []

    rec = trace_by_share_id(engine, hits[0]["share_id"])
    assert rec["record_id"] == "a" and rec["verdict"]["parse"]["n_steps"] == 2
    steps = steps_of(engine, rec["pk"])
    assert [s["text"] for s in steps] == ["Let me think about zebras.", "Wait, giraffes."]
    assert rec["trace"][steps[1]["start"]:steps[1]["end"]] == "Wait, giraffes."


def test_nul_bytes_are_kept_in_raw_and_replaced_in_text(db_url):
    engine = make_engine(db_url)
    outcome = list(audit_units(_units(RECORDS[1:]), engine))[0]
    with engine.connect() as conn:
        raw, trace = conn.execute(sa.text("SELECT raw, trace FROM record WHERE pk = :pk"),
                                  {"pk": outcome.record_pk}).one()
    assert b"\\u0000" in bytes(raw)
    assert trace == "Plain <b>bold</b> \ufffd text"


def test_malformed_units_are_stored_with_their_error(db_url):
    engine = make_engine(db_url)
    data = io.BufferedReader(io.BytesIO(b'{"id": "t1", "trace": "abc\nnot json\n'))
    outcomes = list(audit_units(iter_jsonl(data), engine))
    assert [o.verdict["parse"]["ok"] for o in outcomes] == [False, False]
    assert outcomes[0].verdict["id"] == "t1"
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT status, error, raw FROM record ORDER BY pk")).all()
    assert [r.status for r in rows] == ["malformed", "malformed"]
    assert bytes(rows[1].raw) == b"not json"


def test_comments_share_ids_and_delete(db_url):
    engine = make_engine(db_url)
    outcomes = list(audit_units(_units(RECORDS), engine))
    pk = outcomes[0].record_pk
    add_comment(engine, pk, 1, "rev <script>", "step 1 is <b>wrong</b>")
    with pytest.raises(ValueError):
        add_comment(engine, pk, 1, "rev", "   ")
    comments = comments_of(engine, pk)
    assert [(c["step_idx"], c["author"], c["text"]) for c in comments] == [(1, "rev <script>", "step 1 is <b>wrong</b>")]
    with engine.connect() as conn:
        share_ids = [r[0] for r in conn.execute(sa.text("SELECT share_id FROM record"))]
    assert len(set(share_ids)) == 2 and all(len(s) == 16 and s.replace("-", "").replace("_", "").isalnum()
                                            for s in share_ids)
    delete_record(engine, pk)
    assert corpus_counts(engine).records == 1
    assert comments_of(engine, pk) == []


def test_store_raw_is_idempotent_within_one_batch(db_url):
    engine = make_engine(db_url)
    units = list(_units([RECORDS[0], RECORDS[0]]))
    keys = store_raw(engine, units)
    assert keys[0][0] == keys[1][0] and [k[1] for k in keys] == [True, False]


def test_search_index_follows_every_write_path(db_url):
    """Steps are indexed per batch by the writer (not by a per-row trigger): the index must
    match the steps after several batches, a re-audit that replaces steps, and a delete."""
    engine = make_engine(db_url)
    rows = [{"id": f"r{i}", "domain": "freeform", "trace": f"Okay, consider okapi{i}.\n\nWait, zebra{i}.",
             "answer": ""} for i in range(7)]
    outcomes = list(audit_units(_units(rows), engine, batch_size=3))
    assert [h["idx"] for h in search_steps(engine, "zebra4")] == [1]
    from db.store import store_results
    from pipeline import audit_to_rows
    replaced = dict(rows[4], trace="Okay, consider quagga4 instead.")
    (unit,) = list(_units([replaced]))
    store_results(engine, [(outcomes[4].record_pk, audit_to_rows(unit.record))])
    assert search_steps(engine, "zebra4") == [] and search_steps(engine, "okapi4") == []
    assert [h["idx"] for h in search_steps(engine, "quagga4")] == [0]
    delete_record(engine, outcomes[5].record_pk)
    assert search_steps(engine, "zebra5") == []
    assert len(search_steps(engine, "zebra6")) == 1
    if engine.dialect.name == "sqlite":
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO step_fts(step_fts, rank) VALUES ('integrity-check', 1)"))
            indexed = conn.execute(sa.text("SELECT count(*) FROM step_fts WHERE step_fts MATCH 'okay'")).scalar()
            assert indexed == conn.execute(sa.text("SELECT count(*) FROM step WHERE text LIKE 'Okay%'")).scalar() == 6


def test_reaudit_groups_are_capped_by_count_and_by_bytes():
    from pipeline import _chunks
    stale = [(1, 10), (2, 10), (3, 10), (4, 100), (5, 1)]
    assert list(_chunks(stale, 2, 50)) == [[1, 2], [3, 4], [5]]
    assert list(_chunks(stale, 10, 25)) == [[1, 2, 3], [4], [5]]


def test_corpus_filters_by_broken_rule_and_by_where_the_first_error_falls(db_url):
    from db.queries import CorpusFilter, count_traces, filter_options, first_invalid_histogram, list_traces

    engine = make_engine(db_url)
    recs = [{"id": "bad-early", "domain": "freeform", "trace": "1 + 1 = 3.\n\nOk.\n\nOk.\n\nOk.", "answer": "3"},
            {"id": "bad-late", "domain": "freeform", "trace": "Ok.\n\nOk.\n\nOk.\n\n2 * 2 = 5.", "answer": "5"},
            {"id": "fine", "domain": "freeform", "trace": "2 + 2 = 4.", "answer": "4"}]
    list(audit_units(_units(recs), engine, source="t"))
    assert "arithmetic_claim_false" in filter_options(engine)["rules"]
    by_rule = CorpusFilter(rule="arithmetic_claim_false")
    assert count_traces(engine, by_rule) == 2
    assert count_traces(engine, CorpusFilter(rule="no_such_rule")) == 0
    hist = dict(first_invalid_histogram(engine, CorpusFilter()))
    assert sorted(hist.values()) == [1, 1] and min(hist) == 0.0 and max(hist) >= 0.7
    late = [r["record_id"] for r in list_traces(engine, CorpusFilter(pos=max(hist)))]
    assert late == ["bad-late"]
    assert count_traces(engine, CorpusFilter(rule="arithmetic_claim_false", pos=0.0)) == 1
