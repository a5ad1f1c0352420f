"""The one engine factory: a database URL in, a migrated engine out."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url

from db.migrations import migrate

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE_PATH = REPO_ROOT / "data" / "stepscope.db"
URL_ENV = "STEPSCOPE_DATABASE_URL"

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def database_url(url: str | None = None) -> str:
    """Explicit URL, else $STEPSCOPE_DATABASE_URL, else the SQLite file under data/."""
    url = url or os.environ.get(URL_ENV) or f"sqlite:///{DEFAULT_SQLITE_PATH}"
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def _sqlite_setup(engine: Engine) -> None:
    # pysqlite's own transaction handling is switched off so BEGIN is ours (SQLAlchemy's
    # documented recipe); writers may ask for BEGIN IMMEDIATE to take the lock up front.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout = 30000")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        # 32 MB page cache (default 2 MB): content hashes and share ids land on random index
        # pages, and a cache smaller than those indexes re-reads them on every batch.
        cur.execute("PRAGMA cache_size = -32768")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:  # type: ignore[no-untyped-def]
        mode = conn.get_execution_options().get("sqlite_begin", "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())


def make_engine(url: str | None = None) -> Engine:
    """A migrated engine for `url`; one per URL per process."""
    resolved = database_url(url)
    with _lock:
        if resolved in _engines:
            return _engines[resolved]
        parsed = make_url(resolved)
        if parsed.get_backend_name() == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(resolved, connect_args={"check_same_thread": False, "timeout": 30})
            _sqlite_setup(engine)
        else:
            engine = create_engine(resolved, pool_pre_ping=True)
        migrate(engine)
        _engines[resolved] = engine
        return engine


def dispose_engines() -> None:
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
