"""The `last_letter` domain: hand-written traces, the generator, and precision and recall on
SYNTHETIC traces with injected errors (tests/lengths_fixtures.py)."""

from __future__ import annotations

from audit import audit_record
from records_io.intake import object_to_record
from tests.lengths_fixtures import assert_injected_errors_found
from validators.last_letter.generate import generate
from validators.last_letter.problem import problem_length
from validators.registry import get_domain

WEI = ('The last letter of "Elon" is "n". The last letter of "Musk" is "k". Concatenating them is "nk". '
       'The answer is nk.')


def _audit(trace: str, answer: str, words: list[str] | None = None, **problem):
    record = object_to_record({"domain": "last_letter", "problem": {"words": words or ["Elon", "Musk"], **problem},
                               "trace": trace, "answer": answer})
    return audit_record(record).verdict


def test_wei_exemplar_is_valid_and_right():
    v = _audit(WEI, "nk")
    assert v.answer_correct is True and v.trace_valid is True and not v.gaps
    assert v.validator.startswith("last_letter@")


def test_wrong_letter_is_the_root_and_concatenation_a_consequence():
    trace = ('The last letter of "Elon" is "n".\n\nThe last letter of "Musk" is "s".\n\n'
             'Concatenating "n" and "s" gives "ns".\n\nSo the answer is "ns".')
    v = _audit(trace, "ns")
    assert v.answer_correct is False and v.answer_error.extra == {"found": "ns", "expected": "nk"}
    steps = {s["step"]: s for s in v.invalid_steps}
    assert steps[1]["rule"] == "false_string_claim" and steps[1]["consequence_of"] is None
    assert steps[2]["rule"] == "concatenation_mismatch" and steps[2]["consequence_of"] == 1
    assert v.first_invalid_step == 1


def test_out_of_order_concatenation_true_as_written_is_invalid():
    trace = ('The last letter of "Elon" is "n".\n\nThe last letter of "Musk" is "k".\n\n'
             'Concatenating "k" and "n" gives "kn".')
    v = _audit(trace, "kn")
    assert [(s["step"], s["rule"], s["consequence_of"]) for s in v.invalid_steps] == [(2, "concatenation_mismatch", None)]


def test_them_claim_checked_against_the_letters_stated():
    trace = 'The last letter of "apple" is "e". The last letter of "river" is "r". Concatenating them is "{}".'
    assert _audit(trace.format("er"), "er", ["apple", "river", "stone"]).trace_valid is True
    assert _audit(trace.format("re"), "re", ["apple", "river", "stone"]).trace_valid is False
    bad = _audit('The last letters of "apple", "river" and "stone" are e, r and e. Concatenating them is "ee".', "ee",
                 ["apple", "river", "stone"])
    assert bad.trace_valid is False and bad.invalid_steps[0]["rule"] == "false_string_claim"
    # No letters stated: "them" is only checked against the task.
    alone = _audit('Concatenating the last letters gives "ee".', "ee", ["apple", "river", "stone"])
    assert alone.invalid_steps[0]["rule"] == "concatenation_mismatch"


def test_what_is_no_last_letter_step_is_checked_only_as_written():
    # A word outside the problem, and a concatenation of whole words: true as written, not the task's.
    trace = ('For example, the last letter of "apple" is "e".\n\nJoining "Elon" and "Musk" gives "ElonMusk".\n\n'
             'The last letter of "Elon" is "n" and the last letter of "Musk" is "k", so "nk".')
    assert _audit(trace, "nk").trace_valid is True


def test_problem_errors_say_why_and_judge_nothing():
    assert "disagrees" in _audit(WEI, "nk", reference_answer="xy").answer_error.message
    v = audit_record(object_to_record({"domain": "last_letter", "problem": {"words": []}, "trace": WEI,
                                       "answer": "nk"})).verdict
    assert v.answer_correct is None and "'words'" in v.answer_error.message


def test_answers_compare_after_cleaning_ignoring_case_only():
    assert _audit(WEI, "**The answer is NK.**").answer_correct is True
    assert _audit(WEI, "k n").answer_correct is False


FNEL = ["Rolf", "Shawn", "Irene", "Nell"]
FNEL_TRACE = ('The last letter of "Rolf" is "f". The last letter of "Shawn" is "n". The last letter of "Irene" is '
              '"e". The last letter of "Nell" is "l". So, the final answer is "{}".')


def test_wrong_final_concatenation_after_right_letters_is_caught():
    v = _audit(FNEL_TRACE.format("fnenl"), "fnenl", FNEL)
    assert v.answer_correct is False and v.trace_valid is False
    assert "'fnel', not 'fnenl'" in v.invalid_steps[0]["message"]
    right = _audit(FNEL_TRACE.format("fnel"), "fnel", FNEL)
    assert right.answer_correct is True and right.trace_valid is True
    # not all letters stated: the final answer against the words' letters
    v = _audit('The last letter of "Rolf" is "f". So the answer is "fnl".', "fnl", FNEL)
    assert v.trace_valid is False and v.invalid_steps[0]["rule"] == "concatenation_mismatch"
    assert _audit('The last letter of "Rolf" is "f". So the answer is correct.', "fnel", FNEL).trace_valid is True


def test_plan_and_solve_letter_list_and_positional_form_are_checked():
    words = ["Apple", "Tree", "Bell", "Milk"]
    ok = _audit('The last letters of each word are: e, e, l, and k.\nConcatenating them gives "eelk".', "eelk", words)
    assert ok.trace_valid is True and ok.judged
    bad = _audit('The last letters of each word are: e, e, l, and m.\nConcatenating them gives "eelm".', "eelm", words)
    assert bad.trace_valid is False and "'Milk' (word 4) is 'k', not 'm'" in bad.invalid_steps[0]["message"]
    pos = _audit("The last letter of the first word is 'e'. The last letter of the second word is 'a'.", "", words)
    assert pos.trace_valid is False and "'Tree' (word 2) is 'e', not 'a'" in pos.invalid_steps[0]["message"]
    assert _audit("The last letter of the 3rd word, 'Bell', is l.", "", words).trace_valid is True


def test_spelled_out_letters_and_answer_label_are_read():
    words = ["Dean", "Papa", "Bolo", "Tia"]
    assert _audit("", '"n a o a"', words).answer_correct is True
    assert _audit("", "n-a-o-a", words).answer_correct is True
    assert _audit("", "n a a o", words).answer_correct is False
    v = _audit('The last letters of the words are n, a, o, a. So the answer is "n a o a".', "naoa", words)
    assert v.trace_valid is True and not v.gaps
    assert _audit("", "[Answer] h", ["Hugh"]).answer_correct is True


def test_generator_is_deterministic_by_seed_and_length():
    first = generate(5, 3, seed=7)
    assert first == generate(5, 3, seed=7) and first != generate(5, 3, seed=8)
    assert all(len(p["words"]) == 5 == problem_length(p) and len(set(p["words"])) == 5 for p in first)
    assert first[0]["question"].startswith("Take the last letters of the words in")
    assert get_domain("last_letter").generate is generate


def test_precision_and_recall_on_injected_errors():
    assert_injected_errors_found("last_letter", per_length=6, at_least=40)


def test_an_off_task_concatenation_taken_back_in_its_step_is_corrected():
    trace = ('The last letter of "Elon" is "n". The last letter of "Musk" is "k". '
             'Concatenating "k" and "n" gives "kn", no wait, that is the wrong order: "nk".')
    v = _audit(trace, "nk")
    assert v.trace_valid is True and v.answer_correct is True
