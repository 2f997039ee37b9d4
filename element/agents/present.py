"""A present state of the speaker's own, told as now, replaces the value it holds by meaning.

"I'm a health visitor these days" after "I'm a nurse", "Finally caved and got an iPhone"
after "I've got a Samsung": no change word and no proper name as the new value, so the
other finders (``meaning.by_meaning`` needs a named value, the keyed rules a known shape)
leave both current. What says the new value holds now is a present-time adverbial ("these
days", "nowadays", "at the moment", "currently", "now", "since May"), or, for a possession,
an acquisition verb ("got", "bought", "picked up"): a single-valued attribute has one value
at a time, so a present one replaces the one held.

Told with no cue at all, a plain statement of how things stand ("I drive a Skoda Octavia
because the boot fits the dog crate", "my broadband is with Sky, it never drops"), as its
sentence or a clause of it, says the value holding now as much: the speaker's own subject
and a present verb (no past, no modal, no verb of a taste, a thought or a wish), naming a
value (a proper name, a number: ``profile.values``), so that a detail or a doing said
beside a memory ("I work nights", "I'm reading a great book") never replaces it.

So does the speaker's clause about a name, told with "where" ("The canteen at Unilever,
where I've been working since March, does a great curry": "I've been working since March
at Unilever"); and a thing of the speaker's named by its make in passing ("the boot of my Volvo
estate", "the camera on my Pixel 8 takes amazing night shots"): "my" before a proper name
says the speaker has it now, as "got a Volvo" does; read as a possession only (a vehicle, a
phone, a computer), never another's ("my sister's Volvo").

Why it is general: the cue is the grammar of the present, not a value or a topic; the
attribute is found by the profile bank (``profile.py``), among single-valued ones only
(possessions for an acquisition); the old memory is the speaker's one-fact memory answering
that attribute best. Never another person's fact (the statement's holder is the speaker),
never a many-valued attribute (a pet, a hobby: one more), never a past or a wish (recall's
readers, ``index.TOLD_PAST``/``TOLD_NOT_NOW``), an addition ("also", "a second"), a negation
or several things at once. What says now, adds or is not now is read by recall's lists
(``index/told.py``): the statement this lets stand beside the old, recall orders by the
same words.
"""

from __future__ import annotations

import re
from typing import Any

from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_NOW, TOLD_PAST

from .addressed import unaddressed
from .decisions import Pool
from .episodes import tell
from .holders import UNKNOWN, holder_of
from .holding import may_hold
from .meaning import MEANING_POOL, SIMILAR_WORDS, clauses, several
from .profile import anothers_clause, profile_target, values, whose
from .sentences import split_sentences
from .updates import is_event

__all__ = ["present_target", "present_state", "POSSESSIONS"]

#: A statement of how things stand, with no word of time: the speaker's subject and a verb
#: in the present ("I live", "we've got", "I'm", "my son is"), not a modal ("I'd", "I'll",
#: "I can"), not a verb of a taste, a thought, a wish or a saying (those add up or report:
#: "I love", "I think", "I hope"), not a past ("-ed", "went": ``updates.is_event`` reads
#: those) nor a progressive of a doing ("I'm reading") nor a feeling ("I'm thankful"): "I
#: am" must take a noun phrase, a number or a place.
_PLAIN = re.compile(
    r"^(?:(?:i|we)\s+(?:am|are|'m|'re)\s+(?:(?:a|an|the|my|our|at|in|with|on|from|\d+)\b|"
    r"(?-i:[A-Z]))"
    r"|(?:i|we)\s+(?:have|'ve)\s+got\s+|(?:i|we)\s+have\s+(?:a|an|the|my|our|\d)"
    r"|(?:i|we)\s+(?!(?:am|are|have|was|were|had|do|did|does|don't|didn't|will|would|shall|"
    r"should|can|could|may|might|must|need|want|wish|hope|plan|think|thought|feel|felt|"
    r"guess|suppose|know|knew|believe|mean|say|said|tell|told|love|like|enjoy|prefer|hate|"
    r"adore|miss|wonder|try|tried|just|also|still|never|really|used|got|go|went)\b)"
    r"(?!\w+ed\b)[a-z]+\s+(?:at|in|for|with|a|an|the|my|our|\d|(?-i:[A-Z]))"
    r"|(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:is|are|'s)\s+(?!(?:\w+ing|not|never|"
    r"going)\b))", re.I)

#: Acquiring a thing ("got an iPhone", "bought a Kia", "picked up a MacBook", "treated
#: myself to a Pixel"): a possession now held.
_ACQUIRED = re.compile(r"\b(?:got|bought|picked\s+up|treated\s+(?:myself|ourselves)\s+to)\s+"
                       r"(?:(?:myself|ourselves|me|us)\s+)?(?:a|an|the|one\s+of\s+the)\b", re.I)

#: The attributes of a thing one owns one at a time (``index.ATTRIBUTES``' names).
POSSESSIONS = frozenset({"vehicle", "phone", "computer"})

#: A negation: what is not so is an ending or a denial, not a present value.
_NEGATION = re.compile(r"\b(?:not|never|no|nor|none|nothing)\b|n't\b|\bno\s+longer\b|"
                       r"\bany\s?more\b", re.I)


#: A stay or a loan, not the attribute's value ("I'm staying with my parents at the
#: moment", "borrowing my dad's car now").
_TEMPORARY = re.compile(r"\b(?:staying|visiting|borrowing|house-?sitting|on\s+holiday|"
                        r"on\s+leave|off\s+sick|away)\b", re.I)


#: A thing of the speaker's named by its make: "my" (not "my sister's") before a proper
#: name and what follows it of the noun phrase ("my Volvo estate", "our Pixel 8").
_MY_NAMED = re.compile(r"\b(?:my|our)\s+(?:(?:new|current|trusty|old\s+faithful)\s+)?"
                       r"(?P<t>(?-i:[A-Z])[\w-]*(?:\s+(?:(?-i:[A-Z])[\w-]*|\d+\w*))*"
                       r"(?:\s+[a-z]+)?)", re.I)


#: A place or an organisation named, then a clause of the speaker's about it ("The canteen
#: at Unilever, where I've been working since March, ..."): the relative adverb "where"
#: stands for "at <name>" in its clause. (The name is read from a word's start: from every
#: capital of a long word the search was quadratic.)
_WHERE = re.compile(r"(?<![\w&'-])(?P<n>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*),?"
                    r"\s+where\s+(?P<c>(?:i|we)\b[^,;:.!?()]*)", re.I)


def where_said(sentence: str) -> list[str]:
    """The speaker's clauses about a name a sentence tells with "where", as statements:
    "The canteen at Unilever, where I've been working since March, ..." -> "I've been
    working at Unilever since March"."""
    said = []
    for m in _WHERE.finditer(sentence):
        verb = _VERB.match(m["c"].strip())
        said.append(f"{verb['s']} at {m['n']}{verb['r']}" if verb else
                    f"{m['c'].strip()} at {m['n']}")
    return said


#: A clause's subject and verb (its auxiliaries with it), then the rest: where "at <name>"
#: goes ("I've been working | since March").
_VERB = re.compile(r"^(?P<s>(?:i|we)(?:'\w+)?\s+(?:(?:have|has|am|are|been|had)\s+)*[a-z]+)"
                   r"(?P<r>.*)$", re.I)


def named_possession(sentence: str) -> str | None:
    """The thing of the speaker's a sentence names by its make ("my Volvo estate"), or
    None: one such thing, in a sentence of the speaker's present (no past, plan or
    addition, no negation)."""
    if sentence.rstrip().endswith("?") or TOLD_PAST.search(sentence) or \
            TOLD_NOT_NOW.search(sentence) or TOLD_ADDITION.search(sentence) or \
            _NEGATION.search(sentence) or _TEMPORARY.search(sentence):
        return None
    found = [m["t"] for m in _MY_NAMED.finditer(sentence)]
    return found[0] if len(found) == 1 else None


def present_state(sentence: str) -> str | None:
    """How ``sentence`` (first person, raw) tells a value of the speaker's own as holding
    now: "now" (a present-time adverbial), "acquired" (an acquisition verb), "plain" (a
    statement of how things stand, no word of time: :data:`_PLAIN`), or None."""
    if sentence.rstrip().endswith("?") or len(sentence.split()) > SIMILAR_WORDS or \
            TOLD_PAST.search(sentence) or TOLD_NOT_NOW.search(sentence) or \
            TOLD_ADDITION.search(sentence) or \
            _NEGATION.search(sentence) or several(sentence) or _TEMPORARY.search(sentence) or \
            whose(sentence) not in ("", UNKNOWN):
        return None     # another's fact ("my sister is a nurse these days")
    if holder_of(sentence) not in ("", UNKNOWN):
        # A thing of the speaker's said to be so ("my phone contract is with EE") is the
        # speaker's attribute, told plainly; else a thing's own state ("it's broken now").
        return "plain" if _PLAIN.match(sentence.strip()) and not is_event(sentence) and \
            re.match(r"^(?:my|our)\s", sentence.strip(), re.I) else None
    if TOLD_NOW.search(sentence):
        return "now"
    if _ACQUIRED.search(sentence):
        return "acquired"
    if _PLAIN.match(sentence.strip()) and not is_event(sentence):
        return "plain"
    return None


def present_target(source: str, pool: Pool, who: str,
                   skip: list[str]) -> dict[str, Any] | None:
    """The speaker's memory a present state told in ``source`` (the sentences of an
    episode; each whole, then each clause) replaces: the one-fact memory of the speaker's
    answering best the same single-valued attribute (a possession, for an acquisition).
    None when no part tells a present state or none is found (one model call per kind)."""
    found: dict[str, list[tuple[str, str, bool]]] = {"now": [], "acquired": [], "plain": []}
    for sentence in map(unaddressed, split_sentences(source)):
        if (thing := named_possession(sentence)) is not None:
            found["acquired"].append((f"{who} has a {thing}", "", False))
        # A plain statement names a value, in its clause or in its sentence of a
        # statement's length ("I get the train to work, the 7:40 from Didcot"); a story's
        # value is of another clause as often.
        valued = len(sentence.split()) <= SIMILAR_WORDS and \
            bool(values(tell(sentence, who) or "", who))
        for part in [sentence, *clauses(sentence), *where_said(sentence)]:
            # "... and bought a Kia" after "Dan sold his Focus": Dan's, not the speaker's.
            kind = None if anothers_clause(part, sentence) else present_state(part)
            told = tell(part, who) if kind else None
            # The speaker's own, the subject dropped or not ("Finally caved and got an
            # iPhone" is told "Cy finally caved ..."), never a thing's ("It's ... now").
            # Told plainly, a thing of the speaker's too ("Cy's broadband is with Sky").
            if kind and told and (told.startswith(f"{who} ") or
                                  kind == "plain" and told.startswith(f"{who}'s ")) and \
                    (kind != "plain" or valued or bool(values(told, who))):
                found[kind].append((told, "", False))
    embedder = pool.embedder()
    if embedder is None:
        return None
    # Not a memory the statement gives no new value (``holding.py``).
    memories = may_hold(source, pool.memories()[:MEANING_POOL], who)
    for kind, parts in found.items():
        if not parts:
            continue
        try:
            target = profile_target(parts, memories, who, embedder, skip, named=False,
                                    only=POSSESSIONS if kind == "acquired" else None)
        except Exception:   # a failing model finds nothing: the statement is added
            return None
        if target is not None:
            return target
    return None
