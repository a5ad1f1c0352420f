"""An answer's plan, read as a careful reader would: its steps (each with its character span)
and the span of the text read as the plan.

Which text is the plan -- the first rule that yields one wins:

1. An explicit plan block: `[PLAN]` ... `[PLAN END]`, PlanBench's own answer format (its
   `llm_planning_analysis/utils/text_to_pddl.py::text_to_plan_blocksworld` keeps the text between
   the markers). Everything after the first `[PLAN END]` (a made-up `[STATEMENT]`, an
   explanation) and after `[COST]` is ignored. Inside the block every line counts, as in a plan
   file VAL reads: a line that is not an action is an unreadable step.
2. The last plan section: a heading "Plan:", "### Plan:", "**Final plan:**", "Actions in the
   plan:", "Summary of actions:", "Answer:", "Therefore, the plan is:" ... whose first list
   holds actions (or a heading line that holds the plan itself: "Plan: attack a, succumb a").
   A detailed walk-through followed by the plan again under such a heading: the heading's list
   is the plan; the walk-through's sub-bullets are not.
3. The last list whose items all read as actions.
4. The last list whose items mostly name actions; its other items are unreadable steps, so the
   plan is rejected as unparseable (VAL cannot read such a plan file, reference-semantics 4.4)
   instead of silently changing meaning.
Rules 3 and 4 look at lists under a heading that explains ("Explanation:", "Verification:",
"Action details:") only when no other list qualifies. Nothing else: no plan was found, and
`Extraction.tried` says which text was looked at (the verdict then says so; VAL would run the
empty plan, so the error kind stays `unmet_goal`).

Lists are read the way they render: numbered items stay one list across the details written
under them (indented or not) while the numbers follow on (1, 2, 3 ...); a heading ends every
other list; a list written under an item of a numbered list (its details, or explanation
bullets after the plan) is not a plan of its own, unless the items it is written under name no
action: then the actions written under them are read together as one list ("1. Current State:
...  Action: feast c from a", PlanBench's chain-of-thought format). Lines without a list marker that read as
actions form a list of their own; markdown table rows are items ("| 2 | Put down blue |").

An item is read after markdown (bold, italics, headings, code), LaTeX (`\\( a \\)`,
`\\text{...}`, `$...$`) and odd spaces are removed. "**Unstack red from yellow**: Unstack the red
block from the yellow block." is one action: when an item's heading (its bold start, or the text
before ':' or ' - ') reads as whole actions, the rest explains or restates it. Sentences after
the first count while each is nothing but actions ("Then put the blue block down."), and an
action restated right after itself is one action.

Actions are read as PDDL `(unstack b a)` (numbered or timed `0: (...)`), call style
`Unstack(red block, orange block)` / `Feast(e from b)` (arguments split on commas, else on
"from", "on", "onto", ...), and words in the domain's vocabulary: "unstack the red block from
on top of the blue block", "Feast c from a", "load package_0 into truck_1 at location_1_0".
In answers, also verb forms and paraphrases ("By feasting object b from object d, you ...",
"We then unstack ...", "Put blue down on the table", "Place the red block on top of the blue
block") and object words ("object a", "red", "the red block"). Objects are taken in the order
the step names them (as PlanBench's `get_ordered_objects`).

Arity: PlanBench's rule-based path drops a line whose object count differs from the action's
arity, and VAL crashes on wrong arity (reference-semantics.md 4.3-4.4); here a line that names
an action but cannot be resolved is kept as an unparseable step with its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from validators.planning.strips import Task
from validators.planning.vocab import Vocabulary

_END_MARK = re.compile(r"\[\s*(?:pddl\s+)?plan[\s_]*end\s*\]|\[\s*end[\s_]+(?:of[\s_]+)?plan\s*\]", re.I)
_START_MARK = re.compile(r"\[\s*(?:pddl\s+)?plan\s*\]", re.I)
_COST_MARK = re.compile(r"\[\s*cost\s*\]", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
_RULE_LINE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_MARKER = re.compile(
    r"^(?:(?P<num>\d+)\s*[.):]\s*|\((?P<pnum>\d+)\)\s*|(?P<bullet>[-*+•‣▪◦])\s+"
    r"|steps?\s*(?P<snum>\d+)(?:\s*(?:&|and|-|–|to)\s*\d+)?\s*[:.)\-]?\s*)", re.I)
_LABEL = re.compile(r"^(?:(?:action|move)\s*\d*\s*[:.)\-]\s*|(?:final\s+)?(?:answer|plan)\s*:\s*)", re.I)
_PLAN_LABEL = re.compile(r"^(?:final\s+)?(?:answer|plan)\s*:", re.I)
_TIMED = re.compile(r"^\d+(?:\.\d+)?\s*:\s*(?=\()")
_FILLER = re.compile(
    r"^(?:(?:then|next|first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|lastly|now|and|after\s+that|afterwards)"
    r"\b[,:]?\s+)+", re.I)
_PAREN_GROUP = re.compile(r"\(([^()]*)\)")
_CALL = re.compile(r"^([A-Za-z][\w\-]*(?:[ \t]+[A-Za-z][\w\-]*)?)\s*\(([^()]*)\)")
_CALL_NEXT = re.compile(r"^\s*(?:,|;|→|->|=>|\band\b|\bthen\b)\s*(?:then\s+)?")
_CALL_ARG_SEP = re.compile(r"\s+(?:from(?:\s+on\s+top\s+of)?|on\s+top\s+of|onto|on|to|into|at|in)\s+", re.I)
_PARENTHETICAL = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_NO_PLAN = re.compile(r"no\s+plan\s+(?:is\s+)?possible", re.I)
_NO_PLAN_LOOSE = re.compile(
    r"\b(?:no\s+(?:valid\s+|possible\s+)?(?:plan|solution|sequence(?:\s+of\s+actions)?)\s+(?:exists|is\s+possible|can\s+achieve)"
    r"|(?:is|it's|it\s+is)\s+(?:impossible|not\s+possible)|unsolvable|cannot\s+be\s+achieved)", re.I)

_ODD_SPACE = re.compile(r"[\u00a0\u2000-\u200b\u202f\u205f\u3000\t]")
_LATEX_WRAP = re.compile(
    r"\\(?:text|textbf|textit|texttt|mathrm|mathbf|mathit|mathtt|operatorname|boxed|emph)\s*\{([^{}]*)\}")
_LATEX_ARROW = re.compile(r"\\(?:rightarrow|Rightarrow|to|longrightarrow)\b")
_LATEX_DELIM = re.compile(r"\\[()\[\]]|\$+|\\[,;!]")
_EMPHASIS = re.compile(r"\*\*|__|`|~~|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<![\w])_(?=[^\s_])|(?<=[^\s_])_(?!\w)")
_LEADING_MARKUP = re.compile(r"^\s*(?:#+|>)\s*")
_SPACE_RUN = re.compile(r"\s{2,}")
_NAME_SEP = re.compile(r"[\s_\-]+")
_MENTION_SEP = re.compile(r"[\s_]+")
_SEGMENT_BREAK = re.compile(r"(?:,|;|→|->|=>|\.|\bthen|\band|:)\s*$")
_MD_HEADING = re.compile(r"^#{1,6}\s")
_BOLD_LINE = re.compile(r"(?:\*\*|__)[^*_]+(?:\*\*|__):?")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_SENTENCE_BREAK = re.compile(r"(?<=[a-z\d)*])[.!?]\s+(?=\S)")
_BOLD_START = re.compile(r"^\s*(?:(?:\d+\s*[.):]|[-*+•]|\(\d+\))\s+)?(?:\*\*|__)(.+?)(?:\*\*|__)")
_HEAD_SEP = re.compile(r"\s*:\s+|\s*:$|\s+[-–—]\s+")

# Answer-only readings: how people write the same steps in prose.
_LEAD_IN = re.compile(
    r"^(?:(?:by|we|you|i|let's|let\s+us|so|now|then|next|first|finally|lastly|and|to\s+start|to\s+begin)\b,?\s+"
    r"(?:(?:can|could|will|would|should|must|need\s+to|have\s+to|want\s+to|then|now|first|next|also|finally|"
    r"start\s+by|begin\s+by|proceed\s+to|go\s+on\s+to)\b\s*)*)+", re.I)
_IRREGULAR_FORMS = {
    "put": ("puts", "putting"),
    "overcome": ("overcomes", "overcoming", "overcame"),
    "drive": ("drives", "driving", "drove", "driven"),
    "fly": ("flies", "flying", "flew", "flown"),
}
_PARAPHRASE_VERBS = ("place", "put", "set", "lay", "remove", "take", "lift")
# PlanBench Blocksworld actions in the words models also use for them ("place the red block on
# the table" is put-down, "remove the red block from the blue block" is unstack).
_BLOCKSWORLD_PARAPHRASES = (
    (re.compile(r"^(?:place|put|set|lay)\s+(?P<x>.+?)\s+(?:down\s+)?(?:back\s+)?(?:on|onto)\s+the\s+table\b", re.I),
     "put down {x}"),
    (re.compile(r"^(?:place|put|set)\s+(?P<x>.+?)\s+(?:on\s+top\s+of|onto|on)\s+(?P<y>.+)$", re.I),
     "stack {x} on top of {y}"),
    (re.compile(r"^(?:remove|take|lift)\s+(?P<x>.+?)\s+(?:off\s+of|off|from(?:\s+on\s+top\s+of)?)\s+(?P<y>.+)$", re.I),
     "unstack {x} from on top of {y}"),
)

# Headings under which an answer states its plan (rule 2); the words around them are optional.
_PLAN_HEADING = re.compile(
    r"^(?:(?:so|thus|therefore|hence|finally|in\s+summary|in\s+conclusion|to\s+summarize|overall|in\s+short)\s*,?\s*)?"
    r"(?:(?:the|a|my|our|your)\s+)?"
    r"(?:(?:final|complete|full|correct|corrected|revised|updated|optimal|valid|shortest|most\s+efficient|detailed|"
    r"concise|recommended|proposed|potential|possible|suggested|new|better|improved|alternative|simpler|working|"
    r"successful|modified|adjusted|fixed|resulting|overall|whole|entire|step-by-step|required|pddl)\s+)*"
    r"(?:plan|answer|solution|action\s+plan|plan\s+of\s+actions?|action\s+sequence|sequence\s+of\s+actions|"
    r"sequence|list\s+of\s+actions|plan\s+summary|summary(?:\s+of\s+(?:the\s+)?(?:actions|plan|steps))?|"
    r"(?:the\s+)?actions(?:\s+in\s+the\s+plan)?|steps)"
    r"(?:\s+(?:is|are|would\s+be|is\s+as\s+follows|as\s+follows))?$", re.I)
# Headings of text that explains a plan rather than states it: their lists are read last.
_EXPLAINING = re.compile(
    r"\b(?:explanation|explained|explaining|reasoning|reasons?|verification|verify|verifying|justification|why|"
    r"analysis|analy[sz]ing|breakdown|details?|check|checking|walk-?through|rationale|how\s+it\s+works|key\s+steps)\b",
    re.I)
_ANNOTATION = re.compile(r"^[A-Za-z][\w ]{0,30}:\s")
_NOT_AN_ACTION = "not an action of this domain"
_ALL_ACTIONS = "the last list whose items all read as actions"
_ITEM_MAX = 150
# Lines read per Lexicon, kept for reuse: answers to one problem (a GRPO group, a corpus of
# PlanBench answers) repeat the same lines ("(unstack b a)", "2. put down the red block").
_LINE_MEMO_SIZE = 4096


@dataclass
class PlanStep:
    """One step of an extracted plan. `action`/`args` are None when the line is unparseable."""

    span: tuple[int, int]
    text: str
    action: str | None = None
    args: tuple[str, ...] | None = None
    error: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.action is not None


@dataclass
class Extraction:
    """The plan read from an answer. `span` is the [start, end) of the text read as the plan,
    `source` the rule of the precedence that chose it, `tried` what was looked at when nothing
    was (so a verdict can say plainly that no plan was found, and where it was sought)."""

    steps: list[PlanStep]
    region: str
    candidates: int = 0
    claims_no_plan: bool = False
    notes: list[str] = field(default_factory=list)
    span: tuple[int, int] | None = None
    source: str = ""
    tried: list[str] = field(default_factory=list)


def _norm_name(name: str) -> str:
    return _NAME_SEP.sub("", name.lower())


def _mention_key(word: str) -> str:
    return _MENTION_SEP.sub(" ", word.strip().lower())


def _phrase_regex(words: str) -> str:
    parts = [re.escape(w) for w in re.split(r"[\s_\-]+", words.strip()) if w]
    return r"[\s_\-]*".join(parts)


def _verb_forms(word: str) -> tuple[str, ...]:
    """Inflections of an action verb ("feasting", "unstacks", "picked"), to read prose steps."""
    if word in _IRREGULAR_FORMS:
        return _IRREGULAR_FORMS[word]
    if not word.isalpha() or len(word) < 3:
        return ()
    stem = word[:-1] if word.endswith("e") else word
    plural = word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")
    return plural, stem + "ing", stem + "ed"


class Lexicon:
    """What the extractor matches for one task+vocabulary: action words, object mentions."""

    def __init__(self, task: Task, vocab: Vocabulary) -> None:
        self.task = task
        self.vocab = vocab
        domain = task.domain
        self.actions_by_norm: dict[str, list[str]] = {}
        keyword_to_actions: dict[str, list[str]] = {}
        heads: set[str] = set()
        for name, schema in domain.actions.items():
            self.actions_by_norm.setdefault(_norm_name(name), []).append(name)
            phrases = {name}
            template = vocab.actions.get(name)
            if template:
                head = template.split("{}")[0]
                head = re.sub(r"\b(?:the|a|an)\s*$", "", head.strip(), flags=re.I).strip()
                if head:
                    phrases.add(head)
                    self.actions_by_norm.setdefault(_norm_name(head), [])
                    if name not in self.actions_by_norm[_norm_name(head)]:
                        self.actions_by_norm[_norm_name(head)].append(name)
            for phrase in phrases:
                keyword_to_actions.setdefault(_phrase_regex(phrase).lower(), []).append(name)
                heads.add(phrase.lower())
        # Longest phrases first so "pick up" wins over a hypothetical "pick".
        self.keywords = sorted(keyword_to_actions.items(), key=lambda kv: -len(kv[0]))
        self._phrase_actions = {_norm_name(h): keyword_to_actions[_phrase_regex(h).lower()] for h in heads}
        alternation = "|".join(f"(?:{k})" for k, _ in self.keywords)
        self.keyword_re = re.compile(rf"^(?:{alternation})(?![\w])", re.I)
        self.keyword_anywhere = re.compile(rf"(?<![\w\-])(?:{alternation})(?![\w])", re.I)
        self._forms_re, self._forms = self._inflections(heads)
        self._particles = self._split_phrases(heads)
        words = {_NAME_SEP.split(h)[0] for h in heads} | set(self._forms) | set(_PARAPHRASE_VERBS)
        self.gate = re.compile(r"(?<![\w])(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + ")",
                               re.I)

        mentions: dict[str, str] = {}
        names = set(task.objects) | set(vocab.objects)
        for obj in sorted(names):
            words = [vocab.object_nl(obj), vocab.short_objects.get(obj, "")]
            if vocab.bare_names or len(obj) > 1 or words[0] == obj:
                words.append(obj)
            for word in words:
                if word:
                    mentions.setdefault(_mention_key(word), obj)
        self.lookup = mentions
        self._mention_cache: dict[str, str] = {}
        ordered = sorted(mentions, key=len, reverse=True)
        self.mention_re = re.compile(
            r"(?<![\w\-])(" + "|".join(r"[\s_]+".join(map(re.escape, m.split(" "))) for m in ordered)
            + r")(?![\w\-])", re.I) if ordered else None
        self.static = domain.static_predicates
        self.line_memo: dict[tuple[bool, bool, str], _Line] = {}
        # Each answer line as `_one_list_of_actions` sees it (extract_plan's path for bare lists).
        self.item_memo: dict[str, object] = {}

    @staticmethod
    def _inflections(heads: set[str]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
        """Verb forms of the first word of every action phrase, mapped back to that word."""
        forms: dict[str, str] = {}
        for head in heads:
            first = re.split(r"[\s_\-]+", head)[0]
            for form in _verb_forms(first):
                forms.setdefault(form, first)
        if not forms:
            return None, forms
        alternation = "|".join(sorted(map(re.escape, forms), key=len, reverse=True))
        return re.compile(rf"(^|\b(?:then|and)\s+)({alternation})\b", re.I), forms

    @staticmethod
    def _split_phrases(heads: set[str]) -> list[re.Pattern[str]]:
        """Two-word phrases written around their object: "put blue down", "pick the red block up"."""
        out = []
        for head in sorted(heads):
            words = re.split(r"[\s_\-]+", head)
            if len(words) == 2 and all(w.isalpha() for w in words):
                verb, particle = map(re.escape, words)
                out.append(re.compile(
                    rf"^({verb})\s+((?:(?!{particle}\b)[\w\-]+\s+){{1,4}}?)({particle})\b", re.I))
        return out

    def paraphrase(self, s: str, lead_in: bool = True) -> str:
        """An answer's step in the vocabulary's own words: lead-ins dropped ("By", "We then"),
        verb forms and split phrases undone, Blocksworld paraphrases mapped to PlanBench's wording."""
        if self.keyword_re.match(s):
            return self._forms_re.sub(self._base_form, s) if self._forms_re is not None else s
        if lead_in:
            s = _cut(_LEAD_IN, s)
        if self._forms_re is not None:
            s = self._forms_re.sub(self._base_form, s)
        for pattern in self._particles:
            s = pattern.sub(lambda m: f"{m.group(1)} {m.group(3)} {m.group(2)}", s, count=1)
        if self.vocab.name == "blocksworld" and not self.keyword_re.match(s):
            for pattern, template in _BLOCKSWORLD_PARAPHRASES:
                m = pattern.match(s)
                if m:
                    return template.format(**m.groupdict())
        return s

    def phrase_actions(self, phrase: str) -> list[str]:
        """The actions a matched action phrase names ("pick up" -> pick-up)."""
        found = self._phrase_actions.get(_norm_name(phrase))
        if found is None:
            found = next(acts for k, acts in self.keywords if re.fullmatch(k, phrase, re.I))
        return found

    def implied_last(self, name: str, args: tuple[str, ...]) -> str | None:
        """The last argument of a step that leaves it out when the problem's static facts fix it:
        "drive truck_1 from location_1_0 to location_1_2" is in city_1. PlanBench's
        `text_to_plan_logistics` appends the city the same way (from the first location)."""
        schema = self.task.domain.actions[name]
        if schema.arity != len(args) + 1:
            return None
        last, bound = schema.params[-1], dict(zip(schema.params, args))
        choices: list[set[str]] = []
        for lit in schema.pre:
            atom = lit.atom
            if not lit.positive or atom[0] not in self.static or len(atom) != 3 or last not in atom[1:]:
                continue
            k = atom.index(last)
            partner = atom[3 - k]
            if partner not in bound:
                return None
            choices.append({fact[k] for fact in self.task.problem.init
                            if fact[0] == atom[0] and len(fact) == 3 and fact[3 - k] == bound[partner]})
        if not choices:
            return None
        common = set.intersection(*choices)
        pick = common if common else choices[0]
        return next(iter(pick)) if len(pick) == 1 else None

    def _base_form(self, m: re.Match[str]) -> str:
        return m.group(1) + self._forms[m.group(2).lower()]

    def object_of(self, token: str) -> str | None:
        key = _mention_key(token.strip().strip(".,;:'\"`*"))
        if not key:
            return None
        if key in self.lookup:
            return self.lookup[key]
        for prefix in ("the ", "object ", "block "):
            if key.startswith(prefix) and key[len(prefix):] in self.lookup:
                return self.lookup[key[len(prefix):]]
        return key if key in self.task.objects else None

    def mention_objects(self, text: str) -> list[str]:
        if self.mention_re is None:
            return []
        out = []
        for m in self.mention_re.finditer(text):
            word = m.group(1)
            obj = self._mention_cache.get(word)
            if obj is None:
                obj = self.lookup.get(_mention_key(word))
                if obj is None:
                    continue  # "İ": re's case folding matches it to "i", but lower() makes it two characters
                self._mention_cache[word] = obj
            out.append(obj)
        return out

    def choose(self, candidates: list[str], args: tuple[str, ...]) -> str:
        """Among same-word actions (load-truck / load-airplane), the one whose static type facts hold."""
        if len(candidates) == 1:
            return candidates[0]
        fitting = []
        for name in candidates:
            schema = self.task.domain.actions[name]
            if schema.arity != len(args):
                continue
            ground = self.task.ground(name, args)
            static_ok = all((lit.atom in self.task.problem.init) == lit.positive
                            for lit in ground.pre if lit.atom[0] in self.static and len(lit.atom) == 2)
            if static_ok and not self.task.type_errors(ground):
                fitting.append(name)
        if fitting:
            return fitting[0]
        same_arity = [c for c in candidates if self.task.domain.actions[c].arity == len(args)]
        return (same_arity or candidates)[0]


@dataclass
class _Line:
    start: int
    end: int
    raw: str
    indent: int
    marker: str | None
    number: int | None
    body: str
    steps: list[PlanStep] = field(default_factory=list)
    labelled: bool = False
    clean: str = ""

    @property
    def prose(self) -> bool:
        """A list item that names no action and is commentary (long, "Note: ...", "Effects:"):
        skipped, as a reader skips it, rather than read as an unreadable step."""
        return not self.steps and (len(self.body) > _ITEM_MAX or bool(_ANNOTATION.match(self.body))
                                   or self.body.endswith(":"))


def shifted_steps(steps: list[PlanStep], offset: int) -> list[PlanStep]:
    """Fresh copies of `steps` (a memoised reading's) for the line where it stands."""
    return [PlanStep((step.span[0] + offset, step.span[1] + offset), step.text, step.action, step.args, step.error,
                     step.note) for step in steps]


def _shifted(line: _Line, offset: int) -> _Line:
    return _Line(line.start + offset, line.end + offset, line.raw, line.indent, line.marker, line.number, line.body,
                 shifted_steps(line.steps, offset), line.labelled, line.clean)


def _iter_lines(text: str, lo: int, hi: int) -> Iterator[tuple[int, int, str]]:
    pos = lo
    for line in text[lo:hi].splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        yield pos, pos + len(stripped), stripped
        pos += len(line)


def _split_marker(s: str) -> tuple[str, str | None, int | None]:
    marker, number = None, None
    for _ in range(3):
        m = _MARKER.match(s)
        if not m or m.end() == 0:
            break
        if m.group("bullet"):
            marker = marker or "bullet"
        else:
            marker = "number"
            number = int(m.group("num") or m.group("pnum") or m.group("snum"))
        s = s[m.end():]
    return s, marker, number


def _table_row(s: str) -> tuple[str, str | None, int | None]:
    """A markdown table row as an item: "| 2 | Put down blue | hand empty |" is item 2 whose
    heading is its first cell after the number; header and rule rows hold no action."""
    cells = [c.strip() for c in s.strip().strip("|").split("|")]
    if cells and cells[0].rstrip(".").isdigit():
        return " — ".join(c for c in cells[1:] if c), "number", int(cells[0].rstrip("."))
    return " — ".join(c for c in cells if c.strip("-: ")), None, None


def _cut(pattern: re.Pattern[str], s: str) -> str:
    """`s` without what the anchored `pattern` matches at its start."""
    m = pattern.match(s)
    return s[m.end():].strip() if m else s.strip()


def _clean(raw: str) -> str:
    """The text a reader sees: markdown emphasis, code marks, LaTeX wrappers and odd spaces gone."""
    s = raw if raw.isascii() else _ODD_SPACE.sub(" ", raw)
    if "\\" in s or "$" in s:
        for _ in range(3):
            s = _LATEX_WRAP.sub(r"\1", s)
        s = _LATEX_ARROW.sub("→", s)
        s = _LATEX_DELIM.sub(" ", s)
    if "*" in s or "_" in s or "`" in s or "~" in s:
        s = _EMPHASIS.sub("", s)
    if s.lstrip()[:1] in ("#", ">"):
        s = _LEADING_MARKUP.sub("", s)
    return _SPACE_RUN.sub(" ", s).strip()


class LineReader:
    """Reads one line as plan steps. `answer` turns on the readings of answer prose (verb forms,
    paraphrases, an item's heading read alone); thinking-claim readers leave it off."""

    def __init__(self, lex: Lexicon, explicit: bool, answer: bool = False) -> None:
        self.lex = lex
        self.explicit = explicit
        self.answer = answer

    def read(self, start: int, end: int, raw: str) -> _Line:
        """The line at [start, end): a reading depends on the text and the lexicon only, so it is
        made once at offset 0 and shifted to where the line stands (fresh objects each time)."""
        return _shifted(self.read_at_zero(raw), start)

    def read_at_zero(self, raw: str) -> _Line:
        """The memo's reading of `raw` at offset 0: shared, so callers must not change it."""
        memo = self.lex.line_memo
        key = (self.explicit, self.answer, raw)
        line = memo.get(key)
        if line is None:
            line = memo[key] = self._read(0, len(raw), raw)
            if len(memo) > _LINE_MEMO_SIZE:
                try:
                    del memo[next(iter(memo))]
                except (KeyError, RuntimeError, StopIteration):
                    pass  # another thread evicted first; the memo is shared by the app's threads
        return line

    def _read(self, start: int, end: int, raw: str) -> _Line:
        indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        clean = s = _clean(raw)
        s, marker, number = _table_row(s) if s.startswith("|") else _split_marker(s)
        labelled = bool(_PLAN_LABEL.match(s))
        s = _cut(_LABEL, s)
        if labelled and marker is None:
            s, marker, number = _split_marker(s)
        s = _cut(_FILLER, _cut(_TIMED, s))
        line = _Line(start, end, raw, indent, marker, number, s, labelled=labelled, clean=clean)
        if s and (s[0] == "(" or self.lex.gate.search(s)):
            span, text = (start, end), raw.strip()
            line.steps = self._item_steps(raw, s, span, text) if self.answer else self._steps(s, span, text)
        return line

    def _item_steps(self, raw: str, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        """An answer's item, sentence by sentence: the first sentence as `_first_steps` reads it,
        then each next sentence that is nothing but actions ("Then put the blue block down.")
        until one is not; an action restated right after itself is one action."""
        if s.startswith("(") or _CALL.match(s):
            return self._steps(s, span, text)
        first, *rest = _SENTENCE_BREAK.split(s)
        steps = self._first_steps(raw, first, span, text)
        for sentence in rest if steps else ():
            more = self._steps(_cut(_FILLER, sentence), span, text, lead_in=False)
            if not more or not all(step.ok for step in more):
                break
            steps.extend(more)
        return [step for k, step in enumerate(steps)
                if k == 0 or not step.ok or (step.action, step.args) != (steps[k - 1].action, steps[k - 1].args)]

    def _first_steps(self, raw: str, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        """The item's heading alone when that reads as whole actions (the rest restates or
        explains it), else the rest when the heading names no action, else the whole sentence."""
        cut = self._head_cut(raw, s)
        if cut is not None:
            head, tail = s[:cut].strip(), _HEAD_SEP.sub("", s[cut:], count=1).strip()
            head_steps = self._steps(head, span, text) if head else []
            if head_steps and all(step.ok and not step.note for step in head_steps):
                return head_steps
            if not any(step.ok for step in head_steps) and tail:
                tail_steps = self._steps(tail, span, text)
                if tail_steps and all(step.ok for step in tail_steps):
                    return tail_steps
        return self._steps(s, span, text)

    @staticmethod
    def _head_cut(raw: str, s: str) -> int | None:
        """Where an item's heading ends: after the bold text it starts with, else at the first
        ':' or ' - ' (the reader's cue that what follows explains the heading)."""
        bold = _BOLD_START.match(raw)
        if bold:
            head = _split_marker(_clean(bold.group(1)))[0].rstrip(": ").strip()
            if head and s.startswith(head) and len(head) < len(s.rstrip(": ")):
                return len(head)
        sep = _HEAD_SEP.search(s)
        return sep.start() if sep and sep.start() > 0 else None

    def _steps(self, s: str, span: tuple[int, int], text: str, lead_in: bool = True) -> list[PlanStep]:
        lex = self.lex
        if s.startswith("("):
            return self._pddl(s, span, text)
        calls = self._calls(s, span, text)
        if calls:
            return calls
        if self.answer:
            s = lex.paraphrase(s, lead_in)
        kw = lex.keyword_re.match(s)
        if kw:
            return self._natural(s, span, text)
        return []

    def _calls(self, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        """Call style, one or more on a line: "Unstack(red, blue), PutDown(red)", "Feast(e from b)"."""
        steps: list[PlanStep] = []
        rest = s
        while True:
            call = _CALL.match(rest)
            if not call or _norm_name(call.group(1)) not in self.lex.actions_by_norm:
                return steps
            names = self.lex.actions_by_norm[_norm_name(call.group(1))]
            steps.append(self._resolve(names, _call_args(call.group(2), self.lex), span, text, pddl=True))
            nxt = _CALL_NEXT.match(rest[call.end():])
            if not nxt:
                return steps
            rest = rest[call.end() + nxt.end():]

    def _pddl(self, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        steps = []
        for group in _PAREN_GROUP.finditer(s):
            tokens = group.group(1).split()
            if not tokens:
                continue
            names = self.lex.actions_by_norm.get(_norm_name(tokens[0]))
            if names and tokens[0].lower() in self.lex.task.domain.actions:
                names = [tokens[0].lower()]
            if names:
                steps.append(self._resolve(names, tokens[1:], span, text, pddl=True))
            elif self.explicit or all(self.lex.object_of(t) for t in tokens[1:]) and len(tokens) > 1:
                steps.append(PlanStep(span, text, error=f"unknown action '{tokens[0]}'"))
        if not steps and self.explicit:
            steps.append(PlanStep(span, text, error="not an action of this domain"))
        return steps

    def _resolve(self, names: list[str], tokens: list[str], span: tuple[int, int], text: str,
                 pddl: bool) -> PlanStep:
        """PDDL/call style: one token per argument, so the count must equal the arity (VAL)."""
        args = []
        unknown = []
        for tok in tokens:
            obj = self.lex.object_of(tok)
            if obj is None:
                obj = tok.strip(".,;:").lower()
                unknown.append(obj)
            args.append(obj)
        arities = {self.lex.task.domain.actions[n].arity for n in names}
        if len(args) not in arities:
            schema = self.lex.task.domain.actions[names[0]]
            return PlanStep(span, text, error=(
                f"{schema.name} takes {schema.arity} argument{'s' if schema.arity != 1 else ''} "
                f"{schema.signature()}, the step gives {len(args)}"))
        name = self.lex.choose(names, tuple(args))
        note = f"unknown object{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}" if unknown else None
        return PlanStep(span, text, name, tuple(args), note=note)

    def _natural(self, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        lex = self.lex
        body = _PARENTHETICAL.sub(" ", s)
        starts = [m.start() for m in lex.keyword_anywhere.finditer(body)]
        starts = [p for p in starts if p == 0 or _SEGMENT_BREAK.search(body, 0, p)]
        steps = []
        for i, p in enumerate(starts):
            segment = body[p: starts[i + 1] if i + 1 < len(starts) else len(body)]
            kw = lex.keyword_re.match(segment)
            if not kw:
                continue
            names = lex.phrase_actions(kw.group(0))
            objects = lex.mention_objects(segment[kw.end():])
            fitting = [n for n in names if lex.task.domain.actions[n].arity <= len(objects)]
            if not fitting and self.answer:
                implied = [(n, lex.implied_last(n, tuple(objects))) for n in names]
                implied = [(n, obj) for n, obj in implied if obj is not None]
                if implied:
                    name, obj = implied[0]
                    steps.append(PlanStep(span, text, name, (*objects, obj),
                                          note=f"{lex.vocab.object_nl(obj)} is implied: the step does not name it"))
                    continue
            if not fitting:
                schema = lex.task.domain.actions[names[0]]
                found = ", ".join(lex.vocab.object_nl(o) for o in objects) or "none"
                steps.append(PlanStep(span, text, error=(
                    f"'{kw.group(0).strip()}' needs {schema.arity} object{'s' if schema.arity != 1 else ''} "
                    f"{schema.signature()}; the step names {len(objects)} ({found})")))
                continue
            arity = max(lex.task.domain.actions[n].arity for n in fitting)
            chosen = [n for n in fitting if lex.task.domain.actions[n].arity == arity]
            args = tuple(objects[:arity])
            name = lex.choose(chosen, args)
            note = None
            if len(objects) > arity:
                extra = ", ".join(lex.vocab.object_nl(o) for o in objects[arity:])
                note = f"further objects named in the step were ignored: {extra}"
            steps.append(PlanStep(span, text, name, args, note=note))
        return steps


def _call_args(inner: str, lex: Lexicon) -> list[str]:
    """A call's arguments: comma-separated when there are commas ("red block, orange block"),
    else separated by the vocabulary's joining words ("e from b"), else one object ("red
    block") or one per word ("b a")."""
    if "," in inner:
        return [p.strip() for p in inner.split(",") if p.strip()]
    parts = [p.strip() for p in _CALL_ARG_SEP.split(inner) if p.strip()]
    if len(parts) > 1 or (parts and lex.object_of(parts[0])):
        return parts
    return inner.split()


# --- which text is the plan --------------------------------------------------------------------

@dataclass
class _List:
    """One list as it renders: its items in order, and the list it is written under, if any."""

    items: list[_Line]
    marker: str | None
    indent: int
    section: int
    parent: _List | None = None
    interrupted: bool = False

    @property
    def span(self) -> tuple[int, int]:
        return self.items[0].start, self.items[-1].end

    def counted(self) -> list[_Line]:
        """The items a reader takes as steps; commentary items are skipped, not read as steps."""
        return [item for item in self.items if not item.prose]

    def action_items(self) -> int:
        return sum(1 for item in self.items if any(step.ok for step in item.steps))

    def all_actions(self) -> bool:
        counted = self.counted()
        return bool(counted) and all(item.steps and all(step.ok for step in item.steps) for item in counted)

    def plan_like(self) -> bool:
        """Mostly actions: most items name an action, read or not ("2. Succumb" names one without
        its object), and one reads or all name one; a list whose items mostly name none explains."""
        counted = self.counted()
        named = sum(1 for item in counted if item.steps)
        mostly_named = 2 * (len(counted) - named) < len(counted)
        return named > 0 and mostly_named and (self.action_items() > 0 or named == len(counted))

    def steps(self) -> list[PlanStep]:
        """Every counted item's actions; an item that names none is kept as an unreadable step,
        as VAL would reject the plan file it stands in."""
        out: list[PlanStep] = []
        for item in self.counted():
            out.extend(item.steps or [PlanStep((item.start, item.end), item.raw.strip(), error=_NOT_AN_ACTION)])
        return out


@dataclass
class _Section:
    heading: str
    start: int
    plan: bool
    inline: _List | None = None

    @property
    def explains(self) -> bool:
        return not self.plan and bool(_EXPLAINING.search(self.heading))


def _heading_text(line: _Line) -> str | None:
    """The heading a line is, if it is one: a markdown heading, a line in bold, or a short line
    ending in ':' (never a list item)."""
    if line.marker is not None:
        return None
    body = line.clean
    if body.endswith(":") and len(body) < 120:
        return body.rstrip(":").strip()
    raw = line.raw.strip()
    if raw[:1] in ("#", "*", "_") and (_MD_HEADING.match(raw) or _BOLD_LINE.fullmatch(raw)):
        return body.rstrip(":").strip()
    return None


def _is_plan_heading(heading: str) -> bool:
    """Judged on the heading's last sentence: "However, steps 7 to 14 are not valid. Therefore,
    the correct plan is:" introduces the plan."""
    last = _SENTENCES.split(_PARENTHETICAL.sub(" ", heading).strip(" .*_"))[-1]
    return bool(_PLAN_HEADING.match(_SPACE_RUN.sub(" ", last).strip(" .*_")))


class _Outline:
    """The lists and sections of a region of the answer, built line by line."""

    def __init__(self, reader: LineReader, explicit: bool) -> None:
        self.reader = reader
        self.explicit = explicit
        self.lists: list[_List] = []
        self.sections: list[_Section] = [_Section("", 0, False)]
        self.open: list[_List] = []
        self.other_lines = 0
        self._candidates: list[_List] | None = None

    def build(self, text: str, lo: int, hi: int) -> _Outline:
        for start, end, raw in _iter_lines(text, lo, hi):
            if not raw.strip() or _FENCE.match(raw) or _RULE_LINE.match(raw):
                continue
            self._add(self.reader.read(start, end, raw))
        for lst in self.lists:
            while self.explicit and lst.items and lst.marker is None and not lst.items[-1].steps:
                lst.items.pop()
        self.lists = [lst for lst in self.lists if lst.items]
        return self

    def _add(self, line: _Line) -> None:
        heading = _heading_text(line) if not line.steps else None
        if line.labelled and line.steps and line.marker is None:
            self.open = []
            section = _Section(line.body, line.start, True)
            self.sections.append(section)
            section.inline = self._new_list(line)
            return
        if heading is not None:
            self._heading(line, heading)
            return
        if line.marker is None and not line.steps:
            self._prose(line)
            return
        self._item(line)

    def _heading(self, line: _Line, heading: str) -> None:
        """A heading ends the lists at or right of it; a numbered list left of it may go on, but
        only with its very next number (a walk-through with "Preconditions:" lines between items)."""
        self._close([lst for lst in self.open if lst.indent < line.indent or lst.marker == "number"])
        for lst in self.open:
            lst.interrupted = True
        if line.indent == 0 or not self.open:
            self.sections.append(_Section(heading, line.start, _is_plan_heading(heading)))

    def _close(self, keep: list[_List]) -> None:
        self.open = keep

    def _prose(self, line: _Line) -> None:
        """A line outside any list item: it ends bullet lists and action lines at or right of its
        indent; numbered lists go on (their next number says whether they continue). Inside an
        explicit block a short line is an unreadable item of the plan's lines (VAL reads it)."""
        unmarked = self.open[-1] if self.open and self.open[-1].marker is None else None
        if unmarked is not None and self.explicit and len(line.body) <= _ITEM_MAX and not _ANNOTATION.match(line.body):
            unmarked.items.append(line)
            return
        self.other_lines += 1
        self._close([lst for lst in self.open if lst.marker == "number" or lst.indent < line.indent])

    def _item(self, line: _Line) -> None:
        """A list item (or an unmarked line that reads as actions): it continues the open list of
        its style and indent when its number follows on, else it starts a new list."""
        for k in range(len(self.open) - 1, -1, -1):
            lst = self.open[k]
            if lst.marker == line.marker and abs(lst.indent - line.indent) <= 1 and self._follows(lst, line):
                self._close(self.open[:k + 1])
                lst.items.append(line)
                lst.interrupted = False
                return
        if line.prose:
            self.other_lines += 1
        self._close([lst for lst in self.open if lst.indent < line.indent
                     or (lst.marker == "number" and line.marker != "number" and lst.indent <= line.indent + 1)])
        self._new_list(line)

    @staticmethod
    def _follows(lst: _List, line: _Line) -> bool:
        """Does the item go on with `lst`? A restart (1 again, or a lower number) starts a new
        list; after a heading only the very next number goes on."""
        last = lst.items[-1].number
        if line.number is None or last is None:
            return not lst.interrupted
        return line.number == last + 1 or (line.number > last and not lst.interrupted)

    def _new_list(self, line: _Line) -> _List:
        """A list starting at `line`, written under the innermost open list it is indented under
        (or under a numbered list whose details it writes at the same indent)."""
        parent = next((lst for lst in reversed(self.open) if not lst.interrupted
                       and (lst.indent < line.indent or (lst.marker == "number" and line.marker != "number"))), None)
        lst = _List([line], line.marker, line.indent, len(self.sections) - 1, parent)
        self.lists.append(lst)
        self.open.append(lst)
        return lst

    def candidates(self) -> list[_List]:
        """Lists that may be the plan. A list written under an item of a list whose items are
        actions is a detail; the lists written under the items of a list that names no action
        ("1. Current State: ...\n   Action: feast c from a") are read together as one list
        (those among them that name actions)."""
        if self._candidates is None:
            out: list[_List] = []
            merged: dict[int, _List] = {}
            for lst in self.lists:
                if lst.parent is None:
                    out.append(lst)
                elif lst.parent.action_items() == 0 and any(item.steps for item in lst.items):
                    group = merged.get(id(lst.parent))
                    if group is None:
                        group = merged[id(lst.parent)] = _List(list(lst.items), lst.marker, lst.indent, lst.section)
                        out.append(group)
                    else:
                        group.items.extend(lst.items)
            self._candidates = out
        return self._candidates


def _region(text: str) -> tuple[int, int, str, bool]:
    """[lo, hi) of the part of the answer that holds the plan, its name, and whether it is explicit."""
    end = _END_MARK.search(text)
    if end:
        starts = [m for m in _START_MARK.finditer(text, 0, end.start())]
        lo = starts[-1].end() if starts else 0
        return lo, end.start(), "between [PLAN] and [PLAN END]" if starts else "before [PLAN END]", True
    start = _START_MARK.search(text)
    if start:
        cost = _COST_MARK.search(text, start.end())
        return start.end(), cost.start() if cost else len(text), "after [PLAN]", True
    cost = _COST_MARK.search(text)
    return 0, cost.start() if cost else len(text), "whole answer", False


def _choose(outline: _Outline) -> tuple[_List | None, str]:
    """The plan by the module's precedence: plan sections, then all-action lists, then
    mostly-action lists; lists under a heading that explains the plan come after the others."""
    for section in reversed(outline.sections):
        if not section.plan:
            continue
        if section.inline is not None and section.inline.plan_like():
            return section.inline, f"the plan section '{_short(section.heading)}'"
        index = outline.sections.index(section)
        lists = [lst for lst in outline.candidates() if lst.section == index]
        for lst in lists:
            if lst.plan_like():
                return lst, f"the list under '{_short(section.heading)}'"
    candidates = outline.candidates()
    stated = [lst for lst in candidates if not outline.sections[lst.section].explains]
    for pool, where in ((stated, ""), (candidates, " (under a heading that explains)")):
        whole = [lst for lst in pool if lst.all_actions()]
        if whole:
            return whole[-1], _ALL_ACTIONS + where
        mostly = [lst for lst in pool if lst.plan_like()]
        if mostly:
            return mostly[-1], "the last list whose items mostly read as actions" + where
    return None, ""


def _short(text: str, limit: int = 60) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[:limit - 3] + "..."


_BLOCK_NAMES = {"between [PLAN] and [PLAN END]": "the [PLAN]...[PLAN END] block",
                "before [PLAN END]": "the text before [PLAN END]", "after [PLAN]": "the text after [PLAN]"}


def _tried(outline: _Outline, region: str, explicit: bool) -> list[str]:
    """What was looked at, for the message that says no plan was found."""
    out = [_BLOCK_NAMES.get(region, region)] if explicit else []
    plan_sections = [s.heading for s in outline.sections if s.plan]
    if plan_sections:
        out.append(f"the section{'s' if len(plan_sections) > 1 else ''} under "
                   f"{', '.join(repr(_short(h, 40)) for h in plan_sections[:3])}")
    lists = outline.candidates()
    if lists:
        example = next((item for lst in lists for item in lst.items if item.body), lists[0].items[0])
        out.append(f"{len(lists)} list{'s' if len(lists) > 1 else ''} (e.g. {_short(example.raw.strip(), 60)!r})")
    if outline.other_lines:
        out.append(f"{outline.other_lines} line{'s' if outline.other_lines > 1 else ''} of prose")
    return out


def _one_list_of_actions(text: str, lex: Lexicon) -> Extraction | None:
    """The plan of an answer that is one list and nothing else, or None for any other answer.

    Most answers a trainer scores are a bare list of actions, one per line ("(unstack b a)",
    "1. Put down the red block."). For those the precedence has one outcome, reached here
    without building the outline: no [PLAN]/[COST] mark, so the region is the whole answer;
    every line (blank, fence and rule lines skipped, as `_Outline.build` skips them) reads as
    actions, none is labelled, all share one marker and indent, and numbers go up. Then
    `_Outline` makes exactly one list with every line as an item, under the unnamed first
    section, and `_choose` takes it by rule 3 (`tests/test_answer_reading.py` compares both
    paths on the dev answers).
    """
    if "[" in text and (_END_MARK.search(text) or _START_MARK.search(text) or _COST_MARK.search(text)):
        return None  # each mark starts with "["
    memo = lex.item_memo
    steps: list[PlanStep] = []
    first: int | None = None
    last_end = 0
    shape: tuple[str | None, int] | None = None
    number = -1
    pos = 0
    for chunk in text.splitlines(keepends=True):
        raw = chunk.rstrip("\r\n")
        start, pos = pos, pos + len(chunk)
        item = memo.get(raw, _UNSEEN)
        if item is _UNSEEN:
            item = _list_item(raw, lex)
            _remember(memo, raw, item)
        if item is _SKIPPED:
            continue
        if item is None:
            return None
        marker, indent, n, reads = item
        if shape is None:
            first, shape = start, (marker, indent)
        elif shape != (marker, indent):
            return None
        if marker == "number":
            if n is None or n <= number:
                return None
            number = n
        steps.extend(PlanStep((start + s0, start + s1), text_, action, args, None, note)
                     for s0, s1, text_, action, args, note in reads)
        last_end = start + len(raw)
    if first is None:
        return None
    return Extraction(steps, "whole answer", 1, bool(_NO_PLAN.search(text)), [], span=(first, last_end),
                      source=_ALL_ACTIONS, tried=[])


_UNSEEN = object()
_SKIPPED = object()
_ListItem = tuple[str | None, int, int | None, tuple[tuple[int, int, str, str | None, tuple[str, ...] | None,
                                                           str | None], ...]]


def _list_item(raw: str, lex: Lexicon) -> _ListItem | object | None:
    """What a line is to `_one_list_of_actions`: skipped (blank, fence, rule: `_Outline.build`
    skips them), an item that reads as actions only (marker, indent, number, its steps at offset
    0), or None (anything else: the outline decides)."""
    if not raw.strip() or _FENCE.match(raw) or _RULE_LINE.match(raw):
        return _SKIPPED
    line = LineReader(lex, False, answer=True).read_at_zero(raw)
    if not line.steps or line.labelled or not all(step.ok for step in line.steps):
        return None
    return line.marker, line.indent, line.number, tuple(
        (step.span[0], step.span[1], step.text, step.action, step.args, step.note) for step in line.steps)


def _remember(memo: dict, key: str, value: object) -> None:
    """Bounded as the line memo is, and as safe when the app's threads share it."""
    memo[key] = value
    if len(memo) > _LINE_MEMO_SIZE:
        try:
            del memo[next(iter(memo))]
        except (KeyError, RuntimeError, StopIteration):
            pass


def extract_plan(text: str, lex: Lexicon) -> Extraction:
    """The answer's plan, by the precedence in the module docstring."""
    if not text or not text.strip():
        return Extraction([], "empty answer", tried=["the answer is empty"])
    fast = _one_list_of_actions(text, lex)
    if fast is not None:
        return fast
    return _extract(text, lex)


def _extract(text: str, lex: Lexicon) -> Extraction:
    """`extract_plan` through the outline: every answer (the fast path's answers give the same)."""
    lo, hi, region, explicit = _region(text)
    reader = LineReader(lex, explicit, answer=True)
    outline = _Outline(reader, explicit).build(text, lo, hi)
    chosen, source = _choose(outline)
    tried: list[str] = []
    if chosen is None and explicit and not text[lo:hi].strip():
        tried = _tried(outline, region, explicit)
        outline = _Outline(LineReader(lex, False, answer=True), False).build(text, 0, hi)
        chosen, source = _choose(outline)
        region = f"{region} (empty), then the whole answer before it"
    elif explicit:
        source = f"the [PLAN] block: {source}" if region.startswith("between") else f"{region}: {source}"
    plans = [lst for lst in outline.candidates() if lst.plan_like()]
    notes = []
    if len(plans) > 1 and chosen is not None:
        notes.append(f"the answer states {len(plans)} candidate plans; {source} is checked")
    steps = chosen.steps() if chosen is not None else []
    if chosen is None:
        tried += _tried(outline, region, explicit and not tried)
    no_plan = bool(_NO_PLAN.search(text)) or (not any(s.ok for s in steps) and bool(_NO_PLAN_LOOSE.search(text)))
    return Extraction(steps, region, len(plans), no_plan, notes,
                      span=chosen.span if chosen is not None else None, source=source,
                      tried=tried if chosen is None else [])
