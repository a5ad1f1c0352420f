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

from db import tally

GROUP_KEYS = ("model", "domain")


def _keys(by: tuple[str, ...]) -> tuple[str, ...]:
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}: choose from {', '.join(GROUP_KEYS)}")
    return tuple(dict.fromkeys(by))


def _label(key: str, value: Any) -> str:
    return "(unknown)" if key == "model" and value is None else str(value)


def summary(engine: Engine, by: tuple[str, ...] = GROUP_KEYS, from_rows: bool = False) -> list[dict[str, Any]]:
    """One row per group of `by` (a subset of model, domain; empty: one row, `scope` "all").

    Read from the tallies the writers keep (db/tally.py): a few thousand rows whatever the
    corpus size. `from_rows` recounts every stored trace instead (the tests compare the two)."""
    keys = _keys(by)
    if not from_rows:
        with engine.connect() as conn:
            totals, firsts, gap_rows = tally.summary_groups(conn, keys)
        return summary_rows(totals, firsts, gap_rows, keys or ("scope",))
    cols = [f"r.{k}" for k in keys] or ["lower('all')"]  # a bare literal cannot be grouped by in PostgreSQL
    names = keys or ("scope",)
    listed = ", ".join(cols)
    # One pass gives the counts and the first invalid steps' histogram (the median comes from it):
    # a window-function median sorted every row and cost three times as much (bench_problems).
    main = text(
        f"SELECT {listed}, tv.first_invalid_step, COUNT(*), "
        "SUM(CASE WHEN tv.answer_correct THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.answer_correct = false THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.trace_valid THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.trace_valid = false THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN tv.trace_check = 'no_error_found' THEN 1 ELSE 0 END) "
        f"FROM record r LEFT JOIN trace_verdict tv ON tv.record_pk = r.pk GROUP BY {listed}, tv.first_invalid_step")
    gaps = text(f"SELECT {listed}, g.kind, COUNT(*) FROM verdict_gap g JOIN record r ON r.pk = g.record_pk "
                f"GROUP BY {listed}, g.kind")
    n = len(cols)
    totals: dict[tuple, list[int]] = {}
    firsts: dict[tuple, list[tuple[int, int]]] = {}
    with engine.connect() as conn:
        for row in conn.execute(main):
            key, first = tuple(row[:n]), row[n]
            counts = [int(v or 0) for v in row[n + 1:]]
            acc = totals.setdefault(key, [0] * len(counts))
            for i, v in enumerate(counts):
                acc[i] += v
            if first is not None:
                firsts.setdefault(key, []).append((int(first), counts[0]))
        gap_rows = conn.execute(gaps).all()
    return summary_rows(totals, firsts, gap_rows, names)


def summary_rows(totals: dict[tuple, list[int]], firsts: dict[tuple, list[tuple[int, int]]],
                 gap_rows: list[Any], names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Rows of the table from per-group [records, correct, wrong, valid, invalid, no error found] counts, each
    group's (first invalid step, records) pairs and (group..., gap kind, records) rows."""
    n = len(names)
    out: dict[tuple, dict[str, Any]] = {}
    for key, (records, right, wrong, valid, invalid, no_error) in totals.items():
        unknown = records - right - wrong
        checked = valid + invalid
        out[key] = {
            **{k: _label(k, v) for k, v in zip(names, key)},
            "records": records, "answer_correct": right, "answer_wrong": wrong, "answer_unknown": unknown,
            "answer_correct_rate": right / records if records else None,
            "unknown_rate": unknown / records if records else None,
            "trace_valid": valid, "trace_invalid": invalid, "trace_no_error_found": no_error,
            "trace_not_checked": records - valid - invalid - no_error,
            "trace_valid_rate": valid / checked if checked else None,
            "first_invalid_median": _median(sorted(firsts.get(key, []))), "gaps": {},
        }
    for row in gap_rows:
        if tuple(row[:n]) in out:
            out[tuple(row[:n])]["gaps"][row[n]] = int(row[n + 1])
    return sorted(out.values(), key=lambda r: tuple(r[k] for k in names))


def _median(histogram: list[tuple[int, int]]) -> float | None:
    """Median of a sorted (value, count) histogram; the mean of the two middle values for an even count."""
    total = sum(c for _, c in histogram)
    if not total:
        return None
    lo_rank, hi_rank = (total - 1) // 2, total // 2
    seen, lo = 0, None
    for value, count in histogram:
        if lo is None and seen + count > lo_rank:
            lo = value
        if seen + count > hi_rank:
            return (lo + value) / 2
        seen += count
    return None


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
