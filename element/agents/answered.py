"""What "there" and "that" name in an answer to the other speaker's question, for the
updates: "How's work at Lidl?" / "Oh I left there ages ago, I'm with Aldi now" ends the
Lidl job, and "Are you still at the bakery on Mill Road?" / "No, I packed that in, I'm at
the garden centre now" ends the bakery one. The question names the place or thing; the
answer's ending points back at it with a word that names nothing by itself. Written out
("I left Lidl ages ago"), the ending reads as any other (``updates.py``, ``endings.py``)
and the memory says what was left.

Only an answer's ending is read so: an answer that goes on about the question's place
("Yes, I went there last week") is the episode's to tell (``places.py`` keeps "there" to
the speaker's own turn), and a question naming nothing after a preposition ("How's it
going?") names nothing to point back at.
"""

from __future__ import annotations

import re

# The words a question says "now" by ("these days", "now"; not "now and then"): recall's
# (index/told.py), so that an answer written whole says its time as both sides read it.
# "Now" is read as a word after the verb and its particle ("Who are you playing for now?").
from index import RELATIONS, TOLD_NOW_WORD as _NOW_WORD, TOLD_PRESENT_TIME as _PRESENT_TIME

from .updates import signals

__all__ = ["answered", "asked_thing", "fragment", "still_denied"]

#: What a question asks about: the words after a preposition of place or company ("work at
#: Lidl", "still at the bakery on Mill Road", "still with Vodafone", "life in Glasgow"), up
#: to a word of time or manner that is no part of a name ("these days", "now", "lately").
_ASKED = re.compile(r"\b(?P<prep>at|in|with|for)\s+(?P<x>(?:the\s+|your\s+|that\s+)?[\w'&-]+"
                    r"(?:\s+(?!(?:these|now|then|still|lately|anymore|any|at|these|going|"
                    r"treating|so|too|right|this|today|ok|okay|then)\b)"
                    r"(?:on|of|in)?\s*[\w'&-]+){0,4})\s*(?:\?|$|,|\s+(?:these|now|then|still|"
                    r"lately|anymore|any|going|treating|so|too|right|this|today)\b)", re.I)
#: An ending of the speaker's whose object only points back ("left there", "quit that",
#: "packed it in", "gave that up", "finished there", "not there anymore", "don't work there
#: any more"): the verb, the pointing word, and what may close the verb ("in", "up").
_LEFT = re.compile(r"(?P<v>\b(?:left|leave|leaving|quit|quitting|finished|packed|jacked|gave|"
                   r"given|giving|stopped|moved\s+(?:away\s+)?from)|(?:\bnot|n't)(?:\s+\w+)?)\s+"
                   r"(?P<p>there|that|it)\b(?P<up>\s+(?:in|up))?(?!\s*(?:'s|is|was)\b)", re.I)
_OBJECT_VERBS = frozenset("left leave leaving quit quitting finished packed jacked gave given "
                          "giving stopped".split())
#: The verbs whose particle closes them ("packed it in", "gave that up").
_PARTICLE_VERBS = frozenset("packed jacked gave given giving".split())
#: An ending word in the answer, without which "there" is no ending ("I was there").
_ENDED = re.compile(r"\b(?:left|leave|leaving|quit|quitting|finished|packed|jacked|gave|given|"
                    r"stopped|moved|not|n't|no\s+longer|any\s?more)\b", re.I)


#: A thing asked after as the subject of how it goes: "How's the allotment going?", "How
#: is your book club getting on?" (a person asked after, "How's your mum doing?", is not
#: a thing the answer ends).
_HOW = re.compile(r"\bhow(?:'s|\s+is|\s+are|'re)\s+(?P<x>(?:the|your|that)\s+[\w'&-]+"
                  r"(?:\s+[\w'&-]+){0,3}?)\s+(?:going|doing|coming\s+along|getting\s+on|"
                  r"treating\s+you)\b", re.I)


def asked_thing(question: str) -> tuple[str, str] | None:
    """The place or thing ``question`` asks about and its preposition ("at", "Lidl"), in
    the answerer's words ("your job" -> "my job"), or None."""
    asked = [q for q in re.split(r"(?<=[.!])\s+", question) if q.rstrip().endswith("?")]
    for sentence in reversed(asked):
        found = _ASKED.search(sentence)
        prep = found["prep"].lower() if found else "at"
        if found is None and (found := _HOW.search(sentence)) is not None and \
                found["x"].lower().split()[-1] in RELATIONS:
            found = None
        if found:
            thing = re.sub(r"^your\b", "my", found["x"].strip(), flags=re.I)
            thing = re.sub(r"^that\b", "the", thing, flags=re.I)
            return prep, thing
    return None


#: A question of what the other speaker does, asking for one thing: "What are you driving
#: these days?", "Where are you working now?", "Which gym do you go to?".
_WH = re.compile(r"(?:^|[.!]\s+)(?P<wh>what|which|whereabouts|where|who)(?:\s+(?P<noun>[a-z]+))?\s+"
                 r"(?P<aux>are|do)\s+you\s+(?P<verb>[a-z]+)(?P<prep>\s+(?:to|at|for|with|in|on))?"
                 rf"(?P<tail>(?:\s+(?:{_PRESENT_TIME}|{_NOW_WORD}))?)"
                 r"\s*\?\s*$", re.I)
#: A fragment: a noun phrase without a verb ("A Skoda Octavia.", "Aldi."), the answer's
#: first sentence.
#: Or the noun phrase, a comma, and a clause of its own ("The Gym Group, it's cheaper",
#: "Harrogate, moved in June"); a preposition before it is the question's ("At Aldi").
_FRAGMENT = re.compile(r"^(?:(?:at|in|with|on)\s+(?=[^,.!]*(?-i:[A-Z])))?"
                       r"(?P<x>(?:(?:a|an|the|my)\s+)?(?-i:[A-Z0-9])[\w&'-]*(?:\s+[\w&'-]+){0,3})"
                       r"\s*(?:[.!](?:\s+|$)|,\s+(?=\S))", re.I)
def _fragment(text: str) -> re.Match[str] | None:
    """The bare noun phrase ``text`` opens on (:data:`_FRAGMENT`); before a comma, only a
    name ("The Gym Group, ..."), not a phrase of its own ("Taking your advice, I'm ...":
    LoCoMo's talk, conversations 0-2 .781 -> .779 with any)."""
    m = _FRAGMENT.match(text.strip())
    if m is not None and m[0].rstrip().endswith(",") and not all(
            w[:1].isupper() or w[:1].isdigit() or w.lower() in ("the", "a", "an", "of", "&")
            for w in m["x"].split()):
        return None
    return m


#: Words that make a sentence more than a noun phrase.
_VERBISH = re.compile(r"\b(?:i|we|you|he|she|it|they|is|are|was|were|am|'s|'m|be|been|have|"
                      r"has|had|do|does|did|not|no|yes|yeah|still|same|nothing|none|nobody|"
                      r"nowhere|much|usual|sure|maybe|dunno|okay|ok|thanks|fine|great|good)\b",
                      re.I)


#: The verbs a question asks what another of the speaker's people does or where they are
#: by ("Where's your son living these days?", "What's your daughter studying now?"): the
#: person is the subject, not "your son living" (a closed class; not "doing": an activity).
_DOING = r"(?:living|working|staying|studying|playing|driving|teaching|training|" \
    r"volunteering|learning|renting|running|riding|based)"

#: A question of what one of the other speaker's things is: "What's your favourite film
#: these days?", "Who's your GP now?", "Which is your local?": the thing, and when.
_WH_BE = re.compile(r"(?:^|[.!]\s+)(?P<wh>what|which|who|whereabouts|where)(?:'s|\s+is|\s+are)\s+"
                    rf"(?P<x>your\s+[^?]+?)(?:\s+(?P<doing>{_DOING}))?(?P<tail>(?:\s+(?:{_PRESENT_TIME}|{_NOW_WORD}))?)"
                    r"\s*\?\s*$", re.I)


def _be(text: str, question: str) -> str | None:
    """``text`` whose first sentence is a bare noun phrase answering what one of the
    speaker's things is (:data:`_WH_BE`), that sentence written whole: "Who's your GP
    now?" / "Dr Oduya." -> "My GP is Dr Oduya now."; else None."""
    q = _WH_BE.search(question.strip())
    m = _fragment(text)
    if q is None or m is None or _VERBISH.search(m["x"]):
        return None
    thing = re.sub(r"^your\b", "My", q["x"].strip(), flags=re.I)
    value = m["x"]
    if value.split()[0] in ("A", "An", "The"):
        value = value[0].lower() + value[1:]
    where = q["wh"].lower().startswith("where")
    link = "is in" if where else "is"
    if q["doing"]:
        # "Where's your son living these days?" / "Glasgow." -> "My son is living in
        # Glasgow these days.": the person is the subject, the verb theirs.
        doing = q["doing"].lower()
        at = ("in" if doing in ("living", "staying", "based") else "at") if where else ""
        link = " ".join(w for w in ("is", doing, at) if w)
    said = " ".join(w for w in (thing, link, value, q["tail"].strip()) if w)
    rest = text.strip()[m.end():]
    return (said + ". " + rest[:1].upper() + rest[1:]).strip()


def fragment(text: str, question: str | None) -> str:
    """``text`` whose first sentence answers ``question`` (what the other speaker does, one
    thing) with a bare noun phrase, that sentence written whole: "What are you driving these
    days?" / "A Skoda Octavia. The Mini died." -> "I am driving a Skoda Octavia these days.
    The Mini died."; "Where are you working now?" / "Aldi." -> "I am working at Aldi now.".
    Unchanged otherwise: the fragment alone names no attribute."""
    if question and (be := _be(text, question)) is not None:
        return be
    q = _WH.search(question.strip()) if question else None
    m = _fragment(text)
    if q is None or m is None or _VERBISH.search(m["x"]) or q["wh"].lower() == "who" and \
            q["noun"] or q["verb"].lower() in ("doing", "do", "up"):
        return text
    thing = m["x"]
    if thing.split()[0] in ("A", "An", "The", "My"):
        thing = thing[0].lower() + thing[1:]
    # (where one lives is "in" a place, as the rules read a home)
    where = "in" if q["verb"].lower() in ("live", "living", "based", "staying") else "at"
    prep = (q["prep"] or "").strip() or (where if q["wh"].lower().startswith("where") else "")
    said = " ".join(w for w in ("I am" if q["aux"].lower() == "are" else "I", q["verb"], prep,
                                thing, q["tail"].strip()) if w)
    rest = text.strip()[m.end():]
    return (said + ". " + rest[:1].upper() + rest[1:]).strip()


#: A question whether the other speaker still does or is something: "Are you still doing
#: nights at the warehouse?", "Do you still play five-a-side?".
#: In chat the subject and its verb are dropped: "Still in Accra?", "You still at Tesco?".
_STILL = re.compile(r"(?:^|[.!]\s+)(?:(?P<aux>are|do)\s+you\s+|you\s+)?still\s+(?P<x>[^?]+?)"
                    r"\s*\?\s*$", re.I)
#: Where the speaker is, asked with its preposition: "still in Accra", "still at Tesco".
_PLACED = re.compile(r"^(?P<prep>in|at|with|on)\s+\S", re.I)
#: After the "no", a bare name in the place asked of, and when: "Nope, Kumasi since
#: March.", "No, Lidl now.": the new value, said as the question's frame would say it.
_INSTEAD = re.compile(r"^(?i:no|nope|nah)\s*[,.!-]?\s+(?P<y>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])"
                      r"[\w'&-]*){0,3})(?P<t>\s+(?:since|from|as\s+of)\s+[^.!?]+|\s+now|"
                      r"\s+these\s+days)?\s*[.!]?$")
#: After the "no", the speaker's going over to a new name and when, "I" dropped: "Not
#: anymore, switched to Superdrug in June", "No, moved to Kumasi last year": the verbs of
#: changing over (a closed class), "to", a name. The new value, said in the question's
#: frame as ``_INSTEAD``'s bare name is (with its "I", "No, we moved to Leeds" tells the
#: change itself, and supersedes as said).
_SWITCHED = re.compile(r"^(?:just\s+|recently\s+)?"
                       r"(?:switched|moved|changed|went|transferred|swapped|jumped)\s+"
                       r"(?:(?:over|across|back)\s+)?to\s+(?P<y>(?-i:[A-Z])[\w'&-]*(?:\s+"
                       r"(?-i:[A-Z])[\w'&-]*){0,3})(?:\s+(?:in|back\s+in|during)\s+(?P<t>[^.!?,;]+)|"
                       r"\s+(?P<u>(?:since|from|as\s+of)\s+[^.!?,;]+)|"
                       r"\s+(?P<t2>(?:last|this)\s+[^.!?,;]+))?\s*[.!]?$", re.I)
#: An answer denying it: "No", "Nope", "Not for a while now", "Not anymore".
_DENIED = re.compile(r"^(?:no|nope|nah|not\s+(?:any\s?more|for\s+(?:a\s+while|ages|months|"
                     r"years|a\s+long\s+time)|since|these\s+days|really|now))\b", re.I)


#: The words of an answer that deny "still" and tell nothing else.
_STILL_DENIED = re.compile(r"\b(?:any\s?more|any\s+longer|no\s+longer)\b", re.I)


def still_denied(text: str, question: str | None) -> str:
    """``text`` denying a question whether the speaker still does something, with that
    said whole before it: "Are you still doing nights?" / "Not for a while now." -> "I am
    not doing nights anymore. Not for a while now."; unchanged otherwise, and when the
    answer tells the change or the ending itself ("No, we moved to Cardiff", "No, I packed
    that in": :func:`answered` names what "that" is)."""
    q = _STILL.search(question.strip()) if question else None
    # "Anymore" in the answer only denies the question's "still" ("Not anymore", "Nope,
    # not any more"): no change told of its own.
    told = _STILL_DENIED.sub(" ", text)
    if q is not None and (denied := _DENIED.match(text.strip())) is not None and \
            (place := _PLACED.match(q["x"])) is not None and \
            (over := _SWITCHED.match(text.strip()[denied.end():].lstrip(" ,.!-"))) is not None:
        # "Still at Boots?" / "Not anymore, switched to Superdrug in June." -> "I am not at
        # Boots anymore. I am at Superdrug since June.": the change over in June is being
        # there since; the preposition is the question's (a place "in", a firm "at").
        thing = re.sub(r"\byour\b", "my", q["x"], flags=re.I)
        at = over["t"] or over["t2"]
        when = f" since {at.strip()}" if at else \
            f" {over['u'].strip()}" if over["u"] else " now"
        return f"I am not {thing} anymore. I am {place['prep'].lower()} {over['y']}{when}."
    if q is None or not _DENIED.match(text.strip()) or signals(told).strong or _LEFT.search(text):
        return text     # "No, we moved to Cardiff": the change is told, and supersedes
    thing = re.sub(r"\byour\b", "my", q["x"], flags=re.I)
    thing = re.sub(r"\byou\b", "me", thing, flags=re.I)
    # Without its verb ("Still in Accra?"), a place or an -ing is "are", else "do".
    aux = (q["aux"] or ("are" if _PLACED.match(thing) or
                        thing.split()[0].lower().endswith("ing") else "do")).lower()
    verb = "I am not" if aux == "are" else "I do not"
    place, instead = _PLACED.match(thing), _INSTEAD.match(text.strip())
    if place and instead:
        # "Still in Accra?" / "Nope, Kumasi since March." -> "... I am in Kumasi since March."
        return f"{verb} {thing} anymore. I am {place['prep'].lower()} {instead['y']}" \
               f"{instead['t'] or ''}."
    return f"{verb} {thing} anymore. {text.strip()}"


#: A reply that echoes the question's auxiliary before the news ("Did the move happen?" /
#: "It did, we're in York now"; "Yes we have, ..."): it says only "yes"; the clause after
#: it, with its own subject, is the statement.
_ECHO = re.compile(r"^(?:(?:yes|yeah|yep|yup|oh|well)\W+)?(?:it|we|i)\s+(?:did|has|have|is|am|"
                   r"are|was)\s*[,!.;-]+\s+(?=(?:i|we|it|my|our)(?:'\w+)?\s)", re.I)


def answered(text: str, question: str | None) -> str:
    """``text`` (an answer to ``question``) with its ending's pointing word written as what
    the question asked about: "I left there ages ago" -> "I left Lidl ages ago"; unchanged
    when it points at nothing or ends nothing. A fragment answering what the speaker does
    is written whole first (:func:`fragment`), and a "no" to "are you still ...?" says
    what no longer holds (:func:`still_denied`)."""
    if question and (echo := _ECHO.match(text.strip())) is not None:
        text = text.strip()[echo.end():]
        text = text[:1].upper() + text[1:]
    text = still_denied(fragment(text, question), question).strip()
    thing = asked_thing(question) if question else None
    if thing is None or not _ENDED.search(text):
        return text
    prep, name = thing

    def put(m: re.Match[str]) -> str:
        verb = m["v"]
        head = verb.split()[0].lower()
        up = m["up"] or ""
        if head in _OBJECT_VERBS:
            # "packed that in" -> "packed in the bakery"; "left there (in May)" -> "left
            # Lidl (in May)": the particle is the verb's only after "packed", "gave".
            return f"{verb}{up} {name}" if head in _PARTICLE_VERBS else f"{verb} {name}{up}"
        if m["p"].lower() != "there":
            return m[0]     # "not that ...": not a place
        return f"{verb} {prep} {name}{up}"      # "not there" -> "not at Lidl"

    if (bare := _BARE_DENIED.match(text)) is not None and bare["verb"].lower() in _MOTION:
        # "I don't go anymore": the verb's object left to the question ("See you at
        # Weight Watchers on Tuesday?"), as "not there" points at it.
        verb = bare["verb"].lower()
        to = "to" if verb in _MOTION and prep == "at" else prep
        return f"{bare['head']} {to} {name} {text[bare.end('head'):].lstrip()}"
    return _LEFT.sub(put, text, count=1)


#: The speaker's present negated on a verb of going alone, its place left to the question:
#: "I don't go anymore", "we haven't been in months" (not "I don't drink anymore": a verb
#: with a meaning of its own).
_BARE_DENIED = re.compile(r"^(?P<head>(?:i|we)\s+(?:do\s+not|don't|dont|am\s+not|'m\s+not|"
                          r"have\s+not|haven't|never)\s+(?P<verb>[a-z]+))\s+(?=any\s?more\b|"
                          r"any\s+longer\b|these\s+days\b|nowadays\b|in\s+(?:months|years|ages|"
                          r"weeks|a\s+while)\b)", re.I)
#: Verbs of going, whose place takes "to" ("go to Weight Watchers", "been to the quiz").
_MOTION = frozenset("go going gone been come coming".split())
