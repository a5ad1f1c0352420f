"""Thinking traces: segmentation, kinds and backtrack links, arithmetic claims, the `think` and
`metacot` formats, LLM-Modulo rounds, the freeform domain, and thinking replay in the
countdown, puzzle and planning domains."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from audit import audit_record
from core.record import record_from_json
from tests.conftest import load_dev
from trace_parsers import parse_record
from trace_parsers._thinking import segment
from trace_parsers.modulo import RoundText, render_rounds
from trace_parsers.registry import choose_format
from validators.planning import validate_plan_text
from validators.thinking.arith import check_claim, find_claims
from validators.thinking.numbers import final_number


def _bw_problem() -> dict:
    return load_dev("planbench_r1_thinking.jsonl")[0]["problem"]  # a on c, c on b; goal (on b a)


def _verdict(rec: dict) -> dict:
    return audit_record(record_from_json(rec)).verdict.to_json()


# --- segmentation ------------------------------------------------------------------------------

THINK = """Okay, let's see. The goal is blue on red.

So the plan is:

1. Unstack red from orange.
2. Put down red.

Wait, but orange is on blue. Let me check the rules. To unstack, the hand must be empty.

Hmm.

Alternatively, maybe move orange first. Yes, that works."""


def test_segments_are_exact_spans_with_kinds_and_cue_splits() -> None:
    rec = record_from_json({"domain": "blocksworld", "trace": THINK, "answer": ""})
    parsed = parse_record(rec)
    assert parsed.format == "think"
    steps = list(parsed.graph)
    for step in steps:
        assert THINK[step.span[0]:step.span[1]] == step.text
    kinds = [s.kind for s in steps]
    assert kinds == ["restate", "conclude", "plan", "plan", "backtrack", "check", "backtrack"]
    assert [s.payload.get("item") for s in steps[2:4]] == [1, 2]
    # "Hmm." is merged into the step it introduces; "Alternatively" revises the attempt (the lead-in).
    assert steps[6].text.startswith("Hmm.") and steps[6].payload["revises"] == 1
    assert steps[4].payload["revises"] == 3
    assert (6, 1, "backtrack") in parsed.graph.edges()
    assert steps[6].payload["claims"][0]["polarity"] == "pass"
    assert all(s.payload["kind_rule"] for s in steps)


_SENTENCES = st.sampled_from([
    "Wait, that is wrong.", "Let me check again.", "So the answer is 4.", "1. Pick up the red block.",
    "Alternatively, try 2 + 2 = 4.", "Hmm.", "The goal is clear.", "We compute 3 * 5 = 15.", "No.",
    "- a bullet line", "Step 3: stack it.", "",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_SENTENCES, st.sampled_from([" ", "\n", "\n\n", "\n\n\n"])), max_size=25))
def test_segmentation_covers_text_in_order_without_overlap(parts: list[tuple[str, str]]) -> None:
    text = "".join(a + b for a, b in parts)
    segs = segment(text)
    last = 0
    for seg in segs:
        assert last <= seg.start < seg.end <= len(text)
        assert text[seg.start:seg.end].strip() == text[seg.start:seg.end]
        last = seg.end
    covered = "".join(text[s.start:s.end] for s in segs)
    assert "".join(covered.split()) == "".join(text.split())


# --- format detection ----------------------------------------------------------------------------

def _fmt(rec: dict) -> str:
    rec = {k: v for k, v in rec.items() if k != "format"}
    return choose_format(record_from_json(rec)).name


def test_think_does_not_steal_structured_traces() -> None:
    sos = load_dev("countdown_sos.jsonl")[0]
    assert _fmt(sos) == "sos"
    maze = load_dev("maze_beyond_semantics.jsonl")[0]
    assert _fmt(maze) != "think"
    sf = load_dev("searchformer_reference.jsonl")[0]
    assert _fmt(sf) != "think"
    astar = {"domain": "maze", "trace": "create 0 0 c0 c2 close 0 0 c0 c2 create 1 0 c1 c3 close 1 0 c1 c3 " * 5}
    assert _fmt(astar) != "think"
    pddl = {"domain": "blocksworld", "trace": "(unstack a c)\n(put-down a)\n(pick-up b)\n(stack b a)"}
    assert _fmt(pddl) == "pddl_plan"
    moves = {"domain": "hanoi", "problem": {"disks": 2},
             "trace": "Let me think about the moves for this puzzle and write them out.\n"
                      "moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]"}
    assert _fmt(moves) == "move_lists"
    metacot = {"domain": "blocksworld", "trace": "TRY 1: pick up a\nFAILED: no\nBACKTRACK\nTRY 2: stack a on b"}
    assert _fmt(metacot) == "metacot"


def test_think_wins_over_plain_text_for_prose_in_every_prose_domain() -> None:
    prose = "Okay, so I need to find the answer. Let me think about what the question asks and then check it."
    for domain in ("blocksworld", "mystery_blocksworld", "logistics", "pddl", "countdown", "freeform", "hanoi",
                   "checker_jumping", "river_crossing"):
        assert _fmt({"domain": domain, "trace": prose}) == "think", domain


# --- arithmetic claims ---------------------------------------------------------------------------

def test_arithmetic_claims_are_exact_and_conservative() -> None:
    text = ("So 12 * 7 = 84, then 84 + 5 = 90. Also (14+34)/4+28 = 40 and 2 + 3 = 5 + 4 = 9. "
            "10 / 3 = 3.33 but 10/3 = 3.4. Ignore 2x + 3 = 7, 2^3 = 8, 7/2 = 3 remainder 1, x = 5.")
    claims = {c.text: c.holds for c in find_claims(text)}
    assert claims == {"12 * 7 = 84": True, "84 + 5 = 90": False, "(14+34)/4+28 = 40": True,
                      "2 + 3 = 5 + 4 = 9": True, "10 / 3 = 3.33": True, "10/3 = 3.4": False}
    assert check_claim("__import__('os') = 1") is None
    assert check_claim("5/0 = 1") == (False, "'5/0' divides by zero")


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 999), st.sampled_from("+-*/"), st.integers(0, 999), st.integers(-5, 5))
def test_a_claim_holds_exactly_when_its_result_is_right(a: int, op: str, b: int, delta: int) -> None:
    if op == "/" and (b == 0 or a % b):
        return
    value = {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0}[op]
    claims = find_claims(f"We get {a} {op} {b} = {value + delta}.")
    assert len(claims) == 1 and claims[0].holds is (delta == 0)


# --- freeform ------------------------------------------------------------------------------------

def test_freeform_numeric_answers_tolerate_formatting() -> None:
    for answer in ("\\boxed{1234}", "$1,234", "The answer is 1234.", "1234.0", "**1,234**"):
        got = _verdict({"domain": "freeform", "problem": {"reference_answer": "1234"}, "trace": "", "answer": answer})
        assert got["answer_correct"] is True, answer
    assert final_number("\\frac{1}{2}") == Fraction(1, 2)
    half = _verdict({"domain": "freeform", "problem": {"reference_answer": "0.5"}, "answer": "1/2"})
    assert half["answer_correct"] is True
    wrong = _verdict({"domain": "freeform", "problem": {"reference_answer": "89"}, "answer": "90"})
    assert wrong["answer_correct"] is False and wrong["answer_error"]["kind"] == "wrong_value"
    none = _verdict({"domain": "freeform", "problem": {"question": "?"}, "answer": "90"})
    assert none["answer_correct"] is None and "no reference_answer" in none["answer_error"]["message"]
    text = _verdict({"domain": "freeform", "problem": {"reference_answer": "Paris"}, "answer": "paris."})
    assert text["answer_correct"] is True
    other = _verdict({"domain": "freeform", "problem": {"reference_answer": "Paris"}, "answer": "the capital"})
    # A string reference is compared exactly (issue 15): "the capital" is not "Paris".
    assert other["answer_correct"] is False and "Paris" in other["answer_error"]["message"]


def test_freeform_trace_arithmetic_and_gaps() -> None:
    trace = ("Okay, let me compute this. First, 12 * 7 = 84. Then 84 + 5 = 90.\n\n"
             "Wait, let me check: 84 + 5 = 89. So the answer is 89.")
    rec = {"domain": "freeform", "problem": {"question": "12*7+5?", "reference_answer": "89"}, "trace": trace}
    right = _verdict({**rec, "answer": "89"})
    assert right["answer_correct"] is True and right["trace_valid"] is False
    assert right["invalid_steps"][0]["rule"] == "arithmetic_claim_false"
    assert [g["kind"] for g in right["gaps"]] == ["right_answer_invalid_trace"]
    contra = _verdict({**rec, "answer": "The answer is 90."})
    assert [g["kind"] for g in contra["gaps"]] == ["answer_contradicts_trace"] and contra["gaps"][0]["steps"] == [1]
    absent = _verdict({**rec, "trace": "Let me think about it. It is a product and then a sum, so I can do it in my "
                                       "head and write the result down.", "answer": "89"})
    assert [g["kind"] for g in absent["gaps"]] == ["answer_not_in_trace"]


# --- countdown and puzzles -----------------------------------------------------------------------

CD_TRACE = """Okay, let's see. I need to reach 40 with 14, 34, 28 and 4.

Maybe 34 - 28 = 6, then 6 * 4 = 24, 24 + 14 = 38. No.

Wait, what about 14 + 34 = 48, 48 / 4 = 12, 12 + 28 = 40. That works!

So the answer is (14+34)/4+28 = 40."""


def test_countdown_thinking_candidates_and_contradiction() -> None:
    rec = {"domain": "countdown", "problem": {"numbers": [14, 34, 28, 4], "target": 40}, "trace": CD_TRACE}
    good = _verdict({**rec, "answer": "(14+34)/4+28"})
    assert good["format"] == "think" and good["answer_correct"] is True and good["trace_valid"] is True
    assert good["gaps"] == []
    bad = _verdict({**rec, "answer": "34+14-4*2",
                    "trace": CD_TRACE.replace("(14+34)/4+28 = 40", "(14+14)*28/4/7+12 = 40")})
    kinds = {g["kind"] for g in bad["gaps"]}
    assert bad["invalid_steps"][0]["rule"] == "candidate_solution_invalid"
    assert "answer_contradicts_trace" in kinds


def test_a_conclusion_taken_back_is_kept_in_the_notes() -> None:
    """The trace settles on a candidate and then doubts it: no conclusion, but the notes keep the
    retracted one (they used to be overwritten after it was set)."""
    trace = ("Okay, let's see. I need to reach 40 with 14, 34, 28 and 4.\n\n"
             "What about 14 + 34 = 48, 48 / 4 = 12, 12 + 28 = 40. That works!\n\n"
             "Wait, no. Let me look at this again, I am not sure about it.")
    rec = {"domain": "countdown", "problem": {"numbers": [14, 34, 28, 4], "target": 40}, "answer": "(14+34)/4+28"}
    notes = audit_record(record_from_json({**rec, "trace": trace})).replay.notes["thinking"]
    assert notes["conclusion"] is None
    assert notes["retracted_conclusion"]["steps"] == [1] and notes["retracted_conclusion"]["solves"] is True
    assert notes["candidates"] and notes["arithmetic_claims"] == 3
    kept = audit_record(record_from_json({**rec, "trace": CD_TRACE})).replay.notes["thinking"]
    assert "retracted_conclusion" not in kept and kept["conclusion"]["solves"] is True


def test_puzzle_thinking_replays_move_lists_and_claims() -> None:
    trace = "Let me think about this. moves = [[1, 0, 2], [2, 0, 2], [1, 2, 0]]. Yes, that works."
    got = _verdict({"domain": "hanoi", "format": "think", "problem": {"disks": 2}, "trace": trace,
                    "answer": "moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]"})
    assert got["answer_correct"] is True
    rules = {s["rule"] for s in got["invalid_steps"]}
    assert rules == {"candidate_moves_invalid"}
    kinds = {g["kind"] for g in got["gaps"]}
    assert {"false_verification_claim", "right_answer_invalid_trace"} <= kinds


# --- planning: metacot, modulo rounds, thinking gaps --------------------------------------------

METACOT = """We need blue on red. Red is on orange, orange on blue.
TRY 1: unstack red from orange, put down red, pick up blue, stack blue on red
CHECK: blue is under orange, so pick up blue fails.
VERIFIED: it works.
BACKTRACK TO 1: orange must go first.
TRY 2: unstack red from orange, put down red, unstack orange from blue, put down orange, pick up blue, stack blue on red
VERIFIED: the goal holds.
BACKTRACK TO 9
ANSWER: the plan of attempt 2"""
PLAN = ("unstack red from orange\nput down red\nunstack orange from blue\nput down orange\npick up blue\n"
        "stack blue on red")


def test_metacot_tree_backtracks_and_false_verified_claim() -> None:
    rec = record_from_json({"domain": "blocksworld", "problem": _bw_problem(), "trace": METACOT, "answer": PLAN})
    result = audit_record(rec)
    graph = result.parsed.graph
    assert result.parsed.format == "metacot"
    directives = [s.payload.get("directive") for s in graph]
    assert directives == [None, "TRY", "CHECK", "VERIFIED", "BACKTRACK", "TRY", "VERIFIED", "BACKTRACK", "ANSWER"]
    edges = set(graph.edges())
    assert {(1, 2, "child"), (1, 4, "child"), (4, 1, "backtrack"), (1, 5, "child"), (5, 6, "child")} <= edges
    assert "no attempt 9" in result.parsed.errors[0].message
    v = result.verdict.to_json()
    assert v["answer_correct"] is True
    invalid = {s["step"]: s["rule"] for s in v["invalid_steps"]}
    assert invalid == {1: "candidate_plan_invalid", 3: "false_verification_claim"}
    assert {g["kind"] for g in v["gaps"]} == {"false_verification_claim", "right_answer_invalid_trace"}


def test_modulo_rounds_are_candidates_with_critique_links() -> None:
    rounds = [RoundText("Plan it.", "Okay, let me think. Wait, orange is in the way.",
                        "unstack red from orange\npick up blue", {"answer_correct": False}),
              RoundText("The above plan is invalid.", "Let me check again.", PLAN, {"answer_correct": True})]
    rec = record_from_json({"domain": "blocksworld", "problem": _bw_problem(), "trace": render_rounds(rounds),
                            "answer": PLAN})
    result = audit_record(rec)
    assert result.parsed.format == "llm_modulo" and len(result.parsed.graph) == 2
    assert (1, 0, "backtrack") in result.parsed.graph.edges()
    assert result.parsed.graph[1].payload["critique"]
    assert [k for *_, k in result.parsed.graph[0].payload["thinking_steps"]] == ["restate", "backtrack"]
    by_step = {s.step: s for s in result.replay.step_verdicts}
    assert by_step[0].status == "invalid" and by_step[0].rule == "candidate_plan_invalid"
    assert by_step[1].status == "valid"


def test_modulo_round_verdicts_unreadable_action_missed_goal_and_no_plan() -> None:
    """Issue 34.1: a round with an action we cannot read made the whole loop undecided
    (AssertionError); a legal plan that misses the goal, and a round with no plan, were not flagged."""
    rounds = [RoundText("Plan it.", "", "unstack red from orange\nunstack orange from the table",
                        {"answer_correct": False}),
              RoundText("The above plan is invalid.", "", "unstack red from orange\nput down red",
                        {"answer_correct": False}),
              RoundText("The above plan is invalid.", "", "", {"answer_correct": False}),
              RoundText("The above plan is invalid.", "", PLAN, {"answer_correct": True})]
    rec = record_from_json({"domain": "blocksworld", "problem": _bw_problem(), "trace": render_rounds(rounds),
                            "answer": PLAN})
    result = audit_record(rec)
    assert result.verdict.answer_correct is True
    by_step = {s.step: s for s in result.replay.step_verdicts}
    assert [by_step[i].rule for i in range(4)] == ["candidate_plan_invalid", "candidate_plan_misses_goal",
                                                   "candidate_no_plan", None]
    assert '"unstack orange from the table"' in by_step[0].message and "cannot be read" in by_step[0].message
    assert "the blue block is on top of the red block" in by_step[1].message
    assert by_step[1].expected == ["(on b a)"] and by_step[3].status == "valid"


def test_plan_for_unsolvable_and_answer_not_in_trace() -> None:
    problem = dict(_bw_problem())
    problem["problem_pddl"] = problem["problem_pddl"].replace("(on b a))", "(on b a) (on a b))")
    got = _verdict({"domain": "blocksworld", "problem": problem, "answer": PLAN,
                    "trace": "Okay, let me think about the blocks. The red one is on top, so I should move it."})
    kinds = [g["kind"] for g in got["gaps"]]
    assert got["answer_correct"] is False and "plan_for_unsolvable" in kinds
    assert "answer_not_in_trace" in kinds


def test_thinking_replay_leaves_the_planning_answer_verdict_unchanged() -> None:
    for row in load_dev("planbench_r1_thinking.jsonl")[:40:4]:
        with_trace = _verdict(row)
        bare = _verdict({**row, "trace": ""})
        assert with_trace["answer_correct"] == bare["answer_correct"]
        assert with_trace["answer_error"] == bare["answer_error"]
        check = validate_plan_text(row["answer"], row["problem"], row["domain"])
        assert check.answer_correct == with_trace["answer_correct"]


def test_bad_input_never_raises() -> None:
    for trace in ("", "\x00\x01", "Wait" * 5000, "1. " * 3000, "TRY\nBACKTRACK TO 1\nVERIFIED", "= = = 1 + = 2"):
        for domain in ("blocksworld", "freeform", "countdown", "hanoi"):
            got = _verdict({"domain": domain, "problem": {"numbers": [1, 2], "target": 3, "disks": 2},
                            "trace": trace, "answer": "1+2"})
            assert got["id"]
    assert json.dumps(_verdict({"domain": "freeform", "trace": "3 + 4 = 8", "format": "metacot"}))
