"""bench/step_labels_score.py: the halves are fixed by the data, and the dev figures hold as a floor."""

import pytest

from bench.step_labels_score import half_of, score_file
from tests.conftest import DEV_DATA

# The measured figures (README, "Step-labelled datasets"): location accuracy per task and half.
FLOOR = {("dyck_languages", "A"): 0.99, ("dyck_languages", "B"): 0.98,
         ("tracking_shuffled_objects", "A"): 0.93, ("tracking_shuffled_objects", "B"): 0.90,
         ("word_sorting", "A"): 0.93, ("word_sorting", "B"): 0.87,
         ("multistep_arithmetic", "A"): 0.92, ("multistep_arithmetic", "B"): 0.91,
         ("logical_deduction", "A"): 0.93, ("logical_deduction", "B"): 0.95}


def test_halves_depend_on_the_input_only():
    assert half_of("( [") == half_of("( [") and {half_of(str(i)) for i in range(20)} == {"A", "B"}


@pytest.mark.parametrize("task", sorted({t for t, _ in FLOOR}))
def test_location_accuracy_holds_on_the_dev_third(task):
    path = DEV_DATA / "bigbench_mistake" / f"{task}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} is not present")
    scores = score_file(path)
    for half, score in scores.items():
        figures = score.figures()
        print(task, half, figures)
        assert figures["location"] >= FLOOR[(task, half)]
        assert figures["answer"] >= 0.99
