"""Running totals of the whole corpus, kept by the writers in the same transaction as the rows
they count, so the corpus page's unfiltered first view and the model x domain summary read a
few thousand tally rows instead of every trace (issue #20: 1,000,000 traces in under 2 s).

Five tables (migration 9), each a count `n` per key:

* `verdict_tally`: records per (model, domain, answer verdict, trace verdict). Records without
  a verdict count as undecided / not checked, as the row queries' left join counts them.
* `first_step_tally`: records per (model, domain, first invalid step): a histogram rather than
  a running median, so the summary's medians stay exact.
* `pos_tally`: records per (model, domain, slice of the trace where the first invalid step falls).
* `rule_tally`: invalid step verdicts per rule.
* `gap_tally`: gaps per (model, domain, kind).

Each is keyed by as little as its readers need: one table keyed by all of the verdict, first
step and slice had nearly as many rows as traces at 100,000 (bench/bench_problems.py).

Keys cannot be NULL (ON CONFLICT needs equal keys to collide), so NULL is stored as a
sentinel no real value takes: model '' (the writer stores an empty model as NULL), rule ''
(likewise), -1 for an undecided verdict, a missing first invalid step or position bin.

A writer reads what the records it replaces or deletes contributed, adds what it writes, nets
the two per key and applies the net with INSERT ... ON CONFLICT DO UPDATE in sorted key order,
tables in a fixed order, as the last statements of its transaction: concurrent PostgreSQL
writers queue on a hot tally row instead of deadlocking, and hold it only until they commit.
Rows that fall to zero stay (a later writer may need them again); readers skip n = 0."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

from sqlalchemy import text
from sqlalchemy.engine import Connection

POS_BINS = 20  # slices of a trace's length the first invalid step is binned into (corpus page)
NO_MODEL = ""
NO_RULE = ""
UNDECIDED = -1


def verdict_code(value: bool | None) -> int:
    return UNDECIDED if value is None else int(bool(value))


def verdict_value(code: int) -> bool | None:
    return None if code == UNDECIDED else bool(code)


# Trace outcomes (core.verdicts.TRACE_LABELS) as tally codes; not checked is UNDECIDED, as a
# record without a verdict is.
TRACE_CODES = {"valid": 1, "invalid": 0, "no_error_found": 2}
TRACE_CHECKS = {code: check for check, code in TRACE_CODES.items()}


def trace_code(check: str | None) -> int:
    return TRACE_CODES.get(check or "", UNDECIDED)


def trace_of(code: int) -> str:
    return TRACE_CHECKS.get(code, "not_checked")


def pos_bin(rel: float | None) -> int:
    """The histogram bin of a first invalid step's relative position: the row query's
    min(floor(rel * POS_BINS), POS_BINS - 1) on the same stored double."""
    return UNDECIDED if rel is None else min(math.floor(rel * POS_BINS), POS_BINS - 1)


def corpus_key(model: str | None, domain: str, answer_correct: bool | None, check: str | None,
               first_step: int | None, first_rel: float | None) -> tuple:
    return (model or NO_MODEL, domain, verdict_code(answer_correct), trace_code(check),
            UNDECIDED if first_step is None else int(first_step), pos_bin(first_rel))


class Delta:
    """What one transaction adds to (and removes from) the tallies, netted per key."""

    def __init__(self) -> None:
        self.corpus: Counter = Counter()
        self.rules: Counter = Counter()
        self.gaps: Counter = Counter()

    def add_record(self, model: str | None, domain: str, verdict: dict[str, Any] | None, sign: int = 1) -> None:
        v = verdict or {}
        self.corpus[corpus_key(model, domain, v.get("answer_correct"), v.get("trace_check"),
                               v.get("first_invalid_step"), v.get("first_invalid_rel"))] += sign

    def add_rules(self, rules: Iterable[str | None], sign: int = 1) -> None:
        for rule in rules:
            self.rules[rule or NO_RULE] += sign

    def add_gaps(self, model: str | None, domain: str, kinds: Iterable[str], sign: int = 1) -> None:
        for kind in kinds:
            self.gaps[(model or NO_MODEL, domain, kind)] += sign


def _keys_clause(conn: Connection, column: str) -> str:
    if conn.dialect.name == "sqlite":
        return f"{column} IN (SELECT value FROM json_each(:k))"
    return f"{column} = ANY(:k)"


def subtract_stored(conn: Connection, keys: dict[str, object], delta: Delta) -> dict[int, tuple[str | None, str]]:
    """Take what the stored records (bound as :k, see db.store._key_param) contribute now out of
    `delta`; returns each found record's (model, domain)."""
    owners: dict[int, tuple[str | None, str]] = {}
    rows = conn.execute(text(
        "SELECT r.pk, r.model, r.domain, tv.answer_correct, tv.trace_check, tv.first_invalid_step, "
        "tv.first_invalid_rel FROM record r LEFT JOIN trace_verdict tv ON tv.record_pk = r.pk "
        f"WHERE {_keys_clause(conn, 'r.pk')}"), keys)
    for pk, model, domain, correct, check, first, rel in rows:
        owners[pk] = (model, domain)
        delta.corpus[corpus_key(model, domain, correct, check, first, rel)] -= 1
    for rule, n in conn.execute(text(
            "SELECT rule, COUNT(*) FROM step_verdict "
            f"WHERE {_keys_clause(conn, 'record_pk')} AND status = 'invalid' GROUP BY rule"), keys):
        delta.rules[rule or NO_RULE] -= n
    for model, domain, kind, n in conn.execute(text(
            "SELECT r.model, r.domain, g.kind, COUNT(*) FROM verdict_gap g JOIN record r ON r.pk = g.record_pk "
            f"WHERE {_keys_clause(conn, 'g.record_pk')} GROUP BY r.model, r.domain, g.kind"), keys):
        delta.gaps[(model or NO_MODEL, domain, kind)] -= n
    return owners


def _upsert(conn: Connection, table: str, key: tuple[str, ...], counts: Counter) -> None:
    rows = sorted((k, n) for k, n in counts.items() if n)
    if not rows:
        return
    names = (*key, "n")
    sql = (f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(':' + c for c in names)}) "
           f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET n = {table}.n + excluded.n")
    conn.execute(text(sql), [dict(zip(names, (*k, n))) for k, n in rows])


def apply(conn: Connection, delta: Delta) -> None:
    """Add the net delta: sorted keys, tables always in this order (no deadlock between writers)."""
    verdicts: Counter = Counter()
    firsts: Counter = Counter()
    slices: Counter = Counter()
    for (model, domain, answer, trace, first, pos), n in delta.corpus.items():
        verdicts[(model, domain, answer, trace)] += n
        if first != UNDECIDED:
            firsts[(model, domain, first)] += n
        if pos != UNDECIDED:
            slices[(model, domain, pos)] += n
    _upsert(conn, "verdict_tally", ("model", "domain", "answer", "trace"), verdicts)
    _upsert(conn, "first_step_tally", ("model", "domain", "first_step"), firsts)
    _upsert(conn, "pos_tally", ("model", "domain", "pos_bin"), slices)
    _upsert(conn, "rule_tally", ("rule",), Counter({(r,): n for r, n in delta.rules.items()}))
    _upsert(conn, "gap_tally", ("model", "domain", "kind"), delta.gaps)


TABLES = ("verdict_tally", "first_step_tally", "pos_tally", "rule_tally", "gap_tally")


def rebuild(conn: Connection, by_check: bool = True) -> None:
    """Recount every tally from the stored rows (migrations 9 and 11; bulk loads that bypass the
    writers, such as bench/bench_problems.py, call it after loading). Migration 9 ran before
    `trace_check` existed: `by_check=False` counts the trace verdict from `trace_valid`."""
    least = "min" if conn.dialect.name == "sqlite" else "least"
    code = "CASE WHEN {0} IS NULL THEN -1 WHEN {0} THEN 1 ELSE 0 END"
    joined = "FROM record r LEFT JOIN trace_verdict tv ON tv.record_pk = r.pk"
    trace = ("CASE tv.trace_check WHEN 'valid' THEN 1 WHEN 'invalid' THEN 0 WHEN 'no_error_found' THEN 2 ELSE -1 END"
             if by_check else code.format("tv.trace_valid"))
    for table in TABLES:
        conn.execute(text(f"DELETE FROM {table}"))
    conn.execute(text(
        "INSERT INTO verdict_tally (model, domain, answer, trace, n) "
        f"SELECT coalesce(r.model, ''), r.domain, {code.format('tv.answer_correct')}, "
        f"{trace}, COUNT(*) {joined} GROUP BY 1, 2, 3, 4"))
    conn.execute(text(
        "INSERT INTO first_step_tally (model, domain, first_step, n) "
        f"SELECT coalesce(r.model, ''), r.domain, tv.first_invalid_step, COUNT(*) {joined} "
        "WHERE tv.first_invalid_step IS NOT NULL GROUP BY 1, 2, 3"))
    conn.execute(text(
        "INSERT INTO pos_tally (model, domain, pos_bin, n) "
        f"SELECT coalesce(r.model, ''), r.domain, "
        f"CAST({least}(floor(tv.first_invalid_rel * {POS_BINS}), {POS_BINS - 1}) AS INTEGER), COUNT(*) {joined} "
        "WHERE tv.first_invalid_rel IS NOT NULL GROUP BY 1, 2, 3"))
    conn.execute(text("INSERT INTO rule_tally (rule, n) SELECT coalesce(rule, ''), COUNT(*) FROM step_verdict "
                      "WHERE status = 'invalid' GROUP BY 1"))
    conn.execute(text("INSERT INTO gap_tally (model, domain, kind, n) SELECT coalesce(r.model, ''), r.domain, g.kind, "
                      "COUNT(*) FROM verdict_gap g JOIN record r ON r.pk = g.record_pk GROUP BY 1, 2, 3"))


# --- reading -----------------------------------------------------------------------------------

def _model(value: str) -> str | None:
    return None if value == NO_MODEL else value


def total(conn: Connection) -> int:
    return int(conn.execute(text("SELECT coalesce(SUM(n), 0) FROM verdict_tally")).scalar_one())


def matrix(conn: Connection) -> list[tuple[str | None, bool | None, str, int]]:
    """(model, answer_correct, trace outcome, records) for every group with records."""
    rows = conn.execute(text("SELECT model, answer, trace, SUM(n) FROM verdict_tally WHERE n > 0 "
                             "GROUP BY model, answer, trace"))
    return [(_model(m), verdict_value(a), trace_of(t), int(n)) for m, a, t, n in rows]


def first_invalid_bins(conn: Connection) -> list[tuple[int, int]]:
    rows = conn.execute(text("SELECT pos_bin, SUM(n) FROM pos_tally WHERE n > 0 "
                             "GROUP BY pos_bin ORDER BY pos_bin"))
    return [(int(b), int(n)) for b, n in rows]


def rules(conn: Connection, limit: int) -> list[tuple[str | None, int]]:
    rows = conn.execute(text("SELECT rule, n FROM rule_tally WHERE n > 0 ORDER BY n DESC, rule LIMIT :lim"),
                        {"lim": limit})
    return [(None if r == NO_RULE else r, int(n)) for r, n in rows]


def options(conn: Connection) -> dict[str, list[str]]:
    """What the corpus filters offer: models (None for no model), domains, gap kinds, rules."""
    models = [_model(m) for (m,) in conn.execute(text("SELECT DISTINCT model FROM verdict_tally WHERE n > 0"))]
    domains = [d for (d,) in conn.execute(text("SELECT DISTINCT domain FROM verdict_tally WHERE n > 0"))]
    gaps = [g for (g,) in conn.execute(text("SELECT DISTINCT kind FROM gap_tally WHERE n > 0"))]
    named = [None if r == NO_RULE else r for (r,) in conn.execute(text("SELECT rule FROM rule_tally WHERE n > 0"))]
    return {"models": models, "domains": domains, "gaps": gaps, "rules": named}


def summary_groups(conn: Connection, keys: tuple[str, ...]) -> tuple[dict[tuple, list[int]],
                                                                      dict[tuple, list[tuple[int, int]]], list[Any]]:
    """db.summary's inputs from the tallies: per group [records, correct, wrong, valid, invalid],
    its (first invalid step, records) pairs, and (group..., gap kind, records) rows. The sixth
    count is traces with no error found (checked, nothing false, some claims unjudged)."""
    cols = list(keys)
    grouped = ", ".join(cols + ["answer", "trace"])
    totals: dict[tuple, list[int]] = {}
    firsts: dict[tuple, list[tuple[int, int]]] = {}

    def group(row: Any) -> tuple:
        return tuple(_model(v) if c == "model" else v for c, v in zip(cols, row)) or ("all",)

    for row in conn.execute(text(f"SELECT {grouped}, SUM(n) FROM verdict_tally WHERE n > 0 GROUP BY {grouped}")):
        answer, trace, n = row[len(cols)], row[len(cols) + 1], int(row[len(cols) + 2])
        acc = totals.setdefault(group(row), [0] * 6)
        acc[0] += n
        acc[1] += n if answer == 1 else 0
        acc[2] += n if answer == 0 else 0
        acc[3] += n if trace == 1 else 0
        acc[4] += n if trace == 0 else 0
        acc[5] += n if trace == TRACE_CODES["no_error_found"] else 0
    by_first = ", ".join(cols + ["first_step"])
    for row in conn.execute(text(f"SELECT {by_first}, SUM(n) FROM first_step_tally WHERE n > 0 GROUP BY {by_first}")):
        firsts.setdefault(group(row), []).append((int(row[len(cols)]), int(row[len(cols) + 1])))
    gap_cols = ", ".join(cols + ["kind"])
    gap_rows = []
    for row in conn.execute(text(f"SELECT {gap_cols}, SUM(n) FROM gap_tally WHERE n > 0 GROUP BY {gap_cols}")):
        gap_rows.append((*group(row), row[len(cols)], int(row[len(cols) + 1])))
    return totals, firsts, gap_rows
