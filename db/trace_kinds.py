"""Which listed records hold a summary of reasoning (core/trace_kind.py), read with the rows.

The mark lives in the record's meta (`trace_kind`), so no column is needed: a listing selects
`KIND_META`, the meta of only the records whose meta names a trace kind (a substring test on the
listed rows), and `flag_summary` turns it into the row's `trace_summary`.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import case, select
from sqlalchemy.engine import Engine

from core.trace_kind import is_summary
from db.store import RECORD

_NAMES_A_KIND = RECORD.c.meta_json.like('%"trace_kind"%')
KIND_META = case((_NAMES_A_KIND, RECORD.c.meta_json), else_=None).label("kind_meta")


def flag_summary(row: dict[str, Any]) -> dict[str, Any]:
    """The row with `kind_meta` replaced by `trace_summary` (a bool)."""
    meta = row.pop("kind_meta", None)
    try:
        row["trace_summary"] = bool(meta) and is_summary(json.loads(meta))
    except ValueError:
        row["trace_summary"] = False
    return row


def summary_trace_count(engine: Engine) -> int:
    """How many stored records hold a summary of reasoning rather than the reasoning."""
    with engine.connect() as conn:
        metas = conn.execute(select(RECORD.c.meta_json).where(_NAMES_A_KIND))
        return sum(flag_summary({"kind_meta": m})["trace_summary"] for (m,) in metas)
