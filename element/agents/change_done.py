"""A change of the speaker's told as a noun, the subject of a clause saying it is done: "The
move to Walthamstow went smoothly", "The switch to Giffgaff took ten minutes", "Moving day
to Topsham was exhausting", "The big move to Cardiff is done", "Our transfer to the Leeds
office finally went through". A listener hears the change made: the speaker lives in
Walthamstow, is with Giffgaff, is at the Leeds office now. The clause names no "I" and no
verb of change (its verb is "went", "took", "was"), so neither the cue lists nor
``linked.py`` (which reads "my move to X" as the object of a verb of the speaker's) read it.

The speaker's own statement of the change is the noun turned back into its verb, "I moved
to Walthamstow", "I switched to Giffgaff", "I transferred to the Leeds office"; the turn is
read with that statement said first, before the sentence (:func:`told_done`), so the rules
read it as they read the plain statement (a keyed fact, "Ana lives in Walthamstow", or a
change statement), and the sentence is still told as it was said.

Why it is general: English grammar only. A noun of change (move, relocation, switch,
changeover, transfer, "moving day") with "the", "my" or "our", a preposition naming where
it leads and a named value there, then a predicate of a thing that happened: a past verb
("went", "was", "took", "happened") or a state of being over ("is done", "is complete",
"is official"). Never a value. Guarded, as a false supersede loses a true fact: another
person's change ("my brother's move to Cambridge", "the move to Leeds went well for mum"),
a change not done ("fell through", "was postponed", "is next month", "if", "hoping"), a
change long past ("was years ago", "back in 2009", "when ..."), a question or a negation
read nothing; nor a thing that moves ("the office move to Canary Wharf": only "house" or
"home" may stand before the noun, or a word of size or time). Pure functions over texts.
"""

from __future__ import annotations

import re

from index import TOLD_NOT_NOW, TOLD_PAST

from .facts import WORKPLACES
from .meaning import clauses
from .sentences import split_sentences
from .slots import PEOPLE

__all__ = ["change_done", "told_done"]

#: The verb each noun of change turns back into.
_VERBS = {"move": "moved", "relocation": "moved", "moving day": "moved",
          "switch": "switched", "switchover": "switched", "changeover": "switched",
          "transfer": "transferred"}

#: The noun of change, the speaker's ("the", "my", "our"; none before "moving day"), with
#: at most two words of size, time or kind before it ("the big move", "our long-awaited
#: house move"), where it leads ("to"/"into", after an optional "from X"), and the rest.
_CHANGE = re.compile(
    r"^(?:(?:so|and|well|anyway|finally|honestly|phew|right|ok|okay|yay|oh)\b[,!]?\s+)*"
    r"(?:i\s+am\s+|i'm\s+)?"    # "Moving day ..." as the cleaner voices a gerund: "I am moving day"
    r"(?:(?:the|my|our)\s+(?:(?:big|final|long[\s-]awaited|recent|actual|whole|great|house|"
    r"home)\s+){0,2}(?P<n>move|relocation|switch|switchover|changeover|transfer)|"
    r"(?:the\s+|our\s+|my\s+)?(?P<day>moving\s+day))"
    r"(?:\s+from(?:\s+[\w'-]+){1,3}?(?=\s+(?:to|into)\b))?"
    r"\s+(?:(?:back|over|across|up|down)\s+)?(?P<p>to|into)\s+(?P<rest>.+)$", re.I)

#: What the thing named is followed by: the predicate of a thing that happened, after
#: optional adverbs or auxiliaries ("finally went through", "has all gone", "'s done").
_DONE = re.compile(
    r"\s+(?:(?:finally|all|now|officially|eventually|actually|just|really|totally|mostly)\s+)*"
    r"(?:went|was|were|took|happened|has|have|had|is\s+(?:done|complete|completed|finished|"
    r"over|official|sorted|final|through)|'s\s+(?:done|complete|finished|over|official|sorted))"
    r"\b", re.I)

#: A change not done, or not (yet): called off, awaited, of the future, a wish.
_NOT_DONE = re.compile(
    r"\b(?:fell\s+through|falling\s+through|cancell?ed|postponed|delayed|called\s+off|put\s+off|"
    r"put\s+back|pushed\s+back|shelved|scrapped|on\s+hold|supposed|meant|going\s+to|gonna|"
    r"planned|due|booked|next|soon|tomorrow|will|would|'ll|'d|hop(?:e|es|ed|ing)|wish|"
    r"if|unless|once|maybe|might|could|should|fingers\s+crossed|not|never|"
    r"rejected|refused|denied|turned\s+down|blocked|failed)\b|n't\b", re.I)

#: A change long past, told in passing: "was years ago", "back in 2009", "when we ...".
_LONG_PAST = re.compile(r"\b(?:(?:years|decades|ages|donkey's\s+years)\s+ago|a\s+(?:decade|"
                        r"lifetime)\s+ago|back\s+(?:in|then|when)|when|as\s+a\s+(?:kid|child|"
                        r"teenager|student)|growing\s+up|(?:19|20)\d\d)\b", re.I)

#: Another person's: a possessive before or in the clause, a third person, a person of the
#: speaker's named ("for mum", "with my sister").
_ANOTHERS = re.compile(r"\b(?:his|her|their|he|she|they|him|them)\b|"
                       r"\b(?!(?:it|that|there|what|here|who|let|where|how|one|this)'s\b)"
                       r"[a-z-]+'s\b(?!\s+(?:(?:finally|all|now|officially)\s+)?(?:done|complete|"
                       r"finished|over|official|sorted)\b)|"
                       r"\b[a-z-]+s'(?=\s)", re.I)


#: A move said to be done without where it led ("Moving day done", "The move's finally
#: over", "Big move done!"): where is told by being settled there, in the same sentence.
_MOVE_OVER = re.compile(r"\b(?:(?:the|my|our)\s+)?(?:(?:big|house|home|final)\s+)?"
                        r"(?:move|moving\s+day|relocation)(?:\s+(?:is|was)|'s)?\s+"
                        r"(?:(?:finally|all|now|officially)\s+)?"
                        r"(?:done|over|complete|completed|finished|sorted)\b", re.I)

#: Settled where the move led: "finally settled in York", "we're all settled into our new
#: place in Hove".
_SETTLED = re.compile(r"\bsettled\s+(?:in|into)\s+(?:(?:the|our|my)\s+(?:new\s+)?(?:place|house|"
                      r"home|flat|apartment|cottage|bungalow)\s+in\s+)?(?P<o>(?-i:[A-Z])[\w'-]*"
                      r"(?:\s+(?-i:[A-Z])[\w'-]*){0,2})", re.I)


#: A place of work as where a move leads ("the move to the new office in Manchester", "our
#: move to the Leeds branch"): the firm's move, or a transfer of where one works, not a
#: new home; read as neither (a wrong supersede loses more than a miss).
_WORKPLACE = re.compile(r"\b(?:" + "|".join(sorted(WORKPLACES)) + r")\b", re.I)


def _named(thing: str) -> bool:
    """Whether ``thing`` names its value by a proper name or a number ("Walthamstow", "the
    Leeds office", "Giffgaff"), not a kind ("decaf", "a bigger place", "nights")."""
    return bool(re.search(r"(?-i:[A-Z])|\d", thing))


def _said(clause: str) -> str | None:
    """:func:`change_done` of one clause."""
    m = _CHANGE.match(clause.strip())
    if m is None or (done := _DONE.search(m["rest"])) is None or _ANOTHERS.search(clause) or \
            _people(clause):
        return None     # another's change, or one told of a person of the speaker's
    thing = m["rest"][:done.start()].strip()
    if not thing or len(thing.split()) > 6 or not _named(thing) or \
            re.search(r"[,;:!?()\"]", thing):
        return None
    verb = _VERBS[(m["n"] or "moving day").lower()]
    if verb == "moved" and _WORKPLACE.search(thing):
        return None     # "the move to the Manchester office": the firm's, or a transfer
    return f"I {verb} {m['p'].lower()} {thing}"


def change_done(sentence: str) -> str | None:
    """The speaker's own statement of the change ``sentence`` (cleaned) tells as a noun
    said to be done ("I moved to Walthamstow" of "The move to Walthamstow went smoothly
    and the new flatmates are lovely"), told as the sentence or one of its clauses, or
    None (no such noun, or not the speaker's, not done, or long past: the guards above)."""
    s = sentence.strip()
    if not s or s.endswith("?") or _NOT_DONE.search(s) or _LONG_PAST.search(s) or \
            TOLD_NOT_NOW.search(s) or TOLD_PAST.search(s):
        return None
    parts = list(dict.fromkeys([s, *clauses(s)]))
    if (said := next((said for part in parts if (said := _said(part)) is not None), None)):
        return said
    if _MOVE_OVER.search(s) and not _ANOTHERS.search(s) and not _people(s):
        # "Moving day done, finally settled in York": where the move led, said apart.
        m = _SETTLED.search(s)
        return f"I moved to {m['o']}" if m is not None else None
    return None


def _people(clause: str) -> bool:
    """Whether ``clause`` names a person of the speaker's ("for mum", "my sister's")."""
    return any(w.lower().rstrip("s") in PEOPLE or w.lower() in PEOPLE
               for w in re.findall(r"[\w'-]+", clause))


def told_done(text: str) -> str:
    """``text`` (one user turn) with the speaker's own statement of each change told as a
    noun said to be done (:func:`change_done`) said before its sentence: "The move to
    Walthamstow went smoothly." -> "I moved to Walthamstow. The move to Walthamstow went
    smoothly."; ``text`` itself when no sentence tells one."""
    for sentence in list(split_sentences(text)):
        if (said := change_done(sentence)) is not None and sentence in text:
            text = text.replace(sentence, f"{said}. {sentence}", 1)
    return text
