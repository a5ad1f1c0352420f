"""The length-generalisation view: `length_curves` against the per-record verdicts (SQLite and
PostgreSQL), `cli.py generate`, the page (AppTest) and its chart in Chromium. Every trace here is
a SYNTHETIC fixture (tests/lengths_fixtures.py), never a model's output."""

from __future__ import annotations

import base64
import json
from collections import defaultdict

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from audit import audit_record
from cli import main as cli_main
from records_io.intake import InputUnit, object_to_record
from db.engine import make_engine
from db.queries import length_curves, length_domains
from tests.conftest import REPO
from tests.lengths_fixtures import length_records
from tests.test_browser import _page, browser, start_app  # noqa: F401 - fixtures
from validators.generated import generated_records, parse_lengths


def _store(url: str, records: list[dict]) -> None:
    from pipeline import audit_units

    units = [InputUnit(line=i + 1, raw=json.dumps(r).encode(), record=object_to_record(r))
             for i, r in enumerate(records)]
    for _ in audit_units(units, make_engine(url), source="lengths-fixture"):
        pass


def _expected(records: list[dict]) -> dict[tuple[str, int], dict]:
    """The same figures computed record by record from `audit_record`'s verdicts."""
    out: dict[tuple[str, int], dict] = defaultdict(lambda: {"records": 0, "correct": 0, "wrong": 0, "firsts": []})
    for rec in records:
        v = audit_record(object_to_record(rec)).verdict
        row = out[(rec["model"], len(rec["problem"]["words"]) if "words" in rec["problem"]
                   else max(len(str(rec["problem"]["a"])), len(str(rec["problem"]["b"]))))]
        row["records"] += 1
        row["correct"] += v.answer_correct is True
        row["wrong"] += v.answer_correct is False
        if v.first_invalid_step is not None:
            row["firsts"].append(v.first_invalid_step)
    return out


@pytest.mark.parametrize("domain", ["last_letter", "multiplication"])
def test_length_curves_equal_the_per_record_verdicts(db_url, domain):
    records = length_records(domain, per_length=3)
    # The same problem written again (another sample) and an unreadable problem.
    records.append({**records[0], "id": "again", "answer": "x"})
    records.append({"id": "broken", "domain": domain, "model": "synthetic-careful", "problem": {"words": 3, "a": "?"},
                    "trace": "", "answer": "1"})
    _store(db_url, records)
    eng = make_engine(db_url)
    assert (domain, "number of words" if domain == "last_letter" else "digits of the longer factor") in length_domains(eng)
    got = {(r["model"], r["length"]): r for r in length_curves(eng, domain)}
    want = _expected(records[:-1])
    assert set(got) == set(want) and {n for _, n in got} == set(range(2, 13))
    for key, row in want.items():
        curve = got[key]
        assert (curve["records"], curve["correct"], curve["wrong"]) == (row["records"], row["correct"], row["wrong"])
        assert curve["accuracy"] == pytest.approx(row["correct"] / row["records"])
        assert curve["with_invalid_step"] == len(row["firsts"])
        if row["firsts"]:
            assert curve["first_invalid_mean"] == pytest.approx(sum(row["firsts"]) / len(row["firsts"]))
    assert length_curves(eng, "freeform") == [] and length_curves(eng, "nope") == []


def test_cli_generate_writes_problem_records(tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    assert cli_main(["generate", "last_letter", "--lengths", "2..4", "--per-length", "2", "--seed", "3",
                     "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [len(r["problem"]["words"]) for r in rows] == [2, 2, 3, 3, 4, 4]
    assert rows == generated_records("last_letter", [2, 3, 4], 2, 3)
    assert rows[0]["trace"] == "" and rows[0]["meta"]["generated"]["seed"] == 3
    assert cli_main(["generate", "maze"]) == 2 and "domains with one: last_letter, multiplication" in \
        capsys.readouterr().err
    assert parse_lengths("2, 4") == [2, 4] and parse_lengths("5") == [5]
    for bad, why in (("12..2", "larger"), ("two", "range")):
        with pytest.raises(ValueError, match=why):
            parse_lengths(bad)


@pytest.fixture()
def lengths_app(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'lengths.db'}"
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", url)
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")

    def make(**params: str) -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        for k, v in params.items():
            at.query_params[k] = v
        at.switch_page("app_pages/lengths.py")
        return at

    make.url = url
    return make


def _figures(at: AppTest) -> list[dict]:
    """The page's figures as plain JSON (plotly writes arrays as typed binary; decoded here)."""
    return [_plain(el.proto.spec) for el in at.get("plotly_chart")]


def _array(value) -> list[float]:
    if isinstance(value, dict) and "bdata" in value:
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
    return list(value)


def _plain(spec: str) -> dict:
    fig = json.loads(spec)
    return {"data": [{"name": t["name"], "x": _array(t["x"]), "y": _array(t["y"])} for t in fig["data"]],
            "layout": fig["layout"]}


def test_page_says_how_to_get_data_when_there_is_none(lengths_app):
    at = lengths_app().run()
    assert not at.exception
    assert "cli.py generate last_letter" in at.info[0].value


def test_page_draws_both_curves_per_model(lengths_app):
    records = length_records("last_letter", per_length=2) + length_records("multiplication", range(2, 5), 2)
    records.append({**records[0], "id": "hostile", "model": "<a href='javascript:alert(1)'>x</a>"})
    _store(lengths_app.url, records)
    at = lengths_app(domain="multiplication").run()
    assert not at.exception
    assert at.selectbox[0].value == "multiplication"
    accuracy, first = _figures(at)
    assert {t["name"] for t in accuracy["data"]} == {"synthetic-careful", "synthetic-sloppy"}
    assert sorted({x for t in accuracy["data"] for x in t["x"]}) == [2, 3, 4]
    assert "digits of the longer factor" in accuracy["layout"]["xaxis"]["title"]["text"]
    at.selectbox[0].select("last_letter").run()
    assert at.query_params["domain"] in ("last_letter", ["last_letter"])
    accuracy, first = _figures(at)
    names = {t["name"] for t in accuracy["data"]}
    assert "&lt;a href=&#x27;javascript:alert(1)&#x27;&gt;x&lt;/a&gt;" in names
    assert sorted({x for t in accuracy["data"] for x in t["x"]}) == list(range(2, 13))
    assert all(0 <= y <= 1 for t in accuracy["data"] for y in t["y"])
    table = at.dataframe[0].value
    assert int(table["records"].sum()) == 2 * 11 * 2 + 1
    at.toggle[0].set_value(True).run()
    assert all(0 <= y <= 1 for t in _figures(at)[1]["data"] for y in t["y"])


def test_length_chart_drawn_in_the_browser(tmp_path, browser):  # noqa: F811 - fixture
    """Lengths 2..12 on the axis, one series per model, in a real Chromium."""
    url = f"sqlite:///{tmp_path / 'e2e.db'}"
    _store(url, length_records("last_letter", per_length=3))
    proc, base = start_app(url)
    try:
        ctx, page = _page(browser)
        page.goto(f"{base}/lengths?domain=last_letter")
        page.get_by_text("Answer accuracy", exact=True).wait_for(timeout=30_000)  # the heading, not the intro that mentions it
        page.locator(".js-plotly-plot .xtick").first.wait_for(timeout=30_000)
        charts = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(el => ({
            series: el._fullData.map(t => t.name),
            xs: [...new Set(el._fullData.flatMap(t => Array.from(t.x)))].sort((a, b) => a - b),
            ticks: [...el.querySelectorAll('.xtick text')].map(t => t.textContent),
            lines: el.querySelectorAll('.scatterlayer .trace').length}))""")
        assert len(charts) == 2
        for chart in charts:
            assert sorted(chart["series"]) == ["synthetic-careful", "synthetic-sloppy"]
            assert chart["lines"] == 2
        assert charts[0]["xs"] == list(range(2, 13))
        assert [int(t) for t in charts[0]["ticks"]] == list(range(2, 13))
        ctx.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_live_capture_offers_generated_problems_with_their_question(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'cap.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")
    monkeypatch.delenv("STEPSCOPE_READ_ONLY", raising=False)
    at = AppTest.from_file(str(REPO / "app_pages" / "live_capture.py"), default_timeout=60).run()
    at.radio(key="cap_source").set_value("Generate by length").run()
    at.selectbox(key="cap_gen_domain").set_value("multiplication").run()
    at.number_input(key="cap_gen_length").set_value(3).run()
    at.number_input(key="cap_gen_seed").set_value(5).run()
    assert not at.exception
    problem = generated_records("multiplication", [3], 1, 5)[0]["problem"]
    assert at.selectbox(key="cap_template").value == "freeform"
    assert any(c.value == problem["question"] for c in at.code)  # the prompt that will be sent
    assert any("multiplication-len3-seed5-0" in c.value for c in at.caption)
