"""The reward of one completion: split it, audit it as the app does, and weigh the parts.

Outcome and process come from `audit.audit_record` on a record built the way
`core.record.record_from_json` builds an uploaded one, so a reward and the app's verdict on the
same completion never disagree (one documented exception: Countdown's `countdown_all_numbers`,
see config.py). `reward()` is total: any input gives a RewardResult, bad input a 0 with the
reason, never an exception.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any

from audit import AuditResult, audit_record
from core.verdicts import AnswerError
from core.limits import Limits, current_limits
from core.record import record_from_json
from rewards.config import RewardConfig
from rewards.problem import PLANNING, resolve_domain, resolve_problem
from rewards.plan_answer import plan_answer_verdict
from rewards.result import RewardResult, failed
from rewards.split import Split, split_completion
from rewards.tinyzero import response_part, tinyzero_score
from validators.countdown.answer import AnswerCheck, check_answer

JUDGED = ("valid", "invalid", "corrected")
# Domains whose verdict on a non-empty answer reads the answer alone. Not: maze and sokoban (the
# problem or the optimum may come from the trace) and the puzzles (an answer without a move list
# takes the trace's last one).
ANSWER_ONLY_DOMAINS = frozenset({"countdown", "freeform", *PLANNING})
_REASON_CHARS = 300


def reward(data_source: Any, solution: Any, ground_truth: Any, config: RewardConfig) -> RewardResult:
    """The reward of `solution` for the problem in `ground_truth`, in the domain `data_source` names."""
    try:
        return _reward(data_source, solution, ground_truth, config)
    except Exception as exc:  # noqa: BLE001 - a reward must never stop a training step
        return failed(f"internal error while scoring ({type(exc).__name__}: {str(exc)[:200]})", config.mode)


def _reward(data_source: Any, solution: Any, ground_truth: Any, config: RewardConfig) -> RewardResult:
    resolved = resolve_problem(resolve_domain(data_source), ground_truth)
    domain = resolved.domain or ""
    if isinstance(solution, (bytes, bytearray)):
        solution = bytes(solution).decode("utf-8", "replace")
    if not isinstance(solution, str):
        return failed(f"no completion text (got {type(solution).__name__})", config.mode, domain)
    if resolved.error:
        return failed(resolved.error, config.mode, domain)
    if config.mode == "tinyzero":
        if domain != "countdown":
            return failed(f"mode 'tinyzero' scores Countdown only, not {domain!r}", config.mode, domain)
        return _tinyzero(solution, resolved.problem, config)
    if len(solution) > config.max_chars:
        return failed(f"completion of {len(solution):,} characters, over max_chars={config.max_chars:,}; "
                      "not scored", config.mode, domain)
    split = split_completion(solution, domain)
    if domain in PLANNING and split.answer.strip() and (not config.needs_process or not split.trace.strip()):
        # The trace is not replayed (process weight 0) or is empty: the plan's verdict alone decides.
        fast = _plan_answer(domain, resolved.problem, split, config)
        if fast is not None:
            return fast
    if domain == "countdown" and split.answer.strip() and not config.needs_process:
        fast = _countdown_answer(resolved.problem, split, config)
        if fast is not None:
            return fast
    if not config.needs_process and split.answer.strip() and domain in ANSWER_ONLY_DOMAINS:
        # Outcome and format only: the answer verdict of these domains does not depend on the
        # trace (tests/test_rewards.py checks this on the dev data), so the costly replay of the
        # thinking is skipped.
        result = _weigh(domain, split, _audit(domain, resolved.problem, replace(split, trace="")), config)
        result.reason = result.reason.replace("no trace step was judged", "trace not replayed (process weight 0)")
        return result
    return _weigh(domain, split, _audit(domain, resolved.problem, split), config)


@lru_cache(maxsize=1)
def _limits() -> Limits:
    """The input limits, read from the environment once per process (as batch callers do)."""
    return current_limits()


def _audit(domain: str, problem: dict[str, Any], split: Split) -> AuditResult:
    record = record_from_json({"id": "reward", "domain": domain, "problem": problem,
                               "trace": split.trace, "answer": split.answer})
    return audit_record(record, _limits())


def _answer_part(domain: str, audited: AuditResult, config: RewardConfig) -> tuple[float, float, str]:
    """(outcome, format, reason)."""
    return _answer_verdict_part(domain, audited.verdict.answer_correct, audited.verdict.answer_error,
                                audited.replay.notes, config, audited)


def _answer_verdict_part(domain: str, answer_correct: bool | None, error: AnswerError | None, notes: dict[str, Any],
                         config: RewardConfig, audited: AuditResult | None = None) -> tuple[float, float, str]:
    if answer_correct is None:
        return 0.0, 0.0, "answer not judged: " + (error.message if error else "no verdict")
    if answer_correct:
        missing = (_countdown_unused(audited) if audited is not None and domain == "countdown"
                   and config.countdown_all_numbers else None)
        if missing:
            return 0.0, 1.0, f"the answer reaches the target but leaves {missing} unused (countdown_all_numbers)"
        return 1.0, 1.0, "the answer is right"
    kind = error.kind if error else ""
    message = error.message if error else "the answer is wrong"
    if kind in ("unparseable", "undecided"):
        return 0.0, 0.0, "answer unreadable: " + message
    if domain in PLANNING and not notes.get("plan_length") and not notes.get("claims_no_plan"):
        return 0.0, 0.0, "answer unreadable: no action of the domain could be read in it"
    return 0.0, 1.0, "the answer is wrong: " + message


def _countdown_unused(audited: AuditResult) -> list[int] | None:
    """Given numbers a right expression leaves out (the app's reader allows each at most once;
    validators/countdown/replay.py notes which numbers the answer it read used)."""
    record = audited.record
    numbers = record.problem.get("numbers")
    used = audited.replay.notes.get("answer_numbers_used")
    if not record.answer.strip() or not isinstance(numbers, list) or used is None:
        return None  # a search log's goal path already has to use every number
    left = Counter(numbers) - Counter(used)
    return sorted(left.elements()) or None


def _process_part(audited: AuditResult, config: RewardConfig) -> tuple[float, int, int, str]:
    """(process, judged steps, invalid steps, reason)."""
    verdicts = audited.step_verdicts.values()
    judged = sum(1 for sv in verdicts if sv.status in JUDGED)
    invalid = audited.verdict.invalid_steps
    if not judged:
        return config.unjudged_process, 0, 0, "no trace step was judged"
    first = invalid[0] if invalid else None
    if config.process_mode == "fraction":
        value = (judged - len(invalid)) / judged
    else:
        value = 1.0 if not invalid else -config.invalid_step_penalty
    if first is None:
        return value, judged, 0, f"all {judged} judged trace steps are valid"
    return value, judged, len(invalid), (f"{len(invalid)} of {judged} judged trace steps invalid, the first is step "
                                         f"{first['step']} ({first['rule']}: {first['message']})")


def _weigh(domain: str, split: Split, audited: AuditResult, config: RewardConfig) -> RewardResult:
    outcome, fmt, answer_reason = _answer_part(domain, audited, config)
    process, judged, n_invalid, trace_reason = _process_part(audited, config)
    score = config.outcome_weight * outcome + config.format_weight * fmt + config.process_weight * process
    return RewardResult(
        score=score, outcome=outcome, format=fmt, process=process, mode="stepscope", domain=domain,
        reason=f"{answer_reason}; {trace_reason}"[:_REASON_CHARS],
        answer_correct=audited.verdict.answer_correct, trace_valid=audited.verdict.trace_valid,
        judged_steps=judged, invalid_steps=n_invalid, first_invalid_step=audited.verdict.first_invalid_step,
        answer_source=split.answer_source, answer=split.answer, notes=list(split.notes),
    )


def countdown_answer_check(problem: dict[str, Any], answer: str) -> AnswerCheck | None:
    """The Countdown replay's check of a stated answer (validators/countdown/replay.py), called
    directly: None where the replay would judge otherwise (numbers or target not given as whole
    numbers: it then reads them from a search log or words a complaint)."""
    numbers, target = problem.get("numbers"), problem.get("target")
    if not (isinstance(numbers, list) and all(isinstance(n, int) for n in numbers) and isinstance(target, int)):
        return None
    return check_answer(answer, numbers, target)


def _countdown_answer(problem: dict[str, Any], split: Split, config: RewardConfig) -> RewardResult | None:
    """A Countdown answer whose trace is not replayed, scored from the replay's own answer check:
    the same result as through `audit_record` (tests/test_rewards.py compares every field), without
    the audit around it (about a fifth of an outcome reward's time)."""
    check = countdown_answer_check(problem, split.answer)
    if check is None:
        return None
    outcome, fmt, answer_reason = _answer_verdict_part("countdown", check.correct, check.error, {}, config)
    if check.correct and config.countdown_all_numbers:
        left = sorted((Counter(problem["numbers"]) - Counter(check.numbers_used)).elements())
        if left:
            outcome, fmt, answer_reason = (0.0, 1.0, f"the answer reaches the target but leaves {left} unused "
                                           "(countdown_all_numbers)")
    return _answer_only_result("countdown", split, config, outcome, fmt, answer_reason, check.correct)


def _answer_only_result(domain: str, split: Split, config: RewardConfig, outcome: float, fmt: float,
                        answer_reason: str, answer_correct: bool | None) -> RewardResult:
    """A reward from the answer's verdict alone, worded as the audit's path words it."""
    reason = f"{answer_reason}; no trace step was judged"[:_REASON_CHARS]
    if not config.needs_process:  # worded as _reward's outcome-only path words it, after the cut
        reason = reason.replace("no trace step was judged", "trace not replayed (process weight 0)")
    score = config.outcome_weight * outcome + config.format_weight * fmt + config.process_weight * config.unjudged_process
    return RewardResult(
        score=score, outcome=outcome, format=fmt, process=config.unjudged_process, mode="stepscope", domain=domain,
        reason=reason, answer_correct=answer_correct,
        trace_valid=None, judged_steps=0, invalid_steps=0, first_invalid_step=None,
        answer_source=split.answer_source, answer=split.answer, notes=list(split.notes),
    )


def _plan_answer(domain: str, problem: dict[str, Any], split: Split, config: RewardConfig) -> RewardResult | None:
    """The reward of a plan answer whose trace is not replayed, from the plan's verdict alone
    (rewards/plan_answer.py): the same result as through `audit_record`, without the trace audit."""
    verdict = plan_answer_verdict(domain, problem, split.answer)
    if verdict is None:
        return None
    outcome, fmt, answer_reason = _answer_verdict_part(domain, verdict.answer_correct, verdict.answer_error,
                                                       verdict.notes, config)
    return _answer_only_result(domain, split, config, outcome, fmt, answer_reason, verdict.answer_correct)


def _tinyzero(solution: str, problem: dict[str, Any], config: RewardConfig) -> RewardResult:
    """TinyZero's score, its parts, and (when weighted or asked for) our process part beside it."""
    tz = tinyzero_score(solution, problem)
    out = RewardResult(score=tz.score, outcome=1.0 if tz.stage == "correct" else 0.0,
                       format=1.0 if tz.equation is not None else 0.0, mode="tinyzero", domain="countdown",
                       reason=f"tinyzero: {tz.reason}"[:_REASON_CHARS], answer_correct=tz.stage == "correct",
                       answer_source="tinyzero_last_line", answer=tz.equation or "")
    if not config.needs_process or tz.stage == "bad_input":
        return out
    if len(solution) > config.max_chars:
        out.reason = (out.reason + f"; trace not replayed: over max_chars={config.max_chars:,}")[:_REASON_CHARS]
        return out
    # The trace is read from the response TinyZero reads (after its marker), split our way.
    split = split_completion(response_part(solution) or "", "countdown")
    audited = _audit("countdown", problem, split)
    process, judged, n_invalid, trace_reason = _process_part(audited, config)
    out.process, out.judged_steps, out.invalid_steps = process, judged, n_invalid
    out.trace_valid, out.first_invalid_step = audited.verdict.trace_valid, audited.verdict.first_invalid_step
    out.score = tz.score + config.tinyzero_process_weight * process
    out.reason = f"{out.reason}; {trace_reason}"[:_REASON_CHARS]
    return out
