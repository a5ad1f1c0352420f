import pytest

from audit import audit_record
from core.record import RecordError, TraceRecord, content_id, record_from_json, record_to_json
from tests.test_planning import BW, VALID_NL


def test_minimal_record_gets_content_id_and_defaults():
    rec = record_from_json({"trace": "a\n\nb", "answer": "42"})
    assert rec.domain == "freeform"
    assert rec.id == content_id("freeform", {}, "a\n\nb", "42")
    assert not rec.id_given
    again = record_from_json({"trace": "a\n\nb", "answer": "42"})
    assert again.id == rec.id
    other = record_from_json({"trace": "a\n\nb", "answer": "43"})
    assert other.id != rec.id


def test_a_record_without_domain_takes_the_one_its_problem_names():
    """Issue 34.9: a Hanoi, last-letter or PDDL record without `domain` fell to freeform and
    "no reference_answer"; the field that decided is said, and two domains' fields decide nothing."""
    hanoi = audit_record(record_from_json({"problem": {"disks": 1}, "answer": "moves = [[1, 0, 2]]"}))
    assert (hanoi.record.domain, hanoi.verdict.answer_correct) == ("hanoi", True)
    assert hanoi.replay.notes["domain_inferred"] == "hanoi, from problem.disks (the record has no domain)"
    assert record_from_json({"problem": {"words": ["Elon", "Musk"]}}).domain == "last_letter"
    plan = record_from_json({"problem": BW, "answer": VALID_NL})
    assert plan.domain == "blocksworld" and "PlanBench's domain blocksworld-4ops" in plan.domain_note
    other = {**BW, "domain_pddl": BW["domain_pddl"].replace("blocksworld-4ops", "stacks")}
    assert record_from_json({"problem": other}).domain == "pddl"
    both = record_from_json({"problem": {"disks": 3, "words": ["a"]}})
    assert both.domain == "freeform" and "hanoi, problem.disks and of last_letter" in both.domain_note
    assert record_from_json({"domain": "countdown", "problem": {"disks": 3}}).domain_note is None


def test_structured_trace_is_rendered_one_item_per_line_and_kept():
    items = [{"action": "create", "state": {"x": 0, "y": 0}}, {"action": "close", "state": {"x": 0, "y": 0}}]
    rec = record_from_json({"id": "r1", "domain": "maze", "trace": items, "answer": [{"x": 0, "y": 0}]})
    assert rec.trace.count("\n") == 1
    assert rec.trace_data == items
    assert record_to_json(rec)["trace"] == items


@pytest.mark.parametrize("obj, message", [
    ([1, 2], "expected a JSON object"),
    ({"domain": 3}, "'domain' must be a string"),
    ({"problem": "x"}, "'problem' must be a JSON object"),
    ({"format": 5}, "'format' must be a string"),
])
def test_bad_records_are_rejected_with_reason(obj, message):
    with pytest.raises(RecordError, match=message):
        record_from_json(obj)


def test_numeric_id_and_domain_case_are_normalised():
    rec = record_from_json({"id": 7, "domain": " Maze ", "format": "SearchFormer"})
    assert isinstance(rec, TraceRecord)
    assert (rec.id, rec.domain, rec.format) == ("7", "maze", "searchformer")
