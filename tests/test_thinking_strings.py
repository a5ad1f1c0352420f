"""String claims in thinking traces (validators/thinking/strings.py), the freeform domain's
string answers, and the trace's final value against the answer (validators/freeform.py)."""

from __future__ import annotations

from audit import audit_record
from core.record import record_from_json
from validators.freeform.replay import VERSION, clean_answer
from validators.thinking.strings import find_string_claims


def _verdict(rec: dict) -> dict:
    return audit_record(record_from_json(rec)).verdict.to_json()


def _kinds(verdict: dict) -> list[str]:
    return [g["kind"] for g in verdict["gaps"]]


LETTERS_Q = {"question": "Take the last letters of the words in 'Elon Musk' and concatenate them.",
             "reference_answer": "nk"}
LETTERS_TRACE = ("Okay, let's see. I need the last letter of each word in the name and then put them together.\n\n"
                 "The last letter of 'Elon' is 'n'. The last letter of 'Musk' is 's'.\n\n"
                 "Concatenating 'n' and 's' gives 'ns'. So the answer is 'ns'.")


# --- string claims -------------------------------------------------------------------------------

def test_musk_claim_false_with_the_right_value_and_span() -> None:
    text = "Hmm, the last letter of 'Musk' is 's', and the first letter of \"Elon\" is E."
    claims = find_string_claims(text)
    assert [c.holds for c in claims] == [False, True]
    musk = claims[0]
    assert text[musk.start:musk.end] == musk.text == "the last letter of 'Musk' is 's'"
    assert "the last letter of 'Musk' is 'k', not 's'" in musk.message


def test_counts_reversals_concatenations_and_lists() -> None:
    got = {c.text: c.holds for c in find_string_claims(
        "So 'strawberry' has 3 r's. Also there are 2 r's in strawberry. 'abc' reversed is 'cba'. "
        "The reverse of 'stop' is 'stop'. 'n' + 'k' = 'nk'. The last letters of Elon, Musk are n and k.")}
    assert got == {"'strawberry' has 3 r's": True, "there are 2 r's in strawberry": False,
                   "'abc' reversed is 'cba'": True, "The reverse of 'stop' is 'stop'": False,
                   "'n' + 'k' = 'nk'": True, "The last letters of Elon, Musk are n and k": True}


def test_doubtful_phrases_are_left_unjudged() -> None:
    doubtful = ["the last letter of his name is s.", "the first letter of 'apple' is a vowel",
                "the second to last letter of 'Musk' is 'u'", "the last letter of 'Musk' would be 's'",
                "there are 3 r's in total.", "the second half has 2 r's", "the last letter of each word is k."]
    for text in doubtful:
        assert find_string_claims(text) == [], text


def test_false_string_claim_in_a_trace_and_its_gap() -> None:
    wrong = _verdict({"domain": "freeform", "problem": LETTERS_Q, "trace": LETTERS_TRACE, "answer": "ns"})
    assert wrong["answer_correct"] is False and wrong["trace_valid"] is False
    bad = wrong["invalid_steps"]
    # Only the Musk claim is false: concatenating 'n' and 's' does give 'ns' (the error is upstream).
    assert [(s["step"], s["rule"]) for s in bad] == [(1, "false_string_claim")]
    assert "the last letter of 'Musk' is 'k', not 's'" in bad[0]["message"]
    start, end = bad[0]["span"]
    assert "The last letter of 'Musk' is 's'" in LETTERS_TRACE[start:end]
    # Right answer despite the false claims: the generic gap; a false claim while checking: a verification gap.
    lucky = _verdict({"domain": "freeform", "problem": LETTERS_Q, "answer": "nk",
                      "trace": LETTERS_TRACE.replace("So the answer is 'ns'.", "Let me verify: the last letter of "
                                                     "'Musk' is 's', correct. Hmm, so the answer is 'nk'.")})
    assert lucky["answer_correct"] is True
    assert "right_answer_invalid_trace" in _kinds(lucky) and "false_verification_claim" in _kinds(lucky)


def test_retracted_string_claim_is_corrected_not_invalid() -> None:
    trace = ("Okay, let's see. I need the last letter of each word in the name and then put them together.\n\n"
             "The last letter of 'Elon' is 'n'. The last letter of 'Musk' is 's', no wait, it's 'k'.\n\n"
             "Concatenating 'n' and 'k' gives 'nk'. So the answer is 'nk'.")
    got = _verdict({"domain": "freeform", "problem": LETTERS_Q, "trace": trace, "answer": "nk"})
    assert got["answer_correct"] is True and got["invalid_steps"] == [] and got["gaps"] == []


# --- freeform string answers ---------------------------------------------------------------------

def test_freeform_string_answers_right_and_wrong() -> None:
    assert clean_answer("**The answer is 'nk'.**") == "nk" and clean_answer("Answer: \\boxed{nk}") == "nk"
    for answer in ("nk", "The answer is 'nk'.", "**nk**", "Answer: NK"):
        got = _verdict({"domain": "freeform", "problem": LETTERS_Q, "trace": "", "answer": answer})
        assert got["answer_correct"] is True, answer
    wrong = _verdict({"domain": "freeform", "problem": LETTERS_Q, "trace": "", "answer": "The answer is 'ns'."})
    assert wrong["answer_correct"] is False and wrong["answer_error"]["kind"] == "wrong_value"
    assert "'ns' differs from the reference 'nk'" in wrong["answer_error"]["message"]
    # Numbers stay numbers; a longer answer that contains the reference is not guessed at.
    assert _verdict({"domain": "freeform", "problem": {"reference_answer": "1792"}, "answer": "$1,792"})[
        "answer_correct"] is True
    wordy = _verdict({"domain": "freeform", "problem": {"reference_answer": "Paris"},
                      "answer": "It is Paris, I think"})
    assert wordy["answer_correct"] is None and "contains the reference" in wordy["answer_error"]["message"]
    assert VERSION != "1"


def test_freeform_string_answer_contradicts_trace() -> None:
    got = _verdict({"domain": "freeform", "problem": LETTERS_Q, "trace": LETTERS_TRACE, "answer": "nk"})
    assert got["answer_correct"] is True
    contra = [g for g in got["gaps"] if g["kind"] == "answer_contradicts_trace"]
    assert len(contra) == 1 and "'ns'" in contra[0]["message"] and contra[0]["steps"] == [2]


# --- the trace's final value against the answer -------------------------------------------------

Q448 = {"question": "What is 56 * 8?", "reference_answer": "448"}
WITH_ANSWER_IS = ("Okay, let me work out the product. First, 56 * 4 = 224, and then I double it: "
                  "224 * 2 = 448.\n\nSo the answer is 448.")
COMPUTED_ONLY = ("Okay, let me compute 56 * 32 first because I misread the question.\n\n"
                 "56 * 32 = 1792.\n\nWait, the question asks for 56 times 8, not 32. So 56 * 8 = 448.")


def test_448_versus_1792_with_and_without_the_answer_is() -> None:
    for trace in (WITH_ANSWER_IS, COMPUTED_ONLY):
        got = _verdict({"domain": "freeform", "problem": Q448, "trace": trace, "answer": "1792"})
        assert got["answer_correct"] is False
        contra = [g for g in got["gaps"] if g["kind"] == "answer_contradicts_trace"]
        assert len(contra) == 1, trace
        assert "448" in contra[0]["message"] and "the answer is 1792" in contra[0]["message"]
        same = _verdict({"domain": "freeform", "problem": Q448, "trace": trace, "answer": "448"})
        assert same["answer_correct"] is True and "answer_contradicts_trace" not in _kinds(same)


def test_intermediate_values_after_the_result_make_no_gap() -> None:
    stated_then_checked = WITH_ANSWER_IS + "\n\nThen 448 / 8 = 56, which matches the first factor."
    got = _verdict({"domain": "freeform", "problem": Q448, "trace": stated_then_checked, "answer": "448"})
    assert got["answer_correct"] is True and got["gaps"] == [] and got["trace_valid"] is True
    computed_then_checked = ("Okay, let me work out the product of the two numbers here.\n\n56 * 8 = 448.\n\n"
                             "Let me double-check: 448 / 8 = 56.")
    got = _verdict({"domain": "freeform", "problem": Q448, "trace": computed_then_checked, "answer": "448"})
    assert got["answer_correct"] is True and got["gaps"] == []
    # Ending unresolved ("Wait, ...") or hedged leaves no conclusion: no contradiction either way.
    for trace in (WITH_ANSWER_IS + "\n\nWait, maybe I misread the numbers.",
                  "Okay, let me work out the product of the two numbers here.\n\nMaybe 56 * 8 = 448?"):
        got = _verdict({"domain": "freeform", "problem": Q448, "trace": trace, "answer": "1792"})
        assert "answer_contradicts_trace" not in _kinds(got), trace
