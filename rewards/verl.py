"""verl's custom reward function: `custom_reward_function.path` = this file's package entry,
`custom_reward_function.name` = `compute_score`.

verl calls `compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...)`
once per response (NaiveRewardManager), with `custom_reward_function.reward_kwargs` merged in as
further keyword arguments. A float is used as the reward; a dict must hold `score`, and its
other keys are logged per sample (`reward_extra_info`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Mapping

if not __package__:  # loaded by file path (custom_reward_function.path): make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rewards.config import RewardConfig  # noqa: E402
from rewards.score import reward  # noqa: E402

_DEFAULT = RewardConfig()


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                  **reward_kwargs: Any) -> float | dict[str, Any]:
    """The reward of `solution_str` for the problem `ground_truth` of the domain `data_source` names.

    Settings (RewardConfig fields, e.g. `mode="tinyzero"`, `process_weight=0.2`, `details=True`)
    come from `reward_kwargs` for the whole run and from `extra_info` per row, the row winning.
    Returns the score, or with `details` the dict of RewardResult.to_dict(). Raises only for a
    setting that is not valid (ValueError), never for a completion or a problem.
    """
    config = _DEFAULT.with_overrides(reward_kwargs)
    if isinstance(extra_info, Mapping):
        config = config.with_overrides(extra_info)
    result = reward(data_source, solution_str, ground_truth, config)
    return result.to_dict() if config.details else float(result.score)
