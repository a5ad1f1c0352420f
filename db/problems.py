"""Read-only queries over problems: every sample of one problem, the problems with several
samples, and the grouped votes selection metrics are computed from. Problems are identified by
`record.problem_hash` (metrics/problem_key.py), indexed with the model, so grouping is a query."""

from __future__ import annotations

import json
from typing import Any, Collection

from sqlalchemy import case, exists, func, select
from sqlalchemy.engine import Engine

from metrics.selection import SelectionRow, Vote, selection_row
from db.store import GAP, RECORD, TRACE_VERDICT
from db.trace_kinds import KIND_META, flag_summary


def _joined():
    return RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk)


_LATER = RECORD.alias("later")


def _not_a_copy():
    """A record counts once however often it arrived: of the records sharing a record_id and a
    model, only the latest stored is a sample (copies would count as independent samples in
    pass@1, majority and verified@k). A record without an id has no copies; saying so inside the
    subquery keeps SQLite from seeking every other id-less record (quadratic: 559 s at 100,000)
    while PostgreSQL still plans an anti-join (an OR outside it makes a per-row subplan)."""
    return ~exists().where(RECORD.c.record_id.is_not(None), _LATER.c.record_id == RECORD.c.record_id,
                           _LATER.c.model.is_not_distinct_from(RECORD.c.model),
                           _LATER.c.pk > RECORD.c.pk)


def problem_size(engine: Engine, problem_hash: str | None) -> int:
    """How many stored records pose this problem."""
    if not problem_hash:
        return 0
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(RECORD)
                            .where(RECORD.c.problem_hash == problem_hash, _not_a_copy())).scalar_one()


def problem_records(engine: Engine, problem_hash: str, limit: int = 500) -> list[dict[str, Any]]:
    """Every record of one problem (any model, any sample) with its verdict summary and gaps."""
    stmt = (select(RECORD.c.pk, RECORD.c.share_id, RECORD.c.record_id, RECORD.c.domain, RECORD.c.model,
                   RECORD.c.answer, func.length(RECORD.c.trace).label("trace_chars"),
                   TRACE_VERDICT.c.n_steps, TRACE_VERDICT.c.answer_correct, TRACE_VERDICT.c.trace_valid,
                   TRACE_VERDICT.c.trace_check,
                   TRACE_VERDICT.c.first_invalid_step, TRACE_VERDICT.c.n_invalid, TRACE_VERDICT.c.answer_error_kind,
                   TRACE_VERDICT.c.answer_key, KIND_META)
            .select_from(_joined()).where(RECORD.c.problem_hash == problem_hash, _not_a_copy())
            .order_by(RECORD.c.model, RECORD.c.pk).limit(limit))
    with engine.connect() as conn:
        rows = [flag_summary(dict(r._mapping)) for r in conn.execute(stmt)]
        gaps: dict[int, list[str]] = {}
        if rows:
            for pk, kind in conn.execute(select(GAP.c.record_pk, GAP.c.kind)
                                         .where(GAP.c.record_pk.in_([r["pk"] for r in rows]))
                                         .order_by(GAP.c.record_pk, GAP.c.kind)):
                gaps.setdefault(pk, []).append(kind)
    for r in rows:
        r["model"] = r["model"] or "(unknown)"
        r["gaps"] = gaps.get(r["pk"], [])
    return rows


def problem_text(engine: Engine, problem_hash: str) -> dict[str, Any] | None:
    """The problem as the first stored record of it gives it."""
    with engine.connect() as conn:
        raw = conn.execute(select(RECORD.c.problem_json).where(RECORD.c.problem_hash == problem_hash)
                           .order_by(RECORD.c.pk).limit(1)).scalar()
    return None if raw is None else json.loads(raw or "{}")


def problems_with_samples(engine: Engine, domains: tuple[str, ...] = (), min_samples: int = 2,
                          limit: int = 200) -> list[dict[str, Any]]:
    """Problems with at least `min_samples` records, most sampled first: samples, models, correct."""
    cond = [RECORD.c.problem_hash.is_not(None), _not_a_copy()]
    if domains:
        cond.append(RECORD.c.domain.in_(domains))
    n = func.count().label("samples")
    stmt = (select(RECORD.c.problem_hash, func.min(RECORD.c.domain).label("domain"), n,
                   func.count(func.distinct(RECORD.c.model)).label("models"),
                   func.sum(case((TRACE_VERDICT.c.answer_correct.is_(True), 1), else_=0)).label("correct"))
            .select_from(_joined()).where(*cond).group_by(RECORD.c.problem_hash)
            .having(n >= min_samples).order_by(n.desc(), RECORD.c.problem_hash).limit(limit))
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt)]


def grouped_votes(engine: Engine, domains: tuple[str, ...] = ()) -> list[tuple[str, str, str, str | None, bool | None, int]]:
    """(model, domain, problem, answer key, answer correct, records) for every problem with a
    hash: the whole input of the selection metrics, aggregated in SQL."""
    cond = [RECORD.c.problem_hash.is_not(None), _not_a_copy()]
    if domains:
        cond.append(RECORD.c.domain.in_(domains))
    cols = (RECORD.c.model, RECORD.c.domain, RECORD.c.problem_hash, TRACE_VERDICT.c.answer_key,
            TRACE_VERDICT.c.answer_correct)
    stmt = select(*cols, func.count()).select_from(_joined()).where(*cond).group_by(*cols)
    with engine.connect() as conn:
        return [(m or "(unknown)", d, h, k, c, int(n)) for m, d, h, k, c, n in conn.execute(stmt)]


ALL_MODELS = "(all models)"


def selection_metrics(engine: Engine, domains: tuple[str, ...] = (), pooled: bool = True, max_k: int = 10,
                      curve_models: Collection[str] | None = None) -> list[SelectionRow]:
    """Selection metrics per (model, domain) over problems with several samples of that model;
    with `pooled`, also per domain over every model's samples of a problem (ALL_MODELS). Curves
    against k for the models in `curve_models` (None: every model)."""
    per: dict[tuple[str, str], dict[str, list[Vote]]] = {}
    for model, domain, problem, key, correct, n in grouped_votes(engine, domains):
        votes = [(key, correct)] * n
        per.setdefault((model, domain), {}).setdefault(problem, []).extend(votes)
        if pooled:
            per.setdefault((ALL_MODELS, domain), {}).setdefault(problem, []).extend(votes)
    rows = []
    for (model, domain), problems in sorted(per.items()):
        ordered = [problems[h] for h in sorted(problems)]
        row = selection_row(model, domain, ordered, max_k=max_k,
                            curve=curve_models is None or model in curve_models)
        if row.problems:
            rows.append(row)
    return rows
