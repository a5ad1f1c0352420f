"""The `logical_deduction` replay: the puzzle read, claims judged against the orderings the cited
statements allow (ruling out a possible one, allowing an impossible one), facts, and the option."""

from audit import audit_record
from core.record import record_from_json
from validators.logical_deduction.problem import orderings, read_puzzle, recognise

PROMPT = ("The following statements each describe a set of three objects arranged in a fixed order. The statements "
          "are logically consistent.\n- In a golf tournament, there were three golfers: Amy, Dan, and Mel.\n"
          "- Mel finished above Amy.\n- Dan finished first.\nQ: Given the above statements, which of the following "
          "is correct?\nOptions:\n(A) Amy finished last.\n(B) Dan finished last.\n(C) Mel finished last.")
BOOKS = ("The following statements each describe a set of three objects arranged in a fixed order.\n"
         "- On a shelf, there are three books: a red book, a gray book, and a white book.\n"
         "- The white book is the leftmost.\n- The red book is to the right of the gray book.\n"
         "Q: Given the above statements, which of the following is correct?\nOptions:\n"
         "(A) The red book is the second from the left.\n(B) The gray book is the second from the left.")


def _audit(steps, answer="(A)", prompt=PROMPT):
    record = record_from_json({"domain": "logical_deduction", "format": "steps", "problem": {"input": prompt},
                               "trace": steps, "answer": answer})
    return audit_record(record).verdict.to_json()


def _invalid(v):
    return {s["step"]: (s["rule"], s["consequence_of"]) for s in v["invalid_steps"]}


def test_the_puzzle_is_read():
    p = read_puzzle({"input": PROMPT})
    assert p.objects == ("Amy", "Dan", "Mel") and p.finishing
    assert [c for _, c in p.statements] == [("rel", "Mel", "<Amy"), ("at", "Dan", 1)]
    assert p.options["A"] == ("at", "Amy", 3)
    assert len(orderings(p.objects, frozenset(c for _, c in p.statements))) == 1
    b = read_puzzle({"input": BOOKS})
    assert b.objects == ("red book", "gray book", "white book") and b.mentions("the gray one and the red") == ["gray book", "red book"]
    assert [c for _, c in b.statements] == [("at", "white book", 1), ("rel", "red book", ">gray book")]
    assert recognise({"input": PROMPT}) and not recognise({"input": "cat bee"})


def test_a_right_trace_is_valid():
    v = _audit(["Dan finished first. So from first to last: first is Dan, then second and third can be any golfer.",
                "Mel finished above Amy. So from first to last: first is Dan, then second is Mel, then third is Amy.",
                "So the answer is (A)"])
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_a_claim_that_allows_an_impossible_placement_is_false():
    v = _audit(["Dan finished first. So from first to last: first is Dan, then second and third can be any golfer.",
                "Mel finished above Amy. So from first to last: first is Dan, then second and third can be any golfer.",
                "So from first to last: first is Dan, then second is Mel, then third is Amy. So the answer is (A)"])
    assert _invalid(v) == {1: ("wrong_order", None)}
    assert "Amy cannot be at position 2" in v["invalid_steps"][0]["message"]


def test_a_claim_that_rules_out_a_possible_ordering_and_its_consequence():
    v = _audit(["Mel finished above Amy. So from first to last: first is Mel, then second and third can be any golfer.",
                "So from first to last: first is Mel, then second and third can be any golfer.",
                "Dan finished first. So from first to last: first is Mel, then second is Dan, then third is Amy."])
    assert _invalid(v) == {0: ("wrong_order", None), 1: ("wrong_order", 0), 2: ("wrong_order", None)}
    assert "Dan cannot be at position 2" in v["invalid_steps"][2]["message"]


def test_facts_options_and_the_reversed_axis():
    v = _audit(["Mel finished above Amy, so Mel cannot be third.", "Dan finished first, so Amy finished second.",
                "So the answer is (C)"], "(C)")
    assert _invalid(v) == {1: ("not_entailed", None), 2: ("wrong_option", None)} and v["answer_correct"] is False
    v = _audit(["The white book is the leftmost. So from right to left: first and second can be any book, "
                "then third is the white book.", "So the answer is (B)"], "(B)", BOOKS)
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_steps_without_claims_are_not_judged():
    v = _audit(["I need to find the order of the golfers.", "The answer is (A)"])
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_bold_and_backticked_claims_are_read_through_the_reading_layer():
    # "**first is Dan**" is one segment of the claim: read, it is true; unread, the claim would
    # seem to let Dan stand second or third
    v = _audit(["Dan finished first. So from first to last: **first is Dan**, then `second and third` can be any golfer.",
                "Mel finished above Amy. So from first to last: **first is Dan**, then **second is Mel**, then third is Amy.",
                "So the answer is **(A)**"], "**(A)**")
    assert v["trace_valid"] is True and v["answer_correct"] is True
    v = _audit(["Dan finished first. So from first to last: **first is Amy**, then second and third can be any golfer."])
    assert _invalid(v) == {0: ("wrong_order", None)}
    assert "Dan can be at position 1" in v["invalid_steps"][0]["message"]


def test_negation_and_doubt_come_from_the_lexicon():
    # "never" negates the clause (false here: Dan finished first); "Suppose" and "?" are not judged
    v = _audit(["Dan finished first. Mel never finished above Amy."])
    assert _invalid(v) == {0: ("not_entailed", None)}
    v = _audit(["Dan finished first. Suppose Amy finished first. Amy finished first?"])
    assert v["invalid_steps"] == []
