"""Faster forms of the thinking pipeline's text scans answer exactly as the plain forms they
replaced: each plain form is kept here as the reference, and both are run on the dev traces and
on odd text (markup runs, stray line breaks of every kind, case-folding characters)."""

from __future__ import annotations

import bisect
import random
import re
from dataclasses import replace

import pytest

from textscan.gates import _firsts, _tree
from core.record import TraceRecord, record_from_json
from core.steps import StepGraph
from core.verdicts import StepVerdict
from textscan.window_gates import WindowGate
from tests.conftest import load_dev
from trace_parsers import _thinking as T
from trace_parsers import metacot
from trace_parsers.registry import get_format, parse_record
from trace_parsers.plain_text import paragraph_spans
from validators import exact_arithmetic as arith
from validators.planning import claims as claims_module
from validators.planning import planning_task, thinking
from validators.planning.reading import ClaimReader
from validators.planning.extract import Lexicon, LineReader
from validators.planning.thinking import REJECT_WINDOW, _REJECTED
from validators.thinking import analysis, strings
from validators.thinking import arith as arith_claims
from validators.thinking.analysis import Candidate
from validators.thinking.arith import find_claims

_TOKENS = ["Wait,", "wait", "Hmm.", "hmm", "But wait", "Let me check", "let's verify", "Check:", "No,", "No.",
           "Alternatively,", "1.", "2)", "(3)", "Step 4:", "**Step 5:**", "- ", "* ", "#", ">", "`", "_", "**",
           "So the plan is", "Therefore", "The goal", "Okay", "Now the state", "2 + 3 = 5", "this works",
           "that doesn't work", "the goal is achieved", "work", "goal", "x", "\u0130", "\u017f", "\u212a", "\u2028",
           "\x0b", "\x1c", "\x85", "\r", "\r\n", "\n", "\n\n", "\n \t\n", " ", "\t", ".", "!", "?", "  ", "\u00a0"]


def _odd_texts(n: int = 400, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_TOKENS) for _ in range(rng.randint(0, 40))) for _ in range(n)]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    traces = [r["trace"] for r in load_dev("planbench_r1_thinking.jsonl")]
    return traces + _odd_texts()


def _paragraph_spans_reference(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in re.finditer(r"\S(?:.*?)(?=\n[ \t]*\n|\Z)", text, re.S):
        start, end = match.start(), match.end()
        while end > start and text[end - 1].isspace():
            end -= 1
        spans.append((start, end))
    return spans


def test_paragraph_spans(texts: list[str]) -> None:
    for text in texts:
        assert paragraph_spans(text) == _paragraph_spans_reference(text), text[:80]


_CUE_REFERENCE = re.compile(rf"(?:(?<=[.!?])[ \t]+|\n[ \t]*)(?=(?:[*_]+)?(?:{T._BACKTRACK}|{T._CHECK}))", re.I)


def test_cue_first_characters() -> None:
    """Every cue starts with one of _CUE_FIRSTS (case aside), which the cut pattern asks first."""
    chars, space, empty = _firsts(_tree(f"(?:[*_]+)?(?:{T._BACKTRACK}|{T._CHECK})", re.I))
    assert not space and not empty and chars <= set(T._CUE_FIRSTS)


def test_cue_cuts(texts: list[str]) -> None:
    """The cuts inside every trimmed chunk segment() hands to the cue split."""
    for text in texts:
        for p_start, p_end in paragraph_spans(text):
            for a, b, _ in T._split_items(text, p_start, p_end):
                assert [m.end() for m in T._CUE_SPLIT.finditer(text, a, b)] == \
                       [m.end() for m in _CUE_REFERENCE.finditer(text, a, b)], text[a:b][:80]


def _segment_reference(text: str, base: int = 0, limit: int | None = None) -> list[tuple[int, int, int | None]]:
    """segment() as it was: lines cut out with splitlines, cue cuts by finditer, the short-chunk
    test by str.split."""
    def split_cues(start: int, end: int) -> list[tuple[int, int]]:
        cuts = [start]
        for m in T._CUE_SPLIT.finditer(text, start, end):
            if m.end() > cuts[-1]:
                cuts.append(m.end())
        spans = []
        for i, cut in enumerate(cuts):
            a, b = T._trim(text, cut, cuts[i + 1] if i + 1 < len(cuts) else end)
            if a < b:
                spans.append((a, b))
        return spans

    stop = len(text) if limit is None else limit
    raw: list[list] = []
    for p_start, p_end in paragraph_spans(text[base:stop]):
        for a, b, number in T._split_items(text, base + p_start, base + p_end):
            for k, (c, d) in enumerate(split_cues(a, b)):
                raw.append([c, d, number if k == 0 else None])
    merged: list[list] = []
    carry: list | None = None
    for seg in raw:
        if carry is not None:
            if seg[2] is None:
                seg = [carry[0], seg[1], None]
            else:
                merged.append(carry)
            carry = None
        if seg[2] is None and len(text[seg[0]:seg[1]].split(None, T.NUMBER_WORDS)) <= T.NUMBER_WORDS \
                and seg is not raw[-1]:
            carry = seg
            continue
        merged.append(seg)
    if carry is not None:
        merged.append(carry)
    return [tuple(m) for m in merged]


def test_segment(texts: list[str]) -> None:
    """Also on windows of the text (metacot and llm_modulo segment parts of a trace), and with
    the line breaks other than "\n" that send a text to the line-by-line split."""
    rng = random.Random(7)
    odd = [t.replace("\n", rng.choice(["\r\n", "\r", "\u2028", "\x85"]), rng.randint(1, 5)) for t in texts[:60]]
    for text in texts + odd + ["  3. a b c d\n 4. e\nf g h\n\n(5) x y z w", "1. Wait, no. Hmm.\n  2) ok\nStep 3: a"]:
        for base, limit in ((0, None), (len(text) // 3, 2 * len(text) // 3)):
            got = [(s.start, s.end, s.item) for s in T.segment(text, base, limit)]
            assert got == _segment_reference(text, base, limit), text[:80]
            assert all(not s.payload for s in T.segment(text, base, limit))


def _classify_reference(text: str, item: int | None, seen_work: bool) -> tuple[str, str]:
    strip = re.compile(r"^[\s*_#>`]+")
    head = strip.sub("", text[:200])
    if item is not None:
        body = T._ITEM.sub("", text[:200], count=1).strip()
        for kind, name, pattern in T.KIND_RULES[1:3]:
            if pattern.match(strip.sub("", body)):
                return kind, f"numbered item opening with a {name}"
        return "plan", "numbered list item"
    for kind, name, pattern in T.KIND_RULES:
        if pattern.match(head):
            return kind, f"opens with a {name}"
    if not seen_work and T._OPENING_RESTATE.match(head):
        return "restate", "opening words before any plan"
    if T._COMPUTE_OPENING.match(head):
        return "compute", "opens with a state update"
    if T.ARITH_HINT.search(text):
        return "compute", "holds an arithmetic claim"
    return "reason", "no cue"


def test_classify(texts: list[str]) -> None:
    for text in texts:
        for seg in T.segment(text):
            body = text[seg.start:seg.end]
            for item in (seg.item, None, 1):
                for seen_work in (False, True):
                    assert T.classify(body, item, seen_work) == _classify_reference(body, item, seen_work), body[:80]


def _backtrack_reference(graph: StepGraph, idx: int, text: str) -> int | None:
    ref = T._STEP_REF.pattern_.search(text)
    if ref:
        number = int(ref.group(1))
        for j in range(idx - 1, -1, -1):
            if graph[j].payload.get("item") == number:
                return j
    if T._NEW_ATTEMPT.pattern_.search(text[:160]):
        for j in range(idx - 1, -1, -1):
            if graph[j].payload.get("item") == 1:
                if j > 0 and graph[j - 1].kind in ("plan", "conclude") and graph[j - 1].payload.get("item") is None:
                    return j - 1
                return j
    for j in range(idx - 1, -1, -1):
        if graph[j].kind != "backtrack":
            return j
    return None


def test_backtrack_targets(texts: list[str]) -> None:
    """Also on a graph that already holds steps (metacot adds the thinking after its own)."""
    rng = random.Random(5)
    for text in texts + ["\n\n".join(rng.choice(_TOKENS + ["step 2", "item 1", "another approach", "start over"])
                                     for _ in range(60)) for _ in range(200)]:
        graph = StepGraph()
        T.build_steps(graph, text, T.segment(text, 0, len(text) // 2), parent=None)
        T.build_steps(graph, text, T.segment(text, len(text) // 2), parent=None)
        for step in graph:
            if step.kind == "backtrack":
                assert step.payload.get("revises") == _backtrack_reference(graph, step.index, step.text), text[:80]


def test_claim_hint(texts: list[str]) -> None:
    """The hint is nothing but lower-case words, its gate's words: the gate answers as the search."""
    words = T._CLAIM_HINT.pattern.split("|")
    assert all(w.isalpha() and w.islower() for w in words) and T._CLAIM_HINT.needs == (tuple(sorted(words)),)
    for text in texts + [t.upper() for t in texts[-100:]] + ["That \u017folves it.", "this \u212aorks", "WORK\u0130"]:
        for seg in T.segment(text):
            body = text[seg.start:seg.end]
            assert T._has_claim_hint(body) == (T._CLAIM_HINT.pattern_.search(body) is not None), body[:80]


def test_simple_arithmetic_is_the_parsers(texts: list[str]) -> None:
    """Every side of every claim in the dev traces, and random short expressions."""
    rng = random.Random(11)
    pieces = ["0", "7", "12", "007", "\u0663", "1\u0663", "2.5", " ", "\t", "\u00a0", "+", "-", "*", "/", "x", "X",
              "\u00d7", "\u00f7", "(", ")", "a"]
    sides = [side for text in texts for m in find_claims(text) for side in m.text.split("=")]
    sides += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in range(20000)]
    for side in sides:
        simple = arith._simple(side)
        if simple is None:
            continue
        for decimals in (False, True):
            assert simple == arith._parsed(side, decimals), side
    assert sum(arith._simple(s) is not None for s in sides) > 1000


_REJECT_REFERENCE = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|not possible|impossible|not allowed|isn't allowed|not applicable|invalid"
    r"|not valid|doesn't work|won't work|does not work|so no(?! (?:problems?|issues?|conflicts?)\b)|don't have|do not have"
    r"|doesn't have|does not have|but (?:we |i |it )?(?:needs?|requires?|lacks?))\b|(?:^|[.!?(,]\s*)no\b[.!,)]", re.I)


def test_rejections(texts: list[str]) -> None:
    """The windows after each item's line, as the candidate reader asks them, and odd text."""
    rng = random.Random(13)
    windows = [text[p:p + REJECT_WINDOW] for text in texts for p in (rng.randrange(len(text) + 1) for _ in range(20))]
    windows += ["No.", "no, ", " (no)", "so no problems", "So no.", "but we need it", "BUT IT LACKS", "cannot",
                "\u0130no."]
    for window in windows + [w.upper() for w in windows[:500]]:
        assert _REJECTED.found_in(window) == bool(_REJECT_REFERENCE.search(window)), window[:80]


def _mentions_reference(text: str, lexicon: Lexicon) -> list[str]:
    reader = LineReader(lexicon, explicit=False)
    found: list[str] = []
    for m in re.finditer(r"[^.;:!?\n,]+", text):
        clause = m.group(0)
        kw = lexicon.keyword_anywhere.search(clause)
        if kw:
            line = reader.read(m.start() + kw.start(), m.end(), clause[kw.start():])
            found.extend(thinking.task_text(lexicon.task, step) for step in line.steps if step.ok)
    return found


def test_mentions() -> None:
    """Clause by clause as the plain loop over every clause reads them, for each dev lexicon."""
    rng = random.Random(17)
    rows = load_dev("planbench_r1_thinking.jsonl")
    for row in rows[::3]:
        lexicon = planning_task(row["problem"], row["domain"])[2]
        words = [k for k, _ in lexicon.keywords] + ["pick up", "Put\ndown", "STACK", "unstack", "the red block",
                                                    "a", "b", "c", "object a", "from", "on", "\u212a"]
        tokens = [t for t in _TOKENS if t != "\u0130"]  # extract.py's object lookup fails on it (in both)
        odd = ["".join(rng.choice(words + tokens) + rng.choice([" ", "", ", ", "."]) for _ in range(30))
               for _ in range(30)]
        for text in [row["trace"], row["trace"].upper()] + odd:
            assert thinking._mentions(text, lexicon) == _mentions_reference(text, lexicon), text[:80]


def test_latest_complete_candidate() -> None:
    """The candidate a claim refers to: the one the scan of all candidates picked."""
    rng = random.Random(19)
    for _ in range(300):
        cands = [Candidate(sorted(rng.sample(range(40), rng.randint(0, 3))), "c", rng.random() < 0.7, None)
                 for _ in range(rng.randint(0, 12))]
        latest = analysis._LatestComplete(cands)
        for idx in range(-1, 42):
            best = None
            for cand in cands:
                if cand.complete and cand.steps and cand.steps[-1] <= idx \
                        and (best is None or cand.steps[-1] > best.steps[-1]):
                    best = cand
            assert latest.at(idx) is best


def test_window_gate(texts: list[str]) -> None:
    """A window gate answers as the gate asked of each window (for a text it can read at all)."""
    rng = random.Random(23)
    gates = [strings._GATE, T._PASS, T._FAIL] + [g for _, g, *_ in strings._READERS]
    for text in texts[::4] + [t.upper() for t in texts[-50:]] + ["letter \u212a has", "\u0130 letters", "a+b"]:
        windows = [sorted((rng.randint(0, len(text)), rng.randint(0, len(text)))) for _ in range(200)]
        for gated in gates:
            window_gate = WindowGate(gated, text)
            for lo, hi in windows:
                want = gated.may_match(text, lo, hi)
                assert window_gate.admits(lo, hi) == want or window_gate._sets is None, (gated, text[lo:hi])


def _plainly_named_reference(body: str, actions: list, lexicon: Lexicon) -> bool:
    body = body.strip().replace("**", "").replace("`", "")
    if body.startswith("(") or thinking._CALL_STYLE.match(body):
        return True
    if len(actions) != 1 or lexicon.mention_re is None:
        return len(actions) > 1
    kw = lexicon.keyword_re.match(body)
    if not kw:
        return False
    pos, needed = kw.end(), len(actions[0].args or ())
    for m in lexicon.mention_re.finditer(body, pos):
        if needed == 0:
            break
        if thinking._CONNECTORS.fullmatch(body[pos:m.start()]) is None:
            return False
        pos, needed = m.end(), needed - 1
    return needed == 0


def test_plainly_named() -> None:
    """Every line of the dev traces read as actions, and the same with objects dropped or doubled."""
    for row in load_dev("planbench_r1_thinking.jsonl")[::3]:
        lexicon = planning_task(row["problem"], row["domain"])[2]
        reader = LineReader(lexicon, explicit=False)
        for raw in row["trace"].splitlines():
            line = reader.read_at_zero(raw)
            if not line.steps:
                continue
            for body in (line.body, line.body + " a b", line.body.rsplit(" ", 1)[0]):
                assert thinking._plainly_named(body, line.steps, lexicon) == \
                       _plainly_named_reference(body, line.steps, lexicon), body


def _detect_references(record: TraceRecord) -> dict[str, float]:
    """The line-format detectors as they were: every line listed with its position, every
    count made before any answer."""
    from trace_parsers import _plan_lines as P

    out = {}
    head = record.trace[:200_000]
    planning = record.domain in P.PLANNING_DOMAINS and record.trace.strip()
    lines = [t for _, _, t in P.nonblank_lines(head)] if planning else []
    starts = sum(1 for t in lines if P.BLOCK_START.match(t))
    ends = sum(1 for t in lines if P.BLOCK_END.match(t))
    out["plan_text"] = 0.6 if planning and starts and ends and all(len(t) <= 300 for t in lines) else 0.0
    actions = sum(1 for t in lines if P.PDDL_LINE.match(t))
    markers = sum(1 for t in lines if P.BLOCK_START.match(t) or P.BLOCK_END.match(t))
    out["pddl_plan"] = 0.9 if planning and actions >= 2 and actions + markers >= 0.9 * len(lines) else 0.0
    found = [m.group("kw") for m in metacot._DIRECTIVE.finditer(head)]
    out["metacot"] = 0.85 if "TRY" in found and len(found) >= 2 else 0.0
    return out


def test_line_format_detectors() -> None:
    """On every dev record and on thinking text given [PLAN] blocks, PDDL lines and directives."""
    records = [record_from_json(row) for name in ("planbench_r1_thinking.jsonl", "planbench_plans.jsonl",
                                                  "planbench_plans_more.jsonl", "countdown_sos.jsonl")
               for row in load_dev(name)]
    texts = [r.trace for r in records[:200]] + _odd_texts(300)
    for text in texts:
        for domain in ("blocksworld", "countdown"):
            for trace in (text, text.replace("\n", "\n[PLAN]\n", 1) + "\n[PLAN END]", "(a b)\n(c d)\n" + text[:50],
                          "TRY 1: x\nCHECK: y\n" + text[:100], "[PLAN]\n" + text[:250] + "\n[PLAN END]",
                          "[PLAN]\n(a b)\n" * 9 + "(c)\n[PLAN END]\n" + text[:40]):
                records.append(replace(records[0], trace=trace, domain=domain))
    positive: set[str] = set()
    for record in records:
        got = {name: get_format(name).detect(record) for name in ("plan_text", "pddl_plan", "metacot")}
        assert got == _detect_references(record), record.trace[:80]
        positive.update(name for name, score in got.items() if score)
    assert positive == {"plan_text", "pddl_plan", "metacot"}


def test_whole_number_claims(texts: list[str]) -> None:
    """Every claim in the dev traces, and random ones (spacing, leading zeros, false results)."""
    rng = random.Random(19)
    claims = [c.text for text in texts for c in find_claims(text)]
    for _ in range(5000):
        a, b = rng.choice(["0", "7", "007", "12", "99999999999"]), str(rng.randint(0, 500))
        op = rng.choice("+-*/xX\u00d7")
        right = str(rng.choice([rng.randint(-5, 1000), int(a) + int(b), int(a) * int(b), int(a) - int(b)]))
        spaces = [rng.choice(["", " ", "\t", "  "]) for _ in range(5)]
        claims.append(f"{spaces[0]}{a}{spaces[1]}{op}{spaces[2]}{b}{spaces[3]}={spaces[4]}{right}")
    fast = 0
    for claim in claims:
        fast += arith_claims._WHOLE_CLAIM.fullmatch(claim) is not None
        assert arith_claims.check_claim(claim) == arith_claims._check_read(claim), claim
    assert fast > 1000


def _step_verdicts_reference(parsed, report) -> list[StepVerdict]:
    starts = [s.span[0] for s in parsed.graph]
    by_step: dict[int, list] = {}
    for c in report.claims:
        if c.holds is None:
            continue
        by_step.setdefault(max(0, bisect.bisect_right(starts, c.span[0]) - 1), []).append(c)
    out = []
    for idx in sorted(by_step):
        cs = by_step[idx]
        false = [c for c in cs if c.holds is False and not c.retracted]
        if false:
            head = false[0]
            roots = {max(0, bisect.bisect_right(starts, c.follows[0]) - 1) if c.follows else None for c in false}
            root = roots.pop() if len(roots) == 1 else None
            out.append(StepVerdict(idx, "invalid", f"false_{head.kind}_claim",
                                   "; ".join(f"\"{_short_reference(c.text)}\": {c.message}" for c in false[:4]),
                                   expected=head.state, found=[c.text for c in false],
                                   consequence_of=root if root is not None and root < idx else None))
        elif any(c.correction or (c.retracted and c.holds is False) for c in cs):
            out.append(StepVerdict(idx, "corrected", "self_correction",
                                   "; ".join(f"\"{_short_reference(c.text)}\": " + (
                                       "said, then taken back right after" if c.retracted else c.message)
                                             for c in cs if c.correction or (c.retracted and c.holds is False))))
        else:
            out.append(StepVerdict(idx, "valid", None, "; ".join(c.message for c in cs[:4])))
    return out


def _short_reference(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def _step_states_reference(parsed, report) -> dict[int, dict[str, object]]:
    starts = [s.span[0] for s in parsed.graph]
    out: dict[int, dict[str, object]] = {}
    for c in report.claims:
        if c.holds is None:
            continue
        idx = max(0, bisect.bisect_right(starts, c.span[0]) - 1)
        entry = out.get(idx)
        if entry is None:
            line = report.lines[c.line]
            entry = out[idx] = {"line_of_reasoning": {"id": line.id, "actions": list(c.line_actions or ())},
                                "judged_against": c.state, "claims": []}
        if entry["judged_against"] is None and c.state is not None:
            entry["judged_against"] = c.state
        entry["claims"].append({"kind": c.kind, "text": _short_reference(c.text, 160), "holds": c.holds,
                                "retracted": c.retracted, "message": c.message})
    return out


def test_short(texts: list[str]) -> None:
    for text in texts + [" a", "a ", "a  b", "a\tb", "a\u00a0b", "a\u2028b", "\u200bx", "", " ", "x" * 200]:
        for piece in (text[:100], text[:300]):
            assert claims_module._short(piece) == _short_reference(piece)
            assert claims_module._short(piece, 160) == _short_reference(piece, 160)


def test_step_findings() -> None:
    """The claims of every third dev trace, placed in steps once for both findings."""
    for row in load_dev("planbench_r1_thinking.jsonl")[::3]:
        record = record_from_json(row)
        task, vocab, lexicon, _ = planning_task(record.problem, record.domain)
        parsed = parse_record(record)
        report = ClaimReader.for_task(task, vocab).read(record.trace)
        verdicts, states = claims_module.step_findings(parsed, report)
        assert verdicts == _step_verdicts_reference(parsed, report)
        # step_findings also keeps each step's unjudged claims (key "unjudged", for the explorer);
        # the judged part is what the reference builds
        # and each claim's reading (modality, rule rows, the action and time it speaks of) beside
        # what the reference builds
        keys = ("kind", "text", "holds", "retracted", "message")
        judged = {k: {kk: ([{f: c[f] for f in keys} for c in vv] if kk == "claims" else vv)
                      for kk, vv in v.items() if kk != "unjudged" and kk in ("line_of_reasoning", "judged_against", "claims")}
                  for k, v in states.items() if v["claims"]}
        assert list(judged.items()) == list(_step_states_reference(parsed, report).items())
        unjudged = sum(len(v.get("unjudged", ())) for v in states.values())
        assert unjudged == sum(1 for c in report.claims if c.holds is None)


def _merge_reference(idx: int, verdicts: list[StepVerdict]) -> StepVerdict:
    order = analysis._RULE_ORDER
    invalid = sorted((v for v in verdicts if v.status == "invalid"),
                     key=lambda v: order.index(v.rule) if v.rule in order else len(order))
    if invalid:
        head = invalid[0]
        return StepVerdict(idx, "invalid", head.rule, "; ".join(v.message for v in invalid), head.expected, head.found,
                           head.consequence_of)
    corrected = [v for v in verdicts if v.status == "corrected"]
    if corrected:
        return StepVerdict(idx, "corrected", corrected[0].rule, "; ".join(v.message for v in corrected))
    unchecked = [v for v in verdicts if v.status == "unchecked"]
    if unchecked and len(unchecked) == len(verdicts):
        return unchecked[0]
    return StepVerdict(idx, "valid", None, "; ".join(v.message for v in verdicts if v.status == "valid"))


def test_merge() -> None:
    rng = random.Random(23)
    for _ in range(20000):
        verdicts = [StepVerdict(rng.randrange(5), rng.choice(["valid", "invalid", "unchecked", "corrected", "odd"]),
                                rng.choice([None, *analysis._RULE_ORDER, "other_rule"]), rng.choice(["", "m", "n"]),
                                rng.choice([None, 1, [2]]), rng.choice([None, True]), rng.choice([None, 0, 3]))
                    for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        got, want = analysis._merge(7, verdicts), _merge_reference(7, verdicts)
        assert got == want and (got is verdicts[0]) == (want is verdicts[0]), verdicts
