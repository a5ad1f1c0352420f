"""The `tracking_shuffled_objects` replay: the prompt read, every holding claim in the traces'
forms against the replayed swaps, roots and consequences, and the answer option."""

from audit import audit_record
from core.record import record_from_json
from validators.tracking_shuffled_objects.problem import read_problem, recognise

PROMPT = ("Alice, Bob, and Claire are holding a white elephant gift exchange. At the start of the event, they "
          "are each holding a present of a different color: Alice has a red present, Bob has a blue present, and "
          "Claire has a yellow present.\nAs the event progresses, pairs of people swap gifts. First, Alice and "
          "Claire swap their gifts. Then, Bob and Claire swap their gifts. Finally, Claire and Alice swap their "
          "gifts. At the end of the event, Bob has the\nOptions:\n(A) red present.\n(B) blue present.\n"
          "(C) yellow present.")


def _audit(steps, answer=""):
    record = record_from_json({"domain": "tracking_shuffled_objects", "format": "steps",
                               "problem": {"input": PROMPT}, "trace": steps, "answer": answer})
    return audit_record(record).verdict.to_json()


def _invalid(v):
    return {s["step"]: (s["rule"], s["consequence_of"]) for s in v["invalid_steps"]}


def test_the_prompt_is_read():
    p = read_problem({"input": PROMPT})
    assert p.people == ("Alice", "Bob", "Claire") and p.asked == "Bob"
    assert p.start == {"Alice": "red present", "Bob": "blue present", "Claire": "yellow present"}
    assert p.swaps == (("Alice", "Claire"), ("Bob", "Claire"), ("Claire", "Alice"))
    assert p.resolve("red") == "red present" and p.resolve("green") is None and p.option_of("red present") == "A"
    assert recognise({"input": PROMPT}) and not recognise({"input": "( [ {"})


def test_a_right_trace_in_named_form():
    v = _audit(["At the start: Alice: red, Bob: blue, Claire: yellow.",
                "Alice and Claire swap: Alice: yellow, Bob: blue, Claire: red.",
                "Bob and Claire swap: Alice: yellow, Bob: red, Claire: blue.",
                "Claire and Alice swap: Alice: blue, Bob: red, Claire: yellow.",
                "At the end of the event, Bob has the red present. So the answer is (A)"], "(A)")
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_a_wrong_swap_result_is_the_root_and_a_right_swap_of_it_a_consequence():
    v = _audit(["At the start: Alice: red, Bob: blue, Claire: yellow.",
                "Alice and Claire swap: Alice: yellow, Bob: blue, Claire: red.",
                "Bob and Claire swap: Alice: yellow, Bob: blue, Claire: red.",
                "Claire and Alice swap: Alice: red, Bob: blue, Claire: yellow.",
                "At the end of the event, Bob has the blue present. So the answer is (B)"], "(B)")
    assert _invalid(v) == {2: ("wrong_holding", None), 3: ("wrong_holding", 2), 4: ("wrong_final", 2)}
    assert "after swap 2 (Bob and Claire), Bob has red present, not blue present" in v["invalid_steps"][0]["message"]
    assert v["answer_correct"] is False


def test_initials_partial_lists_and_has_sentences_are_read():
    v = _audit(["A: red, B: blue, C: yellow", "A: yellow, C: red", "B: red, C: blue", "A: blue, C: yellow",
                "So the answer is (A)"], "(A)")
    assert v["trace_valid"] is True
    v = _audit(["Alice has red present.", "Alice and Claire swap gifts, Alice has yellow present.",
                "Bob and Claire swap gifts, Bob has blue present.", "So the answer is (B)"], "(B)")
    assert _invalid(v) == {2: ("wrong_holding", None), 3: ("wrong_option", 2)}


def test_a_swap_out_of_order_is_flagged():
    v = _audit(["At the start: Alice: red, Bob: blue, Claire: yellow.",
                "Bob and Claire swap: Alice: red, Bob: yellow, Claire: blue."])
    assert _invalid(v)[1][0] == "wrong_swap"
    assert "the next swap in the input (number 1) is Alice and Claire" in v["invalid_steps"][0]["message"]


def test_steps_without_claims_are_not_judged():
    v = _audit(["Let me track the presents.", "At the end of the event, Bob has the red present."], "(A)")
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_bold_and_backticked_holdings_are_read_through_the_reading_layer():
    # "**Alice**: yellow" and "`Bob` has ...": markdown breaks no holding, and a wrong one is found
    steps = ["At the start: **Alice**: red, **Bob**: blue, **Claire**: yellow.",
             "**Alice** and **Claire** swap: **Alice**: yellow, **Bob**: blue, **Claire**: red.",
             "**Bob** and **Claire** swap: **Alice**: yellow, **Bob**: blue, **Claire**: red.",
             "**Claire** and **Alice** swap: **Alice**: red, **Bob**: blue, **Claire**: yellow.",
             "At the end of the event, `Bob` has the blue present. So the answer is **(B)**"]
    v = _audit(steps, "**(B)**")
    assert v["first_invalid_step"] == 2 and _invalid(v)[2] == ("wrong_holding", None)
    assert "after swap 2 (Bob and Claire), Bob has red present, not blue present" in v["invalid_steps"][0]["message"]
    assert v["answer_correct"] is False
