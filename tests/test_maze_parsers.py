"""A* trace parsers: dialect detection, spans, syntax errors, problem forms, step graph."""

from __future__ import annotations

from audit import audit_record
from core.record import record_from_json
from tests.conftest import load_dev
from trace_parsers import choose_format, parse_record
from trace_parsers.astar_common import parse_plan_answer, parse_prompt_text

# Verbatim output of the Beyond-Semantics generator (reference-semantics.md 2.1, 5x5 wilson seed 7).
BS_5X5 = ("query start 0 2 goal 2 1 wall 0 1 wall 1 1 wall 3 1 wall 3 2 wall 1 3 wall 2 3 wall 3 3 wall 4 3 "
          "reasoning close 0 2 c0 c3 create 1 2 c1 c2 create 0 3 c1 c4 close 1 2 c1 c2 create 2 2 c2 c1 "
          "close 2 2 c2 c1 create 2 1 c3 c0 close 2 1 c3 c0 solution plan 0 2 plan 1 2 plan 2 2 plan 2 1 end")
# SearchFormer fixture test/trace_maze_short.json tokenised (reference-semantics.md 1.2 (a)).
SF_SHORT = ("bos create 0 0 c0 c2 close 0 0 c0 c2 create 1 0 c1 c3 close 1 0 c1 c3 create 1 1 c2 c2 "
            "create 2 0 c2 c4 close 1 1 c2 c2 create 1 2 c3 c1 create 2 1 c3 c3 close 1 2 c3 c1 "
            "create 0 2 c4 c0 create 2 2 c4 c2 close 0 2 c4 c0 plan 0 0 plan 1 0 plan 1 1 plan 1 2 plan 0 2 eos")


def rec(**kw):
    return record_from_json({"domain": "maze", **kw})


def test_dialect_detection_without_hint() -> None:
    assert choose_format(rec(trace=BS_5X5)).name == "beyond_semantics"
    assert choose_format(rec(trace=SF_SHORT, problem={"prompt": "start 0 0 goal 0 2 wall 0 1"})).name == "searchformer"
    bare_bs = BS_5X5.split("reasoning ")[1].split(" solution")[0]
    assert choose_format(rec(trace=bare_bs)).name == "beyond_semantics"
    bare_sf = SF_SHORT[4:].split(" plan")[0]
    assert choose_format(rec(trace=bare_sf)).name == "searchformer"
    assert choose_format(rec(trace="I think the path goes left.")).name == "plain_text"


def test_bs_whole_sequence_is_split_with_exact_spans() -> None:
    r = rec(trace=BS_5X5)
    parsed = parse_record(r)
    kinds = [s.kind for s in parsed.graph]
    assert kinds[0] == "prompt" and kinds.count("plan") == 4 and kinds.count("close") == 4
    for step in parsed.graph:
        assert r.trace[step.span[0]:step.span[1]] == step.text
    assert parsed.extras["prompt"]["start"] == [0, 2] and len(parsed.extras["prompt"]["walls"]) == 8
    v = audit_record(r).verdict.to_json()
    assert (v["answer_correct"], v["trace_valid"]) == (True, True)


def test_second_bs_example_with_fifo_ties_is_valid() -> None:
    text = ("query start 0 1 goal 4 3 wall 0 0 wall 1 0 wall 0 2 wall 2 2 wall 3 2 wall 1 3 wall 3 3 wall 0 4 "
            "wall 4 4 reasoning close 0 1 c0 c6 create 1 1 c1 c5 close 1 1 c1 c5 create 2 1 c2 c4 create 1 2 c2 c4 "
            "close 2 1 c2 c4 create 2 0 c3 c5 create 3 1 c3 c3 close 1 2 c2 c4 close 3 1 c3 c3 create 3 0 c4 c4 "
            "create 4 1 c4 c2 close 4 1 c4 c2 create 4 0 c5 c3 create 4 2 c5 c1 close 4 2 c5 c1 create 4 3 c6 c0 "
            "close 4 3 c6 c0 solution plan 0 1 plan 1 1 plan 2 1 plan 3 1 plan 4 1 plan 4 2 plan 4 3 end")
    v = audit_record(rec(trace=text)).verdict.to_json()
    assert (v["answer_correct"], v["trace_valid"]) == (True, True), v["invalid_steps"][:2]


def test_searchformer_tokens_with_prompt_in_problem() -> None:
    r = rec(trace=SF_SHORT, problem={"prompt": "start 0 0 goal 0 2 wall 0 1"}, format="searchformer")
    result = audit_record(r)
    v = result.verdict.to_json()
    assert (v["answer_correct"], v["trace_valid"]) == (True, True), v["invalid_steps"]
    assert result.replay.notes["grid"] == "3x3"


def test_syntax_error_is_a_step_and_replay_continues() -> None:
    broken = BS_5X5.replace("create 2 2 c2 c1", "create 2 2 c2 close-ish")
    r = rec(trace=broken)
    parsed = parse_record(r)
    bad = [s for s in parsed.graph if s.kind == "unparsed"]
    assert len(bad) == 1 and bad[0].text == "create 2 2 c2 close-ish"
    assert parsed.errors and "create X Y cG cH" in parsed.errors[0].message
    v = audit_record(r).verdict.to_json()
    assert v["trace_valid"] is False
    assert v["invalid_steps"][0]["rule"] == "syntax_error" and v["first_invalid_step"] == bad[0].index
    later = [s for s in v["invalid_steps"] if s["step"] > bad[0].index]
    assert later and all(s["consequence_of"] is not None for s in later)
    assert parse_record(rec(trace="create 1 2 c3")).graph[0].kind == "unparsed"


def test_keyword_inside_a_broken_step_starts_a_new_step() -> None:
    parsed = parse_record(rec(trace="close 0 2 c0 c3 create 1 2 c1 close 1 2 c1 c2", format="beyond_semantics"))
    assert [s.kind for s in parsed.graph] == ["close", "unparsed", "close"]


def test_prompt_forms() -> None:
    p, err = parse_prompt_text("3x3, start (0,0), goal (0,2), walls (0,1),(1,1)")
    assert err is None and p.width == 3 and p.walls == [(0, 1), (1, 1)]
    p, err = parse_prompt_text("start 1 3 goal 9 4 wall 0 0 wall 3 0")
    assert err is None and p.start == (1, 3) and p.goal == (9, 4)
    p, err = parse_prompt_text("find a path please")
    assert p is None and err
    assert parse_plan_answer("plan 0 0 plan 1 0", None) == ([(0, 0), (1, 0)], None)
    assert parse_plan_answer("", [{"x": 0, "y": 0}, {"x": 1, "y": 0}]) == ([(0, 0), (1, 0)], None)
    assert parse_plan_answer("(0, 0) -> (1, 0)", None) == ([(0, 0), (1, 0)], None)
    assert parse_plan_answer("", None)[0] is None


def test_structured_problem_and_missing_problem() -> None:
    body = BS_5X5.split("reasoning ")[1]
    structured = {"width": 5, "height": 5, "start": [0, 2], "goal": [2, 1],
                  "walls": [[0, 1], [1, 1], [3, 1], [3, 2], [1, 3], [2, 3], [3, 3], [4, 3]]}
    v = audit_record(rec(trace="reasoning " + body, problem=structured)).verdict.to_json()
    assert (v["answer_correct"], v["trace_valid"]) == (True, True)
    none = audit_record(rec(trace="reasoning " + body)).verdict.to_json()
    assert none["answer_correct"] is None and none["answer_error"]["kind"] == "undecided"


def test_json_list_form_spans_are_lines() -> None:
    row = next(r for r in load_dev("searchformer_reference.jsonl") if r["domain"] == "maze")
    r = record_from_json(row)
    parsed = parse_record(r)
    lines = r.trace.split("\n")
    assert len(parsed.graph) == len(lines)
    for step, line in zip(parsed.graph, lines):
        assert r.trace[step.span[0]:step.span[1]] == line


def test_step_graph_is_the_search_tree() -> None:
    parsed = parse_record(rec(trace=BS_5X5))
    g = parsed.graph
    edges = {(u, v): k for u, v, k in g.edges()}
    close0 = next(s for s in g if s.kind == "close")
    creates = [s for s in g if s.kind == "create" and s.parent == close0.index]
    assert creates and all(edges[(close0.index, s.index)] == "child" for s in creates)
    closes = [s.index for s in g if s.kind == "close"]
    assert all(g[b].parent == a and edges[(a, b)] == "next" for a, b in zip(closes, closes[1:]))
    on_plan = {(s.payload["x"], s.payload["y"]) for s in g if s.payload.get("in_plan")}
    assert on_plan == {(0, 2), (1, 2), (2, 2), (2, 1)}
    states = audit_record(rec(trace=BS_5X5)).replay.states
    assert any(st.get("on_plan_path") for st in states.values())


def test_garbage_never_raises() -> None:
    for text in ["", "query", "reasoning solution end", "close x y cA cB", "plan", "create 1 1 c1 c1 " * 3,
                 "query start 0 0 goal 99 99 reasoning close 0 0 c0 c198 solution end", "\x00\x01 create"]:
        v = audit_record(rec(trace=text, format="beyond_semantics")).verdict.to_json()
        assert v["id"]


def test_lark_grammar_agrees_with_regex_reader() -> None:
    import random

    from trace_parsers.astar_common import scan_tokens
    from trace_parsers._astar_lark import lark_steps
    from validators.astar.reference import DIALECTS, beyond_semantics_text, random_maze, run_astar, searchformer_text

    for seed in range(4):
        problem = random_maze(random.Random(seed), 12, 12)
        for dialect in DIALECTS:
            run = run_astar(problem, dialect, random.Random(seed))
            text = beyond_semantics_text(problem, run) if dialect == "beyond_semantics" else searchformer_text(run)
            scan = scan_tokens(text)
            mine = [(s.kind, s.span[0], s.span[1], s.payload["x"], s.payload["y"], s.payload.get("g"), s.payload.get("h"))
                    for s in scan.steps if s.kind in ("create", "close", "plan")]
            theirs = [t for t in lark_steps(text) if t[0] in ("create", "close", "plan")]
            assert mine == theirs
            if dialect == "beyond_semantics":
                walls = [(t[3], t[4]) for t in lark_steps(text) if t[0] == "wall"]
                assert walls == scan.prompt.walls


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_VOCAB = ["create", "close", "plan", "bos", "eos", "query", "reasoning", "solution", "end", "start", "goal",
          "wall", "0", "1", "2", "3", "4", "-1", "9", "c0", "c1", "c2", "c3", "c7", "cx", "x", "worker", "box"]


@settings(max_examples=60, deadline=None)
@given(tokens=st.lists(st.sampled_from(_VOCAB), max_size=60), fmt=st.sampled_from(["beyond_semantics", "searchformer"]),
       domain=st.sampled_from(["maze", "sokoban"]))
def test_token_soup_never_crashes_the_validator(tokens: list[str], fmt: str, domain: str) -> None:
    text = " ".join(tokens)
    problem = {"prompt": "start 0 0 goal 3 3 wall 1 1"} if domain == "maze" else {"prompt": "sokoban ['#####','#@$.#','#####']"}
    result = audit_record(record_from_json({"domain": domain, "format": fmt, "trace": text, "problem": problem}))
    assert result.parsed.format == fmt  # the parser did not crash into the plain-text fallback
    err = result.verdict.answer_error
    assert not (err and "failed" in err.message), err.message
    for step in result.parsed.graph:
        assert text[step.span[0]:step.span[1]] == step.text
