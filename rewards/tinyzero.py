"""TinyZero's Countdown reward, reproduced exactly, quirks included (mode "tinyzero").

Source: Jiayi-Pan/TinyZero, verl/utils/reward_score/countdown.py (`extract_solution`,
`validate_equation`, `evaluate_equation`, `compute_score` with its defaults format_score=0.1,
score=1.0), called by verl/trainer/main_ppo.py::RewardManager on the prompt and the response
decoded together. Read there and restated here in our own code; each rule names its function:

1. `extract_solution`: keep the text after the first "Assistant:"; only when there is none,
   after the first "<|im_start|>assistant"; with neither, no equation (score 0). Then keep only
   the last line (split on "\\n"), and in it the last non-overlapping match of
   `<answer>(.*?)</answer>` (lazy, so `<answer>a<answer>b</answer>` gives `a<answer>b`), stripped.
   No match: no equation (score 0). An empty `<answer></answer>` is an equation ("").
2. `validate_equation`: every run of digits (`\\d+`, Unicode digits included, so "3.5" is 3 and
   5 and "-3" is 3) read as an int; the sorted list must equal the sorted given numbers: each
   number exactly once, all of them. Else the format score 0.1.
3. `evaluate_equation`: the whitelist `^[\\d+\\-*/().\\s]+$`, then Python's eval (see
   rewards/_pyarith.py: `**`, `//`, float division, unary signs). Any failure: 0.1.
4. `compute_score`: 1.0 when `abs(result - target) < 1e-5` (floats: `(1/3)*3` hits 1), else 0.1;
   an exception in that comparison (a tuple result) also 0.1.

Where TinyZero itself fails, this module returns a number instead: TinyZero raises on a None or
non-text solution and on a ground truth without `target`/`numbers` (here: 0 with a reason), and
never returns from an astronomically large power (here: 0.1, as for any equation that does not
evaluate). Digit runs are read as Python 3.9 reads them (TinyZero's environment), without the
4,300-digit limit of later versions.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from rewards._pyarith import NotEvaluated, python_value

FORMAT_SCORE = 0.1
SCORE = 1.0
TOLERANCE = 1e-5
_DIGITS = re.compile(r"\d+")
_WHITELIST = re.compile(r"^[\d+\-*/().\s]+$")
_MAX_DIGIT_RUN = 4300


@dataclass(frozen=True)
class TinyZeroScore:
    """`score` as TinyZero returns it (0, 0.1 or 1.0); `stage` is where it was decided."""

    score: float
    equation: str | None
    stage: str  # no_equation | numbers | evaluate | target_missed | correct | bad_input
    reason: str
    value: Any = None


def response_part(solution: str) -> str | None:
    """The text after the first "Assistant:", else after the first "<|im_start|>assistant", else None."""
    for marker in ("Assistant:", "<|im_start|>assistant"):
        at = solution.find(marker)
        if at >= 0:
            return solution[at + len(marker):]
    return None


def extract_equation(solution: str) -> str | None:
    """`extract_solution`: linear-time restatement of its split and lazy regex."""
    response = response_part(solution)
    if response is None:
        return None
    line = response[response.rfind("\n") + 1:]
    # re.finditer(r'<answer>(.*?)</answer>') on one line: from each `<answer>`, the first
    # `</answer>` after it closes the match; the search resumes after that close.
    last: str | None = None
    pos = 0
    while True:
        start = line.find("<answer>", pos)
        if start < 0:
            break
        end = line.find("</answer>", start + len("<answer>"))
        if end < 0:
            break
        last = line[start + len("<answer>"):end]
        pos = end + len("</answer>")
    return None if last is None else last.strip()


def _digit_run_value(run: str) -> int | None:
    """int(run) as Python 3.9 gives it, None when too long to equal any given number."""
    digits = run.lstrip("".join(c for c in set(run) if unicodedata.digit(c, -1) == 0))
    if len(digits) > _MAX_DIGIT_RUN:
        return None
    return int(digits) if digits else 0


def _plain_number(value: Any) -> Any:
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def numbers_match(equation: str, numbers: list[Any]) -> bool:
    """`validate_equation`: the digit runs, sorted, equal the given numbers, sorted."""
    try:
        used = [_digit_run_value(run) for run in _DIGITS.findall(equation)]
        if any(v is None for v in used):
            return False
        return sorted(used) == sorted(numbers)  # type: ignore[type-var]
    except Exception:  # noqa: BLE001 - validate_equation returns False on any exception
        return False


def tinyzero_score(solution: Any, ground_truth: Any) -> TinyZeroScore:
    if not isinstance(solution, str):
        return TinyZeroScore(0.0, None, "bad_input", f"the solution is {type(solution).__name__}, not text "
                             "(TinyZero raises here)")
    try:
        target = _plain_number(ground_truth["target"])
        raw = ground_truth["numbers"] if "numbers" in ground_truth else ground_truth["nums"]
        numbers = [_plain_number(n) for n in (raw.tolist() if hasattr(raw, "tolist") else raw)]
    except Exception as exc:  # noqa: BLE001 - TinyZero raises (KeyError/TypeError) here
        return TinyZeroScore(0.0, None, "bad_input", f"the ground truth has no usable target/numbers "
                             f"({type(exc).__name__}: {exc}; TinyZero raises here)")
    equation = extract_equation(solution)
    if equation is None:
        return TinyZeroScore(0.0, None, "no_equation", "no <answer>...</answer> on the last line after the first "
                             "'Assistant:' / '<|im_start|>assistant'")
    if not numbers_match(equation, numbers):
        return TinyZeroScore(FORMAT_SCORE, equation, "numbers",
                             f"the numbers in '{equation[:80]}' are not exactly {numbers}")
    if not _WHITELIST.match(equation):
        return TinyZeroScore(FORMAT_SCORE, equation, "evaluate", "characters outside TinyZero's whitelist")
    try:
        value = python_value(equation)
    except NotEvaluated as exc:
        return TinyZeroScore(FORMAT_SCORE, equation, "evaluate", f"does not evaluate: {exc}")
    try:
        hit = abs(value - target) < TOLERANCE
    except Exception as exc:  # noqa: BLE001 - compute_score's outer try/except gives the format score
        return TinyZeroScore(FORMAT_SCORE, equation, "evaluate", f"cannot compare with the target: "
                             f"{type(exc).__name__}", value)
    if hit:
        return TinyZeroScore(SCORE, equation, "correct", f"'{equation[:80]}' = {value!r} hits {target}", value)
    return TinyZeroScore(FORMAT_SCORE, equation, "target_missed", f"'{equation[:80]}' = {value!r}, not {target}",
                         value)
