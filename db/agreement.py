"""The agreement figures of `cli.py agreement`, read from the database for the CLI and the corpus
page alike, so both show the same numbers.

Labels: each record's reference labels (by the record's source, the file it came in) and each
outside judgment that names a first mistake (by the judgment's source), against our first
invalid step (metrics.agreement). Scores: each outside judgment with per-step scores against our
step verdicts at a threshold (metrics.score_agreement).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from metrics.agreement import agreement_table
from metrics.score_agreement import DEFAULT_THRESHOLD, score_table
from db.outside import judged_records
from db.queries import labelled_verdicts


def label_agreement(engine: Engine) -> list[dict[str, Any]]:
    """Per source and domain: our first invalid step against every first-mistake label stored."""
    rows = labelled_verdicts(engine)
    rows += [(r["source"], r["domain"], {"mistake_index": r["judgment"]["first_mistake"]}, r["first_invalid_step"])
             for r in judged_records(engine) if "first_mistake" in r["judgment"]]
    return agreement_table(rows)


def score_agreement(engine: Engine, threshold: float = DEFAULT_THRESHOLD) -> list[dict[str, Any]]:
    """Per source and domain: the scorers' low scores against our step verdicts."""
    return score_table(((r["source"], r["domain"], r["judgment"]["step_scores"], r["first_invalid_step"],
                         r["invalid_steps"], r["n_steps"])
                        for r in judged_records(engine) if r["judgment"].get("step_scores")), threshold)
