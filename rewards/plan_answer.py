"""The verdict on a plan answer alone, for rewards that do not replay the trace.

A GRPO step scores many answers to few problems. What depends only on the problem is kept per
process by the planning validator: the parsed PDDL, grounded actions and goal (`load_task`'s
cache, `Task.ground`), the answer reader's Lexicon and, bounded, the answer lines it has read
(`Task.memo`). Profiled before this module (cProfile, 1,000 plan answers), a reward's time went
to reading the answer (~40%), checking it with the states and wording the explorer shows (~30%)
and the audit around it (~30%: the empty trace parsed and replayed, the verdict assembled). Here
the answer goes straight to the planning validator's own reader and checker (`extract_plan`,
`check_plan` without details): the same verdict, error and notes, so the same reward, field for
field (`tests/test_rewards.py` compares it with the audit's path on the PlanBench dev answers).

Profiled again at 5,300-6,200 rewards/s (issue 21's second round), reading and checking the
answer were ~85% of a reward; what made them cheaper without changing a result: an answer that
is one bare list of actions skips the outline (`extract._one_list_of_actions`, each line kept as a
list item per problem), the check without details keeps no per-step verdict and runs the plan on
one set in place, a precondition test is two set tests, and the task is found by its texts
before the sha256 cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.verdicts import AnswerError
from validators.planning import PddlError, check_plan, extract_plan, planning_task


@dataclass(frozen=True)
class PlanAnswerVerdict:
    answer_correct: bool | None
    answer_error: AnswerError | None
    notes: dict[str, Any]


def plan_answer_verdict(domain: str, problem: dict[str, Any], answer: str) -> PlanAnswerVerdict | None:
    """The answer's verdict as the planning domains' replay gives it; None when the validator
    failed (the caller then takes the audit's path, which reports the failure)."""
    try:
        try:
            task, vocab, lexicon, _ = planning_task(problem, domain)
        except PddlError as exc:  # the wording of validators/planning/__init__.py::_replay
            return PlanAnswerVerdict(None, AnswerError(
                kind="undecided", message=f"the problem's PDDL cannot be read, so no plan can be judged: {exc}"), {})
        check = check_plan(task, vocab, extract_plan(answer, lexicon), optimality=False, details=False)
    except Exception:  # noqa: BLE001 - the audit's path turns a validator crash into an undecided verdict
        return None
    return PlanAnswerVerdict(check.answer_correct, check.answer_error, check.notes)
