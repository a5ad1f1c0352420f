"""Search over step text and record ids, one syntax for the corpus and the explorer.

Syntax (shown beside every search box, `SYNTAX`):

* `2+2=5` -- the text as typed is a phrase: a step matches when it contains it, ignoring case.
  The full-text index (FTS5 / tsvector) only narrows the candidates to steps holding its words;
  the phrase itself is then checked on the step text, so `2+2=5` does not match a step that
  merely has the numbers 2 and 5 somewhere.
* `"Planet b" "red"` -- several quoted phrases: a step matches when it contains every one.
* `id:abc123` -- the record with that id; in the corpus a plain query equal to a record id finds
  that record too.
* A query with no letter or digit (`*`, `+`) is refused with a message: there are no wildcards,
  and nothing is matched silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

SYNTAX = ('Finds steps containing the text as typed (a phrase, any case). Several phrases: "red block" "on top" '
          '(a step must contain each). A record: id:<record id>. No wildcards: * is not "anything".')

_WORD = re.compile(r"\w+", re.UNICODE)
_QUOTED = re.compile(r'"([^"]*)"')
SNIPPET_CHARS = 160


@dataclass(frozen=True)
class SearchQuery:
    """A parsed query: phrases every matching step contains, or a record id, or why neither."""

    phrases: tuple[str, ...] = ()
    record_id: str | None = None
    error: str | None = None

    @property
    def empty(self) -> bool:
        return not self.phrases and self.record_id is None and self.error is None


def parse_query(raw: str | None) -> SearchQuery:
    """Read the search syntax above; bad input gets a message, not a silent match-all."""
    q = (raw or "").strip()
    if not q:
        return SearchQuery()
    if q.lower().startswith("id:"):
        rid = q[3:].strip()
        return SearchQuery(record_id=rid) if rid else SearchQuery(error="id: needs a record id after it")
    quoted = [p.strip() for p in _QUOTED.findall(q)]
    phrases = tuple(p for p in quoted if p) if quoted else (q,)
    wordless = [p for p in phrases if not _WORD.search(p)]
    if not phrases or wordless:
        shown = wordless[0] if wordless else q
        return SearchQuery(error=f"{shown!r} has no letter or digit to search for: there are no wildcards "
                                 "(* does not mean anything); type words or numbers that occur in a step")
    return SearchQuery(phrases=phrases)


def _fts5_phrase(phrase: str) -> str:
    """The phrase's words as one FTS5 phrase: operators in user text stay inert."""
    return '"' + " ".join(w.replace('"', '""') for w in _WORD.findall(phrase)) + '"'


def step_condition(conn: Connection, query: SearchQuery, alias: str = "s") -> tuple[str, str, dict[str, Any]]:
    """(FROM addition, WHERE condition, parameters) selecting steps `alias` that match the
    query's phrases: the index narrows, the phrase check decides."""
    params: dict[str, Any] = {}
    checks = []
    for i, phrase in enumerate(query.phrases):
        params[f"sp{i}"] = phrase.lower()
        find = "instr" if conn.dialect.name == "sqlite" else "strpos"
        checks.append(f"{find}(lower({alias}.text), :sp{i}) > 0")
    if conn.dialect.name == "sqlite":
        params["sfts"] = " AND ".join(_fts5_phrase(p) for p in query.phrases)
        return (f"JOIN step_fts ON step_fts.rowid = {alias}.id", "step_fts MATCH :sfts AND " + " AND ".join(checks),
                params)
    index = []
    for i, phrase in enumerate(query.phrases):
        params[f"sw{i}"] = phrase
        index.append(f"{alias}.tsv @@ plainto_tsquery('simple', :sw{i})")
    return "", " AND ".join(index + checks), params


def snippet(step_text: str, query: SearchQuery, width: int = SNIPPET_CHARS) -> str:
    """The step text around the first phrase's first occurrence, with ellipses where cut."""
    if not query.phrases:
        return step_text[:width]
    at = step_text.lower().find(query.phrases[0].lower())
    if at < 0:
        return step_text[:width]
    lo = max(0, at - (width - len(query.phrases[0])) // 2)
    hi = min(len(step_text), lo + width)
    lo = max(0, hi - width)
    out = step_text[lo:hi].replace("\n", " ")
    return ("…" if lo else "") + out + ("…" if hi < len(step_text) else "")
