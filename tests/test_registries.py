from audit import audit_record
from core.record import record_from_json
from trace_parsers import choose_format, get_format, list_formats, parse_record
from trace_parsers.plain_text import paragraph_spans
from validators.registry import get_domain, replay_record


def test_plain_text_fallback_splits_paragraphs_with_exact_spans():
    text = "First thought.\nstill first.\n\n  Second.  \n\n\n\nThird"
    spans = paragraph_spans(text)
    assert [text[a:b] for a, b in spans] == ["First thought.\nstill first.", "Second.", "Third"]


def test_fallback_format_is_always_registered_and_chosen_for_unknown_text():
    assert get_format("plain_text") is not None
    assert "plain_text" in [f.name for f in list_formats()]
    rec = record_from_json({"domain": "nonexistent", "trace": "hello\n\nworld"})
    assert choose_format(rec).name == "plain_text"
    parsed = parse_record(rec)
    assert [s.text for s in parsed.graph] == ["hello", "world"]
    assert parsed.graph.edges() == [(0, 1, "next")]


def test_unknown_domain_gives_undecided_answer_with_reason():
    rec = record_from_json({"domain": "nonexistent", "trace": "x", "answer": "y"})
    assert get_domain("nonexistent") is None
    replay = replay_record(rec, parse_record(rec))
    assert replay.answer_correct is None
    assert "no validator for domain 'nonexistent'" in replay.answer_error.message


def test_crashing_parser_degrades_to_plain_text(monkeypatch):
    import trace_parsers.registry as reg
    from trace_parsers.base import FormatSpec

    def boom(record):
        raise ValueError("bad grammar")

    formats = dict(reg._formats())
    formats["boom"] = FormatSpec("boom", "test", lambda r: 1.0, boom)
    monkeypatch.setattr(reg, "_formats", lambda: formats)
    rec = record_from_json({"domain": "nonexistent", "format": "boom", "trace": "a\n\nb"})
    result = audit_record(rec)
    assert result.verdict.n_steps == 2
    assert not result.verdict.parse_ok
    assert "boom parser failed" in result.verdict.parse_errors[0].message


def test_crashing_validator_is_captured(monkeypatch):
    import validators.registry as reg
    from validators.base import DomainSpec

    def boom(record, parsed):
        raise RuntimeError("oops")

    monkeypatch.setattr(reg, "_domains", lambda: {"crashy": DomainSpec("crashy", "1", "test", boom)})
    rec = record_from_json({"domain": "crashy", "trace": "a"})
    verdict = audit_record(rec).verdict.to_json()
    assert verdict["answer_correct"] is None
    assert "validator crashy@1 failed: RuntimeError: oops" in verdict["answer_error"]["message"]


def test_step_limit_keeps_first_steps_and_one_overflow_step(monkeypatch):
    monkeypatch.setenv("STEPSCOPE_MAX_STEPS", "10")
    text = "\n\n".join(f"p{i}" for i in range(50))
    result = audit_record(record_from_json({"domain": "nonexistent", "trace": text}))
    steps = result.parsed.graph.steps
    assert len(steps) == 10 and steps[-1].kind == "overflow"
    assert text[steps[-1].span[0]:steps[-1].span[1]].strip().startswith("p9")
    assert "over the limit of 10" in result.verdict.parse_errors[-1].message


def test_verdict_json_shape_matches_record_format():
    verdict = audit_record(record_from_json({"id": "x", "domain": "nonexistent", "trace": "a"})).verdict.to_json()
    for key in ("id", "domain", "parse", "answer_correct", "answer_error", "trace_valid",
                "first_invalid_step", "invalid_steps", "gaps"):
        assert key in verdict
    assert verdict["parse"] == {"ok": True, "n_steps": 1, "errors": []}


def test_readme_example_domain_package_registers_and_audits(tmp_path, monkeypatch):
    """The README's "Adding a domain" package, written out as is, is found and replays a record."""
    import re
    import sys

    import validators
    import validators.registry as reg
    from tests.conftest import REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Adding a domain"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    replay_src, domains_src = code.split("# validators/my_domain/domains.py\n")
    package = tmp_path / "my_domain"
    package.mkdir()
    (package / "__init__.py").write_text('"""An example domain."""\n')
    (package / "replay.py").write_text(replay_src)
    (package / "domains.py").write_text(domains_src)
    monkeypatch.setattr(validators, "__path__", [*validators.__path__, str(tmp_path)])
    reg._domains.cache_clear()
    try:
        assert reg.get_domain("my_domain").validator_id == "my_domain@1"
        assert get_domain("maze") is not None  # the real families are still there
        rec = record_from_json({"domain": "my_domain", "trace": "one\n\ntwo", "answer": "42",
                                "problem": {"expected": 42}})
        verdict = audit_record(rec).verdict.to_json()
        assert verdict["answer_correct"] is True and verdict["trace_valid"] is True
        assert verdict["validator"] == "my_domain@1+pipeline@1"
    finally:
        reg._domains.cache_clear()
        for name in [m for m in sys.modules if m.startswith("validators.my_domain")]:
            del sys.modules[name]


def test_every_family_registers_its_domains_in_domains_py():
    import validators.registry as reg

    families = {spec.replay.__module__.split(".")[1] for spec in reg.list_domains()}
    assert families == {"astar", "countdown", "dyck_languages", "freeform", "last_letter", "logical_deduction",
                        "multiplication", "multistep_arithmetic", "planning", "puzzles", "tracking_shuffled_objects", "word_sorting"}
    assert {s.name for s in reg.list_domains()} == {
        "blocksworld", "checker_jumping", "countdown", "dyck_languages", "freeform", "hanoi", "last_letter",
        "logical_deduction", "logistics", "maze", "multiplication", "multistep_arithmetic", "mystery_blocksworld", "pddl", "river_crossing", "sokoban",
        "tracking_shuffled_objects", "word_sorting"}
