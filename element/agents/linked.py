"""An event or a story of the speaker's linked to the one fact it changes, when its new value
is told by a noun of the speaker's rather than by a verb of change: "We got the keys to our
new place in Portobello on Friday" after "I live in a flat in Stockbridge", "Celebrated my
promotion to senior associate with the team" after "I'm a junior solicitor", "Drove the
Skoda Octavia home from the dealer on Saturday" after "I drive a Vauxhall Corsa", "spent
Wednesday in the Samsung shop and came out with a Galaxy S23" after "I use an iPhone 12".

``begun.py`` reads the change-of-state verbs ("started at", "joined", "bought") and
restates the event as its result in the verb's words ("has the keys to our new place in
Portobello"), which the profile bank reads as about keys. People as often tell the result
by a noun phrase that is the speaker's own and says it is the new one, whatever the verb
around it ("celebrated", "got the keys to", "unpacked in"):

- the speaker's *new* thing named ("our new place in Portobello", "my new job at Aldi",
  "my brand new Skoda", "the new flat in Leith" in the speaker's own clause): "new" with
  "my"/"our"/"the" says the thing is now the speaker's in
  place of one before (the new value of a single-valued attribute, or one more: the
  attribute decides, below);
- the speaker's change told as a noun ("my promotion to senior associate", "my move to
  Leith", "my transfer to the Leeds office"): what the speaker became or where they are;
- the keys to a thing ("got the keys to the flat in Leith"): the speaker has it;
- a thing brought home or come away with ("drove the Skoda home from the dealer", "came
  out with a Galaxy S23"): the speaker has it.

Each is restated plainly as the value it leaves ("Isobel lives in Portobello" of her new
place there: a dwelling is lived in; "Seren is senior associate", "Rhiannon drives a Skoda
Octavia" of one driven home, "has" of a thing brought), so that the bank reads the
attribute of the value and not of the verb, and then linked as ``begun.py`` links its
results (:func:`result_target.anchored_target`): to the speaker's one one-fact memory of a
*single-valued* attribute that the memory answers best and the result answers among its
best, naming a value the memory lacks; two such memories, none.

Guarded, as a false link loses a true fact: the clause is the speaker's own (no other
person's possessive before the thing, ``profile.whose``), of the present (no plan or wish,
no past habit, ``index.TOLD_NOT_NOW``/``TOLD_PAST``), no addition anywhere in the episode
("a second bike", "also": ``index.TOLD_ADDITION``), no negation, no hire or loan, no stay
(``cues.bounded``: "a fortnight in Crete"; a holiday let, a hotel, a villa), no visit or
look ("went to see the new flat", "popped into the new Tesco"), no wish or outcome awaited
("hoping my transfer goes through", "next month"), no question; "the new X" only with a
noun and its name ("the new flat in Leith"), never a named place anyone goes to. A trip,
a visit or another person's news has no such noun of the speaker's and is never read.

No model call unless a clause reads so and a memory of the speaker's names another value
(the embed-behind observe makes none on its own thread otherwise). Pure functions over
texts and the pool.
"""

from __future__ import annotations

import re
from typing import Any

from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_PAST

from .begun import DWELLING as _DWELLING
from .begun import results as begun_results
from .result_target import pool_target
from .cues import bounded
from .decisions import Pool
from .holders import UNKNOWN
from .meaning import SIMILAR_WORDS, clauses
from .profile import whose
from .sentences import split_sentences
from .slots import PEOPLE

__all__ = ["linked_results", "linked_target", "told_apart"]

#: Where the thing a noun phrase names ends: a time, a reason, another clause, a stop.
_END = re.compile(
    r"\s+(?:(?:on|in|at|by|over|during|before|after|since|until|from)\s+(?:the\s+)?(?:monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|spring|summer|autumn|fall|"
    r"winter|weekend|morning|afternoon|evening|end|start|beginning|christmas|easter|\d)|"
    r"(?:i|we|he|she|they)\b(?!')|last|this|next|yesterday|today|ago|after|before|because|"
    r"since|when|while|and|but|so|which|who|where|is|was|are|were|has|had|with\s+(?:the|my|our|a|an)\b|"
    r"for\s+(?:the|a|an|my|our|his|her|their|him|them|\d)|home|then|back|already|finally|"
    r"at\s+last)\b.*$|\s*[,;:!?()\"].*$|\.\s.*$|\.$", re.I)

#: The speaker's new thing: "our new place in Portobello", "my new job at Aldi", "my
#: brand new Skoda Octavia". The noun (one to three words) and what names it (a
#: preposition and a name), or a name right after "new".
_NEW = re.compile(r"\b(?:my|our|the)\s+(?:brand[\s-]+)?new\s+(?:(?P<named>(?-i:[A-Z]).+)|"
                  r"(?P<n>(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(?P<p>in|at|with|on)\s+(?P<o>.+))$", re.I)

#: The keys to a thing got or handed over ("we got the keys to the flat in Leith", "picked
#: up the keys for a Kia Niro"): the thing is the speaker's now.
_KEYS = re.compile(r"\bkeys?\s+(?:to|for|of)\s+(?:(?:a|an|the|my|our)\s+)?(?:brand[\s-]+)?"
                   r"(?:new\s+)?(?:(?P<named>(?-i:[A-Z]).+)|(?P<n>(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+"
                   r"(?P<p>in|at|on)\s+(?P<o>.+))$", re.I)

#: A stay, not a home: a holiday let, a hotel, a rental for a trip.
_STAY = re.compile(r"\b(?:airbnb|hotel|hostel|villa|chalet|caravan|campsite|cabin|lodge|"
                   r"cottage|holiday|trip|getaway|break|stay|rental)\b", re.I)

#: A visit or a look, not a holding: "went to see the new flat in Kemptown", "popped into
#: the new Tesco in Leith", "had a look round the new office at Unilever".
_SEEN = re.compile(r"\b(?:went|go|going|been|popped|stopped|dropped|called)\s+(?:in|into|to|by|"
                   r"round|over|past)\b|\b(?:visit(?:s|ed|ing)?|view(?:s|ed|ing)?|tour(?:s|ed|ing)?|"
                   r"saw|seen|see|look(?:s|ed|ing)?\s+(?:at|round|around|over)|showed\s+(?:me|us)|"
                   r"open\s+(?:day|house|evening))\b", re.I)

#: The speaker's change told as a noun: "my promotion to senior associate", "my move to
#: Leith", "our transfer to the Leeds office", "my appointment as head of year".
_CHANGE_NOUN = re.compile(r"\b(?:my|our)\s+(?:recent\s+|big\s+)?(?P<n>promotion|appointment|"
                          r"move|transfer|relocation)\s+(?:up\s+)?(?P<p>to|as|into)\s+(?P<o>.+)$",
                          re.I)

#: A thing brought home ("drove the Skoda Octavia home from the dealer") or come away with
#: ("came out with a Galaxy S23"): the speaker has it.
_BROUGHT = re.compile(r"\b(?:(?P<v>drove|brought|wheeled|rode|took)\s+(?P<o>(?:the|a|an|my|our)\s+"
                      r"(?:[\w-]+\s+){0,3}?[\w-]+)\s+home\b|came\s+(?:out|away|home|back)\s+"
                      r"with\s+(?P<w>(?:the|a|an|my|our)\s+.+))", re.I)

#: A negation: what did not happen left nothing.
_NEGATION = re.compile(r"\b(?:not|never|no|nor)\b|n't\b", re.I)

#: A hire, a loan, a trial, a stay: the thing is not held for good.
_TEMPORARY = re.compile(r"\b(?:hired|rented|borrowed|lent|loan|loaned|trial|temporary|"
                        r"temporarily|courtesy|for\s+the\s+(?:day|weekend|week|night|"
                        r"holidays?))\b", re.I)

#: A wish or a hope, an outcome awaited ("I'd love my move to HSBC ...", "hoping my
#: transfer goes through", "waiting for my new Kia", "my promotion comes through next
#: month", "up for a promotion to"): not (yet) the speaker's.
_AWAITED = re.compile(r"(?:'d|\bwould|\bhop(?:e|es|ed|ing)|\bwish(?:es|ed|ing)?|"
                      r"\bwant(?:s|ed|ing)?|\bwait(?:s|ed|ing)?\s+(?:for|on)|\bawait(?:s|ed|ing)?|"
                      r"\bfingers\s+crossed|\bpending|\bgoes\s+through|\bif|\bonce|\bnext|\btomorrow|"
                      r"\bsoon|\bup\s+for|\bapplied|\binterview(?:s|ed|ing)?)\b", re.I)

#: Another person's possessive in the clause: "my sister's new flat in Peckham", "her new
#: job at Aldi", "Tom's promotion to manager", "drove my dad's Volvo home": theirs, not the
#: speaker's ("it's", "that's" are no possessive).
_THEIRS = re.compile(r"\b(?:his|her|their)\b|\b(?!(?:it|that|there|what|here|he|she|who|"
                     r"let|where|how|one|this)'s\b)[a-z-]+'s\b|\b[a-z-]+s'(?=\s)", re.I)


#: A shop or a place named by a possessive after a preposition and ending its noun phrase
#: ("my new job at Sainsbury's is going well", "a nurse at Guy's, since May"): where, not
#: whose; "the keys to Tom's flat" (a noun after it) is Tom's.
_PLACE_NAMED = re.compile(r"\b(?:at|in|with|for|to|from|into|near|joined)\s+(?-i:[A-Z])[\w-]*'s?"
                          r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:is|was|are|were|has|had|have|and|but|so|"
                          r"since|in|on|at|for|last|this|now|today|yesterday|then|after|"
                          r"before|because|which|where|too)\b)")


def _theirs(said: str) -> bool:
    """Whether ``said`` holds another person's possessive (:data:`_THEIRS`), a shop or a
    place named by one after a preposition (:data:`_PLACE_NAMED`) left out."""
    places = [m.span() for m in _PLACE_NAMED.finditer(said)]
    return any(not any(a <= m.start() and m.end() <= b for a, b in places)
               for m in _THEIRS.finditer(said))


def _cut(said: str) -> str:
    """The thing a noun phrase names, up to its time, reason or next clause (eight words
    at most)."""
    return " ".join(_END.sub("", " " + said.strip()).split()[:8])


def _named(thing: str) -> bool:
    """Whether ``thing`` names a value by a proper name or a number, and is no person
    ("my new boss": a person, not a value)."""
    head = re.match(r"^(?:(?:a|an|the|my|our)\s+)?([\w'-]+)", thing, re.I)
    return bool(re.search(r"(?-i:[A-Z])|\d", thing)) and \
        not (head and head[1].lower().rstrip("s") in PEOPLE)


def _own(clause: str) -> bool:
    """Whether ``clause`` is the speaker's, of the present, held for good (the guards
    above)."""
    said = clause.strip()
    if not said or said.endswith("?") or TOLD_NOT_NOW.search(said) or TOLD_PAST.search(said) \
            or TOLD_ADDITION.search(said) or _NEGATION.search(said) or \
            _TEMPORARY.search(said) or bounded(said) or _theirs(said) or \
            _AWAITED.search(said) or _STAY.search(said) or _SEEN.search(said):
        return False
    # Told of a person of the speaker's ("Our neighbours got the keys ..."): theirs.
    if (m := re.match(r"(?:my|our)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", said, re.I)) and \
            any(w.lower().rstrip("s") in PEOPLE or w.lower() in PEOPLE for w in m[1].split()):
        return False
    # The subject dropped ("Celebrated my promotion ...") is the speaker's.
    return whose(said if re.match(r"(?:i|we|my|our)\b", said, re.I) else f"I {said}") \
        in ("", UNKNOWN)


def linked_result(clause: str, who: str) -> str | None:
    """The value a noun of the speaker's in ``clause`` (raw, first person) leaves, told of
    ``who`` plainly ("We got the keys to our new place in Portobello" -> "Isobel has a new
    place in Portobello"), or None (none such, or not the speaker's present: :func:`_own`)."""
    if not _own(clause):
        return None
    if (m := _CHANGE_NOUN.search(clause)) is not None:
        thing = _cut(m["o"])
        if not thing:
            return None
        if m["n"].lower() in ("promotion", "appointment"):
            return f"{who} is {thing}"      # a role as often as a name: "senior associate"
        return f"{who} moved {m['p'].lower()} {thing}" if _named(thing) else None
    if (m := _BROUGHT.search(clause)) is not None and (m["v"] or "").lower() == "drove":
        return _brought(m, who)     # "drove my new Mini home": driven, before "my new Mini"
    if (m := _NEW.search(clause) or _KEYS.search(clause)) is not None:
        if m["named"] and not re.match(r"the\b", m[0], re.I):
            thing = _cut(m["named"])
            return f"{who} has a {thing}" if _named(thing) else None
        if not m["n"]:
            return None     # "the new Tesco in Leith": a place anyone goes to, not the speaker's
        # Its noun a thing, not a person ("my new boss"), and a name after its preposition,
        # not a time ("my new flat on Monday").
        cut = _cut(f"{m['p']} {m['o']}")
        if m["n"].lower().split()[-1].rstrip("s") in PEOPLE or \
                not cut.lower().startswith(f"{m['p'].lower()} "):
            return None
        thing = cut[len(m["p"]):].strip()
        if not _named(thing):
            return None
        if _DWELLING.fullmatch(m["n"].lower().split()[-1]) and m["p"].lower() in ("in", "on"):
            # The speaker's new flat in Hove is where they live ("has a new flat in Hove"
            # reads to the bank as hair as much as a home).
            return f"{who} lives in {thing}"
        return f"{who} has a new {m['n'].lower()} {m['p'].lower()} {thing}"
    if (m := _BROUGHT.search(clause)) is not None:
        return _brought(m, who)
    return None


def _brought(m: re.Match[str], who: str) -> str | None:
    """The thing brought home or come away with (a match of :data:`_BROUGHT`), told of
    ``who`` as had, or as driven when it was driven home (said so, the bank reads its kind:
    "has a Mini" reads as a phone as much as a car)."""
    thing = _cut(m["o"] or m["w"])
    thing = re.sub(r"^(?:the|my|our)\s+(?:(?:brand[\s-]+)?new\s+)?", "a ", thing, flags=re.I)
    verb = "drives" if (m["v"] or "").lower() == "drove" else "has"
    return f"{who} {verb} {thing}" if _named(thing) else None


def linked_results(source: str, who: str) -> list[str]:
    """The values the nouns of the speaker's in ``source`` (an episode's sentences, raw)
    leave: each sentence whole when it is a statement's length, and each of its clauses.
    None at all when the episode adds one more anywhere ("picked up a second bike")."""
    if TOLD_ADDITION.search(source):
        return []
    found: list[str] = []
    for sentence in split_sentences(source):
        parts = clauses(sentence)
        whole = [sentence] if len(sentence.split()) <= SIMILAR_WORDS or not parts else []
        for part in whole + parts:
            told = linked_result(part, who)
            if told and told not in found:
                found.append(told)
    return found


def told_apart(source: str, said: str | None) -> str:
    """``source`` (an episode's sentences, joined without their stops: a story reads as one
    sentence) told as its sentences again, with their stops: the sentences of ``said`` (the
    raw turn) whose last two words the episode holds, in order; ``source`` itself when the
    turn is not given or no sentence of it is found."""
    if not said:
        return source
    held = " ".join(re.findall(r"[a-z0-9]+", source.lower()))
    kept = []
    for sentence in split_sentences(said):
        words = re.findall(r"[a-z0-9]+", sentence.lower())
        if len(words) >= 2 and f" {' '.join(words[-2:])} " in f" {held} ":
            kept.append(sentence.strip().rstrip(".!") + ".")
    return " ".join(kept) if kept else source


def linked_target(source: str, pool: Pool, who: str, skip: list[str],
                  said: str | None = None) -> dict[str, Any] | None:
    """The speaker's memory the value a noun of ``source`` leaves replaces (see the
    module's docstring), or None; a story of several sentences (``said``: the raw turn,
    :func:`told_apart`) is read sentence by sentence, so also for the change-of-state verbs
    of ``begun.py`` that begin one of its sentences. One model call at most, none without a
    result and a memory naming another value."""
    told = linked_results(source, who)
    apart = told_apart(source, said)
    if len(list(split_sentences(apart))) > 1 and not TOLD_ADDITION.search(apart):
        # A story: its sentences read again apart (a verb or a noun opening a later one).
        told += [t for t in linked_results(apart, who) + begun_results(apart, who)
                 if t not in told]
    return pool_target(told, pool, who, skip)
