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
from tests.conftest import load_dev
from validators.planning import planning_task
from validators.planning.claim_rules import ROWS
from validators.planning.reading import ClaimReader, read_unit
from validators.planning.task_words import TaskWords
from validators.reading.cues import lexicon
from validators.reading.numbers import number_value, plain
from validators.reading.text import read_text, tokens_of

MYSTERY_PROBLEM = None


def _mystery_task():
    row = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == "mystery_blocksworld")
    return planning_task(row["problem"], row["domain"]), row


@pytest.mark.parametrize("cue", list(lexicon().cues.values()), ids=lambda c: c.id)
def test_every_cue_row_fires_on_its_own_example(cue) -> None:
    toks = tokens_of(cue.example, 0, len(cue.example))
    assert any(h.cue == cue.id for h in lexicon().hits(toks)), (cue.id, cue.example)
    assert cue.source in ("doc", "R1", "planted")


@pytest.mark.parametrize("row", list(ROWS), ids=lambda r: r.id)
def test_every_rule_row_matches_the_shape_of_its_example(row) -> None:
    (task, vocab, _lexicon, _), _ = _mystery_task()
    if any(w in row.example.lower() for w in ("red", "orange", "blue")):
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
    import os
    old = os.environ.get("STEPSCOPE_READER")
    os.environ["STEPSCOPE_READER"] = "v2"
    try:
        parts = halves(load_dev("thinking_claims_dev_v2.jsonl"))
        yield {name: score_rows(rows) for name, rows in parts.items()}
    finally:
        if old is None:
            os.environ.pop("STEPSCOPE_READER", None)
        else:
            os.environ["STEPSCOPE_READER"] = old


def test_v2_reader_dev_halves_floor(v2_halves) -> None:
    """The new reader's figures on each half of the v2 annotations (built on half A, then tuned on
    half B; bench/claims_score.py). Printed; the floor is what was measured, so a change that
    loses ground fails."""
    for name, score in v2_halves.items():
        print(f"\nv2 reader, half {name}: {score.summary()}")
    a, b = v2_halves["A"], v2_halves["B"]
    assert a.precision >= 0.80 and a.recall >= 0.4 and a.traces_right >= 5
    assert b.precision >= 0.79 and b.recall >= 0.33 and b.traces_right >= 4


def test_numbers_read_thousands_groups_of_exactly_three_digits() -> None:
    """Issue 34.2: one number reader for every arithmetic reader; lists and tuples stay apart."""
    assert [number_value(t) for t in ("278,700", "1,\\!800", "291{,}580", "1\\,800", "-1,234.5")] == [
        278700, 1800, 291580, 1800, Fraction(-2469, 2)]
    assert [number_value(t) for t in ("1,2,3", "(3, 4)", "12,34", "1,2345", "1,234,5")] == [None] * 5
    assert plain("929 × 300 = 278,700; (3, 4); 1,2,3") == "929 × 300 = 278700; (3, 4); 1,2,3"
