"""The model x domain table (`cli.py summary`, the corpus page): aggregates of the stored
per-record verdicts, computed in SQL so a large corpus is never loaded to be counted.

Per group: records (every stored input, unreadable ones under domain `unknown`), answer correct /
wrong / undecided counts and rates over all records, trace valid rate over the records whose
trace was checked, the median first invalid step (over records that have one; the mean of the two
middle values for an even count), and gap counts by kind."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

GROUP_KEYS = ("model", "domain")
_MEDIAN_SQL = """
SELECT {keys}, AVG(fis) FROM (
  SELECT {inner_keys}, tv.first_invalid_step AS fis,
         ROW_NUMBER() OVER (PARTITION BY {part} ORDER BY tv.first_invalid_step) AS rn,
         COUNT(*) OVER (PARTITION BY {part}) AS cnt
  FROM record r JOIN trace_verdict tv ON tv.record_pk = r.pk
  WHERE tv.first_invalid_step IS NOT NULL
) m WHERE rn IN ((cnt + 1) / 2, (cnt + 2) / 2) GROUP BY {keys}
"""


def _keys(by: tuple[str, ...]) -> tuple[str, ...]:
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}: choose from {', '.join(GROUP_KEYS)}")
    return tuple(dict.fromkeys(by))


def _label(key: str, value: Any) -> str:
    return "(unknown)" if key == "model" and value is None else str(value)


def summary(engine: Engine, by: tuple[str, ...] = GROUP_KEYS) -> list[dict[str, Any]]:
    """One row per group of `by` (a subset of model, domain; empty: one row, `scope` "all")."""
    keys = _keys(by)
    cols = [f"r.{k}" for k in keys] or ["lower('all')"]  # a bare literal cannot be grouped by in PostgreSQL
    names = keys or ("scope",)
    listed = ", ".join(cols)
    main = text(
        f"SELECT {listed}, COUNT(*) AS records, "
        "SUM(CASE WHEN tv.answer_correct THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.answer_correct = false THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.answer_correct IS NULL THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.trace_valid THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.trace_valid = false THEN 1 ELSE 0 END) "
        f"FROM record r LEFT JOIN trace_verdict tv ON tv.record_pk = r.pk GROUP BY {listed}")
    inner = ", ".join(f"{c} AS k{i}" for i, c in enumerate(cols))
    outer = ", ".join(f"k{i}" for i in range(len(cols)))
    median = text(_MEDIAN_SQL.format(keys=outer, inner_keys=inner, part=listed))
    gaps = text(f"SELECT {listed}, g.kind, COUNT(*) FROM verdict_gap g JOIN record r ON r.pk = g.record_pk "
                f"GROUP BY {listed}, g.kind")
    n = len(cols)
    with engine.connect() as conn:
        out: dict[tuple, dict[str, Any]] = {}
        for row in conn.execute(main):
            key = tuple(row[:n])
            records, right, wrong, unknown, valid, invalid = (int(v or 0) for v in row[n:])
            checked = valid + invalid
            out[key] = {
                **{k: _label(k, v) for k, v in zip(names, key)},
                "records": records, "answer_correct": right, "answer_wrong": wrong, "answer_unknown": unknown,
                "answer_correct_rate": right / records if records else None,
                "unknown_rate": unknown / records if records else None,
                "trace_valid": valid, "trace_invalid": invalid,
                "trace_valid_rate": valid / checked if checked else None,
                "first_invalid_median": None, "gaps": {},
            }
        for row in conn.execute(median):
            if tuple(row[:n]) in out and row[n] is not None:
                out[tuple(row[:n])]["first_invalid_median"] = float(row[n])
        for row in conn.execute(gaps):
            if tuple(row[:n]) in out:
                out[tuple(row[:n])]["gaps"][row[n]] = int(row[n + 1])
    return sorted(out.values(), key=lambda r: tuple(r[k] for k in names))


def gap_kinds(rows: list[dict[str, Any]]) -> list[str]:
    return sorted({kind for r in rows for kind in r["gaps"]})


def flat_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with one `gap <kind>` column per gap kind (for tables and CSV)."""
    kinds = gap_kinds(rows)
    out = []
    for r in rows:
        flat = {k: v for k, v in r.items() if k != "gaps"}
        flat.update({f"gap {kind}": r["gaps"].get(kind, 0) for kind in kinds})
        out.append(flat)
    return out
