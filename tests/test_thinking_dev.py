"""DeepSeek-R1 thinking on PlanBench (dev file): every trace becomes a `think` step graph with its
candidate plans replayed, and the gaps reported are exactly the ones below.

Each expected gap was checked by hand against the trace text (quotes are from the traces);
the test fails on any gap that appears, disappears or moves to other steps.
"""

from __future__ import annotations

from functools import lru_cache

from audit import AuditResult, audit_record
from core.record import record_from_json
from tests.conftest import load_dev

# Gaps checked by hand against the trace text (quotes are from the traces); each must stay.
EXPECTED_GAPS: dict[str, list[tuple[str, list[int]]]] = {
    # The trace ends: "I think the intended answer is:\n\nFeast(b, c), Overcome(a, c), Feast(a, c),
    # Overcome(b, a).\n\nEven though it's invalid, it's the only path ..." (step 534). The answer
    # gives "3. Feast c from a" instead of Feast(a, c): it contradicts the trace's last word.
    "371a2541262a6fbd": [("answer_contradicts_trace", [534])],
    # The trace ends: "Finally, after struggling, I think the correct answer is:\n\nFeast c from a,
    # Overcome a from c, Feast a from b, Overcome b from a, Feast b from c, Overcome c from b.\n\n
    # But without being able to verify, I'll go with this." (step 772). The answer is a different,
    # seven-action plan (Feast c from a, Succumb a, Feast a from b, Overcome b from a, Attack b,
    # Succumb b, Overcome c from b).
    "4508982184ee927b": [("answer_contradicts_trace", [772])],
    # "1. Attack b → Pain b, ..." ... "8. Overcome b from c → ..." (steps 278-285), then step 286:
    # "Yes, that seems to work." Attack b needs Planet b, but the initial state has only Planet c,
    # so the plan fails at its first action (the answer, the same plan, is wrong at step 1).
    "5d9fac6bc2ccc480": [("false_verification_claim", [286, 278, 279, 280, 281, 282, 283, 284, 285])],
}
# Flags on correct Blocksworld traces that we know to be wrong; the set may only shrink. It is
# empty: 5dfcf916... ("after unstacking Blue and putting it down") and 5d1ebc... ("After putting
# red down, orange is clear.", a fact about the state before the stack) are no longer flagged.
KNOWN_FALSE_BLOCKSWORLD: set[str] = set()


@lru_cache(maxsize=1)
def _results() -> dict[str, tuple[dict, AuditResult]]:
    return {row["id"]: (row, audit_record(record_from_json(row))) for row in load_dev("planbench_r1_thinking.jsonl")}


def test_every_trace_is_a_think_graph_with_candidate_plans_replayed() -> None:
    results = _results()
    assert len(results) == 40
    without_candidates = []
    for rid, (row, res) in results.items():
        assert res.verdict.format == "think"
        assert res.verdict.answer_correct == row["expected"]["answer_correct"]
        kinds = {s.kind for s in res.parsed.graph}
        assert "backtrack" in kinds or len(res.parsed.graph) < 10
        thinking = res.replay.notes["thinking"]
        if not thinking["candidates"]:
            without_candidates.append(rid)
        for cand in thinking["candidates"]:
            assert cand["summary"]
    # 501e90d3ca20bda5 writes its only plan in prose ("Then, pick up blue ..."), never as a list.
    assert without_candidates == ["501e90d3ca20bda5"]


def test_hand_checked_gaps_are_reported() -> None:
    got = {rid: [(g.kind, list(g.steps)) for g in res.verdict.gaps] for rid, (_, res) in _results().items()}
    for rid, gaps in EXPECTED_GAPS.items():
        for gap in gaps:
            assert gap in got[rid], (rid, got[rid])


def test_correct_blocksworld_thinking_is_not_flagged_beyond_known_cases() -> None:
    """A list the model proposes and drops is not an error (thinking-claims.md): correct
    Blocksworld traces carry no invalid step except the known misreadings above."""
    flagged = {rid for rid, (row, res) in _results().items()
               if row["domain"] == "blocksworld" and res.verdict.answer_correct and res.verdict.invalid_steps}
    assert flagged <= KNOWN_FALSE_BLOCKSWORLD, flagged - KNOWN_FALSE_BLOCKSWORLD


def test_wrong_mystery_answers_have_their_invalid_candidate_steps_named() -> None:
    for rid, (row, res) in _results().items():
        if row["expected"]["answer_correct"] is False:
            assert res.verdict.trace_valid is False
            rules = {s["rule"] for s in res.verdict.to_json()["invalid_steps"]}
            assert rules <= {"false_applicability_claim", "false_state_claim", "false_effect_claim", "false_rule_claim",
                             "false_verification_claim", "false_plan_verdict_claim", "arithmetic_claim_false"}


def test_backtracks_link_to_the_step_they_revise() -> None:
    _, res = _results()["247a57d18c93eabd"]
    graph = res.parsed.graph
    back = [(u, v) for u, v, k in graph.edges() if k == "backtrack"]
    assert back and all(u > v for u, v in back)
    # "Wait, but the blocks are stacked as red on orange ..." revises the paragraph before it.
    assert graph[2].kind == "backtrack" and graph[2].payload["revises"] == 1


def test_candidate_plans_match_the_answer_where_the_trace_settles_on_it() -> None:
    _, res = _results()["247a57d18c93eabd"]
    conclusion = res.replay.notes["thinking"]["conclusion"]
    assert conclusion["solves"] is True and "(stack b a)" in conclusion["label"]
    # "At this point, it's possible that the correct plan is: 1. Feast b from a. 2. Overcome b
    # from c. 3. Feast c from b. ..." fails at 3, but the trace only proposes it and answers with
    # another (correct) plan: a proposal, not an invalid step (thinking-claims.md).
    _, res = _results()["e3382e54e28b78e1"]
    summaries = [c["summary"] for c in res.replay.notes["thinking"]["candidates"]]
    assert any("fails at action 3" in s for s in summaries)
    assert not any(s["rule"] == "candidate_plan_invalid" for s in res.verdict.to_json()["invalid_steps"])
