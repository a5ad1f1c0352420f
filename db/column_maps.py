"""Column maps remembered per table layout (issue 38: "remembered per source"): the `--map` a user
gave for a dataset, kept in this database's app_setting under the digest of the table's column
names, so the next file with the same columns (another shard, next week's eval run, the same file
uploaded in the app) is read the same way without asking again. One map per layout: the last one
given wins."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Mapping

from sqlalchemy.engine import Engine

from db.store import get_setting, put_setting

PREFIX = "column_map:"


def layout_key(columns: tuple[str, ...]) -> str:
    """The setting key of a table layout: its column names as a set (order does not matter)."""
    digest = hashlib.sha256("\x1f".join(sorted(columns)).encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return PREFIX + digest


class StoredColumnMaps:
    """sources.base.ColumnMemory on a database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def recall(self, columns: tuple[str, ...]) -> Mapping[str, str] | None:
        raw = get_setting(self.engine, layout_key(columns))
        if not raw:
            return None
        try:
            mapping = json.loads(raw).get("mapping")
        except (ValueError, AttributeError):
            return None
        if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in mapping.items()):
            return None
        return mapping

    def remember(self, columns: tuple[str, ...], mapping: Mapping[str, str], source: str) -> None:
        value = {"mapping": dict(mapping), "source": source, "columns": sorted(columns)[:200],
                 "saved": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        put_setting(self.engine, layout_key(columns), json.dumps(value, sort_keys=True))
