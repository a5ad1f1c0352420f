"""TaskWords (validators/planning/task_words.py) after its speed-up: the matchers now read a shared
view of the unit and try only the templates indexed for the words at hand, so these pin, on
hand-written sentences, the mentions the plain matchers found (no timing is asserted here)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.conftest import load_dev
from validators.planning import planning_task
from validators.planning.task_words import ActionMention, FactMention, TaskWords
from validators.reading.text import Token, tokens_of


def _words(domain: str) -> TaskWords:
    row = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == domain)
    task, vocab, _, _ = planning_task(row["problem"], row["domain"])
    return TaskWords.of(task, vocab)


def _tokens(text: str) -> list[Token]:
    return tokens_of(text, 0, len(text))


def _actions(words: TaskWords, text: str) -> list[tuple]:
    return [(m.i, m.j, m.name, m.args, m.ground is not None, m.form) for m in words.actions(_tokens(text))]


def _facts(words: TaskWords, text: str) -> list[tuple]:
    return [(m.i, m.j, m.atom, m.predicate, m.absent_word) for m in words.facts(_tokens(text))]


@pytest.fixture(scope="module")
def mystery() -> TaskWords:
    return _words("mystery_blocksworld")


@pytest.fixture(scope="module")
def blocks() -> TaskWords:
    words = _words("blocksworld")
    assert {"red", "blue", "orange"} <= {key[0] for key in words.objects}
    return words


MYSTERY_FACTS = [
    ("Planet a, b and c.", [(0, 2, ("planet", "a"), "planet", False), (0, 4, ("planet", "b"), "planet", False),
                            (0, 6, ("planet", "c"), "planet", False)]),
    # the list stops where an item opens a fact of its own
    ("Planet a, b craves c", [(0, 2, ("planet", "a"), "planet", False), (3, 6, ("craves", "b", "c"), "craves", False)]),
    ("So c→a and b -> c hold", [(1, 4, ("craves", "c", "a"), "craves", False),
                                (5, 8, ("craves", "b", "c"), "craves", False)]),
    ("Province (b) and Planet: c", [(0, 4, ("province", "b"), "province", False),
                                    (5, 8, ("planet", "c"), "planet", False)]),
    ("object b craves object c", [(1, 5, ("craves", "b", "c"), "craves", False)]),
    ("Attack b gives Pain b?", [(3, 5, ("pain", "b"), "pain", False)]),
    ("Harmony (yes)", [(0, 1, ("harmony",), "harmony", False)]),
    ("a plan, with a wish", []),
    ("it must crave", [(2, 3, None, "craves", False)]),  # a two-object verb's plain form names its predicate
]

MYSTERY_ACTIONS = [
    ("feast(b, c) then (feast b c)", [(0, 6, "feast", ("b", "c"), True, "base"),
                                      (8, 12, "feast", ("b", "c"), True, "base")]),
    ("after attacking a, Succumb to b", [(1, 3, "attack", ("a",), True, "ing"),
                                         (4, 7, "succumb", ("b",), True, "base")]),
    ("Overcome the object from another", [(0, 4, "overcome", (None, None), False, "base")]),
    ("Attack b gives Pain b?", [(0, 2, "attack", ("b",), True, "base")]),
    ("Province a, Planet c, Harmony.", []),
]

BLOCKS_FACTS = [
    ("red is not clear", [(0, 4, ("clear", "a"), "clear", True)]),
    ("orange is covered", [(0, 3, ("clear", "c"), "clear", True)]),
    ("the hand is empty and blue is on the table", [(1, 4, ("handempty",), "handempty", False),
                                                    (5, 10, ("ontable", "b"), "ontable", False)]),
    ("red→blue", [(0, 3, ("on", "a", "b"), "on", False)]),
]

BLOCKS_ACTIONS = [
    ("put red down", [(0, 3, "put-down", ("a",), True, "base")]),
    ("Unstack blue from on top of red", [(0, 7, "unstack", ("b", "a"), True, "base")]),
    ("picked up the orange block", [(0, 4, "pick-up", ("c",), True, "ed")]),
    ("stack(red, blue)", [(0, 6, "stack", ("a", "b"), True, "base")]),
    ("put red", []),  # "put" alone is not put-down: its particle is missing
]


@pytest.mark.parametrize("text,want", MYSTERY_FACTS, ids=[t for t, _ in MYSTERY_FACTS])
def test_mystery_facts(mystery: TaskWords, text: str, want: list[tuple]) -> None:
    assert _facts(mystery, text) == want


@pytest.mark.parametrize("text,want", MYSTERY_ACTIONS, ids=[t for t, _ in MYSTERY_ACTIONS])
def test_mystery_actions(mystery: TaskWords, text: str, want: list[tuple]) -> None:
    assert _actions(mystery, text) == want


@pytest.mark.parametrize("text,want", BLOCKS_FACTS, ids=[t for t, _ in BLOCKS_FACTS])
def test_blocksworld_facts(blocks: TaskWords, text: str, want: list[tuple]) -> None:
    assert _facts(blocks, text) == want


@pytest.mark.parametrize("text,want", BLOCKS_ACTIONS, ids=[t for t, _ in BLOCKS_ACTIONS])
def test_blocksworld_actions(blocks: TaskWords, text: str, want: list[tuple]) -> None:
    assert _actions(blocks, text) == want


def test_actions_then_facts_of_one_unit_share_nothing_stale(mystery: TaskWords) -> None:
    """The view of the last unit is kept between `actions` and `facts`; a token list changed in
    between, or another list with the same tokens, reads as itself."""
    toks = _tokens("Feast b from c")
    assert [m.args for m in mystery.actions(toks)] == [("b", "c")]
    toks[:] = _tokens("Pain a")
    assert [m.atom for m in mystery.facts(toks)] == [("pain", "a")]
    assert mystery.actions(toks) == []
    again = _tokens("Pain a")
    assert mystery.facts(again) == mystery.facts(toks)


def test_mentions_are_the_frozen_dataclasses_themselves(mystery: TaskWords) -> None:
    """Mentions are made by setting their slots directly; they are the same objects `__init__`
    makes: equal, equally hashed, frozen."""
    fact = mystery.facts(_tokens("Pain a"))[0]
    act = mystery.actions(_tokens("Attack a"))[0]
    made = (FactMention(fact.i, fact.j, fact.atom, fact.predicate, fact.absent_word),
            ActionMention(act.i, act.j, act.name, act.args, act.ground, act.form))
    for got, want in zip((fact, act), made):
        assert type(got) is type(want) and got == want and hash(got) == hash(want) and repr(got) == repr(want)
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.i = 5  # type: ignore[misc]
