"""SYNTHETIC fixtures for the length-generalisation domains: traces written by
validators/last_letter/synthetic.py and validators/multiplication/synthetic.py with injected
errors, for two made-up "models" whose error rate per step differs. Never model output; the
records say so (`meta.synthetic`, model names starting with "synthetic")."""

from __future__ import annotations

import random
from typing import Any

from audit import audit_record
from records_io.intake import object_to_record
from validators.last_letter.generate import generate as last_letter_problems
from validators.last_letter.synthetic import INJECTIONS as LETTER_INJECTIONS
from validators.last_letter.synthetic import synthetic_trace as letter_trace
from validators.multiplication.generate import generate as multiplication_problems
from validators.multiplication.synthetic import INJECTIONS as PRODUCT_INJECTIONS
from validators.multiplication.synthetic import synthetic_trace as product_trace

# Chance that a trace gets one injected error, per step it writes (so longer traces fail more).
MODELS = {"synthetic-careful": 0.01, "synthetic-sloppy": 0.05}


def length_records(domain: str, lengths: range = range(2, 13), per_length: int = 4, seed: int = 0,
                   models: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """Records of every model on the same generated problems, with the injection each got."""
    out = []
    for model, rate in (models or MODELS).items():
        rng = random.Random(f"{domain}:{model}:{seed}")
        for n in lengths:
            if domain == "last_letter":
                problems, steps, kinds = last_letter_problems(n, per_length, seed), 2 * n, LETTER_INJECTIONS
            else:
                problems, steps, kinds = multiplication_problems(n, per_length, seed), 2 * n, PRODUCT_INJECTIONS
            for i, problem in enumerate(problems):
                inject = rng.choice(kinds) if rng.random() < 1 - (1 - rate) ** steps else None
                if domain == "last_letter":
                    made = letter_trace(problem["words"], inject, rng)
                else:
                    made = product_trace(int(problem["a"]), int(problem["b"]), inject, rng)
                out.append({"id": f"{domain}-{model}-n{n}-{i}", "domain": domain, "model": model, "problem": problem,
                            "trace": made.trace, "answer": made.answer,
                            "meta": {"synthetic": True, "injected": made.injected,
                                     "injected_step": made.injected_step}})
    return out


def root_scores(records: list[dict[str, Any]], verdicts: list[Any]) -> tuple[int, int, int]:
    """(injected errors, root flags, root flags on an injected step) over the records' verdicts:
    a root flag is an invalid step that is no `consequence_of` another."""
    injected = flagged = hits = 0
    for rec, v in zip(records, verdicts):
        roots = {s["step"] for s in v.invalid_steps if s["consequence_of"] is None}
        want = {rec["meta"]["injected_step"]} if rec["meta"]["injected_step"] is not None else set()
        injected, flagged, hits = injected + len(want), flagged + len(roots), hits + len(roots & want)
    return injected, flagged, hits


def assert_injected_errors_found(domain: str, per_length: int, at_least: int) -> None:
    """Every injected step error found as the root of its error, nothing else flagged as a root
    (precision = recall = 1.0 over lengths 2..12), and the answer verdict as injected."""
    records = length_records(domain, per_length=per_length, models={"synthetic-a": 0.03, "synthetic-b": 0.08})
    verdicts = [audit_record(object_to_record(rec)).verdict for rec in records]
    assert [v.answer_correct for v in verdicts] == [rec["meta"]["injected"] is None for rec in records]
    injected, flagged, hits = root_scores(records, verdicts)
    assert injected >= at_least
    assert hits / flagged == 1.0 and hits / injected == 1.0
