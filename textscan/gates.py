"""Cheaper ways to get a regular expression's own answer over prose.

Python's `re` has no fast scan for a case-insensitive pattern that starts with a letter, an
alternation or a look-behind (most of the thinking-trace patterns: validators/thinking/strings.py, validators/planning/thinking.py): a search tries
every position of its text, at 20-300 ns a character, while `in` on the lower-cased text runs at
memory speed. From a pattern's parse tree we derive literal strings its matches need, and use
them three ways, each giving exactly the answers of the pattern itself:

* `Gated`: a search or finditer in a short window (a sentence) runs only when the window holds
  a string of each set a match needs (a gate changes the cost of an answer, never the answer);
* `Scan`: a finditer over a whole text tries the pattern only where a match can start (at the
  word every match starts with, or in the run of characters before a word every match holds);
* `AnyOf`: whether a long alternation matches at all, asked alternative by alternative, each
  behind its own gate.

Case: strings are kept lower-case and compared with the lower-cased text, which is exact for
ASCII letters and for caseless characters ("→"); the only other characters that
`re.IGNORECASE` matches to an ASCII letter (U+0130, U+0131, U+017F, U+212A) turn the shortcut
off for the text that holds them.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from re import _constants as C  # noqa: PLC2701 - the parse tree of a compiled pattern's source
from re import _parser as sre_parse  # noqa: PLC2701
from typing import Iterator

Needs = tuple[tuple[str, ...], ...]


# `re._parser` is CPython's private parser: its trees are read only on the versions whose output
# tests/test_gates.py has checked, and STEPSCOPE_NO_GATES=1 turns every shortcut off. Without a
# tree a pattern gets no gate and runs plainly: slower, never different.
_CHECKED_PYTHONS = {(3, 11), (3, 12)}
ENABLED = sys.version_info[:2] in _CHECKED_PYTHONS and os.environ.get("STEPSCOPE_NO_GATES") != "1"


@functools.lru_cache(maxsize=64)
def _tree(source: str, flags: int) -> list | None:
    """The parse tree of a pattern (None if `re`'s parser rejects it), kept while the few
    analyses of one pattern ask for it (what they derive is remembered longer, and is small)."""
    if not ENABLED:
        return None
    try:
        return sre_parse.parse(source, flags).data
    except Exception:  # noqa: BLE001 - an unparsable pattern simply gets no gate
        return None


# Characters that re.IGNORECASE matches to an ASCII letter although their lower case is not it.
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _char(code: int) -> str | None:
    """The character a literal matches, lower-cased, when the match is that one character."""
    ch = chr(code)
    if ch.isascii():
        return ch.lower()
    return ch if ch.lower() == ch == ch.upper() else None  # caseless ("→"): only itself


def _class_char(items: list) -> str | None:
    """A character class such as [Pp] that matches one character up to case."""
    chars = {_char(av) if op is C.LITERAL else None for op, av in items}
    return chars.pop() if len(chars) == 1 and None not in chars else None


def _best(sets: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective set: longest shortest string, then fewest strings."""
    return max(sets, key=lambda s: (min(map(len, s)), -len(s)), default=None)


def _minimal(strings: frozenset[str]) -> frozenset[str]:
    """The same condition with fewer strings: one that contains another of the set is implied by it."""
    return frozenset(s for s in strings if not any(t != s and t in s for t in strings))


def _sequence(items: list) -> tuple[str | None, list[frozenset[str]]]:
    """(the one string `items` match, if they match a single literal; sets of strings of which
    each match contains at least one string from every set)."""
    run: list[str] = []
    sets: list[frozenset[str]] = []
    exact = True

    def flush() -> None:
        if run:
            sets.append(frozenset({"".join(run)}))
            run.clear()

    for op, av in items:
        whole, inner = _item(op, av)
        if whole is not None:
            run.append(whole)
            continue
        exact = False
        flush()
        sets.extend(inner)
    literal = "".join(run) if exact else None
    flush()
    return literal, sets


def _item(op, av) -> tuple[str | None, list[frozenset[str]]]:
    if op is C.LITERAL:
        return _char(av), []
    if op is C.IN:
        return _class_char(av), []
    if op is C.SUBPATTERN:
        return _sequence(av[-1].data)
    if op is C.ATOMIC_GROUP:
        return _sequence(av.data)
    if op in _REPEATS:
        low, _, body = av
        if low < 1:
            return None, []
        return None, _sequence(body.data)[1]
    if op is C.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            literal, sets = _sequence(branch.data)
            best = frozenset({literal}) if literal else _best(sets)
            if not best:
                return None, []  # a branch that needs nothing: the alternation needs nothing
            union |= best
        return None, [frozenset(union)]
    return None, []  # anything else (a class, a look-around, an anchor) is not a literal


@functools.lru_cache(maxsize=1024)
def required(pattern: re.Pattern[str], most: int = 2) -> Needs:
    """Up to `most` sets of lower-case strings such that every match of `pattern` contains a
    string of each set (empty when nothing is certain)."""
    tree = _tree(pattern.pattern, pattern.flags)
    if tree is None:
        return ()
    _, sets = _sequence(tree)
    sets = list({_minimal(s) for s in sets if s and "" not in s})
    sets.sort(key=lambda s: (-min(map(len, s)), len(s), sorted(s)))
    return tuple(tuple(sorted(s)) for s in sets[:most])


def lowered(string: str) -> str | None:
    """`string.lower()` for `Gated.admits`, or None when lower-casing cannot stand for the string
    (it holds a character that re.IGNORECASE matches to an ASCII letter: every gate admits it)."""
    if string.isascii() or not _FOLDS_TO_ASCII.search(string):
        return string.lower()
    return None


# (a string, `lowered` of it); the string is held, so `is` never meets a new string at its address
_last_lowered: tuple[str | None, str | None] = (None, None)


def lowered_last(string: str) -> str | None:
    """`lowered`, remembered for the last string: several gates are asked of the same sentence
    in a row."""
    global _last_lowered
    last = _last_lowered  # one read: a consistent pair even if another thread replaces it
    if last[0] is string:
        return last[1]
    low = lowered(string)
    _last_lowered = (string, low)
    return low


class Gated:
    """A compiled pattern whose `search` and `finditer` skip a window that cannot match it; its
    other methods are the pattern's own. Gate only patterns that are searched in short windows
    (a sentence, a clause): the gate lower-cases the window it is given."""

    def __init__(self, pattern: re.Pattern[str], most: int = 2) -> None:
        self.pattern_ = pattern
        self.needs = required(pattern, most)
        self.pattern, self.flags = pattern.pattern, pattern.flags
        self.match, self.fullmatch, self.sub, self.subn = pattern.match, pattern.fullmatch, pattern.sub, pattern.subn
        self.split, self.findall = pattern.split, pattern.findall

    def may_match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> bool:
        """False only when no match can lie inside string[pos:endpos]."""
        if pos > 0 or endpos < len(string):
            string = string[max(pos, 0):max(endpos, 0)]
        if not string.isascii() and _FOLDS_TO_ASCII.search(string):
            return True
        string = string.lower()
        for need in self.needs:
            for s in need:
                if s in string:
                    break
            else:
                return False
        return True

    def admits(self, low: str | None) -> bool:
        """`may_match` for a window already passed through `lowered` (one lower-casing for the
        several gates asked of the same window)."""
        if low is None:
            return True
        for need in self.needs:
            for s in need:
                if s in low:
                    break
            else:
                return False
        return True

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        # `may_match` written out: the gate is asked ~15 times a sentence, a call costs as much as the test
        if pos <= 0 and endpos >= len(string):
            window = lowered_last(string)
        else:
            window = lowered(string[max(pos, 0):max(endpos, 0)])
        if window is not None:
            for need in self.needs:
                for s in need:
                    if s in window:
                        break
                else:
                    return None
        return self.pattern_.search(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.pattern_.finditer(string, pos, endpos) if self.may_match(string, pos, endpos) else iter(())

    def __repr__(self) -> str:
        return f"Gated({self.pattern_!r}, needs={self.needs!r})"


_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)


def _heads(items: list) -> set[str] | None:
    """Lower-case strings one of which every match of `items` starts with, or None."""
    i = 0
    while i < len(items) and items[i][0] in _ZERO_WIDTH:
        i += 1
    run = ""
    while i < len(items):
        op, av = items[i]
        ch = _char(av) if op is C.LITERAL else _class_char(av) if op is C.IN else None
        if ch is None:
            break
        run += ch
        i += 1
    if i == len(items):
        return {run} if run else None
    op, av = items[i]
    after: set[str] | None = None
    if op is C.SUBPATTERN:
        after = _heads(av[-1].data)
    elif op in _REPEATS and av[0] >= 1:
        after = _heads(av[2].data)
    elif op is C.BRANCH:
        after = set()
        for branch in av[1]:
            heads = _heads(branch.data)
            if not heads:
                after = None
                break
            after |= heads
    if after is None:
        return {run} if run else None
    return {run + head for head in after}  # "p" then (lanet|rovince|ain): planet, province, pain


@functools.lru_cache(maxsize=1024)
def leading(pattern: re.Pattern[str], shortest: int = 2) -> tuple[str, ...]:
    """Lower-case strings one of which every match of `pattern` starts with; empty when unknown
    or when one is shorter than `shortest` (a common letter would not narrow the search)."""
    tree = _tree(pattern.pattern, pattern.flags)
    heads = _heads(tree) if tree is not None else None
    if not heads or min(map(len, heads)) < shortest:
        return ()
    return tuple(sorted(h for h in heads if not any(o != h and h.startswith(o) for o in heads)))


_last_foldable: tuple[str | None, bool] = (None, False)


def foldable(text: str) -> bool:
    """Can `text.lower()` stand for `text` position by position in a case-insensitive search?
    (No character changes length when lower-cased or matches an ASCII letter it does not lower to.)
    The answer for the last text is kept: every scan of a trace asks it of the whole trace."""
    global _last_foldable
    last, answer = _last_foldable
    if last is not text:
        answer = text.isascii() or not _FOLDS_TO_ASCII.search(text)
        _last_foldable = (text, answer)
    return answer


_CATEGORIES = {C.CATEGORY_SPACE: r"\s", C.CATEGORY_DIGIT: r"\d"}


def _alphabet(items: list, out: list[str]) -> bool:
    """Adds to `out` (character-class source) every character `items` can consume; False when
    that is not a small set (any character, a negated class, a word class, a back-reference)."""
    for op, av in items:
        if op is C.LITERAL:
            out.append(re.escape(chr(av)))
        elif op is C.IN:
            for kind, value in av:
                if kind is C.LITERAL:
                    out.append(re.escape(chr(value)))
                elif kind is C.RANGE:
                    out.append(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
                elif kind is C.CATEGORY and value in _CATEGORIES:
                    out.append(_CATEGORIES[value])
                else:
                    return False
        elif op is C.SUBPATTERN:
            if not _alphabet(av[-1].data, out):
                return False
        elif op in _REPEATS:
            if not _alphabet(av[2].data, out):
                return False
        elif op is C.BRANCH:
            if not all(_alphabet(branch.data, out) for branch in av[1]):
                return False
        elif op not in _ZERO_WIDTH:  # a look-around consumes nothing
            return False
    return True


@functools.lru_cache(maxsize=1024)
def alphabet(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """One character that a match of `pattern` can consume (a class with the pattern's own case
    rule), or None when a match can hold almost any character."""
    out: list[str] = []
    tree = _tree(pattern.pattern, pattern.flags)
    ok = tree is not None and _alphabet(tree, out)
    return re.compile("[" + "".join(sorted(set(out))) + "]", pattern.flags & ~re.VERBOSE) if ok and out else None


def _firsts(items: list) -> tuple[set[str], bool, bool] | None:
    """(lower-case characters a match of `items` can start with, whether it can start with a
    white-space character, whether it can be empty), or None when that is not a small set."""
    chars: set[str] = set()
    space = False
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        nullable = False
        if op is C.LITERAL:
            chars.add(chr(av).lower())
        elif op is C.IN:
            for kind, value in av:
                if kind is C.LITERAL:
                    chars.add(chr(value).lower())
                elif kind is C.RANGE and value[1] - value[0] <= 64:
                    chars.update(chr(c).lower() for c in range(value[0], value[1] + 1))
                elif kind is C.CATEGORY and value is C.CATEGORY_SPACE:
                    space = True
                else:
                    return None
        elif op in (C.SUBPATTERN, C.ATOMIC_GROUP) or op in _REPEATS or op is C.BRANCH:
            if op is C.BRANCH:
                inner = [_firsts(branch.data) for branch in av[1]]
            else:
                inner = [_firsts(av[-1].data if op is C.SUBPATTERN else av.data if op is C.ATOMIC_GROUP else av[2].data)]
            if any(i is None for i in inner):
                return None
            for c, sp, empty in inner:  # type: ignore[misc]
                chars |= c
                space = space or sp
                nullable = nullable or empty
            if op in _REPEATS and av[0] == 0:
                nullable = True
        else:
            return None
        if not nullable:
            return chars, space, False
    return chars, space, True


def _rare(literal: str) -> bool:
    """Worth looking for in a text: three characters at least (an arrow is everywhere in R1's
    walk-throughs, and the run of letters before it is long)."""
    return len(literal) >= 3


class Scan:
    """`finditer` over a whole text for a pattern Python's `re` would try at every position
    (case-insensitive, led by a look-behind or an optional word). When every match starts with
    one of a few literal strings, the scan goes from one occurrence of them (in the lower-cased
    text) to the next; when every match contains one of them and consists of characters of a
    small alphabet, the scan goes from one occurrence to the next and tries the positions of
    the run of alphabet characters that leads to it. Either way the pattern is tried with
    `match` at the positions `finditer` could find a match at, so the matches are its own (a
    look-behind still sees the text before the position)."""

    def __init__(self, pattern: re.Pattern[str], short_needs: bool = False) -> None:
        """`short_needs`: scan for needed strings shorter than `_rare` asks too (worth it for a
        pattern whose alphabet is small, as the runs before each occurrence are then short)."""
        self.pattern_ = pattern
        heads = leading(pattern)
        self._heads = re.compile("|".join(map(re.escape, heads))) if heads else None
        needs = required(pattern, most=1) if not heads else ()
        self._alphabet = alphabet(pattern) if needs and (short_needs or all(map(_rare, needs[0]))) else None
        self._needs = re.compile("|".join(map(re.escape, needs[0]))) if self._alphabet else None
        if self._alphabet is not None:
            # the run before a needed string, found in one step on the reversed text
            self._run_back = re.compile(self._alphabet.pattern + "*", self._alphabet.flags)
            tree = _tree(pattern.pattern, pattern.flags)
            firsts = _firsts(tree) if tree is not None else None
            self._firsts = firsts if firsts is not None and not firsts[2] else None

    def finditer(self, text: str, low: str | None = None) -> Iterator[re.Match[str]]:
        """The matches of `pattern.finditer(text)`; `low` is `text.lower()` if the caller has it."""
        if (self._heads is None and self._needs is None) or not foldable(text):
            return self.pattern_.finditer(text)
        low = text.lower() if low is None else low
        return self._from_heads(text, low) if self._heads is not None else self._from_needs(text, low)

    def _from_heads(self, text: str, low: str) -> Iterator[re.Match[str]]:
        match, heads = self.pattern_.match, self._heads.search
        pos = 0
        while (head := heads(low, pos)) is not None:
            m = match(text, head.start())
            if m is None:
                pos = head.start() + 1
                continue
            yield m
            pos = m.end()  # never empty: it starts with a literal

    def _from_needs(self, text: str, low: str) -> Iterator[re.Match[str]]:
        """A match holding the first needed string at or after `pos` lies in the alphabet run
        around it, so it starts in that run, at a character a match can start with; a match
        holding a later one cannot start before this run either (it would cross the character
        that ends the run)."""
        match, needs = self.pattern_.match, self._needs.search
        back, rev, n = self._run_back.match, text[::-1], len(text)
        chars, space = self._firsts[:2] if self._firsts is not None else (None, False)
        pos = 0
        while (need := needs(low, pos)) is not None:
            at = need.start()
            start = at - back(rev, n - at, n - pos).end() + (n - at)
            for p in range(start, at + 1):
                if chars is not None and low[p] not in chars and not (space and low[p].isspace()):
                    continue
                m = match(text, p)
                if m is not None:
                    yield m
                    pos = m.end()  # never empty: it holds a needed string
                    break
            else:
                pos = at + 1


def _top_branches(source: str) -> list[str]:
    """The source of each top-level alternative of a pattern (one when it has no top-level `|`)."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":  # skip the class; a "]" right after "[" or "[^" is one of its characters
            i += 1
            i += source[i:i + 1] == "^"
            i += source[i:i + 1] == "]"
            while i < len(source) and source[i] != "]":
                i += 2 if source[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


_REFERENCES = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


class AnyOf:
    """Whether a pattern matches anywhere in a text, asked of each top-level alternative in turn,
    each behind its own gate: only the alternatives whose words are there run (a search of the
    whole alternation runs them all at every position). Exact for the yes/no answer only, as the
    pattern matches somewhere if and only if one of its alternatives does."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        branches = [pattern.pattern]
        if not pattern.flags & re.VERBOSE and not _REFERENCES.search(pattern.pattern):
            branches = _top_branches(pattern.pattern)
        self.branches = [Gated(re.compile(b, pattern.flags)) for b in branches] if len(branches) > 1 else [Gated(pattern)]

    def found_in(self, string: str) -> bool:
        low = lowered_last(string)  # once for every alternative's gate
        for branch in self.branches:
            if branch.admits(low) and branch.pattern_.search(string) is not None:
                return True
        return False
