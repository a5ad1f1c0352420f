"""Every state along a planning answer: the planning domains' `answer_states` hook.

The per-step states are left out of storage for size (db/rows.py); each replayed action keeps
its added and deleted atoms, so the states are rebuilt from the initial state, applying delete
then add as VAL does (a fact both deleted and added stays true)."""

from __future__ import annotations

from typing import Any, Sequence


def plan_states(initial: Sequence[str], answer_plan: Sequence[dict[str, Any]]) -> list[list[str]]:
    """The initial state, then the state after each replayed action, up to the first action that
    was not replayed (unreadable, or after the plan failed)."""
    state = set(initial)
    states = [sorted(state)]
    for action in answer_plan:
        if action.get("status") not in ("valid", "invalid") or action.get("action") is None:
            break
        state = (state - set(action.get("deleted") or ())) | set(action.get("added") or ())
        states.append(sorted(state))
    return states


def answer_states(notes: dict[str, Any]) -> list[list[str]]:
    """The hook: [] when the notes hold no replayed answer."""
    plan, initial = notes.get("answer_plan"), notes.get("initial_state")
    if not isinstance(plan, list) or not plan or not isinstance(initial, list):
        return []
    return plan_states(initial, [a for a in plan if isinstance(a, dict)])
