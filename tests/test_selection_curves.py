"""Issue 37 item 3: every point of a curve against k says how many problems it stands on, and a
curve stops where fewer than MIN_CURVE_PROBLEMS problems remain."""

from __future__ import annotations

import base64
import json

import numpy as np

from metrics.selection import MIN_CURVE_PROBLEMS, selection_row
from tests.test_pages import app  # noqa: F401 - the AppTest factory fixture
from tests.test_problems import _store


def _problems(sizes: list[int]) -> list[list[tuple[str, bool]]]:
    """One problem per size; its first sample right, the rest wrong."""
    return [[("right", True)] + [("wrong", False)] * (n - 1) for n in sizes]


def test_a_curve_stops_before_the_first_k_too_few_problems_reach() -> None:
    # 153 -> 44 -> 12 -> 1 problems, as in the issue (at k = 2, 3, 4, 5)
    sizes = [2] * (153 - 44) + [3] * (44 - 12) + [4] * (12 - 1) + [5]
    row = selection_row("m", "d", _problems(sizes))
    assert [(p["k"], p["problems"]) for p in row.curve] == [(1, 153), (2, 153), (3, 44), (4, 12)]
    assert row.curve_cut == {"k": 5, "problems": 1}
    assert all(p["problems"] >= MIN_CURVE_PROBLEMS for p in row.curve)
    assert row.to_json()["curve_cut"] == {"k": 5, "problems": 1}
    whole = selection_row("m", "d", _problems([3] * 12))
    assert [p["k"] for p in whole.curve] == [1, 2, 3] and whole.curve_cut is None
    few = selection_row("m", "d", _problems([3] * (MIN_CURVE_PROBLEMS - 1)))
    assert few.curve == [] and few.curve_cut == {"k": 1, "problems": MIN_CURVE_PROBLEMS - 1}
    assert few.problems == MIN_CURVE_PROBLEMS - 1 and few.pass_at_1 > 0  # the table still has its figures


def _values(field: object) -> list:
    """A plotly array as JSON holds it: a list, or base64 of a typed array."""
    if isinstance(field, dict):
        return list(np.frombuffer(base64.b64decode(field["bdata"]), dtype=field["dtype"]))
    return list(field)  # type: ignore[call-overload]


def _records(n_problems: int, samples: int) -> list[dict]:
    return [{"id": f"p{p}-s{s}", "domain": "countdown", "format": "sos", "model": "m",
             "problem": {"numbers": [p + 1, 2, 3], "target": 6}, "trace": "", "answer": "x"}
            for p in range(n_problems) for s in range(samples)]


def test_the_chart_shows_each_points_problems_and_says_where_curves_stop(app) -> None:  # noqa: F811
    # 12 problems with 2 samples and 3 with 3: both curves reach k = 2 and stop before k = 3
    _store(app.url, _records(12, 2) + [dict(r, id="more-" + r["id"]) for r in _records(3, 3)])
    at = app("problems").run()
    assert not at.exception
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert all("problems" in t["hovertemplate"] for t in spec["data"])
    assert {int(x) for t in spec["data"] for x in _values(t["x"])} == {1, 2}
    assert any("Curves cut short" in c.value and "stops before k = 3" in c.value for c in at.caption)
