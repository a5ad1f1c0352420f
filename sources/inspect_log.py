"""Inspect (UK AISI `inspect_ai`) eval logs as records, read with Inspect's own log reader, so an
eval run's samples are audited where they already are, with the scorers' values kept beside the
verdicts as outside judgments (`meta.inspect.scores`).

The layout (inspect_ai 0.3): a `.eval` file is a ZIP archive of `_journal/start.json` (the eval
spec), `samples/<id>_epoch_<n>.json` (one `EvalSample` each: `input`, `target`, `metadata`,
`output.choices[0].message` with `ContentReasoning` and `ContentText` blocks, `scores`),
`summaries.json`, `reductions.json` and, written last, `header.json`; a `.json` log is one document
`{"version", "status", "eval", "plan", "results", "stats", ..., "samples": [...]}`.

One record per sample and epoch. inspect_ai is an optional extra (requirements-inspect.txt),
imported only while a log is read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import IO, Any, Iterator, Mapping

from records_io.intake import RawLine
from rewards.split import split_completion
from sources.base import Options, Plan, Probe, Source, SourceError
from sources.lm_eval import task_domain
from sources.zip_entries import local_entries

SOURCE = "inspect"
INSTALL = ("the Inspect log source needs the inspect extra: STEPSCOPE_EXTRAS=inspect ./stepscope test "
           "(or .venv/bin/pip install --require-hashes -r requirements-inspect.txt)")
_JSON_LOG = re.compile(rb'^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"[a-z]+"\s*,\s*"eval"\s*:')
_SKIPPED = {"events", "store"}
_MAX_TEXT = 2000


class InspectError(ValueError):
    """A sample that cannot become a record; the message says why."""


def is_json_log(first: Any, head: bytes) -> bool:
    """An Inspect JSON log: its header keys in the first object, or its opening bytes (a log too
    large for the probe to decode)."""
    if isinstance(first, Mapping):
        return "eval" in first and "version" in first and "trace" not in first
    return bool(_JSON_LOG.match(head))


def have_inspect() -> bool:
    try:
        import inspect_ai.log  # noqa: F401
    except ImportError:
        return False
    return True


def question_of(value: Any) -> str:
    """The sample's input: its text, or its user messages' (a chat input also holds the system prompt)."""
    if isinstance(value, str):
        return value
    messages = list(value or ())
    users = [m for m in messages if getattr(m, "role", None) == "user"] or messages
    return "\n\n".join(getattr(m, "text", "") or "" for m in users)


def _reference(target: Any) -> Any:
    if isinstance(target, list):
        return target[0] if len(target) == 1 else " | ".join(map(str, target)) or None
    return target if target != "" else None


def _problem(domain: str, question: str, target: Any, metadata: Mapping[str, Any]) -> dict[str, Any]:
    reference = _reference(target)
    if domain == "freeform":
        problem: dict[str, Any] = {**metadata, "question": question}
        if reference is not None:
            problem["reference_answer"] = reference
        return problem
    problem = {"input": question}
    if reference is not None:
        problem["target"] = reference
    return {**problem, **metadata}


def reasoning_and_text(message: Any) -> tuple[str, str]:
    """The assistant message's reasoning blocks (their summary when the reasoning is redacted)
    and its text."""
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return "", content
    reasoning, text = [], []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "reasoning":
            thought = block.summary if block.redacted else block.reasoning
            if thought:
                reasoning.append(thought)
        elif kind == "text":
            text.append(block.text)
    return "\n\n".join(reasoning), "\n\n".join(text)


def _scores(sample: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, score in (sample.scores or {}).items():
        entry: dict[str, Any] = {"value": score.value}
        for key in ("answer", "explanation"):
            value = getattr(score, key, None)
            if isinstance(value, str) and value:
                entry[key] = value[:_MAX_TEXT]
        out[str(name)[:100]] = entry
    return out


def sample_to_record(sample: Any, spec: Any, log_name: str) -> dict[str, Any]:
    """The record-format object of one EvalSample of the eval `spec`; raises InspectError."""
    output = getattr(sample, "output", None)
    choices = getattr(output, "choices", None) or []
    if not choices:
        raise InspectError(f"sample {sample.id!r} epoch {sample.epoch} has no output (the model gave no completion"
                           + (f"; error: {sample.error.message[:300]}" if getattr(sample, "error", None) else "") + ")")
    reasoning, text = reasoning_and_text(choices[0].message)
    task = spec.task
    domain = task_domain(task)
    split = split_completion(text, domain)
    if reasoning:
        trace, answer = reasoning, split.answer or text.strip()
    elif split.trace:
        trace, answer = split.trace, split.answer
    else:
        trace = answer = text
    inspect: dict[str, Any] = {"log": log_name, "eval_id": spec.eval_id, "task": task, "sample_id": sample.id,
                               "epoch": sample.epoch, "scores": _scores(sample),
                               "answer_from": "reasoning blocks" if reasoning else split.answer_source}
    if sample.target not in ("", []):
        inspect["target"] = sample.target
    if getattr(sample, "uuid", None):
        inspect["uuid"] = sample.uuid
    return {
        "id": "/".join(map(str, (task, spec.eval_id, sample.id, sample.epoch))),
        "domain": domain,
        "problem": _problem(domain, question_of(sample.input), sample.target, sample.metadata or {}),
        "trace": trace,
        "answer": answer,
        "model": getattr(output, "model", None) or spec.model,
        "meta": {"source": SOURCE, "inspect": inspect},
    }


def _line(n: int, sample: Any, spec: Any, log_name: str) -> RawLine:
    try:
        record = sample_to_record(sample, spec, log_name)
    except InspectError as exc:
        return RawLine(n, b"", error=str(exc))
    except Exception as exc:  # noqa: BLE001 - one bad sample never stops the rest
        return RawLine(n, b"", error=f"sample {getattr(sample, 'id', '?')!r}: unreadable: {type(exc).__name__}: {exc}")
    return RawLine(n, json.dumps(record, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))


def _failure(exc: BaseException) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first[:500]}"


def _eval_file_lines(path: Path, log_name: str) -> Iterator[RawLine]:
    """A .eval file read sample by sample (a large log is never loaded whole)."""
    from inspect_ai.log import read_eval_log, read_eval_log_sample

    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception:  # noqa: BLE001 - cut short or not a log: read what is whole
        yield from _salvaged_lines(path.read_bytes(), log_name)
        return
    spec = header.eval
    ids = spec.dataset.sample_ids or []
    if not ids:  # an older log that lists no sample ids: read it whole
        yield from _log_lines(path, log_name, "eval")
        return
    n = 0
    for sample_id in ids:
        for epoch in range(1, (spec.config.epochs or 1) + 1):
            n += 1
            try:
                sample = read_eval_log_sample(str(path), id=sample_id, epoch=epoch, resolve_attachments=True,
                                              exclude_fields=_SKIPPED)
            except IndexError:
                yield RawLine(n, b"", error=f"sample {sample_id!r} epoch {epoch} is not in the log "
                                            f"(the eval's status is {header.status!r})")
                continue
            except Exception as exc:  # noqa: BLE001
                yield RawLine(n, b"", error=f"sample {sample_id!r} epoch {epoch}: unreadable: {_failure(exc)}")
                continue
            yield _line(n, sample, spec, log_name)


def _salvaged_lines(data: bytes, log_name: str) -> Iterator[RawLine]:
    """The samples of a .eval whose directory is gone (the file was cut short): every complete
    `samples/` entry, validated by Inspect's own model, then one line saying where it ends."""
    from inspect_ai.log import EvalSample, EvalSpec

    if data[:4] != b"PK\x03\x04":
        yield RawLine(1, b"", error=f"{log_name}: not an Inspect log: neither a .eval ZIP archive nor a JSON log")
        return
    spec = None
    n = 0
    for entry in local_entries(data):
        if entry.name == "_journal/start.json" and entry.data is not None:
            try:
                spec = EvalSpec.model_validate(json.loads(entry.data)["eval"])
            except Exception as exc:  # noqa: BLE001
                n += 1
                yield RawLine(n, b"", error=f"{log_name}: the eval spec (_journal/start.json) is unreadable: "
                                            f"{_failure(exc)}")
                return
        if not entry.name.startswith("samples/"):
            continue
        n += 1
        if spec is None:
            yield RawLine(n, b"", error=f"{entry.name}: no eval spec (_journal/start.json) before it")
        elif entry.data is None:
            yield RawLine(n, b"", error=f"{entry.name}: damaged: {entry.error}")
        else:
            try:
                sample = EvalSample.model_validate(json.loads(entry.data))
            except Exception as exc:  # noqa: BLE001
                yield RawLine(n, b"", error=f"{entry.name}: not an Inspect sample: {_failure(exc)}")
                continue
            yield _line(n, sample, spec, log_name)
    yield RawLine(n + 1, b"", error=f"{log_name}: the .eval archive is cut short (no ZIP directory): "
                                    f"{n} sample entr{'y' if n == 1 else 'ies'} before the cut read, the rest lost")


def _all_bytes(source: Path | IO[bytes]) -> bytes:
    if isinstance(source, Path):
        return source.read_bytes()
    source.seek(0)
    return source.read()


def _log_lines(source: Path | IO[bytes], log_name: str, fmt: str) -> Iterator[RawLine]:
    """A whole log read at once: a .json log (one document), or an uploaded .eval."""
    from inspect_ai.log import read_eval_log, resolve_sample_attachments

    try:
        log = read_eval_log(str(source) if isinstance(source, Path) else source,
                            format="eval" if fmt == "eval" else "json")
    except Exception as exc:  # noqa: BLE001
        if fmt == "eval":
            yield from _salvaged_lines(_all_bytes(source), log_name)
            return
        yield RawLine(1, b"", error=f"{log_name}: not a readable Inspect eval log: {_failure(exc)}")
        return
    if not log.samples:
        yield RawLine(1, b"", error=f"{log_name}: the log holds no samples (status {log.status!r})")
        return
    for n, sample in enumerate(log.samples, start=1):
        try:
            sample = resolve_sample_attachments(sample, "full")
        except Exception:  # noqa: BLE001 - unresolved references stay as they are
            pass
        yield _line(n, sample, log.eval, log_name)


def _detect(probe: Probe, options: Options) -> str | None:
    if probe.fmt == "eval":
        return "a .eval file (an Inspect log archive)"
    if probe.fmt == "json" and is_json_log(probe.first, probe.head):
        return "an Inspect JSON log ('version' and 'eval' at its top)"
    return None


def _plan(probe: Probe, options: Options, reason: str) -> Plan:
    if not have_inspect():
        raise SourceError(INSTALL)
    if probe.fmt not in ("eval", "json"):
        raise SourceError(f"an Inspect log is a .eval archive or a JSON document, not {probe.fmt}")
    name, fmt, stream = probe.name, probe.fmt, probe.stream
    if probe.path is not None and probe.path.is_file():
        path = probe.path
        lines = (lambda: _eval_file_lines(path, name)) if fmt == "eval" else (lambda: _log_lines(path, name, fmt))
    elif stream is not None:
        lines = lambda: _log_lines(stream, name, fmt)  # noqa: E731
    else:
        raise SourceError(f"{name}: nothing to read")
    task, total = _task_and_size(probe)
    notes = (("inspect task", f"{task} -> domain {task_domain(task)}"),) if task else ()
    return Plan(SOURCE, reason, None, lines=lines, notes=notes, total=total)


def _task_and_size(probe: Probe) -> tuple[str | None, int | None]:
    """The task and the number of samples times epochs, from the header (for the summary and
    progress); (None, None) when the header cannot be read here (the reader then says why)."""
    spec = probe.first.get("eval") if isinstance(probe.first, Mapping) else None
    if isinstance(spec, Mapping):
        return (spec.get("task") if isinstance(spec.get("task"), str) else None), None
    if probe.fmt != "eval" or (probe.path is None and probe.stream is None):
        return None, None
    from inspect_ai.log import read_eval_log

    try:
        spec = read_eval_log(str(probe.path) if probe.path is not None else probe.stream, header_only=True).eval
    except Exception:  # noqa: BLE001
        return None, None
    finally:
        if probe.path is None:
            probe.stream.seek(0)
    return spec.task, len(spec.dataset.sample_ids or ()) * (spec.config.epochs or 1) or None


SOURCES = (Source(SOURCE, "Inspect eval logs (.eval archives and .json logs, inspect_ai)", 15, _detect, _plan),)
