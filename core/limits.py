"""Every input limit, in one place. Each can be raised by an environment variable."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass(frozen=True)
class Limits:
    max_line_bytes: int
    max_upload_bytes: int
    max_records_per_upload: int
    max_trace_chars: int
    max_steps: int

    def human(self) -> dict[str, str]:
        return {
            "line (one record)": f"{self.max_line_bytes / 2**20:.0f} MB",
            "upload": f"{self.max_upload_bytes / 2**20:.0f} MB",
            "records per upload": f"{self.max_records_per_upload:,}",
            "characters per trace": f"{self.max_trace_chars:,}",
            "steps per trace": f"{self.max_steps:,}",
        }


_ENV = ("STEPSCOPE_MAX_LINE_BYTES", "STEPSCOPE_MAX_UPLOAD_BYTES", "STEPSCOPE_MAX_RECORDS",
        "STEPSCOPE_MAX_TRACE_CHARS", "STEPSCOPE_MAX_STEPS")


def current_limits() -> Limits:
    """The limits in force; re-read when the environment changes (cheap on the hot path)."""
    return _limits(tuple(os.environ.get(k) for k in _ENV))


@lru_cache(maxsize=8)
def _limits(_env: tuple) -> Limits:
    return Limits(
        max_line_bytes=_env_int("STEPSCOPE_MAX_LINE_BYTES", 64 * 2**20),
        max_upload_bytes=_env_int("STEPSCOPE_MAX_UPLOAD_BYTES", 512 * 2**20),
        max_records_per_upload=_env_int("STEPSCOPE_MAX_RECORDS", 1_000_000),
        max_trace_chars=_env_int("STEPSCOPE_MAX_TRACE_CHARS", 32 * 2**20),
        max_steps=_env_int("STEPSCOPE_MAX_STEPS", 200_000),
    )
