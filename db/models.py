"""SQLModel tables. The schema itself is created and upgraded by `db.migrations`; a test
checks that these classes and the migrated schema agree."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Record(SQLModel, table=True):
    """One input unit, stored verbatim before it is parsed (`raw`) plus its readable fields."""

    __tablename__ = "record"
    pk: int | None = Field(default=None, primary_key=True)
    record_id: str | None = Field(default=None, index=True)
    content_hash: str = Field(sa_column_kwargs={"unique": True}, max_length=64)
    share_id: str = Field(sa_column_kwargs={"unique": True}, max_length=32)
    status: str = Field(default="ok", max_length=16)  # ok | malformed
    error: str | None = Field(default=None, sa_column=Column(Text))
    domain: str = Field(default="unknown", index=True, max_length=64)
    format: str | None = Field(default=None, max_length=64)
    model: str | None = Field(default=None, index=True, max_length=256)
    problem_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    # metrics.problem_key.problem_hash: the same problem however written (indexed with model, migration 8)
    problem_hash: str | None = Field(default=None, max_length=32)
    trace: str = Field(default="", sa_column=Column(Text, nullable=False))
    answer: str = Field(default="", sa_column=Column(Text, nullable=False))
    meta_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    # core.record.TraceRecord.reference_labels as JSON; null when the record came with none (migration 10)
    labels_json: str | None = Field(default=None, sa_column=Column(Text))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    raw_truncated: bool = False
    source: str | None = Field(default=None, max_length=512)
    line_no: int | None = None
    created_at: datetime = Field(default_factory=utcnow)


class Step(SQLModel, table=True):
    __tablename__ = "step"
    __table_args__ = (UniqueConstraint("record_pk", "idx"),)
    id: int | None = Field(default=None, primary_key=True)
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE")
    idx: int
    kind: str = Field(max_length=32)
    start: int
    end: int
    parent: int | None = None
    text: str = Field(sa_column=Column(Text, nullable=False))
    payload_json: str | None = Field(default=None, sa_column=Column(Text))
    links_json: str | None = Field(default=None, sa_column=Column(Text))
    state_json: str | None = Field(default=None, sa_column=Column(Text))


class StepVerdictRow(SQLModel, table=True):
    __tablename__ = "step_verdict"
    id: int | None = Field(default=None, primary_key=True)
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE", index=True)
    step_idx: int
    status: str = Field(max_length=16)
    rule: str | None = Field(default=None, index=True, max_length=64)
    message: str = Field(default="", sa_column=Column(Text, nullable=False))
    expected_json: str | None = Field(default=None, sa_column=Column(Text))
    found_json: str | None = Field(default=None, sa_column=Column(Text))
    consequence_of: int | None = None


class TraceVerdictRow(SQLModel, table=True):
    """One current verdict per record; `validator` says which code produced it."""

    __tablename__ = "trace_verdict"
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE", primary_key=True)
    validator: str | None = Field(default=None, max_length=128)
    format: str | None = Field(default=None, max_length=64)
    parse_ok: bool = True
    n_steps: int = 0
    n_invalid: int = 0
    answer_correct: bool | None = Field(default=None, index=True)
    trace_valid: bool | None = Field(default=None, index=True)
    # core.verdicts.TRACE_LABELS key: tells "no error found" from "not checked" (migration 11)
    trace_check: str | None = Field(default=None, max_length=16)
    first_invalid_step: int | None = None
    first_invalid_rel: float | None = None
    answer_error_kind: str | None = Field(default=None, max_length=32)
    answer_key: str | None = Field(default=None, max_length=32)  # metrics.problem_key.answer_key: what a vote counts
    verdict_json: str = Field(sa_column=Column(Text, nullable=False))
    notes_json: str | None = Field(default=None, sa_column=Column(Text))
    audited_at: datetime = Field(default_factory=utcnow)


class VerdictGap(SQLModel, table=True):
    __tablename__ = "verdict_gap"
    id: int | None = Field(default=None, primary_key=True)
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE", index=True)
    kind: str = Field(index=True, max_length=64)


class Comment(SQLModel, table=True):
    """Reviewer comments live apart from the trace so exports can leave them out."""

    __tablename__ = "comment"
    id: int | None = Field(default=None, primary_key=True)
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE", index=True)
    step_idx: int | None = None
    author: str = Field(max_length=128)
    text: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
    label: str | None = Field(default=None, max_length=64)  # from the team's label set (migration 13)
    quote: str | None = Field(default=None, sa_column=Column(Text))  # the anchored span (migration 14)
    quote_start: int | None = None
    quote_end: int | None = None


class OutsideJudgmentRow(SQLModel, table=True):
    """One outside source's judgment of a record's steps (metrics.outside_labels): a PRM's per-step
    scores or a judge's first mistake, kept beside the reference labels; no replay reads it."""

    __tablename__ = "outside_judgment"
    __table_args__ = (UniqueConstraint("record_pk", "source"),)
    id: int | None = Field(default=None, primary_key=True)
    record_pk: int = Field(foreign_key="record.pk", ondelete="CASCADE", index=True)
    source: str = Field(max_length=128)
    judgment_json: str = Field(sa_column=Column(Text, nullable=False))
    imported_at: datetime = Field(default_factory=utcnow)
