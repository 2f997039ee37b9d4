"""Whether a statement a finder by meaning matched with a stored fact leaves that fact true:
a plan or an undertaking still under way, or the same doing told as going on (issue 23: a
false supersede loses a true memory, which is worse for a person than a missed update).

A finder by meaning (``stale.change_target``'s similarity, ``meaning.by_meaning``,
``present.present_target``) compares what two texts are about. Two kinds of memory answer
much the same questions as the news that follows them without being replaced by it:

- **a plan, a wish or an undertaking under way** ("is researching adoption agencies", "will
  bring some recipes", "is running for office", "is training for a marathon"): it holds
  until it is told as ended, given up or changed by name; what the person does meanwhile,
  or gets out of it, is news beside it ("got promoted at work", "is even more determined
  to adopt"). So a memory of such an undertaking is replaced only by a statement naming a
  value it names (the plan fulfilled or changed by name: "Change of plan, Croatia instead
  of Portugal") or telling an ending (the endings' own readers), never by meaning alone
  (:func:`plan_kept`);
- **the same doing told as going on** ("is at the tournament again", "even more set on
  it", "still at it", "keeps going to salsa"): a continuation word, the memory's own
  content words, and no value the memory lacks: the memory goes on being true
  (:func:`continues`). A change told with "again" names its new value ("eating fish
  again, so pescatarian now" shares no word with "is vegetarian"; "with Vodafone again"
  names Vodafone), and an ending is read by the endings.

Why it is general: each test is grammar over closed classes (modals and verbs of wishing
and planning; goal-directed verbs of an undertaking, each with the particle that aims it;
words of continuation) and the two texts' own words and named values; no case, value or
benchmark. Pure functions over texts.
"""

from __future__ import annotations

import re
from typing import Any

from index import terms

from .addressed import unaddressed
from .cues import signals
from .named import ENDING
from .profile import values
from .updates import first_person

__all__ = ["plan_kept", "continues", "undertaking", "promoted_only"]

#: A plan or a wish: the future or a verb of wanting, planning or weighing up ("will
#: bring", "is going to", "wants to adopt", "is thinking about retraining", "is
#: considering a move").
_PLAN = (r"will|'ll|(?:am|are|is|'m|'re)\s+going\s+to|gonna|"
         r"(?:would|'d)\s+(?:love|like)\s+to|"
         r"(?:want|wants|hope|hopes|plan|plans|intend|intends|mean|means|"
         r"(?:am|are|is|'m|'re)\s+(?:wanting|hoping|planning|intending|aiming))\s+to|"
         r"(?:am|are|is|'m|'re)\s+(?:thinking|dreaming)\s+(?:about|of)|"
         r"(?:am|are|is|'m|'re)\s+(?:considering|toying\s+with)")
#: An undertaking under way, aimed at an outcome not yet come: a goal-directed verb in the
#: progressive with its particle ("is researching", "is looking into", "is training for",
#: "is running for", "is saving up for", "is applying to", "is working towards"), or a
#: beginning told as such ("starts to", "is starting to"). Not a course or a training
#: that is itself a state ("is studying for a degree", "is training to be a nurse": a
#: student, a trainee).
_UNDERTAKING = (r"(?:am|are|is|'m|'re)\s+(?:"
                r"researching|looking\s+(?:into|for)|training\s+for|"
                # a search under way: "we're looking at houses in Frome", "house-hunting"
                r"looking\s+(?:at|round)\s+(?:houses|flats|homes|places|properties|"
                r"bungalows|cars|jobs|schools)|(?:house|flat|job)-?hunting|"
                r"running\s+for|standing\s+for|campaigning\s+for|"
                r"saving\s+(?:up\s+)?(?:for|to)|preparing\s+(?:for|to)|"
                r"applying\s+(?:for|to)|working\s+towards?|"
                r"starting\s+to|beginning\s+to)|"
                r"(?:start|starts|started|begin|begins|began)\s+to")
#: The fact opens on it: its subject, an adverb at most, then the plan or undertaking
#: ("I will bring", "I am really hoping to"); a plan in a clause of a fact about something
#: else ("... and I'd love to learn the harp one day, but these days I play the
#: clarinet") is no plan-fact.
UNDERTAKING = re.compile(rf"^\s*(?:i|we)(?:\s+|(?='))(?:\w+ly\s+|still\s+|also\s+)?"
                         rf"(?:{_PLAN}|{_UNDERTAKING})\b", re.I)

#: Told as going on: "again", "still", "even more", "more than ever", "once more", "keep
#: (on) doing", "carry on", "continue".
CONTINUED = re.compile(r"\b(?:again|still|even\s+(?:more|keener|happier|surer|closer)|"
                       r"more\s+than\s+ever|once\s+more|"
                       r"(?:keep|keeps|kept|keeping)\s+(?:on\s+)?\w+ing|"
                       r"carr(?:y|ies|ied|ying)\s+on|continu(?:e|es|ed|ing))\b", re.I)

#: A doing under way: the progressive of a verb that is no state ("I am painting a mural",
#: not "I am living in Leeds", "I am working at Tesco", "I am dating Tom").
_ONGOING = re.compile(r"^\s*(?:i|we)\s+(?:am|are)\s+(?:\w+ly\s+)?(?!(?:living|working|"
                      r"staying|dating|seeing|renting|studying|based|married|going\s+out)\b)"
                      r"\w+ing\b", re.I)

#: Words that say nothing of what a doing is about.
_LIGHT = frozenset(terms(
    "i me my we our us you your he she they them their it its a an the this that these "
    "those and or but so to of in on at for with from by about as is am are was were be "
    "been being have has had do does did get got go going went come came make made really "
    "just very even more again still now then new old one thing things lot bit time day "
    "week weeks month year last first next back also too other another some any all"))


def _said(memory: dict[str, Any], who: str) -> str:
    """A memory's one first-person sentence ("" when it has several)."""
    said = first_person(memory["content"], who)
    return said[0] if len(said) == 1 else ""


def undertaking(fact: str) -> bool:
    """Whether a first-person fact tells a plan, a wish or an undertaking under way."""
    return bool(UNDERTAKING.search(fact))


def _ends(sentence: str) -> bool:
    """Whether ``sentence`` tells something as ended (the endings' readers decide what)."""
    return bool(ENDING.search(sentence)) or bool(signals(sentence).ended)


def _stems(text: str, who: str) -> set[str]:
    """The content words of ``text`` cut to their first five letters ("adopt" of
    "adoption" and "adopt"), without the subject's name."""
    own = set(terms(who))
    return {w for w in terms(text) if w not in _LIGHT and w not in own and len(w) > 2}


def plan_kept(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``memory`` (``who``'s) tells a plan, a wish or an undertaking under way that
    ``sentence`` (first person, raw) neither ends nor tells of: no ending, no value the
    memory names, none of its content words ("got promoted at work" beside "is running
    for office"). News of the plan itself ("I'm vegan now" after "trying to go vegan") is
    left to the finders; news beside it keeps it."""
    said = _said(memory, who)
    if not said or not undertaking(said) or _ends(sentence) or _replans(sentence):
        return False
    told = unaddressed(sentence)
    if values(memory["content"], who) & values("x " + told, who):
        return False
    return not _stems(told, who) & _stems(said, who)


#: A plan changed or made anew: "instead", "change of plan", "booked", "switched".
_REPLANNED = re.compile(r"\b(?:instead|change\s+of\s+plans?|changed\s+(?:my|our)\s+plans?|"
                        r"booked|rebooked|cancell?ed|called\s+off|switched|swapped)\b", re.I)


def _replans(sentence: str) -> bool:
    """Whether ``sentence`` tells a plan of its own or a plan changed ("we've booked
    Croatia instead", "we're going to Iceland now"): a plan in place of a plan."""
    return bool(_REPLANNED.search(sentence)) or bool(_PLANNED.match(sentence))


#: A sentence opening on a plan of the speaker's ("we're going to Iceland now").
_PLANNED = re.compile(rf"^\s*(?:i|we)(?:\s+|(?='))(?:\w+ly\s+)?(?:{_PLAN})\b", re.I)


def continues(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells what ``memory`` says, a plan, an
    undertaking or a doing under way (the progressive), as going on: a continuation word
    (:data:`CONTINUED`), a content word of the memory's, no value the memory lacks, and
    nothing ended. Not of a state ("I eat meat again" after "I don't eat meat" is a
    change back: "again" returns to what was)."""
    said = _said(memory, who)
    if not said or not (undertaking(said) or _ONGOING.match(said)) or \
            not CONTINUED.search(sentence) or _ends(sentence):
        return False
    told = unaddressed(sentence)
    if values("x " + told, who) - values(memory["content"], who):
        return False    # "with Vodafone again": a value named anew
    return bool(_stems(told, who) & _stems(said, who))


def promoted_only(sentence: str) -> bool:
    """Whether ``sentence`` (first person) tells a promotion without the role it gives
    ("I got promoted at work!"): news of the job held, which goes on, so it replaces no
    memory (a crowd turn of it replaced a job and a commute); "promoted to ward manager"
    names the new role, for the finders. Not with an ending told beside it."""
    told = unaddressed(sentence)
    risen = _RISEN.search(told)
    # Alone: "I got promoted at work, I'm a team lead now" names the role in its next clause.
    return risen is not None and not _ends(told) and not signals(told).now and \
        not _NEXT_CLAUSE.search(told[risen.end():])


#: A promotion told without the role it gives ("I got promoted at work!"): news of the job
#: held, which goes on; "promoted to ward manager" names the new role (the finders').
_NEXT_CLAUSE = re.compile(r"[,;:]|\b(?:and|so|but|as|now)\b", re.I)
_RISEN = re.compile(r"\b(?:got|been|was|were|being)\s+promoted\b(?!\s+(?:to|as|into)\b)", re.I)

