"""Puzzle simulators (Hanoi, Checker Jumping, River Crossing), move-list extraction, replay."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit import audit_record
from core.record import record_from_json
from trace_parsers.registry import choose_format
from validators.puzzles import (
    CheckerJumping,
    Hanoi,
    RiverCrossing,
    extract_move_lists,
    parse_list_literal,
    simulate,
)
from validators.puzzles.base import IllegalMove
from validators.puzzles.checker_jumping import solution as checker_solution
from validators.puzzles.hanoi import optimal_moves


def candidates(puzzle, state) -> list[Any]:
    """A finite move universe for each puzzle, legal and illegal mixed (plus off-board values)."""
    if isinstance(puzzle, Hanoi):
        return [[d, s, t] for d in range(0, puzzle.disks + 2) for s in range(-1, 4) for t in range(-1, 4)]
    if isinstance(puzzle, CheckerJumping):
        size = 2 * puzzle.n + 1
        return [[c, s, t] for c in ("R", "B") for s in range(-1, size + 1) for t in range(-1, size + 1)]
    people = sorted(puzzle.people) + [f"a_{puzzle.pairs + 1}"]
    moves: list[Any] = [[]]
    for k in range(1, puzzle.boat_capacity + 2):
        moves += [list(g) for g in combinations(people, k)]
    return moves


def split(puzzle, state) -> tuple[list[tuple[Any, Any]], list[tuple[Any, str]]]:
    legal, illegal = [], []
    for move in candidates(puzzle, state):
        try:
            legal.append((move, puzzle.apply(state, move)))
        except IllegalMove as exc:
            illegal.append((move, exc.rule))
    return legal, illegal


puzzles = st.one_of(
    st.integers(1, 6).map(Hanoi),
    st.integers(1, 4).map(CheckerJumping),
    st.tuples(st.integers(1, 4), st.integers(1, 3)).map(lambda t: RiverCrossing(*t)),
)


def _legal_walk(puzzle, data, longest: int, label: str):
    """A random run of legal moves from the start (stops early at a dead end); (moves, state)."""
    state = puzzle.initial()
    moves = []
    for _ in range(data.draw(st.integers(0, longest), label=label)):
        legal, _ = split(puzzle, state)
        if not legal:
            break
        move, state = data.draw(st.sampled_from(legal), label="move")
        moves.append(move)
    return moves, state


@settings(max_examples=60, deadline=None)
@given(puzzles, st.data())
def test_random_legal_sequences_are_valid(puzzle, data):
    moves, state = _legal_walk(puzzle, data, 25, "length")
    result = simulate(puzzle, moves)
    assert result.first_illegal is None
    assert all(r.legal for r in result.results) and len(result.results) == len(moves)
    assert result.solved == puzzle.is_goal(state)


@settings(max_examples=60, deadline=None)
@given(puzzles, st.data())
def test_single_illegal_move_caught_at_its_index(puzzle, data):
    moves, state = _legal_walk(puzzle, data, 15, "prefix")
    _, illegal = split(puzzle, state)
    bad, rule = data.draw(st.sampled_from(illegal), label="illegal")
    index = len(moves)
    tail = [data.draw(st.sampled_from(candidates(puzzle, state)), label="tail") for _ in range(3)]
    result = simulate(puzzle, moves + [bad] + tail)
    assert result.first_illegal == index
    assert result.results[index].rule == rule
    assert not result.results[index].legal and result.results[index].message
    assert len(result.results) == index + 1


@pytest.mark.parametrize("disks", [1, 2, 3, 5, 8])
def test_hanoi_optimal_solves(disks):
    moves = optimal_moves(disks)
    assert len(moves) == 2 ** disks - 1
    assert simulate(Hanoi(disks), moves).solved


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_checker_solution_solves(n):
    moves = checker_solution(n)
    assert len(moves) == n * (n + 2)
    assert simulate(CheckerJumping(n), moves).solved


@pytest.mark.parametrize("pairs,cap,length", [(2, 2, 5), (3, 2, 11), (5, 3, 11), (4, 2, None), (6, 3, None)])
def test_river_solver_matches_known_results(pairs, cap, length):
    found = RiverCrossing(pairs, cap).solve()
    assert (None if found is None else len(found)) == length
    if found:
        assert simulate(RiverCrossing(pairs, cap), found).solved


@pytest.mark.parametrize("puzzle,moves,rule", [
    (Hanoi(3), [[1, 0, 2], [2, 0, 2]], "larger_on_smaller"),
    (Hanoi(3), [[2, 0, 1]], "not_top_disk"),
    (Hanoi(3), [[1, 1, 2]], "empty_peg"),
    (Hanoi(3), [[1, 0, 0]], "same_peg"),
    (Hanoi(3), [[1, 0, 3]], "peg_out_of_range"),
    (Hanoi(3), [[4, 0, 1]], "unknown_disk"),
    (Hanoi(3), [[1, 0]], "malformed_move"),
    (CheckerJumping(2), [["R", 1, 2], ["R", 0, 2]], "target_occupied"),
    (CheckerJumping(2), [["R", 1, 2], ["R", 2, 1]], "moves_backward"),
    (CheckerJumping(2), [["R", 0, 2]], "jump_over_own_colour"),
    (CheckerJumping(2), [["B", 1, 2]], "wrong_checker"),
    (CheckerJumping(2), [["B", 4, 3]], "target_occupied"),
    (CheckerJumping(2), [["B", 3, 2], ["B", 2, 3]], "moves_backward"),
    (CheckerJumping(3), [["R", 0, 3]], "too_far"),
    (RiverCrossing(2, 2), [["a_1", "A_2"]], "unsafe_boat"),
    (RiverCrossing(2, 2), [["A_1"]], "unsafe_bank"),
    (RiverCrossing(2, 2), [["A_1", "a_1", "A_2"]], "boat_over_capacity"),
    (RiverCrossing(2, 2), [[]], "empty_boat"),
    (RiverCrossing(2, 2), [["A_1", "a_1"], ["A_2"]], "not_on_boat_side"),
    (RiverCrossing(2, 2), [["a_3"]], "unknown_person"),
])
def test_named_rules(puzzle, moves, rule):
    result = simulate(puzzle, moves)
    assert result.first_illegal == len(moves) - 1
    assert result.results[-1].rule == rule


# ------------------------------------------------------------------ extraction

@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(1, 9), st.integers(0, 2), st.integers(0, 2)).map(list),
                         min_size=1, max_size=6), min_size=1, max_size=4),
       st.sampled_from(["moves = ", "moves: ", "Try: ", ""]), st.sampled_from([", ", ",", " , "]))
def test_bracketed_lists_round_trip(lists, prefix, sep):
    text, expected = "Thinking (not [a list]) ...\n", []
    for lst in lists:
        body = "[" + sep.join("[" + sep.join(map(str, m)) + "]" for m in lst) + "]"
        text += f"So {prefix}{body} seems right.\n"
        expected.append(lst)
    found = extract_move_lists(text, "hanoi")
    assert [f.moves for f in found] == expected
    for f in found:
        assert text[f.start] == "[" and text[f.end - 1] == "]"
        assert [json.loads(text[s:e].replace(" ", "")) for s, e in f.move_spans] == f.moves


def test_prose_runs_and_river_names():
    text = ("First move disk 1 from peg 0 to peg 2, then Move disk 2 from peg 0 to peg 1.\n\n"
            "New idea: move disk 1 from A to C.")
    found = extract_move_lists(text, "hanoi")
    assert [f.moves for f in found] == [[[1, 0, 2], [2, 0, 1]], [[1, 0, 2]]]
    assert all(f.source == "prose" for f in found)
    river = 'moves =[[" A_2 ", " a_2 "] , [" A_2 "] , [" A_1 " , " A_2 "] , [" A_1 "] , [" A_1 " , " a_1"]]'
    (lst,) = extract_move_lists(river, "river_crossing")
    assert lst.moves[0] == ["A_2", "a_2"]
    assert simulate(RiverCrossing(2, 2), lst.moves).solved
    checker = "Let me slide the red checker from position 1 to 2, then jump B from 3 to 1."
    (c,) = extract_move_lists(checker, "checker_jumping")
    assert c.moves == [["R", 1, 2], ["B", 3, 1]]


@pytest.mark.parametrize("bad", ["[[1, 2], [3", "[1 2]", "[,1]", "[[1]]]"[:3]])
def test_list_literal_rejects_malformed(bad):
    with pytest.raises(ValueError):
        parse_list_literal(bad)


# ------------------------------------------------------------------ end to end

def _audit(domain, problem, trace, answer):
    return audit_record(record_from_json({"domain": domain, "problem": problem, "trace": trace, "answer": answer}))


def test_hanoi_trace_lists_placed_and_replayed():
    good = optimal_moves(3)
    bad = [[1, 0, 2], [2, 0, 2]]
    trace = (f"Let me think.\n\nmoves = {json.dumps(bad)}\nNo, that puts 2 on 1.\n\n"
             f"moves = {json.dumps(good)}\nThat works.")
    res = _audit("hanoi", {"disks": 3}, trace, f"moves = {json.dumps(good)}")
    v = res.verdict.to_json()
    assert v["format"] == "move_lists"
    assert v["answer_correct"] is True and v["trace_valid"] is False
    first = v["invalid_steps"][0]
    assert first["rule"] == "larger_on_smaller"
    assert trace[first["span"][0]:first["span"][1]] == "[2, 0, 2]"
    lists = res.replay.notes["move_lists"]
    assert [x["first_illegal"] for x in lists] == [1, None] and [x["solved"] for x in lists] == [False, True]
    assert 0 < lists[0]["position"] < lists[1]["position"] < 1


def test_answer_verdicts():
    v = _audit("hanoi", {"disks": 2}, "", json.dumps([[1, 0, 1], [2, 0, 2], [1, 0, 2]])).verdict.to_json()
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "illegal_move" and v["answer_error"]["step"] == 3
    v = _audit("checker_jumping", {"n": 1}, "", "moves = [['R', 0, 1]]").verdict.to_json()
    assert v["answer_error"]["kind"] == "unmet_goal"
    v = _audit("checker_jumping", {"n": 2}, "", json.dumps(checker_solution(2))).verdict.to_json()
    assert v["answer_correct"] is True and v["trace_valid"] is None
    v = _audit("river_crossing", {"pairs": 6, "boat_capacity": 3}, "", "There is no solution.").verdict.to_json()
    assert v["answer_correct"] is True
    v = _audit("river_crossing", {"pairs": 4, "boat_capacity": 2}, "", 'moves = [["A_1", "a_1"]]').verdict.to_json()
    assert v["answer_correct"] is False and "plan_for_unsolvable" in {g["kind"] for g in v["gaps"]}
    v = _audit("hanoi", {"disks": 0}, "", "[]").verdict.to_json()
    assert v["answer_correct"] is None and v["answer_error"]["kind"] == "undecided"


def test_move_list_format_only_claims_puzzles():
    def rec(domain, trace):
        return record_from_json({"domain": domain, "trace": trace})
    assert choose_format(rec("hanoi", "moves = [[1, 0, 2]]")).name == "move_lists"
    assert choose_format(rec("countdown", "moves = [[1, 0, 2]]")).name != "move_lists"
    assert choose_format(rec("hanoi", "I will think about pegs.")).name != "move_lists"


def test_an_explicit_moves_list_wins_over_later_prose():
    """The answer's `moves = [...]` is the answer; a walkthrough or check after it only explains it."""
    answer = ("moves = [[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 0, 2], [1, 1, 0], [2, 1, 2], [1, 0, 2]]\n\n"
              "Check: first move disk 1 from peg 0 to peg 2, then move disk 2 from peg 0 to peg 1.")
    v = audit_record(record_from_json({"domain": "hanoi", "problem": {"disks": 3}, "trace": "",
                                       "answer": answer})).verdict
    assert v.answer_correct is True
    code = "```python\nmoves = []\n```\n" + answer.split("\n\n")[0].replace("moves = ", "")
    assert audit_record(record_from_json({"domain": "hanoi", "problem": {"disks": 3}, "trace": "",
                                          "answer": code})).verdict.answer_correct is True


@pytest.mark.parametrize("after", [
    "`[1, 0, 2]` means move disk 1 from peg 0 to peg 2.",
    "```python\ndef hanoi(n, source, target, aux):\n    if n == 1:\n        return [[n, source, target]]\n```",
])
def test_a_moves_list_keeps_its_trailing_comma_and_wins_over_an_explanation_or_code(after):
    """Issue 34, defect 6: a trailing comma does not reject the list, and a line explaining one move
    ('`[1, 0, 2]` means ...') or Python after it (`[[n, source, target]]`) is no other answer;
    a wrong list is still wrong with them."""
    full = "[[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 0, 2], [1, 1, 0], [2, 1, 2], [1, 0, 2]]"

    def right(answer: str) -> bool | None:
        return audit_record(record_from_json({"domain": "hanoi", "problem": {"disks": 3}, "trace": "",
                                              "answer": answer})).verdict.answer_correct

    assert right("moves = " + full[:-1] + ",]") is True
    assert right(f"moves = {full}\n\n{after}") is True
    assert right(f"moves = {full.replace('[1, 0, 2]]', '[1, 0, 1]]')}\n\n{after}") is False


def test_prose_fragments_continue_their_line_of_reasoning():
    """A walkthrough cut into one-move fragments by state lines is one line from the initial state,
    not three lists each from the start ("disk 2 is not on top of peg 0"); a real error is still found."""
    walk = ("Step 1: Move disk 1 from peg 0 to peg 1.\nState: [[2], [1], []]\n\n"
            "Step 2: Move disk 2 from peg 0 to peg 2.\nState: [[], [1], [2]]\n\n"
            "Step 3: Move disk 1 from peg 1 to peg 2.\nDone.")
    v = _audit("hanoi", {"disks": 2}, walk, "moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]").verdict.to_json()
    assert v["format"] == "move_lists" and v["trace_valid"] is True and v["invalid_steps"] == []
    wrong = walk.replace("Step 3: Move disk 1 from peg 1 to peg 2", "Step 3: Move disk 2 from peg 2 to peg 1")
    v = _audit("hanoi", {"disks": 2}, wrong, "moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]").verdict.to_json()
    assert [s["rule"] for s in v["invalid_steps"]] == ["larger_on_smaller"]
    # "Step 1" again, or a restart, begins a new line from the initial state.
    again = walk + "\n\nLet me verify each step.\n\nMove disk 1 from peg 0 to peg 1.\n\nStep 1: Move disk 1 from peg 0 to peg 1."
    assert _audit("hanoi", {"disks": 2}, again, "").verdict.to_json()["invalid_steps"] == []


def test_a_sketch_or_an_elision_is_not_replayed():
    """'1. Move disks 1-2 ...' names no move: the line it starts is not known, so '2. Move disk 3'
    is not judged; nor is move 7 written after '...'."""
    sketch = ("1. Move disks 1-2 from peg 0 to peg 1\n\n2. Move disk 3 from peg 0 to peg 2\n\n"
              "3. Move disks 1-2 from peg 1 to peg 2")
    assert _audit("hanoi", {"disks": 3}, sketch, "").verdict.to_json()["invalid_steps"] == []
    elided = "1. Move disk 1 from peg 0 to peg 2\n...\n\n7. Move disk 1 from peg 0 to peg 2"
    assert _audit("hanoi", {"disks": 3}, elided, "").verdict.to_json()["invalid_steps"] == []


def _hanoi_answer(disks: int, answer: str) -> dict:
    return audit_record(record_from_json({"domain": "hanoi", "problem": {"disks": disks}, "trace": "",
                                          "answer": answer})).verdict.to_json()


def test_csv_move_tables_are_read():
    """`disk_id,from_peg,to_peg` tables (one replication's prompt asks for them) are the answer's
    move list; a table cut off in a row keeps its complete rows and says so."""
    rows = "\n".join(",".join(map(str, m)) for m in optimal_moves(3))
    v = _hanoi_answer(3, f"```\ndisk_id,from_peg,to_peg\n{rows}\n```")
    assert v["answer_correct"] is True
    v = _hanoi_answer(3, "```\ndisk_id,from_peg,to_peg\n1,0,2\n2,0,1\n1,2,0\n3,0,2\n```")
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "illegal_move"
    assert v["answer_error"]["step"] == 4 and v["answer_error"]["rule"] == "not_top_disk"
    (cut,) = extract_move_lists("disk_id,from_peg,to_peg\n1,0,2\n2,0,1\n1,2", "hanoi")
    assert cut.moves == [[1, 0, 2], [2, 0, 1]] and cut.source == "csv" and "cut off" in cut.notes[0]
    v = _hanoi_answer(3, "disk_id,from_peg,to_peg\n1,0,2\n2,0,1\n1,2")
    assert v["answer_error"]["kind"] == "unmet_goal" and "after 2 legal moves" in v["answer_error"]["message"]


def test_state_tracking_tables_move_the_top_disk_and_claim_the_pegs():
    """`move_id,from_peg,to_peg,peg0,peg1,peg2`: the move is the top disk of the source peg, and the
    pegs the row claims must be the pegs the move leads to (a false one is a wrong answer)."""
    def table(claims: list[str]) -> str:
        moves = optimal_moves(2)
        return "move_id,from_peg,to_peg,peg0,peg1,peg2\n" + "\n".join(
            f"{k + 1},{m[1]},{m[2]},{c}" for k, (m, c) in enumerate(zip(moves, claims)))
    assert _hanoi_answer(2, table(["2,1,", ",1,2", ",,2 1"]))["answer_correct"] is True
    v = _hanoi_answer(2, table(["2,1,", ",,2", ",,2 1"]))
    assert v["answer_correct"] is False and v["answer_error"]["kind"] == "false_state"
    assert v["answer_error"]["step"] == 2 and "[[], [1], [2]]" in v["answer_error"]["message"]
    v = _hanoi_answer(2, "move_id,from_peg,to_peg,peg0,peg1,peg2\n1,0,1,2,1,\n2,0,2,,,2\n3,0,2,,,2 1")
    assert v["answer_error"]["kind"] == "false_state" and v["answer_error"]["step"] == 2, \
        "a false claimed state before an illegal move is the answer's first error"
    v = _hanoi_answer(2, "move_id,from_peg,to_peg,peg0,peg1,peg2\n1,1,2,2 1,,")
    assert v["answer_error"]["kind"] == "illegal_move" and "peg 1 is empty" in v["answer_error"]["message"]


def test_a_list_cut_off_by_the_output_limit_is_its_legal_prefix():
    """A `moves = [...]` the text ends inside is "N legal moves, then it stops", not unreadable."""
    v = _hanoi_answer(3, "moves = [[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 0")
    assert v["answer_error"]["kind"] == "unmet_goal"
    assert "after 3 legal moves" in v["answer_error"]["message"] and "cut short" in v["answer_error"]["message"]
    v = _hanoi_answer(3, "moves = [[1, 0, 2], [2, 0, 1], [1, 0, 1], [3,")
    assert v["answer_error"]["kind"] == "illegal_move" and v["answer_error"]["step"] == 3
    assert extract_move_lists("moves = [[1, 0, 2], [2, 0 then some prose, not a cut", "hanoi") == []


def test_an_answer_list_that_stops_at_an_ellipsis_is_the_moves_written_out():
    """"moves=[[1,0,1],[2,0,2],...,[8,0,2],...]" (a real 14-disk answer): the moves before the
    first ellipsis are replayed, not the trace's last list; in thinking such a list is a sketch of
    the format and is not read."""
    v = _hanoi_answer(3, "moves = [[1, 0, 2], [2, 0, 1], [1, 2, 1], ...]\n\n(The list continues.)")
    assert v["answer_error"]["kind"] == "unmet_goal" and "after 3 legal moves" in v["answer_error"]["message"]
    assert "ellipsis" in v["answer_error"]["message"]
    v = _hanoi_answer(3, "moves = [[1, 0, 2], [2, 0, 1], [1, 0, 1], …, [3, 0, 2]]")
    assert v["answer_error"]["kind"] == "illegal_move" and v["answer_error"]["step"] == 3
    assert extract_move_lists("moves = [[1, 0, 2], ...]", "hanoi") == []
    # a comment that says the pattern goes on is an ellipsis too; a list cut after "[2, " is cut off
    v = _hanoi_answer(3, "```python\nmoves = [\n    [1, 0, 2], [2, 0, 1],\n    # ... (continuing the pattern)\n    [1, 0, 2]\n]\n```")
    assert "after 2 legal moves" in v["answer_error"]["message"] and "ellipsis" in v["answer_error"]["message"]
    v = _hanoi_answer(3, "moves = [[1, 0, 2], [2, 0, 1], \n         [1, 2, 1], [2, ")
    assert "after 3 legal moves" in v["answer_error"]["message"] and "ends inside" in v["answer_error"]["message"]


def test_a_fragment_that_fits_neither_its_line_nor_the_start_is_not_judged():
    """A recursive outline's middle move ("move the top 2 disks to peg 1, then move disk 3 from peg 0
    to peg 2") is no move made where the line is; a restatement of the first move after a full
    list restarts; a real error inside a fragment is still found."""
    sketch = ("Move the top 2 disks from peg 0 to peg 1 using peg 2.\n\n"
              "Then move disk 3 from peg 0 to peg 2, and the 2 disks from peg 1 to peg 2.")
    v = _audit("hanoi", {"disks": 3}, sketch, "").verdict.to_json()
    assert v["invalid_steps"] == [] and v["trace_valid"] is not False
    full = "moves = [[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 0, 2], [1, 1, 0], [2, 1, 2], [1, 0, 2]]"
    restated = full + "\n\nThis means: move disk 1 from peg 0 to peg 2, then move disk 2 from peg 0 to peg 1."
    assert _audit("hanoi", {"disks": 3}, restated, full).verdict.to_json()["invalid_steps"] == []
    wrong = full + "\n\nThis means: move disk 1 from peg 0 to peg 2, then move disk 1 from peg 0 to peg 1."
    got = _audit("hanoi", {"disks": 3}, wrong, full).verdict.to_json()["invalid_steps"]
    assert [s["rule"] for s in got] == ["not_top_disk"]


def test_an_outline_number_is_no_step_back():
    """'2. Move disk 3' after an outline item 1 whose sub-steps held three moves numbers the
    outline's parts, not the line's moves: no step back to after move 1 (a false 'disk 3 is not
    on top'); a numbered step back on a line whose moves carried those numbers still happens."""
    outline = ("1. Move 2 disks from peg 0 to peg 1:\n"
               "   a. Move disk 1 from peg 0 to peg 2. Moves: [[1, 0, 2]]\n"
               "   b. Move disk 2 from peg 0 to peg 1. Moves: [[1, 0, 2], [2, 0, 1]]\n"
               "   c. Move disk 1 from peg 2 to peg 1. Moves: [[1, 0, 2], [2, 0, 1], [1, 2, 1]]\n"
               "2. Move disk 3 from peg 0 to peg 2. Moves: [[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 0, 2]]\n")
    assert _audit("hanoi", {"disks": 3}, outline, "").verdict.to_json()["invalid_steps"] == []
    back = ("1. Move disk 1 from peg 0 to peg 2.\n2. Move disk 2 from peg 0 to peg 2.\n"
            "Wait, that is wrong.\n2. Move disk 2 from peg 0 to peg 1.\n3. Move disk 1 from peg 2 to peg 1.")
    v = _audit("hanoi", {"disks": 2}, back, "").verdict.to_json()
    assert [s["rule"] for s in v["invalid_steps"]] == ["larger_on_smaller"]
