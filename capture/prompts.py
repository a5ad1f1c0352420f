"""Prompt templates per domain: a problem (record-format §1) in, chat messages out.

Each template follows the wording of the source that defined the task, so captured answers are
comparable with published results:

* planbench: PlanBench's zero-shot plan-generation prompt (karthikv792/LLMs-Planning,
  plan-bench/utils/pddl_to_text.py::parse_problem + fill_template with instruction=True; the
  domain introductions and vocabularies are PlanBench's configs, prompt_data/planbench.json).
* illusion_of_thinking: the Tower-of-Hanoi system and user prompts of Shojaee et al. 2025
  ("The Illusion of Thinking", appendix), pegs 0..2, `moves = [[disk, from, to], ...]`.
* searchformer: the maze in SearchFormer's prompt tokens (facebookresearch/searchformer,
  SimpleMazeTokenizer) with A* execution-trace tokens (`create`/`close x y cG cH`) and `plan x y`.
* stream_of_search: the Countdown task as Stream of Search states it (kanishkg/stream-of-search,
  src/countdown.py: combine two numbers at a time, non-negative subtraction, exact division).
* pddl, freeform and generic cover everything else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

Messages = list[dict[str, str]]

_DATA = Path(__file__).with_name("prompt_data") / "planbench.json"
PLANNING_DOMAINS = ("blocksworld", "mystery_blocksworld", "logistics")


class PromptError(ValueError):
    """The problem lacks what the template needs; the message says what."""


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    title: str
    domains: tuple[str, ...]  # empty: any domain
    source: str
    render: Callable[[str, dict[str, Any]], Messages]

    def fits(self, domain: str) -> bool:
        return not self.domains or domain in self.domains


def _user(text: str, system: str | None = None) -> Messages:
    messages = [{"role": "system", "content": system}] if system else []
    return messages + [{"role": "user", "content": text}]


# --- PlanBench -------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _planbench() -> dict[str, Any]:
    return json.loads(_DATA.read_text(encoding="utf-8"))


def _strip_comments(pddl: str) -> str:
    return re.sub(r";[^\n]*", "", pddl)


def _section(pddl: str, keyword: str) -> str | None:
    """The balanced s-expression that starts with `(:keyword`."""
    match = re.search(r"\(\s*:" + keyword + r"\b", pddl, re.I)
    if not match:
        return None
    depth = 0
    for i in range(match.start(), len(pddl)):
        depth += {"(": 1, ")": -1}.get(pddl[i], 0)
        if depth == 0:
            return pddl[match.end():i]
    return None


_ATOM = re.compile(r"\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)")


def pddl_atoms(section: str) -> list[tuple[str, ...]]:
    """Ground atoms in a section, lower-cased (PDDL names are case-insensitive); `and` dropped."""
    atoms = []
    for match in _ATOM.finditer(section):
        name = match.group(1).lower()
        if name in ("and", "not"):
            continue
        atoms.append((name, *match.group(2).lower().split()))
    return atoms


def _object_nl(name: str, vocab: dict[str, Any]) -> str:
    if name in vocab["objects"]:
        return vocab["objects"][name]
    template = vocab["object_patterns"].get(name[:1])
    numbers = re.findall(r"\d+", name)
    if template and template.count("{}") == len(numbers):
        return template.format(*numbers)
    return name


def _atoms_nl(atoms: list[tuple[str, ...]], vocab: dict[str, Any]) -> str:
    # PlanBench sorts atoms by "predicate args" and skips predicates with an empty template
    # (logistics' type predicates); pddl_to_text.py::get_sorted / parse.
    texts = []
    for atom in sorted(atoms, key=lambda a: " ".join(a)):
        template = vocab["predicates"].get(atom[0])
        if not template or template.count("{}") != len(atom) - 1:
            continue
        texts.append(template.format(*(_object_nl(a, vocab) for a in atom[1:])))
    if not texts:
        return ""
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + f" and {texts[-1]}"


def planbench_statement(domain: str, problem: dict[str, Any]) -> tuple[str, str]:
    """(initial conditions, goal) in PlanBench's words."""
    vocab = _planbench()[domain]
    pddl = _strip_comments(str(problem.get("problem_pddl") or ""))
    init, goal = _section(pddl, "init"), _section(pddl, "goal")
    if init is None or goal is None:
        raise PromptError("the problem has no problem_pddl with :init and :goal")
    init_text, goal_text = _atoms_nl(pddl_atoms(init), vocab), _atoms_nl(pddl_atoms(goal), vocab)
    if not goal_text:
        raise PromptError(f"the goal of this problem uses no {domain} predicate PlanBench can word")
    return init_text, goal_text


def _render_planbench(domain: str, problem: dict[str, Any]) -> Messages:
    if domain not in PLANNING_DOMAINS:
        raise PromptError(f"PlanBench prompts exist for {', '.join(PLANNING_DOMAINS)}, not {domain}")
    init, goal = planbench_statement(domain, problem)
    statement = (f"\n[STATEMENT]\nAs initial conditions I have that, {init.strip()}."
                 f"\nMy goal is to have that {goal}."
                 "\n\nWhat is the plan to achieve my goal? Just give the actions in the plan.")
    if _planbench()[domain]["replace_hyphens"]:
        statement = statement.replace("-", " ").replace("ontable", "on the table")
    return _user(_planbench()[domain]["intro"] + statement)


# --- PDDL (any STRIPS domain) ------------------------------------------------------------------

def _render_pddl(domain: str, problem: dict[str, Any]) -> Messages:
    if not problem.get("domain_pddl") or not problem.get("problem_pddl"):
        raise PromptError("the problem needs domain_pddl and problem_pddl")
    return _user(
        "Here is a planning domain and a problem in PDDL.\n\n[DOMAIN]\n" + str(problem["domain_pddl"]).strip()
        + "\n\n[PROBLEM]\n" + str(problem["problem_pddl"]).strip()
        + "\n\nFind a plan that reaches the goal from the initial state. Give only the plan, one ground "
          "action per line in PDDL syntax, e.g. (pick-up a)."
    )


# --- The Illusion of Thinking: Tower of Hanoi --------------------------------------------------

_HANOI_SYSTEM = (
    "You are a helpful assistant. Solve this puzzle for me.\n"
    "There are three pegs and n disks of different sizes stacked on the first peg. The disks are "
    "numbered from 1 (smallest) to n (largest). Disk moves in this puzzle should follow:\n"
    "1. Only one disk can be moved at a time.\n"
    "2. Each move consists of taking the upper disk from one stack and placing it on top of another stack.\n"
    "3. A larger disk may not be placed on top of a smaller disk.\n"
    "The goal is to move the entire stack to the third peg.\n"
    "Example: With 3 disks numbered 1 (smallest), 2, and 3 (largest), the initial state is "
    "[[3, 2, 1], [], []], and a solution might be:\n"
    "moves = [[1 , 0 , 2] , [2 , 0 , 1] , [1 , 2 , 1] , [3 , 0 , 2] , [1 , 1 , 0] , [2 , 1 , 2] , [1 , 0 , 2]]\n"
    "This means: Move disk 1 from peg 0 to peg 2, then move disk 2 from peg 0 to peg 1, and so on.\n"
    "Requirements:\n"
    "- When exploring potential solutions in your thinking process, always include the corresponding "
    "complete list of moves.\n"
    "- The positions are 0-indexed (the leftmost peg is 0).\n"
    "- Ensure your final answer includes the complete list of moves in the format:\n"
    "moves = [[disk id, from peg, to peg], ...]"
)


def _render_hanoi(domain: str, problem: dict[str, Any]) -> Messages:
    n = problem.get("disks")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise PromptError("the problem needs 'disks', a positive whole number")
    stack = {1: "1", 2: "2 (bottom), 1 (top)"}.get(n, f"{n} (bottom), . . . 2, 1 (top)")
    user = (
        f"I have a puzzle with {n} disks of different sizes with\n"
        "Initial configuration:\n"
        f"- Peg 0: {stack}\n- Peg 1: (empty)\n- Peg 2: (empty)\n\n"
        "Goal configuration:\n"
        f"- Peg 0: (empty)\n- Peg 1: (empty)\n- Peg 2: {stack}\n\n"
        "Rules:\n"
        "- Only one disk can be moved at a time.\n"
        "- Only the top disk from any stack can be moved.\n"
        "- A larger disk may not be placed on top of a smaller disk.\n\n"
        "Find the sequence of moves to transform the initial configuration into the goal configuration."
    )
    return _user(user, _HANOI_SYSTEM)


# --- SearchFormer: mazes -----------------------------------------------------------------------

_MAZE_TOKENS = re.compile(r"(start|goal|wall)\s+(\d+)\s+(\d+)")


def maze_prompt_tokens(problem: dict[str, Any]) -> tuple[str, int, int]:
    """SearchFormer's prompt ("start x y goal x y wall x y ...") and the grid size."""
    if isinstance(problem.get("prompt"), str) and problem["prompt"].strip():
        tokens = " ".join(problem["prompt"].split())
        if tokens.startswith("query "):
            tokens = tokens[len("query "):]
    elif all(k in problem for k in ("start", "goal")):
        parts = [f"start {problem['start'][0]} {problem['start'][1]}", f"goal {problem['goal'][0]} {problem['goal'][1]}"]
        walls = sorted((tuple(w) for w in problem.get("walls") or []), key=lambda c: (c[1], c[0]))
        parts += [f"wall {x} {y}" for x, y in walls]
        tokens = " ".join(parts)
    else:
        raise PromptError("the maze problem needs 'prompt' (SearchFormer tokens) or start, goal and walls")
    cells = [(int(x), int(y)) for _, x, y in _MAZE_TOKENS.findall(tokens)]
    if not any(kind == "start" for kind, _, _ in _MAZE_TOKENS.findall(tokens)):
        raise PromptError("the maze prompt has no start cell")
    width = int(problem.get("width") or (max(x for x, _ in cells) + 1))
    height = int(problem.get("height") or (max(y for _, y in cells) + 1))
    return tokens, width, height


_QUERY = re.compile(r"^\s*query\s+(.*?)\s+reasoning\b", re.S)


def problem_of(domain: str, problem: dict[str, Any], trace: str = "") -> dict[str, Any]:
    """The problem to prompt with. A Beyond-Semantics maze record keeps its problem inside the
    trace (`query <prompt tokens> reasoning ...`, record-format §1); it is taken from there."""
    if domain == "maze" and not problem:
        match = _QUERY.match(trace)
        if match:
            return {"prompt": " ".join(match.group(1).split())}
    return problem


def _render_searchformer(domain: str, problem: dict[str, Any]) -> Messages:
    tokens, width, height = maze_prompt_tokens(problem)
    return _user(
        f"A maze on a {width} x {height} grid is given in SearchFormer's token format: `start x y` is the start "
        "cell, `goal x y` the goal cell and each `wall x y` a wall; x is the column and y the row, both "
        "counted from 0. From a cell you may move up (y+1), down (y-1), left (x-1) or right (x+1) to a cell "
        "inside the grid that is not a wall; every move costs 1.\n\n"
        f"{tokens}\n\n"
        "Find a shortest path from start to goal with A* search, using the Manhattan distance to the goal "
        "as the heuristic. Write the search as an A* execution trace: `create x y cG cH` when a cell is added "
        "to the open set and `close x y cG cH` when it is expanded, where G is the cost from the start and H "
        "the Manhattan distance to the goal (for example `create 0 0 c0 c4`). Stop after closing the goal. "
        "Then give the path as `plan x y` tokens from the start to the goal.\n"
        "Your final answer must be the trace followed by the plan, tokens separated by spaces, e.g.\n"
        "create 0 0 c0 c2 close 0 0 c0 c2 ... close 0 2 c4 c0 plan 0 0 plan 1 0 ... plan 0 2"
    )


# --- Stream of Search: Countdown ---------------------------------------------------------------

def _render_countdown(domain: str, problem: dict[str, Any]) -> Messages:
    numbers, target = problem.get("numbers"), problem.get("target")
    if not isinstance(numbers, list) or not numbers or not all(isinstance(n, int) for n in numbers) \
            or not isinstance(target, int):
        raise PromptError("the problem needs 'numbers' (whole numbers) and 'target'")
    return _user(
        f"Make {target} with the numbers {numbers} using standard arithmetic operations. Combine two of the "
        "available numbers at a time with +, -, * or /; the result replaces them. A subtraction must not "
        "give a negative number and a division must come out even. Each given number can be used once. "
        f"Continue until the last number is {target}.\n"
        "Give your final answer as the list of operations in order, in the form "
        "['34-28=6', '14+6=20', ...]."
    )


# --- Free-form and anything else ---------------------------------------------------------------

def _render_freeform(domain: str, problem: dict[str, Any]) -> Messages:
    question = problem.get("question") or problem.get("prompt")
    if not isinstance(question, str) or not question.strip():
        raise PromptError("the problem needs a 'question'")
    return _user(question.strip())


def _render_generic(domain: str, problem: dict[str, Any]) -> Messages:
    if not problem:
        raise PromptError("the record has no problem to send")
    body = json.dumps(problem, ensure_ascii=False, indent=2, sort_keys=True)
    return _user(f"Solve this {domain.replace('_', ' ')} problem, given as JSON:\n\n{body}\n\n"
                 "Think it through, then give your final answer.")


TEMPLATES: tuple[PromptTemplate, ...] = (
    PromptTemplate("planbench", "PlanBench zero-shot plan generation", PLANNING_DOMAINS,
                   "PlanBench (karthikv792/LLMs-Planning), task 1 zero-shot", _render_planbench),
    PromptTemplate("pddl", "PDDL domain and problem, plan in PDDL", ("pddl", *PLANNING_DOMAINS),
                   "raw PDDL", _render_pddl),
    PromptTemplate("illusion_of_thinking", "The Illusion of Thinking: Tower of Hanoi", ("hanoi",),
                   "Shojaee et al. 2025, appendix prompts", _render_hanoi),
    PromptTemplate("searchformer", "SearchFormer maze with A* trace tokens", ("maze",),
                   "SearchFormer (facebookresearch/searchformer) token format", _render_searchformer),
    PromptTemplate("stream_of_search", "Stream of Search Countdown", ("countdown",),
                   "Stream of Search (kanishkg/stream-of-search) task statement", _render_countdown),
    PromptTemplate("freeform", "The question as it is", ("freeform", "last_letter", "multiplication"),
                   "the record's question (generated problems word it as Wei et al. 2022 / Dziri et al. 2023)",
                   _render_freeform),
    PromptTemplate("generic", "The problem as JSON", (), "Stepscope", _render_generic),
)


def templates_for(domain: str) -> list[PromptTemplate]:
    """Templates that fit a domain, the domain's own first, the generic one last."""
    return [t for t in TEMPLATES if t.domains and t.fits(domain)] + [t for t in TEMPLATES if not t.domains]


def get_template(name: str) -> PromptTemplate | None:
    return next((t for t in TEMPLATES if t.name == name), None)


def render(domain: str, problem: dict[str, Any], template: str | None = None) -> tuple[PromptTemplate, Messages]:
    """Messages for a problem with the named template (default: the domain's first)."""
    choices = templates_for(domain)
    chosen = get_template(template) if template else choices[0]
    if chosen is None:
        raise PromptError(f"unknown prompt template {template!r}; known: {', '.join(t.name for t in TEMPLATES)}")
    if not chosen.fits(domain):
        raise PromptError(f"template {chosen.name!r} is for {', '.join(chosen.domains)}, not {domain}")
    return chosen, chosen.render(domain, problem)
