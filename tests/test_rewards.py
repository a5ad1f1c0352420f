"""The validators as RL reward functions (issue 21): rewards/.

* TinyZero parity: mode "tinyzero" against a reference restated from TinyZero's published
  code, on 300 generated cases and hand-written edge cases; where our default mode differs.
* Every supported domain: right vs wrong answer (outcome), valid vs invalid trace (process), and
  the outcome equal to the app's verdict on the same record.
* verl's and TRL's calling conventions with the argument shapes they pass.
* Robustness: empty, None, huge and hostile completions score 0 with a reason, never raise.
* Import isolation: rewards imports neither Streamlit, SQLAlchemy nor litellm.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import rewards.trl as rtrl
from audit import audit_record
from core.record import record_from_json
from rewards import RewardConfig, compute_score, reward, score_batch, split_completion, trl_reward, trl_rewards
from rewards.tinyzero import extract_equation
from tests.conftest import REPO, load_dev

DETAILS = {"details": True}
TZ = {"mode": "tinyzero"}


# =====================================================================================
# Reference for the parity test: TinyZero's Countdown reward as published in
# Jiayi-Pan/TinyZero, verl/utils/reward_score/countdown.py (extract_solution,
# validate_equation, evaluate_equation, compute_score with format_score=0.1, score=1.0),
# restated here from reading that file. It calls eval() exactly as TinyZero does, so it is
# only ever given the strings this test builds (no giant powers). Not used by rewards/.
# =====================================================================================

def tinyzero_reference(solution_str: str, ground_truth: dict) -> float:
    if "Assistant:" in solution_str:
        text = solution_str.split("Assistant:", 1)[1]
    elif "<|im_start|>assistant" in solution_str:
        text = solution_str.split("<|im_start|>assistant", 1)[1]
    else:
        return 0
    text = text.split("\n")[-1]
    matches = list(re.finditer(r"<answer>(.*?)</answer>", text))
    if not matches:
        return 0
    equation = matches[-1].group(1).strip()
    try:
        numbers_ok = sorted(int(n) for n in re.findall(r"\d+", equation)) == sorted(ground_truth["numbers"])
    except Exception:  # noqa: BLE001
        numbers_ok = False
    if not numbers_ok:
        return 0.1
    try:
        if not re.match(r"^[\d+\-*/().\s]+$", equation):
            raise ValueError("characters")
        result = eval(equation, {"__builtins__": None}, {})  # noqa: S307 - the reference does what TinyZero does
    except Exception:  # noqa: BLE001
        return 0.1
    try:
        return 1.0 if abs(result - ground_truth["target"]) < 1e-5 else 0.1
    except Exception:  # noqa: BLE001
        return 0.1


# ------------------------------------------------------------------ generated cases

BASE = ("A conversation between User and Assistant. The assistant thinks first, then answers.\n"
        "User: Using the numbers {nums}, create an equation that equals {target}. Use + - * / and each number "
        "once. Show your work in <think> </think> tags and the final answer in <answer> </answer> tags, for "
        "example <answer> (1 + 2) / 3 </answer>.\nAssistant: Let me solve this step by step.\n<think>")
QWEN = ("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n Using the numbers {nums}, "
        "create an equation that equals {target}. Answer in <answer> </answer> tags, for example "
        "<answer> (1 + 2) / 3 </answer>.<|im_end|>\n<|im_start|>assistant\nLet me solve this step by step.\n<think>")


def _random_expression(rng: random.Random, nums: list[int]) -> tuple[str, Fraction]:
    """A random fully parenthesised expression over all of `nums` and its exact value."""
    items: list[tuple[str, Fraction]] = [(str(n), Fraction(n)) for n in nums]
    rng.shuffle(items)
    while len(items) > 1:
        i = rng.randrange(len(items) - 1)
        (ea, va), (eb, vb) = items[i], items[i + 1]
        op = rng.choice("+-*/")
        if op == "/" and vb == 0:
            op = "+"
        value = {"+": va + vb, "-": va - vb, "*": va * vb, "/": va / vb if vb else va}[op]
        items[i:i + 2] = [(f"({ea} {op} {eb})" if len(items) > 2 else f"{ea} {op} {eb}", value)]
    return items[0]


def _variant(rng: random.Random, kind: str, nums: list[int], expr: str) -> str:
    a, b = nums[0], nums[1]
    rest = " + ".join(str(n) for n in nums[2:]) or "0"
    return {
        "right": expr,
        "spaced": "  " + expr.replace(" ", "\t") + " ",
        "wrong_op": expr.replace("+", "-", 1) if "+" in expr else expr.replace("*", "+", 1),
        "missing": expr.replace(str(nums[-1]), "", 1) if len(nums) > 2 else str(a),
        "twice": f"{expr} + {a} - {a}",
        "extra": f"{expr} * 1",
        "with_target": f"{expr} = TARGET",
        "power": f"{a}**{b} - ({rest})" if len(nums) > 2 else f"{a}**{b}",
        "floordiv": f"({a} // {b}) + ({rest})",
        "unary": f"-{a} + {b} + ({rest})",
        "decimal": f"{a}.{b} * ({rest})",
        "leading_zero": expr.replace(str(a), "0" + str(a), 1),
        "unicode_digit": expr.replace(str(a), "".join(chr(0x0660 + int(d)) for d in str(a)), 1),
        "words": f"The answer is {expr}",
        "times_sign": expr.replace("*", "×"),
        "empty_tuple": f"() * {a} + {b}",
        "bold": f"**{expr}**",
        "empty": "",
    }[kind]


VARIANTS = ("right", "right", "right", "right", "right", "spaced", "spaced", "wrong_op", "missing", "twice", "extra",
            "with_target", "power", "floordiv", "unary", "decimal", "leading_zero", "unicode_digit", "words",
            "times_sign", "empty_tuple", "bold", "empty")
WRAPPERS = ("base", "base", "qwen", "qwen_eos", "not_last_line", "no_marker", "two_answers", "nested", "trailing_newline",
            "crlf", "multiline_answer", "both_markers", "text_after")


def _wrap(kind: str, nums: list[int], target: int, body: str, decoy: str) -> str:
    base, qwen = BASE.format(nums=nums, target=target), QWEN.format(nums=nums, target=target)
    think = f" I try a few combinations of {nums} to reach {target}. </think>\n"
    return {
        "base": f"{base}{think}<answer>{body}</answer>",
        "qwen": f"{qwen}{think}<answer>{body}</answer>",
        "qwen_eos": f"{qwen}{think}<answer>{body}</answer><|im_end|>",
        "not_last_line": f"{base}{think}<answer>{body}</answer>\nI hope this helps.",
        "no_marker": f"{think}<answer>{body}</answer>",
        "two_answers": f"{base}{think}<answer>{decoy}</answer> or better <answer>{body}</answer>",
        "nested": f"{base}{think}<answer>{decoy}<answer>{body}</answer>",
        "trailing_newline": f"{base}{think}<answer>{body}</answer>\n",
        "crlf": f"{base}{think}\r\n<answer>{body}</answer>\r",
        "multiline_answer": f"{base}{think}<answer>\n{body}\n</answer>",
        "both_markers": f"{qwen}{think}Assistant: <answer>{body}</answer>",
        "text_after": f"{base}{think}<answer>{body}</answer> is my final answer.",
    }[kind]


def generated_cases(n: int = 300, seed: int = 21) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    cases: list[tuple[str, dict]] = []
    while len(cases) < n:
        nums = [rng.randint(1, 99) for _ in range(rng.choice((3, 3, 4, 4, 5)))]
        for _ in range(30):  # most draws: an expression whose value is a positive whole target
            expr, value = _random_expression(rng, nums)
            if value.denominator == 1 and value > 0:
                break
        target = int(value) if value.denominator == 1 and value > 0 else rng.randint(1, 200)
        body = _variant(rng, rng.choice(VARIANTS), nums, expr).replace("TARGET", str(target))
        decoy = rng.choice(["1 + 2", expr, str(target), "(1 + 2) / 3"])
        cases.append((_wrap(rng.choice(WRAPPERS), nums, target, body, decoy), {"numbers": nums, "target": target}))
    return cases


# Hand-written cases: (solution_str, ground truth, TinyZero's score as read off its code).
EDGE_CASES: list[tuple[str, dict, float]] = [
    ("Assistant: <answer>(1 + 2) * 3</answer>", {"numbers": [1, 2, 3], "target": 9}, 1.0),
    ("Assistant: <answer>(1 + 2) * 3</answer>", {"numbers": [1, 2, 3], "target": 8}, 0.1),
    ("Assistant: <answer>3 * 3</answer>", {"numbers": [1, 2, 3], "target": 9}, 0.1),          # not every number
    ("Assistant: <answer>(1+2)*3</answer>\n", {"numbers": [1, 2, 3], "target": 9}, 0),          # last line is empty
    ("<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3], "target": 9}, 0),                       # no marker
    ("<|im_start|>assistant\n<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3], "target": 9}, 1.0),
    ("<|im_start|>assistant\nAssistant: x\n<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3], "target": 9}, 1.0),
    ("Assistant: <answer></answer>", {"numbers": [1, 2], "target": 3}, 0.1),                   # empty is an equation
    ("Assistant: <answer>1+2</answer><answer>1-2</answer>", {"numbers": [1, 2], "target": 3}, 0.1),  # the last one
    ("Assistant: <answer>1-2<answer>1+2</answer>", {"numbers": [1, 2], "target": 3}, 0.1),      # lazy match spans
    ("Assistant: <answer>1+2</answer", {"numbers": [1, 2], "target": 3}, 0),                     # never closed
    ("Assistant: <answer>2.5*4</answer>", {"numbers": [2, 5, 4], "target": 10}, 1.0),            # 2.5 reads as 2, 5
    ("Assistant: <answer>-3+5</answer>", {"numbers": [3, 5], "target": 2}, 1.0),                 # unary minus
    ("Assistant: <answer>7//2</answer>", {"numbers": [7, 2], "target": 3}, 1.0),                 # floor division
    ("Assistant: <answer>2**3</answer>", {"numbers": [2, 3], "target": 8}, 1.0),                 # power
    ("Assistant: <answer>03+5</answer>", {"numbers": [3, 5], "target": 8}, 0.1),                 # eval: leading zero
    ("Assistant: <answer>100002/100001</answer>", {"numbers": [100001, 100002], "target": 1}, 1.0),  # 1e-5 tolerance
    ("Assistant: <answer>(14+34)/4+28 = 40</answer>", {"numbers": [14, 34, 28, 4], "target": 40}, 0.1),
    ("Assistant: <answer>3 × 4</answer>", {"numbers": [3, 4], "target": 12}, 0.1),              # whitelist
    ("Assistant: <answer>**3*4**</answer>", {"numbers": [3, 4], "target": 12}, 0.1),
    ("Assistant: <answer>1/0 + 5</answer>", {"numbers": [1, 0, 5], "target": 5}, 0.1),          # ZeroDivisionError
    ("Assistant: <answer>() * 3 + 4</answer>", {"numbers": [3, 4], "target": 4}, 0.1),          # tuple + int
    ("Assistant: <answer>(0-8)**(1/3)*3</answer>", {"numbers": [0, 8, 1, 3, 3], "target": 3}, 0.1),  # complex
    ("Assistant: <answer>\u0663+5</answer>", {"numbers": [3, 5], "target": 8}, 0.1),            # Arabic-Indic 3
    ("User: hi\nAssistant: <answer>1+2</answer>", {"numbers": [1, 2], "target": 3}, 1.0),
    ("Assistant:<answer>\t1 +\r 2 </answer>", {"numbers": [1, 2], "target": 3}, 0.1),           # \r inside: eval fails
    ("Assistant: <answer>(1 +\r 2)</answer>", {"numbers": [1, 2], "target": 3}, 1.0),            # ... unless in parens
    ("Assistant: <answer> (1 + 2) </answer><|endoftext|>", {"numbers": [1, 2], "target": 3}, 1.0),
    ("Assistant: <answer>" + "-" * 300 + "3+5</answer>", {"numbers": [3, 5], "target": 8}, 1.0),  # deep, even
    ("Assistant: <answer>" + "(" * 250 + "3+5" + ")" * 250 + "</answer>", {"numbers": [3, 5], "target": 8}, 0.1),
]


def test_tinyzero_parity_on_300_generated_cases():
    cases = generated_cases()
    assert len(cases) >= 200
    seen: dict[float, int] = {}
    for solution, gt in cases:
        expected = tinyzero_reference(solution, gt)
        got = compute_score("countdown", solution, gt, TZ)
        assert got == expected, (solution[-160:], gt, got, expected)
        assert isinstance(got, float)
        seen[expected] = seen.get(expected, 0) + 1
    # The set exercises every outcome, not just one.
    assert seen.get(0, 0) >= 30 and seen.get(0.1, 0) >= 60 and seen.get(1.0, 0) >= 30, seen


@pytest.mark.parametrize("solution, gt, expected", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_tinyzero_edge_cases(solution, gt, expected):
    assert tinyzero_reference(solution, gt) == expected  # the reference reads TinyZero's code as we do
    assert compute_score("countdown", solution, gt, TZ) == expected


def test_tinyzero_mode_with_verl_shapes_and_details():
    gt = {"numbers": np.array([14, 34, 28, 4]), "target": np.int64(40)}  # as parquet hands them over
    solution = BASE.format(nums=[14, 34, 28, 4], target=40) + " ok </think>\n<answer>(14+34)/4+28</answer>"
    assert compute_score("countdown", solution, gt, TZ) == 1.0
    details = compute_score("countdown", solution, gt, {**TZ, **DETAILS})
    assert details["score"] == 1.0 and details["mode"] == "tinyzero" and details["answer"] == "(14+34)/4+28"
    # run-wide via reward_kwargs (verl's custom_reward_function.reward_kwargs), row-wide via extra_info
    assert compute_score("countdown", solution, gt, None, mode="tinyzero") == 1.0
    assert compute_score("countdown", solution, {"target": 40, "nums": [14, 34, 28, 4]}, TZ) == 1.0


def test_tinyzero_giant_power_does_not_hang():
    started = time.perf_counter()
    out = compute_score("countdown", "Assistant: <answer>44**19**35</answer>", {"numbers": [44, 19, 35], "target": 1},
                        {**TZ, **DETAILS})
    assert out["score"] == 0.1 and "bits" in out["reason"]
    assert time.perf_counter() - started < 2
    assert compute_score("countdown", "Assistant: <answer>1**99999999999 + 2</answer>",
                         {"numbers": [1, 99999999999, 2], "target": 3}, TZ) == 1.0


def test_tinyzero_mode_scores_where_tinyzero_raises():
    for solution, gt in [(None, {"numbers": [1], "target": 1}), ("Assistant: <answer>1</answer>", {"numbers": [1]}),
                         ("Assistant: <answer>1</answer>", "not a dict")]:
        out = compute_score("countdown", solution, gt, {**TZ, **DETAILS})
        assert out["score"] == 0.0 and out["reason"], out


def test_tinyzero_extraction_is_linear_on_hostile_lines():
    line = "Assistant: " + "<answer>" * 200_000 + "1"
    started = time.perf_counter()
    assert extract_equation(line) is None
    assert compute_score("countdown", line, {"numbers": [1], "target": 1}, TZ) == 0
    assert time.perf_counter() - started < 2


def test_tinyzero_mode_can_add_process_reward_later():
    gt = {"numbers": [14, 34, 28, 4], "target": 40}
    prose = ("Let me try adding first: 14+34=48, then dividing by four gives 48/4=12, and adding the last number "
             "gives 12+28=40, which is the target.")
    wrong = prose.replace("14+34=48", "14+34=49")
    base = BASE.format(nums=[14, 34, 28, 4], target=40)
    right_trace = f"{base}{prose}</think>\n<answer>(14+34)/4+28</answer>"
    bad_trace = f"{base}{wrong}</think>\n<answer>(14+34)/4+28</answer>"
    # same TinyZero score by default, whatever the trace says
    assert compute_score("countdown", right_trace, gt, TZ) == compute_score("countdown", bad_trace, gt, TZ) == 1.0
    with_process = {**TZ, "tinyzero_process_weight": 0.5, "details": True}
    good, bad = compute_score("countdown", right_trace, gt, with_process), compute_score("countdown", bad_trace, gt,
                                                                                          with_process)
    assert good["process"] == 1.0 and good["score"] == 1.5
    assert bad["process"] < 1.0 and bad["score"] < good["score"] and bad["invalid_steps"] >= 1


# ------------------------------------------------------------------ where our default differs

DIFFERENCES = [
    # (solution, ground truth, TinyZero, our outcome, what differs)
    ("<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3], "target": 9}, 0, 1.0, "no 'Assistant:' marker needed"),
    ("Assistant: <answer>(1+2)*3</answer>\nDone.", {"numbers": [1, 2, 3], "target": 9}, 0, 1.0, "any line"),
    ("Assistant: <answer>2.5*4</answer>", {"numbers": [2, 5, 4], "target": 10}, 1.0, 0.0, "no decimals"),
    ("Assistant: <answer>-3+5</answer>", {"numbers": [3, 5], "target": 2}, 1.0, 0.0, "no unary minus"),
    ("Assistant: <answer>7//2</answer>", {"numbers": [7, 2], "target": 3}, 1.0, 0.0, "no floor division"),
    ("Assistant: <answer>2**3</answer>", {"numbers": [2, 3], "target": 8}, 1.0, 0.0, "no powers"),
    ("Assistant: <answer>100002/100001</answer>", {"numbers": [100001, 100002], "target": 1}, 1.0, 0.0, "exact"),
    ("Assistant: <answer>(14+34)/4+28 = 40</answer>", {"numbers": [14, 34, 28, 4], "target": 40}, 0.1, 1.0,
     "'= target' allowed"),
    ("Assistant: <answer>3 × 4</answer>", {"numbers": [3, 4], "target": 12}, 0.1, 1.0, "× and ÷"),
    ("Assistant: <answer>**(1+2)*3**</answer>", {"numbers": [1, 2, 3], "target": 9}, 0.1, 1.0, "markdown bold"),
    ("Assistant: <answer>44**19**35</answer>", {"numbers": [44, 19, 35], "target": 1}, 0.1, 0.0, "giant power"),
]


@pytest.mark.parametrize("solution, gt, tinyzero, ours, why", DIFFERENCES, ids=[d[4] for d in DIFFERENCES])
def test_default_mode_is_sound_where_tinyzero_is_quirky(solution, gt, tinyzero, ours, why):
    assert compute_score("countdown", solution, gt, TZ) == tinyzero
    assert compute_score("countdown", solution, gt, DETAILS)["outcome"] == ours


def test_default_countdown_needs_every_number_unless_configured():
    gt = {"numbers": [1, 2, 3], "target": 9}
    out = compute_score("countdown", "<answer>3*3</answer>", gt, DETAILS)
    assert out["outcome"] == 0.0  # 3 used twice: the app's reader says wrong too
    out = compute_score("countdown", "<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3, 7], "target": 9}, DETAILS)
    assert out["outcome"] == 0.0 and out["format"] == 1.0 and "[7] unused" in out["reason"]
    out = compute_score("countdown", "<answer>(1+2)*3</answer>", {"numbers": [1, 2, 3, 7], "target": 9},
                        {"countdown_all_numbers": False, "details": True})
    assert out["outcome"] == 1.0  # exactly the app's verdict


# =====================================================================================
# Domains: outcome from the answer, process from the trace, both as the app judges them
# =====================================================================================

def _app_verdict(domain: str, problem: dict, solution: str):
    split = split_completion(solution, domain)
    rec = record_from_json({"domain": domain, "problem": problem, "trace": split.trace, "answer": split.answer})
    return audit_record(rec).verdict


def _check_same_as_app(domain: str, problem: dict, solution: str, out: dict) -> None:
    verdict = _app_verdict(domain, problem, solution)
    assert out["outcome"] == (1.0 if verdict.answer_correct else 0.0)
    assert out["invalid_steps"] == len(verdict.invalid_steps)
    assert out["first_invalid_step"] == (-1 if verdict.first_invalid_step is None else verdict.first_invalid_step)


COUNTDOWN_TRACE = ("Okay, let me think about how to combine these numbers to reach the target. I will try adding the "
                   "first two: 14+34=48. Then I divide by four, 48/4=12, and finally I add the last number: "
                   "12+28=40. That is exactly the target, so the expression is (14+34)/4+28.")


def test_countdown_right_wrong_valid_invalid():
    gt = {"numbers": [14, 34, 28, 4], "target": 40}
    right = compute_score("countdown", f"<think>{COUNTDOWN_TRACE}</think><answer>(14+34)/4+28</answer>", gt, DETAILS)
    wrong = compute_score("countdown", f"<think>{COUNTDOWN_TRACE}</think><answer>(14+34)/4-28</answer>", gt, DETAILS)
    bad_trace = COUNTDOWN_TRACE.replace("48/4=12", "48/4=13")
    invalid = compute_score("countdown", f"<think>{bad_trace}</think><answer>(14+34)/4+28</answer>", gt, DETAILS)
    assert (right["outcome"], right["format"], right["process"]) == (1.0, 1.0, 1.0)
    assert (wrong["outcome"], wrong["format"]) == (0.0, 1.0)
    assert invalid["outcome"] == 1.0 and invalid["process"] < 1.0 and invalid["invalid_steps"] >= 1
    assert right["score"] > invalid["score"] > wrong["score"]
    for solution, out in [(f"<think>{bad_trace}</think><answer>(14+34)/4+28</answer>", invalid)]:
        _check_same_as_app("countdown", gt, solution, out)
    # A Stream-of-Search log is a trace that holds its answer (the goal path)
    row = next(r for r in load_dev("countdown_sos.jsonl") if r["expected"]["answer_correct"])
    sos = compute_score("countdown", row["trace"], row["problem"], DETAILS)
    assert sos["answer_source"] == "stream" and sos["outcome"] == 1.0 and sos["judged_steps"] > 10


def _maze_parts(row: dict) -> tuple[str, str, str]:
    query, rest = row["trace"].split(" reasoning ", 1)
    reasoning, solution = rest.split(" solution ", 1)
    return query.removeprefix("query "), reasoning, solution.removesuffix(" end")


def test_maze_right_wrong_valid_invalid():
    rows = load_dev("maze_beyond_semantics.jsonl")
    valid = next(r for r in rows if r["meta"]["kind"] == "reference_generated")
    swapped = next(r for r in rows if r["meta"]["kind"] == "swapped_constructed_here")
    prompt, reasoning, plan = _maze_parts(valid)
    tagged = f"<think>{reasoning}</think><answer>{plan}</answer>"
    right = compute_score("maze", tagged, prompt, DETAILS)          # a maze prompt as the ground truth
    assert right["outcome"] == 1.0 and right["process"] == 1.0 and right["judged_steps"] > 10
    _check_same_as_app("maze", {"prompt": prompt}, tagged, right)
    stream = compute_score("maze", f"reasoning {reasoning} solution {plan} end", {"prompt": prompt}, DETAILS)
    assert stream["answer_source"] == "stream" and stream["outcome"] == 1.0 and stream["process"] == 1.0
    cells = plan.split(" plan ")
    wrong_plan = " plan ".join(cells[:-1])                          # stops one cell short of the goal
    wrong = compute_score("maze", f"<think>{reasoning}</think><answer>{wrong_plan}</answer>", prompt, DETAILS)
    assert wrong["outcome"] == 0.0 and wrong["format"] == 1.0 and wrong["process"] == 1.0
    # SearchFormer's token stream (its test fixture trace_maze_short.json), untagged, prompt in prose
    searchformer = ("bos create 0 0 c0 c2 close 0 0 c0 c2 create 1 0 c1 c3 close 1 0 c1 c3 create 1 1 c2 c2 "
                    "create 2 0 c2 c4 close 1 1 c2 c2 create 1 2 c3 c1 create 2 1 c3 c3 close 1 2 c3 c1 create 0 2 c4 c0 "
                    "create 2 2 c4 c2 close 0 2 c4 c0 plan 0 0 plan 1 0 plan 1 1 plan 1 2 plan 0 2 eos")
    out = compute_score("maze", searchformer, "3x3, start (0,0), goal (0,2), wall (0,1)", DETAILS)
    assert (out["answer_source"], out["outcome"], out["process"], out["judged_steps"]) == ("stream", 1.0, 1.0, 18)
    broken = searchformer.replace("create 1 1 c2 c2", "create 0 1 c2 c2")           # creates the wall cell
    assert compute_score("maze", broken, "3x3, start (0,0), goal (0,2), wall (0,1)", DETAILS)["process"] < 1.0
    s_prompt, s_reasoning, s_plan = _maze_parts(swapped)
    invalid = compute_score("maze", f"<think>{s_reasoning}</think><answer>{s_plan}</answer>", s_prompt, DETAILS)
    assert invalid["outcome"] == 1.0 and invalid["process"] < 0.9 and invalid["first_invalid_step"] >= 0
    _check_same_as_app("maze", {"prompt": s_prompt}, f"<think>{s_reasoning}</think><answer>{s_plan}</answer>", invalid)


R1_CASES = {  # PlanBench R1 thinking traces (../shared/data/dev and the sample in tests/data/dev)
    "blocksworld": ("9fef5aa451c406d3", "5d1ebc0fda9e6dfa"),
    "mystery_blocksworld": ("e4d2ffdd3c2cc0b3", "e3382e54e28b78e1"),
}
# No R1 trace with a right answer is known to make a false claim the reader flags: the flags once on
# them were found wrong by independent reviews (5d1ebc... misread "After putting red down, orange is
# clear."; 1d4320... twice; e3382e... a need judged after its step, reviews of 2026-12-05). Each
# invalid case gets one false claim written in.
FALSE_CLAIM_IN = {"5d1ebc0fda9e6dfa": ("and clear. Now holding blue.", "and clear. Now holding orange."),
                  "e3382e54e28b78e1": ("So Succumb b would require Pain b (yes).",
                                       "So Succumb b would require Pain a (yes).")}


@pytest.mark.parametrize("domain", sorted(R1_CASES))
def test_planning_right_wrong_valid_invalid(domain):
    rows = {r["id"]: r for r in load_dev("planbench_r1_thinking.jsonl")}
    valid_id, invalid_id = R1_CASES[domain]
    good, bad = rows[valid_id], rows[invalid_id]
    if invalid_id in FALSE_CLAIM_IN:
        said, false = FALSE_CLAIM_IN[invalid_id]
        assert bad["trace"].count(said) == 1
        bad = {**bad, "trace": bad["trace"].replace(said, false)}

    def completion(row: dict, answer: str | None = None) -> str:
        return f"<think>\n{row['trace']}\n</think>\n\n{row['answer'] if answer is None else answer}"

    right = compute_score(domain, completion(good), good["problem"], DETAILS)
    assert right["outcome"] == 1.0 and right["format"] == 1.0 and right["process"] == 1.0 and right["judged_steps"] > 3
    _check_same_as_app(domain, good["problem"], completion(good), right)
    first_action = next(line for line in good["answer"].splitlines() if line.strip().startswith("1."))
    wrong = compute_score(domain, completion(good, first_action), good["problem"], DETAILS)
    assert wrong["outcome"] == 0.0 and wrong["format"] == 1.0 and "goal" in wrong["reason"]
    unreadable = compute_score(domain, completion(good, "I am not sure."), good["problem"], DETAILS)
    assert unreadable["format"] == 0.0 and unreadable["outcome"] == 0.0
    invalid = compute_score(domain, completion(bad), bad["problem"], DETAILS)
    assert invalid["outcome"] == 1.0 and 0.0 < invalid["process"] < 1.0 and invalid["invalid_steps"] >= 1
    _check_same_as_app(domain, bad["problem"], completion(bad), invalid)
    assert right["score"] > invalid["score"] > wrong["score"]
    # the same PDDL as {"domain": ..., "problem": ...} texts, and a whole record as the ground truth
    other = {"domain": good["problem"]["domain_pddl"], "problem": good["problem"]["problem_pddl"]}
    assert compute_score(domain, completion(good), other) == right["score"]
    assert compute_score("planbench/" + domain, completion(good), json.dumps(good)) == right["score"]


def test_outcome_only_rewards_skip_the_trace_and_agree_with_the_full_audit():
    """With process weight 0 the thinking is not replayed: the answer verdict of these domains
    does not depend on it. Checked on every dev record that has both a trace and an answer."""
    rows = [r for r in load_dev("planbench_r1_thinking.jsonl") if len(r["trace"]) < 15_000]
    rows += [{"domain": "countdown", "problem": {"numbers": [14, 34, 28, 4], "target": 40},
              "trace": COUNTDOWN_TRACE, "answer": a} for a in ("(14+34)/4+28", "(14+34)/4-28", "no idea")]
    assert len(rows) >= 20
    outcome_only = {"process_weight": 0.0}
    for row in rows:
        solution = f"<think>{row['trace']}</think>\n{row['answer']}"
        full = compute_score(row["domain"], solution, row["problem"], DETAILS)
        fast = compute_score(row["domain"], solution, row["problem"], outcome_only)
        assert fast == pytest.approx(full["outcome"] + 0.1 * full["format"]), row.get("id")


def test_planbench_plans_outcome_equals_the_app_verdict():
    rows = load_dev("planbench_plans.jsonl")[:30]
    for row in rows:
        out = compute_score(row["domain"], row["answer"], row["problem"], DETAILS)
        verdict = audit_record(record_from_json(row)).verdict
        assert out["outcome"] == (1.0 if verdict.answer_correct else 0.0), row["id"]


def test_plan_answers_without_a_replayed_trace_score_as_through_the_audit(monkeypatch):
    """rewards/plan_answer.py checks a plan answer without the audit around it when the trace is
    not replayed (process weight 0) or empty. Every field of the result must be the audit path's
    (the same call with that shortcut turned off), on the PlanBench dev answers (the first 300 of
    each file, to keep the test short; all 1,296 were compared once when the shortcut was added)."""
    import rewards.score as rscore

    rows = [r for name in ("planbench_plans.jsonl", "planbench_plans_more.jsonl", "planbench_r1_thinking.jsonl",
                           "planbench_verification.jsonl") for r in load_dev(name)[:300] if isinstance(r.get("answer"), str)]
    jobs = []
    for row in rows:
        jobs.append((row, f"<answer>{row['answer']}</answer>", RewardConfig(details=True)))
        jobs.append((row, row["answer"], RewardConfig(process_weight=0.0)))
        if len(row.get("trace") or "") < 4000:
            jobs.append((row, f"<think>{row.get('trace') or ''}</think>{row['answer']}", RewardConfig(process_weight=0)))
    fast = [reward(row["domain"], text, row["problem"], config).to_dict() for row, text, config in jobs]
    monkeypatch.setattr(rscore, "plan_answer_verdict", lambda *args: None)
    slow = [reward(row["domain"], text, row["problem"], config).to_dict() for row, text, config in jobs]
    assert len(jobs) >= 90
    for (row, _, _), a, b in zip(jobs, fast, slow):
        assert a == b, row.get("id")
    assert {d["verdict"] for d in fast} >= {"right", "wrong"}


def test_freeform_arithmetic():
    trace = ("Okay, the question asks for six times seven. Let me compute it step by step: 6*7=42. "
             "Then I double check by adding: 42+0=42. So the answer is 42.")
    bad = trace.replace("6*7=42", "6*7=43")
    right = compute_score("freeform", f"<think>{trace}</think>\nThe answer is 42.", "42", DETAILS)
    wrong = compute_score("freeform", f"<think>{trace}</think>\n41", {"question": "6*7?", "reference_answer": 42},
                          DETAILS)
    invalid = compute_score("arithmetic", f"<think>{bad}</think>\n42", 42, DETAILS)
    assert (right["outcome"], right["format"], right["process"]) == (1.0, 1.0, 1.0)
    assert wrong["outcome"] == 0.0 and wrong["format"] == 1.0
    assert invalid["outcome"] == 1.0 and invalid["process"] < 1.0
    _check_same_as_app("freeform", {"reference_answer": "42"}, f"<think>{bad}</think>\n42", invalid)
    # a TRL dataset with an `answer` column
    assert trl_reward("freeform", part="outcome")(completions=["<think>ok</think>42", "41"], answer=["42", "42"],
                                                  question=["6*7?", "6*7?"]) == [1.0, 0.0]


def test_hanoi_moves_from_answer_or_trace():
    from validators.puzzles.hanoi import optimal_moves
    moves = json.dumps(optimal_moves(3))
    illegal = json.dumps([[1, 0, 2], [2, 0, 2]] + optimal_moves(3)[2:])
    right = compute_score("hanoi", f"<think>I will try: moves = {moves}</think>moves = {moves}", 3, DETAILS)
    assert (right["outcome"], right["process"]) == (1.0, 1.0)
    invalid = compute_score("hanoi", f"<think>First: moves = {illegal}. Fixed: moves = {moves}</think>moves = {moves}",
                            {"disks": 3}, DETAILS)
    assert invalid["outcome"] == 1.0 and invalid["process"] < 1.0
    # an answer without its own move list takes the trace's last one, so the trace is always read
    assert compute_score("hanoi", f"<think>moves = {moves}</think>See above.", 3, {"process_weight": 0}) == 1.1
    assert compute_score("tower_of_hanoi", "moves = [[1, 0, 1]]", 3, DETAILS)["outcome"] == 0.0


def test_process_modes_and_weights():
    gt = {"numbers": [14, 34, 28, 4], "target": 40}
    bad_trace = COUNTDOWN_TRACE.replace("48/4=12", "48/4=13")
    solution = f"<think>{bad_trace}</think><answer>(14+34)/4+28</answer>"
    first_error = compute_score("countdown", solution, gt, {"process_mode": "first_error", "details": True})
    assert first_error["process"] == -1.0
    assert compute_score("countdown", solution, gt, {"process_mode": "first_error", "invalid_step_penalty": 0.25,
                                                     "details": True})["process"] == -0.25
    weights = {"outcome_weight": 2.0, "format_weight": 0.0, "process_weight": 0.0}
    assert compute_score("countdown", solution, gt, weights) == 2.0
    no_trace = compute_score("countdown", "<answer>(14+34)/4+28</answer>", gt, {"unjudged_process": 0.5, "details": True})
    assert no_trace["process"] == 0.5 and no_trace["judged_steps"] == 0
    with pytest.raises(ValueError):
        compute_score("countdown", solution, gt, {"process_mode": "sometimes"})
    with pytest.raises(ValueError):
        compute_score("countdown", solution, gt, {"process_weight": "lots"})


def test_settings_kept_per_process_are_still_checked_each_time():
    """RewardConfig keeps the configs verl's repeated settings give: 0 and False hash alike, and
    only one of them is a valid weight."""
    base = RewardConfig()
    assert base.with_overrides({"process_weight": 0}) is base.with_overrides({"process_weight": 0})
    assert base.with_overrides({"process_weight": 0}).process_weight == 0
    for _ in range(2):
        with pytest.raises(ValueError):
            base.with_overrides({"process_weight": False})
        with pytest.raises(ValueError):
            base.with_overrides({"process_weight": [0]})
    assert base.with_overrides({"process_weight": 0.0, "reward_config": {"format_weight": 0}}).format_weight == 0


# =====================================================================================
# Splitting a completion
# =====================================================================================

@pytest.mark.parametrize("text, trace, answer, source", [
    ("<think>a</think>b", "a", "b", "after_think"),
    ("a</think>\n<answer>b</answer>", "a", "b", "answer_tag"),                    # <think> was in the prompt
    ("<think>a</think><answer>b</answer> <answer>c</answer>", "a", "c", "answer_tag"),
    ("reasoning <answer>b</answer>", "reasoning", "b", "answer_tag"),
    ("<think>a", "a", "", "none"),                                                  # cut off while thinking
    ("x <answer>b", "x", "b", "answer_tag_unclosed"),
    ("just text", "", "just text", "whole_text"),
    ("<think>a</think><answer>b</answer><|im_end|>", "a", "b", "answer_tag"),
    ("<think>a</think> 42<|endoftext|>", "a", "42", "after_think"),
    ("User: q <answer>1</answer>\nAssistant: <think>a</think><answer>b</answer>", "a", "b", "answer_tag"),
    ("<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\nthe answer: 7", "", "the answer: 7", "whole_text"),
    ("", "", "", "none"),
])
def test_split(text, trace, answer, source):
    split = split_completion(text, "freeform")
    assert (split.trace, split.answer, split.answer_source) == (trace, answer, source)


# =====================================================================================
# TRL's calling convention
# =====================================================================================

def _trl_batch() -> tuple[list[str], dict[str, list[Any]]]:
    completions = [
        f"<think>{COUNTDOWN_TRACE}</think>\n<answer>(14+34)/4+28</answer>",
        "<think>no idea</think>\n<answer>14+34+28+4</answer>",
        "I cannot do it.",
        f"<think>{COUNTDOWN_TRACE.replace('48/4=12', '48/4=13')}</think>\n<answer>(14+34)/4+28</answer>",
    ]
    columns = {"target": [40] * 4, "nums": [[14, 34, 28, 4]] * 4, "completion_ids": [[1, 2]] * 4,
               "trainer_state": object()}
    return completions, columns


def test_trl_plain_and_conversational_formats():
    completions, columns = _trl_batch()
    prompts = ["Using the numbers [14, 34, 28, 4], make 40."] * 4
    total = trl_reward("countdown")
    plain = total(prompts=prompts, completions=completions, **columns)
    assert isinstance(plain, list) and len(plain) == 4 and all(isinstance(x, float) for x in plain)
    assert plain[0] > plain[3] > plain[1] > plain[2] == 0.0
    conversational = [[{"role": "assistant", "content": c}] for c in completions]
    chat_prompts = [[{"role": "user", "content": p}] for p in prompts]
    assert total(prompts=chat_prompts, completions=conversational, **columns) == plain
    # content parts and server-side reasoning (`reasoning_content`) read too
    parts = [[{"role": "assistant", "reasoning_content": COUNTDOWN_TRACE,
               "content": [{"type": "text", "text": "<answer>(14+34)/4+28</answer>"}]}]]
    assert total(prompts=chat_prompts[:1], completions=parts, target=[40], nums=[[14, 34, 28, 4]]) == plain[:1]
    assert total.__name__ == "stepscope_countdown_score"


def test_trl_parts_are_separate_functions_over_one_audit(monkeypatch):
    completions, columns = _trl_batch()
    calls = []
    real = rtrl.reward
    monkeypatch.setattr(rtrl, "reward", lambda *a: calls.append(1) or real(*a))
    rtrl._cache.clear()
    funcs = trl_rewards("countdown")
    assert [f.__name__ for f in funcs] == ["stepscope_countdown_outcome", "stepscope_countdown_format",
                                           "stepscope_countdown_process"]
    outcome, fmt, process = (f(prompts=[""] * 4, completions=completions, **columns) for f in funcs)
    assert outcome == [1.0, 0.0, 0.0, 1.0]
    assert fmt == [1.0, 1.0, 0.0, 1.0]
    assert process[0] == 1.0 and process[3] < 1.0
    assert len(calls) == 4  # one audit per completion for the three functions


def test_trl_domain_and_problem_from_columns():
    gt_countdown = {"numbers": [1, 2, 3], "target": 9}
    plans = {r["id"]: r for r in load_dev("planbench_r1_thinking.jsonl")}
    good = plans["9fef5aa451c406d3"]
    batch = {
        "data_source": ["countdown", "blocksworld", "countdown"],
        "reward_model": [{"style": "rule", "ground_truth": gt_countdown},
                         {"style": "rule", "ground_truth": good["problem"]},
                         {"style": "rule", "ground_truth": json.dumps(gt_countdown)}],
        "extra_info": [{"split": "train", "index": 0}, {"index": 1}, {"index": 2, "mode": "tinyzero"}],
    }
    completions = ["<answer>(1+2)*3</answer>", good["answer"], "<answer>(1+2)*3</answer>"]
    out = trl_reward()(prompts=["p"] * 3, completions=completions, **batch)
    assert out[0] == pytest.approx(1.1) and out[1] == pytest.approx(1.1)
    assert out[2] == 1.0  # TinyZero's score: the completion is scored as the assistant's turn
    results = score_batch(completions, ["p"] * 3, None, None, **batch)
    assert [r.domain for r in results] == ["countdown", "blocksworld", "countdown"]


def test_trl_tinyzero_mode_matches_compute_score_on_prompt_plus_completion():
    f = trl_reward("countdown", mode="tinyzero")
    for solution, gt in generated_cases(40, seed=3):
        if "Assistant:" not in solution or solution.count("Assistant:") > 1:
            continue
        prompt, completion = solution.split("Assistant:", 1)
        prompt += "Assistant:"
        got = f(prompts=[prompt], completions=[completion], numbers=[gt["numbers"]], target=[gt["target"]])
        assert got == [compute_score("countdown", solution, gt, TZ)]


# =====================================================================================
# Robustness: nothing raises, bad input is a 0 with a reason
# =====================================================================================

HOSTILE = [
    None, "", 0, 3.5, b"<answer>1</answer>", ["<answer>1</answer>"], {"a": 1},
    "\x00" * 1000, "\ud800<answer>\udfff</answer>", "<answer>" * 100_000, "</answer>" * 100_000,
    "<think>" * 50_000 + "</think>" * 50_000, "<answer>" + "(" * 100_000 + "1" + ")" * 100_000 + "</answer>",
    "<answer>" + "-" * 100_000 + "1</answer>", "<answer>" + "9" * 100_000 + "</answer>",
    "<answer>" + "1+" * 50_000 + "1</answer>", "Current State: 40:[1, 2], Operations: []\n" * 20_000,
    "create 0 0 c0 c2 close 0 0 c0 c2 " * 20_000, "\u202e<answer>24</answer>\u202d", "😀" * 100_000,
    "(define (domain x) " * 10_000,
]


@pytest.mark.parametrize("domain, gt", [
    ("countdown", {"numbers": [1, 2, 3], "target": 6}), ("maze", "start 0 0 goal 1 1"),
    ("blocksworld", {"domain_pddl": "(define", "problem_pddl": ")"}), ("freeform", "1"),
])
def test_hostile_completions_never_raise(domain, gt):
    for solution in HOSTILE:
        started = time.perf_counter()
        for mode in ("stepscope", "tinyzero"):
            out = compute_score(domain, solution, gt, {"mode": mode, "details": True})
            assert isinstance(out["score"], float)
            if out["score"] == 0.0 and out["outcome"] == 0.0:
                assert out["reason"]
            assert set(out) == set(compute_score("countdown", "", {"numbers": [1], "target": 1}, DETAILS))
        assert time.perf_counter() - started < 20, (domain, repr(solution)[:40])


@pytest.mark.parametrize("data_source, gt", [
    ("countdown", None), ("countdown", {"numbers": [1, 2]}), ("countdown", "garbage {"), ("countdown", 7),
    ("no_such_domain", {"numbers": [1], "target": 1}), (None, None), (42, {}), ("maze", {"width": "x"}),
    ("blocksworld", {"problem_pddl": "(define (problem p))"}), ("pddl", {"domain_pddl": "((((", "problem_pddl": "))"}),
])
def test_bad_problems_score_zero_with_a_reason(data_source, gt):
    out = compute_score(data_source, "<think>1+1=2</think><answer>1</answer>", gt, DETAILS)
    assert out["score"] == 0.0 and out["outcome"] == 0.0 and out["reason"]


def test_huge_completions():
    gt = {"numbers": [14, 34, 28, 4], "target": 40}
    huge = "x" * 2_000_001 + "<answer>(14+34)/4+28</answer>"
    out = compute_score("countdown", huge, gt, DETAILS)
    assert out["score"] == 0.0 and "max_chars" in out["reason"]
    big = ("I will think hard. " * 20_000) + "</think><answer>(14+34)/4+28</answer>"   # 380 KB, under the limit
    started = time.perf_counter()
    assert compute_score("countdown", big, gt, DETAILS)["outcome"] == 1.0
    assert time.perf_counter() - started < 20
    assert compute_score("countdown", huge, gt, {"max_chars": 3_000_000, "details": True})["outcome"] == 1.0


def test_details_dict_is_flat_and_stable():
    out = compute_score("countdown", "<answer>1</answer>", {"numbers": [1], "target": 1}, DETAILS)
    assert list(out) == ["score", "outcome", "format", "process", "judged_steps", "invalid_steps",
                         "first_invalid_step", "verdict", "trace", "mode", "domain", "answer_source", "answer", "reason"]
    assert all(v is not None for v in out.values())
    direct = reward("countdown", "<answer>1</answer>", {"numbers": [1], "target": 1}, RewardConfig())
    assert direct.to_dict()["score"] == compute_score("countdown", "<answer>1</answer>", {"numbers": [1], "target": 1})


def test_verl_loads_the_file_by_path(tmp_path):
    """verl imports custom_reward_function.path with importlib from the file, as "custom_module"."""
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('custom_module', {str(REPO / 'rewards' / 'verl.py')!r})\n"
        "module = importlib.util.module_from_spec(spec); sys.modules['custom_module'] = module\n"
        "spec.loader.exec_module(module)\n"
        "print(module.compute_score(data_source='countdown', solution_str='<answer>(1+2)*3</answer>',\n"
        "                           ground_truth={'numbers': [1, 2, 3], 'target': 9}, extra_info={'index': 0}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.strip()) == pytest.approx(1.1)


# =====================================================================================
# Import isolation
# =====================================================================================

def test_rewards_import_without_streamlit_database_or_litellm():
    code = (
        "import sys\n"
        "import rewards\n"
        "from rewards import compute_score, trl_reward\n"
        "compute_score('countdown', '<answer>(1+2)*3</answer>', {'numbers': [1, 2, 3], 'target': 9})\n"
        "trl_reward('countdown')(completions=['<answer>1</answer>'], numbers=[[1]], target=[1])\n"
        "bad = [m for m in ('streamlit', 'sqlalchemy', 'sqlmodel', 'litellm', 'db', 'pipeline', 'capture')\n"
        "       if m in sys.modules]\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_countdown_answers_without_a_replayed_trace_score_as_through_the_audit(monkeypatch):
    """With process weight 0 a Countdown answer is scored from the replay's own answer check,
    without the audit around it (rewards/score.py `_countdown_answer`). Every field of the result
    must be the audit path's (the same call with the shortcut turned off): generated completions
    (right, wrong, unreadable, numbers reused or left out), the dev logs' answers, hostile text."""
    import rewards.score as rscore
    from bench.bench_rewards import countdown_batch

    jobs = [(text, gt) for text, gt in countdown_batch(400, seed=5)]
    for row in load_dev("countdown_sos.jsonl")[:60]:
        if isinstance(row.get("answer"), str) and row["answer"].strip():
            jobs.append((f"<answer>{row['answer']}</answer>", row["problem"]))
    gt = {"numbers": [3, 5, 7, 11], "target": 24}
    jobs += [(f"<answer>{text}</answer>", gt) for text in
             ("3*5+11-7", "(11-7)*(5+3-2)", "11+7+5+3", "3 * 8 = 24", "24", "<script>alert(1)</script>",
              "11 + 7 = 18\n18 + 5 = 23\n23 + 3 = 26", "5+5+7+7", "(3+5)*(11-7-1)", "1e9", "3/0+24")]
    jobs += [("<answer>3+4</answer>", {"numbers": [3, 4.5], "target": 7}), ("<answer>3+4</answer>", {"numbers": [3, 4]}),
             ("<answer>11 + 7</answer>", {"numbers": [3, 5, 7, 11], "target": 18})]  # right, leaves 3 and 5
    configs = [RewardConfig(process_weight=0.0), RewardConfig(process_weight=0.0, countdown_all_numbers=False),
               RewardConfig(process_weight=0.0, details=True, outcome_weight=0.7, format_weight=0.3)]
    fast = [reward("countdown", text, problem, config).to_dict() for text, problem in jobs for config in configs]
    monkeypatch.setattr(rscore, "countdown_answer_check", lambda *args: None)
    slow = [reward("countdown", text, problem, config).to_dict() for text, problem in jobs for config in configs]
    assert len(fast) >= 1200
    for n, (a, b) in enumerate(zip(fast, slow)):
        assert a == b, jobs[n // len(configs)]
    assert {d["outcome"] for d in fast} == {0.0, 1.0} and 0.0 in {d["format"] for d in fast}
    assert any("unused (countdown_all_numbers)" in d["reason"] for d in fast)
