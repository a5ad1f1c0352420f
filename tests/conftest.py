"""Shared fixtures: development data, and a database per test on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
# The full development data when it is there (../shared, or STEPSCOPE_DEV_DATA), else the
# sample in tests/data/dev (scripts/sample_dev_data.py; licenses in tests/data/NOTICE.md), so a
# fresh clone runs the fidelity tests too. SearchFormer's traces are not in the sample.
SAMPLE_DATA = REPO / "tests" / "data" / "dev"
DEV_DATA = Path(os.environ.get("STEPSCOPE_DEV_DATA") or SHARED / "data" / "dev")
if not DEV_DATA.exists():
    DEV_DATA = SAMPLE_DATA
FULL_DEV_DATA = DEV_DATA != SAMPLE_DATA
PG_ENV = "STEPSCOPE_TEST_POSTGRES_URL"


def dev_path(name: str) -> Path:
    path = DEV_DATA / name
    if not path.exists():
        pytest.skip(f"development data {path} is not present")
    return path


def load_dev(name: str) -> list[dict[str, Any]]:
    with open(dev_path(name), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _backends() -> list[Any]:
    return ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=_backends())
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a new schema on the test PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'stepscope.db'}"
        return
    yield from postgres_schema_url("t")


def postgres_schema_url(prefix: str) -> Iterator[str]:
    """A URL to a fresh schema on the test PostgreSQL, dropped afterwards (skips without one)."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set")
    import sqlalchemy as sa

    from db.engine import database_url, dispose_engines

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(database_url(base))
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{schema}"
    dispose_engines()
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()
