import io
import json

from records_io.intake import guess_format, iter_json_document, iter_jsonl, text_unit

GOOD = {"id": "g1", "domain": "freeform", "trace": "step one\n\nstep two", "answer": "2"}


def _units(data: bytes, **kw):
    return list(iter_jsonl(io.BufferedReader(io.BytesIO(data)), **kw))


def test_mixed_file_yields_one_unit_per_line_with_reasons():
    data = b"\n".join([
        json.dumps(GOOD).encode(),
        b'{"id": "cut-short", "domain": "maze", "trace": "create 0 0',  # truncated
        b"this is not json at all",
        bytes(b for b in range(256) if b != 10),  # binary blob (a newline would split it)
        json.dumps({**GOOD, "id": "g2"}).encode(),
    ]) + b"\n"
    units = _units(data)
    assert [u.line for u in units] == [1, 2, 3, 4, 5]
    assert units[0].record.id == "g1" and units[4].record.id == "g2"
    assert "truncated" in units[1].error and units[1].guessed_id == "cut-short"
    assert units[2].error.startswith("not valid JSON")
    assert units[3].error  # binary: not UTF-8 or NUL bytes
    assert all(u.raw for u in units)


def test_blank_lines_are_skipped_but_line_numbers_kept():
    units = _units(b"\n\n" + json.dumps(GOOD).encode() + b"\n\n")
    assert len(units) == 1 and units[0].line == 3


def test_utf8_bom_and_utf16_files_are_read():
    assert _units(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())[0].record.id == "g1"
    utf16 = (json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "g3"}) + "\n").encode("utf-16")
    assert [u.record.id for u in _units(utf16)] == ["g1", "g3"]


def test_invalid_utf8_is_reported_with_offset():
    unit = _units(b'{"trace": "caf\xe9"}\n')[0]
    assert unit.record is None and "not valid UTF-8" in unit.error and "0xe9" in unit.error


def test_line_over_the_limit_is_reported_and_the_next_line_still_read(monkeypatch):
    monkeypatch.setenv("STEPSCOPE_MAX_LINE_BYTES", "1000")
    big = json.dumps({**GOOD, "trace": "x" * 5000}).encode()
    units = _units(big + b"\n" + json.dumps(GOOD).encode() + b"\n")
    assert len(units) == 2
    assert "over the limit of 1,000" in units[0].error and units[0].raw_truncated
    assert units[1].record.id == "g1"


def test_deeply_nested_json_is_an_error_not_a_crash():
    unit = _units(b"[" * 100_000 + b"]" * 100_000 + b"\n")[0]
    assert unit.record is None and unit.error


def test_chat_completion_becomes_a_record():
    resp = {"id": "chatcmpl-1", "model": "deepseek-r1", "choices": [{"message": {
        "role": "assistant", "content": "The answer is 4.", "reasoning_content": "2+2=4"}}]}
    rec = _units(json.dumps(resp).encode(), default_domain="freeform")[0].record
    assert (rec.trace, rec.answer, rec.model) == ("2+2=4", "The answer is 4.", "deepseek-r1")
    assert rec.meta["completion_id"] == "chatcmpl-1"


def test_json_document_array_and_bad_element():
    units = list(iter_json_document(json.dumps([GOOD, 5]).encode()))
    assert units[0].record.id == "g1"
    assert "element 2" in units[1].error


def test_text_file_is_one_trace_of_the_chosen_domain():
    unit = text_unit("Let me think.\n\nDone.".encode("utf-16"), "freeform", "t.txt")
    assert unit.record.trace == "Let me think.\n\nDone." and unit.record.domain == "freeform"


def test_guess_format():
    assert guess_format("a.jsonl", b"") == "jsonl"
    assert guess_format("a.json", b"") == "json"
    assert guess_format("a.txt", b"") == "text"
    assert guess_format("", b'{"a": 1}\n{"a": 2}') == "jsonl"
    assert guess_format("", b'{\n "a": 1}') == "json"
