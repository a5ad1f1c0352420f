"""The `multistep_arithmetic` replay: exact values with signs and precedence, the parts, every
rewrite, roots and consequences, and the answer."""

from fractions import Fraction

from audit import audit_record
from core.record import record_from_json
from validators.exact_arithmetic import evaluate
from validators.multistep_arithmetic.replay import recognise, value_of

INPUT = "((7 - -7 * 4) * (-6 + 2)) ="
GOOD = ['This equation can be written as "(A * B)", where A = (7 - -7 * 4) and B = (-6 + 2).',
        "Let's calculate A = (7 - -7 * 4) = (7 - (-28)) = (7 + 28) = 35.",
        "Let's calculate B = (-6 + 2) = -4.",
        "Then, the final equation is (A * B) = (35 * -4) = -140. So the answer is -140"]


def _audit(steps, answer="-140"):
    record = record_from_json({"domain": "multistep_arithmetic", "format": "steps", "problem": {"input": INPUT},
                               "trace": steps, "answer": answer})
    return audit_record(record).verdict.to_json()


def _invalid(v):
    return {s["step"]: (s["rule"], s["consequence_of"]) for s in v["invalid_steps"]}


def test_values_are_exact_with_signs_and_precedence():
    assert value_of("7 - -7 * 4") == 35 and value_of("(-10) - (-12)") == 2
    assert value_of("((-5 * -8 + 4)") == 44 and value_of("A * B", {"A": Fraction(1, 2), "B": Fraction(-4)}) == -2
    assert value_of("(A + C)", {"A": Fraction(1)}) is None
    assert recognise({"input": INPUT}) and not recognise({"input": "( [ {"}) and not recognise({"input": "cat bee"})


def test_countdown_keeps_rejecting_signs():
    try:
        evaluate("-3")
    except ValueError:
        pass
    else:
        raise AssertionError("Countdown's reader must not read a unary minus by default")


def test_a_right_trace_is_valid():
    v = _audit(GOOD)
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_a_sign_slip_is_the_root_and_the_final_combination_its_consequence():
    steps = list(GOOD)
    steps[1] = "Let's calculate A = (7 - -7 * 4) = (7 - 28) = -21."
    steps[3] = "Then, the final equation is (A * B) = (-21 * -4) = 84. So the answer is 84"
    v = _audit(steps, "84")
    assert _invalid(v) == {1: ("wrong_rewrite", None), 3: ("wrong_value", 1)}
    assert "(7 - -7 * 4) is 35, not -21 ((7 - 28))" in v["invalid_steps"][0]["message"]
    assert v["answer_correct"] is False


def test_a_wrong_substitution_and_a_wrong_decomposition_are_roots():
    steps = list(GOOD)
    steps[3] = "Then, the final equation is (A * B) = (35 * 4) = 140. So the answer is 140"
    assert _invalid(_audit(steps, "140")) == {3: ("wrong_rewrite", None)}
    steps = list(GOOD)
    steps[0] = 'This equation can be written as "(A + B)", where A = (7 - -7 * 4) and B = (-6 + 2).'
    steps[3] = "Then, the final equation is (A + B) = (35 + -4) = 31. So the answer is 31"
    assert _invalid(_audit(steps, "31")) == {0: ("wrong_decomposition", None), 3: ("wrong_value", 0)}


def test_a_part_restated_wrongly_is_flagged():
    steps = list(GOOD)
    steps[2] = "Let's calculate B = (-6 + 3) = -3."
    assert _invalid(_audit(steps))[2][0] == "wrong_restatement"


def test_steps_without_claims_are_not_judged():
    v = _audit(["Let me think.", "So the answer is -140"])
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_bold_names_unicode_minus_and_thousands_separators_are_read_through_the_reading_layer():
    # a bold part name, a typographic minus and multiplication sign: read, and the slip is found
    steps = list(GOOD)
    steps[2] = "Let's calculate **B** = (−6 + 2) = −5."
    v = _audit(steps)
    assert _invalid(v)[2] == ("wrong_rewrite", None) and v["first_invalid_step"] == 2
    steps[2] = "Let's calculate `B` = (−6 + 2) = −4."
    steps[3] = "Then, the final equation is (A × B) = (35 × −4) = −140. So the answer is −140"
    v = _audit(steps, "−140")
    assert v["trace_valid"] is True and v["answer_correct"] is True
    # a value written with a thousands separator is one number, not 1 and 260
    def arith(final, answer):
        record = record_from_json({"domain": "multistep_arithmetic", "format": "steps",
                                   "problem": {"input": "((-9 * 5 * 4) * (3 - -4)) ="}, "answer": answer, "trace": [
            'This equation can be written as "(A * B)", where A = (-9 * 5 * 4) and B = (3 - -4).',
            "Let's calculate A = (-9 * 5 * 4) = -180.", "Let's calculate B = (3 - -4) = 7.",
            f"Then, the final equation is (A * B) = {final}. So the answer is {answer}"]})
        return audit_record(record).verdict.to_json()

    v = arith("(-180 * 7) = -1,260", "-1,260")
    assert v["trace_valid"] is True and v["answer_correct"] is True
    v = arith("(-180 * 7) = -1,250", "-1,250")
    assert _invalid(v) == {3: ("wrong_rewrite", None)} and v["answer_correct"] is False
    assert "is -1260, not -1250" in v["invalid_steps"][0]["message"]
