"""Metamorphic tests of the second claim reader on the dev annotations' real R1 traces: the same
structure under other names must give the same claims (the thinking-claims issue, "How to keep
it honest"). Mystery Blocksworld's predicate and action names replaced by other nonsense words,
posed as the user's own PDDL domain (its words then come from the PDDL alone); Blocksworld's
colours exchanged for others with the PDDL objects renamed to match; and Blocksworld's colour
names written as the PDDL's letters ("the red block", "red" -> "block a")."""

from __future__ import annotations

import re

import pytest

from tests.conftest import FULL_DEV_DATA, load_dev
from validators.planning import planning_task
from validators.planning.reading import ClaimReader

pytestmark = pytest.mark.skipif(not FULL_DEV_DATA, reason="needs ../shared/data/dev")

# Each inflection the traces use, so that a renamed text says what the original said.
NONSENSE = {
    "province": "zorble", "provinces": "zorbles", "planet": "quibbit", "planets": "quibbits",
    "harmony": "fluxion", "pain": "morrow", "pains": "morrows",
    "craves": "yearns", "crave": "yearn", "craved": "yearned", "craving": "yearning",
    "attack": "blick", "attacks": "blicks", "attacking": "blicking", "attacked": "blicked",
    "succumb": "zorp", "succumbs": "zorps", "succumbing": "zorping", "succumbed": "zorped",
    "overcome": "snark", "overcomes": "snarks", "overcoming": "snarking", "overcame": "snarked",
    "feast": "frell", "feasts": "frells", "feasting": "frelling", "feasted": "frelled",
}
COLOURS = {"red": "yellow", "blue": "white", "orange": "magenta"}
LETTERS = {"a": "d", "b": "e", "c": "f"}  # PlanBench's encoding: a red, b blue, c orange; d yellow, e white, f magenta


def _rename(text: str, names: dict[str, str]) -> str:
    pattern = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![A-Za-z])", re.I)

    def sub(m: re.Match[str]) -> str:
        word, new = m.group(1), names[m.group(1).lower()]
        return new.capitalize() if word[0].isupper() else new
    return pattern.sub(sub, text)


def _claims(problem: dict, domain: str, trace: str) -> list[tuple[str, bool | None, tuple[str, ...]]]:
    report = ClaimReader.for_task(*planning_task(problem, domain)[:2]).read(trace)
    return [(c.kind, c.holds, c.rules) for c in report.claims]


def _rows(domain: str) -> list[dict]:
    return [r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == domain]


@pytest.mark.parametrize("row", _rows("mystery_blocksworld") if FULL_DEV_DATA else [], ids=lambda r: r["id"])
def test_nonsense_predicate_and_action_names_give_the_same_claims(row: dict) -> None:
    want = _claims(row["problem"], "pddl", row["trace"])
    renamed = {k: _rename(v, NONSENSE) for k, v in row["problem"].items()}
    got = _claims(renamed, "pddl", _rename(row["trace"], NONSENSE))
    assert want and got == want


@pytest.mark.parametrize("row", _rows("blocksworld") if FULL_DEV_DATA else [], ids=lambda r: r["id"])
def test_other_colours_with_the_objects_renamed_give_the_same_claims(row: dict) -> None:
    want = _claims(row["problem"], "blocksworld", row["trace"])
    problem = dict(row["problem"])
    head, objects = problem["problem_pddl"].split("(:objects", 1)
    problem["problem_pddl"] = head + "(:objects" + re.sub(
        r"(?<![\w-])([abc])(?![\w-])", lambda m: LETTERS[m.group(1)], objects)
    got = _claims(problem, "blocksworld", _rename(row["trace"], COLOURS))
    assert want and got == want


@pytest.mark.parametrize("row", _rows("blocksworld") if FULL_DEV_DATA else [], ids=lambda r: r["id"])
def test_letters_for_colour_names_give_the_same_claims(row: dict) -> None:
    """'a' is an article, so a bare one-letter name is read only where it cannot be one; after a
    type word ("block a") it always is."""
    letter = {"red": "a", "blue": "b", "orange": "c"}
    text = re.sub(r"(?i)(?:the )?(?<![A-Za-z])(red|blue|orange)(?: blocks?)?(?![A-Za-z])",
                  lambda m: "block " + letter[m.group(1).lower()], row["trace"])
    want = _claims(row["problem"], "blocksworld", row["trace"])
    assert want and _claims(row["problem"], "blocksworld", text) == want
