"""lm-evaluation-harness sample logs (`lm_eval --log_samples`) as records, so an eval run's
generations are audited where they already are, with the harness's own metrics kept beside the
verdicts as outside judgments (`meta.lm_eval.metrics`).

The layout (lm-eval 0.4.x, `EvaluationTracker.save_results_samples`): one file per task,
`<output_path>/<model>/samples_<task>_<date>.jsonl`, one line per document and filter with
`doc_id`, `doc` (the dataset row), `target` (`doc_to_target`), `arguments` (the requests: from
0.4.3 `{"gen_args_0": {"arg_0": prompt, "arg_1": gen_kwargs}}`, before it `[[prompt, gen_kwargs]]`),
`resps` (raw responses, one list per request), `filtered_resps` (after the task's filter, e.g. a
regex picking the final answer; "[invalid]" when it found none), from 0.4.3 `filter` and `metrics`
(the metric names), the hashes, and one field per metric (`exact_match`, `acc`, ...).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePath
from typing import Any, Mapping

from core.record import RecordError
from sources.base import Options, Plan, Probe, Source
from validators.registry import list_domains

SOURCE = "lm_eval"
SAMPLE_FILE = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl$")
# What the harness writes besides the metrics; everything else numeric or boolean is a metric.
_BOOKKEEPING = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                          "doc_hash", "prompt_hash", "target_hash", "task"})
_NO_MATCH = "[invalid]"  # lm-eval's RegexFilter fallback
_QUESTION_KEYS = ("question", "input", "problem", "query", "prompt")
_MAX_TEXT = 2000


class LmEvalError(RecordError):
    """A sample line that cannot become a record; the message says why."""


def task_from_filename(name: str) -> str | None:
    """The task of `samples_<task>_<date>.jsonl` (the harness's file name), else None."""
    match = SAMPLE_FILE.match(PurePath(name).name)
    return match.group("task") if match else None


def is_sample(obj: Any) -> bool:
    """A line in the sample layout, not a record or a chat completion."""
    return (isinstance(obj, Mapping) and "doc_id" in obj and "resps" in obj
            and not any(k in obj for k in ("trace", "choices")))


@lru_cache(maxsize=1)
def _domain_tokens() -> tuple[tuple[str, tuple[str, ...]], ...]:
    names = sorted((spec.name for spec in list_domains()), key=lambda n: -len(n))
    return tuple((name, tuple(name.split("_"))) for name in names)


def task_domain(task: str | None) -> str:
    """The registered domain whose name is a run of the task's words (`bbh_cot_fewshot_word_sorting`
    -> word_sorting, `..._logical_deduction_five_objects` -> logical_deduction), else freeform."""
    words = tuple(re.split(r"[_\-\s.]+", (task or "").lower()))
    for name, tokens in _domain_tokens():
        n = len(tokens)
        if any(words[i:i + n] == tokens for i in range(len(words) - n + 1)):
            return name
    return "freeform"


def first_text(value: Any, depth: int = 0) -> str | None:
    """The first string in nested lists (`resps` is one list per request, of repeats)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and depth < 8:
        for item in value:
            found = first_text(item, depth + 1)
            if found is not None:
                return found
    return None


def prompt_of(arguments: Any) -> str | None:
    """The first request's prompt, in either layout of `arguments`."""
    if isinstance(arguments, Mapping):
        first = next(iter(arguments.values()), None)
        if isinstance(first, Mapping):
            return first.get("arg_0") if isinstance(first.get("arg_0"), str) else None
        return None
    return first_text(arguments)


def reference_answer(task: str | None, target: Any) -> Any:
    """GSM8K's target is the whole worked solution; its answer is what follows '####'."""
    if isinstance(target, str) and "####" in target:
        return target.rsplit("####", 1)[1].strip()
    return target


def metrics_of(obj: Mapping[str, Any]) -> dict[str, float | bool]:
    """The per-sample metric fields: those named in `metrics`, else every numeric field that is
    not bookkeeping."""
    named = obj.get("metrics") if isinstance(obj.get("metrics"), list) else None
    out: dict[str, float | bool] = {}
    for key, value in obj.items():
        if key in _BOOKKEEPING or (named is not None and key not in named):
            continue
        if isinstance(value, (bool, int, float)):
            out[str(key)[:100]] = value
    return out


def _problem(domain: str, doc: Mapping[str, Any], task: str | None, target: Any, prompt: str | None) -> dict[str, Any]:
    question = next((doc[k] for k in _QUESTION_KEYS if isinstance(doc.get(k), str)), None) or prompt or ""
    reference = reference_answer(task, target)
    if domain == "freeform":
        problem: dict[str, Any] = {"question": question}
        if reference is not None:
            problem["reference_answer"] = reference if isinstance(reference, (str, int, float)) else str(reference)
        return problem
    problem = {"input": question}
    if reference is not None:
        problem["target"] = reference
    return problem


def sample_to_record(obj: Any, file_name: str = "", task: str | None = None) -> dict[str, Any]:
    """The record-format object of one sample line; raises LmEvalError with the reason."""
    if not isinstance(obj, Mapping):
        raise LmEvalError(f"an lm-eval sample must be a JSON object, got {type(obj).__name__}")
    if not is_sample(obj):
        raise LmEvalError("not an lm-eval sample: expected 'doc_id' and 'resps' (keys here: "
                          f"{', '.join(sorted(map(str, obj))[:12]) or 'none'})")
    response = first_text(obj["resps"])
    if response is None:
        raise LmEvalError("'resps' holds no generated text (a log-likelihood task such as multiple choice scores "
                          "given options; Stepscope audits generations, e.g. generate_until tasks)")
    task = obj["task"] if isinstance(obj.get("task"), str) else task or task_from_filename(file_name)
    filtered = first_text(obj.get("filtered_resps"))
    found = filtered is not None and filtered.strip() not in ("", _NO_MATCH)
    doc = obj.get("doc") if isinstance(obj.get("doc"), Mapping) else {}
    domain = task_domain(task)
    lm_eval: dict[str, Any] = {"task": task, "doc_id": obj["doc_id"], "metrics": metrics_of(obj),
                               "answer_from": "filtered_resps" if found else "resps"}
    if file_name:
        lm_eval["file"] = file_name
    for key in ("filter", "target", "doc_hash"):
        value = obj.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            lm_eval[key] = value[:_MAX_TEXT] if isinstance(value, str) else value
    parts = [p for p in (task or "lm_eval", str(obj["doc_id"]), obj.get("filter")) if isinstance(p, str) and p]
    return {
        "id": "/".join(parts),
        "domain": domain,
        "problem": _problem(domain, doc, task, obj.get("target"), prompt_of(obj.get("arguments"))),
        "trace": response,
        "answer": filtered if found else response,
        "meta": {"source": SOURCE, "lm_eval": lm_eval},
    }


class LmEvalConverter:
    """The intake's hook (records_io.intake.Converter): sample lines become records; with `then`, other
    objects go on to it (auto detection), without it they are refused (`--source lm_eval`). A class
    rather than a closure so that it pickles."""

    def __init__(self, file_name: str = "", then: Any = None, strict: bool = False) -> None:
        self.file_name = file_name
        self.task = task_from_filename(file_name)
        self.then = then
        self.strict = strict

    def __call__(self, obj: Any) -> Any:
        if self.strict or is_sample(obj):
            return sample_to_record(obj, self.file_name, self.task)
        return self.then(obj) if self.then is not None else obj


def _detect(probe: Probe, options: Options) -> str | None:
    if probe.fmt not in ("jsonl", "json"):
        return None
    if task_from_filename(probe.name):
        return "the file name samples_<task>_<date>.jsonl"
    return "'doc_id' and 'resps' in the first line" if is_sample(probe.first) else None


def _plan(probe: Probe, options: Options, reason: str) -> Plan:
    task = task_from_filename(probe.name)
    if isinstance(probe.first, Mapping) and isinstance(probe.first.get("task"), str):
        task = probe.first["task"]
    # A file the harness named holds only samples; a line that is none is reported, not read as a record.
    strict = options.forced or task_from_filename(probe.name) is not None
    convert = LmEvalConverter(probe.name, then=None if strict else options.fallback, strict=strict)
    notes = (("lm-eval task", f"{task} -> domain {task_domain(task)}"),) if task else ()
    return Plan(SOURCE, reason, convert, notes=notes)


SOURCES = (Source(SOURCE, "lm-evaluation-harness sample logs (lm_eval --log_samples)", 10, _detect, _plan),)
