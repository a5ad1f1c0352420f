"""Lines of reasoning as events (validators/planning/lines.py) and the reader's use of them: each
event is logged, each state is the previous one with the action applied (forced when
inapplicable), and a claim judged in a state reached by an event with two readings is left
unjudged ("line uncertain") when the readings disagree, judged when they agree."""

from __future__ import annotations

from tests.test_reading import _mystery_task
from validators.planning.claim_rules import BY_ID
from validators.planning.lines import Lines, check
from validators.planning.reading import ClaimReader
from validators.reading.cues import lexicon
from validators.reading.text import tokens_of


def _task():
    (task, vocab, _, _), _ = _mystery_task()
    return task, vocab


def _act(task, text: str):
    name, *args = text.strip("()").split()
    return task.ground(name, tuple(args))


def test_events_keep_the_invariant_and_are_logged() -> None:
    task, _ = _task()
    book = Lines(task.problem.init)
    line = book.new_line(0)
    book.perform(line, _act(task, "(attack a)"), 10, False)
    book.perform(line, _act(task, "(attack b)"), 20, False)  # Harmony is gone: forced
    assert line.broken == 1 and check(line) == []
    assert [e.kind for e in book.events] == ["new", "perform", "perform"]
    assert book.events[-1].note == "forced"
    fork = book.fork(line, 1, 30)
    assert [a.text() for a in fork.actions] == ["(attack a)"] and fork.broken is None and check(fork) == []
    book.undo(line, 40)
    assert [a.text() for a in line.actions] == ["(attack a)"] and line.broken is None
    book.lose(line, 50)
    assert not line.known and line.known_at(1) and book.events[-1].kind == "lose"
    # a state that is not the previous one with the action applied is caught
    line.states[1] = task.problem.init
    assert check(line) == [0]


def test_an_implicit_step_back_has_two_readings() -> None:
    task, _ = _task()
    book = Lines(task.problem.init)
    line = book.new_line(0)
    book.perform(line, _act(task, "(attack a)"), 10, False)
    back = book.step_back(line, _act(task, "(attack b)"), 20)
    assert back is not None and back.actions == [] and back.uncertain_from == 0
    book.perform(back, _act(task, "(attack b)"), 25, False)
    uncertain, other = book.readings(back, back.state)
    # the other reading: (attack b) forced after (attack a)
    assert uncertain and other == (line.state - _act(task, "(attack b)").delete) | _act(task, "(attack b)").add
    assert book.readings(line, line.state) == (False, None)


def test_a_claim_the_two_readings_agree_on_stays_judged() -> None:
    task, vocab = _task()
    report = ClaimReader.for_task(task, vocab).read("1. Attack a.\n\n2. Attack b.\n\nNow Planet b holds.")
    assert "step_back" in [e.kind for e in report.events]
    assert [(c.kind, c.holds) for c in report.claims] == [("state", False)]  # gone after Attack b either way


def test_a_claim_the_two_readings_disagree_on_is_line_uncertain() -> None:
    task, vocab = _task()
    # Attack b after Attack a (Harmony gone): the model went back to the initial state, or applied it anyway
    text = "1. Attack a.\n\n2. Attack b.\n\nNow Province a holds."
    report = ClaimReader.for_task(task, vocab).read(text)
    claim = report.claims[-1]
    # stepped back to the initial state, Province a holds; forced after Attack a, it does not
    assert claim.holds is None and claim.message.startswith("line uncertain") and "line.uncertain" in claim.rules


def test_an_alternatively_branch_is_uncertain_until_its_paragraph_ends() -> None:
    task, vocab = _task()
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Attack a.\n\n2. Succumb a.\n\n3. Attack b.\n\n"
    report = reader.read(walk + "Wait. Alternatively, Attack a again. Now Planet a is gone.")
    assert [(c.holds, c.message[:14]) for c in report.claims] == [(None, "line uncertain")]
    kinds = [(e.kind, e.rule) for e in report.events]
    assert ("uncertain", "event.branch") in kinds
    # without the branch the same sentence is judged, and false
    plain = reader.read(walk + "Wait. Now Planet a is gone.")
    assert [c.holds for c in plain.claims] == [False]
    # the doubt ends with the branch's paragraph
    later = reader.read(walk[:-2] + " Alternatively, Attack a again.\n\nNow Planet a is gone.")
    assert [c.holds for c in later.claims] == [False]
    assert ("reanchor", "event.branch") in [(e.kind, e.rule) for e in later.events]


def test_the_branch_cue_and_row_read_their_examples() -> None:
    cue = lexicon().cue("branch.alternatively")
    toks = tokens_of(cue.example, 0, len(cue.example))
    assert [h.cls for h in lexicon().hits(toks)][:1] == ["branch"]
    assert BY_ID["event.branch"].example == cue.example


def test_a_step_found_blocked_by_the_next_unit_is_undone() -> None:
    task, vocab = _task()
    reader = ClaimReader.for_task(task, vocab)
    # Attack b needs Harmony, gone after Attack a: the model says so, so Attack b was not taken, and
    # "Planet b holds" speaks of the state after Attack a alone (where it holds)
    text = "1. Attack a.\n\n2. Attack b. But Harmony is gone. Now Planet b holds."
    report = reader.read(text)
    assert ("reanchor", "event.blocked") in [(e.kind, e.rule) for e in report.events]
    assert [a.text() for a in report.lines[report.claims[-1].line].actions] == ["(attack a)"]
    assert [(c.kind, c.holds) for c in report.claims] == [("state", True), ("state", True)]
    # without the sentence that finds it blocked, the step is taken (read on the step-back line)
    taken = reader.read("1. Attack a.\n\n2. Attack b. Now Planet b holds.")
    assert "(attack b)" in [a.text() for a in taken.lines[-1].actions]
