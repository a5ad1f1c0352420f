"""One record as one JSON document (the record as stored, its verdict and its comments): what the
explorer's "Download this record" and `cli.py export --id` write, so the file a reviewer saves
and the file a script writes are the same bytes."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.engine import Engine

from records_io.report import jsonable_comment
from db.queries import comments_of, trace_by_share_id
from db.store import RECORD


def find_records(engine: Engine, ident: str) -> list[str]:
    """Share ids of the records a CLI argument names: a share id, or a record id (several
    models may answer one problem under one id, so a record id may name more than one)."""
    stmt = (select(RECORD.c.share_id).where(or_(RECORD.c.share_id == ident, RECORD.c.record_id == ident))
            .order_by(RECORD.c.pk))
    with engine.connect() as conn:
        return [s for (s,) in conn.execute(stmt)]


def record_document(engine: Engine, share_id: str) -> dict[str, Any] | None:
    """The record's readable fields, its current verdict and every comment on it."""
    rec = trace_by_share_id(engine, share_id)
    if rec is None:
        return None
    return {
        "id": rec["record_id"], "share_id": rec["share_id"], "source": rec["source"], "line": rec["line_no"],
        "status": rec["status"], "error": rec["error"], "domain": rec["domain"], "format": rec["format"],
        "model": rec["model"], "problem": rec["problem"], "trace": rec["trace"], "answer": rec["answer"],
        "meta": rec["meta"], "reference_labels": rec["reference_labels"] or None,
        "validator": rec.get("validator"), "verdict": rec["verdict"],
        "comments": [jsonable_comment(c) for c in comments_of(engine, rec["pk"])],
    }


def record_json(engine: Engine, share_id: str) -> str | None:
    """`record_document` as the JSON text both writers emit (None: no such record)."""
    doc = record_document(engine, share_id)
    return None if doc is None else json.dumps(doc, ensure_ascii=False, indent=1, default=str) + "\n"
