"""Issue 37 item 7: binary files are refused whole with a clear message, and an upload can be
removed again, by source or by selected records, in the app (owners only) and in the CLI."""

import json
import random

import pytest
from streamlit.testing.v1 import AppTest

from records_io.binary import binary_reason
from db.engine import make_engine
from db.sources import list_sources
from tests.conftest import REPO
from tests.test_cli import run_cli

NOISE = random.Random(37).randbytes(200_000)
GOOD = b"".join(json.dumps({"id": f"g{i}", "domain": "freeform", "trace": f"{i} + 1 = {i + 1}",
                            "answer": str(i + 1)}).encode() + b"\n" for i in range(3))


def test_binary_reason_tells_noise_from_text_with_a_bad_line():
    assert "lines are binary" in binary_reason(NOISE, line_based=True)
    assert binary_reason(NOISE[:50_000], line_based=False)
    assert binary_reason(b"\x89PNG\r\n\x1a\n" + NOISE[:100], line_based=False) == "it is a PNG image"
    # One binary line among records is that line's problem, not the file's.
    assert binary_reason(GOOD + bytes(b for b in range(256) if b != 10) + b"\n" + GOOD, line_based=True) is None
    assert binary_reason("Okay, caf\xe9.\n".encode("latin-1") * 50, line_based=False) is None
    assert binary_reason("Okay, let me think.\n".encode("utf-16"), line_based=False) is None


@pytest.fixture()
def app(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'pages.db'}"
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", url)
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")

    def make(page: str) -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        at.switch_page(f"app_pages/{page}.py")
        return at.run()

    make.url = url
    return make


def _upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.file_uploader[0].set_value(list((n, d, "application/octet-stream") for n, d in files))
    at.run()
    return at.button[0].click().run()


def test_upload_refuses_binary_files_and_keeps_the_others(app):
    at = _upload(app("upload"), ("noise.jsonl", NOISE), ("noise.txt", NOISE[:50_000]), ("good.jsonl", GOOD))
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(e.startswith("noise.jsonl: binary data, not trace records") for e in errors)
    assert any(e.startswith("noise.txt: binary data") and "nothing from it was stored" in e for e in errors)
    assert {s.source: s.records for s in list_sources(make_engine(app.url))} == {"good.jsonl": 3}
    at.run()  # the messages stay with the summary
    assert len([e for e in at.error if "binary data" in e.value]) == 2


def test_owner_deletes_a_source_and_selected_records_after_confirming(app):
    _upload(app("upload"), ("a.jsonl", GOOD), ("b.jsonl", GOOD.replace(b'"g', b'"h')))
    eng = make_engine(app.url)
    at = app("stored")
    assert not at.exception
    table = at.dataframe(key="sources_table")
    assert set(table.value["source"]) == {"a.jsonl", "b.jsonl"}
    row = list(table.value["source"]).index("a.jsonl")
    at.session_state["sources_table"] = {"selection": {"rows": [row], "columns": []}}
    at.run()
    delete = at.button(key="delete_sources")
    assert delete.disabled  # not before the confirmation
    at.checkbox(key="confirm_sources").check().run()
    at.button(key="delete_sources").click().run()
    assert not at.exception
    assert {s.source: s.records for s in list_sources(eng)} == {"b.jsonl": 3}
    assert any("Deleted 3 record(s) from a.jsonl" in s.value for s in at.success)
    # Record by record: two of b.jsonl's three.
    at.session_state["source_records_table"] = {"selection": {"rows": [0, 1], "columns": []}}
    at.run()
    at.checkbox(key="confirm_records").check().run()
    at.button(key="delete_records").click().run()
    assert not at.exception
    assert {s.source: s.records for s in list_sources(eng)} == {"b.jsonl": 1}


def test_readers_of_a_shared_server_cannot_open_the_delete_page(app, monkeypatch):
    _upload(app("upload"), ("a.jsonl", GOOD))
    monkeypatch.setenv("STEPSCOPE_SHARED", "1")
    at = app("stored")
    assert not at.exception and len(at.dataframe) == 0 and len(at.button) == 0
    assert list_sources(make_engine(app.url))[0].records == 3


def test_cli_refuses_binary_input_and_deletes_a_source_only_when_confirmed(tmp_path):
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    noise = tmp_path / "noise.jsonl"
    noise.write_bytes(NOISE)
    proc = run_cli("audit", str(noise), "--db", db)
    assert proc.returncode == 2 and "binary data, not trace records" in proc.stderr.decode()
    assert proc.stdout == b""
    good = tmp_path / "good.jsonl"
    good.write_bytes(GOOD)
    assert run_cli("audit", str(good), "--db", db).returncode == 0
    assert list_sources(make_engine(db))[0].records == 3  # nothing from noise.jsonl
    listing = run_cli("delete", "--list", "--db", db)
    assert listing.returncode == 0 and str(good) in listing.stdout.decode()
    unconfirmed = run_cli("delete", "--source", str(good), "--db", db, stdin=b"")
    assert unconfirmed.returncode == 2 and "pass --yes" in unconfirmed.stderr.decode()
    unknown = run_cli("delete", "--source", "nope.jsonl", "--yes", "--db", db)
    assert unknown.returncode == 2 and "no records from source 'nope.jsonl'" in unknown.stderr.decode()
    assert list_sources(make_engine(db))[0].records == 3
    done = run_cli("delete", "--source", str(good), "--yes", "--db", db)
    assert done.returncode == 0 and "deleted 3 record(s)" in done.stderr.decode()
    assert list_sources(make_engine(db)) == []
