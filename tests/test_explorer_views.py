"""The explorer's newer views from real audits: the thinking map, Sokoban and Hanoi pictures
(pure helpers), and the page showing them (AppTest)."""

from __future__ import annotations

import json
import random

from audit import audit_record
from core.record import record_from_json
from tests.conftest import load_dev
from tests.test_pages import app  # noqa: F401 - fixture

from app_pages._pictures import hanoi_figure, hanoi_pegs, sokoban_figure
from validators.astar.sokoban_frames import sokoban_frame
from validators.registry import get_domain
from app_pages._thinking_map import ABANDONED, REJECTED, SETTLED, TAKEN_BACK, around, build_map, map_figure


def _audited(rec: dict):
    res = audit_record(record_from_json(rec))
    outline = [(s.index, s.parent, s.kind, res.step_verdicts[s.index].status if s.index in res.step_verdicts
                else None, None, s.text[:40]) for s in res.parsed.graph.steps]
    return res, outline


def test_the_map_of_an_r1_trace_follows_its_candidates_to_the_answer():
    rec = load_dev("planbench_r1_thinking.jsonl")[0]
    res, outline = _audited(rec)
    thinking = res.replay.notes["thinking"]
    tmap = build_map(thinking, outline, res.replay.states, res.verdict.answer_correct)
    assert tmap is not None and tmap.answer == "correct"
    assert tmap.settled is not None and tmap.settled.steps == thinking["conclusion"]["steps"]
    assert tmap.settled.outcome == SETTLED and tmap.settled.solves is True
    outcomes = {lane.outcome for lane in tmap.lanes}
    assert {SETTLED, REJECTED, ABANDONED} <= outcomes
    for lane in tmap.lanes:
        if lane.outcome == REJECTED:  # ends at the backtrack step that turned away from it
            assert outline[lane.end][2] == "backtrack" and lane.end > lane.steps[-1]
    firsts = [lane.first for lane in tmap.lanes]
    assert firsts == sorted(firsts)
    marks = map_figure(tmap, 10).data[-2]  # the clickable marks (the last trace is the settled -> answer link)
    opened = {int(c[0]) for c in marks.customdata}
    assert set(firsts) <= opened and len(outline) - 1 in opened  # every lane's first step; the answer
    shown = around(tmap, 10, cap=3).lanes
    assert 3 <= len(shown) <= 4 and tmap.settled in shown  # the 3 nearest, and always the settled one


def test_a_conclusion_taken_back_has_its_own_mark():
    """A plan the trace concluded and then doubted without reaffirming it ends unsettled: its lane
    says so (open star), and the answer row says which plan was taken back."""
    trace = ("Okay, blue is on red and I need red on blue.\n\nSo the plan is:\n\n1. Unstack blue from red.\n"
             "2. Put down blue.\n3. Pick up red.\n4. Stack red on blue.\n\nBut step 3 needs the hand empty, "
             "which it is not.")
    from tests.test_thinking_claims import BW_PROBLEM, VALID_ANSWER
    from tests.test_planning import BW_DOMAIN
    res, outline = _audited({"domain": "blocksworld", "format": "think", "trace": trace, "answer": VALID_ANSWER,
                             "problem": {"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}})
    thinking = res.replay.notes["thinking"]
    tmap = build_map(thinking, outline, res.replay.states, res.verdict.answer_correct)
    (lane,) = [lane for lane in tmap.lanes if lane.kind == "candidate"]
    assert lane.outcome == TAKEN_BACK and tmap.settled is None
    assert "took it back" in tmap.answer_detail and "(stack a b)" in tmap.answer_detail
    hovers = [h for t in map_figure(tmap, 2).data for h in (t.hovertext or ())]
    assert any("then taken back" in h for h in hovers)


def test_no_map_without_candidates_or_lines():
    assert build_map({}, [(0, None, "reason", None, None, "x")], {}, None) is None


def _sokoban(seed: int) -> dict:
    from validators.astar.sokoban_core import astar, json_record, random_level, token_record

    rng = random.Random(seed)
    while True:
        level, start = random_level(rng)
        run = astar(level, start, random.Random(seed), limit=5000)
        if run is not None and len(run.plan) > 3:
            return {"token": token_record(level, start, run), "json": json_record(level, start, run)}


def _events(res) -> list[tuple]:
    return [(s.index, s.kind, json.dumps(s.payload), res.step_verdicts[s.index].status
             if s.index in res.step_verdicts else None) for s in res.parsed.graph.steps]


def test_sokoban_frames_follow_the_search_and_the_plan_in_both_forms():
    from validators.astar.sokoban_core import is_goal, parse_state_string

    recs = _sokoban(3)
    finals = []
    for form in ("token", "json"):
        res = audit_record(record_from_json(recs[form]))
        layout = res.replay.notes["layout"]
        events = _events(res)
        closes = [e for e in events if e[1] == "close"]
        create = next(e for e in events if e[1] == "create" and e[0] > closes[1][0])
        frame = get_domain("sokoban").step_state(res.replay.notes, events, create[0])  # the domain's hook
        expanded = sokoban_frame(layout, events, max(c[0] for c in closes if c[0] < create[0]))
        assert frame.step == create[0] and frame.came_from == expanded.state.worker
        assert abs(frame.state.worker[0] - frame.came_from[0]) + abs(frame.state.worker[1] - frame.came_from[1]) == 1
        last = sokoban_frame(layout, events, len(events) - 1)
        level = parse_state_string(recs["json"]["trace"][0]["state"])[0]
        assert last.kind == "plan" and is_goal(level, last.state)  # the plan's last state solves the level
        finals.append(last.state)
        fig = sokoban_figure(frame)
        assert list(fig.data[2].x) == [frame.state.worker[0]] and fig.layout.annotations
    assert finals[0] == finals[1]


def test_an_invalid_sokoban_step_is_framed_red():
    rec = _sokoban(4)["json"]
    items = list(rec["trace"])
    k = next(i for i, it in enumerate(items) if it["action"] == "create" and i > 2)
    items[k] = dict(items[k], heuristic=items[k]["heuristic"] + 5)
    res = audit_record(record_from_json(dict(rec, trace=items)))
    frame = sokoban_frame(res.replay.notes["layout"], _events(res), k)
    assert frame.status == "invalid"
    fig = sokoban_figure(frame, "wrong_h")
    assert "invalid (wrong_h)" in fig.layout.title.text and fig.layout.shapes[0].line.color == "#d62728"


def test_hanoi_pegs_come_from_the_simulator_snapshots():
    rec = {"domain": "hanoi", "problem": {"disks": 3}, "format": "move_lists",
           "trace": "moves = [[1, 0, 2], [2, 0, 1], [1, 2, 1], [3, 1, 2]]", "answer": "[[1, 0, 2]]"}
    res = audit_record(record_from_json(rec))
    states = {i: hanoi_pegs(s) for i, s in res.replay.states.items()}
    shown = [p for p in states.values() if p is not None]
    assert [[3], [2, 1], []] in shown  # after the third move
    illegal = [i for i, v in res.step_verdicts.items() if v.status == "invalid"]
    assert illegal and states[illegal[0]] == [[3], [2, 1], []]  # the state disk 3 could not leave
    fig = hanoi_figure([[3], [2, 1], []], "x", invalid=True)
    assert len([s for s in fig.layout.shapes if s.type == "rect"]) == 3 and fig.layout.title.font.color == "#d62728"
    assert hanoi_pegs({"final": [[], [], [1]]}) == [[], [], [1]] and hanoi_pegs([[1, "a"], [], []]) is None


def test_hanoi_pegs_of_a_thinking_trace_come_from_its_move_lists():
    """R1-style thinking that writes move lists gets the same pictures: each step holding moves
    keeps the pegs after its last move, the illegal one the pegs it was tried on."""
    trace = ("Let me think about this.\n\nFirst try: moves = [[1, 0, 2], [2, 0, 2]]\n\n"
             "Hmm, no. Better: moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]. Yes, that works.")
    rec = {"domain": "hanoi", "format": "think", "problem": {"disks": 2}, "trace": trace,
           "answer": "moves = [[1, 0, 1], [2, 0, 2], [1, 1, 2]]"}
    res = audit_record(record_from_json(rec))
    pegs = {i: hanoi_pegs(s) for i, s in res.replay.states.items()}
    (bad,) = [i for i, v in res.step_verdicts.items() if v.status == "invalid"]
    assert pegs[bad] == [[2], [], [1]]  # disk 2 could not go onto disk 1
    assert [[], [], [2, 1]] in pegs.values()  # the list that solves it


def test_explorer_shows_the_map_and_the_sokoban_picture(app):  # noqa: F811
    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from db.queries import recent_traces
    from pipeline import audit_units
    import io

    r1 = dict(load_dev("planbench_r1_thinking.jsonl")[0], id="r1-map")
    sok = dict(_sokoban(5)["token"], id="sok-pic")
    data = (json.dumps(r1) + "\n" + json.dumps(sok) + "\n").encode()
    eng = make_engine(app.url)
    list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), eng))
    shares = {r["record_id"]: r["share_id"] for r in recent_traces(eng, 5)}
    at = app("explorer", trace=shares["r1-map"], step="6").run()
    assert not at.exception
    assert [t.label for t in at.tabs][:2] == ["Map", "Reading"]
    at = app("explorer", trace=shares["sok-pic"], step="5").run()
    assert not at.exception and at.tabs[0].label == "Picture"
    assert any("the move into this state" in c.value for c in at.caption)


def test_each_domain_names_a_picture_the_explorer_draws():
    """The explorer asks the domain (`DomainSpec.picture`) which picture draws its steps instead
    of branching on domain names: every name a domain gives is a picture that exists, every
    picture is used, and a domain without one gets none."""
    from app_pages._pictures import PICTURES, PictureInput, step_picture
    from validators.registry import list_domains

    named = {d.picture for d in list_domains() if d.picture is not None}
    assert named == set(PICTURES)
    layout = {"width": 2, "height": 2, "walls": [], "start": [0, 0], "goal": [1, 1]}
    maze = PictureInput({"domain": "maze", "notes": {"layout": layout}}, 0, {}, lambda: [], lambda: None)
    assert step_picture(maze) is not None and "maze" in step_picture(maze).caption
    plain = PictureInput({"domain": "freeform", "notes": {}}, 0, {}, lambda: [], lambda: None)
    assert step_picture(plain) is None
    hanoi = PictureInput({"domain": "hanoi", "notes": {}}, 0, {}, lambda: [], lambda: None)
    assert step_picture(hanoi) is None  # no state stored: no picture, no error
    no_layout = PictureInput({"domain": "maze", "notes": {}}, 0, {}, lambda: [], lambda: None)
    assert step_picture(no_layout) is None
    damaged = PictureInput({"domain": "sokoban", "notes": {"layout": {"width": "x"}}}, 0, {}, lambda: [],
                           lambda: None)
    assert step_picture(damaged) is None
