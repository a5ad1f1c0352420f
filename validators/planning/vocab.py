"""Natural-language vocabularies of planning domains: how actions, atoms and objects are worded.

The built-in ones are PlanBench's (`vocab/planbench.json`, taken from
karthikv792/LLMs-Planning `llm_planning_analysis/configs/<domain>.yaml`, MIT, see
`vocab/LICENSE`); they define PlanBench's task-3 wording ("the blue block is clear") that
messages use, and the words plan extraction recognises. Models word facts in other ways too
("nothing is on top of red", "orange is in hand"): `vocab/phrasings.json` (ours) lists such
extra templates per predicate, read by the fact reader only; a key "not P" lists words for P's
absence ("the {} is covered": not clear). A custom `pddl` problem can bring
its own (`problem.vocabulary`, same keys, `phrasings` included); without one, PDDL names are
used as words.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from validators.planning.strips import Atom, atom_text

_VOCAB_FILE = Path(__file__).with_name("vocab") / "planbench.json"
_PHRASINGS_FILE = Path(__file__).with_name("vocab") / "phrasings.json"
_PATTERN_NAME = re.compile(r"^([a-z]+)(\d+(?:-\d+)*)$")


@dataclass(frozen=True)
class Vocabulary:
    """Templates with `{}` slots, PlanBench style.

    `objects` maps PDDL names to words ("a" -> "red block"); `object_patterns` maps a name
    prefix to a template filled with the name's numbers ("l" + "1-0" -> "location_1_0");
    `short_objects` are extra words accepted when reading ("red"). `bare_names`: accept bare
    PDDL object names in prose (mystery blocksworld's "feast a from b"). `phrasings`: further
    templates of a predicate that facts are read in (never used to word a message).
    """

    name: str
    actions: dict[str, str] = field(default_factory=dict)
    predicates: dict[str, str] = field(default_factory=dict)
    objects: dict[str, str] = field(default_factory=dict)
    object_patterns: dict[str, str] = field(default_factory=dict)
    short_objects: dict[str, str] = field(default_factory=dict)
    bare_names: bool = True
    phrasings: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def object_nl(self, name: str) -> str:
        if name in self.objects:
            return self.objects[name]
        match = _PATTERN_NAME.match(name)
        if match and match.group(1) in self.object_patterns:
            template = self.object_patterns[match.group(1)]
            numbers = match.group(2).split("-")
            if template.count("{}") == len(numbers):
                return template.format(*numbers)
        return name

    def atom_nl(self, atom: Atom) -> str:
        template = self.predicates.get(atom[0])
        args = [self.object_nl(a) for a in atom[1:]]
        if template and template.count("{}") == len(args):
            return template.format(*args)
        if len(args) == 1:
            return f"{args[0]} is a {atom[0]}"
        return atom_text((atom[0], *args))

    def literal_nl(self, atom: Atom, positive: bool) -> str:
        text = self.atom_nl(atom)
        return text if positive else f"it is not the case that {text}"

    def action_nl(self, name: str, args: tuple[str, ...]) -> str:
        template = self.actions.get(name)
        words = [self.object_nl(a) for a in args]
        if template and template.count("{}") == len(words):
            return template.format(*words)
        return " ".join([name, *words])


def _planbench(name: str, raw: dict[str, Any], phrasings: dict[str, list[str]]) -> Vocabulary:
    encoded = raw.get("encoded_objects", {})
    patterns = {k: v for k, v in encoded.items() if "{}" in v}
    exact = {k: v for k, v in encoded.items() if "{}" not in v}
    return Vocabulary(
        name=name,
        actions=dict(raw.get("actions", {})),
        predicates=dict(raw.get("predicates", {})),
        objects=exact,
        object_patterns=patterns,
        short_objects=dict(raw.get("encoded_objects_compact", {})),
        bare_names=name != "blocksworld",
        phrasings={pred: tuple(templates) for pred, templates in phrasings.items()},
    )


@lru_cache(maxsize=None)
def builtin_vocabulary(name: str) -> Vocabulary:
    """PlanBench's vocabulary of `blocksworld`, `mystery_blocksworld` or `logistics`."""
    data = json.loads(_VOCAB_FILE.read_text(encoding="utf-8"))
    if name not in data:
        raise KeyError(f"no built-in vocabulary {name!r}")
    phrasings = json.loads(_PHRASINGS_FILE.read_text(encoding="utf-8")).get(name, {})
    return _planbench(name, data[name], phrasings)


def custom_vocabulary(raw: Any) -> tuple[Vocabulary, list[str]]:
    """A record's `problem.vocabulary`; returns the vocabulary and what was ignored in it."""
    problems: list[str] = []
    if not isinstance(raw, dict):
        return Vocabulary("pddl"), ["problem.vocabulary is not an object; PDDL names are used"] if raw else []

    def mapping(key: str, *alts: str) -> dict[str, str]:
        for k in (key, *alts):
            value = raw.get(k)
            if value is None:
                continue
            if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
                return {str(a).lower(): v for a, v in value.items()}
            problems.append(f"problem.vocabulary.{k} must map names to strings; ignored")
        return {}

    encoded = mapping("objects", "encoded_objects")
    phrasings: dict[str, tuple[str, ...]] = {}
    raw_phrasings = raw.get("phrasings")
    if isinstance(raw_phrasings, dict) and all(
            isinstance(v, list) and all(isinstance(t, str) for t in v) for v in raw_phrasings.values()):
        phrasings = {str(p).lower(): tuple(v) for p, v in raw_phrasings.items()}
    elif raw_phrasings is not None:
        problems.append("problem.vocabulary.phrasings must map predicates to lists of templates; ignored")
    return Vocabulary(
        name="pddl",
        actions=mapping("actions"),
        predicates=mapping("predicates"),
        objects={k: v for k, v in encoded.items() if "{}" not in v},
        object_patterns={k: v for k, v in encoded.items() if "{}" in v},
        short_objects=mapping("short_objects", "encoded_objects_compact"),
        bare_names=True,
        phrasings=phrasings,
    ), problems
