"""Module discovery shared by the two registries: a format or domain is one module."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterator


def iter_plugin_modules(package: str) -> Iterator[ModuleType]:
    """Import every non-private module of `package`, in name order, so registration is implicit."""
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in {"registry", "base"}:
            continue
        yield importlib.import_module(f"{package}.{info.name}")
