"""Where captures come from and go to: stored problems in, the captured record out.

A capture is stored like any upload (pipeline.audit_units: raw JSON first, then steps and
verdict), so the explorer and the corpus pages need nothing special for it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from records_io.intake import InputUnit, object_to_record
from core.record import TraceRecord
from db.store import RECORD


@dataclass(frozen=True)
class StoredProblem:
    """One distinct problem among the stored records, with one record that carries it."""

    record_pk: int
    record_id: str | None
    domain: str
    model: str | None
    problem: dict[str, Any]

    def label(self) -> str:
        name = re.search(r"\(\s*problem\s+([^\s()]+)", str(self.problem.get("problem_pddl") or ""), re.I)
        body = f"PDDL problem {name.group(1)}" if name else json.dumps(self.problem, ensure_ascii=False, sort_keys=True)
        return f"{self.record_id or self.record_pk} · {self.model or 'no model'} · {body[:60]}"

    def to_record(self) -> TraceRecord:
        return object_to_record({"id": self.record_id, "domain": self.domain, "problem": self.problem})


def problem_domains(engine: Engine) -> list[str]:
    """Domains that have at least one stored record with a problem."""
    with engine.connect() as conn:
        rows = conn.execute(select(RECORD.c.domain).where(RECORD.c.status == "ok", RECORD.c.problem_json != "{}")
                            .group_by(RECORD.c.domain).order_by(RECORD.c.domain))
        return [r[0] for r in rows]


def stored_problems(engine: Engine, domain: str, limit: int = 200) -> list[StoredProblem]:
    """Distinct problems of a domain, newest first (one record per problem)."""
    newest = (select(func.max(RECORD.c.pk).label("pk"))
              .where(RECORD.c.status == "ok", RECORD.c.domain == domain, RECORD.c.problem_json != "{}")
              .group_by(RECORD.c.problem_json).subquery())
    stmt = (select(RECORD.c.pk, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model, RECORD.c.problem_json)
            .join(newest, newest.c.pk == RECORD.c.pk).order_by(RECORD.c.pk.desc()).limit(limit))
    with engine.connect() as conn:
        return [StoredProblem(r.pk, r.record_id, r.domain, r.model, json.loads(r.problem_json))
                for r in conn.execute(stmt)]


def store_capture(engine: Engine, record: dict[str, Any], source: str = "capture") -> tuple[dict[str, Any], str | None]:
    """Store and audit a captured record; returns (verdict JSON, share id for links)."""
    from pipeline import audit_units

    raw = json.dumps(record, ensure_ascii=False).encode("utf-8")
    unit = InputUnit(line=1, raw=raw, record=object_to_record(record))
    outcome = next(iter(audit_units([unit], engine, source=source)))
    with engine.connect() as conn:
        share_id = conn.execute(select(RECORD.c.share_id).where(RECORD.c.pk == outcome.record_pk)).scalar()
    return outcome.verdict, share_id
