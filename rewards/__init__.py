"""Stepscope's validators as reward functions for RL with verifiable rewards (issue 21).

The checker that audits traces in the app scores completions during training:

* `compute_score(data_source, solution_str, ground_truth, extra_info=None)`: verl's custom
  reward function (rewards/verl.py);
* `trl_reward(...)`, `trl_rewards(...)`: reward functions for TRL's GRPOTrainer (rewards/trl.py);
* `reward(...)`: the RewardResult behind both, with every part (rewards/score.py);
* `rollouts.py`: a training run's verl / TRL rollout dumps as records with their rewards, for
  `cli.py audit` (the intake's converter hook).

A reward has three parts (rewards/config.py): outcome (the app's answer verdict), format (an
answer could be read) and process (the trace's replay). Countdown also has mode "tinyzero",
TinyZero's reward reproduced exactly (rewards/tinyzero.py). How a completion becomes a trace and
an answer: rewards/split.py. The README's "Rewards for RL" section shows the configurations.

This package imports core, trace_parsers, validators and audit only: never Streamlit, the
database or litellm (tests/test_layers.py, tests/test_rewards.py).
"""

from rewards.config import RewardConfig
from rewards.result import RewardResult
from rewards.score import reward
from rewards.split import Split, split_completion
from rewards.tinyzero import tinyzero_score
from rewards.trl import score_batch, trl_reward, trl_rewards
from rewards.verl import compute_score

__all__ = ["RewardConfig", "RewardResult", "Split", "compute_score", "reward", "score_batch", "split_completion",
           "tinyzero_score", "trl_reward", "trl_rewards"]
