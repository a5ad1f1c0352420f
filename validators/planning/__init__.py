"""STRIPS/PDDL plan replay shared by the planning domains (blocksworld, mystery_blocksworld,
logistics, pddl; registered in domains.py) and by any caller that holds a candidate plan text.

What is checked: each action of the plan under VAL's STRIPS semantics (first failing action, all
unmet preconditions or goal atoms, in PDDL and in PlanBench's words), optimal length, and the
candidate plans inside a thinking trace. Sources: VAL (KCL-Planning/VAL) and PlanBench
(karthikv792/LLMs-Planning: its domains, vocabularies and critique wording).

Public API:
* `validate_plan_text(text, problem, domain)` -> `PlanCheck`: per-action verdicts, the answer
  verdict and per-step states for one candidate plan (an answer, a plan proposed inside a
  thinking trace, one round of an LLM-Modulo loop).
* `make_domain(name, description, aliases)` -> the `DomainSpec` that domains.py registers.
"""

from __future__ import annotations

import json
from typing import Any

from core.record import TraceRecord
from core.verdicts import AnswerError
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.planning.answer_states import answer_states
from validators.planning.strips import atom_text
from validators.planning.check import ActionVerdict, PlanCheck, check_plan, join_nl
from validators.planning.extract import Extraction, Lexicon, extract_plan
from validators.planning.pddl_parse import PddlError, load_task
from validators.planning.search import SearchResult, reference_plan
from validators.planning.strips import Task
from validators.planning.thinking import replay_thinking
from validators.planning.trace_plans import replay_trace
from validators.planning.vocab import Vocabulary, builtin_vocabulary, custom_vocabulary

__all__ = [
    "ActionVerdict", "PlanCheck", "PddlError", "SearchResult", "Task", "Vocabulary", "check_plan",
    "extract_plan", "join_nl", "load_task", "make_domain", "planning_task", "reference_plan",
    "validate_plan_text",
]

VERSION = "12"
BUILTIN = ("blocksworld", "mystery_blocksworld", "logistics")


def planning_task(problem: dict[str, Any], domain: str) -> tuple[Task, Vocabulary, Lexicon, list[str]]:
    """Parse (cached) the record's PDDL and pick the vocabulary; raises PddlError with a reason."""
    if not isinstance(problem, dict):
        raise PddlError("the problem must be an object with domain_pddl and problem_pddl")
    task = load_task(str(problem.get("domain_pddl") or ""), str(problem.get("problem_pddl") or ""))
    warnings: list[str] = []
    if domain in BUILTIN:
        vocab = builtin_vocabulary(domain)
        key = f"lexicon:{domain}"
    else:
        raw = problem.get("vocabulary")
        vocab, warnings = custom_vocabulary(raw)
        key = "lexicon:custom:" + json.dumps(raw, sort_keys=True, default=str)
    lexicon = task.memo.get(key)
    if lexicon is None:
        lexicon = task.memo[key] = Lexicon(task, vocab)
    return task, vocab, lexicon, warnings


def validate_plan_text(text: str, problem: dict[str, Any], domain: str = "pddl",
                       optimality: bool = True) -> PlanCheck:
    """Validate one candidate plan text against a problem (record-format problem object).

    Never raises on bad input: an unreadable problem gives `answer_correct=None` with the reason.
    """
    try:
        task, vocab, lexicon, _ = planning_task(problem, domain)
    except PddlError as exc:
        return PlanCheck(None, AnswerError(kind="undecided", message=f"the PDDL cannot be read: {exc}"),
                         [], [], Extraction([], "not read"), {})
    return check_plan(task, vocab, extract_plan(text or "", lexicon), optimality=optimality)


def _replay(domain: str, record: TraceRecord, parsed: ParsedTrace) -> Replay:
    notes: dict[str, Any] = {
        "rules": "STRIPS sequential plan semantics as VAL (KCL-Planning/VAL Validate); "
                 "messages in PlanBench task-3 wording",
    }
    try:
        task, vocab, lexicon, warnings = planning_task(record.problem, domain)
    except PddlError as exc:
        return Replay(answer_correct=None, notes=notes, answer_error=AnswerError(
            kind="undecided", message=f"the problem's PDDL cannot be read, so no plan can be judged: {exc}"))
    if warnings:
        notes["vocabulary_warnings"] = warnings
    if task.domain.notes:
        notes["domain_notes"] = list(task.domain.notes)
    if task.problem.notes:
        notes["problem_notes"] = list(task.problem.notes)
    check = check_plan(task, vocab, extract_plan(record.answer, lexicon))
    notes.update(check.notes)
    notes["answer_plan"] = [v.to_json() for v in check.actions]
    notes["answer_states"] = check.states
    # Kept (unlike the per-step states, which are left out of storage for size): with each action's
    # added and deleted atoms it gives the explorer every state of the answer to draw.
    notes["initial_state"] = sorted(atom_text(a) for a in task.problem.init)
    # The goal too, so the explorer shows the problem beside the model's restatement of it.
    notes["goal"] = [("" if lit.positive else "not ") + atom_text(lit.atom) for lit in task.problem.goal]
    replay = Replay(answer_correct=check.answer_correct, answer_error=check.answer_error, notes=notes)
    replay_trace(replay, record, parsed, task, vocab, lexicon, check)
    replay_thinking(replay, record, parsed, task, vocab, lexicon, check)
    return replay


def make_domain(name: str, description: str, aliases: tuple[str, ...] = ()) -> DomainSpec:
    return DomainSpec(
        name=name,
        version=VERSION,
        description=description,
        replay=lambda record, parsed: _replay(name, record, parsed),
        aliases=aliases,
        answer_states=answer_states,
    )
