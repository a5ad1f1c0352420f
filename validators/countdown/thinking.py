"""Countdown candidates in thinking text, replayed with Countdown's own answer checker.

An arithmetic claim that ends at the target is a candidate. It is judged as one expression over
the given numbers (answer.check_expression); if it uses a number the problem does not give, it
is read together with the step's other `a op b = c` claims as a chain of operations on given and
derived numbers (answer.check_operations, as SoS paths). A compound expression (two or more
operators) that needs a number the problem does not give, and is no chain either, is invalid
(`candidate_solution_invalid`); a lone `a op b = target` that uses a derived number is left
unjudged (its operands may come from earlier steps).

The family's own module, so the shared thinking analysis (validators/thinking) depends on no
domain and Countdown depends on it one way only.
"""

from __future__ import annotations

from typing import Any

from core.verdicts import StepVerdict
from trace_parsers.base import ParsedTrace
from validators.countdown.answer import AnswerCheck, check_expression, check_operations
from validators.exact_arithmetic import fmt_num, parse_operation
from validators.thinking.analysis import STATING_KINDS, Candidate
from validators.thinking.arith import find_claims


def countdown_key(check: AnswerCheck) -> tuple[Any, ...] | None:
    """What a Countdown candidate is compared with the answer by: its value and the numbers it uses."""
    if check.value is None:
        return None
    return fmt_num(check.value), tuple(sorted(check.numbers_used))


def countdown_candidates(parsed: ParsedTrace, text: str, numbers: list[int], target: int,
                         use_all: bool = False) -> list[Candidate]:
    """Every true claim in the thinking that ends at the target, judged on the given numbers."""
    out: list[Candidate] = []
    for step in parsed.graph:
        claims = [c for c in find_claims(text, 0, step.span[0], step.span[1]) if c.holds]
        for k, claim in enumerate(claims):
            sides = claim.text.split("=")
            try:
                last = int(sides[-1].strip().strip("()[]"))
            except ValueError:
                continue
            if last != target:
                continue
            check = check_expression(claim.text, numbers, target, use_all)
            compound = sum(sides[0].count(op) for op in "+-*/×÷") >= 2
            if not check.correct and check.error is not None and check.error.kind == "illegal_move":
                ops = [c.text.replace(" ", "") for c in claims[:k + 1] if parse_operation(c.text)]
                chain = check_operations(ops, numbers, target, use_all=use_all) if ops else None
                if chain is not None and chain.correct:
                    check = chain
                elif not compound:
                    continue
            verdicts = []
            if check.correct:
                verdicts.append(StepVerdict(step.index, "valid", None, f"'{claim.text}' reaches {target} with the "
                                                                       f"given numbers"))
            elif check.error is not None and check.error.kind == "illegal_move":
                verdicts.append(StepVerdict(step.index, "invalid", "candidate_solution_invalid",
                                            f"'{claim.text}' is offered as a way to {target}, but "
                                            f"{check.error.message}", found=claim.text))
            out.append(Candidate([step.index], f"'{claim.text}'", True, check.correct, countdown_key(check),
                                 "reaches the target with the given numbers" if check.correct else
                                 (check.error.message if check.error else "does not reach the target"),
                                 verdicts, stated=step.kind in STATING_KINDS))
    return out
