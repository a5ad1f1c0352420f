"""Shared bits for the benchmarks: repo on sys.path, timing, the result table."""

from __future__ import annotations

import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def best_of(fn: Callable[[], object], repeats: int) -> float:
    """Fastest of `repeats` timed calls, in seconds: the least disturbed by the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def row(name: str, value: float, unit: str, compared_to: str = "", ratio: float | None = None) -> dict:
    return {"name": name, "value": value, "unit": unit, "compared_to": compared_to, "ratio": ratio}


def print_table(rows: list[dict]) -> None:
    width = max((len(r["name"]) for r in rows), default=10)
    for r in rows:
        ratio = f"  ratio {r['ratio']:.3g}" if r.get("ratio") is not None else ""
        against = f"  (vs {r['compared_to']})" if r.get("compared_to") else ""
        print(f"{r['name']:<{width}}  {r['value']:>12,.2f} {r['unit']:<10}{ratio}{against}")


@contextmanager
def pg_schema(base: str, prefix: str = "bench") -> Iterator[str]:
    """A URL to a fresh schema on the PostgreSQL at `base`, dropped afterwards: a benchmark's
    tables never meet another run's."""
    import sqlalchemy as sa

    from db.engine import database_url, dispose_engines

    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(database_url(base))
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        dispose_engines()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
