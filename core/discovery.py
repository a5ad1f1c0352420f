"""Module discovery shared by the two registries: a format is one module, a domain family one package."""

from __future__ import annotations

import importlib
import importlib.util
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


def iter_family_modules(package: str, module: str) -> Iterator[ModuleType]:
    """Import `<package>.<family>.<module>` for every non-private subpackage (a family) of
    `package` that has one, in family name order."""
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        name = f"{package}.{info.name}.{module}"
        if importlib.util.find_spec(name) is not None:
            yield importlib.import_module(name)
