"""How models write about plans in thinking text: the sentence splitter and the cue words the
claim reader looks for (requirements, effects, states, verdicts, rejections, hedges, restarts).

Kept apart from the reader so the vocabulary can be read, tested and extended in one place; each
pattern is compiled once. Patterns match English prose as DeepSeek-R1 writes it on PlanBench
(../shared/data/dev/planbench_r1_thinking.jsonl); they decide which sentences make claims, never
whether a claim is true (that is the STRIPS state's job, claim_reader.py).
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from core.gates import AnyOf, Gated, lowered_last

# A sentence ends at . ! or ? before a space, closing quotes or brackets included ('... Harmony."');
# a full stop inside a word or number ("e.g.", "3.5") does not end it. Before, a sentence whose
# stop was followed by a quote could not end, and the text up to it was never read (1.2% of the
# R1 dev traces' text; independent review, e338...).
_STOP = r"[.!?]+[)\]\"'”’*_]*(?=\s|$)"
SENT = re.compile(r"(?:[ \t]*[*_#>-]*[ \t]*(?:(?:step|action)[ \t]*\d{1,3}[ \t]*[*_]*[ \t]*[:.)\-]|\d{1,3}[ \t]*[.)])(?!\d))?"
                   rf"[^.!?\n]*(?:(?:\([^()\n]*\)|(?!{_STOP})[.!?]+)[^.!?\n]*)*(?:{_STOP}|\n|$)", re.I)
ITEM = re.compile(r"^\s*[*_#>]*\s*(?:(?:then|so|now|next|and|alternatively|instead|or),?\s+)?(?:(?:step|action)\s*(?P<s>\d{1,3})\s*[*_]*\s*[:.)\-]|(?P<n>\d{1,3})\s*[.)](?!\d))\s*[*_]*\s*", re.I)
HEAD_FILLER = re.compile(
    r"^(?:\s*(?:[-*•]\s*|so|ok(?:ay)?|and|then|now|next|first(?:ly)?|second(?:ly)?|finally|after that|afterwards"
    r"|let's|let me|let us|we(?:'ll| will| can| could| should| need to| must)?|i(?:'ll| will| can| could| should)?"
    r"|try(?:ing)?(?: to)?|say|choose(?: to)?|pick|do(?:ing)?|perform(?:ing)?|apply(?:ing)?|use|action|(?:the )?next action(?: is)?|then do"
    r"|(?:step|action) \d{1,2}\s*[:.)-])(?:\b|(?<=[:.)-]))[,:]?\s*)+",
    re.I)
DONE_BEFORE = re.compile(r"\b(?:after(?: doing| performing)?|perform(?:ing)?|do(?:ing)?|once (?:we|i) (?:do|have done))\s+"
                          r"(?:the\s+)?(?:initial\s+|first\s+|that\s+|this\s+)?$|\bafter (?:step|action) \d{1,2}\s*[(:]\s*$|\bafter (?:step|action) \d{1,2}\s*\([^()]*\) and (?:step|action) \d{1,2}\s*\(\s*$",
                          re.I)
COND = re.compile(r"\b(?:if|would|suppose|supposing|assum(?:e|ing)|whether|could we|can we|should we|to (?:do|use|perform))\b",
                   re.I)
RESTART = re.compile(r"^\W*(?:(?:so|ok(?:ay)?|let's|let me|now|then|alternatively),?\s+)*(?:(?:re)?start(?:ing)? (?:over|again|from)|from scratch"
                      r"|from the (?:start|beginning)|from the initial state|back to the (?:start|initial state))"
                      r"|\b(?:start(?:ing)? over|from scratch|begin again)\b", re.I)
INITIAL = re.compile(r"\b(?:in the initial state|initially|initial state(?: has| is|:)|initial conditions?(?: are| have|:)"
                     r"|(?:right )?(?:from|at) the (?:very )?(?:start|beginning|outset)\b(?! of))", re.I)
# "Unstack blue from red is available right from the start": an action said doable in so many words
ACTION_OK = re.compile(r"\s*(?:(?:is|are|would be|will be|should be)\s+(?:also\s+|now\s+|still\s+|then\s+|indeed\s+|definitely\s+"
                       r"|clearly\s+|already\s+)?(?:available|possible|allowed|doable|applicable|legal|valid|permitted|fine|okay|ok|safe"
                       r"|(?:an|a valid|a legal) (?:option|move))|works|:\s*(?:possible|allowed|doable|legal|valid|fine|okay|ok))\b", re.I)
EFFECT_LEAD = re.compile(r"^\W*(?:(?:then|so),?\s+)?(?:the\s+)?(?:effects?|adds?|added|removes?|removed|deletes?|deleted|after (?:this|that|it)\b"
                          r"|after\s*:|then,? it|post\b|result|(?:but |and |so )?(?:that|this|it) (?:would |will )?(?:removes?|adds?|gives?"
                          r"|deletes?|sets?|generates?|creates?|brings?|makes?|leaves?|keeps?|puts|places|clears))",
                          re.I)


def filler_only(head: str) -> bool:
    """Is `head` nothing but filler words ("So, let's", "2. Then")? An empty head, the usual case
    (the action opens its sentence), is answered without the long alternation."""
    if not head.strip(" *_"):
        return True
    filler = HEAD_FILLER.match(head)  # anchored and never empty: `sub` would remove this one match
    return filler is not None and not head[filler.end():].strip(" *_")


# "2. Now, to get Harmony back, Succumb a.": the item's action, its purpose said first (review flag 26).
PURPOSE_HEAD = re.compile(r"(?:in order )?to (?:get|restore|generate|create|make|produce|gain|obtain|bring|reset|regain|have|do (?:that|this|so))\b"
                          r"[^,.;:()\n]{0,60},\s*", re.I)


def purpose_then_action(head: str) -> bool:
    """Is `head` filler and a purpose clause ("Now, to get Harmony back, ") before an action?"""
    return "to " in head.lower() and PURPOSE_HEAD.fullmatch(HEAD_FILLER.sub("", head, count=1).lstrip(" *_")) is not None


# Cheap gates in front of the long alternations (most sentences need none of them).
NO_WORDS = re.compile(r"\bno\b|n't|\bnot\b|impossib|unable|\bneed|\bbut\b|\bcannot\b", re.I)
TAIL_WORDS = re.compile(r"\b(?:removed|deleted|gone|false|added|true|present|created)\b", re.I)


# NO_WORDS in two parts: the alternatives that are bare strings ("n't") need no regex to be found.
_NO_BOUNDED = re.compile(r"\bno\b|\bnot\b|\bneed|\bbut\b|\bcannot\b", re.I)


def has_no_words(sentence: str) -> bool:
    """`NO_WORDS.search(sentence)` as a yes/no: the cheap gate of `says_no`, itself asked of most
    sentences (its words "no" and "but" are in many)."""
    low = lowered_last(sentence)  # kept for the AnyOf that follows
    if low is None:
        return NO_WORDS.search(sentence) is not None
    if "n't" in low or "impossib" in low or "unable" in low:
        return True
    return ("no" in low or "need" in low or "but" in low) and _NO_BOUNDED.search(sentence) is not None


@functools.lru_cache(maxsize=16)
def says_no(sentence: str) -> bool:
    """Remembered for the last few sentences: the reader asks it of a sentence twice (for the
    action it names and for the frame it judges)."""
    return has_no_words(sentence) and _SAYS_NO.found_in(sentence)


RESTART_WORDS = ("start", "scratch", "initial", "beginning", "again")
# "After putting red down, orange is clear.": the state after the action the clause names, which
# may be an earlier one than the action under discussion (flag 0 of the unannotated R1 review).
AFTER_CLAUSE = re.compile(r"\W*(?:(?:alternative|another|new|different)(?:\s+\w+)?\s*:\s*)?(?:(?:so|now|then|and|but|wait),?\s+)*after\s+(?!(?:step|action)\s+\d)"
                          r"(?P<what>[^,.;:\n]{1,60}?)\s*,", re.I)
# "If Succumb(c) adds Planet(c), then ... Planet(a) would be false.": a supposition about what the
# action does; what follows from it is not a claim about the action (independent review, 6e3f...).
IF_EFFECT = re.compile(r"\W*(?:(?:but|so|and|now|wait),?\s+)*(?:if|suppose|supposing|assuming)\b[^,.;:\n]*"
                       r"\b(?:adds?|removes?|gives?|sets?|generates?|creates?|deletes?|produces?)\b", re.I)
# "Harmony is removed by Feast": the passive names the action that did it.
BY_AGENT = re.compile(r"\s*(?:(?:is|are|was|were|has been|have been|had been|gets?|got)\s+)?(?:\w+\s+)?"
                      r"(?:removed|deleted|added|created|restored|consumed|set|generated|produced|given)\s+by\s+(?:the\s+)?(\w+)", re.I)
# "Now, to get b craves a, ...", "we need to have Province a": what is wanted, not what holds
# (fourth independent review, 371a...).
GOAL_BEFORE = re.compile(r"\b(?:to|need|needs|want|wants)\s+(?:get|make|create|achieve|have|reach|obtain|produce|generate)"
                         r"\s+(?:the\s+)?(?:fact\s+)?(?:that\s+)?$", re.I)
# "Another approach: Use Attack first. Initial state: Province a, ...": a fresh start from the initial
# state (fourth independent review, aad2...), unlike "Initial state: ..." recalled inside a walk.
NEW_APPROACH = re.compile(r"^\W*(?:another|alternative|a different|new)\s+(?:approach|idea|plan|way|attempt)\b|^\W*alternatively\b", re.I)
INITIAL_HEADING = re.compile(r"^\W*(?:the\s+)?initial\s+state\s*(?:is\s*)?:", re.I)
# "To restore Harmony, Succumb a (step 2):": a purpose, then the step it takes (fourth review, aad2...)
STEP_TAG = re.compile(r"\s*\(\s*(?:step|action)\s+\d{1,2}\s*\)\s*:", re.I)
# "Wait, initial conditions: red is on orange, ... So orange is not clear because red is on top.":
# the paragraph recalls the initial state (Blocksworld review, 6ccdb4...).
INITIAL_RECALL = re.compile(r"\W*(?:(?:wait|so|ok(?:ay)?|let's see|let me (?:check|recheck|re-check)(?: again)?|again),?\s+)*"
                            r"(?:the\s+)?(?:initial(?:ly)?\s+(?:conditions?|state|setup)\s*(?:are|is|were|was)?\s*:|initially\s*[:,])", re.I)
CHANGE_WORD = re.compile(r"\b(?:no longer|becomes?|became|now|after|then|anymore|any more)\b", re.I)
NOW_LEAD = re.compile(r"\W*(?:(?:so|and|but|ok(?:ay)?),?\s+)?now\b[\s,]*(?:the\s+)?$", re.I)
STATE_HEADING = re.compile(r"(?:^|(?<=\W))(?:(?:the\s+)?(?:current|new|resulting)\s+)?state(?:\s+is)?\s*:", re.I)
# "I could also pick up red at this point, since ...": "could" claims it is doable only with a time
# or a reason ("Alternatively, I could stack red on blue." proposes)
COULD_DO = re.compile(r"(?<!so that )(?<!such that )\b(?:we|i|you) could (?:(?:now|then|also|still|just|already|as well|easily) )*"
                      r"(?:do |perform |apply |use )?(?:the )?$", re.I)
REASON_AFTER = re.compile(r"\b(?:since|because|as)\b", re.I)
# "So I can stack blue on red now", "right away", "can be done next": doable in the state as it is
DOABLE_NOW = re.compile(r"\b(?:now|right away|straight away|immediately|at (?:this|that) (?:point|stage)|next|here(?!'s| is))\b", re.I)
# "Attack a would be possible as well, since Planet a and Harmony hold", "Picking up blue would
# also be allowed right now": a "would" that asserts, with a reason or a time (fifth planted set)
WOULD_OK = re.compile(r"\s*(?:would|should)\s+(?:also\s+|still\s+|then\s+)?be\s+(?:also\s+)?(?:possible|allowed|fine|doable|okay|ok|legal|valid)\b", re.I)
STILL = re.compile(r"\b(?:still|yet|anymore|any more|remains?|stays?)\b", re.I)
POST_CUE = re.compile(r"\b(?:now|after (?:that|this|it|which)|afterwards|as a result|the (?:new |resulting )?state is"
                      r"|at (?:this|that) point|by now|right now)\b", re.I)
EARLIER_STEPS = re.compile(r"\b(?:initial|first|original|earlier|previous)\b", re.I)
EFFECT_WORD = re.compile(r"\b(?:effects?|adds?|removes?|deletes?|results?|outcomes?)\b", re.I)
THIS_ONE = re.compile(r"(?:(?:doing|performing|executing|applying|taking)\b\s*)?"
                      r"(?:(?:this|that|these|those|the)(?:\s+(?:action|step|move|one)s?)?\b|it\b|so\b|them\b)?\s*", re.I)
AFTER_STEP_HEAD = re.compile(r"^\W*(?:(?:so|now|then|alternatively|wait),?\s+)*after (?:step|action) (\d{1,2})\b", re.I)
CLAUSE_LEAD = re.compile(r"^\W*(?:after|before|once|while|by)\b", re.I)
CLAUSE_SPLIT = re.compile(r"[.,;:!?\n]")
IN_STEP = re.compile(r"\b(?:in|at|by) step \d", re.I)
# "step 6 can't be done" names the step rejected; "after step 2, Feast c from a (can't)" names a time
# (371a25...: the rejection was pinned on step 2)
STEP_NUM = re.compile(r"(?<!after )(?<!before )(?<!since )(?<!until )\bstep (\d{1,2})\b", re.I)
# "Planet(a) becomes false" and "set ... Pain(c) to false" say what an action removes, "Planet(c)
# becomes true" what it adds (independent review of unannotated R1 traces, 6e3f...: both were read
# as additions from the "becomes true" or "set" before them).
TAIL = re.compile(r"^(?:\s*(?:,|and|,\s*and)\s*[A-Za-z]+(?:\s*\(?[a-z]\)?)?)*\s*(?:(?:are|were|would be|will be|get|gets)\s+"
                   r"|(?P<become>(?:becomes?|to)\s+))?(?:also\s+)?(?P<word>removed|deleted|gone|false|added|true|present|created)\b")
# TAIL's closing words as it spells them (it is case-sensitive): TAIL can match only where one follows.
TAIL_WORD_LIST = ("removed", "deleted", "gone", "false", "added", "true", "present", "created")


def last_tail_word(text: str, start: int, end: int) -> int:
    """Where the last of TAIL's closing words inside text[start:end] starts, -1 if none: TAIL is
    tried after every fact of a sentence, and after a list of facts it backtracks for microseconds."""
    find = text.rfind
    return max(find("removed", start, end), find("deleted", start, end), find("gone", start, end),
               find("false", start, end), find("added", start, end), find("true", start, end),
               find("present", start, end), find("created", start, end))


LETTER = re.compile(r"[a-z]", re.I)
ARROW_LIST = re.compile(r"^\s*(?:→|->|=>)\s*(?:[^.;:]*?,\s*)?$")
COLON_LIST = re.compile(r"^\s*:\s*(?:[^.;:]*?,\s*)?$")
CALL_ARGS = re.compile(r"\(\s*([A-Za-z0-9_]+(?:\s*(?:,|from|on|onto|to|at|in)\s*[A-Za-z0-9_]+)*)\s*\)")
STEP1_DONE = re.compile(r"\bafter (?:step|action) 1\s*[(:]\s*$", re.I)
GOAL_LEAD = re.compile(r"(?:^\W*|[,.:;]\s*|\b(?:now|so|then)\s*,?\s*|\b(?:need|needs|want|wants|have|has|is|are|how)\s+)to\s+$", re.I)
GOAL_TO = re.compile(r"\b(?:to|need|needs|can|could)\s+$")
PURPOSE_TO = re.compile(r"\s*(?:\(|,)?\s*(?:in order )?to\s+")
PERFORM_TAIL = re.compile(r"^\s*(?:$|[.:→(\n,;!-]|->|=>|\*|first\b|now\b|again\b|then\b|next\b|step\b"
                          r"|(?:in order )?to (?:get|restore|generate|create|make|produce|gain|obtain|bring|reset|regain|add|remove)\b)", re.I)
PAREN = re.compile(r"\([^()]*\)")
# "Attack c, for its part, leaves Harmony untouched.": an aside between the action and its verb
# makes the action the subject of a description, not a step taken (sixth planted set, P36)
SUBJECT_ASIDE = re.compile(r"\s*,\s*(?:for (?:its|their) part|on the other hand|by contrast|in contrast|in turn|in comparison"
                           r"|likewise|similarly|though|however|too|also|as well|of course|by itself|on its own|in any case)\s*,"
                           r"\s*(?:\w+\s+)?(?:leaves|keeps|adds|removes|deletes|gives|requires|needs|makes|generates|creates"
                           r"|restores|would|does|doesn't|only|is|isn't|can|can't|cannot|won't|will)\b", re.I)
# "leaves Harmony untouched": the fact is kept, i.e. the action does not remove it
LEFT_ALONE = re.compile(r"[^.;:\n]{0,60}?\b(?:untouched|intact|in place|alone|unchanged|unaffected|undisturbed)\b", re.I)
KEEP_VERB = re.compile(r"\b(?:leaves?|leaving|keeps?|keeping)\s+(?:the\s+)?$", re.I)
MIXED_NEG = re.compile(r"\b(?:no|not|without|neither|nor|except|instead|rather than)\b|n't\b", re.I)
CAN_DO = re.compile(r"(?<!so that )(?<!such that )\b(?:(?:(?:we|i|you) can|(?:we|i|you)(?: are| am|'re|'m) (?:now |also )?(?:able|allowed|free|permitted) to)"
                    r" (?:now |then |also |still |safely |indeed |go ahead and )?(?:do |perform |apply |use )?(?:the )?"
                    r"|it(?:'s| is) (?:now |also )?(?:fine|okay|ok|possible|allowed|legal|safe|valid) to (?:now )?)$",
                    re.I)
STRONG_YES = re.compile(r"(?:→|->)\s*(?:yes|true)\b|\ball (?:true|present|met|satisfied)\b", re.I)
HEDGE = re.compile(r"\b(?:maybe|perhaps|might|possibly|probably|try|trying|assum(?:e|ing)|suppose|hypothetically)\b", re.I)
# A guess, unlike "let's try" or "suppose", which the annotators read as walk-throughs that assert.
# "For example:" heads a list that illustrates an idea: its items propose, as under "maybe:"
# (review 8, aad2a0... step 572: "1. Attack a -> Pain a." was read as saying Attack a is doable)
GUESS = re.compile(r"\b(?:maybe|perhaps|possibly|what if|how about|for example|for instance|e\.g\.)", re.I)
# "Yes, the plan seems necessary.": the yes agrees with what it goes on to name, not with the
# action of the sentence before (independent review, 6d91...).
YES_ABOUT = re.compile(r"\W*yes\W+(?:the|this|that|so the|so this)\s+(?:plan|sequence|approach|way|order|answer|solution|path)\b", re.I)
YES_HEAD = re.compile(r"^\W*(?:so,? )?(?:yes|(?:all|both)(?: three| of them)? (?:are )?(?:present|true|met|satisfied))\b", re.I)
CANT = re.compile(r"\b(?:can't|cannot|can not|couldn't|not possible|impossible|not applicable|not allowed|isn't possible"
                   r"|so no\b(?! problem)|can't do)\b|(?:^|[.(,]\s*)no[.)]|^\W*no(?:\s*[.!]|\s+\w+(?:\s+\w+)?\s*[.!]?\s*$)", re.I)
NOT_HELPFUL = re.compile(r"\b(?:not|isn't|doesn't|won't) (?:help|helpful|useful|needed|necessary|what we want|the goal|good)\b"
                          r"|\bno (?:help|use|point|progress)\b|\bdoesn't (?:achieve|give|get|lead)\b", re.I)
RETRACT_HEAD = re.compile(r"^\W*(?:wait|no,? wait|hmm)\b", re.I)
MEANS_BEFORE = re.compile(r"\b(?:via|using|through)\s+(?:the\s+)?$", re.I)
CAUSE_BEFORE = re.compile(r"\b(?:because|since|as|given that)\s+(?:the\s+)?$", re.I)
# A fact inside a conditional clause ("even if Planet a was removed, it would bring it back"): the
# clause supposes a state, it does not say what the action does (review of unannotated R1 traces).
IN_IF_CLAUSE = re.compile(r"\b(?:if|unless|whether)\b[^,.;:!?()\n]*$", re.I)
ABSENT_AFTER = re.compile(r"\s*(?:(?:does not|doesn't|do not|don't) (?:exist|hold)|(?:is|are)(?:n't| not) (?:present|there|available|true)"
                          r"|(?:is|are) missing)\b", re.I)
EFFECT_TAIL = re.compile(r"\s*(?:adds|gives|removes|generates|creates|restores)\b", re.I)
NOW_NEXT = re.compile(r"\s*(?:so,?\s+)?now\b", re.I)
FROM_INITIAL = re.compile(r"\b(?:initial(?:ly)?|from the (?:start|beginning))\b", re.I)
HYPOTHESIS = re.compile(r"\b(?:interpretation|test (?:this|that|it)|assum(?:e|ing)|suppos(?:e|ing)|hypothe\w+|if we (?:read|take))\b", re.I)
SCHEMA_TALK = re.compile(r"\s*(?:action\s+)?(?:(?:and|or)\s+\w+ing\s+)?(?:requires?|needs?|adds?|gives?|removes?|deletes?|creates?|generates?"
                         r"|is|are|would|will|can|could|only|also|sets?|makes?|affects?|changes?|don't|doesn't|do not|does not|never"
                         r"|always)\b", re.I)  # "Attacking and Succumbing don't affect cravings." (4508982...)
WE_HAVE = re.compile(r"\W*(?:and\s+)?(?:which|that|these|those|all of which) (?:we|i) (?:have|do have)\b", re.I)
IS_GONE = re.compile(r"\s*(?:is|are)\s+(?:now\s+|all\s+)?gone\b", re.I)
# "Harmony is gone." / "Harmony isn't there.": the sentence says no more than that the fact is missing now
NEED_GONE = re.compile(r"\s*(?:is|are)\s*(?:(?:already\s+|now\s+|still\s+)?(?:gone|missing|absent|false|not\s+(?:there|present|true|available))"
                       r"|n't\s+(?:there|present|true|available))\s*[.!]?\s*$", re.I)
BECAUSE_HEAD = re.compile(r"^\W*(?:because|since|as)\b", re.I)
AND_STEP = re.compile(r"\s*(?:\([^()]*\))?\s*,?\s*and (?:step|action) (\d{1,2})")
AFTER_STEP = re.compile(r"\bafter (?:step|action) (\d{1,2})\b", re.I)
STEP_REF = re.compile(r"\b(?:step|action) \d{1,2}\b", re.I)
# "Goal achieved.", "Now the goal is met", "which satisfies both goals": the whole goal holds now
# (thinking-claims.md `goal`). Only the plain forms: "the first goal is met", "the goal a craves b
# is achieved" speak of a part of it, and "which is the goal" names a fact, not the state.
GOAL_CLAIM = re.compile(
    r"(?<![\w-])(?:(?:(?<!first )(?<!second )(?<!one )(?<!sub)goals?(?:\s+(?:state|conditions?|configuration))?\s+(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+)?"
    r"(?:(?:now|also|finally|then|fully|already|all|actually|indeed|clearly|certainly)\s+){0,2}(?P<neg1>not\s+(?:yet\s+|fully\s+)?)?"
    r"(?:achieved|reached|met|satisfied|accomplished|fulfilled|in\s+place|complete))"
    r"|(?:(?<!first )(?<!second )(?<!one )(?<!sub)goal\s+(?:now\s+)?(?P<neg3>(?:no\s+longer|still\s+not|not)\s+)?holds?)"
    r"|(?:(?:both|all)\s+(?:parts|halves|conditions|components)\s+of\s+the\s+goal\s+(?:are\s+)?(?:now\s+)?(?P<neg4>not\s+(?:yet\s+)?)?"
    r"(?:met|satisfied|achieved|in\s+place|true|done))"
    r"|(?:(?P<neg2>(?:doesn't|does\s+not|don't|do\s+not|didn't|won't|isn't|not|haven't|have\s+not|hasn't)\s+)?(?:achieves?|reach(?:es)?|meets?|satisf(?:y|ies)"
    r"|achieving|reaching|meeting|satisfying|achieved|reached|satisfied)"
    r"\s+(?:the|our|both|all(?:\s+the)?)\s+goals?(?!\s+(?:of|for)\b)))(?![\w-])", re.I)
STEP_NAMED = re.compile(r"\b(?:step|action)\s*(\d{1,2})\s*[:,]", re.I)  # "But wait, step 5: can you pick up orange?"
LEAD = re.compile(r"(?P<kind>pre(?:conditions?|requisites?|-conditions?)?|requires?|requirements?|needs?|effects?|adds?|removes?|deletes?"
                   r"|state|facts|now|after[^:]*)\s*:\s*$", re.I)
BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s")
INITIAL_WORD = re.compile(r"\b(?:initial(?:ly)?|first|start(?:ing)?|begin(?:ning)?)\b", re.I)
REQ = re.compile(r"\b(?:requires?|required|requirements?|needs?|needed|prerequisites?|preconditions?|pre-conditions?|pre)\b",
                  re.I)
ADD = re.compile(r"\b(?:adds?|added|gives?|creates?|created|produces?|produced|generates?|generated|generating|sets?|restores?|restored"
                  r"|lead(?:s|ing)? to|brings? back|bring back|brought back|get back"
                  r"|results? in|becomes? true|makes? true"
                  r"|(?:makes?|making)(?!\s+(?:sense|sure)\b)|leaves?|leaving|keeps?|keeping|puts|places|placing)\b", re.I)  # "stacking red makes blue not clear" (planted-claims test)
DEL = re.compile(r"\b(?:removes?|removed|removing|deletes?|deleted|deleting|consumes?|consumed|loses?|lost|uses? up|takes? away"
                  r"|becomes? false|no longer)\b", re.I)
STATE = re.compile(r"\b(?:now|state|facts?|we have|we still have|i have|current(?:ly)?|remaining|left with|still|after (?:that|this)|afterwards"
                    r"|(?:we|i) (?:don't|do not|no longer) have|(?:we|i) have no|there is no|there are no)\b", re.I)
YES = re.compile(
    r"\b(?:so (?:yes|possible|it's possible|that's possible|we can do (?:it|that|this))|(?<!\()(?<!\(\s)yes\b|(?:all|both)(?: three| are| of them)?"
    r" (?:present|true|met|satisfied|there|available|hold|good)|(?<!goal )(?<!goals )(?:is|are) (?:all )?(?:met|satisfied)|(?:→|->) ?(?:all )?"
    r"(?:true|yes|ok)|(?:is|it's) (?:possible|applicable|allowed|doable)|can be (?:done|performed|applied)|we can do (?:it|that|this)"
    r"|all (?:preconditions|prerequisites|requirements) (?:are )?(?:met|satisfied))", re.I)
NO = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|not possible|impossible|not applicable|not allowed|isn't possible|so no\b(?! problem)"
    r"|isn't allowed|not met|not satisfied|not available|won't work|doesn't work|unable)\b|(?:^|[.(,]\s*)no[.)]"
    r"|\bbut\b[^.]{0,60}\b(?:removed|gone|not (?:present|there|available)|missing|lacks?|don't have|do not have)\b"
    r"|\b(?:isn't|is not|aren't|are not|wasn't|not) (?:present|there|available|true)\b|\b(?:don't|do not|doesn't|does not) have\b"
    r"|\bneed to (?:generate|get|create|obtain)\b|\bbut (?:we |i |it )?(?:needs?|requires?|lacks?)\b"
    r"|\bbut\b[^.]{0,30}\b(?:is|are) (?:now |currently |only )?(?:on )?[a-z]\b(?![\w-])|^\W*no(?:\s*[.!]|\s+\w+(?:\s+\w+)?\s*[.!]?\s*$)", re.I)
# Read by claim_reader.py: which sentences are claims about the state now, and which are not.
# A sentence that is only a fact ("Blue is on the table.", "And red is clear."), and what makes
# a sentence something other than a statement of the state now (claim_reader._bare_state_sentence)
BARE_HEAD = re.compile(r"[\s*_]*(?:(?:and|also|so|then|but|plus|meanwhile),?\s+)?", re.I)
IS_WORD = re.compile(r"\b(?:is|are|isn't|aren't)\b", re.I)
BARE_NOT = re.compile(r"\b(?:if|would|could|should|must|might|may|maybe|perhaps|suppose|assume|assuming|goal|want|wanted|need|needs|needed"
                       r"|requires?|required|so that|in order|whether|unless|when|once|until|before|initially|initial|originally"
                       r"|earlier|previously|was|were|wait|hmm)\b", re.I)
# "Then I can put blue down on the table, which would make blue clear again": the "would" of
# a relative clause after the action does not make the action a condition (29ce88...)
RELATIVE_TAIL = re.compile(r",\s*which\b[^.;:]*", re.I)
ADD_VERB = re.compile(r"\b(?:adds?|added|restores?|restored|creates?|created|generates?|generated|produces?|produced)\b", re.I)
# "I need to move blue to red, then ...": a plan for the moves, not one made (5f2855..., daa491...)
PLANNED = re.compile(r"\b(?:need|needs|have|has|want|wants|going|plan|try|trying)\s+to\s+$", re.I)
# "To create a craves b, we can use Overcome a from b.": the means to an end, not a claim that
# it can be done now (d21a6b...)
MEANS_LEAD = re.compile(r"\W*(?:so,?\s+|and\s+)?(?:to|in order to)\s+(?:create|get|make|achieve|have|obtain|produce|generate|reach)\b[^,]*,", re.I)
IF_WORD = re.compile(r"\b(?:if|whether|unless|suppose|assuming)\b", re.I)
# "Then, blue can be stacked on red.": possible once the steps before it are done, which may be
# steps we did not read ("we need to move red to the table first", 6ccdb4...)
THEN_LEAD = re.compile(r"\W*then\b", re.I)
# "After stacking, hand is empty.": a step recalled in a time clause (_unread_action)
TIME_BEFORE = re.compile(r"\b(?:after|when|once|while|before|upon)\s+$", re.I)
GOAL_MEANS = re.compile(r"\s*(?:by|once|when|if|after|with|through|via)\b", re.I)  # "the goal is achieved by stacking red": a means
# "In that case, ..." right after a hedged sentence ("But perhaps the Planet fact is singular.") goes
# on with the same hypothesis (independent review, 6e3f...).
CASE_HEAD = re.compile(r"^\W*(?:but\s+|and\s+|so\s+)?in (?:that|this|which) case\b", re.I)
# A question that asks what to do next ("How to get Pain c?") does not doubt the claim before it,
# unlike "Pain c is missing?" or "Or is it?" (independent review: C5 of d21a...).
NEXT_QUESTION = re.compile(r"\s*(?:but\s+|so\s+|then\s+|and\s+)?(?:how|what|which|where|why|who|when)\b", re.I)
STRONG_RETRACT = re.compile(r"\s*(?:wait,?\s+no\b|no,?\s+wait\b|no,\s+that'?s\s+(?:wrong|not right)|that'?s\s+wrong)", re.I)
RETRACT = re.compile(r"\b(?:wait|no,? wait|actually|hmm|hold on|oops|correction|mistake)\b|(?:^|[.!;]\s+)no,|\?", re.I)

# Searched sentence by sentence (or in a clause of one): each gets a literal gate (core/gates.py), which
# skips the regex on the many sentences that lack all of its words (same results, less time).
for _name in ("DONE_BEFORE", "COND", "RESTART", "INITIAL", "NO_WORDS", "IN_STEP", "STEP_NUM", "STEP1_DONE",
              "GOAL_LEAD", "MIXED_NEG", "CAN_DO", "STRONG_YES", "HEDGE", "GUESS", "CANT", "NOT_HELPFUL", "CAUSE_BEFORE",
              "FROM_INITIAL", "HYPOTHESIS", "AFTER_STEP", "EFFECT_WORD", "STEP_REF", "LEAD", "INITIAL_WORD", "REQ", "ADD", "DEL", "STATE",
              "YES", "NO", "RETRACT", "TAIL_WORDS", "INITIAL_RECALL", "NEW_APPROACH", "AFTER_CLAUSE", "EFFECT_LEAD"):
    globals()[_name] = Gated(globals()[_name])
_SAYS_NO = AnyOf(NO.pattern_)  # NO's alternatives one by one, each behind its own gate


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """[start, end) of each sentence, a list item with its marker, or a line; parentheses kept whole."""
    for m in SENT.finditer(text):
        a, b = m.span()
        if b > a and text[a:b].strip():
            yield a, b
