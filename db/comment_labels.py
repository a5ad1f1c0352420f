"""The label set a team defines for its comments ("misread rule", "false verification",
"annotation disagrees" ...): one list per database, kept in app_setting, so every reviewer of a
corpus picks from the same words and the corpus can be filtered by them."""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.engine import Engine

from db.store import COMMENT, get_setting, put_setting

DEFAULT_LABELS = ("misread rule", "false verification", "annotation disagrees")
SETTING = "comment_labels"
MAX_LABELS = 40


def label_set(engine: Engine) -> list[str]:
    """The team's labels, in the team's order (the defaults until an owner saves a set)."""
    raw = get_setting(engine, SETTING)
    try:
        labels = json.loads(raw) if raw else list(DEFAULT_LABELS)
    except ValueError:
        labels = list(DEFAULT_LABELS)
    return [str(x) for x in labels if isinstance(x, str)]


def save_label_set(engine: Engine, lines: list[str]) -> list[str]:
    """Store a new set: trimmed, at most 64 characters each, duplicates and blanks dropped.
    Comments keep their labels when a label leaves the set (the filter still offers it)."""
    labels = list(dict.fromkeys(x.strip()[:64] for x in lines if x.strip()))[:MAX_LABELS]
    put_setting(engine, SETTING, json.dumps(labels, ensure_ascii=False))
    return labels


def labels_offered(engine: Engine) -> list[str]:
    """What the corpus filter offers: the set, then labels comments still carry outside it."""
    with engine.connect() as conn:
        used = [x for (x,) in conn.execute(select(COMMENT.c.label).where(COMMENT.c.label.is_not(None)).distinct())]
    current = label_set(engine)
    return current + sorted(set(used) - set(current))
