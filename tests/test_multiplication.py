"""The `multiplication` domain: hand-written traces, the generator, and precision and recall
on SYNTHETIC long-multiplication traces with injected errors (tests/lengths_fixtures.py)."""

from __future__ import annotations

from audit import audit_record
from records_io.intake import object_to_record
from tests.lengths_fixtures import assert_injected_errors_found
from validators.multiplication.generate import generate, generate_pairs
from validators.multiplication.problem import problem_length
from validators.registry import get_domain

RIGHT = ("Multiply 123 by 5: 5 x 3 = 15, write 5, carry 1; 5 x 2 + 1 = 11, write 1, carry 1; 5 x 1 + 1 = 6, "
         "write 6. So 123 x 5 = 615.\n\n123 x 40 = 4920.\n\n123 x 300 = 36900.\n\n615 + 4920 = 5535.\n\n"
         "5535 + 36900 = 42435.\n\nSo the answer is 42435.")


def _audit(trace: str, answer: str, a=123, b=345, **problem):
    record = object_to_record({"domain": "multiplication", "problem": {"a": a, "b": b, **problem},
                               "trace": trace, "answer": answer})
    return audit_record(record).verdict


def test_right_long_multiplication_is_valid():
    v = _audit(RIGHT, "42435")
    assert v.answer_correct is True and v.trace_valid is True and not v.gaps


def test_false_partial_product_and_sum_are_invalid():
    v = _audit(RIGHT.replace("4920.", "4820.").replace("615 + 4920 = 5535", "615 + 4820 = 5435")
               .replace("5535 + 36900 = 42435", "5435 + 36900 = 42335").replace("is 42435", "is 42335"), "42335")
    assert v.answer_correct is False and v.first_invalid_step == 1
    assert v.invalid_steps[0]["rule"] == "arithmetic_claim_false" and len(v.invalid_steps) == 1


def test_wrong_carry_is_invalid_even_when_the_product_is_right():
    v = _audit(RIGHT.replace("write 5, carry 1", "write 5, carry 2"), "42435")
    assert v.answer_correct is True and v.trace_valid is False
    assert v.invalid_steps[0]["rule"] == "carry_wrong" and "15 is written 5, carry 1" in v.invalid_steps[0]["message"]
    assert _audit(RIGHT.replace("write 6.", "write 7."), "42435").invalid_steps[0]["rule"] == "carry_wrong"


def test_partial_product_must_use_the_multipliers_digit():
    v = _audit(RIGHT.replace("123 x 40 = 4920", "123 x 50 = 6150"), "42435")
    assert v.invalid_steps[0]["rule"] == "partial_product_wrong_digit"
    # An unshifted row and another decomposition are left to the claim check.
    other = "123 x 3 = 369, shifted: 36900.\n\n123 x 350 = 43050.\n\n43050 - 615 = 42435.\n\nSo the answer is 42435."
    assert _audit(other, "42435").trace_valid is True


def test_thousands_separators_are_read_as_one_number_in_claims_and_answers():
    """Issue 34.2: "929 x 300 = 278,700" was read as "= 278" and flagged false, and
    \\boxed{1,\\!800} as 800; a place value rounded up to subtract the rest was called a wrong row."""
    trace = ("929 × 300 = 278,700\n\n929 × 20 = 18{,}580\n\n929 × 1 = 929\n\n"
             "278,700 + 18,580 + 929 = 298,209\n\nSo the answer is 298,209.")
    v = _audit(trace, "\\boxed{298,\\!209}", a=929, b=321)
    assert v.answer_correct is True and v.trace_valid is True and not v.gaps
    wrong = _audit(trace.replace("= 278,700", "= 278,600"), "\\boxed{298{,}209}", a=929, b=321)
    assert wrong.answer_correct is True and wrong.invalid_steps[0]["rule"] == "arithmetic_claim_false"
    assert "not 278,600" in wrong.invalid_steps[0]["message"]
    split = ("231272201 × 300000000 = 69381660300000000\n\n231272201 × 470346 = 108777954651546\n\n"
             "69381660300000000 - 108777954651546 = 69272882345348454\n\nSo the answer is 69272882345348454.")
    v = _audit(split, "69,272,882,345,348,454", a=231272201, b=299529654)
    assert v.answer_correct is True and v.trace_valid is True


def test_a_result_stated_as_a_chain_concludes_with_its_last_side():
    """Issue 34.3: Faith and Fate's scratchpads end "The final answer is 128 x 1 + 32 x 10 = 128 +
    320 = 448."; the trace was said to conclude 128, contradicting the answer 448."""
    trace = ("Multiply 32 by 4: 2 x 4 = 8, 3 x 4 = 12, so A=128.\n\nMultiply 32 by 1: B=32.\n\n"
             "The final answer is 128 x 1 + 32 x 10 = 128 + 320 = 448.")
    v = _audit(trace, "448", a=32, b=14)
    assert v.answer_correct is True and v.trace_valid is True and not v.gaps
    contra = _audit(trace, "449", a=32, b=14)
    assert [g.kind for g in contra.gaps] == ["answer_contradicts_trace"]
    assert "the value 448 from '128 x 1 + 32 x 10 = 128 + 320 = 448'" in contra.gaps[0].message


def test_answer_against_the_exact_product_and_problem_errors():
    assert _audit("", "\\boxed{42,435}").answer_correct is True
    assert _audit("", "42436").answer_correct is False
    assert "is not 123 x 345" in _audit("", "1", reference_answer="7").answer_error.message
    assert _audit("", "1", a="12a").answer_correct is None
    big = 10 ** 20 + 7
    assert _audit("", str(big * 3), a=str(big), b=3).answer_correct is True


def test_generator_is_deterministic_by_seed_and_length():
    first = generate(4, 3, seed=1)
    assert first == generate(4, 3, seed=1) and first != generate(4, 3, seed=2)
    assert all(len(str(p["a"])) == len(str(p["b"])) == 4 == problem_length(p) for p in first)
    assert all(int(p["reference_answer"]) == int(p["a"]) * int(p["b"]) for p in first)
    wide = generate_pairs(18, 3, 2, seed=0)
    assert isinstance(wide[0]["a"], str) and problem_length(wide[0]) == 18
    assert get_domain("multiplication").generate is generate


def test_precision_and_recall_on_injected_errors():
    assert_injected_errors_found("multiplication", per_length=5, at_least=30)
