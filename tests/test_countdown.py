"""Countdown: SoS log replay (dev set, seeded faults), free-form answers, the parser's detector."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit import audit_record
from core.record import record_from_json
from tests.conftest import FULL_DEV_DATA, load_dev
from trace_parsers.registry import choose_format
from trace_parsers.sos import detect
from validators.countdown.solver import solve
from validators.exact_arithmetic import ExprError, evaluate
from validators.countdown.generate import HEURISTICS, bfs_log, dfs_log


def audit(trace: str, numbers: list[int], target: int, answer: str = "") -> dict:
    rec = record_from_json({"domain": "countdown", "format": "sos", "problem": {"numbers": numbers, "target": target},
                            "trace": trace, "answer": answer})
    return audit_record(rec).verdict.to_json()


# ------------------------------------------------------------------ dev set

def test_dev_verdicts_reproduced():
    rows = load_dev("countdown_sos.jsonl")
    assert len(rows) == (120 if FULL_DEV_DATA else 24)
    checked_tv = 0
    for row in rows:
        v = audit_record(record_from_json(row)).verdict.to_json()
        assert v["format"] == "sos"
        assert v["parse"]["ok"], (row["id"], v["parse"])
        assert v["answer_correct"] == row["expected"]["answer_correct"], row["id"]
        if "trace_valid" in row["expected"]:
            checked_tv += 1
            assert v["trace_valid"] == row["expected"]["trace_valid"], (row["id"], v["invalid_steps"][:2])
    assert checked_tv == (113 if FULL_DEV_DATA else 23)


def test_reference_dfs_reproduces_dev_logs():
    rows = [r for r in load_dev("countdown_sos.jsonl") if r["meta"]["search_type"] == "dfs"]
    assert rows
    for row in rows:
        p = row["problem"]
        log = dfs_log(p["target"], p["numbers"], HEURISTICS[row["meta"]["heuristic"]], threshold=p["target"])
        assert log == row["trace"], row["id"]


# ------------------------------------------------------------------ seeded faults

# A DFS log that explores, generates, backtracks, hits dead ends and finally reaches the goal.
NUMS, TARGET = [4, 9, 3, 7], 17
BASE = dfs_log(TARGET, NUMS, HEURISTICS["sum_heuristic"])
LINES = BASE.rstrip("\n").split("\n")


def _first(pattern: str, start: int = 0) -> int:
    for i in range(start, len(LINES)):
        if re.search(pattern, LINES[i]):
            return i
    raise AssertionError(pattern)


def _seeded(index: int, new: str | None) -> str:
    lines = list(LINES)
    if new is None:
        del lines[index]
    else:
        lines[index] = new
    return "\n".join(lines) + "\n"


def test_base_log_is_valid_and_rich():
    v = audit(BASE, NUMS, TARGET)
    assert v["trace_valid"] is True and v["answer_correct"] is True
    kinds = {re.sub(r"[\d#,\[\]' ]+", "", ln)[:12] for ln in LINES}
    assert any(k.startswith("Movingto") for k in kinds)
    assert "unequal: No Solution" in BASE and "Goal Reached" in BASE


def _explore_line(i: int) -> tuple[str, str, str, str, list[int]]:
    m = re.match(r"Exploring Operation: (\d+)([-+*/])(\d+)=(\d+), Resulting Numbers: \[(.*)\]", LINES[i])
    assert m
    return m.group(1), m.group(2), m.group(3), m.group(4), [int(x) for x in m.group(5).split(",")]


FAULTS = []


def fault(fn):
    FAULTS.append(fn)
    return fn


@fault
def f_arithmetic():
    i = _first(r"^Exploring Operation: .*Resulting Numbers: \[\d+, \d+")
    a, op, b, c, nums = _explore_line(i)
    bad = int(c) + 1
    nums[-1] = bad
    return i, _seeded(i, f"Exploring Operation: {a}{op}{b}={bad}, Resulting Numbers: {nums}"), "arithmetic_wrong_result"


@fault
def f_operand_not_held():
    # 1+16=17 is true arithmetic, but 16 is not among the numbers of the node being explored.
    i = _first(r"^Exploring Operation: ")
    _a, _op, _b, _c, nums = _explore_line(i)
    return i, _seeded(i, f"Exploring Operation: 1+16=17, Resulting Numbers: {nums}"), "other_operand_unavailable"


@fault
def f_remaining_numbers():
    i = _first(r"^Exploring Operation: .*Resulting Numbers: \[\d+, \d+, \d+\]")
    a, op, b, c, nums = _explore_line(i)
    nums[0] += 1
    return i, _seeded(i, f"Exploring Operation: {a}{op}{b}={c}, Resulting Numbers: {nums}"), "other_wrong_remaining_numbers"


@fault
def f_state_mismatch():
    i = _first(r"^Current State: ", 1)
    return i, _seeded(i, re.sub(r"\[(\d+)", lambda m: f"[{int(m.group(1)) + 1}", LINES[i], count=1)), "other_state_mismatch"


@fault
def f_generated_mismatch():
    i = _first(r"^Generated Node #0,0:")
    return i, _seeded(i, re.sub(r": (\d+):\[(\d+)", lambda m: f": {m.group(1)}:[{int(m.group(2)) + 1}", LINES[i])), \
        "other_generated_mismatch"


@fault
def f_unknown_parent():
    i = _first(r"^Generated Node #0,0:")
    return i, _seeded(i, LINES[i].replace("#0,0:", "#0,5,0:")), "exploration_unknown_parent"


@fault
def f_duplicate_node():
    first = _first(r"^Generated Node #0,0,0:")
    i = _first(r"^Generated Node #0,0,1:")
    assert first < i
    return i, _seeded(i, LINES[i].replace("#0,0,1:", "#0,0,0:")), "exploration_duplicate_node"


@fault
def f_out_of_sequence():
    i = _first(r"^Generated Node #0,0:")
    return i, _seeded(i, LINES[i].replace("#0,0:", "#0,3:")), "exploration_id_out_of_sequence"


@fault
def f_move_unknown():
    i = _first(r"^Moving to Node #0,0$")
    return i, _seeded(i, "Moving to Node #0,7"), "exploration_move_to_unknown_node"


@fault
def f_wrong_target():
    i = _first(r"^Generated Node #0,0:")
    return i, _seeded(i, LINES[i].replace(f": {TARGET}:[", f": {TARGET + 1}:[")), "other_wrong_target"


@fault
def f_compare_number():
    i = _first(r"unequal: No Solution$")
    return i, _seeded(i, re.sub(r"^\d+,", "999,", LINES[i])), "other_compare_wrong_number"


@fault
def f_false_goal():
    i = _first(r"unequal: No Solution$")
    return i, _seeded(i, LINES[i].replace("unequal: No Solution", "equal: Goal Reached")), "other_false_goal_claim"


@fault
def f_unparseable_line():
    i = _first(r"^Generated Node #0,0:")
    lines = list(LINES)
    lines.insert(i, "Let me think about this differently.")
    return i, "\n".join(lines) + "\n", "formatting_unparseable_line"


@fault
def f_unparseable_op():
    i = _first(r"^Exploring Operation: ")
    _a, _op, _b, _c, nums = _explore_line(i)
    return i, _seeded(i, f"Exploring Operation: 9 plus 7 is 16, Resulting Numbers: {nums}"), \
        "formatting_unparseable_operation"


@fault
def f_missing_outcome():
    i = _first(r"^Generated Node #0,0:")
    return i - 1, _seeded(i, None), "formatting_missing_outcome"


@fault
def f_missing_exploration():
    i = _first(r"^Exploring Operation: ")
    return i, _seeded(i, None), "formatting_missing_exploration"


@pytest.mark.parametrize("make", FAULTS, ids=[f.__name__ for f in FAULTS])
def test_seeded_fault_caught_at_its_step(make):
    step, trace, rule = make()
    v = audit(trace, NUMS, TARGET)
    assert v["trace_valid"] is False
    assert v["first_invalid_step"] == step, v["invalid_steps"][:3]
    first = v["invalid_steps"][0]
    assert first["rule"] == rule, first
    assert first["message"]
    assert first["span"][1] > first["span"][0]
    assert rule.split("_")[0] in {"arithmetic", "exploration", "formatting", "other"}


SMALL = "Current State: 10:[6, 4], Operations: []\n"


def test_missed_goal_is_a_wrong_comparison_and_false_claim():
    v = audit(SMALL + "Exploring Operation: 6+4=10, Resulting Numbers: [10]\n10,10 unequal: No Solution\n", [6, 4], 10)
    assert v["first_invalid_step"] == 2 and v["invalid_steps"][0]["rule"] == "other_wrong_comparison"
    assert "false_verification_claim" in {g["kind"] for g in v["gaps"]}


def test_division_by_zero():
    v = audit("Current State: 5:[5, 0], Operations: []\nExploring Operation: 5/0=0, Resulting Numbers: [0]\n"
              "0,5 unequal: No Solution\n", [5, 0], 5)
    assert v["invalid_steps"][0]["rule"] == "arithmetic_division_by_zero"


def test_goal_after_wrong_arithmetic_is_false_and_names_its_cause():
    trace = SMALL + "Exploring Operation: 6*4=10, Resulting Numbers: [10]\n10,10 equal: Goal Reached\n"
    v = audit(trace, [6, 4], 10)
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "arithmetic"
    steps = {s["step"]: s for s in v["invalid_steps"]}
    assert steps[1]["rule"] == "arithmetic_wrong_result"
    assert steps[2]["rule"] == "other_false_goal_claim" and steps[2]["consequence_of"] == 1


def test_goal_with_numbers_left_and_premature_comparison():
    v = audit("Current State: 10:[6, 4, 2], Operations: []\nExploring Operation: 6+4=10, Resulting Numbers: [2, 10]\n"
              "10,10 equal: Goal Reached\n", [6, 4, 2], 10)
    assert v["invalid_steps"][0]["rule"] == "other_goal_numbers_left"
    v = audit("Current State: 10:[6, 4, 2], Operations: []\nExploring Operation: 6+4=10, Resulting Numbers: [2, 10]\n"
              "10,10 unequal: No Solution\n", [6, 4, 2], 10)
    assert v["invalid_steps"][0]["rule"] == "exploration_premature_comparison"


def test_wrong_parent():
    trace = ("Current State: 10:[6, 4, 2], Operations: []\n"
             "Exploring Operation: 6+4=10, Resulting Numbers: [2, 10]\nGenerated Node #0,0: 10:[2, 10] Operation: 6+4=10\n"
             "Exploring Operation: 6-4=2, Resulting Numbers: [2, 2]\nGenerated Node #0,1: 10:[2, 2] Operation: 6-4=2\n"
             "Moving to Node #0,0\nCurrent State: 10:[2, 10], Operations: ['6+4=10']\n"
             "Exploring Operation: 10-2=8, Resulting Numbers: [8]\n8,10 unequal: No Solution\n"
             "Exploring Operation: 10*2=20, Resulting Numbers: [20]\nGenerated Node #0,1,0: 10:[20] Operation: 10*2=20\n")
    v = audit(trace, [6, 4, 2], 10)
    assert v["first_invalid_step"] == 10 and v["invalid_steps"][0]["rule"] == "exploration_wrong_parent"


def test_duplicate_operand_needs_two_copies():
    v = audit("Current State: 10:[5, 3], Operations: []\nExploring Operation: 5+5=10, Resulting Numbers: [10]\n"
              "10,10 equal: Goal Reached\n", [5, 3], 10)
    assert v["invalid_steps"][0]["rule"] == "other_operand_unavailable"
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "illegal_move"


def test_text_after_goal_is_not_judged():
    v = audit(SMALL + "Exploring Operation: 6+4=10, Resulting Numbers: [10]\n10,10 equal: Goal Reached\nblah blah\n",
              [6, 4], 10)
    assert v["trace_valid"] is True and v["answer_correct"] is True


# ------------------------------------------------------------------ generated logs are valid

instances = st.tuples(st.lists(st.integers(1, 30), min_size=3, max_size=4), st.integers(10, 60))


@settings(max_examples=25, deadline=None)
@given(instances, st.sampled_from(sorted(HEURISTICS)), st.integers(1, 4), st.integers(0, 1000))
def test_reference_logs_replay_valid(inst, heuristic, beam, seed):
    nums, target = inst
    for log in (dfs_log(target, nums, HEURISTICS[heuristic], threshold=target),
                bfs_log(target, nums, beam, HEURISTICS[heuristic], seed=seed)):
        v = audit(log, nums, target)
        assert v["trace_valid"] is True, (log[:400], v["invalid_steps"][:2])
        gave_up_rightly = log.endswith("No solution found.") and solve(nums, target) is None
        assert v["answer_correct"] == ("Goal Reached" in log or gave_up_rightly)


def test_bfs_leaf_revisit_accepted_but_bogus_leaf_state_rejected():
    log = bfs_log(47, [42, 5, 16, 68], 2, HEURISTICS["mult_heuristic"], seed=1)
    leaf_moves = re.findall(r"Moving to Node #(\S+)\nCurrent State: 47:\[(\d+)\]", log)
    assert leaf_moves, "this instance exercises bfs()'s one-number nodes"
    assert audit(log, [42, 5, 16, 68], 47)["trace_valid"] is True
    node, value = leaf_moves[0]
    bogus = log.replace(f"Moving to Node #{node}\nCurrent State: 47:[{value}]",
                        f"Moving to Node #{node}\nCurrent State: 47:[{int(value) + 1}]", 1)
    v = audit(bogus, [42, 5, 16, 68], 47)
    assert v["invalid_steps"][0]["rule"] == "other_state_mismatch"


# ------------------------------------------------------------------ answers

@pytest.mark.parametrize("answer,correct,kind", [
    ("(14+34)/4+28 = 40", True, None),
    ("Answer: (14 + 34) / 4 + 28", True, None),
    ("(14+34)/4+28 = 41", False, "arithmetic"),
    ("14+34-28+4 = 24", False, "wrong_value"),
    ("(14+14)/4+28 = 35", False, "illegal_move"),
    ("(14+34)/4+29", False, "illegal_move"),
    ("34/(28-28)", False, "arithmetic"),
    ("fourteen plus", False, "unparseable"),
    ("__import__('os').system('true')", False, "unparseable"),
    ("34-28=6, 14+6=20, 20/4=5, 5*8=40", False, "illegal_move"),
    ("14+34=48, 48/4=12, 12+28=40", True, None),
    ("14+34=48, 48/4=13, 13+28=41", False, "arithmetic"),
])
def test_free_form_answers(answer, correct, kind):
    v = audit("", [14, 34, 28, 4], 40, answer)
    assert v["answer_correct"] is correct, v["answer_error"]
    assert (v["answer_error"] or {}).get("kind") == kind
    assert v["trace_valid"] is None


def test_answer_against_log():
    log = dfs_log(40, [14, 34, 28, 4], HEURISTICS["sum_heuristic"])
    assert "Goal Reached" in log
    v = audit(log, [14, 34, 28, 4], 40, "14+34 = 48")
    assert v["answer_correct"] is False
    assert "answer_contradicts_trace" in {g["kind"] for g in v["gaps"]}
    v = audit(log, [14, 34, 28, 4], 40, "(14+34)/4+28")
    assert v["answer_correct"] is True and not v["gaps"]


def test_search_that_gives_up_on_solvable_instance_is_wrong():
    log = dfs_log(20, [83, 68, 1, 36], HEURISTICS["mult_heuristic"], threshold=20)
    v = audit(log, [83, 68, 1, 36], 20)
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "unmet_goal"
    assert "a solution exists" in v["answer_error"]["message"]


def test_no_solution_on_unsolvable_instance_is_right():
    assert solve([2, 2], 7) is None
    log = bfs_log(7, [2, 2], 3, HEURISTICS["sum_heuristic"])
    assert log.endswith("No solution found.")
    v = audit(log, [2, 2], 7)
    assert v["answer_correct"] is True and v["trace_valid"] is True


# ------------------------------------------------------------------ expression evaluator

@st.composite
def expressions(draw, depth=0):
    if depth > 3 or draw(st.booleans()):
        n = draw(st.integers(0, 50))
        return str(n), Fraction(n)
    left, lv = draw(expressions(depth + 1))
    right, rv = draw(expressions(depth + 1))
    op = draw(st.sampled_from("+-*/"))
    if op == "/" and rv == 0:
        op = "+"
    value = {"+": lv + rv, "-": lv - rv, "*": lv * rv, "/": lv / rv if rv else None}[op]
    return f"({left} {op} {right})", value


@settings(max_examples=100, deadline=None)
@given(expressions())
def test_evaluator_is_exact(expr):
    text, value = expr
    assert evaluate(text).value == value


@pytest.mark.parametrize("text", ["", "1+", "(1+2", "1 2", "2**3", "1/(3-3)", "(" * 150 + "1" + ")" * 150])
def test_evaluator_rejects(text):
    with pytest.raises(ExprError):
        evaluate(text)


# ------------------------------------------------------------------ detection and robustness

def test_detect_is_conservative():
    def rec(trace, fmt=None):
        return record_from_json({"domain": "countdown", "trace": trace, "format": fmt})
    assert detect(rec(BASE)) > 0.5
    assert choose_format(rec(BASE)).name == "sos"
    for other in ["create 0 0 c0 c2 close 0 0 c0 c2", "Let me think. Current State: 24:[1, 2]",
                  "query start 0 2 goal 2 1 reasoning close 0 2 c0 c3", "", "Exploring Operation: 1+2=3"]:
        assert detect(rec(other)) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("CurentSaExplogOiRsNd#:,[]0123456789+-*/= \n")), max_size=300))
def test_parse_and_replay_never_raise(noise):
    v = audit("Current State: 10:[6, 4], Operations: []\n" + noise, [6, 4], 10)
    assert v["trace_valid"] in (True, False)
    assert v["answer_error"] is None or v["answer_error"]["kind"] != "undecided"


# ------------------------------------------------------------------ Game of 24 (Tree of Thoughts)

def game24(trace: str, numbers: list[int], answer: str, use_all: bool = True) -> dict:
    problem = {"numbers": numbers, "target": 24, **({"use_all_numbers": True} if use_all else {})}
    return audit_record(record_from_json({"domain": "countdown", "problem": problem, "trace": trace,
                                          "answer": answer})).verdict.to_json()


def test_use_all_numbers_requires_every_number():
    """(8 - 5) * 8 = 24 leaves an 8: right under SoS's "at most once", wrong in Game of 24."""
    assert game24("", [5, 8, 8, 8], "(8 - 5) * 8 = 24", use_all=False)["answer_correct"] is True
    v = game24("", [5, 8, 8, 8], "(8 - 5) * 8 = 24")
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "unused_numbers"
    assert "[8]" in v["answer_error"]["message"]
    assert game24("", [5, 8, 8, 8], "(8 - 5) * 8 * (8 / 8) = 24")["answer_correct"] is False
    assert game24("", [4, 5, 6, 10], "(10 - 4) * 5 - 6 = 24")["answer_correct"] is True
    ops = game24("", [5, 8, 8, 8], "8 - 5 = 3\n3 * 8 = 24")
    assert ops["answer_correct"] is False and ops["answer_error"]["kind"] == "unused_numbers"


def _tot_rules(v: dict) -> dict[int, str]:
    return {s["step"]: s["rule"] for s in v["invalid_steps"]}


def test_tot_steps_are_replayed():
    good = game24("10 - 4 = 6 (left: 5 6 6)\n6 * 5 = 30 (left: 6 30)\n30 - 6 = 24 (left: 24)", [4, 5, 6, 10],
                  "(10 - 4) * 5 - 6 = 24")
    assert good["format"] == "tot" and good["trace_valid"] is True and good["answer_correct"] is True
    false = game24("6 * 6 = 36 (left: 5 36)\n36 / 5 = 24 (left: 24)", [5, 6, 6], "36 / 5 = 24")
    assert _tot_rules(false) == {1: "arithmetic"}
    assert "36 / 5 = 7.2, not 24" in false["invalid_steps"][0]["message"]


def test_tot_left_must_be_the_previous_with_the_operands_replaced():
    v = game24("10 - 4 = 6 (left: 5 6 6)\n6 * 5 = 30 (left: 30)\n8 + 8 = 16 (left: 16)", [4, 5, 6, 10], "")
    assert _tot_rules(v) == {1: "left_mismatch", 2: "operand_unavailable"}
    assert "leaves 6 30, not 30" in v["invalid_steps"][0]["message"]
    # "3 * 8 = 24 (left: 8 24)" has not used the 8; "24 * 1" then uses a 1 no state has
    left_over = game24("8 - 5 = 3 (left: 3 8 8)\n3 * 8 = 24 (left: 8 24)\n24 * 1 = 24 (left: 24)", [5, 8, 8, 8],
                       "(8 - 5) * 8 = 24")
    assert _tot_rules(left_over) == {2: "operand_unavailable"} and left_over["answer_correct"] is False


def test_tot_new_line_and_rounded_values():
    """A line begun again from the numbers given is judged there; a value rounded as written holds."""
    again = game24("10 - 4 = 6 (left: 5 6 6)\n6 * 6 = 36 (left: 5 36)\n5 * 6 = 30 (left: 4 10 30)", [4, 5, 6, 10], "")
    assert again["trace_valid"] is True
    rounded = game24("11 / 3 ≈ 3.67 (left: 3.67 8)\n8 / 3.67 ≈ 2.18 (left: 2.18)", [3, 8, 11], "")
    assert rounded["trace_valid"] is True
    off = game24("11 / 3 = 3.5 (left: 3.5 8)", [3, 8, 11], "")
    assert _tot_rules(off) == {0: "arithmetic"}


def test_game24_dev_answers_agree():
    rows = load_dev("real/countdown_tot.jsonl")
    verdicts = [audit_record(record_from_json(row)).verdict.to_json() for row in rows]
    assert all(v["answer_correct"] == row["expected"]["answer_correct"] for v, row in zip(verdicts, rows))
    assert {v["format"] for v, row in zip(verdicts, rows) if row["trace"].strip()} == {"tot"}
