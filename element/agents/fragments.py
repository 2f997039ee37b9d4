"""Fragments: a newer value told with no verb and no subject, said whole (issue 23: the
largest bucket of newer statements missed on unseen cases wrote nothing at all).

People tell news as they talk, not as a form wants it: "York these days, since the
spring", "Liverpool all the way these days" (of "supports Everton"), "On days now,
finally" (of "works nights"), "Favourite film? Paddington 2, no contest", "My husband?
Paramedic". Read as it is, such a sentence has no subject and no verb: no rule keys it,
no episode scores it (it names no "I"), and nothing is written. Two shapes are said whole
here, as the plain statement would be, before the rules read the turn:

1. **A topic asked, then answered** by the speaker themself ("Favourite film? Paddington
   2."): the topic, a short noun phrase asked alone, is the subject; the answer, a verbless
   fragment, its value: "My favourite film is Paddington 2." A topic naming a person of the
   speaker's ("My husband? Paramedic") makes that person's fact, never the speaker's.
2. **A bare value said to hold now** ("now", "these days", "nowadays", "since ...", "as of
   ..."), completed from the memory it answers: the speaker's own one-fact memory (of the
   same subject, "<who> <verb>s ...") whose attribute the fragment is about by meaning (the
   profile bank, ``profile.py``: among the fragment's best answers is the memory's own
   attribute) and whose value is alike in kind (their value phrases alike, by the store's
   model). The memory's verb and preposition frame the new value: "On days now" with
   "Sam works nights" is "I work on days now". No memory clearly meant (none, or two alike):
   left as said.

Only sentences that write nothing as they are (no keyed rule reads them, no episode scores
them) are completed, so a statement the rules already read is read as before. A value told
with no word of the present ("Bristol for the weekend", "Hire car in Spain: a tiny Fiat")
is not completed: a visit or a loan is no new value. Of an unprompted turn that writes
nothing at all, two more are kept as said, in the speaker's name, replacing nothing:

3. **A fragment told alone** naming a value (:func:`told_alone`: "Gethin: Bristol for the
   weekend, lovely weather."), and a person's topic whose answer does not say how it is
   theirs ("My sister? Manchester now": "Ana's sister: Manchester now").
4. **A statement of a remembered attribute** with no "I" in it (:func:`told_plainly`: "Her
   cousin Lily turned five at the weekend" of "my daughter Freya is four"): one naming a
   value that the bank reads clearly as the attribute of one of the speaker's one-fact
   memories.

General: sentence shape (no verb, no subject, a short noun phrase), the bank and the
speaker's memories; no word of any case. Precision is LoCoMo's: no reaction, appraisal,
question, listener's name or sentence pointing back is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from index import ATTRIBUTES, Embedder

from .alike_kinds import one_of_a_kind
from .episode_words import ADVERBS, FAMILY, GENERIC
from .sentences import split_sentences
from .slots import PEOPLE
from .episodes import episode
from .presented import presented, time_first
from .profile import profiles
from .rules import extract
from .spoken import maybe_name
from .texted import PRESENT_VERBS, _base_of
from .verbless import (_ACRONYM, _CLAUSE, _FUNCTION, _HEAD, _NOT_VALUE, _NUMBER_WORD, _answered,
                       _expanded, _lowered, _opened, _REPLY, _unsaid, _words, topic_answered,
                       verbless)

__all__ = ["completed", "told_alone", "told_plainly", "writes_nothing",
           "held_attributes", "answers_held",
           "VALUE_MIN", "VALUE_MARGIN", "FRAGMENT_GAP", "PLAIN_WORDS"]

#: The least cosine of the fragment's value phrase with the memory's (the store's model):
#: "York" / "Leeds" .46, "On days" / "nights" .49, "Apple convert" / "an Android phone"
#: .27; a value of another kind stays lower ("York" / "a postman" .21, "Liverpool all the
#: way" / "a nurse" .07).
VALUE_MIN = 0.25
#: The least cosine of the values where the fragment's best answer, at least
#: ``NAMED_ANSWER_MIN``, is the attribute of the one memory meant ("A Toyota Yaris now" of
#: "drives a Saab": vehicle .54, values .15; "Swimming three mornings a week" of "goes
#: running before work": exercise .40, values .20).
NAMED_VALUE_MIN = 0.1
NAMED_ANSWER_MIN = 0.35
#: How much better than the next memory the one meant must be alike in value.
VALUE_MARGIN = 0.05
#: How far below its best answer to the bank the fragment may answer the memory's own
#: attribute ("Liverpool all the way these days": sport .43, fandom .36 of "supports
#: Everton"; residence .27, of "lives in Leeds", too far).
FRAGMENT_GAP = 0.1
#: Values this alike (cosine) widen that gap by ``STRONG_GAP``.
STRONG_VALUE = 0.5
STRONG_GAP = 0.05
#: The least answer of the fragment to the memory's attribute.
FRAGMENT_MIN = 0.18
#: How near its own best a memory's answer must be for that attribute to be the memory's
#: (a memory may answer two at once: "works as a postman", job and commute).
MEMORY_GAP = 0.03
#: The least best answer of a memory to the bank: a memory of no attribute frames nothing.
MEMORY_MIN = 0.28
#: What says a value holds now: the present, a start.
_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|since\s+\w+|"
                  r"as\s+of\s+\w+|officially|and\s+counting|"
                  # a start told by when it began ("Full-time from this month")
                  r"from\s+(?:this|next)\s+(?:week|month|term|year|season)|"
                  r"from\s+(?:the\s+)?(?:start|beginning)\s+of|"
                  # ... or by the day or month it began ("Day routes from January")
                  r"from\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|"
                  r"march|april|june|july|august|september|october|november|december))\b",
                  re.I)
#: Where the value of a memory opens after its verb: its article, preposition, possessive.
_OPENS = frozenset("a an the at in for with to on from as into their my our".split())
_ARTICLE = re.compile(r"^(?:a|an|the)\s", re.I)
_PREPOSITION = re.compile(r"^(?:at|in|on|for|with|to|from|into|as|by|off)\s", re.I)


def writes_nothing(sentence: str, who: str) -> bool:
    """Whether the rules read nothing in ``sentence`` alone: no keyed statement, and no
    episode but the fragment itself kept as said ("Kia Picanto these days": a name and a
    time, kept whole as news, with no subject and no verb: nothing read of it)."""
    if extract(sentence, 0, who):
        return False
    found = episode(sentence, who)
    return found is None or found.sentences == (sentence.strip().rstrip(".!"),) and \
        verbless(found.sentences[0])


#: A frame: who says it ("I", "My son"), its verb, the words opening its value, its value.
Frame = tuple[str, str, list[str], str]


def _frame(content: str, who: str) -> Frame | None:
    """A one-fact memory of the speaker's (or of a person of theirs: "Sam's son is 18
    months") as its subject in the speaker's words, its verb, the words that open its value
    (article, preposition) and its value ("Sam lives in Leeds": "I", "lives", ["in"],
    "Leeds"), or None: a past, several sentences, a statement of no present verb."""
    subject = "I"
    if content.startswith(who + "'s "):
        m = re.match(rf"{re.escape(who)}'s\s+((?:[a-z][\w-]*\s+){{0,1}}[a-z][\w-]*"
                     r"(?:\s+(?-i:[A-Z])\w+)?)\s+(?=(?:is|[a-z]+s)\s)", content)
        if m is None or not any(w in PEOPLE for w in m[1].lower().split()):
            # "Sam's favourite drink is gin": the speaker's own attribute, said with
            # "is" ("Rum these days": "My favourite drink is rum these days").
            m = re.match(rf"{re.escape(who)}'s\s+((?:[a-z][\w-]*\s+){{0,2}}[a-z][\w-]*)"
                         r"\s+(?=is\s)", content)
            if m is None:
                return None
        subject, said = f"My {m[1]}", content[m.end():]
    elif content.startswith(who + " "):
        said = content[len(who) + 1:]
    else:
        return None
    said = said.strip().rstrip(".")
    if not said or re.search(r"[.!?]\s", said) or len(said.split()) > 12:
        return None
    words = said.split()
    verb = words[0]
    if not (verb == "is" or re.fullmatch(r"[a-z]+s", verb)) or verb == "was":
        return None
    body = words[1:]
    opens: list[str] = []
    while body and body[0].lower() in _OPENS:
        opens.append(body.pop(0))
    if not body:
        return None
    return subject, verb, opens, _TIME_TAIL.sub("", " ".join(body)) or " ".join(body)


#: How often or when, closing a memory's value ("green tea every morning", "five-a-side
#: on Mondays"): no part of the value compared.
_TIME_TAIL = re.compile(r"\s+(?:every|each|once|twice|daily|weekly|on\s+\w+days|at\s+weekends|"
                        r"in\s+the\s+(?:morning|evening|afternoon)s?|at\s+night)\b.*$", re.I)


#: Said after a value, not part of it: a laugh, "all the way" (wholly), and the noun of
#: what the speaker is by it ("Spurs fan now", "Coffee person now!", "Kobo convert now":
#: Spurs, coffee, Kobo are the values, as "supports Arsenal", "drinks tea" hold theirs;
#: not a time of day, "Morning person now", whose value is no thing).
_LAUGH = re.compile(r"\s+(?:ha(?:ha)*|he(?:he)+|lol|lmao|x+)\b", re.I)
_WHOLLY = re.compile(r"\s+all\s+the\s+way\b", re.I)
_BY_IT = re.compile(r"(?<!\bmorning)(?<!\bnight)(?<!\bevening)(?<!\bday)(?<!\bearly)"
                    r"(?<!\bpeople)(?<=\w)\s+(?:person|people|fan|fans|convert|lover|addict|girl|guy|nut|"
                    r"fiend)(?=\s+(?:now|these\s+days|nowadays)\b|\s*$)", re.I)


def _bare(head: str, wholly: bool = True) -> str:
    """A fragment's head without what is said around its value (``_LAUGH``, ``_BY_IT``
    and, with ``wholly``, ``_WHOLLY``): "Spurs fan now haha" -> "Spurs now"."""
    head = _BY_IT.sub("", _LAUGH.sub("", head))
    return _WHOLLY.sub("", head) if wholly else head


def _value(head: str) -> str:
    """What a fragment's first clause names, its words of time and manner left out."""
    value = _NOT_VALUE.sub(" ", _bare(head))
    words = [w for w in value.split() if not (w.lower().endswith("ly") and len(w) > 4)
             and w.lower() not in ("just", "still", "strictly", "definitely", "all")]
    return " ".join(words).strip(" ,.!")


def _unit(vectors: Any) -> np.ndarray:
    matrix: np.ndarray = np.asarray(vectors, dtype=np.float32)
    unit: np.ndarray = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    return unit


def _meant(head: str, value: str, frames: list[tuple[str, Frame]], who: str,
           embedder: Embedder) -> Frame | None:
    """The frame of the one memory the fragment answers (module docstring, 2), or None."""
    found = profiles([head] + [content for content, _ in frames], who, embedder)
    said = found[0]
    if said.scores is None:
        return None
    best = float(said.scores.max())
    vectors = _unit(embedder.embed([value] + [frame[3] for _, frame in frames]))
    alike: list[tuple[float, Frame]] = []
    mine = int(np.argmax(said.scores))
    named: list[tuple[float, Frame]] = []    # of the fragment's own best attribute
    answered: list[tuple[float, Frame, set[int]]] = []   # each frame of an attribute it answers
    for (_, frame), memory, vector in zip(frames, found[1:], vectors[1:], strict=True):
        if memory.scores is None:
            continue
        top = float(memory.scores.max())
        if top < MEMORY_MIN:
            continue
        own = [i for i in range(len(ATTRIBUTES)) if float(memory.scores[i]) >= top - MEMORY_GAP]
        cosine = float(vectors[0] @ vector)
        # (values alike as two names of one kind, "Arsenal" / "Spurs" .71, may answer the
        # memory's attribute a little further below their best: sport .49, fandom .39)
        gap = FRAGMENT_GAP + (STRONG_GAP if cosine >= STRONG_VALUE else 0.0)
        if not any(float(said.scores[i]) >= max(best - gap, FRAGMENT_MIN) for i in own):
            continue
        answered.append((cosine, frame, set(own)))
        if cosine >= VALUE_MIN:
            alike.append((cosine, frame))
        elif cosine >= NAMED_VALUE_MIN and mine in own and best >= NAMED_ANSWER_MIN:
            named.append((cosine, frame))
    # A bare value names no one: its elided subject is the speaker ("Glasgow now" of "Sam
    # lives in Porto" and "Sam's mum lives in Swansea" is Sam's home, however alike
    # Glasgow and Swansea are). A person of theirs is meant only when no memory of the
    # speaker's own answers it, and by a value clearly of one kind with theirs ("20
    # months now" of "Sam's son is 18 months" .84; not "santander now tho" of "Sam's mum
    # lives in Swansea" .35, "the tram" .28: the speaker's bank and bus) or by a number
    # where theirs is one (an age, a count: "Two now" of "18 months", .29).
    if (speakers := _own_of_their_kind(answered)) is not None and \
            all(_theirs(frame) for _, frame in alike):
        return speakers
    alike = _own_first([a for a in alike if not _theirs(a[1]) or a[0] >= STRONG_VALUE or
                        _counted(value) and _counted(a[1][3])])
    named = [n for n in named if not _theirs(n[1])]
    if not alike and len(named) == 1:
        # Two names of one kind the model holds apart ("A Toyota Yaris" / "Saab" .15):
        # the fragment answers that attribute best, and clearly, and one memory holds it.
        return named[0][1]
    alike.sort(key=lambda a: -a[0])
    if not alike and not named:
        # Of one kind by what their nouns name, where the model holds them apart
        # ("Fountain pen user now" of "writes with a biro", ``alike_kinds``).
        of_speaker = [frame for _, frame in frames if not _theirs(frame)]
        kind = one_of_a_kind(value, [frame[3] for frame in of_speaker])
        return of_speaker[kind] if kind is not None else None
    if not alike or len(alike) > 1 and alike[0][0] - alike[1][0] < VALUE_MARGIN:
        return None
    return alike[0][1]


def _theirs(frame: Frame) -> bool:
    """Whether ``frame`` is a person of the speaker's ("My mum"), not the speaker's own."""
    return frame[0] != "I" and any(w in PEOPLE for w in frame[0].lower().split())


def _own_of_their_kind(answered: list[tuple[float, Frame, set[int]]]) -> Frame | None:
    """The speaker's one memory of the attribute a value alike a person of theirs's holds
    ("Plymouth now" of "Sam lives in Truro", .23, and "Sam's brother lives in Exeter",
    .32): the value is of that kind, and its elided subject the speaker; None when there
    is no such memory, or several."""
    kinds = [attrs for cosine, frame, attrs in answered
             if _theirs(frame) and cosine >= VALUE_MIN]
    own = [frame for cosine, frame, attrs in answered
           if not _theirs(frame) and cosine >= NAMED_VALUE_MIN and any(attrs & k for k in kinds)]
    return own[0] if len(own) == 1 else None


def _counted(value: str) -> bool:
    """Whether ``value`` says a number ("18 months", "Two", "three kids")."""
    return any(w.isdigit() or _NUMBER_WORD.match(w) for w in _words(value))


def _own_first(found: list[tuple[float, Frame]]) -> list[tuple[float, Frame]]:
    """Of the frames a fragment may answer, the speaker's own when there are any."""
    own = [pair for pair in found if not _theirs(pair[1])]
    return own or found


def _said_in(frame: Frame, fragment: str) -> str:
    """The fragment said whole in a memory's frame: "On days now, finally" in "works
    nights" is "I work on days now, finally"."""
    subject, verb, opens, _ = frame
    first = fragment.split()[0].lower() if fragment.split() else ""
    core = re.sub(r"^(?:\w+ly|just|still)\s+", "", fragment, flags=re.I)
    if _PREPOSITION.match(core):
        opens = []      # the fragment's own preposition ("On days")
    elif _ARTICLE.match(core):
        if verb not in ("is", "has") and re.match(r"an?\s", core, re.I) and \
                not any(w.lower() in ("a", "an") for w in opens) and \
                not re.search(r"\bof\b", core, re.I):     # (not "a bit of German")
            # "Strictly a coffee person now" of "drinks green tea": what the speaker is,
            # a noun with an article where the memory's value has none
            verb = "is"
        opens = [w for w in opens if w.lower() not in ("a", "an", "the", "their", "my", "our")]
        if verb == "is":
            opens = []
    if subject == "I":
        verb = "am" if verb == "is" else _base_of(verb)
    # (its adverb of stance left out: "Officially a midwife"; said in a verb's frame, the
    # noun of what the speaker is by the value too: "Spurs fan now" of "supports Arsenal"
    # is "I support Spurs now")
    fragment = core if verb in ("am", "is") else _bare(core, wholly=False)
    first = fragment.split()[0].lower() if fragment.split() else ""
    value = fragment[:1].lower() + fragment[1:] if first in ("a", "an", "the") else \
        fragment if first.isdigit() else _lowered(fragment)     # an article is no name
    if frame[3][:1].islower() and not first.isdigit() and \
            not _ACRONYM.fullmatch(fragment.split()[0] if fragment.split() else ""):
        value = value[:1].lower() + value[1:]   # a common noun for one ("nights": "Mornings")
    return " ".join([subject, verb, *opens, value])


def completed(text: str, memories: Iterable[str], who: str,
              embedder: Embedder | None) -> str:
    """``text`` (a user turn of ``who``'s) with its verbless fragments said whole: a topic
    asked and answered (:func:`topic_answered`), a bare value said to hold now in the frame
    of the one memory it answers (module docstring); unchanged otherwise."""
    told = list(split_sentences(text))
    # A value presented after an empty "it's" ("These days it's Lidl for the big shop"):
    # its fragment, when the sentence writes nothing as said (``presented.py``).
    # So is a value told after its time ("Since March, a Skoda Octavia").
    sentences = [p if (p := presented(_opened(s)) or time_first(_opened(s))) is not None and
                 writes_nothing(s, who) else s for s in told]
    if not any(verbless(m["head"]) for s in sentences if (m := _HEAD.match(_opened(s)))):
        return text
    shown = {s for s in sentences if s not in told}
    sentences = topic_answered(sentences, who)
    if embedder is not None:
        frames: list[tuple[str, Frame]] = []
        seen: set[str] = set()
        for content in memories:
            if content not in seen and (frame := _frame(content, who)) is not None:
                seen.add(content)
                frames.append((content, frame))
        for k, sentence in enumerate(sentences):
            body = _opened(sentence)
            m = _HEAD.match(body)
            if not frames or m is None or body.rstrip().endswith("?") or \
                    not _NOW.search(body) or not verbless(m["head"]) or \
                    k and _answered(sentences, k - 1) is not None:
                continue    # (the answer to a topic of another's: "My sister? Leeds now")
            if len(_words(m["head"])) == 1 and m["rest"] and \
                    re.search(r"\b(?:you|your|i|i'm|we|we're)\b", m["rest"], re.I):
                continue    # a name called, then what is said to them ("Caroline, you ...")
            value = _value(m["head"])
            if not value or sentence not in shown and not writes_nothing(sentence, who):
                continue    # (a presented value's sentence wrote nothing as said)
            try:
                frame = _meant(m["head"], value, frames, who, embedder)
            except Exception:   # a failing model completes nothing: left as said
                frame = None
            if frame is not None:
                sentences[k] = _said_in(frame, m["head"].strip()) + (m["rest"] or "")
    if sentences == told:
        return text
    return " ".join(s if s.rstrip().endswith((".", "!", "?")) else s + "." for s in sentences)


#: A fragment told alone that names a value ("Bristol for the weekend, lovely weather",
#: "Hire car in Spain: a tiny Fiat"): kept as said, in the speaker's name, when nothing else
#: of the turn is.
_NAMES = re.compile(r"(?<=\s)(?-i:[A-Z])[\w&'-]+|(?<![<\w])\d")


#: The present of the verbs a person's attributes are asked with, and of the irregular
#: ones, in "-s" ("works", "lives", "goes"): a clause's verb, in a fragment's place.
_THIRD_PERSON = frozenset(v + ("es" if v.endswith(("s", "sh", "ch", "x", "o")) else "s")
                          for v in PRESENT_VERBS)


def told_alone(text: str, who: str, others: Iterable[str] = ()) -> tuple[str, str] | None:
    """A turn's verbless fragment that names a value (a name past its first word, a
    number, or a name opening it with another word of content: "Bristol for the
    weekend"), not a question nor a word to the other person, as a memory in the speaker's
    name ("Gethin: Bristol for the weekend, lovely weather.") and its sentence; None when
    the turn has none. For a turn that writes nothing otherwise: what is told in passing
    is kept as said, and replaces nothing (it names no attribute)."""
    names = {n.lower() for o in others for n in o.split()} | {w.lower() for w in who.split()}
    said = list(split_sentences(text))
    for k in range(len(said)):
        if (found := _answered(said, k)) is not None and _unsaid(*found):
            # "My sister? Manchester now, loves it": "Ana's sister: Manchester now, ..."
            owner = re.sub(r"^(?:My|Our)\s", f"{who}'s ", found[0])
            answer = found[1].rstrip()
            return f"{owner}: {answer}{'' if answer.endswith(('.', '!')) else '.'}", \
                f"{said[k]} {said[k + 1]}"
    for sentence in said:
        body = _opened(sentence)
        m = _HEAD.match(body)
        if m is None or body.rstrip().endswith(("?", "!")) or not verbless(m["head"]) or \
                body != sentence.strip() and not _LINKED.match(sentence.strip()) and \
                body != _REPLY.sub("", sentence.strip()).strip() or \
                _APPRAISED.search(body):
            continue    # (an exclamation or what an interjection opens: "Good luck with ...!")
        if any(w.lower() in _CLAUSE or w.lower() in _THIRD_PERSON
               for w in _words(_expanded(body))
               if w.lower() not in ("not", "that", "this", "here", "there")):
            continue    # a clause after it ("Maria, I'm glad ...", "Next Friday works")
        head = m["head"].strip()
        first = _words(head)[0] if _words(head) else ""
        named = [n for n in _NAMES.findall(" " + body[len(first):])
                 if n.lower().removesuffix("'s") not in names]
        content = [w for w in _words(_NOT_VALUE.sub(" ", head).lower())
                   if w not in _FUNCTION and w not in GENERIC and w not in ADVERBS and len(w) > 2]
        # a name opening it, then where or when ("Bristol for the weekend", "Pizza last
        # night at ..."), not a verb ("Gather documents like ...")
        opens_named = first[:1].isupper() and maybe_name(first) and \
            first.lower() not in names and len(content) >= 2 and \
            bool(re.match(r"\S+\s+(?:for|in|at|on|with|since|until|till|last|next|this|"
                          r"tonight|today|tomorrow)\b", head, re.I))
        if not (named or opens_named) or not content or first.lower() in GENERIC:
            continue
        if re.search(r"\bnow\b", head, re.I) and not _SINCE.search(body):
            continue    # "Lunch at Dishoom now": the moment, not what holds (``fragment_now``)
        kept = body.rstrip()
        return f"{who}: {kept}{'' if kept.endswith(('.', '!')) else '.'}", sentence
    return None


#: A fragment opening on a word that links it to what the speaker said before ("And a
#: second job at weekends, at the Odeon", "Plus the allotment since the spring"): more
#: told, as the fragment alone would be (an interjection is not: "Good luck with ...").
_LINKED = re.compile(r"^(?:oh,?\s+)?(?:and|plus|also)\b(?:\s+also\b)?\s*,?\s*(?=[\w'])(?!"
                     r"(?:i|you|he|she|we|they|it)\b)", re.I)
#: What says "now" is a state held, not the moment: a start, a habit.
_SINCE = re.compile(r"\b(?:since|as\s+of|these\s+days|nowadays|every|each|once|twice|"
                    r"a\s+week|a\s+month|a\s+day|on\s+\w+days|at\s+weekends)\b", re.I)


#: The second person: a sentence about the listener is theirs, not the speaker's news.
_SECOND = re.compile(r"\b(?:you|your|yours|yourself|u|ya)\b", re.I)
#: A sentence opening on what was said or shown before ("That bowl is ...", "It was ...").
_POINTING = re.compile(r"^(?:that|this|those|these|it|they|he|she|such|so)\b", re.I)
#: An appraisal of a thing ("... sounds cool", "... looks great", "... is worth it").
_APPRAISED = re.compile(r"\b(?:sounds?|looks?|seems?|worth\s+it)\b", re.I)
#: A name called at the end of a sentence ("..., Mel!").
_VOCATIVE = re.compile(r",\s*(?-i:[A-Z])[\w'-]*[.!]*$")
#: A statement opening on a person of the speaker's family, by their tie ("The kids
#: have ...", "My husband's ...", "Our eldest ...").
_KIN = FAMILY - {"family", "fam", "pet", "pets", "dog", "dogs", "cat", "cats", "puppy",
                 "kitten"} | {"neighbour", "neighbours", "neighbor", "neighbors", "flatmate",
                              "housemate", "friend", "friends", "mate", "mates", "colleague",
                              "colleagues", "hubby", "missus", "other half", "girls", "boys",
                              "lads", "little one", "little ones"}
#: ... or by the tie alone, as a name ("Grandad's ...", "Mum's moved ...").
_KIN_NAMES = "mum|mam|mom|dad|grandad|granddad|grandpa|grandma|gran|granny|nan|nana"
_KIN_OPENING = re.compile(r"^(?:(?:my|our|the)\s+(?:[a-z-]+\s+)?(?:" + "|".join(
    sorted(_KIN, key=len, reverse=True)) + r")|(?-i:(?:" + "|".join(
    w.capitalize() for w in _KIN_NAMES.split("|")) + r")))\b(?!\s*-)", re.I)
#: At most this many words in a statement kept as said (a story is an episode's).
PLAIN_WORDS = 30


def told_plainly(text: str, who: str, others: Iterable[str], memories: Iterable[str],
                 embedder: Embedder | None) -> tuple[str, str] | None:
    """A turn's statement that names a value (a name, a number) and that the
    profile bank reads clearly as answering an attribute the speaker has a one-fact memory
    of (``profile.py``: "Her cousin Lily turned five at the weekend" of "my daughter Freya
    is four": an age), kept as said in the speaker's name, and its sentence; None when the
    turn has none. For a turn that writes nothing otherwise (no "I" in it, say): what is
    told of that attribute is kept, and replaces nothing."""
    if embedder is None:
        return None
    names = {n.lower() for o in others for n in o.split()} | {w.lower() for w in who.split()}
    said: list[str] = []
    for sentence in split_sentences(text):
        body = _opened(sentence).rstrip()
        words = _words(body)
        if body.endswith(("?", "!")) or _SECOND.search(body) or _APPRAISED.search(body) or \
                not 4 <= len(words) <= PLAIN_WORDS or _POINTING.match(body):
            continue    # (what the other shared, pointed at: "That bowl is awesome, Mel!")
        # (a name called at the end, "..., Mel!", is the listener's: no value)
        told = _VOCATIVE.sub("", body)
        named = [n for n in _NAMES.findall(" " + told[len(words[0]):])
                 if n.lower().removesuffix("'s") not in names and
                 not any(o.startswith(n.lower()) for o in names)]
        # (or of a person of the speaker's family, named by their tie: "The kids have
        # taken up the trumpet as well" of "plays the trumpet", theirs told in passing)
        if named or _KIN_OPENING.match(told):
            said.append(body)
    held = [c for c in dict.fromkeys(memories) if _frame(c, who) is not None]
    if not said or not held:
        return None
    try:
        found = profiles(said + held, who, embedder)
    except Exception:   # a failing model keeps nothing
        return None
    clear = {p.attribute.name for p in found[len(said):] if p.attribute is not None}
    kept = held_attributes(found[len(said):])
    for sentence, profile in zip(said, found, strict=False):
        if profile.attribute is not None and profile.attribute.name in clear or \
                not _OPINION.search(sentence) and \
                not any(w.lower() in GENERIC for w in _words(sentence)) and \
                answers_held(profile, kept):
            return f"{who}: {sentence}{'' if sentence.endswith(('.', '!')) else '.'}", sentence
    return None


#: An opinion or an aside, not news: "so inspiring", "one of my favourites", "What's
#: awesome about ...", "I mean".
_OPINION = re.compile(r"\b(?:so|such|favou?rites?|what's|what\s+is|how|i\s+mean|"
                      r"inspiring|beautiful|lovely|gorgeous|best|worst)\b", re.I)


def held_attributes(memories: Sequence[Any]) -> set[int]:
    """The attributes the profiles of one-fact memories hold: each one's clear attribute,
    and those it answers within ``MEMORY_GAP`` of its best (at least ``MEMORY_MIN``: "has
    a Kindle" is phone .41 and computer .38, clear of neither)."""
    kept: set[int] = set()
    for memory in memories:
        if memory.attribute is not None:
            kept.add(ATTRIBUTES.index(memory.attribute))
        if memory.scores is not None and (top := float(memory.scores.max())) >= MEMORY_MIN:
            kept |= {i for i in range(len(ATTRIBUTES))
                     if float(memory.scores[i]) >= top - MEMORY_GAP}
    return kept


def answers_held(profile: Any, kept: set[int]) -> bool:
    """Whether a statement's profile answers one of the ``kept`` attributes: its clear
    attribute, or its best answer (at least ``FRAGMENT_MIN``) where none is clear ("The
    Kobo turned up this morning": phone .19 of "has a Kindle")."""
    if profile.attribute is not None:
        return ATTRIBUTES.index(profile.attribute) in kept
    if profile.scores is None or float(profile.scores.max()) < FRAGMENT_MIN:
        return False
    return int(np.argmax(profile.scores)) in kept
