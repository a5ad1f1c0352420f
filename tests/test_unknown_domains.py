"""Issue 37 item 8: a record naming a domain no validator knows is reported per file, with the
nearest registered domain, by the upload page and by `cli.py audit`."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import REPO
from tests.test_cli import run_cli
from validators.domain_names import UnknownDomains
from validators.registry import nearest_domain

RECORDS = [
    {"id": "u1", "domain": "blockworld", "trace": "Pick up a.", "answer": "(pick-up a)"},
    {"id": "u2", "domain": "chess", "trace": "e4 e5", "answer": "Nf3"},
    {"id": "u3", "domain": "chess", "trace": "d4 d5", "answer": "c4"},
    {"id": "u4", "domain": "freeform", "trace": "2 + 2 = 4", "answer": "4"},
]
DATA = b"".join(json.dumps(r).encode() + b"\n" for r in RECORDS)


@pytest.mark.parametrize("name, nearest", [("blockworld", "blocksworld"), ("Blocks-World", "blocksworld"),
                                           ("countdwn", "countdown"), ("mystery", "mystery_blocksworld"),
                                           ("chess", None), ("", None)])
def test_nearest_domain_comes_from_the_registry(name, nearest):
    assert nearest_domain(name) == nearest


def test_notes_count_unknown_domains_only():
    seen = UnknownDomains()
    for r in RECORDS:
        seen.add(r["domain"])
    notes = seen.notes("f.jsonl")
    assert len(notes) == 2
    assert notes[0].startswith("f.jsonl: 2 record(s) name the unknown domain 'chess'")
    assert "did you mean 'blocksworld'?" in notes[1]


def test_cli_audit_names_unknown_domains_per_file(tmp_path):
    src = tmp_path / "mixed.jsonl"
    src.write_bytes(DATA)
    proc = run_cli("audit", str(src), "--out", str(tmp_path / "v.jsonl"), "--db", f"sqlite:///{tmp_path / 'db'}")
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert f"warning: {src}: 2 record(s) name the unknown domain 'chess'" in err
    assert f"warning: {src}: 1 record(s) name the unknown domain 'blockworld'" in err
    assert "did you mean 'blocksworld'?" in err
    verdicts = [json.loads(line) for line in (tmp_path / "v.jsonl").read_text().splitlines()]
    assert "did you mean 'blocksworld'?" in verdicts[0]["answer_error"]["message"]


def test_upload_page_names_unknown_domains_per_file(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'pages.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.switch_page("app_pages/upload.py").run()
    at.file_uploader[0].set_value(("games.jsonl", DATA, "application/octet-stream"))
    at.run()
    at.button[0].click().run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("games.jsonl: 2 record(s) name the unknown domain 'chess'") for w in warnings)
    assert any("'blockworld'" in w and "did you mean 'blocksworld'?" in w for w in warnings)
    # The notes stay with the summary when the page reruns.
    at.run()
    assert len([w for w in at.warning if "unknown domain" in w.value]) == 2
