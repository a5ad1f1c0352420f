"""API keys: found in the environment or Streamlit secrets, never stored, logged or echoed.

A key is looked up by provider (the part of the litellm model string before "/") under the
usual variable names (OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPSEEK_API_KEY, ...), first in the
secrets mapping the page passes in, then in the environment. `scrub` removes every secret value
(and anything shaped like a key or a bearer token) from text before it is shown or stored,
because provider error messages may quote the key they rejected.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterable, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"

# Generic override for any provider, e.g. a local vLLM started with --api-key.
GENERIC_KEY_VAR = "STEPSCOPE_LLM_API_KEY"

# Bare model names that litellm routes to a provider without a "provider/" prefix.
_BARE_PREFIXES = (
    ("gpt-", "openai"), ("o1", "openai"), ("o3", "openai"), ("o4", "openai"), ("chatgpt", "openai"),
    ("claude", "anthropic"), ("deepseek", "deepseek"), ("gemini", "gemini"),
)

# Providers whose key variable is not simply <PROVIDER>_API_KEY.
_KEY_VARS = {
    "openai": ("OPENAI_API_KEY",),
    "text-completion-openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_API_KEY"),
    "hosted_vllm": ("HOSTED_VLLM_API_KEY",),
    "xai": ("XAI_API_KEY",),
    "fireworks_ai": ("FIREWORKS_AI_API_KEY", "FIREWORKS_API_KEY"),
    "openrouter": ("OPENROUTER_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
}

# Providers that run locally and take no key.
KEYLESS_PROVIDERS = ("ollama", "ollama_chat", "lm_studio")

# vLLM's documented placeholder for servers started without --api-key; sent only when an
# API base is given and no key was found, so the OpenAI client does not refuse to start.
NO_KEY_PLACEHOLDER = "EMPTY"

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.I)
_MIN_SECRET_LEN = 6
_KEY_SHAPES = (
    re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{6,}"),
    re.compile(r"\b(?:xai|gsk|hf|ghp|github_pat|AIza)[A-Za-z0-9_\-]{10,}"),
    re.compile(r"(?i)(\bbearer\s+)[^\s\"',})\]]+"),
    re.compile(r"(?i)((?:api[_-]?key|x-api-key|authorization|access[_-]?token)[\"']?\s*[:=]\s*[\"']?)[^\s\"',})\]&]+"),
)
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@]+@")


def provider_of(model: str) -> str:
    """litellm's provider for a model string: the prefix before "/", else a guess by name."""
    model = model.strip()
    if "/" in model:
        return model.split("/", 1)[0].lower()
    lower = model.lower()
    for prefix, provider in _BARE_PREFIXES:
        if lower.startswith(prefix):
            return provider
    return "openai"


def key_variables(model: str) -> tuple[str, ...]:
    provider = provider_of(model)
    names = _KEY_VARS.get(provider, (f"{provider.upper().replace('-', '_')}_API_KEY",))
    return (GENERIC_KEY_VAR, *names)


@dataclass(frozen=True)
class KeyLookup:
    """Which key will be used: its value (never shown) and where it came from (shown)."""

    value: str | None
    source: str | None

    def describe(self) -> str:
        return f"found ({self.source})" if self.value else "not found"


def find_api_key(model: str, secrets: Mapping[str, object] | None = None,
                 env: Mapping[str, str] | None = None) -> KeyLookup:
    """Secrets first (the deployment's own choice), then the environment."""
    env = os.environ if env is None else env
    for name in key_variables(model):
        value = (secrets or {}).get(name)
        if isinstance(value, str) and value.strip():
            return KeyLookup(value.strip(), f"Streamlit secret {name}")
    for name in key_variables(model):
        value = env.get(name)
        if value and value.strip():
            return KeyLookup(value.strip(), f"environment variable {name}")
    return KeyLookup(None, None)


def secret_values(extra: Iterable[str | None] = (), secrets: Mapping[str, object] | None = None,
                  env: Mapping[str, str] | None = None) -> list[str]:
    """Every value that must never appear in output: given keys, secrets, key-like env vars."""
    env = os.environ if env is None else env
    found: set[str] = set()
    for value in extra:
        if value and len(value) >= _MIN_SECRET_LEN:
            found.add(value)
    for value in _flatten(secrets or {}):
        if len(value) >= _MIN_SECRET_LEN:
            found.add(value)
    for name, value in env.items():
        if _SECRET_NAME.search(name) and value and len(value) >= _MIN_SECRET_LEN:
            found.add(value)
    return sorted(found, key=len, reverse=True)


def _flatten(mapping: Mapping[str, object]) -> Iterable[str]:
    for value in mapping.values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, Mapping):
            yield from _flatten(value)


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with secret values and key-shaped strings replaced by [redacted]."""
    for value in secrets:
        if value:
            text = text.replace(value, REDACTED)
    for shape in _KEY_SHAPES:
        text = shape.sub(lambda m: (m.group(1) if m.groups() else "") + REDACTED, text)
    return _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + "@", text)


def redact_url(url: str | None) -> str | None:
    """An API base fit for storing: no user:password, no key-like query values."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return REDACTED
    netloc = parts.netloc.rsplit("@", 1)[-1] if "@" in parts.netloc else parts.netloc
    query = urlencode([(k, REDACTED if _SECRET_NAME.search(k) or k.lower() in ("key", "token", "sig") else v)
                       for k, v in parse_qsl(parts.query, keep_blank_values=True)], safe="[]")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
