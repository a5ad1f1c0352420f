"""One streamed chat completion through litellm: thinking and answer as they arrive.

litellm is imported here, lazily, the first time a completion is requested, with its bundled
model-cost map (LITELLM_LOCAL_MODEL_COST_MAP) so that importing it does not fetch anything.
It is pinned to 1.82.6 (requirements.in says why). litellm normalises thinking into
`reasoning_content` (DeepSeek-R1, vLLM/Ollama reasoning parsers, OpenAI reasoning summaries) and
`thinking_blocks` (Anthropic); both are read here.

Failures never raise: a Completion comes back with whatever arrived and a CaptureError whose
message is meant for a person and has every secret scrubbed from it.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

from capture.keys import KEYLESS_PROVIDERS, NO_KEY_PLACEHOLDER, key_variables, provider_of, redact_url, scrub

# on_delta(kind, text): kind is "thinking" or "answer".
DeltaCallback = Callable[[str, str], None]

# Which API a capture speaks: chat completions (thinking as reasoning_content / thinking blocks)
# or OpenAI's Responses API (o1/o3-style models show a summary of their reasoning: capture/responses.py).
APIS = ("chat", "responses")

_litellm: ModuleType | None = None


def load_litellm() -> ModuleType:
    """Import litellm once, offline-safe and quiet."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm  # noqa: PLC0415 - lazy on purpose: only capture needs it

        litellm.suppress_debug_info = True
        litellm.telemetry = False
        litellm.drop_params = True
        _litellm = litellm
    return _litellm


@dataclass(frozen=True)
class ModelSettings:
    """What to call. The key is kept out of repr and out of `public()`, which is what gets stored."""

    model: str
    api_base: str | None = None
    timeout: float = 600.0
    max_tokens: int | None = None
    temperature: float | None = None
    reasoning_effort: str | None = None
    api_key: str | None = field(default=None, repr=False)
    api: str = "chat"  # one of APIS

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"model": self.model, "timeout_s": self.timeout, "api": self.api}
        if self.api_base:
            out["api_base"] = redact_url(self.api_base)
        for name in ("max_tokens", "temperature", "reasoning_effort"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


@dataclass
class CaptureError:
    """A failed or cut-short call, said plainly. `kind` is stable; `message` is scrubbed."""

    kind: str  # auth | rate_limit | timeout | disconnected | connection | not_found | bad_request | server | config | unknown
    message: str
    status: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "status": self.status}


@dataclass
class Completion:
    """What one call produced. `incomplete`: the stream ended before the server said it was done."""

    thinking: str = ""
    answer: str = ""
    finish_reason: str | None = None
    incomplete: bool = False
    error: CaptureError | None = None
    usage: dict[str, Any] | None = None
    served_model: str | None = None
    thinking_source: str | None = None
    elapsed_s: float = 0.0
    # "reasoning": the thinking is the model's reasoning as it wrote it; "summary": the provider's
    # summary of reasoning it keeps hidden (Responses API reasoning summaries), never the derivation.
    thinking_kind: str = "reasoning"

    @property
    def thinking_returned(self) -> bool:
        return bool(self.thinking.strip())


def settings_problems(model: str, api_base: str | None, rounds: int = 1, timeout: float = 600.0,
                      api: str = "chat") -> list[str]:
    """What is wrong with the inputs, in words, before anything is sent."""
    problems = []
    if api not in APIS:
        problems.append(f"The API must be one of {', '.join(APIS)}.")
    model = (model or "").strip()
    if not model:
        problems.append("Enter a model, e.g. deepseek/deepseek-reasoner or openai/<name> with an API base.")
    elif any(ch.isspace() for ch in model):
        problems.append("The model string cannot contain spaces.")
    if api_base:
        parts = urlsplit(api_base.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            problems.append("The API base must be an http:// or https:// URL, e.g. http://localhost:8000/v1.")
    if rounds < 1:
        problems.append("Rounds must be at least 1.")
    if not timeout > 0:
        problems.append("The timeout must be more than 0 seconds.")
    return problems


def field_of(obj: Any, name: str) -> Any:
    """A field of a litellm object or of a plain dict (chunks and responses arrive as either);
    None when absent. Public: the Responses API reader (responses.py) reads its events with it."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _thinking_delta(delta: Any) -> tuple[str, str | None]:
    text = field_of(delta, "reasoning_content")
    if isinstance(text, str) and text:
        return text, "reasoning_content"
    blocks = field_of(delta, "thinking_blocks") or []
    parts = [b for b in (field_of(block, "thinking") for block in blocks) if isinstance(b, str)]
    if parts:
        return "".join(parts), "thinking_blocks"
    return "", None


def _usage(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    if not isinstance(value, dict):
        return None
    keep = ("prompt_tokens", "completion_tokens", "total_tokens")
    out = {k: value[k] for k in keep if isinstance(value.get(k), int)}
    details = value.get("completion_tokens_details") or {}
    if isinstance(details, dict) and isinstance(details.get("reasoning_tokens"), int):
        out["reasoning_tokens"] = details["reasoning_tokens"]
    return out or None


def request_key(settings: ModelSettings) -> str | None:
    """The key to send: the one found, else vLLM's placeholder for a local server given by its
    API base (the OpenAI client refuses to start without one), else none (litellm looks)."""
    key = settings.api_key
    if not key and settings.api_base and provider_of(settings.model) not in KEYLESS_PROVIDERS:
        if not any(os.environ.get(v) for v in key_variables(settings.model)):
            key = NO_KEY_PLACEHOLDER
    return key


def call_kwargs(messages: list[dict[str, str]], settings: ModelSettings) -> dict[str, Any]:
    """litellm.completion arguments. Retries are off: a 429 is reported, not hammered."""
    kwargs: dict[str, Any] = {
        "model": settings.model, "messages": messages, "stream": True,
        "timeout": settings.timeout, "num_retries": 0, "max_retries": 0,
    }
    if settings.api_base:
        kwargs["api_base"] = settings.api_base
    key = request_key(settings)
    if key:
        kwargs["api_key"] = key
    for name in ("max_tokens", "temperature", "reasoning_effort"):
        if getattr(settings, name) is not None:
            kwargs[name] = getattr(settings, name)
    return kwargs


def stream_completion(messages: list[dict[str, str]], settings: ModelSettings,
                      on_delta: DeltaCallback | None = None, secrets: Iterable[str] = ()) -> Completion:
    """Call the model with streaming on; report each delta; never raise."""
    secrets = [s for s in (*secrets, settings.api_key) if s]
    out = Completion()
    thinking: list[str] = []
    answer: list[str] = []
    started = time.monotonic()
    stream = None
    try:
        litellm = load_litellm()
        stream = litellm.completion(**call_kwargs(messages, settings))
        for chunk in stream:
            out.served_model = out.served_model or field_of(chunk, "model")
            usage = _usage(field_of(chunk, "usage"))
            if usage:
                out.usage = usage
            for choice in field_of(chunk, "choices") or []:
                delta = field_of(choice, "delta")
                text, source = _thinking_delta(delta)
                if text:
                    out.thinking_source = out.thinking_source or source
                    thinking.append(text)
                    if on_delta:
                        on_delta("thinking", text)
                content = field_of(delta, "content")
                if isinstance(content, str) and content:
                    answer.append(content)
                    if on_delta:
                        on_delta("answer", content)
                if field_of(choice, "finish_reason"):
                    out.finish_reason = field_of(choice, "finish_reason")
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message; nothing is lost
        out.error = classify_error(exc, settings, secrets, received=sum(map(len, thinking)) + sum(map(len, answer)))
    out.thinking = "".join(thinking)
    out.answer = "".join(answer)
    out.elapsed_s = round(time.monotonic() - started, 3)
    # litellm closes a stream that ended without a finish reason with a made-up "stop";
    # its wrapper remembers whether the server itself sent one.
    if stream is not None and out.error is None and hasattr(stream, "received_finish_reason"):
        if stream.received_finish_reason is None:
            out.incomplete = True
            out.error = CaptureError("disconnected", "the server closed the stream before saying it was finished; "
                                     "what arrived is kept and marked incomplete")
    if out.error is not None and (out.thinking or out.answer):
        out.incomplete = True
    return out


_UNREACHABLE = re.compile(r"Name or service not known|Temporary failure in name resolution|nodename nor servname"
                          r"|getaddrinfo failed|No address associated with hostname|Connection refused"
                          r"|Network is unreachable|No route to host", re.I)


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    try:
        return int(status) if status is not None else None
    except (TypeError, ValueError):
        return None


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and every one it wraps (litellm's `original_exception`, causes, contexts):
    litellm wraps the OpenAI client's "Connection error." as an HTTP 500, and only the socket
    error underneath says the connection was refused."""
    out: list[BaseException] = []
    stack: list[BaseException | None] = [exc]
    while stack and len(out) < 20:
        cur = stack.pop()
        if cur is None or any(cur is seen for seen in out):
            continue
        out.append(cur)
        stack += [cur.__context__, cur.__cause__, getattr(cur, "original_exception", None)]
    return out


def _unreachable(exc: BaseException, detail: str) -> str | None:
    """Why the request never reached a server, when that is what happened."""
    found = _UNREACHABLE.search(detail)
    if found:
        return found.group(0)
    for inner in _chain(exc):
        if isinstance(inner, ConnectionRefusedError):
            return "Connection refused"
        found = _UNREACHABLE.search(str(inner))
        if found:
            return found.group(0)
    return None


def classify_error(exc: BaseException, settings: ModelSettings, secrets: Iterable[str] = (),
                   received: int = 0) -> CaptureError:
    """A litellm/OpenAI/httpx exception -> a stable kind and a scrubbed sentence."""
    root = getattr(exc, "original_exception", None) or exc
    name = type(root).__name__
    status = _status(root) if _status(root) is not None else _status(exc)
    detail = scrub(" ".join(str(root).split()), secrets)[:600]
    unreachable = None if received else _unreachable(exc, detail)
    where = redact_url(settings.api_base) or provider_of(settings.model)
    variables = " or ".join(key_variables(settings.model)[1:] + key_variables(settings.model)[:1])
    if received and name in ("APIConnectionError", "RemoteProtocolError", "ReadError", "MidStreamFallbackError",
                             "ServiceUnavailableError", "InternalServerError", "APIError"):
        kind, text = "disconnected", (f"the connection to {where} was lost mid-stream after {received:,} characters; "
                                      "what arrived is kept and marked incomplete")
    elif name in ("Timeout", "APITimeoutError", "ReadTimeout", "ConnectTimeout", "TimeoutException") or status == 408:
        kind, text = "timeout", (f"no response from {where} within {settings.timeout:g} s"
                                 + ("; what arrived is kept and marked incomplete" if received else ""))
    elif unreachable:
        # litellm reports a DNS failure or a refused connection as an HTTP 500 "server error";
        # it is not one: the request never reached a server.
        kind, text, status = "connection", f"could not reach {where} ({unreachable})", None
    elif status in (401, 403) or name in ("AuthenticationError", "PermissionDeniedError"):
        kind, text = "auth", (f"{where} rejected the API key (HTTP {status or 401}); set {variables} in the "
                              "environment or in Streamlit secrets")
    elif status == 429 or name == "RateLimitError":
        kind, text = "rate_limit", (f"{where} is rate-limiting these requests or the quota is used up (HTTP 429); "
                                    "wait a little and run again")
    elif status == 404 or name == "NotFoundError":
        kind, text = "not_found", f"{where} does not know the model {settings.model!r} (HTTP 404)"
    elif name in ("APIConnectionError", "ConnectError", "ConnectionError", "ServiceUnavailableError") and not status:
        kind, text = "connection", f"could not reach {where}"
    elif status is not None and status >= 500:
        kind, text = "server", f"{where} failed with HTTP {status}"
    elif "LLM Provider NOT provided" in str(root) or name == "BadRequestError" and "provider" in str(root).lower():
        kind, text = "config", (f"litellm does not know which provider serves {settings.model!r}; write it as "
                                "provider/model, e.g. openai/<name> for an OpenAI-compatible server with an API base")
    elif status == 400 or name in ("BadRequestError", "ContextWindowExceededError", "UnsupportedParamsError"):
        kind, text = "bad_request", f"{where} refused the request (HTTP {status or 400})"
    elif name in ("APIConnectionError", "ServiceUnavailableError"):
        kind, text = "connection", f"could not reach {where}"
    else:
        kind, text = "unknown", f"the call to {where} failed ({name})"
    if kind == "disconnected":
        status = None
    return CaptureError(kind, scrub(f"{text}. Provider said: {detail}" if detail else text, secrets), status)
