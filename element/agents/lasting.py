"""Lasting: a first-person statement of something that holds for the speaker, told in an
ordinary shape the standing readings miss (issue 23: newer statements that write nothing).

``episode_words.standing`` keeps a short statement of how things stand ("I take the train
to work", "I'm at the stables most evenings") however few its words; it reads the sentence
whole, the clause before its first comma and the statement after a lead-in and a comma.
People say the same facts inside a frame the comma does not mark, or with no "I":

1. **A fronted adverbial**: the condition or the time of a habit said first, with or
   without a comma ("When the roads are icy I take the train", "If I'm not at work I'm at
   the stables", "On rainy days I work from the library", "Most evenings after work I'm at
   the climbing wall"). The speaker's main clause is read for its standing: after a
   subordinate clause (when, whenever, if, unless, once ...), the last first-person clause
   of the sentence; after a verbless phrase of time or place (no verb, no pronoun of
   another, nothing of the moment), the clause it opens. The sentence is told whole, its
   condition with it: the habit holds under it.
2. **"You'll find me at ..."**: the speaker placed by the listener's finding them ("Most
   evenings you'll find me at the climbing wall") is where the speaker is: "I am at".
3. **A done change of a thing of theirs**: "my"/"our" thing said to be done, built,
   finished, fixed ("Our loft conversion is finally finished", "My extension is built"):
   the speaker's news, however few its words; and the same told without its owner after a
   word of waiting ("At last the loft conversion is done!", "The new kitchen's in at
   last!"): the thing waited for is the speaker's ("my"), as ``implicit.py`` writes a
   thing told without its owner.

What stays unwritten: a main clause that is no standing (a feeling, a thought, a wish, a
moment: "If I had the money I'd buy a boat", "When I was little I loved the seaside",
"Today I'm so tired"), a done thing of the world or of the moment ("At last the rain has
stopped", "Finally the week is over": no thing one owns, no word of building).
"""

from __future__ import annotations

import re

from .episode_words import GENERIC, PARTICIPLES, stands
from .irregular import PARTICIPLES as IRREGULAR_PARTICIPLES
from .spoken import LEAD

__all__ = ["main_clause", "where_found", "own_done", "awaited", "awaited_in", "lasting"]

#: Conjunctions opening a subordinate clause of condition or time said before the main one.
_SUBORDINATE = re.compile(r"^(?:when|whenever|if|unless|once|as\s+soon\s+as|as\s+long\s+as|"
                          r"any\s*time|every\s+time|each\s+time|on\s+days\s+when)\b", re.I)
#: The speaker as a clause's subject, a verb after it.
_SPEAKER = re.compile(r"(?<![\w'’])(?:(?-i:I)|we)\s+(?=[a-z])", re.I)
#: Words that make a phrase a clause: the forms of "be", "have", "do", the modals, the
#: pronouns of a subject or of another person.
_CLAUSE_WORDS = frozenset("""is are was were be been am has have had do does did will would
can could should shall may might must you your he she it they them their his her there this
that what who which""".split())
#: Words that open a clause inside another ("why I am ...", "that we are ..."): the
#: first-person clause after one is not the sentence's main clause.
_OPENS_CLAUSE = frozenset("""why that what how where who which because since so and or but
when whenever if unless once till until while as whether than""".split())
#: The moment, not what holds ("Today I take the train", "Tonight I'm at my mum's").
_MOMENT = re.compile(r"\b(?:today|tonight|yesterday|tomorrow|this\s+(?:morning|afternoon|"
                     r"evening)|right\s+now|just\s+now|at\s+the\s+moment|earlier|later)\b",
                     re.I)
#: How many words a verbless fronted phrase has at most ("Most evenings after work").
_PHRASE_WORDS = 6


def main_clause(text: str) -> str | None:
    """The speaker's main clause of a cleaned sentence that opens on a fronted adverbial
    (module docstring, 1), or None when it opens on none."""
    if _MOMENT.search(text):
        return None
    if _SUBORDINATE.match(text):
        # The clause after the comma that closes the subordinate one; without a comma, the
        # last first-person clause after the subordinate's own words that no word of its
        # own opens ("If I am not at work I am at the stables" -> "I am at the stables";
        # not "... I try to remember why I am so passionate": a clause inside another).
        if "," in text:
            after = text.split(",", 1)[1].strip()
            return after if _SPEAKER.match(after) else None
        starts = [m.start() for m in _SPEAKER.finditer(text)
                  if len(text[:m.start()].split()) >= 3 and
                  text[:m.start()].split()[-1].lower() not in _OPENS_CLAUSE]
        return text[starts[-1]:].strip() if starts else None
    first = _SPEAKER.search(text)
    if first is None or first.start() == 0:
        return None
    words = re.findall(r"[A-Za-z][\w'’-]*", text[:first.start()])
    if not 1 <= len(words) <= _PHRASE_WORDS or \
            any(w.lower() in _CLAUSE_WORDS or len(w) > 4 and w.lower().endswith("ed") or
                w.lower() in ("and", "but", "because", "so", "or") for w in words):
        return None     # (a clause before it, or clauses joined: "and", "but" ...)
    return text[first.start():].strip()


#: The listener finding the speaker somewhere ("you will find me at the climbing wall",
#: "you can usually catch us down the allotment"): where the speaker is.
_FOUND = re.compile(r"\byou\s+(?:will\s+|would\s+|can\s+|could\s+|'ll\s+)?"
                    r"(?P<adv>(?:usually|always|normally|often|mostly)\s+)?(?:find|catch)\s+"
                    r"(?P<who>me|us)\s+(?=(?:at|in|on|down|up|out|by)\b)", re.I)


def where_found(text: str) -> str:
    """``text`` with the listener's finding the speaker said as where the speaker is
    (module docstring, 2): "Most evenings you will find me at the wall" -> "Most evenings
    I am at the wall"."""
    def said(m: re.Match[str]) -> str:
        subject = "I am " if m["who"].lower() == "me" else "we are "
        return subject + (m["adv"] or "")
    return _FOUND.sub(said, text)


#: Participles that say a thing is done, made or put in place (the closed class of
#: completion: a building, a repair, a deal): "built", "finished", "in" (installed).
_COMPLETION = (r"(?:done|finished|complete|completed|built|fitted|installed|sorted|fixed|"
               r"repaired|renovated|refurbished|decorated|painted|signed|finalised|finalized|"
               r"paid\s+off|sold|through|in|up|on)")
#: A word of waiting said with the news: the thing was the speaker's to wait for.
_AT_LAST = r"(?:at\s+(?:long\s+)?last|finally)"
_NOUN_PHRASE = r"(?P<np>(?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*)"
_BE = r"(?P<be>'s|’s|'re|’re|\s+is|\s+are|\s+has\s+been|\s+have\s+been)\s+"
_WAITED = re.compile(rf"^(?P<lead>{_AT_LAST}\s*,?\s+)?(?P<owner>the|my|our)\s+{_NOUN_PHRASE}"
                     rf"{_BE}(?:(?:all|finally|now|fully|officially)\s+)?(?P<done>[a-z]+(?:\s+off)?)\b"
                     rf"(?P<rest>[^.!?]*)(?P<end>[.!?]*)\s*$", re.I)
#: Nouns of time, the weather and events, whose end is the calendar's ("At last the week is
#: over", "Finally the rain is done").
_NOT_HELD = frozenset("""day days week weeks weekend month year term semester season rain
snow weather storm wind heat traffic match game meeting party show film exam exams test
shift queue wait""".split())


def awaited(sentence: str) -> str:
    """One raw sentence with a thing told done after a word of waiting said as the
    speaker's, their thing opening it (module docstring, 3): "At last the loft conversion
    is done!" -> "My loft conversion is done at last!" (the owner opening the sentence is
    the speaker as ``episodes`` reads one); else as said."""
    lead = LEAD.match(sentence.strip())
    said = sentence.strip()[lead.end() if lead else 0:]
    m = _WAITED.match(said)
    if m is None or not re.search(_AT_LAST, said, re.I) or \
            m["np"].split()[-1].lower() in _NOT_HELD or \
            not (re.fullmatch(_COMPLETION, m["done"].lower()) or
                 m["owner"].lower() != "the" and _done_to(m["done"].lower())):
        return sentence     # (a thing of "the" world is the speaker's when built, fixed
        # ...; one of theirs, by any participle that is no feeling: "my visa's approved")
    owner = "My" if m["owner"].lower() == "the" else m["owner"].capitalize()
    be = {"'s": "is", "’s": "is", "'re": "are", "’re": "are"}.get(m["be"].strip(),
                                                                  m["be"].strip())
    waited = " " + m["lead"].strip(" ,").lower() if m["lead"] else ""
    return f"{owner} {m['np']} {be} {said[m.end('be'):m.start('end')].strip()}{waited}" \
        f"{m['end'] or '.'}"


def awaited_in(text: str) -> str:
    """``text`` (one user turn) with each sentence of a thing waited for said as the
    speaker's (:func:`awaited`)."""
    parts = re.split(r"(?<=[.!?])\s+", text)
    written = [awaited(p) for p in parts]
    return text if written == parts else " ".join(written)


#: "my"/"our" thing said to be done, made or put in place ("Our loft conversion is finally
#: finished", "My divorce has been finalised").
_OWN_DONE = re.compile(rf"^(?:{_AT_LAST}\s*,?\s+)?(?:my|our)\s+{_NOUN_PHRASE}{_BE}"
                       r"(?:(?:all|finally|now|fully|officially)\s+)?(?P<done>[a-z]+)\b", re.I)


def own_done(text: str) -> bool:
    """Whether ``text`` tells a thing of the speaker's as done (module docstring, 3): its
    participle one of building, repair or a deal, or a past participle that is no feeling
    ("My feet are tired", "My kids are excited": how someone feels)."""
    m = _OWN_DONE.match(text)
    if m is None:
        return False
    done = m["done"].lower()
    if re.fullmatch(_COMPLETION, done) and (done not in ("in", "up", "on", "through") or
                                           re.search(_AT_LAST, text, re.I)):
        return True     # ("My kitchen is in at last": the particle of fitting, waited for)
    return _done_to(done) and m["np"].split()[-1].lower() not in _NOT_HELD


def _done_to(word: str) -> bool:
    """Whether ``word`` is a past participle that says what was done to a thing, not how
    someone feels ("approved", "sold", "granted"; not "tired", "excited")."""
    participle = word in IRREGULAR_PARTICIPLES or len(word) > 4 and word.endswith("ed")
    return participle and word not in PARTICIPLES and word not in GENERIC


#: An adverb of time after "am"/"are" ("I am still at the bakery", "we are now with
#: Octopus"): ``stands`` reads it before the verb only. Not "always": "I'm always on the
#: lookout for ...", "I'm always up for ..." say a disposition in talk (LoCoMo conversations
#: 3-4: one more memory, matching no fact of its own).
_AFTER_BE = re.compile(r"^((?:I|we)\s+(?:am|are))\s+(?:still|now|currently|usually|mostly|"
                       r"normally)\s+(?!(?:a|an|so|very|really|too|not)\b)", re.I)


def lasting(text: str) -> bool:
    """Whether a cleaned sentence tells something that holds for the speaker in a shape
    ``standing`` misses: its main clause after a fronted adverbial stands (1, 2), so does
    it with its adverb of time before "am" ("I am still at the bakery"), or a thing of
    theirs is done (3)."""
    main = main_clause(text)
    if main is not None and main != text and \
            (stands(main) or stands(_AFTER_BE.sub(r"\1 ", main))) or own_done(text):
        return True
    moved = _AFTER_BE.sub(r"\1 ", text)
    return moved != text and stands(moved)
