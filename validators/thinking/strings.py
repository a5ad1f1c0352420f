"""String claims in a text ("the last letter of 'Musk' is 'k'"), checked exactly.

Thinking traces on letter tasks (last-letter concatenation, "how many r's in strawberry",
reversals) assert string facts the same way arithmetic traces assert `a op b = c`; a false one
is an invalid step (thinking-claims.md, kind `string`). Only these forms are read:

* position: "the first/second/.../tenth/last letter of W is L" (also "character", "in W", ":")
* positions of several words: "the first/last letters of W1, W2 (and W3) are L1, L2 (and L3)"
* count: "W has/contains N L's", "there are N L's in W", "the letter L appears N times in W",
  "the number of L's in W is N" (N in digits, "no", or "zero" to "twenty")
* reversal: "W reversed / backwards is V", "the reverse of W is V", "reversing W gives V"
* concatenation: "concatenating/combining/joining W1 and W2 gives V", "'a' + 'b' = 'ab'"

A word W is quoted ('Musk', "Musk", ‘Musk’, “Musk”, `Musk`, **Musk**) or one bare word. A bare
word must be a literal, not a description: determiners, pronouns and nouns such as "the", "it",
"each", "word" or "total" are refused ("the last letter of each word is ..." is not judged), and
a bare subject before "has"/"reversed" must open its sentence or follow "the word". A bare value
(a letter or word) must end the clause (punctuation, end of text, or "and"/"so"/"but"/...), so
"the first letter of 'apple' is a vowel" is not read as the letter 'a'. Hedged forms ("would be",
"should be", "about 3", "the second to last letter") match none of the patterns and are left
unjudged; a claim that cannot be read is never reported as false.

Letters compare case-insensitively (models change case freely: "the first letter of 'elon' is
E" holds); concatenation also ignores spaces ("joining 'Elon' and 'Musk' gives 'Elon Musk'").
A claim that a later phrase of the same step takes back ("..., no wait, ...") is `retracted`.

In a thinking trace (`step_verdicts`): a false claim makes its step invalid (`false_string_claim`),
or `corrected` when the same step retracts it; a false claim in a checking step (a "check" step,
or one saying "verify", "confirm", "double-check", "is correct") is also a `false_verification_claim`
gap (thinking-claims.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textscan.gates import Gated, lowered
from textscan.window_gates import WindowGate
from core.steps import Step
from core.verdicts import Gap, StepVerdict
from trace_parsers.base import ParsedTrace

_Q = (r"(?:(?<![\w'’])'[^'\n]{1,60}'(?![\w])|‘[^’\n]{1,60}’|\"[^\"\n]{1,60}\"|“[^”\n]{1,60}”|`[^`\n]{1,60}`"
      r"|\*\*[^*\n]{1,60}\*\*)")
_BARE = r"(?<![\w'’\-])[A-Za-z]+(?![\w'’\-])"
_LIT = rf"(?:{_Q}|{_BARE})"
_END = r"(?=(?:\s*(?:[.,;:!?)\n]|\*\*|$)|\s+(?:and|so|but|which|then|while|because|since|as|too|not)\b))"
_LETTER = rf"(?:(?:the\s+letter\s+)?(?:['\"‘“`][A-Za-z]['\"’”`]|\*\*[A-Za-z]\*\*)|(?:the\s+letter\s+)?[A-Za-z]{_END})"
_SEP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
_ORD = r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
_NUMWORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
             "sixteen seventeen eighteen nineteen twenty").split()
_NUM = r"(?:\d{1,3}|no|" + "|".join(_NUMWORDS) + r")"
_PLURAL = (r"(?:(?:the\s+)?letters?\s+)?(?:['\"‘“`](?P<pl>[A-Za-z])['\"’”`](?:s\b|'s\b|’s\b)?"
           r"|(?<![\w'])(?P<pl2>[A-Za-z])(?:'s|’s)(?!\w)|(?<![\w'])(?P<pl3>[A-Z])s\b)")
_WORD_OF = r"(?:the\s+(?:word|name|string)\s+)?"
_IS = r"\s*(?:\bis\b|=|:)\s*"

_POSITION = re.compile(rf"\bthe\s+(?P<ord>{_ORD})\s+(?:letter|character|char)\s+(?:of|in)\s+{_WORD_OF}"
                       rf"(?P<w>{_LIT}){_IS}(?P<v>{_LETTER})", re.I)
_POSITIONS = re.compile(rf"\bthe\s+(?P<ord>first|last)\s+(?:letters|characters)\s+(?:of|in)\s+"
                        rf"(?:the\s+(?:words|names|strings)\s+)?(?P<ws>{_LIT}(?:{_SEP}{_LIT})+)\s*(?:\bare\b|:)\s*"
                        rf"(?P<vs>{_LETTER}(?:{_SEP}{_LETTER})+)", re.I)
_COUNTS = (
    re.compile(rf"(?P<w>{_LIT})\s+(?:has|contains)\s+(?:exactly\s+|only\s+)?(?P<n>{_NUM})\s+{_PLURAL}", re.I),
    re.compile(rf"\bthere\s+(?:are|is|'s|’s)\s+(?:exactly\s+|only\s+)?(?P<n>{_NUM})\s+{_PLURAL}\s+in\s+{_WORD_OF}"
               rf"(?P<w>{_LIT})", re.I),
    re.compile(rf"(?:\bthe\s+letter\s+)?(?:['\"‘“`](?P<pl>[A-Za-z])['\"’”`]|(?<=\bletter\s)(?P<pl2>[A-Za-z]))"
               rf"\s+(?:appears|occurs)\s+(?P<n>{_NUM})\s+times?\s+in\s+{_WORD_OF}(?P<w>{_LIT})", re.I),
    re.compile(rf"\bthe\s+number\s+of\s+{_PLURAL}\s+in\s+{_WORD_OF}(?P<w>{_LIT})\s+is\s+(?P<n>{_NUM})\b", re.I),
)
_REVERSALS = (
    re.compile(rf"(?P<w>{_LIT})\s+(?:reversed|backwards|spelled\s+backwards|in\s+reverse)\s*(?:\bis\b|=|:|"
               rf"\bgives\b|\bbecomes\b)\s*(?P<v>{_LIT})", re.I),
    re.compile(rf"\bthe\s+reverse\s+of\s+{_WORD_OF}(?P<w>{_LIT})\s*(?:\bis\b|=|:)\s*(?P<v>{_LIT})", re.I),
    re.compile(rf"\breversing\s+{_WORD_OF}(?P<w>{_LIT})\s+(?:gives|yields|produces|results\s+in)\s+(?P<v>{_LIT})",
               re.I),
)
_CONCATS = (
    re.compile(rf"\b(?:concatenating|combining|joining|putting\s+together)\s+(?:the\s+(?:letters|words)\s+)?"
               rf"(?P<ws>{_LIT}(?:{_SEP}{_LIT})+)\s+(?:gives|yields|produces|makes|forms|results\s+in)\s+(?P<v>{_LIT})",
               re.I),
    re.compile(rf"(?P<ws>{_Q}(?:\s*\+\s*{_Q})+)\s*(?:=|→|->|\bgives\b)\s*(?P<v>{_Q})"),
)
_STOP = frozenset("""a an the each every this that these those it its his her their them they he she we you i my our
your which what who whom whose word words name names string strings letter letters character characters total all
both either neither one two first last second third so is are was and or of in on at by for to from itself result
answer answers order sequence here there position positions number numbers part half end start beginning middle
same other another previous next above below something anything nothing none some any many""".split())
_RETRACT = re.compile(r"(?:^|[.,;:!?\u2014-]\s*)(?:no|wait|actually|oops|sorry|correction|hmm|i mean|scratch that)\b"
                      r"|\b(?:that's|that is|this is|is) (?:wrong|incorrect|not right)\b|\bmistake\b", re.I)
_LEAD_OK = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|\b(?:so|then|and|thus|therefore|now|hence|also)\s*,?\s+|"
                      r"\b(?:the\s+)?word\s+)$", re.I)


@dataclass(frozen=True)
class StringClaim:
    """One claim: its [start, end) in the text, the text, whether it holds, and why."""

    start: int
    end: int
    text: str
    holds: bool
    message: str
    kind: str
    retracted: bool = False
    # What the claim names, for domains that relate it to their problem (validators/last_letter):
    # position(s): the ordinal, the words and the letters; concatenation: the pieces and the result.
    ordinal: str | None = None
    words: tuple[str, ...] = ()
    values: tuple[str, ...] = ()


def _literal(raw: str) -> tuple[str, bool] | None:
    """The string a literal names and whether it was bare; None for a description ("each")."""
    raw = raw.strip()
    if raw.startswith("**") and raw.endswith("**") and len(raw) > 4:
        inner = raw[2:-2]
    elif len(raw) >= 2 and raw[0] in "'\"‘“`" and raw[-1] in "'\"’”`":
        inner = raw[1:-1]
    else:
        return None if raw.casefold() in _STOP else (raw, True)
    inner = inner.strip()
    return (inner, False) if inner else None


def _letter(raw: str) -> str | None:
    raw = re.sub(r"^the\s+letter\s+", "", raw.strip(), flags=re.I)
    found = _literal(raw)
    if found is None or len(found[0]) != 1 or not found[0].isalpha():
        # a bare stop-word letter ("a", "i") is still a letter value: "is a." names 'a'
        return raw if len(raw) == 1 and raw.isalpha() else None
    return found[0]


def _split(raw: str) -> list[str]:
    return [p for p in re.split(_SEP, raw.strip()) if p]


def _number(raw: str) -> int:
    raw = raw.casefold()
    if raw.isdigit():
        return int(raw)
    return 0 if raw == "no" else _NUMWORDS.index(raw)


def _letters(word: str) -> str:
    return "".join(c for c in word if c.isalpha())


def _nth(word: str, ordinal: str) -> str | None:
    letters = _letters(word)
    index = -1 if ordinal.casefold() == "last" else _ORD.split("|").index(ordinal.casefold())
    return letters[index] if letters and index < len(letters) else None


def _subject_ok(text: str, start: int) -> bool:
    """A bare subject ("strawberry has ...") must open its clause or follow "the word"."""
    return bool(_LEAD_OK.search(text[max(0, start - 40):start]))


def _value_ok(text: str, m: re.Match[str], group: str) -> bool:
    """A bare value must end its clause: "is cba." but not "is a vowel"."""
    return _literal(m.group(group)) is not None and (
        not _literal(m.group(group))[1] or re.match(_END, text[m.end(group):]) is not None)


def _position(m: re.Match[str]) -> tuple[bool, str] | None:
    word, letter = _literal(m.group("w")), _letter(m.group("v"))
    if word is None or letter is None:
        return None
    ordinal = m.group("ord").lower()
    right = _nth(word[0], ordinal)
    if right is None:
        return False, f"'{word[0]}' has only {len(_letters(word[0]))} letters, so it has no {ordinal} letter"
    if right.casefold() == letter.casefold():
        return True, f"the {ordinal} letter of '{word[0]}' is '{right}'"
    return False, f"the {ordinal} letter of '{word[0]}' is '{right}', not '{letter}'"


def _positions(m: re.Match[str]) -> tuple[bool, str] | None:
    words = [_literal(w) for w in _split(m.group("ws"))]
    letters = [_letter(v) for v in _split(m.group("vs"))]
    if any(w is None for w in words) or any(v is None for v in letters) or len(words) != len(letters):
        return None
    ordinal = m.group("ord").lower()
    right = [_nth(w[0], ordinal) for w in words]  # type: ignore[index]
    if any(r is None for r in right):
        return None
    shown = ", ".join(f"'{r}'" for r in right)
    names = ", ".join(f"'{w[0]}'" for w in words)  # type: ignore[index]
    if all(r.casefold() == v.casefold() for r, v in zip(right, letters)):  # type: ignore[union-attr]
        return True, f"the {ordinal} letters of {names} are {shown}"
    return False, f"the {ordinal} letters of {names} are {shown}, not {', '.join(repr(v) for v in letters)}"


def _count(m: re.Match[str]) -> tuple[bool, str] | None:
    word = _literal(m.group("w"))
    letter = next((m.group(g) for g in ("pl", "pl2", "pl3") if g in m.re.groupindex and m.group(g)), None)
    if word is None or letter is None:
        return None
    claimed, right = _number(m.group("n")), word[0].casefold().count(letter.casefold())
    plural = "" if right == 1 else "s"
    if claimed == right:
        return True, f"'{word[0]}' has {right} '{letter}'{plural}"
    return False, f"'{word[0]}' has {right} '{letter}'{plural}, not {claimed}"


def _reversal(m: re.Match[str]) -> tuple[bool, str] | None:
    word, value = _literal(m.group("w")), _literal(m.group("v"))
    if word is None or value is None:
        return None
    right = word[0][::-1]
    if right.casefold() == value[0].casefold():
        return True, f"'{word[0]}' reversed is '{right}'"
    return False, f"'{word[0]}' reversed is '{right}', not '{value[0]}'"


def _concat(m: re.Match[str]) -> tuple[bool, str] | None:
    pieces = re.split(r"\s*\+\s*", m.group("ws")) if m.re is _CONCATS[1] else _split(m.group("ws"))
    parts = [_literal(p) for p in pieces]
    value = _literal(m.group("v"))
    if value is None or any(p is None for p in parts):
        return None
    right = "".join(p[0] for p in parts)  # type: ignore[index]
    if re.sub(r"\s+", "", right).casefold() == re.sub(r"\s+", "", value[0]).casefold():
        return True, f"concatenating gives '{right}'"
    return False, f"concatenating {' and '.join(repr(p[0]) for p in parts)} gives '{right}', not '{value[0]}'"  # type: ignore[index]


def _parts(kind: str, m: re.Match[str]) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    """(ordinal, words, values) of a claim that `check` could read."""
    if kind == "position":
        return m.group("ord").lower(), (_literal(m.group("w"))[0],), (_letter(m.group("v")),)  # type: ignore[index]
    if kind == "positions":
        return (m.group("ord").lower(), tuple(_literal(w)[0] for w in _split(m.group("ws"))),  # type: ignore[index]
                tuple(_letter(v) for v in _split(m.group("vs"))))  # type: ignore[misc]
    if kind == "concatenation":
        pieces = re.split(r"\s*\+\s*", m.group("ws")) if m.re is _CONCATS[1] else _split(m.group("ws"))
        return None, tuple(_literal(p)[0] for p in pieces), (_literal(m.group("v"))[0],)  # type: ignore[index]
    return None, (), ()


def _readers() -> list[tuple[str, Gated, object, str | None, bool]]:
    """(kind, pattern, checker, value group that must end its clause, bare subject must lead).
    Each pattern is gated (textscan/gates.py): a step that passes `_GATE` mostly lacks the words of
    all but one of them."""
    return ([("position", Gated(_POSITION), _position, None, False), ("positions", Gated(_POSITIONS), _positions, None, False)]
            + [("count", Gated(p), _count, None, i == 0) for i, p in enumerate(_COUNTS)]
            + [("reversal", Gated(p), _reversal, "v", i == 0) for i, p in enumerate(_REVERSALS)]
            + [("concatenation", Gated(p), _concat, "v", False) for p in _CONCATS])


def taken_back(text: str, end: int, hi: int) -> bool:
    """Does the rest of the paragraph, up to `hi`, take back what ends at `end` ("..., no wait")?"""
    rest = text[end:hi]
    rest = rest[:rest.find("\n\n")] if "\n\n" in rest else rest
    return bool(_RETRACT.search(rest))


def find_string_claims(text: str, lo: int = 0, hi: int | None = None,
                       gate: WindowGate | None = None) -> list[StringClaim]:
    """Every readable string claim in text[lo:hi], in text order, spans into `text`. Overlapping
    readings keep the earliest, longest one, so a claim is reported once. `gate`: `_GATE`'s
    over `text`, from a caller that reads every step of the text."""
    hi = len(text) if hi is None else hi
    found: list[StringClaim] = []
    if gate is not None and not gate.admits(lo, hi):
        return found
    low = lowered(text[lo:hi])  # once for every pattern's gate (Gated would lower the window for each)
    if not _GATE.admits(low) or not _GATE.pattern_.search(text, lo, hi):
        return found
    for kind, pattern, check, value_group, lead in _READERS:
        if not pattern.admits(low):
            continue
        for m in pattern.pattern_.finditer(text, lo, hi):
            if "w" in m.re.groupindex and m.group("w") is not None:
                subject = _literal(m.group("w"))
                if subject is None or (lead and subject[1] and not _subject_ok(text, m.start("w"))):
                    continue
            if value_group and not _value_ok(text[:hi], m, value_group):
                continue
            result = check(m)  # type: ignore[operator]
            if result is None:
                continue
            retracted = not result[0] and taken_back(text, m.end(), hi)
            found.append(StringClaim(m.start(), m.end(), m.group(0), result[0],
                                     f"'{m.group(0)}' {'holds' if result[0] else 'is false'}: {result[1]}",
                                     kind, retracted, *_parts(kind, m)))
    found.sort(key=lambda c: (c.start, -(c.end - c.start)))
    out: list[StringClaim] = []
    for claim in found:
        if out and claim.start < out[-1].end:
            continue
        out.append(claim)
    return out


_READERS = _readers()
# A word every reader's pattern needs: most steps of a thinking trace hold none, and then no
# pattern runs over them (itself behind a literal gate: `in` finds the words faster than the regex).
_GATE = Gated(re.compile(r"letter|charact|\bchar\b|\bhas\b|contains|there|appears|occurs|number|revers|backward|concatenat"
                         r"|combining|joining|putting|\+", re.I))

_CHECKING = re.compile(r"\b(?:verif\w*|confirm\w*|double[- ]?check\w*)\b|\b(?:is|are|that's|looks)\s+(?:correct|right)\b",
                       re.I)


def is_checking(step: Step) -> bool:
    """A step that checks (its kind, or "verify", "confirm", "is correct" in it): a false claim
    there is also a false verification (thinking-claims.md)."""
    return step.kind == "check" or bool(_CHECKING.search(step.text))


def step_verdicts(parsed: ParsedTrace, text: str) -> tuple[list[StepVerdict], list[Gap], int]:
    """Per-step verdicts of the string claims in each step, the gaps they make, and the number of
    claims (read step by step so a claim never spans two steps)."""
    verdicts: list[StepVerdict] = []
    gaps: list[Gap] = []
    count = 0
    gate = WindowGate(_GATE, text)
    admits = gate.admits
    for step in parsed.graph:
        lo, hi = step.span
        if not admits(lo, hi):  # find_string_claims' own first test, without the call: most steps fail it
            continue
        claims = find_string_claims(text, lo, hi, gate)
        if not claims:
            continue
        count += len(claims)
        false = [c for c in claims if not c.holds and not c.retracted]
        taken_back = [c for c in claims if c.retracted]
        if false:
            message = "; ".join(c.message for c in false)
            verdicts.append(StepVerdict(step.index, "invalid", "false_string_claim", message,
                                        found=[c.text for c in false]))
            if is_checking(step):
                gaps.append(Gap("false_verification_claim", f"step {step.index} checks and states {message}",
                                [step.index]))
        elif taken_back:
            verdicts.append(StepVerdict(step.index, "corrected", "false_string_claim",
                                        "; ".join(f"{c.message} (retracted in the same step)" for c in taken_back)))
        else:
            verdicts.append(StepVerdict(step.index, "valid", None, "; ".join(c.message for c in claims)))
    return verdicts, gaps, count
