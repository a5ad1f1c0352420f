"""The reading of a thinking step (app_pages/_reading.py): pure, from the state dict the audit
stores per step, for the second reader's dicts (rules, modality, unjudged) and the first's."""

from __future__ import annotations

import html
import re

from app_pages._reading import OPEN_STATE, is_reading, step_reading_height, step_reading_html, verdict_of

HOSTILE = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"

V2_STATE = {
    "line_of_reasoning": {"id": 1, "actions": ["(feast b c)", HOSTILE]},
    "judged_against": ["(harmony)", "(planet a)", "(province c)"],
    "claims": [
        {"kind": "effect", "text": f"Feast b from c adds Pain c. {HOSTILE}", "holds": False, "retracted": False,
         "message": f"(feast b c) does not add (pain c); it adds (pain b), (province c) {IMG}", "modality": "asserted",
         "rules": [{"id": "effect.add", "sets": "effect + of the action", "example": "Feast b from c adds Pain c.",
                    "source": "R1"}],
         "judged_against": ["(harmony)", "(planet a)", "(province c)"]},
        {"kind": "state", "text": "So now Province c.", "holds": True, "retracted": False,
         "message": "(province c) holds: right", "modality": "asserted",
         "rules": [{"id": "state.list", "sets": "state: each fact listed", "example": "Now, state: Planet a, b, c.",
                    "source": "doc"}],
         "judged_against": [f"(f{i})" for i in range(OPEN_STATE + 3)]},
        {"kind": "rule", "text": "After Feast, you get Harmony.", "holds": False, "retracted": True,
         "message": "says feast adds harmony", "modality": "retracted",
         "rules": [{"id": "rule.add", "sets": "rule: the action adds each predicate",
                    "example": "After Feast, you get Pain.", "source": "doc"}], "judged_against": None},
    ],
    "unjudged": [
        {"kind": "state", "text": f"maybe Pain a {IMG}", "why": "not judged: its line of reasoning was lost \"'",
         "modality": "hypothetical", "rules": [{"id": "fact.tag", "sets": "fact +/-", "example": "Pain a (yes)",
                                                 "source": "R1"}]},
    ],
}

V1_STATE = {
    "line_of_reasoning": {"id": 2, "actions": []},
    "judged_against": ["(clear a)"],
    "claims": [{"kind": "state", "text": "red is clear", "holds": True, "retracted": False,
                "message": "(clear a) holds: right"}],
}


def reading_record() -> dict:
    """A short mystery_blocksworld thinking record on a dev problem in which Feast b from c can be
    done: it claims a false effect ("adds Pain c", hostile markup in the same sentence)."""
    from tests.conftest import load_dev

    def init(problem: dict) -> str:
        return problem["problem_pddl"].split("(:init", 1)[1].split("(:goal", 1)[0]

    row = next(r for r in load_dev("thinking_claims_dev_v2.jsonl") if r["domain"] == "mystery_blocksworld"
               and all(a in init(r["problem"]) for a in ("(craves b c)", "(province b)", "(harmony)")))
    trace = ("Okay.\n\n1. Feast b from c: needs b craves c, Province b, Harmony. Yes.\n"
             f"Feast b from c adds Pain c {HOSTILE}{IMG}.\n\nAfter Feast, you get Harmony.\n")
    return {"id": "mb-reading", "domain": "mystery_blocksworld", "format": "think", "model": "r1",
            "problem": row["problem"], "trace": trace, "answer": "feast object b from object c"}


def _blocks(page: str, cls: str) -> list[str]:
    """The claim cards of one class, each as its HTML."""
    return re.findall(rf"<div class='claim {cls}'>.*?</div>(?=<div class='claim|<h3>|</body>)", page)


def test_every_character_from_the_trace_is_escaped():
    page = step_reading_html(V2_STATE)
    assert "<script" not in page and "<img" not in page
    assert html.escape(HOSTILE) in page and html.escape(IMG) in page
    assert "&quot;&#x27;" in page  # quotes in a why are escaped too (the page has attributes)
    tags = set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", page))
    assert tags <= {"html", "head", "meta", "style", "body", "div", "span", "h3", "details", "summary", "ul", "li",
                    "q"}, tags  # no script, image, link or form


def test_each_claim_shows_kind_verdict_modality_message_state_and_rules():
    page = step_reading_html(V2_STATE)
    (false,) = _blocks(page, "false")
    assert "<span class='kind'>effect</span>" in false and "<span class='verdict'>false</span>" in false
    assert "<span class='modality'>asserted</span>" in false and "does not add (pain c)" in false
    assert "judged against the state above" in false  # the same state as the step's: not repeated
    assert "<span class='rid'>effect.add</span> <span class='sets'>sets: effect + of the action</span>" in false
    assert "example: <q>Feast b from c adds Pain c.</q>" in false and " · <span class='source'>source: R1</span>" in false
    (holds,) = _blocks(page, "holds")
    assert "<span class='verdict'>holds</span>" in holds and "state.list" in holds
    # its own state, longer than OPEN_STATE: collapsed behind its count
    assert f"<details class='against'><summary>judged against ({OPEN_STATE + 3} facts)" in holds
    (taken,) = _blocks(page, "retracted")
    assert "<span class='verdict'>retracted</span>" in taken and "the action's schema" in taken
    assert "(feast b c) → &lt;script&gt;" in page  # the line of reasoning
    # the step's state (the explorer shows it above the frame too): closed, with its count
    assert "<details class='against'><summary>the state the step&#x27;s claims are judged against (3 facts)" in page
    assert "<details class='against' open><summary>judged against (" not in page  # the long one stays closed


def test_unjudged_claims_are_grey_with_why():
    page = step_reading_html(V2_STATE)
    assert "Read but not judged (1)" in page
    (grey,) = _blocks(page, "unjudged")
    assert "why: not judged: its line of reasoning was lost" in grey
    assert "<span class='modality'>hypothetical</span>" in grey and "fact.tag" in grey
    assert ".claim.unjudged{color:#777" in page  # greyed


def test_the_first_readers_dicts_show_without_rules():
    assert verdict_of(V1_STATE["claims"][0]) == ("holds", "holds")
    page = step_reading_html(V1_STATE)
    assert "red is clear" in page and "judged against the state above" in page
    assert "read by:" not in page and "modality" not in page.split("</style>", 1)[1]
    assert "Read but not judged" not in page
    assert "the initial state (no action applied yet)" in page
    assert 120 <= step_reading_height(V1_STATE) < step_reading_height(V2_STATE) <= 900


def test_only_thinking_readings_are_drawn():
    assert is_reading(V2_STATE) and is_reading(V1_STATE)
    only_unjudged = {"line_of_reasoning": {"id": 1, "actions": []}, "judged_against": None, "claims": [],
                     "unjudged": V2_STATE["unjudged"]}
    assert is_reading(only_unjudged)
    page = step_reading_html(only_unjudged)
    assert "Claims judged (0)" in page and "not judged: its line" in page
    assert not is_reading({"x": 1}) and not is_reading(None) and not is_reading([["a"]])
    assert not is_reading({"line_of_reasoning": {"id": 1}, "claims": []})


def test_a_real_audit_reads_a_false_effect():
    """The audit stores what the view shows: a false effect claim read by effect.add."""
    from audit import audit_record
    from core.record import record_from_json

    res = audit_record(record_from_json(reading_record()))
    found = [(i, c) for i, s in res.replay.states.items() if isinstance(s, dict)
             for c in s.get("claims") or () if c["kind"] == "effect" and c["holds"] is False]
    assert found, res.replay.states
    idx, claim = found[0]
    assert res.step_verdicts[idx].status == "invalid"
    assert "effect.add" in [r["id"] for r in claim["rules"]]
    page = step_reading_html(res.replay.states[idx])
    assert "effect.add" in page and html.escape(claim["rules"][0]["example"]) in page
