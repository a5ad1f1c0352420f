"""Fuzzing every parser, every domain and the whole pipeline with random and mutated traces:
no exception escapes, every record gets a verdict, raw text is always stored."""

from __future__ import annotations

import io
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit import audit_record
from records_io.intake import iter_jsonl
from core.record import record_from_json
from tests.conftest import DEV_DATA
from trace_parsers import list_formats
from validators.registry import list_domains

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HOSTILE_BITS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\x00", "\ufeff", "\u202e",
                "c999999999999999999999", "-1", "create", "close", "plan", "(", ")", "[PLAN]", "Wait,",
                "Current State:", "Generated Node #0,0:", "query", "reasoning", "solution", "end", "\n\n",
                "99999999999999999999999999", "moves = [[1, 0, 2]]", "wall", "start", "goal", "c-3", "="]


def _seed_texts() -> list[str]:
    texts = []
    for path in sorted(DEV_DATA.glob("*.jsonl")) if DEV_DATA.exists() else []:
        with open(path) as fh:
            for n, line in enumerate(fh):
                if n >= 3:
                    break
                rec = json.loads(line)
                if isinstance(rec.get("trace"), str) and rec["trace"]:
                    texts.append(rec["trace"][:20_000])
    return texts or ["create 0 0 c0 c2 close 0 0 c0 c2 plan 0 0"]


SEEDS = _seed_texts()


@st.composite
def mutated_trace(draw) -> str:
    text = draw(st.sampled_from(SEEDS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 6))):
        op = rng.randrange(4)
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randrange(200))
        if op == 0:
            text = text[:i] + text[j:]
        elif op == 1:
            text = text[:i] + rng.choice(HOSTILE_BITS) + text[i:]
        elif op == 2:
            text = text[:i] + text[i:j] * 2 + text[j:]
        else:
            text = text[:i] + " ".join(rng.sample(text[i:j].split(), len(text[i:j].split()))) + text[j:]
    return text


traces = st.one_of(st.text(max_size=400), st.lists(st.sampled_from(HOSTILE_BITS), max_size=30).map(" ".join),
                   mutated_trace())
problems = st.one_of(st.just({}), st.dictionaries(st.sampled_from(
    ["prompt", "numbers", "target", "disks", "n", "pairs", "boat_capacity", "domain_pddl", "problem_pddl",
     "width", "height", "start", "goal", "walls"]),
    st.one_of(st.integers(-10**30, 10**30), st.text(max_size=50), st.lists(st.integers(-5, 40), max_size=6),
              st.lists(st.lists(st.integers(-3, 40), max_size=3), max_size=5)), max_size=5))


def _check_verdict(rec, verdict: dict) -> None:
    json.dumps(verdict)
    assert verdict["id"] == rec.id
    assert verdict["answer_correct"] in (True, False, None)
    for inv in verdict["invalid_steps"]:
        a, b = inv["span"]
        assert 0 <= a <= b <= len(rec.trace)
    if verdict["answer_correct"] is None:
        assert verdict["answer_error"] and verdict["answer_error"]["message"]


@FUZZ
@given(trace=traces, answer=traces, problem=problems, fmt=st.sampled_from([s.name for s in list_formats()]))
def test_every_parser_is_total_and_keeps_spans_true(trace, answer, problem, fmt):
    rec = record_from_json({"domain": "freeform", "format": fmt, "trace": trace, "answer": answer,
                            "problem": problem})
    spec = next(s for s in list_formats() if s.name == fmt)
    spec.detect(rec)
    parsed = spec.parse(rec)
    for i, step in enumerate(parsed.graph):
        assert step.index == i
        assert 0 <= step.span[0] <= step.span[1] <= len(trace), (fmt, step)


@FUZZ
@given(trace=traces, answer=traces, problem=problems,
       domain=st.sampled_from(sorted(d.name for d in list_domains())))
def test_every_domain_gives_a_verdict_whatever_the_input(trace, answer, problem, domain):
    rec = record_from_json({"domain": domain, "trace": trace, "answer": answer, "problem": problem})
    _check_verdict(rec, audit_record(rec).verdict.to_json())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(st.binary(max_size=200),
                                st.builds(lambda t, d: json.dumps({"domain": d, "trace": t}).encode(),
                                          traces, st.sampled_from(sorted(d.name for d in list_domains())))), max_size=12))
def test_pipeline_stores_every_line_and_answers_each(db_url, lines):
    """On SQLite and PostgreSQL: one outcome per non-blank line, its raw bytes stored verbatim
    and a verdict row for it."""
    import sqlalchemy as sa

    from db.engine import make_engine
    from pipeline import audit_units

    lines = [ln.replace(b"\n", b" ").replace(b"\r", b" ") for ln in lines]
    data = b"\n".join(lines) + b"\n"
    engine = make_engine(db_url)
    outcomes = list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), engine))
    bom = b"\xef\xbb\xbf"
    expected = [ln for i, ln in enumerate(lines) if (ln[len(bom):] if i == 0 and ln.startswith(bom) else ln).strip()]
    assert len(outcomes) == len(expected)
    with engine.connect() as conn:
        for ln, outcome in zip(expected, outcomes):
            raw = conn.execute(sa.text("SELECT raw FROM record WHERE pk = :pk"), {"pk": outcome.record_pk}).scalar()
            # Verbatim, byte for byte; a record equal in content to an earlier line is that line's.
            assert bytes(raw) == ln or (outcome.error is None and json.loads(bytes(raw)) == json.loads(ln))
            assert conn.execute(sa.text("SELECT COUNT(*) FROM trace_verdict WHERE record_pk = :pk"),
                                {"pk": outcome.record_pk}).scalar() == 1
