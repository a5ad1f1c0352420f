"""How a reward is put together: the weights of its parts and the two Countdown modes.

One frozen dataclass, so a run's reward is a value that can be logged and compared; the README
("Rewards for RL") documents every field. `from_mapping` reads the same fields from the plain
dicts that verl (`extra_info`, `custom_reward_function.reward_kwargs`) and TRL hand over.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

MODES = ("stepscope", "tinyzero")
PROCESS_MODES = ("fraction", "first_error")


@dataclass(frozen=True)
class RewardConfig:
    """The reward of one completion is `outcome_weight * outcome + format_weight * format +
    process_weight * process` (mode "stepscope"), each part in [0, 1] except a first-error penalty.

    * outcome: 1 when the answer reader (the app's verdict) says the answer is right.
    * format: 1 when an answer could be read at all (a verdict was reached and the answer was not
      unreadable).
    * process: from the trace's replay. "fraction": judged steps that are valid (or catch their own
      error) / judged steps; "first_error": 1 when no judged step is invalid, else
      `-invalid_step_penalty`. A trace with no judged step gets `unjudged_process`.

    Mode "tinyzero" (Countdown only) scores exactly as TinyZero's reward does and adds
    `tinyzero_process_weight * process`, 0 by default so training curves do not change.
    """

    mode: str = "stepscope"
    outcome_weight: float = 1.0
    format_weight: float = 0.1
    process_weight: float = 0.5
    process_mode: str = "fraction"
    invalid_step_penalty: float = 1.0
    unjudged_process: float = 0.0
    # Countdown: every given number exactly once (TinyZero's task and the SoS goal); False rewards
    # exactly the app's answer verdict, which allows each number at most once.
    countdown_all_numbers: bool = True
    tinyzero_process_weight: float = 0.0
    # Completions longer than this score 0 with a reason instead of being audited.
    max_chars: int = 1_000_000
    details: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"reward mode {self.mode!r} is not one of {MODES}")
        if self.process_mode not in PROCESS_MODES:
            raise ValueError(f"process_mode {self.process_mode!r} is not one of {PROCESS_MODES}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "float" and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise ValueError(f"{f.name} must be a number, got {value!r}")
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"{f.name} must be true or false, got {value!r}")
        if isinstance(self.max_chars, bool) or not isinstance(self.max_chars, int) or self.max_chars < 1:
            raise ValueError(f"max_chars must be a positive whole number, got {self.max_chars!r}")

    @property
    def needs_process(self) -> bool:
        """Whether the trace has to be replayed at all (the audit of a trace is the costly part)."""
        weight = self.tinyzero_process_weight if self.mode == "tinyzero" else self.process_weight
        return weight != 0 or self.details

    def with_overrides(self, mapping: Mapping[str, Any] | None) -> RewardConfig:
        """This config with the fields that `mapping` names (other keys are ignored: verl's
        `extra_info` also carries `split`, `index` and the like)."""
        if not mapping:
            return self
        known = _FIELD_NAMES
        changes = {k: _plain(v) for k, v in mapping.items() if k in known}
        nested = mapping.get("reward_config")
        if nested is None:
            return self._changed(changes)
        if isinstance(nested, RewardConfig):
            return replace(nested, **changes) if changes else nested
        if isinstance(nested, Mapping):
            changes = {**{k: _plain(v) for k, v in nested.items() if k in known}, **changes}
        return replace(self, **changes) if changes else self

    def _changed(self, changes: dict[str, Any]) -> RewardConfig:
        """`replace(self, **changes)`, kept per process: verl passes the same settings with every
        response, and checking them again costs more than reading a plan answer. Keyed by each
        value's type too, so 0 and False (hash-equal, one of them invalid) never share a result."""
        if not changes:
            return self
        try:
            key = (self, tuple((k, type(v), v) for k, v in changes.items()))
            hit = _CHANGED.get(key)
        except TypeError:  # an unhashable value: checked (and refused) by replace below
            return replace(self, **changes)
        if hit is None:
            hit = replace(self, **changes)
            if len(_CHANGED) < _CHANGED_SIZE:
                _CHANGED[key] = hit
        return hit

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None) -> RewardConfig:
        return cls().with_overrides(mapping)


_FIELD_NAMES = frozenset(f.name for f in fields(RewardConfig))
_CHANGED: dict[tuple[Any, ...], RewardConfig] = {}
_CHANGED_SIZE = 1024


def _plain(value: Any) -> Any:
    """numpy scalars (verl's parquet columns) as Python values."""
    item = getattr(value, "item", None)
    if callable(item) and not isinstance(value, (str, bytes)):
        try:
            return item()
        except (TypeError, ValueError):
            return value
    return value
