"""Outside judgments (metrics.outside_labels) joined to stored records by id, written and read.

They live in their own table, one row per record and source, so a re-audit (which rewrites
steps and verdicts) keeps them and a re-import of a source replaces only that source's row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from sqlalchemy import bindparam, delete, func, insert, select
from sqlalchemy.engine import Engine

from metrics.outside_labels import OutsideJudgment
from db.store import OUTSIDE, RECORD, STEP_VERDICT, TRACE_VERDICT

_CHUNK = 500


@dataclass
class ImportReport:
    """What an import did, line by line where something was not stored."""

    imported: int = 0
    records: int = 0
    unknown: list[tuple[int, str]] = field(default_factory=list)  # (line, id) of ids no record has
    ambiguous: list[tuple[int, str]] = field(default_factory=list)  # (line, why)
    warnings: list[tuple[int, str]] = field(default_factory=list)  # stored, but worth a look


def _candidates(engine: Engine, ids: list[str]) -> dict[str, list[tuple[int, str | None, int | None]]]:
    """(pk, model, step count) of the readable records with each id."""
    out: dict[str, list[tuple[int, str | None, int | None]]] = {}
    stmt = (select(RECORD.c.pk, RECORD.c.record_id, RECORD.c.model, TRACE_VERDICT.c.n_steps)
            .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
            .where(RECORD.c.record_id.in_(bindparam("ids", expanding=True)), RECORD.c.status == "ok"))
    with engine.connect() as conn:
        for i in range(0, len(ids), _CHUNK):
            for pk, rid, model, n in conn.execute(stmt, {"ids": ids[i:i + _CHUNK]}):
                out.setdefault(rid, []).append((pk, model, n))
    return out


def _target(judgment: OutsideJudgment, found: list[tuple[int, str | None, int | None]]
            ) -> tuple[tuple[int, int | None] | None, str | None]:
    """The record a judgment belongs to, or why none: several models' traces share the id and the
    line names no model. Copies of one model's trace (re-uploads) resolve to the latest stored."""
    if judgment.model is not None:
        found = [f for f in found if f[1] == judgment.model]
    if not found:
        return None, None
    models = sorted({f[1] or "(unknown)" for f in found})
    if len(models) > 1:
        return None, (f"id {judgment.record_id!r} names traces of {len(models)} models "
                      f"({', '.join(models[:5])}); add \"model\" to the line to say which")
    pk, _, n = max(found)
    return (pk, n), None


def import_judgments(engine: Engine, judgments: Sequence[tuple[int, OutsideJudgment]]) -> ImportReport:
    """Store (line number, judgment) pairs; ids no record has are reported, the rest go in."""
    report = ImportReport()
    found = _candidates(engine, sorted({j.record_id for _, j in judgments}))
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    now = datetime.now(timezone.utc)
    for line, j in judgments:
        target, why = _target(j, found.get(j.record_id, []))
        if why:
            report.ambiguous.append((line, why))
            continue
        if target is None:
            report.unknown.append((line, j.record_id + (f" (model {j.model})" if j.model else "")))
            continue
        pk, n_steps = target
        if j.step_scores is not None and n_steps is not None and len(j.step_scores) != n_steps:
            report.warnings.append((line, f"{len(j.step_scores)} scores for a trace of {n_steps} steps: "
                                          "only the steps both have are compared"))
        if (pk, j.source) in rows:
            report.warnings.append((line, f"a second judgment of id {j.record_id!r} by {j.source!r}: this one is kept"))
        rows[(pk, j.source)] = {"record_pk": pk, "source": j.source,
                                "judgment_json": json.dumps(j.payload()), "imported_at": now}
    if rows:
        gone = delete(OUTSIDE).where(OUTSIDE.c.record_pk == bindparam("pk"), OUTSIDE.c.source == bindparam("src"))
        with engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
            conn.execute(gone, [{"pk": pk, "src": src} for pk, src in rows])
            conn.execute(insert(OUTSIDE), list(rows.values()))
    report.imported = len(rows)
    report.records = len({pk for pk, _ in rows})
    return report


def judgments_of(engine: Engine, record_pk: int) -> list[dict[str, Any]]:
    """Every outside judgment of one record, by source: {source, step_scores?, first_mistake?, imported_at}."""
    stmt = (select(OUTSIDE.c.source, OUTSIDE.c.judgment_json, OUTSIDE.c.imported_at)
            .where(OUTSIDE.c.record_pk == record_pk).order_by(OUTSIDE.c.source))
    with engine.connect() as conn:
        return [{"source": s, **json.loads(j), "imported_at": t} for s, j, t in conn.execute(stmt)]


def judged_records(engine: Engine) -> list[dict[str, Any]]:
    """Every judgment with what it is compared to: the record's domain, our first invalid step,
    our invalid steps and the step count."""
    stmt = (select(OUTSIDE.c.record_pk, OUTSIDE.c.source, OUTSIDE.c.judgment_json, RECORD.c.domain,
                   TRACE_VERDICT.c.first_invalid_step, TRACE_VERDICT.c.n_steps)
            .select_from(OUTSIDE.join(RECORD, RECORD.c.pk == OUTSIDE.c.record_pk)
                         .outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == OUTSIDE.c.record_pk))
            .order_by(OUTSIDE.c.record_pk, OUTSIDE.c.source))
    bad = (select(STEP_VERDICT.c.record_pk, STEP_VERDICT.c.step_idx)
           .where(STEP_VERDICT.c.status == "invalid",
                  STEP_VERDICT.c.record_pk.in_(select(OUTSIDE.c.record_pk).distinct())))
    with engine.connect() as conn:
        rows = conn.execute(stmt).all()
        invalid: dict[int, set[int]] = {}
        for pk, idx in conn.execute(bad):
            invalid.setdefault(pk, set()).add(idx)
    return [{"source": source, "domain": domain or "", "judgment": json.loads(j), "first_invalid_step": first,
             "n_steps": n or 0, "invalid_steps": invalid.get(pk, set())}
            for pk, source, j, domain, first, n in rows]


def judgments_revision(engine: Engine) -> tuple[int, int]:
    """Changes with every import (each writes new rows): part of the cache key of pages showing
    judgments, since data_revision follows records, verdicts and comments only."""
    with engine.connect() as conn:
        n, top = conn.execute(select(func.count(OUTSIDE.c.id), func.max(OUTSIDE.c.id))).one()
    return int(n or 0), int(top or 0)
