"""Literal gates (textscan/gates.py): a gate may only skip windows its pattern cannot
match, so every gated search must answer exactly as the bare pattern does."""

from __future__ import annotations

import random
import sys
import re

from textscan.gates import AnyOf, Gated, Scan, _top_branches, alphabet, leading, lowered, required
from tests.conftest import load_dev
from trace_parsers import _thinking
from validators.planning import thinking
from validators.reading.text import read_text
from validators.thinking import strings


def test_required_literals_of_simple_patterns() -> None:
    assert required(re.compile(r"\bno\b|n't|\bnot\b", re.I)) == (("n't", "no"),)
    assert required(re.compile(r"\bafter (?:step|action) (\d{1,2})\b", re.I)) == (("after ",), ("action", "step"))
    assert required(re.compile(r"(?:→|->)\s*(?:yes|true)\b")) == (("true", "yes"), ("->", "→"))
    assert required(re.compile(r"\b(?:maybe|)\b", re.I)) == ()  # an empty branch needs nothing
    assert required(re.compile(r"(?:probably)?\s*x+", re.I)) == (("x",),)


def test_gate_skips_only_windows_that_cannot_match() -> None:
    gated = Gated(re.compile(r"\bcannot\b", re.I))
    assert gated.search("So we CANNOT do it").group(0) == "CANNOT"
    assert gated.search("so we can do it") is None
    assert gated.search("we cannot", 0, 6) is None
    assert gated.search("we cannot", 3).span() == (3, 9)
    # U+017F (long s) matches "s" under IGNORECASE though its lower case is not "s": not gated.
    assert Gated(re.compile("yes", re.I)).search("ye\u017f") is not None


def _sentences(text: str) -> list[tuple[int, int]]:
    return [u.span for u in read_text(text).units]


def _gated() -> list[tuple[str, Gated]]:
    return [(name, value) for module in (strings, _thinking, thinking) for name, value in vars(module).items()
            if isinstance(value, Gated)] + [(kind, pattern) for kind, pattern, *_ in strings._READERS]


def test_gated_prose_patterns_answer_as_the_bare_patterns() -> None:
    """Sentences of the dev thinking traces, random splices of them, and the same upper-cased."""
    texts = [r["trace"] for r in load_dev("planbench_r1_thinking.jsonl")]
    rng = random.Random(7)
    windows = rng.sample([text[a:b] for text in texts for a, b in _sentences(text)], 3000)
    windows += [rng.choice(windows)[: rng.randint(0, 30)] + rng.choice(windows)[rng.randint(0, 30):]
                for _ in range(1500)]
    windows += [w.upper() for w in windows[:1000]] + ["Ye\u017f, \u212a", "ſo no"]
    assert _gated()
    for name, gated in _gated():
        bare = gated.pattern_
        for w in windows:
            assert (m := gated.search(w)) is None and bare.search(w) is None or m.span() == bare.search(w).span(), (name, w)
            lo, hi = len(w) // 3, len(w) - len(w) // 4
            got, want = gated.search(w, lo, hi), bare.search(w, lo, hi)
            assert (got and got.span()) == (want and want.span()), (name, w, lo, hi)
            assert [m.span() for m in gated.finditer(w)] == [m.span() for m in bare.finditer(w)], (name, w)


def test_leading_literals() -> None:
    assert leading(re.compile(r"(?<![\w\-])planets?\s+x", re.I)) == ("planet",)
    assert leading(re.compile(r"(?<![\w\-])(?P<p>planet|province|pain)s?", re.I)) == ("pain", "planet", "province")
    assert leading(re.compile(r"(?:the\s+)?planet", re.I)) == ()  # may start with "the" or "planet"
    assert leading(re.compile(r"(?:a|cd)x")) == ()  # too short to narrow the search


def test_alphabet() -> None:
    letter = alphabet(re.compile(r"(?<![\w\-])\(?\s*[a-c]\s*craves(?!x)", re.I))
    assert [ch for ch in "(abcCRAVES \n-x)." if letter.fullmatch(ch)] == list("(abcCRAVES \n")
    assert alphabet(re.compile(r"a.b")) is None  # any character
    assert alphabet(re.compile(r"a\w")) is None


def test_scan_finditer_is_the_patterns_finditer() -> None:
    texts = [r["trace"] for r in load_dev("planbench_r1_thinking.jsonl")[:12]]
    texts += ["Province aProvince b", "xprovince a, Province  b and PROVINCE(c)", "provinc", "ſtate: state s",
              "İ province a", "a craves b craves c", "(a) craves  (b), xa craves b, a cravesb", "object a craves\n\n c"]
    obj = r"(?:object\s+)?\(?\s*(?:a|b|c|d)\s*\)?"
    patterns = [re.compile(r"(?<![\w\-])provinces?(?:\s+|\s*(?=\())\(?\s*[a-d]\)?(?![\w\-])", re.I),
                re.compile(r"(?<![\w\-])(?P<p>planet|province|pain)s?(?![\w\-])(?!\s*\(?[a-d])", re.I),
                re.compile(r"state:?", re.I), re.compile(r"(?<=\s)craves\s*\w"),
                re.compile(rf"(?<![\w\-]){obj}\s+craves\s+{obj}(?![\w\-])", re.I),
                re.compile(rf"(?:the\s+)?{obj}\s+(?:is|are)\s+clear", re.I)]
    assert {bool(Scan(p)._heads) for p in patterns} == {True, False} and any(Scan(p)._needs for p in patterns)
    for pattern in patterns:
        scan = Scan(pattern)
        for text in texts:
            want = [(m.span(), m.groups()) for m in pattern.finditer(text)]
            assert [(m.span(), m.groups()) for m in scan.finditer(text)] == want, (pattern, text[:80])
            assert [(m.span(), m.groups()) for m in scan.finditer(text, text.lower())] == want


def test_needs_scan_with_short_needs_and_first_characters() -> None:
    """"a→c" is scanned from arrow to arrow when asked (`short_needs`), and a needs scan tries a
    position only at a character a match can start with: the matches stay finditer's own."""
    obj = r"(?:object\s+)?\(?\s*(?:a|b|c)\s*\)?"
    arrow = re.compile(rf"(?<![\w\-])(?P<o0>{obj})\s*(?:→|->)\s*(?P<o1>{obj})(?![\w\-])", re.I)
    clear = re.compile(r"(?:the\s+)?\(?\s*[a-c]\s+is\s+clear(?![\w\-])", re.I)
    assert Scan(arrow)._needs is None and Scan(arrow, short_needs=True)._needs is not None
    assert Scan(clear)._firsts == ({"t", "(", "a", "b", "c"}, True, False)
    texts = ["a→b, b -> c and object a->object c", "(a)→(b) ba→c a→cx a→→b A→B", "a a a a →b",
             "\u00a0a→b; the  b is clear, xb is clear, (c) is clearer, the\tc is CLEAR", "İ a→b c is clear",
             "so the a is clear\n\nthe b\nis clear"]
    texts += [r["trace"] for r in load_dev("planbench_r1_thinking.jsonl")[:6]]
    for pattern, scan in ((arrow, Scan(arrow, short_needs=True)), (clear, Scan(clear))):
        for text in texts:
            want = [(m.span(), m.groups()) for m in pattern.finditer(text)]
            assert [(m.span(), m.groups()) for m in scan.finditer(text)] == want, (pattern, text[:80])


def test_gates_asked_of_one_string_in_turn_answer_for_that_string() -> None:
    """The last lower-cased sentence is reused only for that very string."""
    yes, no = Gated(re.compile(r"\byes\b", re.I)), Gated(re.compile(r"\bno\b", re.I))
    first, second = "So YES.", "So NO."
    assert yes.search(first) and not no.search(first) and no.search(second) and not yes.search(second)
    assert lowered("Ye\u017f") is None and yes.search("Ye\u017f") is not None  # long s folds to "s": not gated
    assert no.admits(lowered(second)) and not no.admits(lowered(first)) and no.admits(None)


def test_top_branches() -> None:
    assert _top_branches(r"a|b(c|d)|[|]x|\|y|[]|]z|[^]|]w|[a\]|]v") == [
        "a", "b(c|d)", "[|]x", r"\|y", "[]|]z", "[^]|]w", r"[a\]|]v"]


def test_any_of_answers_whether_the_pattern_matches() -> None:
    texts = [r["trace"] for r in load_dev("planbench_r1_thinking.jsonl")]
    rng = random.Random(3)
    windows = rng.sample([text[a:b] for text in texts for a, b in _sentences(text)], 4000)
    windows += [text[p:p + 300] for text in texts for p in range(0, len(text), 997)]
    windows += ["No.", "no", "But b is on c", "x|y", "(1)(1)"]
    patterns = [thinking._REJECT, re.compile(r"(a)\1|x\|y|[|]"), re.compile(r"^no$|but\b", re.I)]
    for pattern in patterns:
        any_of = AnyOf(pattern)
        for w in windows:
            assert any_of.found_in(w) == bool(pattern.search(w)), (pattern.pattern[:40], w)


def test_case_folding_assumptions() -> None:
    """The shortcuts compare lower-cased text: only four characters match an ASCII letter under
    IGNORECASE without lower-casing to it, and the non-ASCII characters the gates look for
    match only themselves."""
    letter = re.compile("[a-z]", re.I)
    folds = {chr(c) for c in range(128, sys.maxunicode + 1) if letter.fullmatch(chr(c))}
    assert folds == set("\u0130\u0131\u017f\u212a")
    wanted = {ch for _, gate in _gated() for need in gate.needs for s in need for ch in s if not ch.isascii()}
    assert "→" in wanted
    for ch in wanted:
        same = re.compile(re.escape(ch), re.I)
        assert [c for c in range(sys.maxunicode + 1) if same.fullmatch(chr(c))] == [ord(ch)]
