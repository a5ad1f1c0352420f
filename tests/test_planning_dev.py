"""Acceptance on PlanBench development data, end to end through audit.audit_record."""

from __future__ import annotations

import pytest

from audit import audit_record
from core.record import record_from_json
from tests.conftest import FULL_DEV_DATA, load_dev

# Rows whose published label (VAL on PlanBench's own extraction) disagrees with a replay of the
# plan the answer states. Each was replayed step by step; the reasons follow
# reference-semantics.md 4.3-4.4. Our verdict is the one in the value's first element. The
# table for all dev PlanBench files, with each cause, is tests/test_answer_reading.py.
KNOWN_LABEL_DISAGREEMENTS: dict[str, tuple[bool, str]] = {
    # gpt-4-turbo zero-shot, rule-based path (text_to_plan_blocksworld): each step carries a
    # justification such as "(since the red block is clear and on the table)" that names further
    # blocks, so the line's object count differs from the arity and PlanBench drops it; VAL then
    # sees a truncated plan ("Goal not satisfied"). The stated actions form a valid plan.
    "26b3c087de56d3ee": (True, "valid plan; PlanBench's rule-based reader reads it whole, the label is not from this text"),
    "7025124847628c74": (True, "justifications name extra blocks; PlanBench dropped the lines"),
    "8e2ea445540aa417": (True, "justifications name extra blocks; PlanBench dropped the lines"),
    # llama-3.1-405b blocksworld zero-shot goes through the LLM translator (gpt-4o); the ten
    # stated actions reach (on a d) (on d b) from the initial state, but the translation did not.
    "cf16b7e6ce2210a1": (True, "LLM-translator path; the stated plan is valid"),
    # o1-preview mystery reruns (run1) have no raw_translation: the rule-based mystery path only
    # knows "object a" wording, so "Feast a from b" lines were dropped and VAL saw an empty or
    # truncated plan. Replayed as written, each plan reaches the goal.
    "c694ec41cb1a026e": (True, "'Feast a from b' wording dropped by the rule-based path"),
    "0f1af789736c0365": (True, "'Feast d from b' wording dropped by the rule-based path"),
    "31a6c5b0e4ac01b0": (True, "'Feast b from c' wording dropped by the rule-based path"),
    "4ccd6f8046aa7feb": (True, "'Feast b from c' wording dropped by the rule-based path"),
    "cb64acd6ac3f7186": (True, "'Feast a from c' wording dropped by the rule-based path"),
    # o1-preview mystery with translator: feast b a, succumb b, feast a c, succumb a, attack c,
    # overcome c a is applicable step by step and ends in (craves c a).
    "1359aa299d535e72": (True, "LLM-translator path; the stated plan is valid"),
    # Back-prompting run whose stored answer is null (the accepted later round was not kept):
    # there is no plan to replay, so the empty plan fails the goal.
    "98318ed8c8021a09": (False, "answer is null; the label refers to a later back-prompting round"),
}


def _verdict(row: dict) -> dict:
    return audit_record(record_from_json(row)).verdict.to_json()


def test_verification_gold_matches_step_kind_and_unmet_sets() -> None:
    rows = load_dev("planbench_verification.jsonl")
    mismatches = []
    for row in rows:
        expected = row["expected"]
        got = _verdict(row)
        if got["answer_correct"] != expected["answer_correct"]:
            mismatches.append((row["id"], "validity", got["answer_correct"]))
            continue
        if not expected.get("answer_error"):
            continue
        exp, err = expected["answer_error"], got["answer_error"]
        if (err["kind"], err["step"]) != (exp["kind"], exp["step"]):
            mismatches.append((row["id"], "kind/step", err["kind"], err["step"]))
        if sorted(err["unmet"]) != sorted(exp["unmet"]) or sorted(err["unmet_nl"]) != sorted(exp["unmet_nl"]):
            mismatches.append((row["id"], "unmet", err["unmet"], err["unmet_nl"]))
    assert len(rows) == (150 if FULL_DEV_DATA else 30)
    assert mismatches == []


@pytest.mark.parametrize("name", ["planbench_plans.jsonl", "planbench_r1_thinking.jsonl"])
def test_answer_correct_matches_published_labels(name: str) -> None:
    rows = load_dev(name)
    disagreements = {}
    for row in rows:
        got = _verdict(row)
        if got["answer_correct"] != row["expected"]["answer_correct"]:
            disagreements[row["id"]] = got["answer_correct"]
    known = {rid: ours for rid, (ours, _) in KNOWN_LABEL_DISAGREEMENTS.items() if rid in {r["id"] for r in rows}}
    assert disagreements == known


def test_precondition_failure_reports_val_advice_and_planbench_wording() -> None:
    row = next(r for r in load_dev("planbench_verification.jsonl")
               if (r["expected"].get("answer_error") or {}).get("unmet") == ["(clear b)", "(holding a)"])
    err = _verdict(row)["answer_error"]
    assert err["val_advice"].endswith("(Follow each of: (Set (clear b) to true) and (Set (holding a) to true))")
    assert "has unmet preconditions:" in err["planbench_feedback"]
    assert "the blue block is clear and the hand is currently holding red block" in err["message"]
