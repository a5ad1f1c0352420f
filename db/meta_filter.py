"""Filtering the corpus on any key of a record's `meta` (temperature, seed, run, checkpoint ...),
in SQL on SQLite and PostgreSQL. A value is compared in one text form per dialect (strings as
written, numbers and booleans as JSON writes them), and the page offers exactly the forms this
module lists, so a picked value always finds its records."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

MAX_KEYS = 500
MAX_VALUES = 200

# (FROM clause pairing each record with its meta entries as key / value-as-text)
_ENTRIES = {
    "sqlite": ("record r, json_each(CASE WHEN json_valid(r.meta_json) AND json_type(r.meta_json) = 'object' "
               "THEN r.meta_json ELSE '{}' END) e",
               "CASE e.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' "
               "ELSE CAST(e.value AS TEXT) END"),
    "postgresql": ("record r, jsonb_each_text(CASE WHEN jsonb_typeof(r.meta_json::jsonb) = 'object' "
                   "THEN r.meta_json::jsonb ELSE '{}'::jsonb END) e",
                   "COALESCE(e.value, 'null')"),
}


def _entries(conn: Any) -> tuple[str, str]:
    return _ENTRIES["postgresql" if conn.dialect.name == "postgresql" else "sqlite"]


def meta_keys(conn: Any) -> list[str]:
    """The meta keys present in the corpus, sorted (the page's key picker)."""
    source, _ = _entries(conn)
    sql = text(f"SELECT DISTINCT e.key FROM {source} ORDER BY e.key LIMIT {MAX_KEYS}")
    return [str(k) for (k,) in conn.execute(sql)]


def meta_values(conn: Any, key: str) -> list[tuple[str, int]]:
    """(value, records) for one key, most common first: the value picker."""
    source, value = _entries(conn)
    sql = text(f"SELECT {value} AS v, COUNT(*) AS n FROM {source} WHERE e.key = :key "
               f"GROUP BY {value} ORDER BY n DESC, v LIMIT {MAX_VALUES}")
    return [(str(v), int(n)) for v, n in conn.execute(sql, {"key": key})]


def meta_condition(conn: Any, key: str, value: str | None) -> Any:
    """A SELECT of the record keys whose meta has `key` (equal to `value`, unless None)."""
    source, expr = _entries(conn)
    where = "e.key = :meta_key" + (f" AND {expr} = :meta_value" if value is not None else "")
    params = {"meta_key": key, **({"meta_value": value} if value is not None else {})}
    return text(f"SELECT r.pk FROM {source} WHERE {where}").bindparams(**params)
