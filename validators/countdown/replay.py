"""Countdown (Stream of Search): replay of the search log and judgement of the answer.

Problem: {"numbers": [...], "target": n}; when absent, both are read from the log's first
`Current State` line. Reads `parsed.format == "sos"` logs step by step
(validators/countdown/_sos_replay.py) and Tree of Thoughts' "a op b = c (left: ...)" steps
(`tot`, validators/countdown/_tot_replay.py); other formats get no step semantics (trace_valid None).
`problem.use_all_numbers` (Game of 24) makes every given number a must, exactly once.

The answer is the record's `answer` when it has one (an expression or a list of operations,
validators/countdown/answer.py). SoS records carry no separate answer: the log's own goal
path is the answer, as in src/countdown_utils.py::parse_trajectory -- the operations of the last
`Current State` before "Goal Reached" plus the final operation, each checked. Thinking text
(`think`, `metacot`) gets its arithmetic claims and candidate solutions replayed
(validators/countdown/thinking.py). Unlike the SoS
`correctness` score, an error elsewhere on the goal path's nodes (say a miscopied remaining-number
list) makes the trace invalid but not the answer wrong when the operations themselves are right;
the two are reported separately and the gap `right_answer_invalid_trace` says so.
"""

from __future__ import annotations

from collections import Counter

from core.record import TraceRecord
from core.verdicts import AnswerError, Gap
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.countdown._sos_replay import LogReplay, replay_log
from validators.countdown._tot_replay import replay_tot
from validators.countdown.answer import AnswerCheck, check_answer, check_operations
from validators.countdown.solver import solve
from validators.countdown.thinking import countdown_candidates, countdown_key
from validators.exact_arithmetic import parse_operation
from validators.thinking.analysis import THINKING_FORMATS, analyse

VERSION = "3"


def _problem(record: TraceRecord, parsed: ParsedTrace) -> tuple[list[int] | None, int | None, str | None]:
    """(numbers, target, complaint): the problem spec wins, the log's first state fills in."""
    numbers, target = record.problem.get("numbers"), record.problem.get("target")
    complaint = None
    if numbers is not None and not (isinstance(numbers, list) and all(isinstance(n, int) for n in numbers)):
        complaint, numbers = "problem.numbers must be a list of whole numbers", None
    if target is not None and not isinstance(target, int):
        complaint, target = "problem.target must be a whole number", None
    initial = parsed.extras.get("initial") if parsed.format == "sos" else None
    if initial:
        if numbers is None and initial.get("numbers") is not None:
            numbers = list(initial["numbers"])
        if target is None:
            target = initial.get("target")
    return numbers, target, complaint


def _unsolvable(numbers: list[int], target: int) -> bool | None:
    try:
        return solve(numbers, target) is None
    except ValueError:
        return None


def _answer_from_log(log: LogReplay, numbers: list[int], target: int) -> AnswerCheck:
    if log.goal_path is not None:
        check = check_operations(log.goal_path, numbers, target, form="search path")
        if check.correct:
            left = sorted(_remaining(log.goal_path, numbers))
            if left:
                check.correct = False
                check.error = AnswerError(kind="wrong_value", message=f"the path reaches {target} but leaves "
                                          f"{left} unused; the SoS goal is a single number equal to the target")
        return check
    if log.exhausted and _unsolvable(numbers, target):
        return AnswerCheck(True, None, form="no solution")
    how = "the search ended with 'No solution found.'" if log.exhausted else "the log ends without 'Goal Reached'"
    hint = ""
    witness = None
    try:
        witness = solve(numbers, target)
    except ValueError:
        pass
    if witness:
        hint = f" (a solution exists, e.g. {', '.join(witness)})"
    return AnswerCheck(False, AnswerError(kind="unmet_goal", message=f"{how}: the target {target} was not reached{hint}"),
                       form="no solution")


def _remaining(ops: list[str], numbers: list[int]) -> list[int]:
    """Given numbers that the path never touches (the path itself was already checked)."""
    have = Counter(numbers)
    derived: Counter = Counter()
    for text in ops:
        op = parse_operation(text)
        if op is None:
            continue
        for operand in (op.a, op.b):
            if derived[operand]:
                derived[operand] -= 1
            elif have[operand]:
                have[operand] -= 1
        derived[op.c] += 1
    return list(have.elements())


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    numbers, target, complaint = _problem(record, parsed)
    out = Replay(notes={"rules": "Stream of Search (kanishkg/stream-of-search), stricter per-step checks"})
    log: LogReplay | None = None
    if parsed.format == "sos" and record.trace.strip():
        log = replay_log(parsed.graph, numbers, target)
        out.step_verdicts = [log.verdicts[i] for i in sorted(log.verdicts)]
        out.states = log.states
        out.trace_valid = not any(v.status == "invalid" for v in out.step_verdicts)
        out.notes["goal_step"] = log.goal_step
        out.notes["error_buckets"] = dict(Counter(v.rule.split("_")[0] for v in out.step_verdicts
                                                  if v.status == "invalid" and v.rule))
    elif parsed.format == "tot" and numbers is not None:
        tot = replay_tot(parsed.graph, numbers)
        out.step_verdicts, out.states = tot.verdicts, tot.states
        if tot.verdicts:
            out.trace_valid = not any(v.status == "invalid" for v in tot.verdicts)
    elif record.trace.strip() and parsed.format not in THINKING_FORMATS:
        out.notes["trace"] = f"format {parsed.format!r} has no Countdown step semantics; only the answer is judged"

    if numbers is None or target is None:
        out.answer_correct = None
        out.answer_error = AnswerError(kind="undecided", message=complaint or
                                       "the problem gives no numbers/target and the trace does not state them")
        return out

    use_all = record.problem.get("use_all_numbers") is True
    if use_all:
        out.notes["rules"] += "; every given number used exactly once (problem.use_all_numbers)"
    if record.answer.strip():
        check = check_answer(record.answer, numbers, target, use_all)
        _answer_gaps(out, check, log, numbers)
    elif log is not None:
        check = _answer_from_log(log, numbers, target)
    else:
        check = AnswerCheck(False, AnswerError(kind="unparseable", message="no answer and no search log"))
    out.answer_correct, out.answer_error = check.correct, check.error
    out.notes["answer_form"] = check.form
    out.notes["answer_numbers_used"] = list(check.numbers_used)
    if parsed.format in THINKING_FORMATS and record.trace.strip():
        _thinking(out, record, parsed, numbers, target, check, use_all)

    if log is not None and log.false_claims:
        out.gaps.append(Gap("false_verification_claim",
                            "the log's comparison with the target says the opposite of what replay finds",
                            list(log.false_claims)))
    return out


def _thinking(out: Replay, record: TraceRecord, parsed: ParsedTrace, numbers: list[int], target: int,
              check: AnswerCheck, use_all: bool) -> None:
    """Free-form thinking: arithmetic claims, candidate solutions and gaps (validators/thinking)."""
    answer_key = countdown_key(check) if record.answer.strip() else None
    compact = record.answer.replace(" ", "")
    findings = analyse(parsed, record.trace, countdown_candidates(parsed, record.trace, numbers, target, use_all), answer_key,
                       f"'{record.answer.strip()[:80]}'",
                       mentioned=lambda: bool(compact) and compact in record.trace.replace(" ", ""))
    out.step_verdicts = findings.step_verdicts
    out.gaps.extend(findings.gaps)
    out.notes["thinking"] = findings.notes
    if out.step_verdicts:
        out.trace_valid = not any(v.status == "invalid" for v in out.step_verdicts)


def _answer_gaps(out: Replay, check: AnswerCheck, log: LogReplay | None, numbers: list[int]) -> None:
    """Does the stated answer follow from the log? Compared on value and on the numbers used."""
    if log is None:
        return
    if log.goal_path is None:
        if check.correct:
            out.gaps.append(Gap("answer_not_in_trace", "the answer is right, but the search log never reached the target"))
        return
    last = parse_operation(log.goal_path[-1])
    reached = last.c if last else None
    steps = [log.goal_step] if log.goal_step is not None else []
    if check.value is not None and reached is not None and check.value != reached:
        out.gaps.append(Gap("answer_contradicts_trace",
                            f"the search log ends at {reached}, but the answer evaluates to {check.value}", steps))
    elif check.correct and check.form == "expression":
        used_by_log = Counter(numbers) - Counter(_remaining(log.goal_path, numbers))
        if Counter(check.numbers_used) != used_by_log:
            out.gaps.append(Gap("answer_not_in_trace",
                                "the answer does not use the numbers the search log's solution uses", steps))


DOMAIN = DomainSpec(
    name="countdown",
    version=VERSION,
    description="Countdown: Stream-of-Search log replay (arithmetic, operands, node ids, goal claims) and answer check.",
    replay=replay,
    aliases=(),
    picture="countdown_tree",
)
