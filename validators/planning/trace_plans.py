"""Replay of plan-shaped traces: the `plan_text` / `pddl_plan` formats (an LLM-Modulo loop, a
list of proposed actions or whole plans). Each block of the trace (a round, a proposed plan) is
replayed from the initial state like an answer; its actions get step verdicts.

Traces in other formats (R1-style thinking on the plain-text fallback) are not replayed here.
"""

from __future__ import annotations

from core.record import TraceRecord
from core.verdicts import StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import Replay
from validators.planning.check import PlanCheck, join_nl
from validators.planning.extract import Lexicon, LineReader
from validators.planning.strips import Task, apply, atom_text, unmet_goals, unmet_preconditions
from validators.planning.vocab import Vocabulary

PLAN_FORMATS = ("plan_text", "pddl_plan")


def replay_trace(replay: Replay, record: TraceRecord, parsed: ParsedTrace, task: Task, vocab: Vocabulary,
                 lexicon: Lexicon, check: PlanCheck) -> None:
    if parsed.format not in PLAN_FORMATS or not len(parsed.graph):
        return
    blocks = parsed.extras.get("plan_blocks") or [list(range(len(parsed.graph)))]
    reader = LineReader(lexicon, explicit=parsed.format == "pddl_plan")
    summaries = []
    for number, block in enumerate(blocks, start=1):
        state = task.problem.init
        failed_at: int | None = None
        n_actions = 0
        for idx in block:
            step = parsed.graph[idx]
            line = reader.read(step.span[0], step.span[1], record.trace[step.span[0]:step.span[1]])
            for ps in line.steps:
                n_actions += 1
                if not ps.ok:
                    replay.step_verdicts.append(StepVerdict(
                        idx, "invalid", "unreadable_step", f"cannot be read as an action: {ps.error}",
                        found=ps.text.strip()))
                    failed_at = idx if failed_at is None else failed_at
                    continue
                assert ps.action is not None and ps.args is not None
                ground = task.ground(ps.action, ps.args)
                if failed_at is not None:
                    replay.step_verdicts.append(StepVerdict(
                        idx, "unchecked", None, f"{ground.text()} not checked: this plan already failed",
                        consequence_of=failed_at))
                    continue
                unmet = unmet_preconditions(ground, state)
                if unmet:
                    nl = [vocab.literal_nl(lit.atom, lit.positive) for lit in unmet]
                    replay.step_verdicts.append(StepVerdict(
                        idx, "invalid", "unmet_precondition",
                        f"{vocab.action_nl(ps.action, ps.args)}: unmet precondition{'s' if len(nl) > 1 else ''}: "
                        f"{join_nl(nl)}",
                        expected=[lit.text() for lit in unmet], found=ground.text()))
                    failed_at = idx
                    continue
                new = apply(ground, state)
                replay.states[idx] = {"plan": number, "action": ground.text(),
                                      "added": sorted(atom_text(a) for a in new - state),
                                      "deleted": sorted(atom_text(a) for a in state - new)}
                state = new
                replay.step_verdicts.append(StepVerdict(idx, "valid", None, ground.text()))
        if n_actions:
            goal_missing = unmet_goals(task.problem, state) if failed_at is None else None
            summaries.append({
                "plan": number, "actions": n_actions, "first_failing_step": failed_at,
                "reaches_goal": None if goal_missing is None else not goal_missing,
            })
    replay.notes["trace_plans"] = summaries
    if replay.step_verdicts:
        replay.trace_valid = all(v.status == "valid" for v in replay.step_verdicts)
