"""Maze A* replay: dev data expectations, one seeded fault per rule, property tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit import audit_record
from core.record import record_from_json
from tests.conftest import load_dev
from validators.astar.faults import FAULTS_PAPER, FAULTS_STRICT, fault_step, seed_fault
from validators.astar.reference import (
    BEYOND_SEMANTICS, DIALECTS, SEARCHFORMER, beyond_semantics_astar, beyond_semantics_text,
    generate_record, random_maze, record_for, run_astar, searchformer_astar,
)
from validators.astar.maze_problem import MazeProblem, resolve_problem


def audit(rec: dict) -> dict:
    return audit_record(record_from_json(rec)).verdict.to_json()


@pytest.mark.parametrize("name", ["maze_beyond_semantics.jsonl", "searchformer_reference.jsonl"])
@pytest.mark.parametrize("rule_set", ["strict", "paper"])
def test_dev_expectations(name: str, rule_set: str) -> None:
    rows = [r for r in load_dev(name) if r["domain"] == "maze"]
    assert rows
    for row in rows:
        row = dict(row, meta=dict(row.get("meta") or {}, rule_set=rule_set))
        v = audit(row)
        assert (v["answer_correct"], v["trace_valid"]) == (
            row["expected"]["answer_correct"], row["expected"]["trace_valid"]), (row["id"], v["invalid_steps"][:2])
        if v["trace_valid"] is False:
            assert v["first_invalid_step"] == v["invalid_steps"][0]["step"]
            assert v["invalid_steps"][0]["consequence_of"] is None


def test_reference_generator_matches_authors_traces() -> None:
    """Our Beyond-Semantics A* reproduces the authors' generator output token for token."""
    rows = [r for r in load_dev("maze_beyond_semantics.jsonl") if r["meta"]["kind"] == "reference_generated"]
    from trace_parsers import parse_record

    for row in rows[:40]:
        rec = record_from_json(row)
        parsed = parse_record(rec)
        problem = resolve_problem(rec.problem, parsed.extras["prompt"]).problem
        assert beyond_semantics_text(problem, beyond_semantics_astar(problem)) == row["trace"].strip()


def test_searchformer_fixtures_reproduced() -> None:
    from trace_parsers import parse_record

    for row in [r for r in load_dev("searchformer_reference.jsonl") if r["domain"] == "maze"]:
        rec = record_from_json(row)
        parsed = parse_record(rec)
        problem = resolve_problem(rec.problem, None).problem
        run = searchformer_astar(problem)
        ops = [(s.kind, s.payload["x"], s.payload["y"], s.payload["g"], s.payload["h"])
               for s in parsed.graph.steps if s.kind in ("create", "close")]
        assert ops == run.ops
        assert [(s.payload["x"], s.payload["y"]) for s in parsed.graph.steps if s.kind == "plan"] == run.plan


def test_swapped_trace_reports_rule_set_and_consequences() -> None:
    row = next(r for r in load_dev("maze_beyond_semantics.jsonl") if r["meta"]["kind"].startswith("swapped"))
    result = audit_record(record_from_json(row))
    assert result.replay.notes["rule_set"] == "strict"
    kinds = {g.kind for g in result.verdict.gaps}
    assert "right_answer_invalid_trace" in kinds


def _problem(seed: int, size: int) -> MazeProblem:
    return random_maze(random.Random(seed), size, size)


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("rule_set,rules", [("strict", FAULTS_STRICT), ("paper", FAULTS_PAPER)])
def test_every_rule_caught_at_the_faulty_step(dialect: str, rule_set: str, rules: tuple) -> None:
    seen = set()
    for seed in range(12):
        problem = _problem(seed, 9)
        run = run_astar(problem, dialect, random.Random(seed) if seed % 2 else None)
        valid = audit(record_for(problem, run, meta={"rule_set": rule_set}))
        assert valid["trace_valid"] is True and valid["answer_correct"] is True, valid["invalid_steps"][:2]
        for rule in rules:
            fault = seed_fault(problem, run, rule, random.Random(seed))
            if fault is None:
                continue
            seen.add(rule)
            v = audit(record_for(problem, fault.run, meta={"rule_set": rule_set}))
            assert v["trace_valid"] is False, rule
            assert v["first_invalid_step"] == fault_step(fault), (rule, v["invalid_steps"][:3])
            first = v["invalid_steps"][0]
            assert first["rule"] == rule and first["consequence_of"] is None, (rule, first)
            assert first["message"]
    expected = set(rules) - ({"start_not_created"} if dialect == BEYOND_SEMANTICS else set())
    assert seen == expected


def test_paper_rules_ignore_g_and_h() -> None:
    problem = _problem(5, 10)
    run = run_astar(problem, BEYOND_SEMANTICS)
    fault = seed_fault(problem, run, "wrong_h", random.Random(0))
    assert fault is not None
    strict = audit(record_for(problem, fault.run))
    paper = audit_record(record_from_json(record_for(problem, fault.run, meta={"rule_set": "paper"})))
    assert strict["trace_valid"] is False
    assert paper.replay.notes["rule_set"] == "paper"
    assert "wrong_h" not in {s["rule"] for s in paper.verdict.to_json()["invalid_steps"]}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(4, 14), dialect=st.sampled_from(DIALECTS),
       tie_seed=st.one_of(st.none(), st.integers(0, 1000)))
def test_any_tie_order_is_valid(seed: int, size: int, dialect: str, tie_seed: int | None) -> None:
    """Traces of nondeterministic A* (random ties, shuffled children) are valid in strict mode."""
    try:
        problem = _problem(seed, size)
    except Exception:
        return
    run = run_astar(problem, dialect, None if tie_seed is None else random.Random(tie_seed))
    v = audit(record_for(problem, run))
    assert v["trace_valid"] is True and v["answer_correct"] is True, v["invalid_steps"][:2]
    assert len(run.plan) == problem.shortest_path_cells()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(5, 12), dialect=st.sampled_from(DIALECTS),
       rule=st.sampled_from(FAULTS_STRICT), fault_seed=st.integers(0, 100))
def test_seeded_fault_property(seed: int, size: int, dialect: str, rule: str, fault_seed: int) -> None:
    try:
        problem = _problem(seed, size)
    except Exception:
        return
    run = run_astar(problem, dialect, random.Random(seed))
    fault = seed_fault(problem, run, rule, random.Random(fault_seed))
    if fault is None:
        return
    v = audit(record_for(problem, fault.run))
    assert v["trace_valid"] is False
    assert v["first_invalid_step"] == fault_step(fault)
    assert v["invalid_steps"][0]["rule"] == rule
    for item in v["invalid_steps"]:
        assert item["consequence_of"] is None or item["consequence_of"] < item["step"]


def test_generate_record_is_a_valid_record() -> None:
    for dialect in DIALECTS:
        rec = generate_record(7, 12, 12, dialect=dialect, deterministic=False)
        v = audit(rec)
        assert (v["answer_correct"], v["trace_valid"]) == (True, True)
        assert rec["format"] == dialect and rec["expected"]["trace_valid"] is True


def test_wrong_plan_and_not_optimal() -> None:
    problem = MazeProblem(3, 3, (0, 0), (2, 2), frozenset())
    base = {"domain": "maze", "problem": {"prompt": "3x3, start (0,0), goal (2,2), no walls"}}
    ok = audit({**base, "answer": "plan 0 0 plan 1 0 plan 2 0 plan 2 1 plan 2 2"})
    assert ok["answer_correct"] is True and ok["trace_valid"] is None
    long = audit({**base, "answer": [[0, 0], [0, 1], [1, 1], [1, 0], [2, 0], [2, 1], [2, 2]]})
    assert long["answer_correct"] is False and long["answer_error"]["kind"] == "not_optimal"
    jump = audit({**base, "answer": "plan 0 0 plan 2 0 plan 2 1 plan 2 2"})
    assert jump["answer_error"]["kind"] == "illegal_move" and jump["answer_error"]["step"] == 2
    short = audit({**base, "answer": "plan 0 0 plan 1 0"})
    assert short["answer_error"]["kind"] == "unmet_goal"
    walled = audit({"domain": "maze", "problem": {"width": 3, "height": 3, "start": [0, 0], "goal": [2, 0],
                                                  "walls": [[1, 0]]}, "answer": "plan 0 0 plan 1 0 plan 2 0"})
    assert walled["answer_error"]["kind"] == "illegal_move" and "wall" in walled["answer_error"]["message"]
    assert problem.shortest_path_cells() == 5


def test_answer_differs_from_trace_plan_is_a_gap() -> None:
    problem = _problem(11, 8)
    run = run_astar(problem, SEARCHFORMER)
    rec = record_for(problem, run)
    other = list(reversed(run.plan))
    rec["answer"] = " ".join(f"plan {x} {y}" for x, y in other)
    v = audit(rec)
    assert v["answer_correct"] is False
    assert "answer_contradicts_trace" in {g["kind"] for g in v["gaps"]}


def test_generate_fault_record_expectations_hold() -> None:
    from validators.astar.faults import generate_fault_record

    for rule in ("wrong_g", "close_not_lowest_f_value", "plan_not_from_trace", "plan_length_mismatch"):
        rec = generate_fault_record(3, rule, 10, 10, dialect=SEARCHFORMER)
        assert rec is not None
        v = audit(rec)
        exp = rec["expected"]
        assert (v["answer_correct"], v["trace_valid"], v["first_invalid_step"]) == (
            exp["answer_correct"], exp["trace_valid"], exp["first_invalid_step"]), rule
