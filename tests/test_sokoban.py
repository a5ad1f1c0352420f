"""Sokoban: SearchFormer fixture, generated token and JSON traces, seeded faults, plan checks."""

from __future__ import annotations

import random

from audit import audit_record
from core.record import record_from_json
from tests.conftest import load_dev
from validators.astar.sokoban_core import (
    State, astar, json_record, parse_state_string, random_level, shortest_plan_moves, token_record,
)


def audit(rec: dict) -> dict:
    return audit_record(record_from_json(rec)).verdict.to_json()


def test_dev_fixture() -> None:
    rows = [r for r in load_dev("searchformer_reference.jsonl") if r["domain"] == "sokoban"]
    assert rows
    for row in rows:
        v = audit(row)
        assert (v["answer_correct"], v["trace_valid"]) == (row["expected"]["answer_correct"], row["expected"]["trace_valid"])


def _runs(n: int):
    out = []
    seed = 0
    while len(out) < n:
        rng = random.Random(seed)
        seed += 1
        level, start = random_level(rng)
        run = astar(level, start, random.Random(seed), limit=5000)
        if run is not None and len(run.plan) > 3:
            out.append((level, start, run))
    return out


def test_generated_traces_valid_in_both_forms() -> None:
    for level, start, run in _runs(6):
        for rec in (token_record(level, start, run), json_record(level, start, run)):
            v = audit(rec)
            assert (v["answer_correct"], v["trace_valid"]) == (True, True), v["invalid_steps"][:2]
        assert shortest_plan_moves(level, start) <= len(run.plan) - 1


def _fault(rec: dict, k: int, new_h: int | None = None, drop: bool = False) -> dict:
    items = list(rec["trace"])
    if drop:
        del items[k]
    else:
        items[k] = dict(items[k], heuristic=new_h)
    return dict(rec, trace=items)


def test_seeded_faults_json_form() -> None:
    level, start, run = _runs(1)[0]
    rec = json_record(level, start, run)
    creates = [k for k, it in enumerate(rec["trace"]) if it["action"] == "create" and k > 0]
    k = creates[len(creates) // 2]
    v = audit(_fault(rec, k, new_h=rec["trace"][k]["heuristic"] + 3))
    assert v["first_invalid_step"] == k and v["invalid_steps"][0]["rule"] == "wrong_h"
    v = audit(_fault(rec, k, drop=True))
    nxt = next(j for j in range(k + 1, len(rec["trace"])) if rec["trace"][j]["action"] == "close") - 1
    assert v["first_invalid_step"] == nxt and v["invalid_steps"][0]["rule"] == "missing_create"
    goal_close = max(j for j, it in enumerate(rec["trace"]) if it["action"] == "close")
    v = audit(_fault(rec, goal_close, drop=True))
    assert v["trace_valid"] is False and "goal_not_reached" in {s["rule"] for s in v["invalid_steps"]}
    # a state two moves away from the expanded one
    far = dict(rec["trace"][k], state=rec["trace"][-1]["state"])
    items = rec["trace"][:k] + [far] + rec["trace"][k:]
    v = audit(dict(rec, trace=items))
    assert v["first_invalid_step"] == k and v["invalid_steps"][0]["rule"] in ("create_non_successor", "create_already_closed")


def test_token_form_fault_and_paper_mode() -> None:
    level, start, run = _runs(2)[1]
    rec = token_record(level, start, run)
    text = rec["trace"]
    first_create = text.index("create", text.index("close"))
    end = text.index(" c", text.index(" c", first_create) + 1)
    h_tok_end = text.index(" ", end + 1) if text.find(" ", end + 1) > 0 else len(text)
    bad = text[:end] + " c99" + text[h_tok_end:]
    v = audit(dict(rec, trace=bad))
    assert v["trace_valid"] is False and v["invalid_steps"][0]["rule"] == "wrong_h"
    paper = audit(dict(rec, trace=bad, meta={"rule_set": "paper"}))
    assert "wrong_h" not in {s["rule"] for s in paper["invalid_steps"]}


def test_plan_checks() -> None:
    base = {"domain": "sokoban", "problem": {"prompt": "sokoban ['#####','#@$.#','#####']"}}
    assert audit({**base, "answer": "plan 1 1 plan 2 1"})["answer_correct"] is True
    wrong_start = audit({**base, "answer": "plan 2 1 plan 3 1"})
    assert wrong_start["answer_error"]["kind"] == "illegal_move" and wrong_start["answer_error"]["step"] == 1
    stuck = audit({**base, "answer": "plan 1 1"})
    assert stuck["answer_error"]["kind"] == "unmet_goal"
    wall = audit({"domain": "sokoban", "problem": {"rows": ["######", "#@$ .#", "######"]},
                  "answer": "plan 1 1 plan 1 2"})
    assert wall["answer_error"]["kind"] == "illegal_move"
    lv, st = parse_state_string("#####-#@$.#-#####")
    assert isinstance(st, State) and shortest_plan_moves(lv, st) == 1
