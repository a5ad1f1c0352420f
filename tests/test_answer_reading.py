"""Reading answers as a careful reader would (issue 16): which text is the plan, how its steps
are read, what the verdict says about it, and every disagreement with PlanBench's published
verdicts on the development data, with who reads the model right."""

from __future__ import annotations

import pytest

from audit import audit_record
from core.record import record_from_json
from tests.conftest import FULL_DEV_DATA, load_dev
from tests.test_planning import BW, BW_DOMAIN
from validators.planning import extract, planning_task, validate_plan_text

# Four blocks: red (a) on yellow (d) on blue (b), orange (c) on the table; goal red on blue and
# yellow on orange. Valid plan: unstack a d, put-down a, unstack d b, stack d c, pick-up a, stack a b.
BW4_PROBLEM = """(define (problem p4) (:domain blocksworld-4ops) (:objects a b c d)
(:init (handempty) (on a d) (on d b) (ontable b) (ontable c) (clear a) (clear c))
(:goal (and (on a b) (on d c))))"""
BW4 = {"domain_pddl": BW_DOMAIN, "problem_pddl": BW4_PROBLEM}
BW4_PLAN = ["(unstack a d)", "(put-down a)", "(unstack d b)", "(stack d c)", "(pick-up a)", "(stack a b)"]

MYSTERY_DOMAIN = """(define (domain mystery-4ops) (:requirements :strips)
(:predicates (province ?x) (planet ?x) (harmony) (pain ?x) (craves ?x ?y))
(:action attack :parameters (?ob) :precondition (and (province ?ob) (planet ?ob) (harmony))
  :effect (and (pain ?ob) (not (province ?ob)) (not (planet ?ob)) (not (harmony))))
(:action succumb :parameters (?ob) :precondition (pain ?ob)
  :effect (and (province ?ob) (harmony) (planet ?ob) (not (pain ?ob))))
(:action overcome :parameters (?ob ?underob) :precondition (and (province ?underob) (pain ?ob))
  :effect (and (harmony) (province ?ob) (craves ?ob ?underob) (not (province ?underob)) (not (pain ?ob))))
(:action feast :parameters (?ob ?underob) :precondition (and (craves ?ob ?underob) (province ?ob) (harmony))
  :effect (and (pain ?ob) (province ?underob) (not (craves ?ob ?underob)) (not (province ?ob)) (not (harmony)))))"""
# b craves d; goal c craves b. Valid plan: feast b from d, succumb b, attack c, overcome c from b.
MYSTERY_PROBLEM = """(define (problem m1) (:domain mystery-4ops) (:objects a b c d)
(:init (harmony) (craves b d) (province b) (planet c) (province c) (planet a))
(:goal (and (craves c b))))"""
MYSTERY = {"domain_pddl": MYSTERY_DOMAIN, "problem_pddl": MYSTERY_PROBLEM}
MYSTERY_PLAN = ["(feast b d)", "(succumb b)", "(attack c)", "(overcome c b)"]

LOGISTICS_DOMAIN = """(define (domain logistics-strips) (:requirements :strips)
(:predicates (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (AIRPLANE ?airplane) (CITY ?city) (AIRPORT ?airport)
  (at ?obj ?loc) (in ?obj1 ?obj2) (in-city ?obj ?city))
(:action LOAD-TRUCK :parameters (?obj ?truck ?loc)
  :precondition (and (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (at ?truck ?loc) (at ?obj ?loc))
  :effect (and (not (at ?obj ?loc)) (in ?obj ?truck)))
(:action LOAD-AIRPLANE :parameters (?obj ?airplane ?loc)
  :precondition (and (OBJ ?obj) (AIRPLANE ?airplane) (LOCATION ?loc) (at ?obj ?loc) (at ?airplane ?loc))
  :effect (and (not (at ?obj ?loc)) (in ?obj ?airplane)))
(:action UNLOAD-TRUCK :parameters (?obj ?truck ?loc)
  :precondition (and (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (at ?truck ?loc) (in ?obj ?truck))
  :effect (and (not (in ?obj ?truck)) (at ?obj ?loc)))
(:action UNLOAD-AIRPLANE :parameters (?obj ?airplane ?loc)
  :precondition (and (OBJ ?obj) (AIRPLANE ?airplane) (LOCATION ?loc) (in ?obj ?airplane) (at ?airplane ?loc))
  :effect (and (not (in ?obj ?airplane)) (at ?obj ?loc)))
(:action DRIVE-TRUCK :parameters (?truck ?loc-from ?loc-to ?city)
  :precondition (and (TRUCK ?truck) (LOCATION ?loc-from) (LOCATION ?loc-to) (CITY ?city) (at ?truck ?loc-from)
    (in-city ?loc-from ?city) (in-city ?loc-to ?city))
  :effect (and (not (at ?truck ?loc-from)) (at ?truck ?loc-to)))
(:action FLY-AIRPLANE :parameters (?airplane ?loc-from ?loc-to)
  :precondition (and (AIRPLANE ?airplane) (AIRPORT ?loc-from) (AIRPORT ?loc-to) (at ?airplane ?loc-from))
  :effect (and (not (at ?airplane ?loc-from)) (at ?airplane ?loc-to))))"""
# package_0 at location_0_1 must reach location_1_0 (airport of city_1).
LOGISTICS_PROBLEM = """(define (problem l1) (:domain logistics-strips)
(:objects a0 c0 c1 t0 t1 l0-0 l0-1 l1-0 p0)
(:init (AIRPLANE a0) (CITY c0) (CITY c1) (TRUCK t0) (TRUCK t1) (LOCATION l0-0) (LOCATION l0-1) (LOCATION l1-0)
  (in-city l0-0 c0) (in-city l0-1 c0) (in-city l1-0 c1) (AIRPORT l0-0) (AIRPORT l1-0) (OBJ p0)
  (at t0 l0-0) (at t1 l1-0) (at p0 l0-1) (at a0 l0-0))
(:goal (and (at p0 l1-0))))"""
LOGISTICS = {"domain_pddl": LOGISTICS_DOMAIN, "problem_pddl": LOGISTICS_PROBLEM}
LOGISTICS_PLAN = ["(drive-truck t0 l0-0 l0-1 c0)", "(load-truck p0 t0 l0-1)", "(drive-truck t0 l0-1 l0-0 c0)",
                  "(unload-truck p0 t0 l0-0)", "(load-airplane p0 a0 l0-0)", "(fly-airplane a0 l0-0 l1-0)",
                  "(unload-airplane p0 a0 l1-0)"]


def _read(text: str, problem: dict, domain: str) -> list[str]:
    return [a.action for a in validate_plan_text(text, problem, domain).actions]


# --- how steps are read --------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # A heading and a restatement of the same action in one item are one action.
    "1. **Unstack red from yellow**: Unstack the red block from the yellow block. Now, you are holding red.\n"
    "2. **Put down red**: Put the red block down on the table. Your hand is now empty.\n"
    "3. **Unstack yellow from blue**: With your hand empty and yellow clear (after removing red), "
    "unstack the yellow block from the blue block.\n"
    "4. **Stack yellow on orange**: Stack the yellow block on top of the orange block.\n"
    "5. **Pick up red**: Pick up the red block from the table.\n"
    "6. **Stack red on blue**: Stack the red block on top of the blue block.",
    "1. Unstack the red block from the yellow block - this frees the yellow block.\n"
    "2. Put down the red block - the hand is empty again.\n3. Unstack yellow from blue\n"
    "4. Stack the yellow block onto the orange block\n5. Pick up red\n6. Stack red on top of blue",
    # Call style: arguments split on commas (multi-word objects), two-word action names.
    "**Summary of Actions:**\n\n1. Unstack(red block, yellow block)\n2. Put down(red block)\n"
    "3. Unstack(yellow block, blue block)\n4. Stack(yellow block, orange block)\n5. Pick up(red block)\n"
    "6. Stack(red block, blue block)",
    "- Unstack(red, yellow), PutDown(red)\n- Unstack(yellow, blue), Stack(yellow, orange)\n"
    "- PickUp(red), Stack(red, blue)",
    # Paraphrases and verb forms of the vocabulary.
    "1. Unstack red from yellow.\n2. Put red down on the table.\n3. Unstack yellow from on top of blue.\n"
    "4. Place the yellow block onto the orange block.\n5. Pick the red block up.\n6. Put red on top of blue.",
    "1. We start by unstacking the red block from the yellow block.\n2. Then we put down the red block.\n"
    "3. Next, we unstack the yellow block from the blue block.\n4. We stack yellow on orange.\n"
    "5. Picking up red.\n6. Finally, stack red onto blue.",
    # Prose: one sentence per action, and a markdown table.
    "First, unstack the red block from the yellow block. Then put the red block down on the table. Next, "
    "unstack yellow from blue. After that, stack yellow on orange. Then pick up red. Finally, stack red on blue.",
    "### Solution\n\n| Step | Action | Why |\n|---|---|---|\n| 1 | Unstack red from yellow | red is clear |\n"
    "| 2 | Put down red | |\n| 3 | Unstack yellow from blue | |\n| 4 | Stack yellow on orange | |\n"
    "| 5 | Pick up red | |\n| 6 | Stack red on blue | goal |",
    # LaTeX around object words, code marks and odd spaces.
    "1. **Unstack \\( \\text{red} \\) from \\( \\text{yellow} \\)**\n2. `put down red`\n"
    "3. Unstack $yellow$ from $blue$\n4.\u2002Stack yellow on orange\u20035. Pick up red\u20036. Stack red on blue",
])
def test_blocksworld_step_shapes_are_read_as_the_model_meant(text: str) -> None:
    check = validate_plan_text(text, BW4, "blocksworld")
    assert [a.action for a in check.actions] == BW4_PLAN
    assert check.answer_correct is True


@pytest.mark.parametrize("text", [
    "1. **Feast(b from d)**\n2. **Succumb(b)**\n3. **Attack(c)**\n4. **Overcome(c from b)**",
    "1. **Feast \\( b \\) from \\( d \\):**\n2. **Succumb \\(b\\)**\n3. **Attack \\( c \\)**\n"
    "4. **Overcome \\( c \\) from \\( b \\)**",
    "- **Step 1:** By feasting object b from object d, you generate Pain object b and Province object d.\n"
    "- **Step 2:** Succumbing object b restores its province and harmony.\n"
    "- **Step 3:** Attacking object c induces pain in object c.\n"
    "- **Step 4:** Overcoming object c from object b makes object c crave object b.",
    "1. Feast object b from object d: this removes the craving.\n2. Succumb object b: harmony is back.\n"
    "3. Attack object c\n4. Overcome object c from object b",
])
def test_mystery_step_shapes_are_read(text: str) -> None:
    assert _read(text, MYSTERY, "mystery_blocksworld") == MYSTERY_PLAN


@pytest.mark.parametrize("text", [
    "1. Drive truck_0 from location_0_0 to location_0_1 in city_0\n2. Load package_0 into truck_0 at location_0_1\n"
    "3. Drive truck_0 from location_0_1 to location_0_0 in city_0\n4. Unload package_0 from truck_0 at location_0_0\n"
    "5. Load package_0 into airplane_0 at location_0_0\n6. Fly airplane_0 from location_0_0 to location_1_0\n"
    "7. Unload package_0 from airplane_0 at location_1_0",
    # The city a drive stays in is implied by its locations (PlanBench's text_to_plan_logistics).
    "**Plan:**\n- **Drive** truck_0 from location_0_0 to location_0_1\n- **Load** package_0 into truck_0 at location_0_1\n"
    "- **Drive** truck_0 from location_0_1 to location_0_0\n- **Unload** package_0 from truck_0 at location_0_0\n"
    "- **Load** package_0 onto airplane_0 at location_0_0\n- **Fly** airplane_0 from location_0_0 to location_1_0\n"
    "- **Unload** package_0 from airplane_0 at location_1_0",
    "(DRIVE-TRUCK t0 l0-0 l0-1 c0)\n(LOAD-TRUCK p0 t0 l0-1)\n(DRIVE-TRUCK t0 l0-1 l0-0 c0)\n(UNLOAD-TRUCK p0 t0 l0-0)\n"
    "(LOAD-AIRPLANE p0 a0 l0-0)\n(FLY-AIRPLANE a0 l0-0 l1-0)\n(UNLOAD-AIRPLANE p0 a0 l1-0)",
])
def test_logistics_answers_are_read_with_their_actions(text: str) -> None:
    check = validate_plan_text(text, LOGISTICS, "logistics")
    assert [a.action for a in check.actions] == LOGISTICS_PLAN
    assert check.answer_correct is True


# --- which text is the plan ----------------------------------------------------------------

def test_walkthrough_then_plan_section_reads_the_section_not_the_sub_bullets() -> None:
    text = ("1. **Unstack the red block from the yellow block**\n   - Unstack the red block from the yellow block.\n"
            "   - Put the red block down on the table.\n2. **Put down the red block**\n"
            "3. **Unstack yellow from blue**\n   - Preconditions: yellow is clear.\n\n"
            "**Actions in the plan:**\n\n" + "\n".join(f"{i}. {s}" for i, s in enumerate([
                "Unstack red from yellow", "Put down red", "Unstack yellow from blue", "Stack yellow on orange",
                "Pick up red", "Stack red on blue"], 1)))
    check = validate_plan_text(text, BW4, "blocksworld")
    assert [a.action for a in check.actions] == BW4_PLAN
    assert check.notes["plan_source"] == "the list under 'Actions in the plan'"
    start, end = check.notes["plan_span"]
    assert text[start:end].startswith("1. Unstack red from yellow") and text[start:end].endswith("Stack red on blue")


def test_explanation_bullets_after_the_plan_are_not_more_steps() -> None:
    text = ("Here is the plan:\n1. Unstack the red block from the yellow block\n2. Put down the red block\n"
            "3. Unstack the yellow block from the blue block\n4. Stack the yellow block on the orange block\n"
            "5. Pick up the red block\n6. Stack the red block on the blue block\n\n"
            "- First, unstack the red block.\n- Then put it down so the hand is empty.\n"
            "- Finally, stack the red block on the blue block.")
    check = validate_plan_text(text, BW4, "blocksworld")
    assert [a.action for a in check.actions] == BW4_PLAN and check.answer_correct is True


def test_numbered_items_continue_across_their_details() -> None:
    text = ("**1. Unstack the red block from the yellow block**\n\n- **Preconditions**:\n  - *red is clear*\n"
            "- **Effects**:\n  - *holding red*\n\n---\n\n**2. Put down the red block**\n\n- **Effects**: red on table\n\n"
            "**3. Unstack yellow from blue**\n\n**4. Stack yellow on orange**\n\n---\n\n**5. Pick up red**\n\n"
            "**6. Stack red on blue**\n\nAfter these steps both goals hold.")
    assert _read(text, BW4, "blocksworld") == BW4_PLAN


def test_text_after_plan_end_is_ignored() -> None:
    text = ("[PLAN]\nunstack the blue block from on top of the red block\nput down the blue block\n"
            "pick up the red block\nstack the red block on top of the blue block\n[PLAN END]\n\n"
            "[STATEMENT]\nAs initial conditions I have that the orange block is clear ...\n"
            "My plan is as follows:\n\n[PLAN]\npick up the orange block\nstack the orange block on top of the red block\n")
    check = validate_plan_text(text, BW, "blocksworld")
    assert [a.action for a in check.actions] == ["(unstack b a)", "(put-down b)", "(pick-up a)", "(stack a b)"]
    assert check.answer_correct is True and check.notes["plan_source"].startswith("the [PLAN] block")


def test_a_final_plan_section_wins_over_earlier_lists() -> None:
    text = ("1. Unstack the blue block from the red block.\n2. Put down the blue block.\n3. Pick up the orange block.\n"
            "4. Put down the orange block (not needed).\n\nHowever, steps 3 and 4 are not needed. Therefore, the correct plan is:\n\n"
            "1. Unstack the blue block from the red block.\n2. Put down the blue block.\n3. Pick up the red block.\n"
            "4. Stack the red block on top of the blue block.")
    check = validate_plan_text(text, BW, "blocksworld")
    assert [a.action for a in check.actions] == ["(unstack b a)", "(put-down b)", "(pick-up a)", "(stack a b)"]
    assert check.notes["plan_source"].startswith("the list under 'However")


def test_actions_written_under_non_action_items_are_read_together() -> None:
    """PlanBench's chain-of-thought format: "1. Current State: ...  Action: ...  Reason: ..."."""
    text = "\n\n".join(f"{i}. Current State: (state)\n   Action: {a}\n   Reason: the preconditions hold.\n"
                       f"   Resulting State: (state)" for i, a in enumerate([
                           "unstack the blue block from on top of the red block", "put down the blue block",
                           "pick up the red block", "stack the red block on top of the blue block"], 1))
    assert _read(text + "\n[PLAN END]", BW, "blocksworld") == ["(unstack b a)", "(put-down b)", "(pick-up a)",
                                                               "(stack a b)"]


# --- what the verdict says -----------------------------------------------------------------

def test_an_unreadable_item_of_the_plan_list_keeps_the_precise_step_error() -> None:
    text = "Plan:\n1. Unstack blue from red\n2. Put it down\n3. Pick up red\n4. Stack red on blue"
    check = validate_plan_text(text, BW, "blocksworld")
    err = check.answer_error
    assert (err.kind, err.step) == ("unparseable", 2) and err.extra["line"] == "2. Put it down"


@pytest.mark.parametrize("text, tried", [
    ("To reach the goal the red block must be on the blue block. The blue block has to move first, "
     "which needs an empty hand.\n\n- The red block is under the blue block.\n- The hand is empty.",
     "1 list"),
    ("", "the answer is empty"),
])
def test_no_plan_found_is_said_plainly_with_what_was_tried(text: str, tried: str) -> None:
    check = validate_plan_text(text, BW, "blocksworld")
    err = check.answer_error
    assert check.answer_correct is False and check.actions == []
    assert err.message.startswith("no plan found") and tried in err.message
    assert "cannot be read as an action" not in err.message
    # VAL runs a plan file with no action as the empty plan: the goal stays unmet.
    assert err.kind == "unmet_goal" and err.unmet == ["(on a b)"] and err.extra["no_plan_found"] is True


def test_the_verdict_gives_the_plan_span_and_each_action_span() -> None:
    answer = "Sure.\n\n**Final plan:**\n1. Unstack blue from red\n2. Put down blue\n3. Pick up red\n4. Stack red on blue\n"
    replay_notes = audit_record(record_from_json({"domain": "blocksworld", "problem": BW, "answer": answer})).replay.notes
    start, end = replay_notes["plan_span"]
    assert answer[start:end] == "1. Unstack blue from red\n2. Put down blue\n3. Pick up red\n4. Stack red on blue"
    spans = [tuple(a["span"]) for a in replay_notes["answer_plan"]]
    assert [answer[a:b] for a, b in spans] == ["1. Unstack blue from red", "2. Put down blue", "3. Pick up red",
                                               "4. Stack red on blue"]


ONE_LIST_SHAPES = [
    "(unstack a d)\n(put-down a)", "1. Unstack red from yellow.\n2. Put down red.", "- (pick-up c)\n\n- (stack c a)",
    "```\n(unstack a d)\n(put-down a)\n```", "(unstack a d)\r\n(put-down a)\n---", "  (unstack a d)\n  (put-down a)",
    # not one list of actions: the outline decides (the fast path must decline each of these)
    "(unstack a d)\n  (put-down a)", "2. (unstack a d)\n1. (put-down a)", "1. (unstack a d)\n- (put-down a)",
    "Plan: (unstack a d)\n(put-down a)", "[PLAN]\n(unstack a d)\n[PLAN END]", "(unstack a d)\n(fly a d)",
    "(unstack a d)\nno plan possible", "(unstack a d)\nThen we are done.", "(unstack a d) [COST] 1",
]


@pytest.mark.parametrize("text", ONE_LIST_SHAPES)
def test_an_answer_that_is_one_list_reads_as_through_the_outline(text: str) -> None:
    lexicon = planning_task(BW4, "blocksworld")[2]
    fast = extract._one_list_of_actions(text, lexicon)
    assert fast is None or fast == extract._extract(text, lexicon)
    assert extract.extract_plan(text, lexicon) == extract._extract(text, lexicon)
    assert (fast is not None) == (ONE_LIST_SHAPES.index(text) < 6)


def test_the_one_list_path_agrees_with_the_outline_on_every_dev_answer() -> None:
    taken = 0
    for name in ("planbench_plans.jsonl", "planbench_plans_more.jsonl", "planbench_r1_thinking.jsonl"):
        for row in load_dev(name):
            lexicon = planning_task(row["problem"], row["domain"])[2]
            answer = row.get("answer") or ""
            for text in (answer, answer.replace("\n", "\n\n")):
                fast = extract._one_list_of_actions(text, lexicon) if text.strip() else None
                if fast is not None:
                    taken += 1
                    assert fast == extract._extract(text, lexicon), row["id"]
    assert taken > 0


# --- every disagreement with PlanBench's published verdicts on the development data ---------

PB = "planbench_extraction_error"
# id -> (who reads the model right, cause, why). PlanBench's label is VAL on PlanBench's own
# extraction (reference-semantics.md 4.3): the rule-based `text_to_plan_blocksworld` for most
# models, a gpt-4o translation for others. "planbench_extraction_error": the answer's plan, read
# as written, gets our verdict; "ours": we still differ, for the reason given.
DISAGREEMENTS: dict[str, tuple[str, str, str]] = {
    # planbench_plans.jsonl
    "26b3c087de56d3ee": (PB, "label_not_from_text",
                         "six numbered actions reach the goal; text_to_plan_blocksworld replayed on this text reads "
                         "the same six, so the unmet-goal label does not come from this answer"),
    "cf16b7e6ce2210a1": (PB, "llm_translation",
                         "ten plain numbered actions reach the goal; the gpt-4o translation PlanBench used for "
                         "llama-3.1-405b zero-shot did not"),
    "7025124847628c74": (PB, "justification_names_blocks",
                         "step 4's justification '(since the blue block is now clear and on top of the red block)' "
                         "names a third block, so the rule-based reader dropped the line"),
    "8e2ea445540aa417": (PB, "justification_names_blocks",
                         "step 2's justification names the orange block, so the rule-based reader dropped "
                         "'Stack the blue block on top of the red block'"),
    "98318ed8c8021a09": ("ours", "no_answer_text",
                         "the record's answer is null (back-prompting run): the label is for a later round the record "
                         "does not carry; there is nothing to read, and the empty plan leaves the goal unmet"),
    "c694ec41cb1a026e": (PB, "bare_object_letters",
                         "o1-preview rerun without translation: the rule-based reader knows only 'object a', so "
                         "'Feast a from b' lines were dropped and VAL ran an empty plan; the six actions reach the goal"),
    "0f1af789736c0365": (PB, "bare_object_letters",
                         "'Feast d from b' wording dropped by the rule-based reader; the four actions reach the goal"),
    "31a6c5b0e4ac01b0": (PB, "bare_object_letters",
                         "'Feast b from c' wording dropped by the rule-based reader; the six actions reach the goal"),
    "4ccd6f8046aa7feb": (PB, "bare_object_letters",
                         "'Feast b from c' wording dropped by the rule-based reader; the six actions reach the goal"),
    "cb64acd6ac3f7186": (PB, "bare_object_letters",
                         "'Feast a from c' wording dropped by the rule-based reader; the four actions reach the goal"),
    "1359aa299d535e72": (PB, "explanation_read_as_steps",
                         "the '**Plan:**' list reaches the goal; the '**Explanation:**' bullets after it "
                         "('By feasting object a from object c, ...') were read as steps 7-9"),
    # planbench_plans_more.jsonl
    "96c4cb21916f74e7": (PB, "read_past_plan_end",
                         "the [PLAN] block reaches the goal; the numbered explanation after [PLAN END] was read as "
                         "steps 5-8 (step 5 unstacks red again)"),
    "219dc486257ba116": (PB, "read_past_plan_end",
                         "the [PLAN] block reaches the goal; 'The key steps are: 1. First stack the orange block ...' "
                         "after [PLAN END] was read as more steps"),
    "4c100a441063ce16": (PB, "read_past_plan_end",
                         "the [PLAN] block reaches the goal; the key steps after [PLAN END] were read as steps 5-8"),
    "fa4279db5c99eb92": (PB, "read_past_plan_end",
                         "the two-action [PLAN] block reaches the goal; the explanation after [PLAN END] was read as "
                         "step 3 on"),
    "1b080dfe9e025b2a": (PB, "read_past_plan_end",
                         "the six-action [PLAN] block reaches the goal; the numbered explanation after [PLAN END] was "
                         "read as steps 7-12"),
    "93b28f31eedf507b": (PB, "justification_names_blocks",
                         "step 2 '(This might seem counterintuitive, but we need to free up the orange block)' names a "
                         "second block, so the rule-based reader dropped it and step 3 failed as step 2"),
    "4b5872875c3c659a": (PB, "walkthrough_read_as_more_steps",
                         "the '### Plan:' list reaches the goal; the '### Plan Steps:' walk-through after it was read "
                         "as steps 11-20"),
    "e09e40f164399f2a": (PB, "walkthrough_read_as_more_steps",
                         "the '### Plan:' list reaches the goal; the '### Summary of Actions:' repeating it was read as "
                         "steps 7-12"),
    "a9f700f7cd16668f": (PB, "restatement_read_as_a_step",
                         "each item's sub-bullet restates its heading ('- Unstack the red block from the blue block "
                         "(hand is now holding the red block)') and was read as a second action"),
    "0bf5a3972918e2f2": (PB, "restatement_read_as_a_step",
                         "'1. **Unstack blue from orange**: Unstack the blue block from on top of the orange block.' "
                         "was read as two actions, so step 2 unstacks blue again; the eight actions reach the goal"),
    "9a68985ae063f82f": (PB, "rejected_plans_read",
                         "the answer ends 'The correct plan is: 1. Unstack the blue block from the red block 2. Stack "
                         "the blue block on top of the orange block', which reaches the goal; the earlier drafts were "
                         "read with it"),
    "9c08bc82496e072e": (PB, "rejected_plans_read",
                         "'Therefore, the correct plan is:' lists eight actions that reach the goal; the rejected "
                         "sixteen-step draft before it was read with it"),
    "16dffbe50c80292b": (PB, "example_plan_read",
                         "the answer first re-solves the prompt's example ('first scenario'), then this problem "
                         "('second scenario': pick up red, stack red on blue), which reaches the goal; the example's "
                         "plan was taken"),
    "66db9116a0268791": ("ours", "no_answer_text",
                         "the record's answer is null (back-prompting run): the label is for a later round the record "
                         "does not carry"),
    "73be6856347d33d3": ("ours", "no_answer_text",
                         "the record's answer is null (back-prompting run): the label is for a later round the record "
                         "does not carry"),
    "4ecd3838cbbfbb95": (PB, "bare_object_letters",
                         "'Feast a from d' wording dropped by the rule-based reader (rerun without translation); the "
                         "eight actions reach the goal"),
    "8fca03d24ce11ad6": (PB, "rejected_plans_read",
                         "'Therefore, the plan is: 1. Attack object d 2. Overcome object d from object c' reaches the "
                         "goal; the published unmet goal matches neither that nor the walk-through read with it"),
    "19957826bf0b49fa": (PB, "bare_object_letters",
                         "'Feast c from d' wording dropped by the rule-based reader; the six actions reach the goal"),
    "38451e62df98bcb1": (PB, "bare_object_letters",
                         "'Feast d from a' wording dropped by the rule-based reader; the six actions reach the goal"),
    "9f7b37cddd74f787": (PB, "bare_object_letters",
                         "'Feast d from c' wording dropped by the rule-based reader; the four actions reach the goal"),
    "4d4a8dd2b717215a": (PB, "bare_object_letters",
                         "'Feast b from a' wording dropped by the rule-based reader; the six actions reach the goal"),
}
DEV_FILES = ("planbench_plans.jsonl", "planbench_plans_more.jsonl", "planbench_r1_thinking.jsonl")


def test_disagreement_table_is_explained() -> None:
    assert all(who in (PB, "ours") and cause and len(why) > 20 for who, cause, why in DISAGREEMENTS.values())


@pytest.mark.parametrize("name", DEV_FILES)
def test_every_disagreement_with_planbench_is_listed_and_agreement_is_at_least_99_percent(name: str) -> None:
    rows = [r for r in load_dev(name) if r["expected"].get("answer_correct") is not None]
    differ = {}
    for row in rows:
        got = audit_record(record_from_json(row)).verdict.answer_correct
        if got != row["expected"]["answer_correct"]:
            differ[row["id"]] = got
    ids = {r["id"] for r in rows}
    listed = {rid for rid in DISAGREEMENTS if rid in ids}
    assert set(differ) - listed == set(), f"disagreements not in the table: {sorted(set(differ) - listed)}"
    assert listed - set(differ) == set(), f"table rows that now agree: {sorted(listed - set(differ))}"
    planbench_errors = {rid for rid in listed if DISAGREEMENTS[rid][0] == PB}
    judged = len(rows) - len(planbench_errors)
    agree = len(rows) - len(differ)
    print(f"\n{name}: {agree}/{len(rows)} agree with PlanBench ({agree / len(rows):.1%}); excluding "
          f"{len(planbench_errors)} documented PlanBench extraction errors: {agree}/{judged} ({agree / judged:.1%})"
          + ("" if FULL_DEV_DATA else " [sample data]"))
    # The acceptance figure is for the whole files; in the 30-row samples of tests/data two
    # null-answer rows weigh 7%, so there only the table is checked.
    assert agree / judged >= 0.99 or not FULL_DEV_DATA
