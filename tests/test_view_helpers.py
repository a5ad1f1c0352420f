"""The explorer's pure view helpers: context around a step, the reading view, the tree frame."""

from __future__ import annotations

import base64
import re

from app_pages._view import reading_html, sandboxed, text_window, tree_html


def test_context_shows_the_neighbouring_paragraphs():
    trace = "First paragraph.\n\nSecond one.\n\nThe step itself.\n\nNext paragraph.\n\nLast."
    start = trace.index("The step")
    before, body, after = text_window(trace, start, start + len("The step itself."))
    assert body == "The step itself."
    assert "Second one." in before and "First paragraph." in before
    assert "Next paragraph." in after and "Last." in after
    before, _, after = text_window("x" * 5000 + "\nstep\n" + "y" * 5000, 5001, 5005, context=100)
    assert before.startswith("…") and after.endswith("…")


def test_reading_view_marks_every_step_and_escapes_every_character():
    trace = "Intro <script>alert(1)</script>\n\nWait, 2+2=5 <img src=x onerror=alert(2)>\n\nDone."
    s1 = trace.index("Wait")
    s2 = trace.index("Done")
    spans = [(0, 0, s1 - 2, None, None), (1, s1, s2 - 2, "invalid", "'2+2=5' is false"), (2, s2, len(trace), "valid", None)]
    page = reading_html(trace, spans, 1, "http://127.0.0.1:8501/explorer?trace=abc", matches={2})
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "id='s1' class='invalid sel'" in page and "class='valid hit'" in page
    assert "href='http://127.0.0.1:8501/explorer?trace=abc&amp;step=1'" in page and "target='_blank'" in page
    assert "title='step 1 · invalid: &#x27;2+2=5&#x27; is false'" in page
    assert page.count("<script>") == 1  # only the scroll-into-view script


def test_reading_view_of_a_huge_trace_shows_a_window_around_the_selection():
    trace = "".join(f"step {i}.\n" for i in range(10_000))
    spans, pos = [], 0
    for i in range(10_000):
        text = f"step {i}.\n"
        spans.append((i, pos, pos + len(text) - 1, None, None))
        pos += len(text)
    page = reading_html(trace, spans, 9_000, "x?trace=t", cap=1000)
    assert "id='s9000'" in page and "id='s100'" not in page
    assert "[steps 0 to 8499 not shown" in page


def test_frames_are_data_urls_and_the_tree_loads_nothing_from_a_cdn():
    outline = [(0, None, "plan", "valid", None, "Start"), (1, 0, "check", "invalid", "rule_x", "<b>bad</b>")]
    page = tree_html(outline, [0, 1], 1, link="http://127.0.0.1:8501/explorer?trace=abc</script>")
    assert "cdn.jsdelivr" not in page
    assert not re.search(r"""(?:src|href)=["']https?://""", page)  # every resource is in line
    assert "network.focus(1" in page and "abc<\\/script>" in page
    url = sandboxed(page)
    assert url.startswith("data:text/html;charset=utf-8;base64,")
    assert base64.b64decode(url.split(",", 1)[1]).decode() == page


def test_maze_picture_follows_the_steps():
    from app_pages._view import maze_figure

    layout = {"width": 4, "height": 3, "start": [0, 0], "goal": [3, 2], "walls": [[1, 1], [2, 1]]}
    events = [(0, "prompt", None, None), (1, "close", '{"x": 0, "y": 0}', "valid"),
              (2, "create", '{"x": 1, "y": 0}', "valid"), (3, "create", '{"x": 0, "y": 1}', "valid"),
              (4, "close", '{"x": 1, "y": 1}', "invalid")]
    early = maze_figure(layout, events[:3], 2).data[0].z
    late = maze_figure(layout, events, 4)
    z = late.data[0].z
    assert early[0][1] == 2 and early[1][0] == 0  # (1,0) open after step 2; (0,1) not yet created
    assert z[0][0] == 3 and z[1][0] == 2 and z[1][2] == 1  # closed, open, wall
    assert z[1][1] == 4  # the invalid close on a wall is red
    here = [t for t in late.data[1:] if t.name == "step 4"]
    assert here and (here[0].x[0], here[0].y[0]) == (1, 1)


def test_answer_states_are_rebuilt_and_drawn_as_stacks():
    from app_pages._view import blocks_figure, is_blocks_state
    from validators.planning.answer_states import plan_states
    from validators.registry import get_domain

    initial = ["(clear b)", "(handempty)", "(on b a)", "(ontable a)"]
    plan = [{"status": "valid", "action": "(unstack b a)", "added": ["(clear a)", "(holding b)"],
             "deleted": ["(clear b)", "(handempty)", "(on b a)"]},
            {"status": "valid", "action": "(put-down b)", "added": ["(clear b)", "(handempty)", "(ontable b)"],
             "deleted": ["(holding b)"]},
            {"status": "unreadable", "action": None}]
    states = plan_states(initial, plan)
    assert get_domain("blocksworld").answer_states({"answer_plan": plan, "initial_state": initial}) == states
    assert get_domain("blocksworld").answer_states({"initial_state": initial}) == []
    assert len(states) == 3 and "(holding b)" in states[1] and "(ontable b)" in states[2]
    assert is_blocks_state(states[0]) and not is_blocks_state(["(pain a)", "(harmony)"])
    held = blocks_figure(states[1]).data[0]
    assert list(held.text) == ["a", "b (held)"] and held.y[1] > held.y[0]
    tower = blocks_figure(states[0]).data[0]
    assert list(zip(tower.text, tower.x, tower.y)) == [("a", 0, 0), ("b", 0, 1)]


def test_the_answer_view_outlines_the_plan_read_and_marks_each_action():
    from app_pages._view import answer_html

    answer = "Sure <b>!</b>\n1. Pick up red.\n2. Stack red on blue.\nThat is all."
    s1 = answer.index("Pick")
    s2 = answer.index("Stack")
    plan = [{"step": 1, "span": [s1, s1 + 12], "status": "valid", "action": "(pick-up a)"},
            {"step": 2, "span": [s2, s2 + 18], "status": "invalid", "action": "(stack a b)",
             "message": "b is not clear"}]
    page = answer_html(answer, [answer.index("1."), s2 + 18], plan)
    assert "&lt;b&gt;!&lt;/b&gt;" in page and "<b>!" not in page and "<script" not in page
    assert "<span class='plan'><span class='valid' title='step 1: (pick-up a)'>Pick up red.</span></span>" in page
    assert "title='step 2: (stack a b) · b is not clear'" in page
    assert "That is all." in page and "<span class='plan'>\nThat" not in page


def test_countdown_tree_grows_with_the_log():
    from app_pages._view import countdown_figure

    events = [(0, "state", '{"target": 24, "numbers": [4, 6, 1]}', "valid"),
              (1, "explore", '{"operation": "4*6=24"}', "valid"),
              (2, "generate", '{"node": [0], "numbers": [1, 24], "operation": "4*6=24"}', "valid"),
              (3, "generate", '{"node": [1], "numbers": [5, 1], "operation": "4+6=11"}', "invalid"),
              (4, "move", '{"node": [1]}', "valid")]
    assert countdown_figure([], 0) is None
    small = countdown_figure(events[:3], 2).data[-1]
    assert len(small.x) == 2 and "24: [4, 6, 1]" in small.text[0]
    full = countdown_figure(events, 4).data[-1]
    colours = dict(zip(full.text, full.marker.color))
    assert colours["[5, 1]<br>4+6=11"] == "#d62728" and colours["[1, 24]<br>4*6=24"] != "#d62728"
    assert list(full.marker.line.width) == [1, 1, 4]  # the search is at node #1
