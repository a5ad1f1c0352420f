"""What a source is: how it recognises an input, and how it turns it into lines and records."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Mapping, Protocol

from records_io.intake import Converter, RawLine


class SourceError(ValueError):
    """An input that cannot be read as the chosen source at all (not one bad line: those are units)."""


@dataclass(frozen=True)
class Probe:
    """What detection may look at: the name as given, the path (None for stdin), how the bytes
    read (jsonl, json, text, parquet, eval; `dataset` for a folder or Arrow file), the first
    object, a table's columns and the first bytes (a document too large to decode in the probe
    still shows its opening). `stream` is the input for a source that reads it whole when there
    is no path (an upload)."""

    name: str
    path: Path | None
    fmt: str
    first: Any = None
    columns: tuple[str, ...] = ()
    head: bytes = b""
    stream: IO[bytes] | None = field(default=None, compare=False, repr=False)


class ColumnMemory(Protocol):
    """Column maps remembered per table layout (db/column_maps.py): a `--map` given once for a
    dataset is used again for any table with the same columns, and said so in the summary."""

    def recall(self, columns: tuple[str, ...]) -> Mapping[str, str] | None: ...

    def remember(self, columns: tuple[str, ...], mapping: Mapping[str, str], source: str) -> None: ...


@dataclass(frozen=True)
class Options:
    """The user's choices: a default domain, a rollout layout, a column map, and whether the
    source was forced (`--source`), in which case every line must be of it. `fallback` converts
    the rows of the line layouts (records, steps rows, rollouts) when the source was detected;
    `memory` keeps the column maps given before (None: nothing remembered)."""

    domain: str | None = None
    rollout_layout: str = "auto"
    mapping: Mapping[str, str] = field(default_factory=dict)
    forced: bool = False
    fallback: Converter | None = None
    memory: ColumnMemory | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Plan:
    """How to read one input: `convert` for each decoded object, and `lines` when the source
    reads the input itself (else the CLI reads it by its format); `notes` go into the summary."""

    source: str
    reason: str
    convert: Converter | None = None
    lines: Callable[[], Iterator[RawLine]] | None = None
    notes: tuple[tuple[str, str], ...] = ()
    total: int | None = None


@dataclass(frozen=True)
class Source:
    """`detect` gives the reason an input is of this source, or None; `plan` how to read it.
    Sources are tried by `order`, lowest first."""

    name: str
    description: str
    order: int
    detect: Callable[[Probe, Options], str | None]
    plan: Callable[[Probe, Options, str], Plan]
