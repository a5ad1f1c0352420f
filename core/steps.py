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
    """Steps in trace order plus a networkx DiGraph of how they relate.

    Node ids are step indices. A linear trace is a chain of "next" edges; a search trace is
    the tree of "child" edges; a backtrack adds an edge back to the node it returns to.
    """

    def __init__(self, steps: Iterable[Step] = ()) -> None:
        self.steps: list[Step] = []
        self.graph: nx.DiGraph = nx.DiGraph()
        for step in steps:
            self.add(step)

    def add(self, step: Step, edge_kind: str = "next") -> Step:
        if step.index != len(self.steps):
            raise ValueError(f"step index {step.index} out of order (expected {len(self.steps)})")
        self.steps.append(step)
        self.graph.add_node(step.index)
        if step.parent is not None:
            self.graph.add_edge(step.parent, step.index, kind=edge_kind)
        return step

    def link(self, src: int, dst: int, kind: str) -> None:
        if kind not in EDGE_KINDS:
            raise ValueError(f"unknown edge kind {kind!r}")
        self.graph.add_edge(src, dst, kind=kind)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __getitem__(self, index: int) -> Step:
        return self.steps[index]

    def edges(self) -> list[tuple[int, int, str]]:
        return [(u, v, d.get("kind", "next")) for u, v, d in self.graph.edges(data=True)]

    @classmethod
    def chain(cls, steps: Iterable[Step]) -> "StepGraph":
        """A linear trace: each step's parent is the step before it."""
        graph = cls()
        for step in steps:
            step.parent = step.index - 1 if step.index > 0 else None
            graph.add(step)
        return graph
