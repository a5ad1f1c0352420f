"""The claim reader's shortcuts answer exactly as the plain tests they stand in for: each plain
form is kept here as the reference and both are asked of every sentence (and every fact in it)
of the dev thinking traces, of the bench's generated traces, and of odd text spliced into them
(case-folding characters, markup, stray line breaks)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bench.bench_thinking import make_record
from core.gates import lowered
from core.record import record_from_json
from tests.conftest import load_dev
from tests.test_thinking_fast_paths import _odd_texts
from validators.planning import planning_task
from validators.planning import prose as P
from validators.planning.claim_reader import ClaimReader
from validators.planning.facts import FactMention


@dataclass
class _Sentence:
    text: str
    s0: int
    s1: int
    facts: list[FactMention]


def _traces() -> list[tuple[ClaimReader, str]]:
    rows = load_dev("planbench_r1_thinking.jsonl") + load_dev("thinking_claims_dev_v2.jsonl")
    readers = []
    for r in rows:
        rec = record_from_json(r)
        task, vocab, lex, _ = planning_task(rec.problem, r["domain"])
        readers.append((ClaimReader.for_lexicon(task, vocab, lex), rec.trace))
    rng = random.Random(5)
    spliced = []
    for i, odd in enumerate(_odd_texts(200)):
        reader, trace = readers[i % len(readers)]
        at = rng.randrange(max(1, len(trace) - 2000))
        part = trace[at:at + 2000]
        cut = rng.randrange(len(part) + 1)
        spliced.append((reader, part[:cut] + odd + part[cut:]))
    for domain in ("mystery_blocksworld", "blocksworld"):
        for seed in (1, 2):
            rec = record_from_json(make_record(48 * 1024, seed=seed, domain=domain))
            task, vocab, lex, _ = planning_task(rec.problem, domain)
            readers.append((ClaimReader.for_lexicon(task, vocab, lex), rec.trace))
    return readers + spliced


@pytest.fixture(scope="module")
def sentences() -> list[_Sentence]:
    out = []
    for reader, text in _traces():
        index = reader.facts.index(text)
        for s0, s1 in P.sentences(text):
            out.append(_Sentence(text, s0, s1, reader.facts.find(text, s0, s1, index)))
    return out


def test_no_words(sentences: list[_Sentence]) -> None:
    for s in sentences:
        sentence = s.text[s.s0:s.s1]
        assert P.has_no_words(sentence) == bool(P.NO_WORDS.search(sentence)), sentence


def test_tail_words() -> None:
    assert not P.TAIL.flags & 2  # re.IGNORECASE: the words are looked for as TAIL spells them
    assert set(P.TAIL_WORD_LIST) == set(P.TAIL.pattern.split("(?P<word>")[1].split(")")[0].split("|"))


def test_tail_needs_a_tail_word(sentences: list[_Sentence]) -> None:
    """Where no closing word follows, TAIL does not match (after each fact, and after each word)."""
    for s in sentences:
        last = P.last_tail_word(s.text, s.s0, s.s1)
        ends = {f.span[1] for f in s.facts} | {i for i in range(s.s0, s.s1) if not s.text[i].isalnum()}
        for end in ends:
            if last < end:
                assert P.TAIL.match(s.text[end:s.s1]) is None, s.text[s.s0:s.s1]


def test_gates_of_sentence_parts(sentences: list[_Sentence]) -> None:
    """A gate asked of a whole sentence stands for every part of it."""
    for s in sentences:
        low = lowered(s.text[s.s0:s.s1])
        for pattern in (P.INITIAL_RECALL, P.NEW_APPROACH, P.AFTER_CLAUSE, P.EFFECT_LEAD):
            if not pattern.admits(low):
                for start in {s.s0} | {f.span[1] for f in s.facts}:
                    assert pattern.match(s.text, start, s.s1) is None
                    assert pattern.match(s.text[start:s.s1]) is None


def _filler_only_reference(head: str) -> bool:
    return not head.strip(" *_") or P.HEAD_FILLER.sub("", head).strip(" *_") == ""


def test_filler_only(sentences: list[_Sentence]) -> None:
    """On every head an action could have: from the sentence's start, or its item's body, to each word."""
    for s in sentences:
        item = P.ITEM.match(s.text[s.s0:s.s1])
        ends = [i for i in range(s.s0 + 1, s.s1) if s.text[i - 1].isspace() and not s.text[i].isspace()]
        for start in {s.s0, s.s0 + (item.end() if item else 0)}:
            for end in [start] + [i for i in ends if i > start]:
                head = s.text[start:end]
                assert P.filler_only(head) == _filler_only_reference(head), head
