"""Steps and the step graph every parser produces and every page shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import networkx as nx

# Edge kinds: "next" links a step to the one it follows in a linear trace, "child" links a
# search node to a node it generated, "backtrack" links a step back to the step it returns to.
EDGE_KINDS = ("next", "child", "backtrack")


@dataclass
class Step:
    """One step of a trace: where it is in the raw text, what it says and what it is."""

    index: int
    kind: str
    span: tuple[int, int]
    text: str
    payload: dict[str, Any] = field(default_factory=dict)
    parent: int | None = None


class StepGraph:
    """Steps in trace order plus how they relate, as a networkx DiGraph on demand.

    Node ids are step indices. A linear trace is a chain of "next" edges; a search trace is
    the tree of "child" edges; a backtrack adds an edge back to the node it returns to. Edges
    are kept as a list and the DiGraph is built only when asked for: most audits never need
    graph algorithms, and building it dominated ingest time.
    """

    def __init__(self, steps: Iterable[Step] = ()) -> None:
        self.steps: list[Step] = []
        self._edges: dict[tuple[int, int], str] = {}
        self._nx: nx.DiGraph | None = None
        for step in steps:
            self.add(step)

    def add(self, step: Step, edge_kind: str = "next") -> Step:
        if step.index != len(self.steps):
            raise ValueError(f"step index {step.index} out of order (expected {len(self.steps)})")
        self.steps.append(step)
        if step.parent is not None:
            self._edges[(step.parent, step.index)] = edge_kind
        self._nx = None
        return step

    def link(self, src: int, dst: int, kind: str) -> None:
        if kind not in EDGE_KINDS:
            raise ValueError(f"unknown edge kind {kind!r}")
        self._edges[(src, dst)] = kind
        self._nx = None

    @property
    def graph(self) -> nx.DiGraph:
        """The networkx view (built once, rebuilt after changes)."""
        if self._nx is None:
            g = nx.DiGraph()
            g.add_nodes_from(range(len(self.steps)))
            g.add_edges_from((u, v, {"kind": k}) for (u, v), k in self._edges.items())
            self._nx = g
        return self._nx

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __getitem__(self, index: int) -> Step:
        return self.steps[index]

    def edges(self) -> list[tuple[int, int, str]]:
        return [(u, v, k) for (u, v), k in self._edges.items()]

    def truncated(self, keep: int) -> "StepGraph":
        """The first `keep` steps with the edges among them."""
        out = StepGraph()
        out.steps = self.steps[:keep]
        out._edges = {(u, v): k for (u, v), k in self._edges.items() if u < keep and v < keep}
        return out

    @classmethod
    def from_parents(cls, steps: list[Step], edge_kinds: list[str]) -> "StepGraph":
        """Bulk construction for long traces: `steps[i].index == i`, and `edge_kinds[i]` is
        the kind of the edge from `steps[i].parent` into step i."""
        graph = cls()
        for i, step in enumerate(steps):
            if step.index != i:
                raise ValueError(f"step index {step.index} out of order (expected {i})")
        graph.steps = steps
        graph._edges = {(s.parent, s.index): k for s, k in zip(steps, edge_kinds) if s.parent is not None}
        return graph

    @classmethod
    def chain(cls, steps: Iterable[Step]) -> "StepGraph":
        """A linear trace: each step's parent is the step before it."""
        graph = cls()
        for step in steps:
            step.parent = step.index - 1 if step.index > 0 else None
            graph.add(step)
        return graph
