"""Fast page tests with Streamlit's AppTest against a real SQLite file."""

from streamlit.testing.v1 import AppTest

from tests.conftest import REPO


def _app(tmp_path, monkeypatch, demo: str = "1") -> AppTest:
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", demo)
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=60)


def test_first_start_loads_demo_data_once_and_shows_it(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch).run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Traces stored"] == "30"
    assert at.title[0].value == "Stepscope"
    at.run()
    assert {m.label: m.value for m in at.metric}["Traces stored"] == "30"


def test_empty_database_says_so(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch, demo="0").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Traces stored"] == "0"
    assert any("Nothing stored yet" in i.value for i in at.info)
