"""Numbered schema migrations. Each runs once, in order, inside a transaction, and is never
edited after release: add a new one instead. Table shapes here are frozen snapshots on
purpose (they must not follow later edits of `db.models`)."""

from __future__ import annotations

import json
from typing import Callable, Iterator

from sqlalchemy import (
    Boolean, Column, DateTime, Float, ForeignKey, Integer, LargeBinary, MetaData, String, Table,
    Text, UniqueConstraint, text,
)
from sqlalchemy.engine import Connection, Engine


def _m0001_core_tables(conn: Connection) -> None:
    md = MetaData()
    Table(
        "record", md,
        Column("pk", Integer, primary_key=True, autoincrement=True),
        Column("record_id", String, index=True),
        Column("content_hash", String(64), nullable=False, unique=True),
        Column("share_id", String(32), nullable=False, unique=True),
        Column("status", String(16), nullable=False),
        Column("error", Text),
        Column("domain", String(64), nullable=False, index=True),
        Column("format", String(64)),
        Column("model", String(256), index=True),
        Column("problem_json", Text, nullable=False),
        Column("trace", Text, nullable=False),
        Column("answer", Text, nullable=False),
        Column("meta_json", Text, nullable=False),
        Column("raw", LargeBinary, nullable=False),
        Column("raw_truncated", Boolean, nullable=False),
        Column("source", String(512)),
        Column("line_no", Integer),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )
    Table(
        "step", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), nullable=False),
        Column("idx", Integer, nullable=False),
        Column("kind", String(32), nullable=False),
        Column("start", Integer, nullable=False),
        Column("end", Integer, nullable=False),
        Column("parent", Integer),
        Column("text", Text, nullable=False),
        Column("payload_json", Text),
        UniqueConstraint("record_pk", "idx"),
    )
    Table(
        "step_verdict", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), nullable=False, index=True),
        Column("step_idx", Integer, nullable=False),
        Column("status", String(16), nullable=False),
        Column("rule", String(64), index=True),
        Column("message", Text, nullable=False),
        Column("expected_json", Text),
        Column("found_json", Text),
        Column("consequence_of", Integer),
    )
    Table(
        "trace_verdict", md,
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), primary_key=True,
               autoincrement=False),
        Column("validator", String(128)),
        Column("format", String(64)),
        Column("parse_ok", Boolean, nullable=False),
        Column("n_steps", Integer, nullable=False),
        Column("n_invalid", Integer, nullable=False),
        Column("answer_correct", Boolean, index=True),
        Column("trace_valid", Boolean, index=True),
        Column("first_invalid_step", Integer),
        Column("first_invalid_rel", Float),
        Column("answer_error_kind", String(32)),
        Column("verdict_json", Text, nullable=False),
        Column("audited_at", DateTime(timezone=True), nullable=False),
    )
    Table(
        "verdict_gap", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), nullable=False, index=True),
        Column("kind", String(64), nullable=False, index=True),
    )
    Table(
        "comment", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), nullable=False, index=True),
        Column("step_idx", Integer),
        Column("author", String(128), nullable=False),
        Column("text", Text, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )
    md.create_all(conn)


def _m0002_step_search(conn: Connection) -> None:
    """Full-text search over step text: FTS5 on SQLite, tsvector + GIN on PostgreSQL."""
    if conn.dialect.name == "sqlite":
        conn.execute(text(
            "CREATE VIRTUAL TABLE step_fts USING fts5(text, content='step', content_rowid='id', "
            "tokenize='unicode61')"
        ))
        conn.execute(text(
            "CREATE TRIGGER step_fts_ai AFTER INSERT ON step BEGIN "
            "INSERT INTO step_fts(rowid, text) VALUES (new.id, new.text); END"
        ))
        conn.execute(text(
            "CREATE TRIGGER step_fts_ad AFTER DELETE ON step BEGIN "
            "INSERT INTO step_fts(step_fts, rowid, text) VALUES ('delete', old.id, old.text); END"
        ))
    elif conn.dialect.name == "postgresql":
        # A tsvector is capped at 1 MB; very long steps are indexed by their first 200k chars.
        conn.execute(text(
            "ALTER TABLE step ADD COLUMN tsv tsvector GENERATED ALWAYS AS "
            "(to_tsvector('simple', left(text, 200000))) STORED"
        ))
        conn.execute(text("CREATE INDEX ix_step_tsv ON step USING GIN (tsv)"))


def _m0003_corpus_indexes(conn: Connection) -> None:
    """Indexes the corpus page filters and aggregates by."""
    conn.execute(text("CREATE INDEX ix_record_created ON record (created_at)"))
    conn.execute(text("CREATE INDEX ix_step_verdict_status_rule ON step_verdict (status, rule)"))


def _m0004_app_settings(conn: Connection) -> None:
    """Small key/value facts about this database (e.g. that demo data was loaded once)."""
    conn.execute(text("CREATE TABLE app_setting (key VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL)"))



def _m0005_step_links_and_state(conn: Connection) -> None:
    """Non-tree edges (backtracks) and the domain's per-step state snapshot for the explorer."""
    conn.execute(text("ALTER TABLE step ADD COLUMN links_json TEXT"))
    conn.execute(text("ALTER TABLE step ADD COLUMN state_json TEXT"))



def _m0006_replay_notes(conn: Connection) -> None:
    """How a replay was configured and what it found beyond steps (e.g. the answer plan's
    per-action verdicts and effects), for the explorer."""
    conn.execute(text("ALTER TABLE trace_verdict ADD COLUMN notes_json TEXT"))


def _m0007_step_search_by_batch(conn: Connection) -> None:
    """The writer indexes each batch of steps with one statement (see db.store._insert_steps);
    the per-row insert trigger made FTS5 write a segment per step. Deletes keep their trigger
    so every path that removes steps keeps the index consistent."""
    if conn.dialect.name == "sqlite":
        conn.execute(text("DROP TRIGGER IF EXISTS step_fts_ai"))


def _keyset_pages(conn: Connection, sql: str, size: int = 5_000) -> Iterator[list]:
    """The rows of `sql` (ordered by its first column, taking :last and :n) a page at a time, so
    a migration never holds a whole table in memory."""
    last = 0
    while rows := conn.execute(text(sql), {"last": last, "n": size}).all():
        yield rows
        last = rows[-1][0]


def _m0008_problem_identity(conn: Connection) -> None:
    """Each record's canonical problem hash and each verdict's normalised answer
    (metrics/problem_key.py), indexed so that grouping the samples of a problem is a query. Rows
    stored before get theirs here, computed from what they hold, in batches."""
    from metrics.problem_key import answer_key
    from validators.identity import record_problem_hash

    conn.execute(text("ALTER TABLE record ADD COLUMN problem_hash VARCHAR(32)"))
    conn.execute(text("ALTER TABLE trace_verdict ADD COLUMN answer_key VARCHAR(32)"))
    for rows in _keyset_pages(conn, (
            "SELECT pk, domain, problem_json, CASE WHEN domain = 'maze' AND problem_json = '{}' "
            "THEN substr(trace, 1, 200000) ELSE '' END FROM record WHERE status = 'ok' AND pk > :last "
            "ORDER BY pk LIMIT :n")):
        updates = []
        for pk, domain, problem_json, trace in rows:
            try:
                problem = json.loads(problem_json or "{}")
            except ValueError:
                problem = {}
            updates.append({"pk": pk, "h": record_problem_hash(domain, problem if isinstance(problem, dict) else {},
                                                        trace or "")})
        conn.execute(text("UPDATE record SET problem_hash = :h WHERE pk = :pk"), updates)
    for rows in _keyset_pages(conn, (
            "SELECT tv.record_pk, r.answer, tv.notes_json FROM trace_verdict tv JOIN record r ON r.pk = tv.record_pk "
            "WHERE tv.record_pk > :last ORDER BY tv.record_pk LIMIT :n")):
        updates = []
        for pk, answer, notes_json in rows:
            try:
                notes = json.loads(notes_json) if notes_json else {}
            except ValueError:
                notes = {}
            updates.append({"pk": pk, "k": answer_key(answer or "", notes if isinstance(notes, dict) else {})})
        conn.execute(text("UPDATE trace_verdict SET answer_key = :k WHERE record_pk = :pk"), updates)
    conn.execute(text("CREATE INDEX ix_record_problem ON record (problem_hash, model)"))
    conn.execute(text("CREATE INDEX ix_record_domain_model ON record (domain, model)"))
    # data_revision (every page's cache key) takes max(audited_at): an index, not a scan.
    conn.execute(text("CREATE INDEX ix_trace_verdict_audited ON trace_verdict (audited_at)"))


def _m0009_corpus_tallies(conn: Connection) -> None:
    """Running totals the writers keep with the rows (db/tally.py), filled here from the rows
    stored before."""
    from db.tally import rebuild

    conn.execute(text("CREATE TABLE verdict_tally (model VARCHAR(256) NOT NULL, domain VARCHAR(64) NOT NULL, "
                      "answer SMALLINT NOT NULL, trace SMALLINT NOT NULL, n BIGINT NOT NULL, "
                      "PRIMARY KEY (model, domain, answer, trace))"))
    conn.execute(text("CREATE TABLE first_step_tally (model VARCHAR(256) NOT NULL, domain VARCHAR(64) NOT NULL, "
                      "first_step INTEGER NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (model, domain, first_step))"))
    conn.execute(text("CREATE TABLE pos_tally (model VARCHAR(256) NOT NULL, domain VARCHAR(64) NOT NULL, "
                      "pos_bin SMALLINT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (model, domain, pos_bin))"))
    conn.execute(text("CREATE TABLE rule_tally (rule VARCHAR(64) NOT NULL PRIMARY KEY, n BIGINT NOT NULL)"))
    conn.execute(text("CREATE TABLE gap_tally (model VARCHAR(256) NOT NULL, domain VARCHAR(64) NOT NULL, "
                      "kind VARCHAR(64) NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (model, domain, kind))"))
    rebuild(conn, by_check=False)


def _m0010_reference_labels(conn: Connection) -> None:
    """Labels that came with a record from outside (a dataset's first-mistake label, per-step
    ratings; core.record.TraceRecord.reference_labels), kept to compare with our verdicts."""
    conn.execute(text("ALTER TABLE record ADD COLUMN labels_json TEXT"))


def _m0011_trace_check(conn: Connection) -> None:
    """The trace outcome by name (core.verdicts.TRACE_LABELS), so "checked, nothing false" is
    told from "not checked" in filters and tallies; rows stored before get it from their
    verdict, whether any step verdict is valid or a self-correction, and whether the replay left
    claims unjudged (what the audit sets)."""
    from db.tally import rebuild

    conn.execute(text("ALTER TABLE trace_verdict ADD COLUMN trace_check VARCHAR(16)"))
    conn.execute(text(
        "UPDATE trace_verdict SET trace_check = CASE WHEN trace_valid IS NULL THEN "
        "CASE WHEN n_invalid = 0 AND EXISTS (SELECT 1 FROM step_verdict sv WHERE sv.record_pk = trace_verdict.record_pk "
        "AND sv.status IN ('valid', 'corrected')) THEN 'no_error_found' "
        # claims found and left unjudged (the replay's notes, as db.rows writes them)
        "WHEN n_invalid = 0 AND notes_json LIKE '%\"claims_unjudged\": %' "
        "AND notes_json NOT LIKE '%\"claims_unjudged\": 0,%' AND notes_json NOT LIKE '%\"claims_unjudged\": 0}%' "
        "THEN 'no_error_found' ELSE 'not_checked' END "
        "WHEN trace_valid THEN 'valid' ELSE 'invalid' END"))
    rebuild(conn)


def _m0012_outside_judgments(conn: Connection) -> None:
    """Per-step scores and first mistakes from elsewhere (a PRM, an LLM judge), one row per
    record and source (metrics.outside_labels), joined by id at import; the replay never reads them."""
    md = MetaData()
    Table("record", md, Column("pk", Integer, primary_key=True))  # the foreign key's target, already there
    judgments = Table(
        "outside_judgment", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_pk", Integer, ForeignKey("record.pk", ondelete="CASCADE"), nullable=False, index=True),
        Column("source", String(128), nullable=False),
        Column("judgment_json", Text, nullable=False),
        Column("imported_at", DateTime(timezone=True), nullable=False),
        UniqueConstraint("record_pk", "source"),
    )
    judgments.create(conn)  # with its index


def _m0013_comment_labels(conn: Connection) -> None:
    """A label per comment from the set a team defines ("misread rule", "false verification" ...;
    db/comment_labels.py), indexed: the corpus filters records by it."""
    conn.execute(text("ALTER TABLE comment ADD COLUMN label VARCHAR(64)"))
    conn.execute(text("CREATE INDEX ix_comment_label ON comment (label)"))


def _m0014_comment_anchors(conn: Connection) -> None:
    """The span of its step a comment quotes (metrics/quote_anchor.py): the quoted text and its
    character offsets in the step's text; all three empty for a comment on the whole step."""
    conn.execute(text("ALTER TABLE comment ADD COLUMN quote TEXT"))
    conn.execute(text("ALTER TABLE comment ADD COLUMN quote_start INTEGER"))
    conn.execute(text("ALTER TABLE comment ADD COLUMN quote_end INTEGER"))


MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "core tables", _m0001_core_tables),
    (2, "full-text search over steps", _m0002_step_search),
    (3, "corpus indexes", _m0003_corpus_indexes),
    (4, "app settings", _m0004_app_settings),
    (5, "step links and state", _m0005_step_links_and_state),
    (6, "replay notes", _m0006_replay_notes),
    (7, "step search indexed by batch", _m0007_step_search_by_batch),
    (8, "problem identity and answer keys", _m0008_problem_identity),
    (9, "corpus tallies", _m0009_corpus_tallies),
    (10, "reference labels", _m0010_reference_labels),
    (11, "trace outcome by name", _m0011_trace_check),
    (12, "outside judgments", _m0012_outside_judgments),
    (13, "comment labels", _m0013_comment_labels),
    (14, "comment anchors", _m0014_comment_anchors),
]

LATEST = MIGRATIONS[-1][0]


def current_version(conn: Connection) -> int:
    conn.execute(text(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
    ))
    row = conn.execute(text("SELECT MAX(version) FROM schema_version")).scalar()
    return int(row or 0)


def migrate(engine: Engine) -> int:
    """Bring the schema to LATEST; safe to call from several processes at once."""
    with engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            # Serialise concurrent first starts (several workers on one fresh database).
            conn.execute(text("SELECT pg_advisory_xact_lock(724311)"))
        version = current_version(conn)
        for number, name, step in MIGRATIONS:
            if number > version:
                step(conn)
                conn.execute(text("INSERT INTO schema_version (version, name) VALUES (:v, :n)"),
                             {"v": number, "n": name})
                version = number
    return version
