"""Reward functions for TRL's GRPOTrainer (`reward_funcs=[...]`).

TRL calls each reward function once per batch as `f(prompts=..., completions=..., completion_ids=...,
**columns)`: every dataset column except `prompt` arrives as a list with one value per
completion, and completions are either strings (standard format) or lists of messages
(conversational format: `[{"role": "assistant", "content": "..."}]`). It logs each function
under its `__name__` and sums them with `GRPOConfig.reward_weights`.

So there are two ways to use Stepscope's reward: one function for the weighted total
(`trl_reward(part="score")`), or one per part (`trl_rewards()`: outcome, format, process) with
TRL doing the weighting and logging each. Each completion is audited once however many part
functions read it (a small cache keyed by completion, problem and settings).

Where the problem comes from in a row: a `ground_truth` column (or verl's `reward_model`
column holding one), else a `problem` column, else the row's own columns (Countdown datasets
have `target` and `nums`/`numbers`). The domain: the one given to `trl_reward`, else the row's
`data_source` or `domain` column. A row's `extra_info` mapping may override settings.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Callable, Mapping, Sequence

from core.record import canonical_json
from rewards.config import RewardConfig
from rewards.problem import plain
from rewards.result import RewardResult
from rewards.score import reward

PARTS = ("score", "outcome", "format", "process")
# Keyword arguments TRL adds that are not dataset columns.
_NOT_COLUMNS = frozenset({"prompts", "completions", "completion_ids", "trainer_state", "step", "run_name",
                          "log_extra", "log_metric", "environments"})
_NOT_PROBLEM = frozenset({"data_source", "domain", "extra_info", "ability", "reward_model", "id", "model", "meta"})
_CACHE_SIZE = 4096
_cache: OrderedDict[tuple, RewardResult] = OrderedDict()
_lock = threading.Lock()

RewardFunc = Callable[..., list[float]]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # content parts: [{"type": "text", "text": ...}]
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping) and isinstance(p.get("text"), str))
    return ""


def completion_text(completion: Any) -> str | None:
    """The text of one TRL completion: a string, or the assistant messages of a conversation
    (reasoning kept apart by the server, `reasoning_content`, goes in front as `<think>...</think>`)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        return None
    parts: list[str] = []
    for message in completion:
        if not isinstance(message, Mapping) or message.get("role", "assistant") != "assistant":
            continue
        thinking = next((message[k] for k in ("reasoning_content", "reasoning", "thinking")
                         if isinstance(message.get(k), str) and message[k]), None)
        text = _text_of(message.get("content"))
        parts.append(f"<think>{thinking}</think>{text}" if thinking and "</think>" not in text else text)
    return "\n".join(parts)


def prompt_text(prompt: Any) -> str:
    """The text of a prompt: a string, or the contents of its chat messages."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence):
        return "\n".join(_text_of(m.get("content")) for m in prompt if isinstance(m, Mapping))
    return ""


def _row(columns: Mapping[str, Any], i: int, n: int) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for key, values in columns.items():
        if key in _NOT_COLUMNS or isinstance(values, (str, bytes, Mapping)):
            continue
        try:
            if len(values) == n:
                row[key] = values[i]
        except TypeError:
            continue
    return row


def _ground_truth(row: Mapping[str, Any]) -> Any:
    if "ground_truth" in row:
        return row["ground_truth"]
    model = row.get("reward_model")
    if isinstance(model, Mapping) and "ground_truth" in model:
        return model["ground_truth"]
    if "problem" in row:
        return row["problem"]
    return {k: v for k, v in row.items() if k not in _NOT_PROBLEM}


def _cached(domain: Any, text: Any, ground_truth: Any, config: RewardConfig) -> RewardResult:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest() if isinstance(text, str) else repr(text)
    try:
        problem_key = canonical_json(plain(ground_truth))
    except (TypeError, ValueError):
        problem_key = repr(ground_truth)
    key = (repr(domain), digest, problem_key, config)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    result = reward(domain, text, ground_truth, config)
    with _lock:
        _cache[key] = result
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def score_batch(completions: Sequence[Any], prompts: Sequence[Any] | None = None, domain: str | None = None,
                config: RewardConfig | None = None, **columns: Any) -> list[RewardResult]:
    """One RewardResult per completion, for TRL's argument shapes (also handy for logging)."""
    config = config or RewardConfig()
    n = len(completions)
    out: list[RewardResult] = []
    for i, completion in enumerate(completions):
        row = _row(columns, i, n)
        row_config = config.with_overrides(row["extra_info"]) if isinstance(row.get("extra_info"), Mapping) else config
        text = completion_text(completion)
        if row_config.mode == "tinyzero" and text is not None:
            # TinyZero scores prompt and response decoded together and cuts at its marker.
            prompt = prompts[i] if prompts is not None and i < len(prompts) else None
            if isinstance(prompt, str) and ("Assistant:" in prompt or "<|im_start|>assistant" in prompt):
                text = prompt + text
            else:
                text = "<|im_start|>assistant\n" + text
        source = domain or row.get("data_source") or row.get("domain")
        out.append(_cached(source, text, _ground_truth(row), row_config))
    return out


def trl_reward(domain: str | None = None, part: str = "score", config: RewardConfig | Mapping[str, Any] | None = None,
               **settings: Any) -> RewardFunc:
    """A GRPOTrainer reward function returning one part (or the weighted total) per completion.

    `config` and `settings` are RewardConfig fields (`trl_reward("countdown", mode="tinyzero")`).
    """
    if part not in PARTS:
        raise ValueError(f"part {part!r} is not one of {PARTS}")
    base = config if isinstance(config, RewardConfig) else RewardConfig.from_mapping(config)
    base = base.with_overrides(settings)
    if part == "process" and not base.details:
        base = base.with_overrides({"details": True})  # mode "tinyzero" replays the trace only when asked

    def reward_func(completions: Sequence[Any], prompts: Sequence[Any] | None = None, **kwargs: Any) -> list[float]:
        results = score_batch(completions, prompts, domain, base, **kwargs)
        return [float(getattr(r, part)) for r in results]

    reward_func.__name__ = f"stepscope_{part}" if domain is None else f"stepscope_{domain}_{part}"
    reward_func.__qualname__ = reward_func.__name__
    reward_func.__doc__ = f"Stepscope {part} reward ({domain or 'domain from the data_source column'})."
    return reward_func


def trl_rewards(domain: str | None = None, config: RewardConfig | Mapping[str, Any] | None = None,
                parts: Sequence[str] = ("outcome", "format", "process"), **settings: Any) -> list[RewardFunc]:
    """One reward function per part; pair with `GRPOConfig(reward_weights=[...])`. They share one
    setting (details on when a process part is asked for), so each completion is audited once."""
    if "process" in parts:
        settings = {**settings, "details": True}
    return [trl_reward(domain, part, config, **settings) for part in parts]
