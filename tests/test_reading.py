"""The reading layer (validators/reading) and the claim reader built on it (validators/planning/
reading.py): every cue row and every rule row is tested on the example it carries, the text is
segmented once with exact spans, and the claims read do not depend on names or markup."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from audit import audit_record
from bench.claims_score import halves, score_rows
from core.record import record_from_json
from tests.conftest import REPO, load_dev
from validators.planning import planning_task
from validators.planning.claim_rules import ROWS
from validators.planning.reading import ClaimReader, read_unit
from validators.planning.task_words import TaskWords
from validators.reading.cues import lexicon
from validators.reading.numbers import number_value, plain
from validators.reading.text import read_text, spelled_out, tokens_of

MYSTERY_PROBLEM = None


def _mystery_task():
    row = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == "mystery_blocksworld")
    return planning_task(row["problem"], row["domain"]), row


@pytest.mark.parametrize("cue", list(lexicon().cues.values()), ids=lambda c: c.id)
def test_every_cue_row_fires_on_its_own_example(cue) -> None:
    toks = tokens_of(cue.example, 0, len(cue.example))
    assert any(h.cue == cue.id for h in lexicon().hits(toks)), (cue.id, cue.example)
    assert cue.source in ("doc", "R1", "planted", "probe")


@pytest.mark.parametrize("row", list(ROWS), ids=lambda r: r.id)
def test_every_rule_row_matches_the_shape_of_its_example(row) -> None:
    (task, vocab, _lexicon, _), _ = _mystery_task()
    if any(w in row.example.lower() for w in ("red", "orange", "blue", "picking up", "stack")):
        bw = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == "blocksworld")
        task, vocab, _lexicon, _ = planning_task(bw["problem"], bw["domain"])
    words = TaskWords.of(task, vocab)
    units = read_text(row.example).units
    assert any(row.regex.search(read_unit(u, words).shape) for u in units), (
        row.id, [read_unit(u, words).shape for u in units])


def test_units_have_exact_spans_markers_and_no_markdown() -> None:
    text = "Okay.\n\n1. **Attack a**: needs Province a. Yes.\n   - Harmony (yes)\nSo e.g. 2.5 works? Done"
    units = read_text(text).units
    got = [(text[u.span[0]:u.span[1]], u.item, u.bullet, u.end) for u in units]
    assert got == [("Okay.", None, False, "."), ("1. **Attack a**: needs Province a.", 1, False, "."),
                   ("Yes.", None, False, "."), ("- Harmony (yes)", None, True, ""),
                   ("So e.g. 2.5 works?", None, False, "?"), ("Done", None, False, "")]
    assert [t.norm for t in units[1].tokens][:3] == ["attack", "a", ":"]
    assert units[1].paragraph == 1 and units[0].paragraph == 0


def test_task_words_come_from_the_task_for_actions_and_facts() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    words = TaskWords.of(task, vocab)
    toks = tokens_of("Feast b from c, then Succumb to b; (overcome a c)", 0, 49)
    assert [(m.name, m.args) for m in words.actions(toks)] == [
        ("feast", ("b", "c")), ("succumb", ("b",)), ("overcome", ("a", "c"))]
    text = "Planet a, b and c. Province (b). c→a, object b craves object c, Harmony"
    atoms = [f.atom for f in words.facts(tokens_of(text, 0, len(text)))]
    assert atoms == [("planet", "a"), ("planet", "b"), ("planet", "c"), ("province", "b"),
                     ("craves", "c", "a"), ("craves", "b", "c"), ("harmony",)]


def _claims(trace: str, row: dict) -> list[tuple[str, bool | None, tuple[str, ...]]]:
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(*planning_task(row["problem"], row["domain"])[:2]).read(trace)
    return [(c.kind, c.holds, c.rules) for c in report.claims]


WALK = ("Okay, let's see.\n\n1. Feast b from c: needs b craves c, Province b, Harmony. Yes.\n"
        "Adds Pain b, Province c; removes b craves c, Province b, Harmony.\n\n"
        "Now, state: Pain b, Province c, no Harmony.\n\n"
        "2. Succumb b: Adds Province b, Planet b, Harmony. Pain b removed.\n")


def test_metamorphic_markup_and_whitespace_do_not_change_the_claims() -> None:
    _, row = _mystery_task()
    base = _claims(WALK, row)
    assert base and all(c[2] for c in base)
    marked = WALK.replace("Feast b from c", "**Feast b from c**").replace("Now, state:", "- Now, state:") \
        .replace(", ", ",  ")
    assert _claims(marked, row) == base


def test_metamorphic_renamed_objects_give_the_same_claims() -> None:
    """Objects a and c swapped everywhere (problem and trace): the same claims, with the same
    verdicts and rows."""
    _, row = _mystery_task()
    problem = dict(row["problem"])
    problem["problem_pddl"] = _swap(problem["problem_pddl"], "a", "c")
    got = ClaimReader.for_task(*planning_task(problem, row["domain"])[:2]).read(_swap(WALK, "a", "c")).claims
    want = ClaimReader.for_task(*planning_task(row["problem"], row["domain"])[:2]).read(WALK).claims
    assert want and [(c.kind, c.holds, c.rules) for c in got] == [(c.kind, c.holds, c.rules) for c in want]


def _swap(text: str, x: str, y: str) -> str:
    import re
    return re.sub(rf"(?<![\w-])({re.escape(x)}|{re.escape(y)})(?![\w-])", lambda m: y if m.group(1) == x else x, text)


def _rename_objects(pddl: str, old: str, new: str) -> str:
    import re
    return re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", new, pddl)


def test_a_false_effect_and_a_false_rule_are_read_with_their_rows() -> None:
    _, row = _mystery_task()
    bad = _claims("1. Feast b from c: Adds Pain c.\n\nAfter Feast, you get Harmony.", row)
    assert ("effect", False, ("effect.add",)) in bad
    assert ("rule", False, ("rule.add",)) in bad
    assert not [c for c in _claims("Maybe Attack b gives Pain b?", row) if c[1] is False]


@pytest.fixture(scope="module")
def v2_halves():
    parts = halves(load_dev("thinking_claims_dev_v2.jsonl"))
    return {name: score_rows(rows) for name, rows in parts.items()}


def test_v2_reader_dev_halves_floor(v2_halves) -> None:
    """The reader's figures on each half of the v2 annotations (built on half A, then tuned on
    half B, then on each in turn; bench/claims_score.py). Printed; the floor is what was measured
    (A: 0.939, roots 7/10, first root 6/6, traces 6/6; B: 0.962, 5/6, 6/7, 7/7), so a change that
    loses ground fails."""
    for name, score in v2_halves.items():
        print(f"\nclaim reader, half {name}: {score.summary()}")
    a, b = v2_halves["A"], v2_halves["B"]
    assert a.precision >= 0.93 and a.recall >= 0.7 and a.traces_right >= 6
    assert b.precision >= 0.96 and b.recall >= 0.83 and b.traces_right >= 7
    assert sum(t.first_root_located for t in a.traces) >= 6 and sum(t.first_root_located for t in b.traces) >= 6


# Sentences from the false flags of unseen R1 traces (reviews and dev half B), with the objects of
# the dev Mystery problem (initially: Harmony, Planet a, b, c, Province a, b, c). Each was read
# as a false claim; none says anything false.
NOT_FALSE = {
    "a 'no' opens the next item, it does not deny the one before":
        "Initial state: Attack a → Pain a, no Harmony, Province b.",
    "the action named again right after its step is the same step":
        "1. Attack a → requires Province a, Planet a, Harmony. Yes.\nAttack a → adds Pain a.\n\nNow, Pain a holds.",
    "a needs list with a removal in parentheses is no effects list":
        "Attack a.\n\nThen Overcome b from a: Requires Province a (but it was removed by Attack), so no.",
    "a time we cannot place ('after various steps') leaves its facts unjudged":
        "Attack a. Since the initial provinces were a, b and c, but after various steps, we lost Province b.",
    "an effect credited to another numbered step is not the focus action's":
        "1. Attack a → adds Pain a.\n2. Succumb a.\nPain a added in step 1 → yes.",
    "the needs of the step just taken are checked in the state before it":
        "1. Attack b.\n\nAttack b: Requires Province b, Planet b, Harmony. Yes.",
    "'no X, Y, or Z' denies every item of its list":
        "1. Attack a.\n\nState: Pain a, no Harmony, Planet a, or Province a.",
    "'no Province' beside a step, not under 'State:', says whose it is not":
        "1. Attack a.\n\nAttack a: Pain a added, no Province, no Harmony.",
    "'X and Y, not Z' denies only Z":
        "Initially we have Planet a and c, not d.",
    "a colon list whose lead items may be what the action adds":
        "1. Attack a: Pain a, Province a and Planet a are removed.",
    "a claim doubted by a question, then taken back":
        "1. Attack a.\n\nSo now Planet b is not present, because Attack changed the planets. "
        "Attack a removed Planet b? Wait, no. Attack does not touch Planet b.",
    "'after step k' names a time, not the step rejected":
        "1. Feast c from a.\n\n2. Succumb c.\n\nAlternatively, after step 1, Attack a (can't), but Harmony is gone.",
    "what a hypothesis would make true is not an effect claim":
        "1. Attack a.\n\nBut perhaps Pain is singular. In that case, when you Succumb a, Planet a becomes "
        "true, and Planet b becomes false.",
    "'That gives' after two actions does not say which one gives it":
        "Then Attack a and Overcome a from b. That gives a craves b.",
    "'After step k, we have ...' goes back to step k of a list whose steps are its actions":
        "Okay.\n\n1. Create Pain c.\n\nHow? Feast c from a.\n\n2. Succumb c.\n\n3. Attack b.\n\n"
        "After step 2, we have Harmony and Provinces a, b and c.\n\n3. Attack c. Planet b is still there.",
    "a 'Removed:' bullet lists what the action removes; 'still true (... not X)' is about X kept":
        "1. Attack a.\n\nAfter Attack a:\n\n- Pain a: true\n- Removed: Province a, Planet a, Harmony\n"
        "- Planet b: still true (Attack a removes Planet a, not Planet b)",
    "'no X exists' denies X": "1. Attack a.\n\nNow no Pain b exists.",
    "'c is a planet': the article, not object a": "Initially Planet c is true (c is a planet).",
    "a general statement about actions is no step that loses the line":
        "1. Attack b. Attacking and Succumbing don't affect cravings. Pain b is there.",
    "a part of the goal done is no goal claim": "1. Attack a.\n\nOne part of the goal is done.",
    "'after X and Y' is after both": "1. Attack a.\n\n2. Succumb a.\n\nSo after Attack a and Succumb a, we have Harmony back, and Province a.",
    "a binary fact written as a call": "1. Attack a.\n\n2. Succumb a.\n\nNow Harmony holds and Craves(a, b) does not.",
    "a fact just after a step, true before it, may be its precondition checked":
        "1. Attack a. But Province a is present, and Planet a.",
    "a rule told with the action's name first is no state claim":
        "1. Attack b.\n\nWait, the Attack action says once performed, the facts will be false: Province object, "
        "Planet object, Harmony.",
    "'After the initial Attack and Succumb, we have ...' is a state the line cannot place":
        "1. Attack b.\n\n2. Succumb b.\n\nAlternative idea: After the initial Attack and Succumb, we have "
        "Pain a, Planet b. Maybe use Attack a. Attack requires Province a (no), so can't.",
    "a line begun again from the initial state is anchored there only near its start":
        "1. Attack b.\n\nLet me start over from the initial state.\n\nHmm.\n\nOk.\n\nBut Province is currently b, and Pain b.",
    "removal told after the action's effects list is no state claim":
        "1. Attack a.\n\nAnd removes Province object (a is removed), and Harmony is removed.",
}


@pytest.mark.parametrize("trace", list(NOT_FALSE.values()), ids=list(NOT_FALSE))
def test_sentences_that_claim_nothing_false_are_not_flagged(trace: str) -> None:
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(trace)
    assert [c.message for c in report.claims if c.holds is False and not c.retracted] == []


def test_a_step_named_again_is_taken_once_and_its_needs_judged_before_it() -> None:
    _, row = _mystery_task()
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(NOT_FALSE["the needs of the step just taken are checked in the state before it"])
    assert [a.text() for a in report.lines[report.claims[-1].line].actions] == ["(attack b)"]
    assert [(c.kind, c.holds) for c in report.claims if "rule.needs_of" not in c.rules] == [("applicability", True)]
    assert [c.holds for c in report.claims if "rule.needs_of" in c.rules] == [True, True, True]  # what Attack b needs
    report = ClaimReader.for_task(task, vocab).read(NOT_FALSE["the action named again right after its step is the same step"])
    assert [a.text() for a in report.lines[-1].actions] == ["(attack a)"]
    # the same sentences with a false claim in them are still flagged
    bad = ClaimReader.for_task(task, vocab).read("1. Attack a → adds Pain a.\n\nNow, Harmony holds.")
    assert [c.kind for c in bad.claims if c.holds is False] == ["state"]
    told = ClaimReader.for_task(task, vocab).read("1. Attack a.\n\nWhen you Succumb a, Planet b becomes false.")
    assert [c.kind for c in told.claims if c.holds is False] == ["effect"]
    plain = ClaimReader.for_task(task, vocab).read("Attack a: Province a, Planet a and Harmony are removed. Pain a is removed.")
    assert [c.holds for c in plain.claims if c.kind == "effect"] == [True, True, True, False]


def test_then_i_can_takes_the_step_only_where_it_is_applicable() -> None:
    """"Then I can put blue down" narrates a step of a walk; in an outline that leaves steps out
    ("Then we can stack red on blue" while holding nothing) the line is lost instead of judged."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. Then I can put blue down on the table. Now I can pick up red."
    report = reader.read(walk)
    assert [a.text() for a in report.lines[-1].actions] == ["(unstack b a)", "(put-down b)", "(pick-up a)"]
    assert [c.holds for c in report.claims if c.kind == "applicability"] == [True, True]
    outline = reader.read("Okay. Then we can stack red on blue. Now blue is clear.")
    assert not outline.lines[-1].known and [c for c in outline.claims if c.holds is False] == []
    now = reader.read("1. Unstack blue from red. Then I can put blue down. Now I can stack blue on red.")
    assert [(c.action, c.holds) for c in now.claims if c.kind == "applicability"][-1] == ("(stack b a)", False)


BW_NOT_FALSE = {
    "a passive cue ends its clause: 'since blue was removed, red is clear'":
        "1. Unstack blue from red. Now holding blue. Since blue was removed, red is clear.",
    "a recall ('after putting down blue') judges its unit, the line goes on":
        "1. Unstack blue from red. 2. Put down blue. 3. Pick up red. Yes, after putting down blue, blue is clear. "
        "So stacking red on blue is allowed.",
    "a walk checked bullet by bullet takes each bullet's step":
        "Let me check:\n\n- When unstacking blue from red: hand is empty, blue is clear. Allowed.\n\n"
        "- Put down blue: allowed.\n\n- Pick up red: red is clear. Allowed.\n\n- Stack red on blue: allowed.",
}


@pytest.mark.parametrize("trace", list(BW_NOT_FALSE.values()), ids=list(BW_NOT_FALSE))
def test_blocks_sentences_that_claim_nothing_false_are_not_flagged(trace: str) -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    report = ClaimReader.for_task(task, vocab).read(trace)
    assert [c.message for c in report.claims if c.holds is False and not c.retracted] == []
    assert [c for c in report.claims if c.holds is True]


def test_a_false_claim_in_those_forms_is_still_flagged() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    walk = BW_NOT_FALSE["a walk checked bullet by bullet takes each bullet's step"]
    bad = ClaimReader.for_task(task, vocab).read(walk.replace("- Put down blue: allowed.\n\n", ""))
    assert [c.action for c in bad.claims if c.holds is False][:1] == ["(pick-up a)"]
    (mtask, mvocab, _, _), _ = _mystery_task()
    kept = ClaimReader.for_task(mtask, mvocab).read("1. Attack a.\n\nNow Pain b exists.")
    assert [c.kind for c in kept.claims if c.holds is False] == ["state"]


def test_a_predicate_denied_under_a_state_heading_denies_all_its_facts() -> None:
    """thinking-claims.md: a list presented as the state asserts each item, and an omission is no
    error unless the text denies it; "no Province" under "State:" denies every province fact."""
    (task, vocab, _, _), _ = _mystery_task()
    held = sorted(a[1] for a in task.problem.init if a[0] == "province" and a[1] != "a")
    assert held, "the fixture needs a province that Attack a leaves"
    report = ClaimReader.for_task(task, vocab).read("1. Attack a.\n\nState: Pain, no Province, Planet, or Harmony.")
    false = [c.message for c in report.claims if c.holds is False]
    assert any("no province fact holds" in m for m in false), false


def test_tagged_needs_and_an_arrow_item_of_a_walk_are_judged() -> None:
    """"Requires Province b (yes) and Pain a (yes)" says both hold before the step; "1. Attack a
    → Pain a." in a walk presents Attack a as doable, and under "Wait, maybe:" only proposes it."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    needs = reader.read("1. Attack a. Requires Province a (yes), Pain a (yes).")
    assert [(c.kind, c.holds) for c in needs.claims if c.kind == "state"] == [("state", True), ("state", False)]
    assert [(c.holds, c.rules) for c in needs.claims if c.kind == "rule"] == [(True, ("rule.needs_told",))]
    walk = reader.read("Let's try:\n\n1. Attack b → Pain b.\n\n2. Succumb b → Harmony.")
    assert [(c.kind, c.holds, c.action) for c in walk.claims if c.kind == "applicability"] == [
        ("applicability", True, "(attack b)"), ("applicability", True, "(succumb b)")]
    guess = reader.read("Wait, maybe:\n\n1. Succumb b → Harmony.")
    assert [c for c in guess.claims if c.holds is False] == []
    named = reader.read("1. Attack b → Pain b.\n\n2. Succumb b.\n\nLater:\n\n1. Attack b → Pain b.\n\n2. Succumb c")
    assert [c.action for c in named.claims if c.kind == "applicability" and c.holds is False] == []


def test_a_denial_beside_a_cause_naming_no_objects_is_judged() -> None:
    """"Planet a is not present, because the Feast changed the planets": the cause names an action
    without its objects; the denial is still a state claim (false here)."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack b.\n\nSo now Planet a is not present, because the Attack changed the planets.")
    assert [(c.kind, c.holds) for c in report.claims] == [("state", False)]
    plain = ClaimReader.for_task(task, vocab).read("1. Attack b.\n\nProvince c was not present any more.")
    assert [(c.kind, c.holds) for c in plain.claims] == [("state", False)]


def test_a_recap_judges_its_unit_and_a_branch_starts_a_line_there() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    walk = "Let me try.\n\n1. Attack b: gives Pain b.\n\n2. Succumb b: gives Province b, Harmony.\n\n"
    recap = reader.read(walk + "So after step 1, Pain b is there. So now: Harmony.")
    assert [c.holds for c in recap.claims if c.kind == "state"][:1] == [True]
    assert [c for c in recap.claims if c.holds is False] == []
    branch = reader.read(walk + "Alternatively, after step 1, Attack c. Now Harmony holds.")
    assert [c.holds for c in branch.claims if c.kind == "state"] == [False]
    contrast = reader.read("1. Attack b: needs Province b, Planet b, Harmony. Yes. Attack b removes Planet b, not Province b.")
    assert [(c.kind, c.holds, c.negative) for c in contrast.claims if c.holds is False] == [("effect", False, True)]


def test_blocks_facts_that_share_their_object_and_a_sentence_that_corrects_itself() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. "
    for said, want in (("Now red is on the table and not clear.", [True, False]),
                       ("Now red is still not clear.", [False]),
                       ("Now red is no longer clear.", [False]),
                       ("Now red is clear and on top of blue.", [True, False])):
        assert [c.holds for c in reader.read(walk + said).claims if c.kind == "state"] == want, said
    fixed = reader.read("Initially:\n\n- Red on table, clear (except blue is on it, so red isn't clear).")
    assert [c for c in fixed.claims if c.holds is False] == []
    # Mystery facts listed one after another are each their own fact, not one object's
    (mtask, mvocab, _, _), _ = _mystery_task()
    listed = ClaimReader.for_task(mtask, mvocab).read("Initially: Province a, Planet a and Harmony.")
    assert [c.atom for c in listed.claims] == [("province", "a"), ("planet", "a"), ("harmony",)]


def test_now_and_still_inside_a_fact_and_a_step_named_otherwise() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. "
    for said, want in (("Blue is now on the table.", [False]), ("Red is still under blue.", [False]),
                       ("Red is not clear yet.", [False]), ("Red is clear now as well.", [True])):
        assert [c.holds for c in reader.read(walk + said).claims if c.kind == "state"] == want, said
    (mtask, mvocab, _, _), _ = _mystery_task()
    m = ClaimReader.for_task(mtask, mvocab)
    walk = "1. Attack b.\n\n2. Succumb b.\n\n"
    # the list's step 2 is Succumb b: the recap is judged there; said to be another action, it is not
    assert [c.holds for c in m.read(walk + "So after step 2, we have Province b.").claims if c.kind == "state"] == [True]
    other = m.read(walk + "Wait, step 2 is Attack c. So after step 2, we have Pain c.")
    assert [c for c in other.claims if c.kind == "state" and c.holds is not None] == []


def test_a_plain_fact_right_after_a_step_is_judged_unless_it_held_before() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. "
    assert [c.holds for c in reader.read(walk + "Blue is on the table.").claims] == [False]
    assert [c.holds for c in reader.read(walk + "And red is clear.").claims] == [True]
    assert [c.holds for c in reader.read(walk + "Blue is on red.").claims] == [None]  # held before it
    assert reader.read(walk + "\n\nBlue is on the table.").claims == []  # another paragraph


def test_numbers_read_thousands_groups_of_exactly_three_digits() -> None:
    """Issue 34.2: one number reader for every arithmetic reader; lists and tuples stay apart."""
    assert [number_value(t) for t in ("278,700", "1,\\!800", "291{,}580", "1\\,800", "-1,234.5")] == [
        278700, 1800, 291580, 1800, Fraction(-2469, 2)]
    assert [number_value(t) for t in ("1,2,3", "(3, 4)", "12,34", "1,2345", "1,234,5")] == [None] * 5
    assert plain("929 × 300 = 278,700; (3, 4); 1,2,3") == "929 × 300 = 278700; (3, 4); 1,2,3"


def test_a_reason_after_a_step_and_a_named_step_are_judged_before_that_step() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red.\n2. Put down blue.\n3. Pick up red.\n4. Stack red on blue. Because blue is clear now."
    assert [c.holds for c in reader.read(walk).claims if c.kind == "state"] == [True]
    (mtask, mvocab, _, _), _ = _mystery_task()
    m = ClaimReader.for_task(mtask, mvocab)
    named = m.read("1. Attack b.\n\n2. Succumb b.\n\n3. Attack b.\n\nBut step 2 is Succumb b, which requires Pain b (yes).")
    assert [(c.kind, c.holds) for c in named.claims if c.kind == "state"][-1:] == [("state", True)]


def test_spelled_out_letters_are_the_word_they_spell():
    assert spelled_out("n a o a") == "naoa" and spelled_out("s-a-n-n") == "sann" and spelled_out("e, e, l, k.") == "eelk"
    assert spelled_out("naoa") is None and spelled_out("nk ab") is None and spelled_out("a") is None


def test_an_action_found_impossible_a_few_sentences_on_is_not_taken() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack a.\n\n2. Succumb a.\n\n3. Feast c from a. Needs c craves a, Province c. Wait, there is no craving. "
        "So can't do.\n\nState: Province a, Planet a, Harmony.")
    assert [a.text() for a in report.lines[-1].actions] == ["(attack a)", "(succumb a)"]
    assert [c.holds for c in report.claims if c.kind == "state"] == [True, True, True]


def _bw_reader() -> ClaimReader:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    return ClaimReader.for_task(*planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2])


@pytest.mark.parametrize("trace", [
    "First, unstack blue from red. Since blue is clear (no blocks on top) and hand is empty, that's allowed.",
    "First, to move red on top of blue, but red is currently under blue.",
], ids=["a parenthesis that explains a fact does not deny it", "a purpose ('to move X on Y') is no state claim"])
def test_explanations_and_purposes_are_not_state_claims(trace: str) -> None:
    report = _bw_reader().read(trace)
    assert [c.message for c in report.claims if c.holds is False] == []


def test_a_denial_in_a_parenthesis_is_still_read() -> None:
    """"Harmony (removed)" and "Province b (no)" still say the fact is gone: only a parenthesis
    that opens with a negated noun ("(no blocks on top)") explains instead."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    for text in ("1. Attack a.\n\nNow: Harmony (removed), Pain a.", "1. Attack a.\n\nNow: Harmony (no), Pain a."):
        got = [(c.atom, c.negative, c.holds) for c in reader.read(text).claims if c.kind == "state"]
        assert (("harmony",), True, True) in got, (text, got)


def test_a_verdict_on_a_prose_walk_that_leaves_steps_unsaid_is_not_judged() -> None:
    """"Unstack blue from red. Then stack red on blue. Yes, that works.": the walk omits putting
    blue down and picking red up; a verdict on it may be about the plan the model means, so it is
    left unjudged with the steps that would bridge it. The same two steps written as the numbered
    plan are judged: a listed plan is the plan."""
    reader = _bw_reader()
    prose = "Unstack blue from red. Then stack red on blue.\n\nYes, that works."
    at = prose.index("Yes")
    got = [c for c in reader.read(prose, [(at, len(prose), True, "Yes, that works.")]).claims if c.kind == "plan_verdict"]
    assert [(c.holds, "verdict.outline" in c.rules) for c in got] == [(None, True)]
    assert "(put-down b), (pick-up a) before (stack a b)" in got[0].message
    listed = "1. Unstack blue from red.\n2. Stack red on blue.\n\nYes, that works."
    at = listed.index("Yes")
    got = [c for c in reader.read(listed, [(at, len(listed), True, "Yes, that works.")]).claims if c.kind == "plan_verdict"]
    assert [c.holds for c in got] == [False]


def test_omitted_steps_finds_the_shortest_bridge_or_none() -> None:
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    from validators.planning.judge import omitted_steps
    task = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[0]
    init = frozenset(task.problem.init)
    assert [a.text() for a in omitted_steps(task, init, task.ground("pick-up", ("a",)))] == ["(unstack b a)", "(put-down b)"]
    assert omitted_steps(task, init, task.ground("stack", ("a", "b"))) == []  # three steps away


def test_a_need_found_gone_is_no_effect_of_the_step() -> None:
    """"6. Overcome c from b: requires Province b and Pain. But Province b was removed. So no.":
    the second sentence says a need is gone (the step is blocked), not that Overcome removes it."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack b.\n\n2. Overcome c from b: requires Province b and Pain c. But Province b was removed. So no.")
    assert [c for c in report.claims if c.kind == "effect"] == []
    assert [c.message for c in report.claims if c.holds is False] == []


def test_the_initial_state_laid_out_again_starts_a_walk_from_it() -> None:
    """After a plan is walked, "The initial conditions are:" and its list lay the initial state out
    again; "So yes, you can pick up red" then speaks of that state, not of the walked line's end."""
    reader = _bw_reader()
    walk = ("1. Unstack blue from red.\n2. Put down blue.\n3. Pick up red.\n4. Stack red on blue.\n\n"
            "Let me check again. The initial conditions are:\n\n- blue is on red\n- blue is clear\n- hand is empty\n\n"
            "So yes, you can unstack blue from red (since blue is clear). Then put down blue.")
    report = reader.read(walk)
    assert [(c.action, c.holds) for c in report.claims if c.kind == "applicability"][-1:] == [("(unstack b a)", True)]
    assert [a.text() for a in report.lines[-1].actions] == ["(unstack b a)", "(put-down b)"]
    assert [c.message for c in report.claims if c.holds is False] == []
    listed = reader.read("1. Unstack blue from red. Then put down blue.\n\nWait, initial steps:\n\n"
                         "1. Unstack blue from red. So that's possible. Now holding blue.")
    assert [c.message for c in listed.claims if c.holds is False] == []  # a list under the heading is its walk


def test_a_rule_told_after_an_action_keeps_the_line_known() -> None:
    """"After Overcome, it sets Harmony, Province on the object, and the object craves the other
    object." states what Overcome does in general (a rule row, general words); it names no time on
    the line, so the line stays in the initial state and "Attack action requires ... All present."
    is still judged there."""
    (task, vocab, _, _), row = _mystery_task()
    text = ("After Overcome, it sets Harmony, Province on the object, and the object craves the other object.\n\n"
            "Attack action requires Province (b), Planet (a), Harmony. All present.")
    report = ClaimReader.for_task(task, vocab).read(text)
    assert report.lines[0].known
    assert [c.rules for c in report.claims if c.kind == "applicability"] == [("app.some_needs", "app.all_present")]
    vague = ClaimReader.for_task(task, vocab).read("After the Attack, we have Pain a.")
    assert not vague.lines[0].known  # a time the line cannot place still loses it


def test_an_exception_in_a_state_list_denies_the_fact_it_names() -> None:
    """"all blocks except blue are on the table" says blue is not on the table."""
    report = _bw_reader().read("So, the initial setup is: hand is empty, and all blocks except blue are on the table.")
    got = [(c.atom, c.negative, c.holds) for c in report.claims if c.kind == "state" and c.atom == ("ontable", "b")]
    assert got == [(("ontable", "b"), True, True)]


def test_a_step_told_by_its_effects_then_the_state_now_is_taken() -> None:
    """"Succumb b adds Province b, Planet b, Harmony. Now, Province is b again, Harmony is back.":
    the step was described, and the state now follows it; judged after Succumb b, both hold."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    text = "1. Attack b.\n\nSuccumb b adds Province b, Planet b, Harmony. Now, Province b is back, Harmony is back."
    report = reader.read(text)
    assert [a.text() for a in report.lines[-1].actions] == ["(attack b)", "(succumb b)"]
    assert [c.holds for c in report.claims if c.kind == "state"] == [True, True]
    apart = reader.read("1. Attack b.\n\nSuccumb b adds Province b.\n\nNow, Province b holds.")
    assert [a.text() for a in apart.lines[-1].actions] == ["(attack b)"]  # another paragraph: not taken


def test_a_step_that_names_its_number_and_a_second_action_on_it_are_taken() -> None:
    """"So unstack blue from red (step 1)" after the walk started again is step 1 of the walk;
    "pick up red and stack it on blue" takes both steps, "it" being red."""
    reader = _bw_reader()
    walk = ("1. Unstack blue from red.\n2. Put down blue.\n3. Pick up red.\n4. Stack red on blue.\n\n"
            "Let me start over. So pick up red (step 3).")
    report = reader.read(walk)
    assert [a.text() for a in report.lines[-1].actions] == ["(unstack b a)", "(put-down b)", "(pick-up a)"]
    both = reader.read("1. Unstack blue from red.\n2. Put down blue.\n\nSo yes, pick up red and stack it on blue. "
                       "Now red is on blue.")
    assert [a.text() for a in both.lines[-1].actions][-2:] == ["(pick-up a)", "(stack a b)"]
    assert [c.holds for c in both.claims if c.kind == "state"] == [True]


def test_it_after_a_step_is_its_object_only_when_that_step_can_be_done() -> None:
    """"Unstack blue from red. Then put it down.": "it" is blue (the step is taken); in "Red is
    clear. Pick it up." "it" is not blue (picking blue up cannot be done while holding it), so the
    step is unread and the line may have moved: "Now I am holding red." is not judged."""
    reader = _bw_reader()
    took = reader.read("1. Unstack blue from red. Then put it down. Now I am holding blue.")
    assert [a.text() for a in took.lines[-1].actions] == ["(unstack b a)", "(put-down b)"]
    assert [c.holds for c in took.claims if c.kind == "state"] == [False]
    unread = reader.read("1. Unstack blue from red. Red is clear. Pick it up. Now I am holding red.")
    assert [c for c in unread.claims if c.kind == "state" and c.holds is False] == []


def test_a_rule_stated_with_variables_is_judged_against_the_schema() -> None:
    """"Let's say Feast x from y. So, after Feast, Pain y is added, Province y is added, and removes
    object x's craving, province x, harmony.": x and y are Feast's object and the other object;
    Feast adds Pain of its object (x), so "Pain y is added" is a false rule, the rest true."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    text = ("Feast action: Feast object from other. Let's say Feast x from y. So, after Feast, Pain y is added, "
            "Province y is added, and removes object x's craving, province x, harmony.")
    got = [(c.kind, c.holds, c.rules) for c in reader.read(text).claims]
    assert got[0] == ("rule", False, ("rule.bound",)) and all(h for _, h, _ in got[1:]) and len(got) == 3
    assert "adds (pain x), (province y)" in reader.read(text).claims[0].message
    agreeing = reader.read("If X was in Pain, then after Succumb X, you have Province X, Planet X, Harmony, "
                           "and Pain X is removed.")
    assert [(c.kind, c.holds) for c in agreeing.claims] == [("rule", True)]  # the verb governs Pain X only
    other_paragraph = reader.read("Let's say Feast x from y.\n\nThen Pain y is added.")
    assert [c for c in other_paragraph.claims if c.kind == "rule"] == []


def test_a_fact_said_removed_in_step_k_is_that_steps_effect() -> None:
    """"But step 3 requires Province b, which was removed in step 2.": step 2 of the list (Succumb c)
    removes Pain c only, so the claim is false; said of step 1 (Attack b, which removes Province b)
    it is true."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Attack b.\n2. Succumb b.\n3. Overcome a from b.\n\n"
    got = [(c.holds, c.after) for c in reader.read(walk + "But step 3 requires Province b, which was removed in step 2.").claims
           if "effect.in_step" in c.rules]
    assert got == [(False, "(succumb b)")]
    got = [(c.holds, c.after) for c in reader.read(walk + "But step 3 requires Province b, which was removed in step 1.").claims
           if "effect.in_step" in c.rules]
    assert got == [(True, "(attack b)")]


def test_step_k_is_the_item_numbered_k_when_items_hold_no_step() -> None:
    """"1. Attack b. 2. Now, Pain b. 3. Succumb b.": item 2 holds no step, so "step 3" is Succumb b
    (not the line's third action, there is none) and "after step 2" is not placed."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Attack b.\n2. Now, Pain b.\n3. Succumb b.\n\n"
    got = [(c.holds, c.after) for c in reader.read(walk + "Yes, Pain b was removed in step 3.").claims
           if "effect.in_step" in c.rules]
    assert got == [(True, "(succumb b)")]
    after = reader.read(walk + "After step 2, Harmony holds.")
    assert [c for c in after.claims if c.text.startswith("After step 2") and c.holds is not None] == []


def test_a_verdict_on_a_whole_prose_walk_is_left_unjudged_by_the_audit_too() -> None:
    """The candidate layer agrees with the reader's verdict.outline: "Unstack blue from red. Then
    stack red on blue. Yes, that works." may mean the two steps it leaves out, so the audit flags
    nothing and says a claim was left unjudged; the same plan written as a comma list is a plan
    written out, and its verdict is false."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM, VALID_ANSWER

    def audit(walk: str):
        return audit_record(record_from_json({
            "id": "walk", "domain": "blocksworld", "format": "think",
            "problem": {"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "answer": VALID_ANSWER,
            "trace": f"Okay, blue is on red and I want red on blue.\n\n{walk}\n\nYes, that works."}))

    prose = audit("Unstack blue from red. Then stack red on blue.")
    assert prose.verdict.trace_valid is None and prose.replay.unjudged >= 1
    assert not prose.verdict.to_json()["invalid_steps"]
    listed = audit("So the plan is: unstack blue from red, stack red on blue.")
    # the sentence adopts the plan (row verdict.adopted), and "Yes, that works." says so again
    assert [s["rule"] for s in listed.verdict.to_json()["invalid_steps"]] == [
        "false_plan_verdict_claim", "false_verification_claim"]


# Mystery Blocksworld's names replaced by other nonsense words, in the PDDL and in the trace alike,
# with the forms models write them in ("overcoming", "attacked", "Pain object").
_NONSENSE = {"province": "glimmer", "planet": "zorbit", "harmony": "quiescence", "pain": "flux",
             "provinces": "glimmers", "planets": "zorbits",
             "craves": "yearns", "crave": "yearn", "craving": "yearning",
             "attack": "blorp", "attacking": "blorping", "attacked": "blorped", "attacks": "blorps",
             "succumb": "wilt", "succumbing": "wilting", "succumbed": "wilted", "succumbs": "wilts",
             "overcome": "vanquish", "overcoming": "vanquishing", "overcomes": "vanquishes",
             "feast": "gobble", "feasting": "gobbling", "feasted": "gobbled", "feasts": "gobbles"}


def _nonsense(text: str) -> str:
    import re

    def swap(m: "re.Match[str]") -> str:
        word = m.group()
        new = _NONSENSE[word.lower()]
        return new.upper() if word.isupper() and len(word) > 1 else new.capitalize() if word[0].isupper() else new
    return re.sub(r"(?i)\b(?:" + "|".join(sorted(_NONSENSE, key=len, reverse=True)) + r")\b", swap, text)


@pytest.mark.parametrize("trace_id", ["9cdaf3a75c723387", "0cd27330062b"])
def test_metamorphic_nonsense_names_give_the_same_claims(trace_id: str) -> None:
    """The reader takes its words from the task, not from PlanBench's Mystery templates: a real
    dev trace read with the PDDL's own names gives the claims the template vocabulary gives, and
    with every predicate and action renamed to other nonsense (PDDL and trace alike) the same
    claims again, with the same verdicts and rule rows."""
    row = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["id"].startswith(trace_id))

    def claims(problem: dict, trace: str, domain: str) -> list:
        report = ClaimReader.for_task(*planning_task(problem, domain)[:2]).read(trace)
        return [(c.kind, c.holds, c.negative, c.rules) for c in report.claims]

    builtin = claims(row["problem"], row["trace"], "mystery_blocksworld")
    own_names = claims(row["problem"], row["trace"], "pddl")
    renamed = {k: _nonsense(v) if isinstance(v, str) else v for k, v in row["problem"].items()}
    assert len(builtin) > 50
    assert claims(renamed, _nonsense(row["trace"]), "pddl") == own_names
    if trace_id.startswith("9cdaf3"):
        assert own_names == builtin and sum(c[1] is False for c in builtin) > 50


# False flags a blind review found on the unannotated R1 traces (2026-12-04, 26 of 30 flags right),
# each fixed by a general reading: the sentence is no longer read as false, and the trace keeps
# its real false claims.
REVIEWED_NOT_FALSE = {
    "'initial' naming where one fact came from, after the claim's 'now', is not the claim's time":
        ("6d91ceda125828c5", "All three are present now (Province(c) from Feast step, Planet(c) initial, Harmony "
                             "from Overcome step)."),
    "a step said to be impossible a few units on, naming no action ('Can't perform'), is not taken":
        ("e3382e54e28b78e1", "- Pre: Province a (yes), Planet a (yes), Harmony (yes)."),
    "an action named as the means to a fact ('can be done with Overcome a from c') is not said doable now":
        ("371a2541262a6fbd", "- a craves c: This can be done with Overcome a from c (needs Province c and Pain)."),
    "'after step 3 (state: ...)' restating another list's step 3 places no line, and what follows is not judged on it":
        ("371a2541262a6fbd", "After step 3 (state: Pain, a craves c, c craves a):\n\nAction 4: Succumb a. Adds Province a, "
                             "Planet a, Harmony. Removes Pain.\n\nState: Province a, Planet a, Harmony, a craves c, c craves "
                             "a.\n\nAction 5: Feast c from a. Requires c craves a, Province c, Harmony. But Province c is not "
                             "present. Can't."),
    # review of 2026-12-05 (round 5)
    "'no longer' inside a state list under 'after X, the state is:' denies its fact":
        ("d21a6bd399e5ca05", "- (c no longer craves b)"),
    "'(from initial)' after a fact says where it came from, not that the sentence speaks of the initial state":
        ("6e3f7964d22c1f1a", "Province(a) is present (from step 3), Planet(a) is still there (from initial), Harmony "
                             "is present (from step 4)."),
    # review of 2026-12-05 (round 6)
    "'removed in step 1. So can't.' rejects the action talked of, not step 1":
        ("d21a6bd399e5ca05", "How to get x craves c? Overcome x from c requires Province c and Pain x.\n\n   Province c "
                             "was removed in step 1. So can't."),
    "'gone after step 1. Can't.' rejects the step just named, in the state after step 1":
        ("aad2a03968ef9d63", "Step 2: Attack b → requires Province b, Planet c, Harmony. But Harmony is gone after step "
                             "1. Can't."),
    "'after step 3, ... so step 4 can't be done' rejects step 4":
        ("371a2541262a6fbd", "But after step 3, Province a is removed, so step 4 can't be done."),
    "'State: ..., Pain b removed.' says only Pain b is gone":
        ("d21a6bd399e5ca05", "State: Harmony, Province a and b, Planet a and b, Pain b removed."),
    "the needs of the step just taken, named again a paragraph on, are judged before it":
        ("e3382e54e28b78e1", "So Succumb b would require Pain b (yes)."),
    # review of 2026-12-05 (round 7)
    "'Wait, step 6: X requires A (yes)' is judged before the list's step 6":
        ("e3382e54e28b78e1", "Wait, step 6: Overcome c from a requires Province a (yes) and Pain c (yes)."),
    "needs just listed, checked one by one in the next unit, are judged before the step":
        ("29cff79ec7f73409", "Then step 6: Overcome b from a requires Province a (other object) and Pain b. Province a "
                             "is present (yes), Pain b is present (yes)."),
    "'after step 1, we need to restore Harmony to Feast b from c' names a purpose, not a branch's step":
        ("aad2a03968ef9d63", "So, after step 1, we need to restore Harmony to Feast b from c. To do that, Succumb a (step "
                             "2):\n\nState: Province a, Planet a, Harmony, b→c."),
    "'State after step 3:' that cannot be placed is not judged in another state":
        ("aad2a03968ef9d63", "State after step 3: Province b, Planet a, Pain a, b craves c."),
    "'in the initial state, we could X' is judged in the initial state":
        ("b31b5310df38df12", "But in the initial state, we could Feast c from a, since c craves a, Province c, Harmony."),
    "'Now, can X: Requires ...' asks; it does not say X can be done":
        ("d21a6bd399e5ca05", "Now, can Overcome c from a: Requires Province a and Pain c."),
    "'step 2: X requires ...' followed by 'Can't.' rejects X where the list's step 2 stands":
        ("aad2a03968ef9d63", "But step 2: Attack b requires Province b, Planet c, Harmony. After step 1, Province b, "
                             "Planet c, Harmony is gone. Can't."),
    # review of 2026-12-05 (round 8)
    "'use X after generating Pain c via Feast' gives the effect to the earlier step, not to X":
        ("d21a6bd399e5ca05", "Alternatively, use Overcome c from a after generating Pain c via Feast."),
    "'Alternatively, in step 1, after X, ...' turns back to that state for what follows, not for the unit alone":
        ("aad2a03968ef9d63", "Alternatively, in step 1, after Feast a from b, Province b exists. Then, Feast b from c "
                             "requires Province b and Harmony. But Harmony is gone."),
    "a paragraph headed 'Pre:' under a step checks the step's needs, in the state before it (review 7)":
        ("6d91ceda125828c5", "So Province(a) is present, Pain(b) from step 1. So yes."),
    "'Step 5: X' in a list walked from its start is not a re-walk of the line's step 1 that is X":
        ("aad2a03968ef9d63", "Step 5: Feast a from b (but a no longer craves b). So can't."),
}


@pytest.mark.parametrize("case", list(REVIEWED_NOT_FALSE.values()), ids=list(REVIEWED_NOT_FALSE))
def test_reviewed_false_flags_stay_fixed(case: tuple[str, str]) -> None:
    trace_id, sentence = case
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == trace_id)
    at = row["trace"].index(sentence)
    from core.record import record_from_json
    from trace_parsers import parse_record
    steps = [s.span for s in parse_record(record_from_json(row)).graph]  # read as the audit reads it
    report = ClaimReader.for_task(*planning_task(row["problem"], row["domain"])[:2]).read(row["trace"], (), steps)
    end = at + len(sentence)
    here = [c for c in report.claims if c.span[0] < end and at < c.span[1]]
    # each review was of a sentence judged in the wrong state; what the sentence says an action needs
    # is judged on the schema, in no state ("Attack b requires ... Planet c": Attack b needs Planet b)
    assert [c.message for c in here if c.holds is False and "rule.needs_of" not in c.rules] == []
    assert sum(c.holds is not None for c in report.claims) > 20  # the trace is still read and judged


def test_a_fact_said_now_beside_another_labelled_initial_is_judged_now() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    said = "1. Attack a.\n\nSo now, can we Succumb a? All are present now (Pain({x}) from Attack step, Planet(b) initial)."
    assert [c.holds for c in reader.read(said.format(x="a")).claims if c.kind == "state"] == [True, True]
    assert [c.holds for c in reader.read(said.format(x="b")).claims if c.kind == "state"] == [False, True]


_LOST = "1. Attack a.\n\nAfter various steps, we lost Province b.\n\n"


def _false_actions(trace: str) -> list[str | None]:
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(trace)
    return [c.action or c.kind for c in report.claims if c.holds is False and not c.retracted]


def test_a_unit_opening_with_the_lines_last_action_places_a_lost_line_again() -> None:
    """"Alternatively, maybe after Attack a, ..." names the state the line left; "Since after
    Attack, ..., we can do X" then concludes in it, and is judged although a supposition precedes
    it (after Attack a only Pain a holds: Overcome c from b needs Pain c)."""
    opened = _LOST + ("Alternatively, maybe after Attack a, we have Pain and Province b. So if we have Province b "
                      "and Pain, we could Overcome something from b. ")
    assert _false_actions(opened + "Since after Attack, Province is b and Pain exists, we can do Overcome c from b.") \
        == ["(overcome c b)"]
    assert _false_actions(opened + "Maybe we can do Overcome c from b.") == []  # a supposition, unchecked
    # without the opening "after Attack a" the line stays lost, and nothing is judged on it
    assert _false_actions(_LOST + "So if we have Province b and Pain, we could Overcome something from b. "
                          "Since after Attack, Province is b and Pain exists, we can do Overcome c from b.") == []


def test_an_action_rejected_in_part_does_not_move_the_line() -> None:
    """"So can't Feast a." names Feast without its second object: a step rejected, not taken, so
    the line keeps its state (a step named in part and taken loses it)."""
    after = "\n\nAttack b:\n- Pain b added.\n\nState: Pain b, Province a, Harmony."
    assert _false_actions("1. Attack a.\n\n2. Succumb a.\n\nSo can't Feast a." + after) == ["state"]
    assert _false_actions("1. Attack a.\n\n2. Succumb a.\n\nSo we Feast a." + after) == []


def _rule_claims(trace: str) -> list[tuple[bool | None, str]]:
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(trace)
    return [(c.holds, c.message) for c in report.claims if "rule.role" in c.rules and not c.retracted]


def test_a_rule_stated_with_role_words_is_judged_against_the_schema() -> None:
    """"another object must be a Planet" gives Attack's Planet to an object that is none of its
    parameters (Attack x needs Planet x): a false rule; "the object" is the first parameter and
    "the other object" the second (role_rules.py)."""
    got = _rule_claims("So, the object that is being attacked must be a Province, another object must be a "
                       "Planet, and Harmony must be present.")
    assert [h for h, _ in got] == [True, False]
    assert "(planet <another object>)" in got[1][1]
    assert [h for h, _ in _rule_claims("Overcome requires Province (other object) and Pain (object).")] == [True]
    assert [h for h, _ in _rule_claims("Feast adds Pain other object.")] == [False]
    assert [h for h, _ in _rule_claims("Then, Attack requires Province (some object) and Harmony.")] == [False]


@pytest.mark.parametrize("sentence, verdicts", [
    ("But Feast actions add Province to the other object.", [True]),
    ("Feast adds Province to the object.", [False]),
    ("Feast gives Pain to the other object.", [False]),
    ("Feast gives Pain to the object.", [True]),
])
def test_a_fact_given_to_a_role_is_the_roles_fact(sentence: str, verdicts: list[bool]) -> None:
    """"adds Province to the other object" (an R1 sentence) names whose fact it is with "to", as "of"
    and "on" do: judged against the schema (role_rules.py)."""
    assert [h for h, _ in _rule_claims(sentence)] == verdicts


def test_role_words_that_name_the_actions_objects_or_are_denied_make_no_rule() -> None:
    assert _rule_claims("Feast object from other object adds Pain (object) and Province (other object).") \
        == [(True, "feast ?ob ?underob adds (province ?underob), of other object: right")]
    assert _rule_claims("Then, to get Province back, you need to Succumb to an object with Pain.") == []
    assert _rule_claims("But the problem doesn't say that Succumb removes any Planet.") == []
    assert _rule_claims("Maybe another object must be a Planet for Attack.") == []  # a guess


def test_a_claim_doubted_in_its_own_paragraph_is_taken_back() -> None:
    """thinking-claims.md: "a rule doubted within its own paragraph is retracted; one that stands
    past its paragraph counts"."""
    claim = "So Succumb object would require that the object is a Planet."
    same = _rule_claims(f"Okay.\n\n{claim} Wait, no, the Succumb action just requires Pain.")
    assert same == []
    apart = _rule_claims(f"Okay.\n\n{claim}\n\nSo that is settled.\n\nWait, no, the Succumb action just requires Pain.")
    assert [h for h, _ in apart] == [False]


def test_overwriting_a_fact_is_removing_it() -> None:
    """"Succumb a adds Planet a, which would overwrite Planet c" (review round 6) says Succumb a
    removes Planet c: a false effect, named as the removal it is."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read("1. Attack a.\n\n2. Succumb a adds Planet a, which would overwrite "
                                                    "Planet c.")
    false = [c.message for c in report.claims if c.holds is False]
    assert false and all("does not remove (planet c)" in m for m in false), false


def test_a_step_named_with_a_colon_is_judged_before_that_step() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    walk = "1. Attack a.\n2. Succumb a.\n3. Attack b.\n\nWait, step 2: Succumb a requires Pain {x} (yes)."
    reader = ClaimReader.for_task(task, vocab)
    assert [c.holds for c in reader.read(walk.format(x="a")).claims if c.kind == "state"] == [True]
    assert [c.holds for c in reader.read(walk.format(x="b")).claims if c.kind == "state"] == [False]


def test_can_without_a_subject_asks_and_with_one_asserts() -> None:
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    said = "1. Attack a.\n\nNow, {w} Succumb b: requires Pain b."
    asked = [c for c in reader.read(said.format(w="can")).claims if c.kind == "applicability"]
    claimed = [c for c in reader.read(said.format(w="we can")).claims if c.kind == "applicability"]
    assert asked == [] and [c.holds for c in claimed] == [False]


def test_a_removal_said_of_the_last_item_of_a_state_list_is_that_items_alone() -> None:
    """"State: ..., Province c is gone.": the last item has its own singular verb; "are gone"
    after the list denies every item."""
    assert _false_actions("1. Attack a.\n\nState: Pain a, Province b, Province c is gone.") == ["state"]
    assert _false_actions("1. Attack a.\n\nState: Pain a, Province b, Province c are gone.") == ["state"] * 3


def test_a_step_found_blocked_by_an_earlier_steps_removal_is_not_taken() -> None:
    """"4. Now, Feast b from c (requires ..., Harmony). But Harmony was removed in step 3." (R1,
    aad2a0): the model did not take Feast b from c, so the state it lists after its next step is
    judged without it; its one false item, "Province b is gone" (Province b still holds: Succumb
    a does not remove it), is the model's own error and stays flagged."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == "aad2a03968ef9d63")
    from core.record import record_from_json
    from trace_parsers import parse_record
    steps = [s.span for s in parse_record(record_from_json(row)).graph]
    report = ClaimReader.for_task(*planning_task(row["problem"], row["domain"])[:2]).read(row["trace"], (), steps)
    sentence = "State: Province a, Planet a, Harmony, b craves c, Province b is gone."
    at = row["trace"].index(sentence)
    here = [c for c in report.claims if c.span == (at, at + len(sentence))]
    assert len(here) == 5 and "(feast b c)" not in here[0].line_actions
    assert [str(c.atom) for c in here if c.holds is False] == [str(("province", "b"))]


def test_an_action_after_a_comma_that_ends_the_after_phrase_is_no_link_of_it() -> None:
    """"after Attack a, Succumb a to get Province a": Succumb a is the sentence's own (proposed)
    step, not a second action the state is after ("after Attack b, Succumb b, we have ..." is);
    the need checked next, "But Pain a is present", holds after Attack a (planted-claims set 5)."""
    assert _false_actions("1. Attack a.\n\n2. Succumb a.\n\nAlternatively, after Attack a, Succumb a to get "
                          "Province a.\n\nBut Pain a is present.") == []


def test_an_action_named_as_a_purpose_or_a_role_keeps_the_line() -> None:
    """"to unstack a block, the block being unstacked (red) needs to be clear": rule talk, no step
    taken, so the walk goes on and the next claim on it is judged (planted-claims set 5)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("5d1ebc"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]
    trace = ("So unstack red from orange. Wait, but to unstack a block, the block being unstacked (red) needs to be "
             "clear. Then I'll be holding red. Now orange still isn't clear.")
    claims = ClaimReader.for_task(task, vocab).read(trace).claims
    assert [(c.holds, c.message) for c in claims] == [
        (False, "says (clear c) (the orange block is clear) does not hold after (unstack a c), but it holds")]


def test_wordings_of_planted_set_5_are_read_as_claims() -> None:
    """Words for the current state, for a fact kept and for the goal reached, found missing by the
    fifth planted-claims set's first half: "stays clear", "right away", "at that point",
    "satisfies the goal" (each false here, or true where the state says so)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("5d1ebc"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]

    def judged(trace: str) -> list[tuple[str, bool | None]]:
        return [(c.kind, c.holds) for c in ClaimReader.for_task(task, vocab).read(trace).claims if c.holds is not None]

    walk = "So unstack red from orange. Then I'll be holding red. "
    assert judged(walk + "Red itself stays clear too.") == [("state", False)]  # held: not clear
    assert judged(walk + "So I could pick up blue right away too.") == [("applicability", False)]  # hand full
    assert judged(walk + "At that point orange is clear.") == [("state", True)]
    assert _false_actions("1. Attack a.\n\nThat satisfies the goal.") == ["goal"]


def test_an_action_that_would_be_possible_is_not_taken() -> None:
    """"Succumb a would also be possible": a conditional about doing it, not a step, so "Now Pain a
    is present" is judged after Attack a alone (planted-claims set 5)."""
    assert _false_actions("1. Attack a.\n\nSuccumb a would also be possible.\n\nNow Pain a is present.") == []
    assert _false_actions("1. Attack a.\n\nSuccumb a would still work at this point.\n\nNow Pain a is present.") == []
    assert _false_actions("1. Attack a.\n\nSuccumb a works.\n\nNow Pain a is present.") == ["state"]  # taken


_THREE = "1. Feast c from a.\n\n2. Succumb c.\n\n3. Attack b.\n\n"


def test_a_recap_that_tells_what_a_step_did_takes_no_new_step() -> None:
    """"After step 2, Succumb c added Harmony": the step the recap reached, told again, not a
    branch's next step; the paragraph's "so ..." after it may speak of step 2 or of the line's
    state, so it is judged where both agree (row state.both_readings). What another step did
    ("after step 3, ... Wait, after step 1: Feast c from a adds ...") leaves the state unplaced."""
    told = _THREE + "After step 2, Succumb c added Harmony. "
    assert _false_actions(told + "So Harmony is present.") == []  # after step 2 it holds; after step 3 not
    assert _false_actions(told + "So Pain c is present.") == ["state"]  # false after either
    back = _THREE + "But after step 3, Pain b is present (from Attack b), Wait, after step 1: Feast c from a adds " \
        "Province a.\n\n"
    assert _false_actions(back + "So Pain c is still present.") == []


def test_planted_claims_set_5_floor() -> None:
    """False claims a tester planted, one per copy, into clean R1 traces (tests/data/
    planted_claims_set5.jsonl; bench/planted_score.py). Rules were built on half P; half Q is the
    figure to trust. Measured when the set was made: P 4/17, Q 3/23; after the readings built on
    P: P 10/17, Q 5/23. No copy may gain a flag away from its plant."""
    import bench.planted_score as ps

    if not ps.BASES.exists():
        pytest.skip("needs ../shared/data/dev/planbench_r1_thinking.jsonl")
    result = ps.score(ps.load_plants())
    for half in ("P", "Q"):
        print("\nplanted set 5, " + result.summary(half))
    found = {h: sum(v for k, v in result.found.items() if k[0] == h) for h in ("P", "Q")}
    assert found["P"] >= 16 and found["Q"] >= 9  # 2026-12-08: Q 9 (the step named by a noun); 2026-12-06: P 14/17 ("once" goals, agreeing states, rules after a supposition), 16 (would still work, a step told again), Q 9/23
    # 2026-12-07: Q 8/23. One effect plant was found by a state list that read "doesn't change" as a
    # denial of the fact; "doesn't change" is now kept.same (the fact left as it was), judged only
    # against a step just taken (test_unchanged_is_no_claim_that_the_fact_holds), and that plant is missed
    assert result.caused["P"] == result.caused["Q"] == 0


def test_an_aside_between_an_object_and_its_fact_is_read_past() -> None:
    """"Red, on the other hand, isn't clear right now." reads as "Red isn't clear right now"
    (planted-claims set 5): after Unstack red from orange, orange is clear, red is held."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("5d1ebc"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]
    walk = "So unstack red from orange. Then I'll be holding red. "
    for aside, holds in (("Orange, on the other hand, isn't clear right now.", False),
                         ("Orange, however, is clear now.", True)):
        claims = ClaimReader.for_task(task, vocab).read(walk + aside).claims
        assert [(c.kind, c.holds) for c in claims if c.holds is not None] == [("state", holds)], aside


def test_a_paragraph_headed_pre_under_a_step_is_judged_before_it() -> None:
    """"2. Succumb a.\n\nPre: Pain a ... So Pain a is present.": the needs of step 2, so before it;
    under "Post:" the same words speak of the state after it (Succumb a removes Pain a)."""
    walk = "1. Attack a.\n\n2. Succumb a.\n\n"
    assert _false_actions(walk + "Pre: Pain a (is it there?). Wait, Attack a added it. Yes. So Pain a is present.") == []
    assert _false_actions(walk + "Post: Province a. Wait, Succumb a added it. Yes. So Pain a is present.") == ["state"]


def test_an_action_named_with_no_objects_said_doable_is_judged_on_every_grounding() -> None:
    """"Initial Province is c, Planet is b, Harmony is present. So Attack could be done." (R1,
    450898, the trace's first root in an outside annotation: R1 pairs one object's Province with
    another's Planet): true when some grounding fits the state, false when none does; a question
    ("Let's see how ...") and a bare name that speaks of the step in focus are not such claims."""
    assert _false_actions("1. Attack a.\n\nSo Feast could be done now.") == ["applicability"]  # no craving
    assert _false_actions("1. Attack a.\n\nSo Succumb could be done now.") == []  # Succumb a: Pain a
    assert _false_actions("1. Attack a.\n\nLet's see how Feast can do that.") == []
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == "4508982184ee927b")
    from core.record import record_from_json
    from audit import audit_record
    first = audit_record(record_from_json(row)).verdict.to_json()["invalid_steps"][0]
    assert first["rule"] == "false_applicability_claim" and "So Attack could be done." in first["message"]


def test_a_rule_heading_naming_an_action_keeps_the_line() -> None:
    """"Attack object:" over "- Pre: ..." bullets lays out the rule; no step was taken, so the walk
    after it is judged (R1, 450898)."""
    assert _false_actions("Attack object:\n- Pre: Province, Planet, Harmony.\n\nSo Attack a. Now Harmony holds.") \
        == ["state"]


def test_blocksworld_wordings_of_planted_set_6_are_facts() -> None:
    """"X has Y sitting on it", "free on top", "in hand", "nothing sits on X" (set 6, half R)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("5d1ebc"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]
    walk = "So unstack red from orange. Then I'll be holding red. "
    for sentence, holds in (("Orange, meanwhile, still has red sitting on it.", False), ("Now orange is free on top.", True),
                            ("Now red is in hand.", True), ("Now nothing sits on orange.", True)):
        claims = ClaimReader.for_task(task, vocab).read(walk + sentence).claims
        assert [(c.kind, c.holds) for c in claims if c.holds is not None] == [("state", holds)], sentence


def test_a_rule_headed_with_another_object_binds_its_variables() -> None:
    """"**Feast object X from another object Y:**" then "- Adds: Pain Y, Province Y." (R1, d21a6b:
    the trace's first root in an outside annotation, Feast read as giving Pain to Y)."""
    (task, vocab, _, _), _ = _mystery_task()
    trace = ("**Feast object X from another object Y:**\n- Requires: X craves Y, Province X, Harmony.\n"
             "- Adds: Pain Y, Province Y.")
    claims = ClaimReader.for_task(task, vocab).read(trace).claims
    assert [c.message for c in claims if c.holds is False] == ["says feast x y adds (pain y), but it adds (pain x), (province y)"]


def test_a_bare_action_said_doable_in_a_paragraph_on_the_initial_state_is_judged_there() -> None:
    """"The initial state has Province b, Planet a, Harmony. So possible first steps: ... So Attack
    could be done here." (R1, 371a25, the trace's first root in an outside annotation): judged in
    the initial state, although an earlier rule told with no object left the line unplaced."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == "371a2541262a6fbd")
    from core.record import record_from_json
    from audit import audit_record
    first = audit_record(record_from_json(row)).verdict.to_json()["invalid_steps"][0]
    assert "So Attack could be done here." in first["message"] and "no attack is applicable" in first["message"]


def test_effects_a_paragraph_each_under_an_after_heading_are_that_actions() -> None:
    """"After Feast c from a:\\n\\nAdds Pain a, Province a.\\n\\nRemoves ..." (R1, 450898: a root in an
    outside annotation, Feast read as giving Pain to the other object): judged against the schema,
    which needs no state, so also on a line whose state is lost."""
    (task, vocab, _, _), _ = _mystery_task()
    trace = "After Feast c from a:\n\nAdds Pain a, Province a.\n\nRemoves c craves a, Province c, Harmony."
    claims = ClaimReader.for_task(task, vocab).read(trace).claims
    assert [c.message for c in claims if c.holds is False] == [
        "(feast c a) does not add (pain a) (pain object a); it adds (pain c), (province a)"]
    assert sum(c.holds is True for c in claims) == 4


def test_outside_root_annotation_floor() -> None:
    """Roots an outside annotator marked in four unannotated R1 traces (tests/data/
    roots_outside_r1.jsonl, bench/roots_score.py): 0 of 7 roots and 0 of 4 first roots were found
    when they were marked; the readings built on them since find 4 and 3 (no held-out figure)."""
    import bench.roots_score as rs

    if not rs.TRACES.exists():
        pytest.skip("needs ../shared/data/dev/planbench_r1_thinking.jsonl")
    result = rs.score()
    print(f"\noutside roots: {result['roots_found']}/{result['roots']}, first {result['first_located']}/{result['traces']}")
    assert result["roots_found"] >= 4 and result["first_located"] >= 3


def test_a_rule_of_needs_told_without_objects_is_judged_on_the_schema() -> None:
    """"Succumb needs Province." (row rule.req; its needs were never judged before: only adds and
    removals were) is false, "Attack requires Province, Planet, and Harmony." true; "Stacking, on
    the other hand, only needs an empty hand." false in Blocksworld (planted set 6, half R)."""
    (task, vocab, _, _), _ = _mystery_task()

    def rules(trace: str, t=task, v=vocab) -> list[bool | None]:
        return [c.holds for c in ClaimReader.for_task(t, v).read(trace).claims if c.kind == "rule"]

    assert rules("Succumb needs Province.") == [False]
    assert rules("Attack requires Province, Planet, and Harmony.") == [True, True, True]
    assert rules("Succumb X needs Province X.") == [False]  # once, as the rule with X bound
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("29ce88"))
    bw_task, bw_vocab = planning_task(row["problem"], row["domain"])[:2]
    assert rules("Stacking, on the other hand, only needs an empty hand.", bw_task, bw_vocab) == [False]


def test_an_effect_claimed_through_a_purpose_is_judged_on_the_schema() -> None:
    """"3. Feast c from b to get Province c and Pain c." (R1, e3382e: a root in an outside
    annotation) says Feast c from b gives both: Province c is false (it gives Province b). A far aim
    of another predicate ("Attack a to get a craves c") is no such claim."""
    (task, vocab, _, _), _ = _mystery_task()

    def effects(trace: str) -> list[tuple[bool | None, str]]:
        return [(c.holds, c.message.split(";")[0]) for c in ClaimReader.for_task(task, vocab).read(trace).claims
                if c.kind == "effect"]

    assert effects("1. Feast c from b to get Province c and Pain c.") == [
        (False, "(feast c b) does not add (province c) (province object c)"), (True, "(feast c b) adds (pain c) (pain object c): right")]
    assert effects("To create c craves a, we need Overcome a from c.") == [
        (False, "(overcome a c) does not add (craves c a) (object c craves object a)")]
    assert effects("To get Pain a, Attack a.") == [(True, "(attack a) adds (pain a) (pain object a): right")]
    assert effects("Attack a to get a craves c.") == []
    assert _false_actions("1. Attack a.\n\n2. Overcome b from c to get b craves c.") == []  # a step proposed, not said doable


def test_the_needs_said_of_a_named_action_are_judged_on_its_schema() -> None:
    """"Suppose we Feast a from c, but that would require Craves(c, a), Province a, and Harmony."
    (R1, b31b53: a root in an outside annotation) and "Attack b requires Province b, Planet c,
    Harmony." (R1 reading Attack as taking whatever Planet there is): rule claims about the
    action, wherever they stand; a parenthesis after a need is the state, not a need."""
    (task, vocab, _, _), _ = _mystery_task()

    def needs(trace: str) -> list[bool | None]:
        return [c.holds for c in ClaimReader.for_task(task, vocab).read(trace).claims if "rule.needs_of" in c.rules]

    assert needs("Suppose we Feast a from c, but that would require Craves(c, a), Province a, and Harmony.") == [False, True, True]
    assert needs("Attack b requires Province b, Planet c, Harmony.") == [True, False, True]
    assert needs("Feast b from a: Requires b craves a (yes), Province b (no, Province is a), Harmony (yes).") == [True, True, True]


def test_facts_said_to_allow_step_k_are_judged_before_it() -> None:
    """"Orange is on the table and clear at that point, so step 3 is allowed." after the whole list:
    step 3's needs, in the state before step 3; and "Picking up orange straight away would also be
    allowed." is no step taken (planted set 7, two of its first precision failures)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("a5ee9a"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]

    def judged(trace: str) -> list[tuple[str, bool | None]]:
        return [(c.kind, c.holds) for c in ClaimReader.for_task(task, vocab).read(trace).claims if c.holds is not None]

    walk = "1. Pick up red.\n2. Stack red on blue.\n3. Pick up orange.\n4. Stack orange on red.\n\n"
    # the conclusion is an applicability claim on step 3 itself (row app.step_allowed)
    assert judged(walk + "Orange is on the table and clear at that point, so step 3 is allowed.") == [
        ("applicability", True)] + [("state", True)] * 2
    assert judged(walk + "Orange is held at that point, so step 3 is allowed.") == [("applicability", True), ("state", False)]
    assert judged("Picking up orange straight away would also be allowed.\n\nNow the hand is empty.") == [("state", True)]


def test_planted_claims_set_7_floor() -> None:
    """Set 7 (tests/data/planted_claims_set7.jsonl: 36 false and 18 true sentences by a third
    tester, in set 5's traces, in other words) was scored once, blind, on the code of its day:
    5 of 36 false found, 1 of 18 true flagged, 1 of 54 copies flagged away from its plant. The two
    precision failures are fixed since (each a test); its recall is the held-out figure to beat."""
    import bench.planted_score as ps

    if not ps.BASES.exists():
        pytest.skip("needs ../shared/data/dev/planbench_r1_thinking.jsonl")
    result = ps.score(ps.load_plants(ps.SETS["7"]))
    print("\nplanted set 7, " + result.summary("H"))
    assert sum(result.found.values()) >= 9 and result.true_flagged["H"] == 0 and result.caused["H"] == 0  # 9 on 2026-12-08


def test_an_action_word_used_as_a_noun_keeps_the_line() -> None:
    """"So the stack is red → orange" and "since the initial stack is red (clear) on orange" name
    no step (planted set 6, half R: the line was lost there, and every claim after it unjudged)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("5d1ebc"))
    task, vocab = planning_task(row["problem"], row["domain"])[:2]
    for lead in ("So the stack is red → orange, with orange on the table.",
                 "First, since the initial stack is red (clear) on orange, we start there."):
        claims = ClaimReader.for_task(task, vocab).read(lead + " So unstack red from orange. Now orange is not clear.").claims
        assert [(c.kind, c.holds) for c in claims if c.holds is not None] == [("state", False)], lead


def test_an_action_said_in_the_passive_after_a_modal_is_judged() -> None:
    """"Orange could be picked up right now as well." and "Red can't be stacked on orange yet"
    (planted sets 7 and 6): the subject is the action's first object; "could be" before an action
    says it is doable, not a guess. "blue is on red" (a fact) is read as before."""
    reader = _bw_reader()
    held = reader.read("1. Unstack blue from red. Now holding blue. Red could be picked up right now as well.")
    assert [(c.action, c.holds, c.rules) for c in held.claims if c.kind == "applicability"] == [
        ("(pick-up a)", False, ("app.can",))]
    down = reader.read("1. Unstack blue from red. 2. Put down blue. Red can be picked up in this state.")
    assert [(c.action, c.holds) for c in down.claims if c.kind == "applicability"] == [("(pick-up a)", True)]
    assert [(m.name, m.args) for m in reader.words.actions(read_text("Blue could be stacked straight onto red now.")
                                                           .units[0].tokens)] == [("stack", ("b", "a"))]
    cant = reader.read("1. Unstack blue from red. Now holding blue. Blue can't be stacked on red yet.")
    assert [(c.action, c.holds, c.negative) for c in cant.claims if c.kind == "applicability"] == [
        ("(stack b a)", False, True)]


def test_a_step_found_blocked_three_sentences_on_is_not_taken() -> None:
    """"5. Overcome c from a. To make c crave a. Requires Province a and Pain c. But Pain c is not
    present." (R1, outside roots set 3): the model found the step blocked; the state after it is
    the one before it, so the next state list is judged there."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack a.\n\n2. Overcome b from c. To make b crave c. Requires Province c and Pain b. "
        "But Pain b is not present.\n\nState: Pain a, Province c.")
    assert [a.text() for a in report.lines[-1].actions] == ["(attack a)"]
    assert [(c.kind, c.holds) for c in report.claims if c.text.startswith("State")] == [("state", True)] * 2


def test_a_recap_that_names_its_step_is_placed_by_that_step() -> None:
    """"After step 1 (Feast b from a):" in a list whose items 1 and 2 hold no step (R1, outside roots
    set 3): the state is the line's after the action named, not a lost line; but not when the
    next action of the line is no later item, which the model's step 1 may include."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    named = reader.read("So steps:\n\n1. Create Pain a.\n\nHow? Attack a.\n\n2. Now, Province b is present.\n\n"
                        "3. Overcome a from b.\n\nAfter step 1 (Attack a):\n\n- Harmony: Yes.")
    assert [e.kind for e in named.events if e.rule == "recap"] == []
    assert [(c.holds, c.message) for c in named.claims if c.text == "- Harmony: Yes."] == [
        (False, "says (harmony) holds after (attack a), but it does not hold")]
    told = reader.read("So step 1: Attack a. Then, I can Succumb a.\n\nAfter step 1:\n\n- Harmony: Yes.")
    assert [c.holds for c in told.claims if c.text == "- Harmony: Yes."] in ([], [None])


def test_a_step_that_did_not_add_a_fact_is_no_step_rejected() -> None:
    """"So Attack b requires Province b (yes), Planet b (no, step 6 didn't add Planet b), so can't
    Attack b." (R1): the step named is when the fact changed; what is rejected is Attack b."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack a.\n\n2. Succumb a.\n\nSo Attack b requires Province b (yes), Planet b (no, step 2 didn't add "
        "Planet b), so can't Attack b.")
    assert [(c.action, c.holds) for c in report.claims if c.kind == "applicability"] == [("(attack b)", False)]


def test_a_paragraph_that_says_right_now_goes_on_describing_that_state() -> None:
    """"Hmm, so right now, blue is on red. Red is on the table. Blue isn't clear, though, since it's
    sitting on red." (planted set 8): the plain facts after "right now" in its paragraph are the
    state too ("Hmm," hedges nothing); not beside a step just taken, whose needs are checked in
    the same words, and not once the line has moved."""
    reader = _bw_reader()
    report = reader.read("Hmm, so right now, blue is on red. Red is on the table. Blue isn't clear, though, "
                         "since it's sitting on red.")
    assert [(c.rules, c.holds) for c in report.claims] == [
        (("state.list",), True), (("state.said_now",), True), (("state.said_now",), False)]
    beside = reader.read("1. Unstack blue from red. Red is now clear. So blue is clear.")
    assert [c.rules for c in beside.claims if c.text == "So blue is clear."] in ([], [("state.plain",)])
    assert not [c for c in beside.claims if "state.said_now" in c.rules]


def test_so_i_can_opening_a_sentence_is_a_claim_and_adverbs_sit_between_objects() -> None:
    """"So I can pick up red right away, without putting blue down first." and "I could stack blue
    directly onto orange as the first move" (planted set 8): a conclusion, not the purpose of "...
    so I can pick up red"; "directly" does not end the action's objects."""
    reader = _bw_reader()
    held = reader.read("1. Unstack blue from red. So I can pick up red right away, without putting blue down first.")
    assert [(c.action, c.holds) for c in held.claims if c.kind == "applicability"] == [("(pick-up a)", False)]
    purpose = reader.read("1. Unstack blue from red. 2. Put down blue so I can pick up red.")
    assert [c for c in purpose.claims if c.kind == "applicability"] == []
    assert [(m.name, m.args) for m in reader.words.actions(read_text("stack blue directly onto red").units[0].tokens)] \
        == [("stack", ("b", "a"))]


def test_a_paragraph_that_recalls_a_past_state_leaves_its_now_claims_unjudged() -> None:
    """"Wait, after unstacking Blue from Red, ... So we can pick up Red (since it's on table and
    clear)" once the walk has gone on (R1, 40 traces): "we can" may speak of the state recalled."""
    reader = _bw_reader()
    report = reader.read("1. Unstack blue from red. 2. Put down blue. 3. Pick up red. 4. Stack red on blue.\n\n"
                         "Wait, after unstacking blue from red, we have to put blue down. So we can pick up red "
                         "(since it's on the table and clear).")
    assert [c for c in report.claims if c.kind == "applicability" and c.text.startswith("So we can")] == []


def test_fact_lines_under_an_after_heading_are_its_state_even_a_paragraph_each() -> None:
    """"So after Attack c, we have:" over "Harmony: No.", "Pain c: Yes.", "b craves a: No (removed)."
    with blank lines between (planted set 8; R1 writes one line a paragraph): the tagged facts are
    the state after Attack c; the heading ends at the first line that is more than facts."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack c.\n\nSo after Attack c, we have:\n\nHarmony: Yes.\n\nPain c: Yes.\n\nProvince a: No.\n\n"
        "Now, can we use Overcome here?\n\nPlanet b: No.")
    assert [(c.text, c.holds) for c in report.claims if "fact.tag" in c.rules] == [
        ("Harmony: Yes.", False), ("Pain c: Yes.", True), ("Province a: No.", False)]


def test_plural_predicates_list_their_objects() -> None:
    """"- Provinces: c, b.", "- Planets a and b." (R1 writes its states so, a line each under
    "State:"): each object listed has the predicate; "initial planets are a and c, Planet b isn't
    there" denies Planet b alone."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    report = reader.read("1. Attack c.\n\nState:\n\n- Provinces: a, b.\n\n- Planets a and c.\n\n- Harmony: Yes.")
    assert [(c.atom, c.holds) for c in report.claims] == [
        (("province", "a"), True), (("province", "b"), True), (("planet", "a"), True), (("planet", "c"), False),
        (("harmony",), False)]
    mixed = reader.read("But initial planets are a and c, Planet b isn't there.")
    assert [(c.atom, c.negative) for c in mixed.claims] == [
        (("planet", "a"), False), (("planet", "c"), False), (("planet", "b"), True)]


def test_an_after_heading_is_judged_from_where_the_line_took_that_action() -> None:
    """"After step 1 (Feast b from a):" once the walk has gone on: its lines are the state after the
    line's own Feast b from a, not Feast b from a applied to where the walk is now (R1, e3382e)."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack a.\n\n2. Succumb a.\n\n3. Attack b.\n\nAfter Attack a:\n\n- Planets: b and c.")
    assert [(c.atom, c.holds) for c in report.claims if c.text.startswith("- Planets")] == [
        (("planet", "b"), True), (("planet", "c"), True)]


def test_a_walk_from_the_initial_state_starts_a_line_there() -> None:
    """"Initial state: Attack a → Pain a, no harmony, provinces b, planets c." after a line that
    went elsewhere (R1, 9cdaf3): the arrow walk starts from the initial state."""
    (task, vocab, _, _), _ = _mystery_task()
    report = ClaimReader.for_task(task, vocab).read(
        "1. Attack b.\n\n2. Succumb b.\n\n3. Attack c.\n\nAlternative plan:\n\n"
        "Initial state: Attack a → Pain a, no harmony, provinces b, planets c.")
    arrow = [(c.atom, c.holds) for c in report.claims if c.text.startswith("Initial state")]
    assert arrow == [(("pain", "a"), True), (("harmony",), True), (("province", "b"), True), (("planet", "c"), True)]


def test_a_goal_claim_with_a_negation_in_another_clause_and_a_proposed_first_step() -> None:
    """"6. Stack Red onto Orange. ... That finishes the goal, so the last two steps aren't needed."
    (planted set 6, half R): the negation is another clause's. "So first action could be unstack
    Blue from Red. Then I'm holding Blue." (R1's hypothetical walk): the walk starts with the step
    proposed, and "So I can unstack blue" after it names that step again (the line is kept)."""
    reader = _bw_reader()
    done = reader.read("1. Unstack blue from red. That finishes the goal, so the last two steps aren't needed.")
    assert [(c.kind, c.holds) for c in done.claims] == [("goal", False)]
    assert [(c.kind, c.holds) for c in reader.read("1. Unstack blue from red. The goal is not met yet.").claims] == [
        ("goal", True)]
    walk = reader.read("So first action could be unstack Blue from Red. So I can unstack Blue from Red. "
                       "Then I can stack Blue onto Red. At that point the goal is already satisfied.")
    assert [a.text() for a in walk.lines[-1].actions] == ["(unstack b a)", "(stack b a)"]
    assert [(c.kind, c.holds) for c in walk.claims if c.kind == "goal"] == [("goal", False)]
    assert [c.kind for c in reader.read("Step 1 done. The goal condition is already true.").claims] == []


def _planted_floor(which: str, floors: dict[str, int]) -> None:
    """A planted set's floor: at least `floors[half]` false sentences found in each half, no true
    one flagged and no flag caused away from a plant."""
    import bench.planted_score as ps

    if not ps.BASES.exists():
        pytest.skip("needs ../shared/data/dev/planbench_r1_thinking.jsonl")
    result = ps.score(ps.load_plants(ps.SETS[which]))
    for half in floors:
        print(f"\nplanted set {which}, " + result.summary(half))
    for half, floor in floors.items():
        assert sum(v for k, v in result.found.items() if k[0] == half) >= floor, half
        assert result.true_flagged[half] == 0 and result.caused[half] == 0, half


def test_planted_claims_set_8_and_outside_roots_set_3_floors() -> None:
    """Set 8 (41 false, 12 true sentences in R1's style, in the four right-answer traces no set had
    used) scored blind: X 7/21, Y 5/20, 1 of 12 true flagged. Built on half X only: X 10/21, Y 6/20
    (Y never looked at), no true sentence flagged. Outside roots set 3 (every false claim of the
    same four traces) blind: roots 1/7, claims 1/18; built on e3382e: roots 3/7, claims 7/18."""
    import bench.roots_score as rs

    _planted_floor("8", {"X": 19, "Y": 18})  # 2026-12-08: X 19 (a fact's source is no restart), Y 18 (doesn't change whether); 2026-12-06: X 16 (effects told after "That", recalls on lost lines), 17 (anymore), 18 (bullets inside a bullet), Y 12 (can only), 13 (it after a bound rule)
    roots = rs.score(rs.SETS["3"])
    print(f"outside roots set 3: {roots['roots_found']}/{roots['roots']}, claims {roots['claims_found']}/{roots['claims']}")
    assert roots["roots_found"] >= 3 and roots["claims_found"] >= 7


def test_a_plan_written_out_in_one_sentence_and_said_to_work_is_replayed() -> None:
    """Row verdict.inline, from planted set 8's half X: 'steps 2 and 3 can be dropped: A, B, ...
    also works' is replayed from the initial state; a wrong one is flagged where it fails, 'wouldn't
    work' of a plan that works is false, and a part of a plan said to work is not judged on the goal."""
    plant = next(p for p in map(json.loads, (REPO / "tests" / "data" / "planted_claims_set8.jsonl").open())
                 if p["id"] == "53")
    base = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == plant["base_id"])
    task, vocab, _, _ = planning_task(base["problem"], base["domain"])
    reader = ClaimReader.for_task(task, vocab)
    plan = "Feast b from a, Succumb b, Attack c, Overcome c from a, Attack b, Overcome b from c"

    def verdicts(sentence: str) -> list:
        text = base["trace"][:plant["at"]] + sentence + "\n" + base["trace"][plant["at"]:]
        at = plant["at"]
        return [c for c in reader.read(text).claims
                if "verdict.inline" in c.rules and at <= c.span[0] < at + len(sentence)]

    right = verdicts(f"Actually, steps 2 and 3 can be dropped: {plan} also works.")
    assert [(c.holds, c.negative) for c in right] == [(True, False)]
    skipped = verdicts(f"Actually, steps 2 and 3 can be dropped: {plan.replace('Succumb b, ', '')} also works.")
    assert [c.holds for c in skipped] == [False] and "step 2, (attack c)" in skipped[0].message
    denied = verdicts(f"Actually, {plan} wouldn't work.")
    assert [(c.holds, c.negative) for c in denied] == [(False, True)]
    assert verdicts("Actually, Feast b from a, Succumb b works.") == []  # a part: the goal is not its claim
    assert [c.holds for c in verdicts("Actually, the plan Feast b from a, Succumb b works.")] == [False]
    assert verdicts(f"Maybe {plan} would work?") == []
    # the verdict before the plan, and "followed by" between its actions
    first = reader.read("Though six steps would do it too: " + plan.replace("Succumb b, ", "") + ".").claims
    assert [(c.holds, c.rules[0]) for c in first] == [(False, "verdict.inline_first")]
    assert [c.holds for c in verdicts(f"Actually, {plan.replace(', Attack c', ' followed by Attack c')} also works.")] \
        == [True]


def test_planted_claims_set_9_floor() -> None:
    """Set 9 (40 false, 12 true sentences by a fifth tester, in four traces of held-out halves of
    earlier sets) scored blind: U 4/20, V 7/20, no true sentence flagged. Built on half U only
    (plain facts after the initial state laid out, an outline's item 1 that lays it out, 'straight
    away', a plan said to work before it is written out, 'followed by'): U 10/20, V 7/20 (V never
    looked at)."""
    _planted_floor("9", {"U": 19, "V": 13})  # 2026-12-08: V 13; 2026-12-07: V 11 (had and not had, probed forms); 2026-12-06: U 15 (rules denied, facts without objects), 16 (a time word reaching back), 17 (can only), 18 (would still work)


def test_planted_claims_set_6_floor() -> None:
    """Set 6 (20 false and 10 true sentences per half): built on half R (13/20 on 2026-12-06: a
    recap placed by its facts), half S held out (9/20); no true one flagged, none caused away."""
    _planted_floor("6", {"R": 15, "S": 10})  # 2026-12-08


def test_planted_claims_set_10_floor() -> None:
    """Set 10 (20 false, 4 true sentences by a sixth tester with their own STRIPS simulator, in the
    four right-answer traces no earlier set used: half A = 1d9004 + 0cd273, half B = ea1fa7 +
    e4d2ff) scored blind on the code of 2026-12-06: A 2/10, B 2/10, no true sentence flagged, no
    flag caused away from a plant. Nothing is built on it yet: both halves are held out."""
    _planted_floor("10", {"A": 2, "B": 2})


def test_plain_facts_after_the_initial_state_laid_out_are_judged_there() -> None:
    """Rows state.said_initial and event.initial_item, from planted set 9's half U."""
    bw = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == "6ccdb4c49ed842e4")
    task, vocab, _, _ = planning_task(bw["problem"], bw["domain"])
    reader = ClaimReader.for_task(task, vocab)
    text = ("The initial state is that the red block is on the orange block, and both red and blue are clear. "
            "So orange is clear as well. The hand is empty.")
    got = [(c.text, c.holds, c.rules) for c in reader.read(text).claims if "state.said_initial" in c.rules]
    assert got == [("So orange is clear as well.", False, ("state.said_initial",)),
                   ("The hand is empty.", True, ("state.said_initial",))]
    # "Then stack on blue." loses the line (an action without its objects); item 1 laying out the
    # initial state starts the walk again there, and the claim after it is judged
    walk = ("Unstack red from orange. Then stack on blue.\n\n1. The initial state: red on orange, orange on table. "
            "Blue on table.\n\nI could stack red on blue right now, since blue is clear.")
    judged = [(c.holds, c.action) for c in reader.read(walk).claims if c.kind == "applicability"]
    assert judged == [(False, "(stack a b)")]
    lost = walk.replace("1. The initial", "The initial")
    assert [c for c in reader.read(lost).claims if c.kind == "applicability"] == []


def _six_reader() -> ClaimReader:
    bw = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"] == "6ccdb4c49ed842e4")
    return ClaimReader.for_task(*planning_task(bw["problem"], bw["domain"])[:2])


def test_a_one_object_fact_named_without_its_object_comes_from_its_templates() -> None:
    """"{} is on the table" gives "on the table" alone: rules name facts so. Its object, when
    written, still wins ("red is on the table" is the fact of red)."""
    reader = _six_reader()
    words = reader.words
    text = "Stacking needs the target block to be clear and on the table. Blue is on the table."
    facts = [(f.predicate, f.atom) for f in words.facts(tokens_of(text, 0, len(text)))]
    assert ("ontable", None) in facts and ("ontable", ("ontable", "b")) in facts
    rules = [(c.holds, c.rules) for c in reader.read(text.split(". ")[0] + ".").claims]
    assert (False, ("rule.req",)) in rules  # stack needs no ontable fact


def test_a_rule_denied_is_judged_in_its_own_clause_only() -> None:
    """Row rule.denied: "doesn't need it to be clear" is false for pick-up; "just on the table with
    the hand empty", after the comma, is what it does need, and is not read as denied."""
    reader = _six_reader()
    got = [(c.holds, c.message) for c in reader.read(
        "Picking up a block doesn't actually need it to be clear, just on the table with the hand empty.").claims
        if "rule.denied" in c.rules]
    assert got == [(False, "says pick-up does not need clear, but it does: pick-up needs a clear fact")]
    right = [c.holds for c in reader.read("Picking up a block doesn't need it to be on top of anything.").claims]
    assert False not in right


def test_wouldnt_be_possible_is_a_rejection_and_takes_no_step() -> None:
    """"wouldn't" is a negation, and a negation before "possible" with only "even", "be", "really"
    between is a rejection: the action is not performed and not presented as doable."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    report = reader.read("Succumb a wouldn't even be possible now, with Harmony gone.")
    assert not [c for c in report.claims if c.kind == "applicability" and "doable" in c.message]
    assert all("(succumb a)" not in a.text() for line in report.lines for a in line.actions)


def test_would_be_possible_with_its_reason_is_the_models_check() -> None:
    """"X would be possible, since <facts>" asserts X doable now; without the reason it stays a
    guess (a step to come may mean the steps before it), and "... are there." asks nothing."""
    reader = _six_reader()
    checked = [(c.holds, c.rules) for c in reader.read(
        "I could see that stacking red on blue would be possible, since blue is clear.").claims
        if c.kind == "applicability"]
    guessed = [c for c in reader.read("So stacking red on blue would be possible.").claims if c.kind == "applicability"]
    assert guessed == []
    (task, vocab, _, _), _ = _mystery_task()
    mystery = ClaimReader.for_task(task, vocab)
    got = [(c.holds, c.rules) for c in mystery.read(
        "Attack c would be possible too, since Province c and Harmony are there.").claims if c.kind == "applicability"]
    assert got == [(True, ("app.can",))]
    assert checked == [(False, ("app.can",))]  # red is not held


def test_paragraphs_telling_the_step_just_taken_keep_the_text_at_it() -> None:
    """Row event.step_told: "Pre:", "Post:" and "Removes" paragraphs after a step are about that
    step, so a "State:" list after them is the state after it, however many paragraphs they take."""
    reader = _six_reader()
    told = ("Step 1: Unstack red from orange.\n\nPre: red is clear (yes), hand empty (yes).\n\n"
            "Post: holding red, orange clear.\n\nRemoves red on orange, hand empty.\n\nState:\n\n- Red is on the table.")
    got = [(c.holds, c.rules) for c in reader.read(told).claims if c.kind == "state" and "table" in c.text]
    assert got == [(False, ("state.list",))]
    # the same list after a paragraph about something else is not placed
    away = told.replace("Removes red on orange, hand empty.", "Let me think about the goal again for a moment.")
    assert [c for c in reader.read(away).claims if c.kind == "state" and "table" in c.text and c.holds is False] == []


def test_inner_adverbs_do_not_hide_a_cue() -> None:
    """"would also be possible" is "would be possible", "is also back" is "is back"."""
    from validators.reading.cues import lexicon as cues
    text = "Feast a from c would also be possible, and Planet a is also back. Attack a isn't even possible."
    hits = {(h.cls, " ".join(t.norm for t in tokens_of(text, 0, len(text))[h.i:h.j])) for h in cues().hits(
        tokens_of(text, 0, len(text)))}
    assert {("guess", "would also be"), ("yes", "is also back"), ("cant", "isn't even possible")} <= hits


def test_an_object_with_a_possessive_fills_its_slot() -> None:
    """"c's craving for b" (phrasings.json: "{}'s craving for {}") is the fact (craves c b)."""
    (task, vocab, _, _), _ = _mystery_task()
    words = TaskWords.of(task, vocab)
    text = "Attacking a also clears away c's craving for b."
    assert [f.atom for f in words.facts(tokens_of(text, 0, len(text)))] == [("craves", "c", "b")]
    got = [(c.kind, c.holds) for c in ClaimReader.for_task(task, vocab).read("Attack a clears away c's craving for b.").claims]
    assert ("effect", False) in got  # attack removes no craving


def test_an_action_named_with_some_of_its_objects_is_completed_from_the_line() -> None:
    """Row event.completed: "unstack red" is the one binding that can be done where the line is;
    with two bindings possible ("stack blue" onto red or orange) it stays unread."""
    reader = _six_reader()
    done = reader.read("So I can unstack red now.").claims
    assert [(c.action, c.holds) for c in done if c.kind == "applicability"] == [("(unstack a c)", True)]
    two = reader.read("Unstack red from orange. Put red down. Pick up blue. So I can stack blue now.").claims
    assert [c.action for c in two if c.kind == "applicability" and c.action and "stack b" in c.action] == []


@pytest.mark.parametrize("text, verdicts", [
    ("To get a craves b: Overcome a from b. Requires Province b and Pain a.", [True, True]),
    ("To get a craves b: Overcome a from b. Requires Province a and Pain a.", [False, True]),
    ("Let's try to use Overcome a from c. Requires Province c and Pain a.", [True, True]),
    ("To get a craves b: Overcome a from b.\n\nRequires Province a.", [False]),
    ("After Overcome a from b, a craves b. Requires Province a.", []),
])
def test_requires_right_after_a_named_action_is_its_needs(text: str, verdicts: list[bool]) -> None:
    """Row rule.needs_named: 162 needs in such lists in the 40 R1 traces were read as nothing, all
    of them true. A paragraph on, the run listing the action (row effect.listed) carries it; not
    after a unit that tells a state ("After ...")."""
    claims = [c for c in _mystery_reader().read(text).claims if "rule.needs_named" in c.rules]
    assert [c.holds for c in claims] == verdicts


def test_an_effects_label_under_an_after_heading_goes_on_telling_its_effects() -> None:
    """"After Feast b from c:" then "Effects: ..." and "Removes ...", a paragraph each: the labelled
    paragraph was read as nothing, and so the chain of paragraphs under the heading broke."""
    text = "After Feast b from c:\n\nEffects: Pain is added, Province b is added.\n\nRemoves b craves c, Province c, Harmony."
    got = [(c.atom, c.negative, c.holds) for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert got == [(None, False, True), (("province", "b"), False, False), (("craves", "b", "c"), True, True),
                   (("province", "c"), True, False), (("harmony",), True, True)]


@pytest.mark.parametrize("text, verdicts", [
    ("Succumb c.\n\n- Pain removed.\n- Harmony added.", [True, True]),
    ("Attack a.\n\n- Pain removed.", [False]),
    ("Attack a. Pain added.", [True]),
    ("Feast b from c. Adds Pain, Province b.", [True, False]),
    ("1. Attack a. After: Pain, remove Province a, Planet a, Harmony.", [True, True, True, True]),
    ("After Succumb c:\n\n- Pain is added.", [False]),
])
def test_a_predicate_named_without_objects_in_an_effect_list(text: str, verdicts: list[bool]) -> None:
    """"- Pain removed." under a step says the step removes some pain fact (judge.effect_any). It
    was read as nothing, and the list stopped at it, so "Adds Pain, Province c." judged nothing: 248
    claims in the 40 R1 traces, all true, and three steps that the walk presented as doable after it
    and that cannot be done (annotated errors of dev v2)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [c.holds for c in claims] == verdicts


_EFFECTS_THEN_NOW = ("Feast a from b.\n\nWait, after Feast a from b, the effects are:\n\nAdd: Pain a, Province b.\n\n"
                     "Remove: a craves b, Province a, Harmony.\n\nSo Harmony is gone, Planet c remains unless Feast "
                     "affects it.\n\nNow, current state:\n\n- Province b\n- Planet c\n- Pain a\n- Harmony")


def test_effects_told_under_an_after_heading_keep_the_text_at_the_step() -> None:
    """Rows event.step_told and state.now_opens: the paragraphs under "Wait, after Feast a from b,
    the effects are:" tell the line's last step, so the text stays at it; "Now, current state:"
    two paragraphs on heads the state after it. The list was read as nothing (too far from the
    step); the last line is false."""
    task, vocab = _mystery_task_with_craving()
    claims = [c for c in ClaimReader.for_task(task, vocab).read(_EFFECTS_THEN_NOW).claims if c.kind == "state"]
    assert [(c.atom, c.holds) for c in claims] == [(("province", "b"), True), (("planet", "c"), True),
                                                  (("pain", "a"), True), (("harmony",), False)]
    far = _EFFECTS_THEN_NOW.replace("Now, current state:", "Hmm.\n\nThe state:")
    assert [c for c in ClaimReader.for_task(task, vocab).read(far).claims if c.kind == "state"] == []


def _mystery_task_with_craving():
    """Mystery Blocksworld, objects a b c: Harmony, Planet c, Province a, a craves b."""
    problem = ("(define (problem p) (:domain mystery-4ops) (:objects a b c) (:init (harmony) (planet c) (province a) "
               "(craves a b)) (:goal (and (craves b a))))")
    row = _mystery_task()[1]
    return planning_task({"domain_pddl": row["problem"]["domain_pddl"], "problem_pddl": problem}, "mystery_blocksworld")[:2]


def test_a_needs_heading_heads_bullets_a_paragraph_each() -> None:
    """"Preconditions:" over "- a craves c (yes)", "- province a (yes)", blank lines between: every
    bullet is a check of the step's needs, as under a state heading. Only the first was read."""
    text = "Feast a from b.\n\nPreconditions:\n\n- a craves b (yes)\n\n- province a (yes)\n\n- harmony (yes)"
    task, vocab = _mystery_task_with_craving()
    claims = ClaimReader.for_task(task, vocab).read(text).claims
    assert [(c.atom, c.holds) for c in claims if c.kind == "state"] == [
        (("craves", "a", "b"), True), (("province", "a"), True), (("harmony",), True)]
    lone = "Feast a from b.\n\nPreconditions:\n\n- a craves b (yes)\n\nprovince a (yes)"
    assert [c.atom for c in ClaimReader.for_task(task, vocab).read(lone).claims if c.kind == "state"] == [("craves", "a", "b")]


@pytest.mark.parametrize("text, verdict", [
    ("Unstack blue from red. Put down blue. Pick up red. Stack red on orange. Stacking red there leaves red covered.", False),
    ("Unstack blue from red. Put down blue. Pick up red. Stacking red on orange leaves orange covered.", True),
    ("Unstack blue from red. Unstacking blue from red leaves the hand occupied.", True),
    ("Pick up orange. Picking up orange leaves blue covered.", False),
    ("Pick up orange. Picking up orange leaves red covered.", True),
])
def test_an_action_said_to_leave_a_fact_absent(text: str, verdict: bool) -> None:
    """Row effect.leaves_absent: "leaves red covered" says the fact is false after the step. It was
    not read, since "leaves" before a fact said present only means the step does not remove it.
    Where the step neither adds nor removes the fact, the state before it decides."""
    claims = [c for c in _bw_colours().read(text).claims if "effect.leaves_absent" in c.rules]
    assert [c.holds for c in claims] == [verdict]


@pytest.mark.parametrize("text, verdict", [
    ("Unstack blue from red. Unstacking blue clears red.", True),
    ("Unstack blue from red. This clears red.", True),
    ("Unstack blue from red. Put down blue. Putting blue down doesn't free up my hand.", False),
    ("Unstack blue from red. Put down blue. Putting blue down frees the hand.", True),
    ("Pick up orange. Picking up orange only fills the hand.", True),
    ("Pick up orange. Stack orange on blue. Stacking orange on blue covers blue.", True),
    ("Unstack blue from red. Unstacking blue covers red.", False),
    ("Unstack blue from red. Put down blue. That would free up red.", None),
])
def test_a_verb_that_makes_a_fact_is_its_effect(text: str, verdict: bool | None) -> None:
    """Row effect.made_verb: "clears red", "covers orange", "frees up my hand", "fills the hand" say
    what the step makes true or false (phrasings.json, "make P"). A false one about the line's last
    step is left unjudged where the state after it is as said: "Then put blue down. That would free
    up red." speaks of the unstack before it."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "effect"]
    assert [c.holds for c in claims] == [verdict]


def test_an_adjective_is_no_verb_of_making() -> None:
    """"an empty hand", "a free hand": the verb's own form before a word the matcher skips is read
    as the fact, not as a step that makes it."""
    claims = _bw_colours().read("Stacking only needs an empty hand.").claims
    assert [(c.kind, c.rules, c.holds) for c in claims] == [("rule", ("rule.req",), False)]


@pytest.mark.parametrize("text, verdicts", [
    ("Succumb c would also work, since Succumb adds Pain to the object.", [False]),
    ("Succumb c would also work, since Succumb removes Pain.", [True]),
    ("Can't Feast because Feast needs Harmony and Province.", [True, True]),
])
def test_a_rule_given_as_the_reason_is_judged(text: str, verdicts: list[bool]) -> None:
    """Rows rule.req, rule.add, rule.del after a cause cue: the reason after a named step ("...,
    since Succumb adds Pain") states a rule of the action named without objects. It was not read
    where the unit named a step before it, nor where anything stood before the cue."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "rule"]
    assert [c.holds for c in claims] == verdicts


@pytest.mark.parametrize("text, atoms", [
    ("c is a Planet.", [("planet", "c")]),
    ("c is a Planet and a Province.", [("planet", "c"), ("province", "c")]),
    ("We need Harmony and a Planet.", [("harmony",), None]),
    ("Province a Planet c.", [("province", "a"), ("planet", "c")]),
    ("Planet a and Province a.", [("planet", "a"), ("province", "a")]),
    ("a craves b.", [("craves", "a", "b")]),
])
def test_the_article_a_before_a_predicate_is_no_object(text: str, atoms: list) -> None:
    """Where an object is named "a", "a Planet" is the article and the predicate: "We need Harmony
    and a Planet" named (planet a), and "c is a Planet" named nothing of c."""
    (task, vocab, _lexicon, _), _ = _mystery_task()
    words = TaskWords.of(task, vocab)
    assert [f.atom for f in words.facts(tokens_of(text, 0, len(text)))] == atoms


def test_a_binding_of_variables_is_not_applied_to_another_action() -> None:
    """Row rule.bound: "Overcome X from Y requires ..." binds X for the paragraph, but a later
    sentence that names another action ("the Attack action is on an object X, and requires that X
    is a Province") speaks of that action's X; it was judged against Overcome and flagged."""
    text = ("Overcome X from Y requires Province Y and Pain X. Perhaps the Attack action is on an object X, and "
            "requires that X is a Province, X is a Planet, and Harmony.")
    claims = [c for c in _mystery_reader().read(text).claims if "rule.bound" in c.rules]
    assert all("overcome" not in c.message or "Attack" not in c.text for c in claims)
    assert [c.holds for c in claims if "Attack" in c.text] == []


@pytest.mark.parametrize("text, verdicts", [
    ("Alternatively, Action 3: Attack a.\n\nNeeds Province a, Planet a, Harmony.\n\nAdds Pain.\n\n"
     "Removes Province a, Planet b, Harmony.", [True, True, False, True]),
    ("So Feast b from c.\n\nThis will:\n\n- Add Pain and Province b.\n- Remove b craves c, Province b, Harmony.",
     [True, False, True, True, True]),
    ("So Feast b from c.\n\nResult: Pain b, Province c.", []),
    ("So Feast b from c.\n\nThen Succumb.\n\nAdds Province c.", []),
])
def test_an_effect_list_in_a_run_listing_one_action(text: str, verdicts: list[bool]) -> None:
    """Row effect.listed: "Adds Pain." after "Action 3: Attack a." and its needs, taken or only
    proposed, is a claim about Attack a's schema; 79 such effects in the 40 R1 traces, all true,
    were read as nothing. "Result:" may list the state; another action named ends the run."""
    claims = [c for c in _mystery_reader().read(text).claims if c.rules == ("effect.listed",)]
    assert [c.holds for c in claims] == verdicts


def test_what_step_k_of_the_list_requires() -> None:
    """Row rule.needs_step: "But step 2 requires Province a and Pain b." is about the list's step 2
    (15 such needs in the 40 R1 traces, all true, were read as nothing); the unit before, a step of
    the list, is not the one meant."""
    text = ("The plan:\n\n1. Feast a from b.\n2. Overcome b from a.\n3. Succumb b.\n\n"
            "But step 2 requires Province a and Pain b.\n\nBut step 2 requires Province b.")
    task, vocab = _mystery_task_with_craving()
    claims = [c for c in ClaimReader.for_task(task, vocab).read(text).claims if c.rules == ("rule.needs_step",)]
    assert [(c.action, c.atom, c.holds) for c in claims] == [
        ("(overcome b a)", ("province", "a"), True), ("(overcome b a)", ("pain", "b"), True),
        ("(overcome b a)", ("province", "b"), False)]


def test_the_facts_listed_after_step_k_are_the_state_after_it() -> None:
    """Row state.step_list: "After step 1: Province b, Pain a." lists the state after the list's
    step 1 (an effect it added holds after it too). It was read as nothing; in the R1 traces it
    judges 42 facts, 4 of them false (R1's "Feast a from b gives Pain b"). A list written far back,
    or one whose line walked on in prose since, is not used: a recap there may count steps of its
    own."""
    task, vocab = _mystery_task_with_craving()
    text = "The plan:\n\n1. Feast a from b.\n2. Overcome b from a.\n\nAfter step 1: Province b, Pain b."
    claims = [c for c in ClaimReader.for_task(task, vocab).read(text).claims if "state.step_list" in c.rules]
    assert [(c.atom, c.holds) for c in claims] == [(("province", "b"), True), (("pain", "b"), False)]
    far = text.replace("After step 1:", "Hmm.\n\nNo.\n\nWait.\n\nAfter step 1:")
    assert [c for c in ClaimReader.for_task(task, vocab).read(far).claims if "state.step_list" in c.rules] == []


def test_an_opening_after_clause_may_end_in_a_colon() -> None:
    """Row state.after_opening: "After Feast a from b: Pain b, Province b." lists what holds after
    the step, as "After Feast a from b, ..." does (the unit ends in a full stop, so it is no
    heading). In the R1 traces, 12 facts, the 4 false ones R1's misread Feast."""
    task, vocab = _mystery_task_with_craving()
    text = "Feast a from b. After Feast a from b: Pain b, Province b."
    claims = [c for c in ClaimReader.for_task(task, vocab).read(text).claims if "state.after_opening" in c.rules]
    assert [(c.atom, c.holds) for c in claims] == [(("pain", "b"), False), (("province", "b"), True)]


@pytest.mark.parametrize("sentence", ["This accomplishes the goal.", "The goal state is reached.",
                                      "And that's the goal state.", "This doesn't achieve the goal."])
def test_goal_claims_in_more_words(sentence: str) -> None:
    """Probe sentences: "accomplishes", "the goal state is reached", "And that's the goal", and a
    denial with the verb of reaching ("doesn't achieve the goal") were read as nothing. Each is
    judged after a walk that does not reach the goal and after one that does."""
    short = "Unstack blue from red. Put down blue. "
    full = short + "Pick up red. Stack red on orange. "
    denial = "doesn't" in sentence
    for walk, reached in ((short, False), (full, True)):
        claims = [c for c in _bw_colours().read(walk + sentence).claims if c.kind == "goal"]
        assert [c.holds for c in claims] == [reached != denial], (walk, sentence)


def test_a_verb_two_actions_share_takes_the_step_the_line_just_took() -> None:
    """Row event.shared_verb: "lift {}" is pick-up and "lift {} off {}" unstack. "Lifting blue makes
    red clear." after "Unstack blue from red." was judged as a pick-up of blue, which cannot be
    done there, and the true effect was flagged. Said of a block that can be picked up, "lift" is
    still the pick-up."""
    after_unstack = _bw_colours().read("Unstack blue from red. Lifting blue makes red clear.").claims
    assert [(c.message.split(")")[0], c.holds) for c in after_unstack if c.kind == "effect"] == \
        [("(unstack blue red", True)]
    plain = _bw_colours().read("Lifting orange makes the hand full.").claims
    assert [(c.message.split(")")[0], c.holds) for c in plain if c.kind == "effect"] == [("(pick-up orange", True)]
    wrong = _bw_colours().read("Lifting orange makes orange clear.").claims
    assert [(c.message.split(")")[0], c.holds) for c in wrong if c.kind == "effect"] == [("(pick-up orange", False)]


def test_that_right_after_a_recalled_state_speaks_of_it() -> None:
    """Row event.recall_that: "So after step 2, ... That alone already satisfies the goal." is about
    the state after step 2; a sentence that does not point back is about the plan's end."""
    walk = "1. Unstack blue from red.\n2. Put down blue.\n3. Pick up red.\n4. Stack red on blue.\n\nSo after step 2, blue is on the table. "
    goal = [(c.holds, c.message) for c in _bw_reader().read(walk + "That alone already satisfies the goal.").claims
            if c.kind == "goal"]
    assert goal == [(False, "says the goal holds after (unstack b a), (put-down b), but (on a b) does not")]
    plain = [c.holds for c in _bw_reader().read(walk + "The goal is satisfied.").claims if c.kind == "goal"]
    assert plain == [True]


def test_a_rule_said_of_a_block_in_general_and_a_fact_after_to_be() -> None:
    """"Putting a block down" names put-down of no block in particular; "the hand to be empty" is
    "the hand is empty"."""
    reader = _six_reader()
    got = [(c.holds, c.message) for c in reader.read("Putting a block down, though, needs the hand to be empty first.").claims]
    assert got == [(False, "says put-down needs handempty, but it needs holding")]
    assert [c.holds for c in reader.read("Unstacking needs the hand to be empty.").claims] == [True]


def test_only_if_states_a_need_not_that_the_action_can_be_done() -> None:
    """"is only allowed when", "only if": a need (lexicon req.needs), so no applicability claim is
    read from "can" beside it, and said of the action in general it is a rule."""
    reader = _six_reader()
    assert [c for c in reader.read("Red can be picked up only if it is clear.").claims if c.kind == "applicability"] == []
    assert [c for c in reader.read("Also, unstacking red from blue is only allowed when blue is on the table.").claims
            if c.kind == "applicability"] == []
    rule = [(c.holds, c.rules) for c in reader.read("Unstacking is only allowed when the block is on the table.").claims]
    assert rule == [(False, ("rule.req",))]


def test_a_plan_said_to_work_after_step_k_is_replayed_from_that_step() -> None:
    """Row verdict.inline: "after step 1, X and then Y would do it" goes on from the list's step 1."""
    walk = "1. Unstack blue from red.\n2. Put down blue.\n3. Pick up red.\n4. Stack red on blue.\n\n"
    bad = [(c.holds, c.message) for c in _bw_reader().read(
        walk + "For instance, after step 1, stack blue on red and then pick up red would do it.").claims
        if c.kind == "plan_verdict"]
    assert [h for h, _ in bad] == [False] and "after step 1 of the list" in bad[0][1]
    good = [c.holds for c in _bw_reader().read(
        walk + "For instance, after step 2, pick up red and then stack red on blue would work.").claims
        if c.kind == "plan_verdict"]
    assert good == [True]


@pytest.mark.parametrize("sentence, verdicts", [
    # "it" is the object of the action before it, in the words that action named it by
    ("Unstacking blue from red and putting it down, then picking up red and stacking it on orange, would work.",
     [True]),
    ("Unstacking blue from red and stacking it on orange wouldn't work.", [True]),
    # a comma before the verdict, and "right away" inside the list, leave the list one plan
    ("Unstacking blue and then picking up red right away, then stacking red on orange, would also work.", [False]),
    # "right now" after the list puts it where the line is: here, the start
    ("Just picking up orange and stacking it on blue right now wouldn't work.", [True]),
    ("Right now, picking up orange and stacking it on red would work.", [False]),
], ids=["it-after-each-action", "it-negative", "comma-and-right-away", "right-now-after", "now-before"])
def test_a_plan_of_gerunds_with_it_is_replayed(sentence: str, verdicts: list[bool]) -> None:
    """Row verdict.inline (probe forms): a plan written as gerunds joined by "and" and "then", the
    later actions naming their object "it", then said to work or not."""
    got = [c.holds for c in _bw_colours().read(sentence).claims if c.kind == "plan_verdict"]
    assert got == verdicts


_WALKED = "Unstack blue from red. Put down blue. Pick up red. Stack red on orange. "
_HALFWAY = "Unstack blue from red. Put down blue. "


@pytest.mark.parametrize("text, verdicts", [
    (_WALKED + "Now red is on orange. That's the goal.", [True]),
    (_HALFWAY + "Blue is on the table. That's the goal.", [False]),
    (_HALFWAY + "So that's the goal.", [False]),
    (_HALFWAY + "Blue is on the table, which is the goal.", [False]),
    (_HALFWAY + "Yes, which matches the goal.", [False]),
    (_HALFWAY + "We need red on orange. That's the goal.", []),         # the goal restated
    (_HALFWAY + "Red is clear (which is part of the goal).", []),       # a part, not the goal
    (_HALFWAY + "Is the hand empty? That's the goal.", []),             # not said of a state told
], ids=["reached", "not-reached", "so-that", "which-is", "which-matches", "restated", "part-of", "after-question"])
def test_that_is_the_goal_is_a_goal_claim_on_the_state_just_told(text: str, verdicts: list[bool]) -> None:
    """Row goal.that: R1 ends a walk with "That's the goal." (19 times in the dev traces)."""
    assert [c.holds for c in _bw_colours().read(text).claims if c.kind == "goal"] == verdicts


def test_that_is_the_goal_leaves_a_part_of_the_goal_reached_unjudged() -> None:
    """Row goal.that: "b craves c, which is the goal" where the goal also needs another fact may name
    the part just reached: not judged while every fact it names is a goal fact that holds."""
    from tests.test_thinking_claims import BW_DOMAIN
    problem = ("(define (problem p) (:domain blocksworld-4ops) (:objects red blue orange) (:init (handempty) "
               "(ontable red) (ontable blue) (clear red) (clear blue) (ontable orange) (clear orange)) "
               "(:goal (and (on red orange) (on blue red))))")
    reader = ClaimReader.for_task(*planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": problem}, "blocksworld")[:2])
    text = "Pick up red. Stack red on orange. "
    assert [c.holds for c in reader.read(text + "Now red is on orange, which is the goal.").claims
            if c.kind == "goal"] == []
    assert [c.holds for c in reader.read(text + "Now the hand is empty, which is the goal.").claims
            if c.kind == "goal"] == [False]


def test_becomes_reads_as_is_in_a_fact() -> None:
    """"Red becomes clear." (21 times in the dev traces) says the fact as "Red is clear." does."""
    walk = "Unstack blue from red. Stack blue on orange. "
    got = [(c.holds, c.atom) for c in _bw_colours().read(walk + "Then red becomes clear.").claims if c.kind == "state"]
    assert got == [(True, ("clear", "red"))]
    got = [(c.holds, c.atom) for c in _bw_colours().read(walk + "Now orange becomes clear.").claims if c.kind == "state"]
    assert got == [(False, ("clear", "orange"))]


@pytest.mark.parametrize("text, verdicts, rule", [
    # a label a paragraph after the step, with the run telling it unbroken
    ("Step 3: Attack b. Requires Province b, Planet b, Harmony. Yes.\n\nEffects: Pain a, remove Province b.",
     [False, True], "effect.label"),
    ("1. Attack a (needs Province a, Planet a, Harmony).\n\nAfter: Pain a, remove Province a, Planet c.",
     [True, True, False], "effect.label"),
    # no label: facts, then the delete cue, in a bullet under the step
    ("1. Attack c (using Province c, Planet c, Harmony).\n\n   - Pain a, remove Province c, Planet c, Harmony.",
     [False, True, True, True], "effect.unlabelled"),
    # a paragraph on, "Result:" may list the state after the step: not read as its adds
    ("1. Attack a (needs Province a, Planet a, Harmony).\n\nResult: Pain a, Planet b.", [], "effect.label"),
], ids=["effects-label-a-paragraph-on", "after-label-a-paragraph-on", "unlabelled-bullet", "result-a-paragraph-on"])
def test_effect_lists_in_the_run_telling_a_step(text: str, verdicts: list[bool], rule: str) -> None:
    """Rows effect.label and effect.unlabelled: R1's "After: Pain a, remove ..." under "1. Attack a
    (needs ...)." a paragraph on, and "- Pain c, remove Province c, ..." as a bullet under the step."""
    got = [c.holds for c in _mystery_reader().read(text).claims if c.kind == "effect" and rule in c.rules]
    assert got == verdicts


@pytest.mark.parametrize("said, verdicts", [("So step 1 is allowed.", [True]), ("So step 2 is allowed.", [False]),
                                             ("So step 2 is possible.", [False]), ("So step 3 is allowed.", [])],
                         ids=["step-1", "step-2", "possible", "no-such-step"])
def test_step_k_said_allowed_is_judged_before_that_step(said: str, verdicts: list[bool]) -> None:
    """Row app.step_allowed: "So step 2 is allowed." judges the list's step 2 in the state before it."""
    walk = "1. Unstack blue from red.\n2. Stack red on orange.\n\n"
    got = [c.holds for c in _bw_colours().read(walk + said).claims if "app.step_allowed" in c.rules]
    assert got == verdicts


@pytest.mark.parametrize("text, states, allowed", [
    ("Step 1: Pick up orange. Orange is on table, clear. Hand is empty. So allowed.", [True, True], [True]),
    ("Step 1: Pick up red. Red is on table, clear. Hand is empty. So allowed.", [True, False], [False]),
    ("Step 1: Unstack blue from red. Blue is clear, on top of red, hand is empty. Valid.", [True] * 3, [True]),
    # a fact that is no need of the step is the state after it, and no check
    ("Step 1: Unstack blue from red. Blue is on the table. So allowed.", [False], []),
], ids=["checked-true", "checked-false", "one-sentence", "no-need"])
def test_needs_checked_unlisted_right_after_the_step(text: str, states: list[bool], allowed: list[bool]) -> None:
    """Row state.need_check without the needs listed: R1's verification walks write "Step 1: Pick up
    red. Red is on table, clear. Hand is empty. So allowed.": facts that are all needs of the step
    just named are checked before it, and the bare "So allowed." after them judges the step."""
    claims = _bw_colours().read(text).claims
    assert [c.holds for c in claims if c.kind == "state"] == states
    assert [c.holds for c in claims if c.kind == "applicability"] == allowed


@pytest.mark.parametrize("text, verdicts", [
    ("Step 1: Pick up orange. Possible because orange is clear, hand is empty.", [True]),
    ("Step 1: Pick up red. Possible because red is clear, hand is empty.", [False]),
    ("Step 1: Unstack blue from red. Allowed because blue is clear and the hand is empty.", [True]),
    ("Step 1: Pick up red. This is possible because red is clear and on the table.", [False]),
], ids=["true", "false", "allowed", "this-is-possible"])
def test_possible_because_its_needs_judges_the_step_named_before(text: str, verdicts: list[bool]) -> None:
    """Row app.because_needs: "Possible because red is clear, hand is empty." right after the step."""
    got = [c.holds for c in _bw_colours().read(text).claims if "app.because_needs" in c.rules]
    assert got == verdicts


def test_but_wait_takes_back_only_what_it_doubts() -> None:
    """"But wait" before other facts moves on, and the claim before it stands; before the same facts,
    or with a denial, it takes the claim back (thinking-claims.md: a claim the same step retracts)."""
    reader = _six_reader()
    walk = "Unstack red from orange. Put red down. Pick up blue. Stack blue on red. I am still holding blue here. "
    moved_on = [c for c in reader.read(walk + "But wait, the goal is just blue on red.").claims if c.kind == "state"]
    assert [(c.holds, c.retracted) for c in moved_on] == [(False, False)]
    doubted = [c for c in reader.read(walk + "But wait, the hand is empty, not holding blue.").claims
               if c.kind == "state" and "still holding" in c.text]
    assert [c.retracted for c in doubted] == [True]


def test_goal_said_met_now_or_for_the_facts_before_it() -> None:
    """Row goal.met: "The goal is now complete." and "Blue is on red, so the goal is reached." are
    goal claims about the line's state (false after two steps that leave blue on the table)."""
    reader = _six_reader()
    walk = "Unstack red from orange. Put red down. "
    for said in ("The goal is now complete.", "Blue is on red, so the goal is reached."):
        assert [(c.kind, c.holds) for c in reader.read(walk + said).claims] == [("goal", False)], said
    done = walk + "Pick up blue. Stack blue on red. "
    assert [(c.kind, c.holds) for c in reader.read(done + "Blue is on red, so the goal is reached.").claims] \
        == [("goal", True)]
    assert [c.kind for c in reader.read(walk + "So once blue is on red, the goal is satisfied.").claims] == []


def test_an_effect_list_that_goes_on_telling_the_step_is_the_steps_effect() -> None:
    """Row effect.told: "Step 1: Attack a." told over paragraphs ("Needs ...", "Yes.", "Adds ...")
    then "Removes Province b, ..." is Attack a's effect, judged against the schema (R1's
    misreading "Attack removes the current Province" is a root error); another action between, or
    an aim ("Create Pain a."), breaks it."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    told = ("Step 1: Attack a.\n\nNeeds Province a, Planet a, Harmony. Yes.\n\nAdds Pain a.\n\n"
            "Removes Province b, Planet a, Harmony.")
    got = [(c.holds, c.rules) for c in reader.read(told).claims if "Removes" in c.text]
    assert (False, ("effect.told",)) in got  # Attack a removes Province a, not Province b
    broken = told.replace("Adds Pain a.", "Alternatively, Attack b.")
    assert [c for c in reader.read(broken).claims if "Removes" in c.text and "effect.told" in c.rules] == []
    aim = told.replace("Removes Province b, Planet a, Harmony.", "Create Pain b.")
    assert [c for c in reader.read(aim).claims if c.kind == "effect" and "Create" in c.text] == []


def test_needs_written_beside_or_after_the_step_are_its_schema() -> None:
    """Rows rule.needs_of ("7. Attack c (needs Province b, Planet b, Harmony).", "Attack b →
    requires ...") and rule.needs_told ("Requires ..." going on telling the step): R1's misread
    preconditions ("Attack needs any Planet") are rule claims against the schema."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    for said in ("1. Attack a (needs Province a, Planet b, Harmony).", "1. Attack a → requires Province a, Planet b, Harmony.",
                 "Step 1: Attack a.\n\nRequires Province a, Planet b, Harmony."):
        got = [(c.holds, c.atom) for c in reader.read(said).claims if c.kind == "rule"]
        assert (False, ("planet", "b")) in got and (True, ("province", "a")) in got, said
    other = "Step 1: Attack a.\n\nAlternatively, Succumb b.\n\nRequires Province a, Planet b, Harmony."
    assert [c for c in reader.read(other).claims if c.kind == "rule" and c.atom == ("planet", "b")] == []


def test_a_state_list_keeps_aims_and_an_unclear_removal_out() -> None:
    """"5. Now, create c craves a." names an aim, not the state; in "Now, with Province b, Harmony,
    and Pain b is removed." the singular verb leaves whether the earlier items are gone unsaid."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    assert [c for c in reader.read("5. Now, create c craves a.").claims if c.kind == "state"] == []
    got = [(c.atom, c.negative) for c in reader.read("Now, with Province b, Harmony, and Pain b is removed.").claims]
    assert got == [(("pain", "b"), True)]
    plural = [c.atom for c in reader.read("Now, Province b, Harmony, and Pain b are removed.").claims if c.negative]
    assert ("harmony",) in plural


def test_a_time_word_opening_a_unit_reaches_past_a_paragraph_of_comment() -> None:
    """Row state.now_opens: "At that point ..." two paragraphs after the step is the state the
    step left, judged; the same facts without the time word are not placed (one paragraph's
    reach), and the claim names the row that placed it."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Attack a.\n\nThat should help with the goal.\n\n"
    got = [(c.kind, c.holds, c.rules) for c in reader.read(walk + "At that point Harmony still holds.").claims]
    assert got == [("state", False, ("state.list", "state.now_opens"))]
    assert [(c.holds, c.rules) for c in reader.read(walk + "Now Pain a holds.").claims] == [
        (True, ("state.list", "state.now_opens"))]
    assert reader.read(walk + "Harmony still holds.").claims == []


def test_a_goal_said_met_once_facts_hold_is_judged_where_they_hold() -> None:
    """Row goal.once: "once X, the goal is satisfied" is a goal claim about the state where X
    holds: judged on the line when X holds there (right or wrong), left unjudged when X does not
    hold yet (the model speaks of a later state)."""
    reader = _bw_reader()
    walk = "Unstack blue from red. Put down blue."
    goal = "So once {}, the goal is already satisfied."

    def verdicts(text: str) -> list[tuple[bool | None, tuple[str, ...]]]:
        return [(c.holds, c.rules) for c in reader.read(text).claims if c.kind == "goal"]

    assert verdicts(walk + "\n\n" + goal.format("blue is on the table")) == [(False, ("goal.met", "goal.once"))]
    assert verdicts(walk + " Pick up red. Stack red on blue.\n\n" + goal.format("red is on blue")) == [
        (True, ("goal.met", "goal.once"))]
    assert verdicts(walk + "\n\n" + goal.format("red is on blue")) == []


def test_that_opening_the_paragraph_after_a_step_tells_its_effects_and_what_it_keeps() -> None:
    """Rows effect.focus and effect.keeps: "That removes Harmony while keeping Planet a." in the
    paragraph after "So Attack a." speaks of the step: its effect judged on the schema and the fact
    it keeps judged after it. After a list's item "This ..." may be the whole list: not read."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)

    def got(text: str) -> list[tuple[str, bool | None, tuple[str, ...]]]:
        return [(c.kind, c.holds, c.rules) for c in reader.read(text).claims]

    assert got("So Attack a.\n\nThat removes Harmony while keeping Planet a.") == [
        ("effect", True, ("effect.focus",)), ("state", False, ("effect.focus", "effect.keeps"))]
    assert got("So Attack a.\n\nThat removes Harmony while keeping Province b.")[-1] == (
        "state", True, ("effect.focus", "effect.keeps"))
    assert got("1. Attack a.\n\nThis gives Pain b.") == []


def test_a_state_recalled_on_a_lost_line_goes_on_for_the_paragraph() -> None:
    """Row event.recall_lost: the line is lost ("After various steps"), "So after unstacking blue,
    ..." recalls a state it can place, and the next unit, "So I can pick up red right away, without
    putting blue down first", speaks of that state: judged there (the hand holds blue). A step
    mentioned in between may have moved the state: then nothing is judged."""
    reader = _bw_reader()
    lost = "Unstack blue from red. Put down blue. After various steps, we have something.\n\n" \
           "So after unstacking blue, red is on the table and clear. "
    got = reader.read(lost + "So I can pick up red right away, without putting blue down first.").claims
    assert [(c.kind, c.holds, c.action) for c in got] == [("applicability", False, "(pick-up a)")]
    assert reader.read(lost + "Stacking blue there is fine. So I can pick up red right away.").claims == []


def test_a_state_list_that_agrees_with_the_line_keeps_the_text_at_it() -> None:
    """Row event.state_agrees: "Step 4: Overcome a from c", its effects, and "Now the state:" over
    a list the line agrees with, item by item; a paragraph later "Planet a is also back at this
    point." (planted set 5) speaks of the same state, three paragraphs after the step: judged, and
    false (Attack a removed Planet a, and nothing since gave it back)."""
    row = next(r for r in load_dev("planbench_r1_thinking.jsonl") if r["id"].startswith("29cff7"))
    task, vocab, _, _ = planning_task(row["problem"], row["domain"])
    end = row["trace"].index("Great, now we have Craves(a, c).") + len("Great, now we have Craves(a, c).")
    text = row["trace"][:end] + " Planet a is also back at this point."
    claims = [c for c in ClaimReader.for_task(task, vocab).read(text).claims if c.span[0] >= end]
    assert [(c.kind, c.holds, c.atom) for c in claims] == [("state", False, ("planet", "a"))]


def test_an_action_that_can_only_be_done_where_facts_hold_is_a_rule_of_needs() -> None:
    """Row rule.only (cue req.only): "You can only pick up a block that is on the table." says
    pick-up needs ontable, true in Blocksworld; "You can only stack a block onto one that is
    sitting directly on the table." says stack needs ontable, false (it needs a clear target).
    A facts-only "can only" with no action named ("It can only be clear") is no rule."""
    reader = _six_reader()

    def rules(trace: str) -> list[bool | None]:
        return [c.holds for c in reader.read(trace).claims if "rule.only" in c.rules]

    assert rules("You can only pick up a block that is on the table.") == [True]
    assert rules("You can only stack a block onto one that is sitting directly on the table.") == [False]
    assert rules("It can only be clear.") == []


def test_anymore_speaks_of_the_state_now() -> None:
    """"anymore" (cue now.current) says the fact no longer holds now, as "no longer" does: "Orange
    isn't clear anymore." after unstacking red from it is false; "Red isn't on orange any more." true."""
    reader = _six_reader()

    def states(trace: str) -> list[bool | None]:
        return [c.holds for c in reader.read(trace).claims if c.kind == "state"]

    assert states("First, unstack red from orange. Orange isn't clear anymore.") == [False]
    assert states("First, unstack red from orange. Red isn't on orange any more.") == [True]


def test_put_with_the_place_it_leaves_the_block_names_put_down() -> None:
    """"Put orange on the table" names put-down as "put orange down" does: the head wants its
    particle or the place the action's one-object add effect names ("on the table" of ontable)."""
    reader = _six_reader()
    report = reader.read("Unstack red from orange. Put red on the table. Red is clear now.")
    assert [a.text() for a in report.lines[-1].actions] == ["(unstack a c)", "(put-down a)"]
    assert [c.holds for c in report.claims if c.kind == "state"] == [True]
    # a place no add effect of put-down names: not put-down (a verb of placing names stack there)
    assert [a.schema.name for a in reader.read("Put red on blue.").lines[-1].actions] in ([], ["stack"])


def test_after_a_recalled_state_a_fact_is_judged_only_where_both_readings_agree() -> None:
    """Row state.both_readings: after "after putting red on the table, it's clear" the paragraph's
    "at this point" may be the recalled state or the line's. Orange clear holds in both, so "Orange
    isn't clear" is false; red clear differs between them, so "Red is clear" stays unjudged. "But
    the goal is c→b" under a state heading is an aim, never a fact of the state."""
    reader = _six_reader()
    head = "Unstack red from orange. Put red down. Pick up blue. Stack blue on red. " \
           "But wait, after putting red on the table, it's clear. "

    def states(trace: str) -> list[tuple[bool | None, tuple[str, ...]]]:
        return [(c.holds, c.rules) for c in reader.read(trace).claims if c.kind == "state"]

    assert states(head + "Orange isn't clear at this point, though.") == [(False, ("state.list", "state.both_readings"))]
    assert states(head + "Blue is clear at this point.") == [(True, ("state.list", "state.both_readings"))]
    assert states(head + "Red is clear at this point.") == []
    assert not [c for c in reader.read("Unstack red from orange. Now the state is:\n\n- Red in hand, but the goal is "
                                       "orange on red.").claims if c.kind == "state" and "orange" in c.text and c.holds is False]


def test_a_rule_of_no_object_after_a_supposed_step_speaks_of_the_schema() -> None:
    """A supposition ("So if I stack red onto blue, ...") goes on over the paragraph's next units,
    but a rule of no object after it ("Also, unstacking A from B is only allowed when B is sitting
    on the table.", planted set 5, half P) speaks of the schema and is judged: false. After a hedge
    in the paragraph ("Wait, perhaps ...") the rules that follow go on guessing and stay unread."""
    reader = _six_reader()
    rule = "So if I stack red onto blue, then blue becomes not clear. Also, unstacking A from B is only " \
           "allowed when B is sitting on the table."
    assert [(c.holds, c.rules) for c in reader.read(rule).claims if c.kind == "rule"] == [(False, ("rule.req",))]
    assert not [c for c in reader.read("Wait, perhaps stacking needs nothing. " + rule).claims if c.kind == "rule"]


def test_a_label_over_effect_lists_goes_on_telling_the_step() -> None:
    """"- Effects:" between the step's needs and its "- Added:" and "- Removed:" lists is a label
    in the run telling the step (row effect.told): the lists are its effects, judged on the schema
    ("b craves a" is not removed by Overcome c from b). "that would bring back F" names F as added
    (cue add.gives), not as facts of the state now."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    trace = ("Attack c. Overcome c from b:\n\n- Preconditions: Province b (yes), Pain c (yes).\n- Effects:\n"
             "- Added: Harmony, Province c, and Object c craves b.\n- Removed: Province b, Pain c, and b craves a.")
    got = [(c.holds, str(c.atom)) for c in reader.read(trace).claims if c.kind == "effect"]
    assert len(got) == 6 and [h for h, _ in got].count(False) == 1
    later = "Attack b. Now, with Pain b, we can Succumb again, but that would bring back Province b, Planet b, Harmony."
    assert [c.holds for c in reader.read(later).claims if c.kind == "state"] == [True]  # Pain b only


def test_lists_under_a_supposed_step_tell_it_without_taking_it() -> None:
    """Row event.supposed: "If we do Overcome c from b:" heads its needs and effect lists as a step
    taken does (row effect.told): "b craves a" said removed is false; the step is not taken."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    report = reader.read("Attack c. If we do Overcome c from b:\n\n- Preconditions: Province b (yes), Pain c (yes).\n"
                         "- Effects:\n- Added: Harmony, Province c, and Object c craves b.\n"
                         "- Removed: Province b, Pain c, and b craves a.")
    effects = [c.holds for c in report.claims if c.kind == "effect"]
    assert len(effects) == 6 and effects.count(False) == 1
    assert [a.text() for a in report.lines[-1].actions] == ["(attack c)"]


def test_it_right_after_a_rule_with_variables_is_the_bound_action() -> None:
    """Row rule.bound: "It also needs Harmony" right after "To perform Overcome object X from Y,
    the preconditions are ..." is Overcome's rule, false (planted set 8, half Y). A fact of no
    objects elsewhere in the paragraph names no variable and is no rule of the bound action."""
    (task, vocab, _, _), _ = _mystery_task()
    reader = ClaimReader.for_task(task, vocab)
    head = "To perform Overcome object X from Y, the preconditions are Province(Y) and Pain(X). "

    def rules(trace: str) -> list[bool | None]:
        return [c.holds for c in reader.read(trace).claims if c.kind == "rule"]

    assert rules(head + "It also needs Harmony, like Attack and Feast do.") == [True, True, False]
    assert rules(head + "Okay. It also needs Harmony.") == [True, True]
    assert rules(head + "So Harmony is needed as well.") == [True, True]


def test_after_a_recalled_state_can_is_judged_only_where_both_readings_agree_and_nothing_walked_on() -> None:
    """Row state.both_readings for "can": after "after unstacking red from orange, I'm holding red",
    "So I can pick up blue right now" is false in the state recalled and in the line's (blue is on
    red there): false either way. Once the paragraph names a step after the recall ("we have to put
    red down somewhere"), it may have walked on from there: unjudged."""
    reader = _six_reader()
    line = "Unstack red from orange. Put red down. Pick up blue. Stack blue on red. But wait, after unstacking red from orange, "

    def cans(trace: str) -> list[bool | None]:
        return [c.holds for c in reader.read(trace).claims if c.kind == "applicability"]

    assert cans(line + "I'm holding red. So I can pick up blue right now.") == [False]
    assert cans(line + "we have to put red down somewhere. So I can pick up blue right now.") == []
    assert [c.holds for c in reader.read(line + "I'm holding red. Orange is clear now.").claims if c.kind == "state"] == [True]
    assert not [c for c in reader.read(line + "we have to put red down somewhere. Orange is clear now.").claims
                if c.kind == "state" and "both_readings" in "".join(c.rules)]


def test_going_away_is_being_removed() -> None:
    """"Planet b goes away", "makes Planet b disappear": the intransitive forms of "is removed"
    (lexicon row del.removes); after Attack a only Planet a is gone. Right after the step, the
    passive list tells it (row effect.told): Attack a does not remove Planet b."""
    assert _false_actions("1. Attack a.\n\nPlanet b goes away.") == ["effect"]
    assert _false_actions("1. Attack a.\n\nPlanet a goes away.") == []
    assert _false_actions("Attack a makes Planet b disappear.") == ["effect"]
    assert _false_actions("Attack a makes Planet a disappear.") == []


def test_a_passive_mention_ends_at_its_last_object() -> None:
    """"Red can be stacked onto blue now, without ...": the mention ends at "blue", so "now" is
    the time of the claim (judged: red is not held) and the comma no object follows is not read
    as part of the action."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. 2. Put down blue. "
    for tail in ("now, without any problem.", "now, without picking it up.", "now."):
        report = reader.read(walk + "Red can be stacked onto blue " + tail)
        assert [(c.action, c.holds) for c in report.claims if c.kind == "applicability"][-1:] == [("(stack a b)", False)], tail


def test_a_step_told_again_stays_in_focus_for_what_follows() -> None:
    """"Succumb c: requires Pain c. Then, Succumb c would add ...": the step just taken, named again
    as it is described; "It would also bring back Craves(c, a), undoing the Feast." is still about
    it (an effect claim, false: Succumb touches no craving), and a "But wait" that denies other
    facts ("in the initial state ... Pain c is not") does not take it back."""
    walk = "1. Feast c from a.\n\nSuccumb c: requires Pain c. Then, Succumb c would add Province c, Planet c, Harmony. "
    it = "It would also bring back Craves(c, a), undoing the Feast. "
    assert _false_actions(walk + it) == ["effect"]
    assert _false_actions(walk + it + "But wait, in the initial state, Planet a and b are present, but Pain c "
                          "is not.") == ["effect"]
    assert _false_actions(walk + it + "But wait, Craves(c, a) is not added.") == []  # doubted: taken back
    assert _false_actions(walk + "It would also bring back Harmony.") == []


def test_sentences_inside_a_bullet_do_not_end_the_bullets_telling_the_step() -> None:
    """"   - Added: ... (since ...? Wait, ... So c craves b." then "   - Removed: ...": the next
    bullet at the same indent still tells the step the heading supposed."""
    lists = ("1. Attack c.\n\nIf we do Overcome c from b:\n\n- Preconditions: Province b (yes), Pain c (yes).\n\n"
             "- Effects:\n\n   - Added: Harmony, Province c, and c craves b (since Overcome c from b would make c "
             "crave b? Wait, the object here is c. So c craves b.\n\n   - Removed: Province b, Pain c")
    assert _false_actions(lists + ".") == []
    assert _false_actions(lists + ", and b craves a.") == ["effect"]


def test_a_recap_places_a_step_that_may_hold_more_actions_by_the_facts_it_states() -> None:
    """"So step 1: Unstack blue from red. ... Then I can put blue down." then "After step 1: Blue
    is on the table.": the model's step 1 may hold the put-down too; the one extent after which
    the facts it states hold places the line (none, or two, leave it lost), and the walk goes on
    from there. A later "When I unstack blue from red, ..." goes back before a step taken: lost."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "So step 1: Unstack blue from red. Then I can put blue down.\n\nAfter step 1: "

    def false(trace: str) -> list[str | None]:
        return [c.action or c.kind for c in reader.read(trace).claims if c.holds is False and not c.retracted]

    assert false(walk + "Blue is on the table. Step 2: Pick up red. Now I can stack blue on red.") == ["(stack b a)"]
    assert false(walk + "Red is clear. Step 2: Pick up red. Now I can stack blue on red.") == []  # both extents
    assert false(walk + "Blue is on the table. Step 2: Pick up red.\n\nWhen I unstack blue from red, I hold blue. "
                 "Now I hold blue.") == []
    told = "1. Unstack blue from red. Then, when you unstack blue, red becomes clear. "  # the step just taken
    assert false(told + "Now the hand is empty.") == ["state"]


def test_effects_in_other_words() -> None:
    """"gets rid of", "wipes out" remove; "keeps", "leaves ... in place" say the action does not
    remove (row effect.kept, judged against the schema); "you can't get rid of" is no effect."""
    assert _false_actions("Attack a gets rid of Planet b.") == ["effect"]
    assert _false_actions("Attack a gets rid of Planet a.") == []
    assert _false_actions("Attacking a wipes out Planet b too.") == ["effect"]
    assert _false_actions("Attack a keeps Harmony.") == ["effect"]
    assert _false_actions("Attack a leaves Harmony in place.") == ["effect"]
    assert _false_actions("Attack a leaves Planet b untouched.") == []
    assert _false_actions("Attack a doesn't keep Harmony.") == []
    assert _false_actions("Once you create Pain a via Attack a, you can't get rid of Planet b.") == []


def test_a_verb_of_placing_names_the_action_whose_effect_it_describes() -> None:
    """"put red on blue", "placing red on blue": stack, whose add effect (on ?ob ?underob) is written
    with a place word between the objects (from the task's templates, no domain named); before,
    the words were read as the fact "red is on blue" and "Now I can put red on blue" was a false
    state claim. "put red and blue on the table" names no stack."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)

    def false(trace: str) -> list[str | None]:
        return [c.action or c.kind for c in reader.read(trace).claims if c.holds is False and not c.retracted]

    held = "1. Unstack blue from red. 2. Put down blue. 3. Pick up red. "
    assert false(held + "Now I can put red on blue.") == []
    assert false(held + "Now, placing red on top of blue is allowed.") == []
    assert false("1. Unstack blue from red. 2. Put down blue. Now I can put red on blue.") == ["(stack a b)"]
    words = TaskWords.of(task, vocab)
    said = "I put red and blue on the table."
    assert [m.name for m in words.actions(tokens_of(said, 0, len(said)))] == []


def test_an_effect_that_makes_a_fact_false_is_a_removal() -> None:
    """"Attack a makes Harmony false", "makes blue not clear": the cue adds the fact's absence, so
    the claim is that the action removes it (true here; read as an addition it was a false flag).
    A fact before a passive cue is said by the cue ("Planet b is removed" stays a removal)."""
    assert _false_actions("Attack a makes Harmony false.") == []
    assert _false_actions("Attack a makes Harmony not true.") == []
    assert _false_actions("Attack a makes Planet b false.") == ["effect"]
    assert _false_actions("Attack a: Planet b is removed.") == ["effect"]
    assert _false_actions("Attack a: Pain a is added and Harmony is removed.") == []


def test_a_fact_needed_for_an_action_named_alone_is_its_rule() -> None:
    """"Harmony is needed for Succumb" (row rule.passive, as "removed by Feast" was): Succumb needs
    only Pain, so the rule is false; "Harmony is needed for Attack" is right."""
    assert _false_actions("Harmony is needed for Succumb.") == ["rule"]
    assert _false_actions("Harmony is needed for Attack.") == []
    assert _false_actions("Pain is required for Overcome.") == []


def test_needs_named_before_the_action_said_met() -> None:
    """"The preconditions for Succumb c are satisfied now." (row app.needs_met, the needs before the
    action): after Attack b only Pain b holds of the pains."""
    walk = "1. Attack a.\n\n2. Succumb a.\n\n3. Attack b.\n\n"
    assert _false_actions(walk + "The preconditions for Succumb c are satisfied now.") == ["(succumb c)"]
    assert _false_actions(walk + "The preconditions for Succumb b are satisfied now.") == []


def test_a_rule_that_needs_a_facts_absence() -> None:
    """"Unstacking requires the hand to be full": the need of the fact's absence (a word for it,
    "full" of the hand); unstack needs the hand empty, put-down does not."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    assert [c.holds for c in reader.read("Unstacking requires the hand to be full.").claims] == [False]
    assert [c.holds for c in reader.read("Putting down requires the hand to be full.").claims] == [True]
    assert [c.holds for c in reader.read("Unstacking requires an empty hand.").claims] == [True]


def test_objects_listed_before_one_fact_share_it() -> None:
    """"Red and blue are clear now": both blocks are said clear (before, only blue was read, and
    the false half of the claim passed as right); "Stack red and blue on the table." names no fact."""
    from tests.test_thinking_claims import BW_DOMAIN, BW_PROBLEM
    task, vocab = planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": BW_PROBLEM}, "blocksworld")[:2]
    reader = ClaimReader.for_task(task, vocab)
    walk = "1. Unstack blue from red. 2. Put down blue. 3. Pick up red. "
    said = [(c.atom, c.holds) for c in reader.read(walk + "Red and blue are clear now.").claims if c.kind == "state"]
    assert said == [(("clear", "a"), False), (("clear", "b"), True)]
    assert [c for c in reader.read("Stack red and blue on the table.").claims if c.kind == "state"] == []


def _state_verdicts(trace: str) -> list[tuple[str, bool | None]]:
    (task, vocab, _, _), _ = _mystery_task()
    return [(c.atom[0], c.holds) for c in ClaimReader.for_task(task, vocab).read(trace).claims if c.kind == "state"]


def test_facts_after_an_opening_after_clause_speak_of_the_state_after_it() -> None:
    """"After Attack a, Harmony is true." (row state.after_opening): the action sets the time, the
    facts are judged in the state after it (before, nothing was read: the action named made the
    sentence look like one about the action); right after the step, "after that" says which of the
    two states is meant; a step taken twice leaves "after" it unplaced."""
    assert _state_verdicts("After Attack a, Harmony is true.") == [("harmony", False)]
    assert _state_verdicts("First, Attack a. After Attack a, we have Pain a.") == [("pain", True)]
    assert _state_verdicts("First, Attack a. After that, the state is Harmony, Pain a.") == [
        ("harmony", False), ("pain", True)]
    assert _state_verdicts("First, Attack a. Harmony is true.") == [("harmony", True)]  # its need, checked before it
    bw = _bw_reader()
    assert [c.holds for c in bw.read("After unstacking blue from red, blue is on the table.").claims] == [False]
    assert [c.holds for c in bw.read("1. Unstack blue from red. After that, red is clear.").claims] == [True]
    twice = "1. Attack a.\n2. Succumb a.\n3. Attack a.\n4. Succumb a.\n\n"
    assert _state_verdicts(twice + "After Attack a, Harmony is true.") == []


def test_a_unit_false_in_the_state_before_and_after_a_step_is_judged() -> None:
    """"Attack a. Now we have Pain a and Province a." (row state.either_state): read before the
    step, Pain a is false; read after it, Province a is: no reading makes it true. Province a alone
    may be said of the state before the step, and is left unjudged."""
    assert _state_verdicts("Attack a. Now we have Pain a and Province a.") == [("pain", True), ("province", False)]
    assert _state_verdicts("Attack a. Now we have Province a.") == [("province", None)]
    assert _state_verdicts("Attack a. Now we have Planet b and Province a.") == [("planet", True), ("province", None)]


def test_a_rejection_with_do_or_a_reason_and_a_tag_that_is_no_need() -> None:
    """"We cannot do Succumb a now" and "Succumb a is not possible because Pain a is missing" reject
    the action (row app.cant; before, the verb "do" and the reason hid it); "Attack a. Pain a is
    there." checks no need of Attack a, so it is not judged before the step (it was, and flagged)."""
    walk = "Attack a. "
    assert _false_actions(walk + "We cannot do Succumb a now.") == ["(succumb a)"]
    assert _false_actions(walk + "Succumb a is not possible because Pain a is missing.") == ["(succumb a)"]
    assert _false_actions(walk + "Attack b is not possible because Harmony is gone.") == []
    assert _false_actions(walk + "Pain a is there.") == []
    assert _false_actions(walk + "Province a (yes), Harmony (no).") == ["state"]


def test_gain_adds_and_cost_removes() -> None:
    """"we lose Province a and gain Pain a and Planet a": "gain" adds (before, the facts after it were
    read as removed, and the claim was flagged for the wrong fact); "costs us Harmony" removes."""
    said = _claims("When we Attack a, we lose Province a and gain Pain a and Planet a.", _mystery_task()[1])
    assert [(rules, holds) for _, holds, rules in said] == [
        (("effect.del",), True), (("effect.add",), True), (("effect.add",), False)]
    assert [h for _, h, _ in _claims("Attacking a costs us Harmony.", _mystery_task()[1])] == [True]


def test_the_goal_said_not_yet_reached() -> None:
    """"The goal is not yet achieved." (row goal.not; the time word between the denial and the verb
    hid it) after a walk that reaches it is false."""
    done = "Attack b. Overcome b from c. "
    assert _false_actions(done + "The goal is not yet achieved.") == ["goal"]
    assert _false_actions("Attack a. The goal is not yet achieved.") == []


def test_a_role_after_of_names_the_parameter() -> None:
    """"Overcome requires Province of the object and Pain of the other object" (row rule.role) swaps
    the roles: false, where only the predicates were judged before (both right); "Pain on some
    object" leaves the object open and is not judged by role."""
    row = _mystery_task()[1]
    said = [(rules, h) for _, h, rules in _claims(
        "Overcome requires Province of the object and Pain of the other object.", row) if rules == ("rule.role",)]
    assert said == [(("rule.role",), False), (("rule.role",), False)]
    right = _claims("Overcome requires Province of the other object and Pain of the object.", row)
    assert [h for _, h, _ in right] == [True, True, True, True]
    assert [r for _, _, r in _claims("Attack gives Pain on some object.", row) if r == ("rule.role",)] == []


@pytest.mark.parametrize("sentence, action", [
    ("Lift blue off red.", ("unstack", ("b", "a"))),
    ("Pick blue up from red.", ("unstack", ("b", "a"))),
    ("Pick up blue from red.", ("unstack", ("b", "a"))),
    ("Grab red.", ("pick-up", ("a",))),
    ("Set blue down.", ("put-down", ("b",))),
    ("Move red onto blue.", ("stack", ("a", "b"))),
    ("Take a different approach.", None),
    ("Unstacking just lifts blue off.", None),
    ("After moving red, blue would be clear.", None),
    ("Blue, sitting clear on the table, can take red now.", None),
], ids=lambda x: x if isinstance(x, str) else "")
def test_other_verbs_name_an_action_only_as_their_words_say(sentence: str, action) -> None:
    """Other verbs of an action (`vocab/phrasings.json`, "do <action>") read with all their objects,
    with their own word between two objects and none left over; the one that names more objects
    wins ("pick up blue from red" is unstack, not pick-up)."""
    words = _bw_reader().words
    (unit,) = read_text(sentence).units
    got = [(m.name, m.args) for m in words.actions(unit.tokens) if m.ground is not None]
    assert got == ([action] if action else [])


def test_more_blocks_words_for_the_hand_and_for_clear_blocks() -> None:
    """"Now I hold nothing" after an unstack says the hand is empty (false); "red is free" is clear,
    "blue is atop red" is on (`vocab/phrasings.json`)."""
    walk = "1. Unstack blue from red. "
    assert [c.holds for c in _bw_reader().read(walk + "Now I hold nothing.").claims] == [False]
    assert [c.holds for c in _bw_reader().read(walk + "Now red is free.").claims] == [True]
    assert [c.holds for c in _bw_reader().read(walk + "Now blue is atop red.").claims] == [False]


@pytest.mark.parametrize("text, verdicts", [
    ("So can we Attack a? Yes, since Province a, Planet a, Harmony.", [True]),
    ("So can we Feast a from b? Yes, since a craves b, Province a, Harmony.", [False]),
    ("Then can we Attack a? No.", [False]),
], ids=["so-yes", "so-yes-false", "then-no"])
def test_a_can_question_after_so_or_then_is_answered(text: str, verdicts: list[bool]) -> None:
    """Row app.answered: "So can we Feast b from c? Yes, since ..." (R1) opens with a filler word."""
    assert [c.holds for c in _mystery_reader().read(text).claims if "app.answered" in c.rules] == verdicts


def test_a_question_answered_yes_or_no_is_a_claim() -> None:
    """"Is Planet b there? No." and "Can I Succumb a now? No." (rows state.answered, app.answered)
    assert what the answer says; the needs of a step just named are checked before it ("Step 1:
    Unstack Blue from Red. Is Blue clear? Yes."), other facts in the state after it."""
    assert _false_actions("Attack a.\n\nIs Planet b there? No.") == ["state"]
    assert _false_actions("Attack a. Can I Succumb a now? No.") == ["(succumb a)"]
    assert _false_actions("Attack a. Can we do Overcome a from b? Yes.") == []
    assert _state_verdicts("Attack a. Is Harmony still there? Yes.") == [("harmony", True)]  # its need, before it
    assert _state_verdicts("Attack a. Is Province b still there? No.") == [("province", False)]
    bw = _bw_reader()
    checks = bw.read("Step 1: Unstack blue from red. Is blue on top of red? Yes. Is blue clear? Yes.").claims
    assert [(c.rules, c.holds) for c in checks] == [(("state.answered",), True), (("state.answered",), True)]
    assert [c.holds for c in bw.read("1. Unstack blue from red.\n\nIs red clear? No.").claims] == [False]
    assert _false_actions("Attack a. Is Pain a there? No, wait, yes.") == []  # answered twice: not read
    assert _false_actions("Attack a. Is Pain a there? No... yes, it is.") == []


def test_a_fact_said_to_stay_after_a_step_speaks_of_the_state_it_left() -> None:
    """"Attack a. Planet a stays." says Attack a left Planet a: false (before, it was judged as a need
    checked before the step, and passed); "Harmony is still there" may check a need, and still is."""
    assert _state_verdicts("Attack a. Planet a stays.") == [("planet", False)]
    assert _state_verdicts("Attack a. Planet b remains.") == [("planet", True)]
    assert _state_verdicts("Attack a. Harmony is still there.") == [("harmony", True)]


def test_actions_joined_by_then_are_all_taken() -> None:
    """"So, Attack b, then Overcome b from c. Now b craves c." (row event.then): both steps are taken,
    "it" read as the object before ("unstack blue from red, then put it down"); before, only the
    first was, and the true state claim after them was flagged."""
    assert _state_verdicts("So, Attack b, then Overcome b from c. Now b craves c.") == [("craves", True)]
    bw = _bw_reader()
    assert [c.holds for c in bw.read("Unstack blue from red, then put it down. Now blue is on the table.").claims] == [True]
    forced = _mystery_task()
    report = ClaimReader.for_task(*forced[0][:2]).read("Attack a, then Attack b. Now Pain b is there.")
    assert [a.text() for a in report.lines[-1].actions] == ["(attack a)", "(attack b)"]  # forced, as a step alone is
    assert report.lines[-1].broken == 1
    lost = bw.read("Unstack blue from red, then we can put it down. Now blue is on the table.")
    assert lost.claims == [] and not lost.lines[-1].known


def test_a_fact_the_action_just_told_would_make_so_is_not_judged_now() -> None:
    """"Attack a. Succumb a gives back Harmony. So Harmony is true." (row state.after_told): the
    sentence before tells what Succumb a does without taking it; Harmony said true next may be the
    state after it (it was flagged as false after Attack a). A fact it does not touch, or a sentence
    that names its own cause ("... was removed by Attack"), is judged as before."""
    walk = "Attack a. Succumb a gives back Harmony. "
    assert _state_verdicts(walk + "So Harmony is true.") == [("harmony", None)]
    assert _state_verdicts(walk + "So Planet b is false.") == [("planet", False)]


def test_an_action_named_without_objects_and_a_fact_with_them() -> None:
    """"The Attack removed Province a, Planet a and Pain a.": which Attack is not said, so the facts
    are judged by predicate, and only where no Attack could make it so (no Attack removes a Pain);
    "Province a" is left alone (some Attack removes it). Right after "1. Attack a." the noun is that
    step (row event.the_step): its effects are judged, and Pain a is the false one."""
    row = _mystery_task()[1]
    said = _claims("The Attack removed Province a, Planet a and Pain a.", row)
    assert [(r, h) for _, h, r in said if r == ("rule.del",)] == [(("rule.del",), False)]
    said = _claims("1. Attack a. The Attack removed Province a, Planet a and Pain a.", row)
    assert [(r, h) for _, h, r in said if r == ("effect.del",)] == [(("effect.del",), True)] * 2 + [(("effect.del",), False)]
    assert [h for _, h, _ in _claims("Succumb restores Pain a.", row)] == [False]


def test_a_named_action_said_plainly_to_need_what_it_never_needs() -> None:
    """"Succumb a needs Harmony" and "To Attack b, we need Pain b" (row rule.needs_of) are false rule
    claims: before, a need of a predicate the action never needs was left unjudged as a possible far
    aim, which "requires getting Harmony first" still is."""
    assert _false_actions("Succumb a needs Harmony.") == ["(succumb a)"]
    assert _false_actions("To Attack b, we need Pain b.") == ["(attack b)"]
    assert _false_actions("Overcome a from b requires getting Harmony first.") == []
    assert _false_actions("Succumb a needs Pain a.") == []


def test_an_action_said_to_keep_what_it_removes() -> None:
    """"Feasting keeps Harmony.", "After attacking, Harmony stays true." (row rule.kept): an action
    named without objects said to leave a fact alone is a rule claim, false where the action removes
    the predicate. A predicate it both adds and removes (Province under Overcome) is not judged:
    which object is meant is not said."""
    row = _mystery_task()[1]
    assert [(r, h) for _, h, r in _claims("Feasting keeps Harmony.", row)] == [(("rule.kept",), False)]
    assert [(r, h) for _, h, r in _claims("After attacking, Harmony stays true.", row)] == [(("rule.kept",), False)]
    assert [h for _, h, _ in _claims("When you attack an object, Province of it remains.", row)] == [False]
    assert [h for _, h, _ in _claims("Succumbing keeps Harmony.", row)] == [True]
    assert _claims("Overcoming keeps Province.", row) == []


def test_a_two_object_fact_between_role_words() -> None:
    """"the object craves the other object" (row rule.role) names both parameters of the action:
    "For Feast, the other object must crave the object" says Feast needs (craves ?underob ?ob),
    false; the plain verb ("crave") is the predicate too, and "makes Y crave X" with Y and X bound."""
    row = _mystery_task()[1]
    said = _claims("For Feast, the other object must crave the object.", row)
    assert [(r, h) for _, h, r in said] == [(("rule.role",), False)]
    assert [h for _, h, r in _claims("Overcome makes the object crave the other object.", row)] == [True]
    assert [h for _, h, r in _claims("Overcome makes the other object crave the object.", row)] == [False]
    assert [h for _, h, r in _claims("Overcome X from Y makes Y crave X.", row)] == [False]
    assert [h for _, h, r in _claims("So doing Overcome a from b would make a crave b.", row)] == [True]


def test_that_after_two_actions_is_not_the_first_one() -> None:
    """"Pick up orange and stack it on red. That would make orange on red.": "that" is the pair (or
    the last), not the pick-up alone, which the unit after was judged against (a false flag in an R1
    trace once "make" became an add cue)."""
    bw = _bw_reader()
    report = bw.read("Unstack blue from red. Then put down blue. So yes, pick up red and stack it on blue. "
                     "That would make red on blue.")
    assert [c for c in report.claims if c.holds is False] == []


_BW_COLOURS_PROBLEM = ("(define (problem p) (:domain blocksworld-4ops) (:objects red blue orange) (:init (handempty) "
                       "(ontable red) (on blue red) (clear blue) (ontable orange) (clear orange)) (:goal (and (on red orange))))")


def _bw_colours() -> ClaimReader:
    """Blue on red, red and orange on the table, the hand empty: colour names, so no object is
    also an English article."""
    from tests.test_thinking_claims import BW_DOMAIN
    return ClaimReader.for_task(*planning_task({"domain_pddl": BW_DOMAIN, "problem_pddl": _BW_COLOURS_PROBLEM},
                                               "blocksworld")[:2])


@pytest.mark.parametrize("sentence, verdicts", [
    ("To pick up a block, it must be clear and on the table, and the hand must be empty.", [True, True, True]),
    ("To pick up a block, the hand must be holding something.", [False]),
    ("To unstack a block, the hand must be full.", [False]),
    ("Before stacking, the hand must be empty.", [False]),
    ("Before stacking, I must be holding the block.", [True]),
    ("To stack blue on orange, orange must be clear.", [True]),
    ("To stack blue on orange, blue must be clear and on the table.", [False, False]),
    ("To pick up orange, orange must be on blue.", [False]),
    ("To unstack blue from red, the hand must be empty and blue must be clear.", [True, True]),
])
def test_what_must_hold_for_an_action_named_as_a_purpose(sentence: str, verdicts: list[bool]) -> None:
    """"To <action>, <facts> must be ..." (row rule.must; "must", "has to be", "should be" read as
    "is" inside a fact): each fact is a need of the action, by predicate when it names no objects.
    Ten such sentences in the R1 Blocksworld traces, all true, are now judged."""
    report = _bw_colours().read(sentence)
    assert [(c.rules, c.holds) for c in report.claims] == [(("rule.must",), v) for v in verdicts]


def test_a_fact_that_must_hold_is_no_state_claim() -> None:
    """"Now orange must be on red" and "Red must be clear" say what is needed (the R1 traces use
    "must be" so 57 times, nearly all needs), not what holds: no state claim, either way."""
    bw = _bw_colours()
    assert bw.read("Unstack blue from red. Now orange must be on red.").claims == []
    assert bw.read("Red must be clear.").claims == []
    assert [c.holds for c in bw.read("Initially, red is clear.").claims] == [False]


@pytest.mark.parametrize("domain, sentence, verdicts", [
    ("m", "After attacking, Harmony is there.", [False]),
    ("m", "After Succumb, Harmony is back.", [True]),
    ("m", "After Feast, Pain is gone.", [False]),
    ("m", "After Feast, there's no Harmony.", [True]),
    ("m", "After Attack, we have Harmony.", [False]),
    ("m", "Once you Attack, Pain becomes false.", [False]),
    ("m", "After Feast, there is still Harmony.", [False]),
    ("m", "After Succumb, Province, Planet, Harmony are added, and Pain is removed.", [True, True, True, True]),
    ("m", "After Overcome, Province is there.", []),  # added for one object, removed for the other
    ("b", "After picking up a block, the hand is empty.", [False]),
    ("b", "After stacking, the hand is empty.", [True]),
    ("b", "After putting down a block, I am still holding it.", [False]),
])
def test_what_holds_after_an_action_named_without_objects(domain: str, sentence: str, verdicts: list[bool]) -> None:
    """"After Feast, Pain is gone." (row rule.after): a rule about what the action leaves, judged
    by predicate where the action adds or removes it. 72 such sentences in the 40 R1 traces are
    now judged, all true."""
    reader = _bw_colours() if domain == "b" else ClaimReader.for_task(*_mystery_task()[0][:2])
    assert [c.holds for c in reader.read(sentence).claims if c.kind == "rule"] == verdicts


def test_now_or_then_after_a_step_speaks_of_the_state_the_line_is_in() -> None:
    """"Attack b. Now Attack a is possible, since ...": "now" before the action (or "then", "next"
    opening the unit) right after the line's last step is no silent return to the initial state,
    where Attack a could be done: the claim is about the state after Attack b, and false. Without
    the word the reader still reads both (the model may have gone back), and leaves it unjudged;
    a step the line has taken, named again, is no new step."""
    row = _mystery_task()[1]
    said = _claims("Attack b. Now Attack a is possible, since we have Province a, Planet a and Harmony.", row)
    assert [(k, h) for k, h, _ in said if k == "applicability"] == [("applicability", False)]
    plain = _claims("Attack b. Attack a is possible, since we have Province a, Planet a and Harmony.", row)
    assert [(k, h) for k, h, _ in plain if k == "applicability"] == [("applicability", None)]
    report = ClaimReader.for_task(*_mystery_task()[0][:2]).read("Attack b. Then Attack c: Province c yes, Harmony yes.")
    assert [a.text() for a in report.lines[-1].actions] == ["(attack b)", "(attack c)"]
    assert [c.holds for c in report.claims if c.atom == ("harmony",)] == [False]


def test_a_singular_verb_after_a_list_denies_its_own_fact() -> None:
    """"Now we have Pain b, and Harmony is gone.": "is gone" denies Harmony only (Pain b was read
    as denied too, and flagged); "Province b, Planet b and Harmony are gone" denies the list."""
    assert _state_verdicts("Attack b. Now we have Pain b, and Harmony is gone.") == [("pain", True), ("harmony", True)]


def test_it_after_a_partly_named_action_and_that_after_it() -> None:
    """"Pick up red. Then stack it on orange. That gives red on orange.": "it" is red, the object of
    the step before, also where the action is named with its other object; and "that" speaks of
    the stack. Before, the line was lost there and "that" was judged against the pick-up (a false
    flag); a step that cannot be read at all still leaves "that" without a step."""
    bw = _bw_colours()
    walk = "Unstack blue from red. Put down blue. Pick up red. "
    said = bw.read(walk + "Then stack it on orange. That gives red on orange.")
    assert [a.text() for a in said.lines[-1].actions][-1] == "(stack red orange)"
    assert [(c.rules, c.holds) for c in said.claims] == [(("effect.focus",), True)]
    lost = bw.read(walk + "Then stack it somewhere else. That gives red on orange.")
    assert [c for c in lost.claims if c.holds is False] == []


def test_a_question_after_a_step_about_a_fact_the_step_changes() -> None:
    """"Attack b. Is Harmony true? No.": Harmony is a need of Attack b, so the question may check
    it before the step (false there) or ask after it (true): not judged. "I thought Harmony stays"
    reports a belief given up, not a claim."""
    assert _state_verdicts("Attack b. Is Harmony true? No.") == [("harmony", None)]
    assert _state_verdicts("Attack b. Is Pain c there? Yes.") == [("pain", False)]  # false either way
    assert _state_verdicts("Attack b. Hmm, I thought Harmony stays, but actually it's removed.") == []


def test_the_state_after_step_k_is_a_recap() -> None:
    """"The state after step 1:" over its facts is the state after the list's step 1, as "After
    step 1:" is ("state after" is one state cue, so the recap went unseen and the facts were judged
    in the initial state); without a list it places nothing."""
    walk = "1. Attack b.\n2. Overcome b from c.\n\n"
    assert _state_verdicts(walk + "The state after step 1:\n- Pain b: true\n- Planet b: true") == [
        ("pain", True), ("planet", False)]
    assert _state_verdicts("The state after step 1:\n- Pain b: true") == []


def test_a_run_of_need_checks_after_a_step() -> None:
    """"Overcome a from c. Check: Province c - yes. Pain a - yes.": each check of the run speaks of
    the step's needs (only the first was read); "Both present." after its needs says they hold."""
    assert _state_verdicts("Attack b. Overcome a from c. Check: Province c - yes. Pain a - yes.") == [
        ("province", True), ("pain", False)]
    row = _mystery_task()[1]
    said = _claims("Attack b. Overcome a from c: needs Province c and Pain a. Both present.", row)
    assert [h for k, h, _ in said if k == "applicability"] == [False]
    said = _claims("Attack b. Overcome b from c: needs Province c and Pain b. Both present.", row)
    assert [h for k, h, _ in said if k == "applicability"] == [True]


def test_needs_listed_then_said_had() -> None:
    """"Overcome a from c requires Province c and Pain a, which we have." (row app.needs_met): the
    needs listed, then said to hold ("which we have", "which are both true", "and we have both"),
    present the action as doable."""
    row = _mystery_task()[1]
    for tail in (", which we have.", ", which are both true.", ", and we have both."):
        said = _claims("Attack b. Overcome a from c requires Province c and Pain a" + tail, row)
        assert [h for k, h, _ in said if k == "applicability"] == [False], tail
    said = _claims("Attack b. Overcome b from c requires Province c and Pain b, which we have.", row)
    assert [h for k, h, _ in said if k == "applicability"] == [True]


def test_a_fact_said_now_false_or_still_missing_is_denied() -> None:
    """"- Harmony is now false" and "Pain c is still missing" deny the fact: the time word between
    the fact and its denial hid the denial, and both were judged as saying the fact holds (the
    second a false flag in an R1 trace)."""
    assert _state_verdicts("Attack b.\n\nFacts:\n\n- Pain b\n- Harmony is now false") == [("pain", True), ("harmony", True)]
    assert _state_verdicts("Attack b. Pain c is still missing.") == [("pain", True)]
    assert _state_verdicts("Attack b. Pain b is now true.") == [("pain", True)]


def test_past_tense_gains_and_a_result_opening() -> None:
    """"Overcoming b from c gave us Pain c." ("gave", "got" add) and "Because of that, Pain b
    remains." ("as a result", "because of that" speak of the state after the step, as "now" does)
    are read after the step."""
    row = _mystery_task()[1]
    walk = "Attack b. Overcome b from c. "
    assert [h for k, h, _ in _claims(walk + "Overcoming b from c gave us Pain c.", row) if k == "effect"] == [False]
    assert [h for _, h, _ in _claims(walk + "Because of that, Pain b remains.", row)] == [False]
    assert _state_verdicts(walk + "As a result, Harmony is gone.") == [("harmony", False)]


def test_again_after_a_fact_is_read_past() -> None:
    """"Blue is on top of red again." after blue was put down on the table: "again" is no word of
    the fact's, and the sentence is a false state claim (it was not read)."""
    bw = _bw_colours()
    said = bw.read("Unstack blue from red. Put down blue. Blue is on top of red again.").claims
    assert [(c.rules, c.holds) for c in said] == [(("state.plain",), False)]


def test_what_a_supposed_step_does_is_an_effect_claim() -> None:
    """"If I do Feast b from c, it adds Pain c.": the effect said after the supposition's clause is
    what the step does, an effect claim even in a proposal (thinking-claims.md); a supposition of
    the effect itself ("If Succumb c adds Planet c, ...") is not. Three such sentences in the 40 R1
    traces are now flagged, each the misread rule of its trace ("If we Feast a from b, we get Pain
    b and Province b")."""
    row = _mystery_task()[1]
    assert [h for k, h, _ in _claims("If I do Feast b from c, it adds Pain c.", row) if k == "effect"] == [False]
    assert [h for k, h, _ in _claims("If I Attack b, then Pain c becomes true.", row) if k == "effect"] == [False]
    assert [h for k, h, _ in _claims("If we Attack b, we get Pain b and lose Harmony.", row) if k == "effect"] == [True, True]
    assert [k for k, h, _ in _claims("If Succumb c adds Planet a, then we can Attack a.", row) if k == "effect"] == []


def test_facts_after_a_supposed_step() -> None:
    """"If I Overcome b from c, then c craves b." (row state.supposed): the facts said after the
    supposition's clause are what the step leaves. One the step adds or removes is judged by the
    step alone; one it does not touch only where the step can be done where the line is."""
    assert _state_verdicts("Attack b. If I Overcome b from c, then c craves b.") == [("craves", False)]
    assert _state_verdicts("Attack b. If I Overcome b from c, then b craves c and Harmony is back.") == [
        ("craves", True), ("harmony", True)]
    assert _state_verdicts("If I Attack b, I'll have Province b and Pain b.") == [("province", False), ("pain", True)]
    assert _state_verdicts("If I Overcome b from c, then c craves b.") == []  # not doable here: from where?


def test_had_and_not_had_and_there_after_a_fact() -> None:
    """"We don't have Pain b." and "We still have Province c." say whether the fact holds ("don't
    have" was no denial, "still have" before the fact no state word); "Pain c is there now.": after
    its fact, "is there" says it holds (it was read as a question, "Is there ...")."""
    assert _state_verdicts("Attack b. We don't have Harmony.") == [("harmony", True)]
    assert _state_verdicts("We don't have Pain b.") == [("pain", True)]
    assert _state_verdicts("Attack b. We still have Province c.") == [("province", True)]
    assert _state_verdicts("Attack b. Pain c is there now.") == [("pain", False)]
    assert _state_verdicts("Attack b. Is there Pain c?") == []


def test_a_question_that_says_now_is_about_the_state_the_line_is_in() -> None:
    """"Attack b. Can we Attack c now? Yes.": with "now" the question cannot be about the initial
    state, where Attack c could be done, so the answer is judged where the line is (false); without
    it, it stays unjudged."""
    row = _mystery_task()[1]
    assert [h for k, h, _ in _claims("Attack b. Can we Attack c now? Yes.", row) if k == "applicability"] == [False]
    assert [h for k, h, _ in _claims("Attack b. Can we Attack c? Yes.", row) if k == "applicability"] == [None]
    assert [h for k, h, _ in _claims("Attack b. Can we now Overcome b from c? Yes.", row) if k == "applicability"] == [True]


def test_and_put_it_down_is_the_second_step() -> None:
    """"Unstack blue from red and put it down.": "put it down" names put-down only once "it" is read
    as blue, so the second step was dropped (the line then sat one step behind); it is taken when it
    can be done there, as "... and stack it on red" is."""
    bw = _bw_colours()
    report = bw.read("Unstack blue from red and put it down. Now the hand is empty.")
    assert [a.text() for a in report.lines[-1].actions] == ["(unstack blue red)", "(put-down blue)"]
    assert [c.holds for c in report.claims] == [True]
    kept = bw.read("Unstack blue from red and check it.")
    assert [a.text() for a in kept.lines[-1].actions] == ["(unstack blue red)"]


def _mystery_reader() -> ClaimReader:
    row = _mystery_task()[1]
    return ClaimReader.for_task(*planning_task(row["problem"], row["domain"])[:2])


@pytest.mark.parametrize("sentence, verdicts", [
    ("Attack a doesn't remove Planet b.", [True]),
    ("Attack a does not remove Harmony.", [False]),
    ("Attack a doesn't add Harmony.", [True]),
    ("Attack a never adds Pain a.", [False]),
    ("Attack a won't add Harmony.", [True]),
    ("Feast a from b does not give Pain a.", [False]),
    ("Attack a. It doesn't remove Planet b.", [True]),
])
def test_a_denied_effect_cue_denies_its_facts(sentence: str, verdicts: list[bool]) -> None:
    """"Attack a doesn't remove Harmony": a negation right before the add or delete verb denies the
    whole list after it. It was read as the effect itself, so every true denial was flagged."""
    claims = [c for c in _mystery_reader().read(sentence).claims if c.kind == "effect"]
    assert [(c.holds, c.negative) for c in claims] == [(v, True) for v in verdicts]


@pytest.mark.parametrize("sentence, verdicts", [
    ("Attack a. Pain b is unchanged.", [True]),
    ("Attack a. Pain b doesn't change.", [True]),
    ("Attack a. Pain b stays as it was.", [True]),
    ("Attack a. Harmony stays the same.", [False]),
    ("Attack a. Planet b is not removed.", [True]),
    ("Attack a. Harmony is not removed.", [False]),
    ("Attack a doesn't change Pain b.", [True]),
    ("Feast a from b doesn't affect Pain a.", [False]),
    ("Feast b from c doesn't change Harmony.", [False]),
    ("After Attack a, Harmony doesn't change.", [False]),
    ("Attack a. That doesn't change Harmony.", [False]),
])
def test_unchanged_is_no_claim_that_the_fact_holds(sentence: str, verdicts: list[bool]) -> None:
    """"Pain b is unchanged" after Attack a is true when Pain b was false and stays false; it was
    read as "Pain b holds" and flagged. "Unchanged", "doesn't change/affect/touch" (cue kept.same)
    compare the states before and after the step, or, with the action named, say it neither adds
    nor removes the fact; "not removed" (kept.not_removed) is false only for a fact the step took."""
    claims = [c for c in _mystery_reader().read(sentence).claims if c.kind in ("state", "effect")]
    assert [c.holds for c in claims] == verdicts


@pytest.mark.parametrize("sentence, verdicts", [
    ("Province a is removed by Attack a.", [True]),
    ("Planet b is removed by Attack a.", [False]),
    ("Pain b is added by Attack a.", [False]),
    ("Province a, Planet b and Harmony are removed by Attack a.", [True, False, True]),
])
def test_a_passive_cue_with_by_names_the_action_whose_effect_it_is(sentence: str, verdicts: list[bool]) -> None:
    """"Province a is removed by Feast a from c" (row effect.passive): the facts before the passive
    cue are what the action after "by" does; nothing was read from it."""
    claims = _mystery_reader().read(sentence).claims
    assert [(c.rules, c.holds) for c in claims] == [(("effect.passive",), v) for v in verdicts]


@pytest.mark.parametrize("sentence, verdicts", [
    ("Attack a adds Pain a and doesn't change Planet b.", [True, True]),
    ("Attack a adds Pain a and doesn't change Harmony.", [True, False]),
    ("Attack a: Pain a added, Planet b stays.", [True, True]),
    ("Attack a removes Harmony, so Province b stays.", [True, True]),
    ("Attack a requires Harmony, and Planet b remains.", [True]),
])
def test_a_fact_said_kept_beside_the_effects_is_its_own_clause(sentence: str, verdicts: list[bool]) -> None:
    """"Attack a adds Pain a and doesn't change Harmony": the kept cue after the effects is read
    (row effect.kept); "removes Harmony, so Province b stays" no longer counts Province b among
    the removed facts, nor "requires Harmony, and Planet b remains" Planet b among the needs."""
    assert [c.holds for c in _mystery_reader().read(sentence).claims] == verdicts


@pytest.mark.parametrize("sentence, verdicts", [
    ("Province b is gone after Attack a.", [False]),
    ("Province a is gone after Attack a.", [True]),
    ("Harmony remains after Attack a.", [False]),
    ("Pain a is true after Attack a.", [True]),
    ("We have Harmony after Attack a.", [False]),
    ("Attack a. Harmony is still true after Attack a.", [False]),
])
def test_facts_before_a_closing_after_speak_of_the_state_after_the_action(sentence: str, verdicts: list[bool]) -> None:
    """"Province b is gone after Attack a." reads as "After Attack a, Province b is gone." (row
    state.after_closing); a unit that named a ground action judged none of its facts as state."""
    claims = _mystery_reader().read(sentence).claims
    assert [(c.holds, "state.after_closing" in c.rules) for c in claims] == [(v, True) for v in verdicts]


@pytest.mark.parametrize("sentence, verdicts", [
    ("Pain a comes from Attack a.", [True]),
    ("Pain b comes from Attack a.", [False]),
    ("Attack a causes Pain a.", [True]),
    ("Attack a causes Pain b.", [False]),
    ("As a result of Attack a, Pain b is true.", [False]),
    ("As a result of Attack a, Pain a is true.", [True]),
])
def test_other_words_for_what_an_action_makes(sentence: str, verdicts: list[bool]) -> None:
    """Probed forms no R1 trace here uses: "comes from <action>" (cue add.comes_from, row
    effect.passive), "causes", and "as a result of <action>," read as "after <action>,"."""
    assert [c.holds for c in _mystery_reader().read(sentence).claims] == verdicts


@pytest.mark.parametrize("sentence, verdicts", [
    ("The effects of Attack a are: Pain a and no Harmony.", [True, True]),
    ("The effects of Attack a are: Pain a and Harmony.", [True, False]),
    ("The effects of Attack a: Pain b, no Harmony.", [False, True]),
    ("The effects of Attack a are Pain a and Harmony.", [True, False]),
    ("The effect of Attack b is Pain b.", [True]),
])
def test_the_effects_of_an_action_listed_after_it(sentence: str, verdicts: list[bool]) -> None:
    """"The effects of Attack a are ..." (cue add.effects_of, row effect.of): each fact after the
    action is an addition, each said absent a removal. "Attack b is Pain b" read no fact: the one read
    from "b is Pain b" took the action's object; the facts after the action are read again."""
    claims = _mystery_reader().read(sentence).claims
    assert sorted(c.holds for c in claims) == sorted(verdicts) and all(c.rules == ("effect.of",) for c in claims)


_AFTER_THIS = ("1. Attack a. This needs Province a, Planet a and Harmony. After this:\n\n   - Pain a is added.\n"
               "   - Pain b is added.\n   - Harmony is removed.\n   - Planet b removed.\n\n"
               "2. Succumb a. After:\n\n- Pain a is removed.\n- Harmony added. But it was already present except Planet a.")


def test_a_heading_that_points_at_the_step_just_taken_heads_its_effects() -> None:
    """"After this:", "After:", "Then after Attack:" under a step (row heading.after_step) head the
    bullets that tell that step's effects: "- Pain b is added." is a claim about Attack a. A second
    sentence of a bullet ("But it was already present ...") is no line under the heading."""
    every = _mystery_reader().read(_AFTER_THIS).claims
    needs = [c for c in every if c.rules == ("rule.needs_named",)]
    assert [(c.atom, c.holds) for c in needs] == [(("province", "a"), True), (("planet", "a"), True), (("harmony",), True)]
    claims = [c for c in every if c not in needs]
    assert [(c.after, c.atom, c.negative, c.holds) for c in claims] == [
        ("(attack a)", ("pain", "a"), False, True), ("(attack a)", ("pain", "b"), False, False),
        ("(attack a)", ("harmony",), True, True), ("(attack a)", ("planet", "b"), True, False),
        ("(succumb a)", ("pain", "a"), True, True), ("(succumb a)", ("harmony",), False, True)]
    assert all(c.rules == ("heading.after_step",) for c in claims)
    named = _mystery_reader().read("Attack a. Then after Attack:\n\n- Pain b is added.").claims
    assert [(c.after, c.holds) for c in named] == [("(attack a)", False)]


@pytest.mark.parametrize("text", [
    "Attack a. After Feast:\n\n- Pain b is added.",  # another action's name: not the step
    "Attack a. Succumb a.\n\nMaybe this is wrong. I wonder. Let us think. Really.\n\nAfter this:\n\n- Pain b is added.",
])
def test_a_pointing_heading_far_from_the_step_or_naming_another_heads_nothing(text: str) -> None:
    assert not [c for c in _mystery_reader().read(text).claims if "heading.after_step" in c.rules]


@pytest.mark.parametrize("text, verdicts", [
    ("Step 1: Overcome a from c needs Province c and Pain a. No Province c. No Pain a.", [False, True]),
    ("Step 1: Overcome a from c needs Province c and Pain a. Province c is not present. Pain a is present.",
     [False, False]),
    ("Step 1: Overcome a from c. Requires Province c and Pain a. Province c is present. Pain a is gone.", [True, True]),
])
def test_a_need_said_absent_right_after_the_needs_is_checked_before_the_step(text: str, verdicts: list[bool]) -> None:
    """"Overcome a from c needs Province c and Pain a. No Province c.": each plain sentence of the run
    after the needs checks one, in the state before the step (row state.need_check). "Province c is
    not present" was judged after the step, where the step had removed it: a false sentence read as true."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "state"]
    assert [(c.holds, c.rules) for c in claims] == [(v, ("state.need_check",)) for v in verdicts]


def test_a_fact_said_gone_after_the_effects_is_no_need_check() -> None:
    claims = _mystery_reader().read("Attack a. Requires Province a, Planet a, Harmony. Adds Pain a. Harmony is gone.").claims
    assert [(c.rules, c.holds) for c in claims if c.kind == "state"] == [(("state.gone",), True)]


@pytest.mark.parametrize("text, verdict", [
    ("Attack a. Succumb a. Harmony is back.", True),
    ("Attack a. Pain a exists.", True),
    ("Attack a. Pain b exists.", False),
])
def test_a_fact_with_a_verb_after_a_step_is_said_to_hold_after_it(text: str, verdict: bool) -> None:
    """"Succumb a. Harmony is back.": "is back" and "exists" are verbs, not the tag of a need checked
    ("Harmony yes."); a fact that is no need of the step was read as such a tag and left unread. (A
    need of the step, "Attack a. Harmony is back.", is still read as its check, before the step.)"""
    claims = _mystery_reader().read(text).claims
    assert [(c.kind, c.holds, c.rules) for c in claims] == [("state", verdict, ("state.holds",))]


def test_the_bullets_under_a_step_taken_tell_its_effects() -> None:
    """"So Succumb a:" then, a paragraph below, "- Pain b removed.": each bullet that adds or removes is
    an effect of the step (row heading.step); a bullet of plain facts ("- Pain a (yes)") is not read
    as the state after it, as it may check the step's needs."""
    text = "Attack a.\n\nSo Succumb a:\n\n- Province a, Planet a, Harmony added.\n- Pain b removed.\n- Pain a (yes)"
    claims = _mystery_reader().read(text).claims
    assert [(c.atom, c.negative, c.holds) for c in claims] == [
        (("province", "a"), False, True), (("planet", "a"), False, True), (("harmony",), False, True),
        (("pain", "b"), True, False)]
    assert all(c.rules in (("heading.step",), ("effect.told",)) and c.after == "(succumb a)" for c in claims)
    # (a passive bullet right after the step is read as telling it, row effect.told, before the heading's row)


@pytest.mark.parametrize("text, said", [
    ("1. Attack a (needs Province a, Planet a, Harmony). After: Pain a, remove Province a, Planet b, Harmony.",
     [(("pain", "a"), False, True), (("province", "a"), True, True), (("planet", "b"), True, False),
      (("harmony",), True, True)]),
    ("Attack a. Effects: Pain b, remove Harmony.", [(("pain", "b"), False, False), (("harmony",), True, True)]),
])
def test_an_effect_list_after_a_label_tells_the_step_just_taken(text: str, said: list) -> None:
    """"After: Pain a, remove Province a, ...": the facts after the label and before the first cue are
    what the step adds (row effect.label)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.negative, c.holds) for c in claims] == said
    assert all(c.rules == ("effect.label",) and c.after == "(attack a)" for c in claims)


def test_a_label_that_is_no_effect_word_heads_no_effect_list() -> None:
    assert not [c for c in _mystery_reader().read("Attack a. Note: Pain b, remove Harmony.").claims
                if "effect.label" in c.rules]


def test_a_passive_effect_list_goes_on_telling_the_step_over_paragraphs() -> None:
    """"Step 1: Attack a (needs ...).\\n\\n- Pain b added.": a passive list, the whole unit, tells the
    step as "Adds Pain b." would (row effect.told); only the active form was read."""
    text = "Step 1: Attack a (needs Province a, Planet a, Harmony).\n\n- Pain b added.\n\n- Province a, Planet b removed."
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.negative, c.holds, c.rules) for c in claims] == [
        (("pain", "b"), False, False, ("effect.told",)), (("province", "a"), True, True, ("effect.told",)),
        (("planet", "b"), True, False, ("effect.told",))]


def test_a_step_number_written_against_its_word_is_a_step_label() -> None:
    """"So step5: pick up blue.": "step5" was one word, so the action after it was no step taken and
    the line went on without it. Words that merely hold digits ("item1234", "b1") stay whole."""
    text = "So step5: pick up b1. Step2: x item1234 stepper"
    assert [t.norm for t in tokens_of(text, 0, len(text))] == [
        "so", "step", "5", ":", "pick", "up", "b1", ".", "step", "2", ":", "x", "item1234", "stepper"]


@pytest.mark.parametrize("text, said", [
    # Province c holds before the step (the initial state has every province)
    ("Step 1: Overcome a from c needs Province c and Pain a. Province is a, not c.", [(("province", "c"), True, False)]),
    ("Step 1: Overcome a from b needs Province b and Pain a. But current Province is a, not b.",
     [(("province", "b"), True, False)]),
    ("Step 1: Overcome a from b needs Province b and Pain a. Province is b, not c.", [(("province", "b"), False, True)]),
])
def test_an_object_denied_after_a_fact_is_the_same_fact_of_it_denied(text: str, said: list) -> None:
    """"Province is a, not c": Province c, said absent (task_words list item); after the needs of a
    step it checks the need before the step (row state.need_check), and a fact of the sentence that is
    no need of the step is not judged in another state."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.negative, c.holds) for c in claims] == said
    assert all(c.rules == ("state.need_check",) for c in claims)


@pytest.mark.parametrize("text, said", [
    ("Pick up orange. The hand is not empty.", [(("handempty",), True, True)]),
    ("Pick up orange. Now the hand is no longer empty.", [(("handempty",), True, True)]),
    ("Unstack blue from red. Then red will be clear.", [(("clear", "red"), False, True)]),
    ("Unstack blue from red. Then orange will be covered.", [(("clear", "orange"), True, False)]),
    ("After unstacking blue from red, I'm holding red.", [(("holding", "red"), False, False)]),
    ("After unstacking blue from red, I am holding blue.", [(("holding", "blue"), False, True)]),
])
def test_a_fact_denied_inside_its_words_and_said_with_will_be_or_i_am(text: str, said: list) -> None:
    """Probe sentences: "the hand is not empty" puts the negation between two fixed words of the
    template (it was read only after an object, "red is not clear"); "will be" and "would be" stand
    where the template has "is", as "must be" does; "I'm holding red" is a phrasing of holding
    (vocab/phrasings.json). Each of these was read as nothing."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.negative, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Attack a. The effects are Pain a and Province b.", [(("pain", "a"), True), (("province", "b"), False)]),
    ("Attack a. The effect is: Pain b.", [(("pain", "b"), False)]),
    ("Attack a. Effect: adds Pain b.", [(("pain", "b"), False)]),
    ("Attack a. The effects of Attack a are Pain a.", [(("pain", "a"), True)]),
])
def test_a_label_in_words_reads_as_the_label(text: str, said: list) -> None:
    """"The effects are Pain a and Province b." right after a step is "Effects: Pain a and Province b."
    (row effect.label, reading._as_label); a label may open with its cue ("Effect: adds Pain b.").
    "The effects of Attack a are" names its action and keeps its own row."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == said


def test_a_verdict_clause_starts_at_its_first_word() -> None:
    """The parser's verdict clause began at the space before it, so a verdict in a unit of its own
    ("Attack a. Succumb a. So the plan works.") fell between two units and no reader judged it."""
    from trace_parsers._thinking import claims as verdict_clauses
    text = "Attack a. Succumb a. So the plan works."
    (found,) = verdict_clauses(text, 100)
    assert text[found["span"][0] - 100:found["span"][1] - 100] == "So the plan works."
    trace = "Okay, let me work through this problem step by step and think.\n\n" + text
    verdict = _audit_mystery(trace).verdict.to_json()
    assert [s["rule"] for s in verdict["invalid_steps"]] == ["false_plan_verdict_claim"]


def _audit_mystery(trace: str):
    row = dict(_mystery_task()[1], trace=trace, id="probe")
    row.pop("expected", None)
    return audit_record(record_from_json(row))


@pytest.mark.parametrize("text, flagged", [
    ("First, Attack a. Next, Succumb a. This leads to the goal.", True),
    ("First, Attack a. Next, Succumb a. This reaches the goal.", True),
    ("To reach the goal, we need b craves c.", False),
    ("Attack a. Which action leads to the goal?", False),
    ("Attack a. Maybe this leads to the goal.", False),
])
def test_leading_to_the_goal_says_the_goal_is_met(text: str, flagged: bool) -> None:
    """"This leads to the goal." after a walk says the goal holds where the line is (lexicon
    goal_met.done); a purpose, a question or a hedge says nothing of the kind."""
    verdict = _audit_mystery("Okay, let me work through this problem step by step and think.\n\n" + text).verdict.to_json()
    assert bool(verdict["invalid_steps"]) is flagged


def test_a_walk_with_a_step_named_but_not_read_gets_no_plan_verdict() -> None:
    """"So pick up orange and stack it on red. So that's correct.": "stack it on red" names a step
    the reader could not bind, so the line lacks it; the verdict is not judged on that line."""
    text = ("Okay, let me work through this problem step by step and think.\n\nUnstack blue from red. Put down blue. "
            "So pick up red and stack it on orange. So that's correct.")
    from tests.test_thinking_claims import BW_DOMAIN
    row = {"id": "probe", "domain": "blocksworld", "model": "probe", "answer": "", "trace": text,
           "problem": {"domain_pddl": BW_DOMAIN, "problem_pddl": _BW_COLOURS_PROBLEM}}
    verdict = audit_record(record_from_json(row)).verdict.to_json()
    assert verdict["invalid_steps"] == []


@pytest.mark.parametrize("text, said", [
    ("Attack a. Succumb a is now possible.", [True]),
    ("Attack a. Succumb b is now possible.", [False]),
    ("Now we can do Overcome a from b.", [False]),
    ("Attack a cannot be performed.", [False]),
    ("Succumb a: Pain a is present, so yes.", [False]),
    ("Attack a: Province a is present, so yes.", [True]),
])
def test_applicability_in_more_words(text: str, said: list) -> None:
    """Probe sentences: "now" between the action and "possible"; "we can do" holds its own subject,
    so it does not ask; "cannot be performed" rejects the action; a step's needs checked in its own
    unit and answered "so yes". Each was read as nothing."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "applicability"]
    assert [c.holds for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Blue is on the table initially.", [(("ontable", "blue"), False)]),
    ("Blue is on red initially.", [(("on", "blue", "red"), True)]),
    ("We start with red on top of blue.", [(("on", "red", "blue"), False)]),
    ("Unstack blue from red. Put down blue. Now orange has blue on top.", [(("on", "blue", "orange"), False)]),
    ("Unstack blue from red. Put down blue. So the state is: orange on table, red covered.",
     [(("ontable", "orange"), True), (("clear", "red"), False)]),
])
def test_state_in_more_words(text: str, said: list) -> None:
    """Probe sentences: facts closed by "initially", "We start with ...", "has blue on top", and a
    list item said absent ("red covered") after a list of another predicate, which read it as one
    more object of the list ("orange on table, red" on the table)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. Red counts as clear too.", [(("clear", "red"), True)]),
    ("Pick up orange. Stack orange on red. Blue gets covered.", [(("clear", "blue"), False)]),
])
def test_a_verb_standing_for_is_between_an_object_and_its_word(text: str, said: list) -> None:
    """Probe sentences (and one of planted half R, built on): "red counts as clear", "blue gets
    covered" say what "red is clear", "blue is covered" say. Not before an object: "Attack a gets
    Pain a" keeps its verb."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.holds) for c in claims] == said


def test_holds_after_a_fact_says_it_holds_where_no_goal_is_named() -> None:
    """"Pain b holds." was read with "holds" as the goal's word (goal_met), so no state was read;
    "b craves c holds, so the goal is met" keeps it (the goal is named)."""
    claims = _mystery_reader().read("Attack b. Pain b holds.").claims
    assert [(c.kind, c.atom, c.holds) for c in claims] == [("state", ("pain", "b"), True)]


@pytest.mark.parametrize("text, said", [
    ("Attack a. We no longer have Planet a after that.", [("effect", ("planet", "a"), True)]),
    ("Attack a. After that, we no longer have Pain a.", [("effect", ("pain", "a"), False)]),
    ("Attack a. We lose Planet a once this is done.", [("effect", ("planet", "a"), True)]),
    ("Attack a. Afterwards, we lose Pain a.", [("effect", ("pain", "a"), False)]),
    ("Attack a. This step adds Pain b.", [("effect", ("pain", "b"), False)]),
    ("Attack a. That step deletes Province a.", [("effect", ("province", "a"), True)]),
    ("Attack a. We have Harmony after that.", [("state", ("harmony",), False)]),
    ("Attack a. Pain a is there once that's done.", [("state", ("pain", "a"), True)]),
    ("Attack a. Harmony comes back.", [("effect", ("harmony",), False)]),
    ("Attack a. We end up with Harmony too.", [("state", ("harmony",), False)]),
    # "after step 2" and "the next step" name another step: not the step in focus
    ("Attack a. We lose Pain a after step 2.", []),
    ("Attack a. Then the next step adds Harmony.", []),
])
def test_words_that_point_at_the_step_just_taken(text: str, said: list) -> None:
    """Probe sentences written after in-context plants of our own, in free R1 traces, read as
    nothing: a time that only points at the step in focus ("after that", "once this is done",
    "afterwards") and a subject that does ("this step adds") are read as filler by the effect
    rows (focus.pointing_time, focus.pointing_subject); a closing "after that" says the state
    after the step, so a fact true before it and false after is judged, not left to two readings."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind != "applicability"]
    assert [(c.kind, c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. Red ends up clear.", [(("clear", "red"), True)]),
    ("Pick up orange. Red ends up clear.", [(("clear", "red"), False)]),
    ("Unstack blue from red. Blue ends up on the table.", [(("ontable", "blue"), False)]),
    ("Unstack blue from red. Red is no longer clear.", [(("clear", "red"), False)]),
    ("Unstack blue from red. Red isn't clear after that.", [(("clear", "red"), False)]),
    ("Unstack blue from red. Red is clear after that.", [(("clear", "red"), True)]),
])
def test_ends_up_stands_for_is_between_an_object_and_its_word(text: str, said: list) -> None:
    """"red ends up clear" says what "red is clear" says ("Pick up red" keeps its "up"). Right after
    a step, "ends up", "no longer" and a closing "after that" say the state the step left: a fact
    false after it is judged, not left to the two states around the step."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, holds", [
    ("Unstack blue from red, then stack blue on orange would solve it.", False),
    ("Unstack blue from red, then stack blue on orange would do it.", False),
    ("Unstack blue from red, then stack blue on orange gets there too.", False),
    ("Unstack blue from red, then stack blue on orange would also work.", False),
    ("Unstack blue from red, then stack blue on orange works just as well.", False),
    ("Unstack blue from red, put down blue, pick up red and stack red on orange also solves the problem.", True),
    # "would work" alone may speak of a part of a plan: the goal is not asked of it
    ("Unstack blue from red, then stack blue on orange would work.", None),
])
def test_a_plan_said_to_reach_the_goal_or_set_beside_another(text: str, holds: bool | None) -> None:
    """Probe sentences: a verdict phrase that speaks of the goal ("would do it", "gets there",
    "solves it") or a word that sets the actions beside another plan ("also", "too", "just as
    well") makes them a whole plan, so one that ends without the goal is said to work falsely."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "plan_verdict"]
    assert [c.holds for c in claims] == ([] if holds is None else [holds])


@pytest.mark.parametrize("text, said", [
    ("Attack a. Province a, however, stays.", [("state", ("province", "a"), False)]),
    ("Attack a. Harmony, on the other hand, comes back.", [("effect", ("harmony",), False)]),
    ("Attack a. Planet a, of course, is gone.", [("state", ("planet", "a"), True)]),
])
def test_an_aside_between_a_fact_and_its_verb_is_read_past(text: str, said: list) -> None:
    """Probe sentences: ", however,", ", on the other hand," after a fact are no letters of the
    shape (reading._without_asides), as the fact phrases already read past them."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind != "applicability"]
    assert [(c.kind, c.atom, c.holds) for c in claims] == said


def test_does_it_closing_a_statement_is_a_verdict_not_a_question() -> None:
    """"... also does it." ends with a full stop: "does it" is the verdict phrase, where "Does it
    work?" asks. The two cue rows tie on length; the question wins only in a question."""
    text = "Going back to the beginning, pick up orange and put down orange also does it."
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "plan_verdict"]
    assert [c.holds for c in claims] == [False]


@pytest.mark.parametrize("text", [
    "Once performed, Pain (object?) is true, and Province, Planet, Harmony are false.",
    "Attack needs Harmony. After that, Harmony is false.",
    "Once done, Province b is gone.",
    "Attack a. Adding Pain a doesn't remove Planet b.",
    "Attack a. Now Pain a (yes), Planet b (no, because Attack a doesn't affect Planet b).",
    "So Pain a would be added, and Harmony would be removed.",
])
def test_sentences_that_speak_of_no_state_on_the_line_make_no_state_claim(text: str) -> None:
    """Read as state claims on the line before, each a false flag in R1 text: the rest of a sentence
    a query in parentheses cut off ("Pain (object?) is true, ..."); "After that," or "Once done,"
    with no step taken to point at; a fact that is the subject of "doesn't remove"; a "no" whose
    reason says the step leaves the fact alone; and what a step "would" add or remove."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "state" and c.holds is False]
    assert claims == []


@pytest.mark.parametrize("text", [
    "Attack a. Succumb a. Like, Feast a from b? That requires a craves b (no), Province a (yes).",
    "Attack a. Can we Feast b from c? That requires b craves c (no), Province b (yes), Harmony (no, because "
    "Harmony was removed after Attack a).",
])
def test_needs_checked_after_a_question_are_the_asked_steps(text: str) -> None:
    """The needs listed right after "Like, Feast a from b?" are checked in the state that step would
    start from, not before the step taken last; an action named in a reason ("because Harmony was
    removed after Attack a") is not the one whose needs are listed."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "state"]
    assert claims and all(c.holds for c in claims), [(c.atom, c.message) for c in claims]


@pytest.mark.parametrize("text, said", [
    ("If we Attack a, Harmony would be added.", [(("harmony",), False)]),
    ("Attack a. Planet a would be removed.", [(("planet", "a"), True)]),
    ("If we attack a, Pain a will be added.", [(("pain", "a"), True)]),
    ("So if I Attack a, I need Province a. Then, after attacking a, Harmony would be added.", [(("harmony",), False)]),
])
def test_what_a_step_would_add_or_remove_is_its_effect(text: str, said: list) -> None:
    """"would be added" is the passive of an effect (cues add.would_be, del.would_be), not a guess;
    a unit with no condition of its own after one ("So if I Attack a, ... Then, after attacking a,
    ...") says what the step does."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == said


def test_a_step_said_doable_that_is_not_is_judged_and_not_taken() -> None:
    """"Feast a from b could be done right at the start." where a craves nothing: a false claim
    about the step, not a step taken; the text may go on as if it were, so the line is lost after it
    (it was taken, forced, and later claims were judged after it)."""
    report = _mystery_reader().read("Feast a from b could be done right at the start. Attack a. Now Pain a is there.")
    assert [(c.kind, c.holds) for c in report.claims] == [("applicability", False)]
    assert [(e.kind, e.action) for e in report.events if e.kind in ("perform", "lose")] == [("lose", None), ("perform", "(attack a)")]


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. Put down blue. Red is clear. Done.", [False]),
    ("Unstack blue from red. Put down blue. Pick up red. Stack red on orange. Red is on orange. Done.", [True]),
    ("Unstack blue from red. Put down blue. Red is clear. So we're done.", [False]),
    ("Unstack blue from red. Done.", []),
    ("Unstack blue from red. Put down blue. Red is clear, hand is empty. All conditions met.", []),
    ("Unstack blue from red. That would make red clear. Then done.", []),
    ("Unstack blue from red. Put down blue. That gives the desired arrangement.", [False]),
    ("Unstack blue from red. Put down blue. That yields the target configuration.", [False]),
    ("Unstack blue from red. Put down blue. Red is clear, which is what we need.", [False]),
    ("Unstack blue from red. Put down blue. Now the goal should be satisfied.", [False]),
    ("Unstack blue from red. Put down blue. Red is clear, so we're done.", [False]),
    ("Unstack blue from red. Put down blue. The task is complete.", [False]),
    ("Unstack blue from red. Put down blue. Pick up red. Stack red on orange. The problem is solved.", [True]),
    ("Unstack blue from red. Put down blue. Blue is on the table, so that's done.", []),
])
def test_a_bare_done_after_a_state_told_and_a_pointer_that_gives_the_goal_are_goal_claims(text: str, said: list) -> None:
    """"Now a craves b and b craves c. Done." is the doc's own goal claim (row goal.done): "Done." alone,
    right after a unit that only tells facts. After a step ("Unstack blue from red. Done.") it may say
    the step is done, after an effect ("That would make ...") it is about a step not taken, and "All
    conditions met." may be a step's needs: none is read. "That gives the desired arrangement" points
    at the state as "that is the goal" does (row goal.that)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "goal"]
    assert [c.holds for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Attack a. That also wipes Province b.", [("effect", ("province", "b"), False)]),
    ("Attack a. This also brings Harmony back.", [("effect", ("harmony",), False)]),
    ("Attack a drops Harmony.", [("effect", ("harmony",), True)]),
    ("Attack a. Planet a sticks around, too.", [("state", ("planet", "a"), False)]),
    ("Attack a. Harmony is preserved.", [("state", ("harmony",), False)]),
])
def test_more_words_for_what_a_step_takes_brings_or_leaves(text: str, said: list) -> None:
    """Probe wordings of our own, read as nothing before: "wipes" and "drops" (del.removes), "brings
    ... back" (add.gives), "sticks around" and "is preserved" (kept.unchanged, and said right after
    the step they speak of the state it left, as "stays" does)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind != "applicability"]
    assert [(c.kind, c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, holds", [
    ("Unstack blue from red. Picking up red is not an option yet, since blue is in hand.", True),
    ("Unstack blue from red. It's fine to pick up red now.", False),
    ("Unstack blue from red. There's no way to pick up orange yet.", True),
    ("Unstack blue from red. Stacking blue on orange is permitted.", True),
    ("Unstack blue from red. Nothing is stopping me from picking up orange now.", False),
])
def test_more_words_for_a_step_that_can_or_cannot_be_done(text: str, holds: bool) -> None:
    """Probe wordings of our own, read as nothing before: "not an option", "no way to" (cant);
    "fine to", "permitted" (can)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "applicability"]
    assert [c.holds for c in claims] == [holds]


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. I'm now carrying blue.", [(("holding", "blue"), True)]),
    ("Unstack blue from red. Red is exposed now.", [(("clear", "red"), True)]),
    ("Unstack blue from red. Blue is lying on the table.", [(("ontable", "blue"), False)]),
    ("Unstack blue from red. The hand is occupied by blue.", [(("holding", "blue"), True)]),
    ("Pick up orange. My hand is not free.", [(("handempty",), True)]),
])
def test_more_blocksworld_phrasings_of_a_fact(text: str, said: list) -> None:
    """Phrasings of our own added to vocab/phrasings.json: "carrying", "exposed", "lying on the
    table", "occupied by", "not free"."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "state"]
    assert [(c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Attack a. Attack b is ruled out.", [True]),
    ("Attack a. Attack b is out of the question.", [True]),
    ("Attack a. Succumb a would fail here.", [False]),
    ("Attack a, Succumb a. That plan would fail.", []),
    ("Attack a. Succumb a. That sequence is impossible.", []),
])
def test_a_step_ruled_out_and_a_plan_said_to_fail(text: str, said: list) -> None:
    """"ruled out", "out of the question", "would fail" say a step cannot be done; said of "that
    plan" or "that sequence" they are a verdict on the plan, not on the step in focus (was read as
    "Succumb a cannot be done")."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "applicability"]
    assert [c.holds for c in claims] == said


def test_a_fact_present_from_the_initial_state_starts_no_line() -> None:
    """"So Province c was still present from the initial state" says where a fact came from; it is no
    "start again from the initial state" (row event.restart), and the line goes on after Attack a."""
    text = "Attack a. So Province c was still present from the initial state. Now Harmony is there."
    report = _mystery_reader().read(text)
    assert not [e for e in report.events if e.kind == "new" and e.pos > 0]
    assert [(c.atom, c.holds) for c in report.claims if c.kind == "state" and c.atom == ("harmony",)] == [(("harmony",), False)]


def test_an_action_that_can_make_a_fact_is_no_claim_that_it_can_be_done_now() -> None:
    """"How can we create craves? Overcome can do that.": what Overcome can make, not that some
    Overcome is doable in this state (app.some_can), which none is in the initial state."""
    report = _mystery_reader().read("How can we create craves? Overcome can do that.")
    assert [c for c in report.claims if c.kind == "applicability"] == []


@pytest.mark.parametrize("text, said", [
    ("Attack a. The Attack removes Planet b too.", [(("planet", "b"), False)]),
    ("Attack a. That Attack removes Planet a.", [(("planet", "a"), True)]),
    ("Attack a. The Attack doesn't touch Province a.", [(("province", "a"), False)]),
    ("Attack a. Planet b goes away with the Attack as well.", [(("planet", "b"), False)]),
    ("Attack a.\n\nThe Attack removes Planet b.", []),
])
def test_the_step_just_taken_named_by_a_noun(text: str, said: list) -> None:
    """"The Attack" right after "Attack a." in the same paragraph is that step (row event.the_step);
    a paragraph later it may be any Attack, and the sentence is the rule (not an effect claim)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. That empties my hand.", [(("handempty",), False)]),
    ("Unstack blue from red. Unstacking blue doesn't free red.", [(("clear", "red"), False)]),
    ("Unstack blue from red. That frees red.", [(("clear", "red"), True)]),
])
def test_a_verb_for_making_a_fact_in_its_s_form(text: str, said: list) -> None:
    """"empty my hand" says "empties" in the third person (was read as "emptys"); "free {}" makes a
    block clear (vocab/phrasings.json)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == said


def test_verb_forms_of_y_and_sibilant_endings() -> None:
    from validators.planning.task_words import _forms
    assert {"empties", "emptied", "emptying"} <= set(_forms("empty"))
    assert "pushes" in _forms("push") and "fixes" in _forms("fix") and "clears" in _forms("clear")


@pytest.mark.parametrize("text, said", [
    ("Succumb doesn't need anything but Pain.", []),
    ("Succumb doesn't need Harmony.", [True]),
    ("Attack never touches Harmony.", [False]),
    ("Attack a has no effect on Planet b.", [True]),
    ("Attack a. That does nothing to Planet a.", [False]),
])
def test_what_an_action_does_not_need_or_leaves_alone(text: str, said: list) -> None:
    """"doesn't need anything but Pain" says Pain is all it needs: what follows "but" is not denied
    (was read as "Succumb does not need Pain", a false flag); "never touches", "has no effect on",
    "does nothing to" say the action leaves the fact alone (kept.same)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind in ("rule", "effect")]
    assert [c.holds for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Picking up a block doesn't change whether it's clear; it only fills the hand.", [("rule", True), ("rule", False)]),
    ("Unstack blue from red. That doesn't change whether red is clear.", [("effect", False)]),
])
def test_doesnt_change_whether_keeps_the_fact(text: str, said: list) -> None:
    """"doesn't change whether red is clear" says the step leaves the fact as it was: "whether" is
    its complement there, not a condition (which made the unit hypothetical and unread)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind in ("rule", "effect")]
    assert [(c.kind, c.holds) for c in claims] == said


@pytest.mark.parametrize("text, holds", [
    ("So unstack blue from red, pick up red and stack red on orange is a valid plan.", False),
    ("So unstack blue from red, put down blue, pick up red and stack red on orange is a valid plan.", True),
    ("That gives a working plan: unstack blue from red, pick up red, stack red on orange.", False),
])
def test_a_plan_said_valid_or_given_as_working(text: str, holds: bool) -> None:
    """"... is a valid plan" is a verdict on the plan written before it (works.verdict); "That gives a
    working plan: ..." adopts the plan after the colon (row verdict.adopted)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "plan_verdict"]
    assert [c.holds for c in claims] == [holds]


@pytest.mark.parametrize("text, said", [
    ("Attack a, then Succumb a gives b craves c.", [False]),
    ("Attack a, then Succumb a gives Province a and Harmony.", [True]),
    ("Doing Attack a then Succumb a achieves Pain a.", [False]),
    ("Attack a. Succumb a, then Attack a gives Pain a.", [True]),
])
def test_the_facts_a_plan_written_out_is_said_to_give(text: str, said: list) -> None:
    """"Attack a, then Succumb a gives Province a": the facts after the cue are the plan's result,
    judged where it ends (row verdict.result), from where the sentence starts."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind in ("plan_verdict", "effect")]
    assert [(c.kind, c.holds) for c in claims] == [("plan_verdict", h) for h in said]


def test_a_fact_a_plan_gives_is_no_effect_of_its_last_step() -> None:
    """"Unstack blue from red, then put down blue gives us red clear.": red is clear after the two
    steps (the unstack made it so); read as the put-down's effect it was a false flag."""
    claims = _bw_colours().read("Unstack blue from red, then put down blue gives us red clear.").claims
    assert [(c.kind, c.holds) for c in claims if c.kind in ("plan_verdict", "effect")] == [("plan_verdict", True)]


def test_the_goal_said_reached_after_the_lines_steps_counted() -> None:
    """"So the goal is reached after just one step." right after the line's one step: the count is
    the line's, so the time is no vague one (which lost the line and left the claim unread); a count
    that is not the line's still loses it."""
    said = _mystery_reader().read("Attack a. So the goal is reached after just one step.")
    assert [(c.kind, c.holds) for c in said.claims] == [("goal", False)]
    other = _mystery_reader().read("Attack a. So the goal is reached after two steps.")
    assert [c for c in other.claims if c.kind == "goal"] == []


def test_both_opening_a_list_of_facts_is_filler() -> None:
    """"Both red and orange are clear." reads as "Red and orange are clear." ("both" was an unknown
    word that kept the facts from being a plain statement)."""
    claims = _bw_colours().read("Unstack blue from red. Both red and orange are clear.").claims
    assert [(c.atom, c.holds) for c in claims if c.kind == "state"] == [(("clear", "red"), True), (("clear", "orange"), True)]


@pytest.mark.parametrize("text", [
    "Attack a. None of Province a, Planet a or Harmony remain.",
    "Attack a. Neither Planet a nor Harmony remains.",
])
def test_a_list_opened_by_none_or_neither_says_no_fact_holds(text: str) -> None:
    """"None of Province a, Planet a or Harmony remain": the last fact was read as said to remain
    (state.holds), a false flag; no fact of the list is said to hold."""
    assert [c for c in _mystery_reader().read(text).claims if c.kind == "state" and c.holds is False] == []


@pytest.mark.parametrize("text, said", [
    ("Attack a. Effects: +Pain a, -Harmony, -Planet b.", [(("pain", "a"), True), (("harmony",), True), (("planet", "b"), False)]),
    ("Attack a: +Pain a, -Province a, -Harmony.", [(("pain", "a"), True), (("province", "a"), True), (("harmony",), True)]),
])
def test_plus_and_minus_signs_on_the_facts_of_an_effect_list(text: str, said: list) -> None:
    """"+Pain a, -Harmony": a minus sign on a fact says it is removed (cue del.minus); the sign was
    no token, so "-Harmony" read as added, a false flag. A hyphen inside a word ("put-down") and a
    minus before a number stay as they were."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == said
    assert [t.norm for t in tokens_of("put-down x-1 -5 -Harmony", 0, 24)] == ["put-down", "x-1", "5", "-", "harmony"]


def test_labels_over_what_a_step_makes_true_or_false() -> None:
    """"- New: Pain a" and "- Becomes false: Province a" under the step are its effects (add.label,
    del.label); "True afterwards:" is not read so: it lists the state, kept facts too."""
    text = "Attack a:\n- New: Pain a, Harmony\n- Becomes false: Province a\n- True afterwards: Province b"
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "effect"]
    assert [(c.atom, c.holds) for c in claims] == [(("pain", "a"), True), (("harmony",), False), (("province", "a"), True)]


@pytest.mark.parametrize("text, said", [
    ("Unstack blue from red. To pick up orange I need an empty hand, which I have.", [False]),
    ("Unstack blue from red. Picking up red needs red to be clear, which we have.", []),
])
def test_needs_said_had_are_judged_on_the_needs_named(text: str, said: list) -> None:
    """"I need an empty hand, which I have" (row app.needs_met; "I have" says the state as "we have"
    does) is false where the hand is full; "needs red to be clear, which we have" names one need,
    which holds: the step's other need fails, of which the sentence says nothing (was a false flag)."""
    claims = [c for c in _bw_colours().read(text).claims if c.kind == "applicability"]
    assert [c.holds for c in claims] == said


@pytest.mark.parametrize("text, said", [
    ("Succumb X needs Pain Y.", [False]),
    ("Succumb X needs Pain X.", [True]),
    ("Attack X adds Pain Y.", [False]),
    ("Overcome X from Y needs Province Y and Pain X.", [True, True]),
])
def test_a_variable_no_action_binds_is_another_object(text: str, said: list) -> None:
    """"Succumb X needs Pain Y": Y, which no action of the sentence binds, stands for an object other
    than X, and Succumb X needs Pain X (row rule.bound); it was left to the predicate alone ("Succumb
    needs a Pain fact: right")."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "rule"]
    assert [c.holds for c in claims] == said


@pytest.mark.parametrize("text, retracted", [
    ("Attack X adds Pain Y. But that's a bit unclear.", True),
    ("Attack X adds Pain Y. Not sure. Let me recheck.", True),
    ("Attack X adds Pain Y. Wait, the problem statement says:", True),
    ("Attack X adds Pain Y.\n\nNot sure.", False),
    ("Attack X adds Pain Y. Harmony is not sure to be there.", False),
])
def test_a_rule_doubted_in_its_own_paragraph_is_taken_back(text: str, retracted: bool) -> None:
    """thinking-claims.md: "A rule doubted within its own paragraph ('Not sure. Let me recheck') is
    retracted" (row rule.doubted): a unit that only doubts, or goes back to the rules, after it; not
    one a paragraph later, nor one about a fact."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "rule"]
    assert claims and all(c.retracted is retracted for c in claims)


@pytest.mark.parametrize("text, holds", [
    ("Attack a. We're now in a position to Succumb a.", True),
    ("Attack a. Attack b is not an option now.", True),
    ("Attack a. Now b can be attacked.", False),
])
def test_a_step_in_a_position_to_be_done_or_not_an_option(text: str, holds: bool) -> None:
    """"in a position to" and "is an option" say a step can be done ("not an option" that it cannot)."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "applicability"]
    assert [c.holds for c in claims] == [holds]


@pytest.mark.parametrize("text", [
    "So Attack a, then Succumb a would get us to the goal.",
    "The plan Attack a, Succumb a reaches the goal.",
    "Attack a followed by Succumb a gives the goal.",
])
def test_a_plan_written_out_and_said_to_reach_the_goal(text: str) -> None:
    """"A, then B would get us to the goal": a verdict on the whole plan (row verdict.inline, the goal
    named after a cue of reaching or giving); Attack a, Succumb a ends without b craving c."""
    claims = [c for c in _mystery_reader().read(text).claims if c.kind == "plan_verdict"]
    assert [c.holds for c in claims] == [False]
