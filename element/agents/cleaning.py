"""How the sentence rules read a user's turn: its sentences cut into clauses, each cleaned
(contractions expanded, fillers and openers dropped, a dropped subject restored) before
``rules.py`` matches a shape in it. Pure functions: no I/O, no store.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from index import ATTRIBUTES, RELATIONS, TOLD_NOWISH

from .carriers import carriers
from .episodes import restore_subject
from .sentences import clauses, ends_with_abbreviation, split_sentences, untag
from .spoken import HAD_D, MY_IS
from .texted import PRESENT_VERBS, REQUESTED

__all__ = ["APOS", "CORRECTION", "clean", "norm", "statements", "carried", "owned_nouns",
           "unmarked", "unmoved"]

APOS = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'"})
#: A request to amend a record of the speaker's ("Update my employer to Lidl"): its new value.
_REQUESTED = re.compile(REQUESTED[0], re.I)
_EXPAND = [(re.compile(p, re.I), r) for p, r in (
    REQUESTED, HAD_D, (r"\bain't\b", "is not"),
    (r"\bi'm\b", "I am"), (r"\bi've\b", "I have"), (r"\bi'd\b", "I would"),
    (r"\b(we|you|they|he|she|it|that|there)'d\b", r"\1 would"),
    (r"\bi'll\b", "I will"), (r"\bwe're\b", "we are"), (r"\bwe've\b", "we have"),
    (r"\bcan't\b", "cannot"), (r"\bwon't\b", "will not"),
    (r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should)n't\b", r"\1 not"),
    # "it's been", "she's got": "has" before a participle ("it is been" read it as "is").
    (r"\b(it|that|what|he|she)'s(?=\s+(?:been|got|gone|had)\b)", r"\1 has"),
    (r"\b(it|that|what|he|she)'s\b", r"\1 is"), (r"\bname's\b", "name is"),
    (MY_IS, r"\1 is "))]
_FILLER = re.compile(r"^(?:(?:oh|ah|well|hey|hi|hello|ok|okay|so|and|but|also|btw|by the way|"
                     r"fyi|just so you know|for the record|for your information|to be clear|"
                     r"honestly|anyway|(?:a\s+)?(?:quick|small|little|big|good|bad|some)\s+"
                     r"(?:update|news)|update|news|heads up|guess what|(?:it\s+|as it\s+)?"
                     r"turns out(?:\s+that)?|these days|nowadays|currently|now|no idea|who knows|"
                     r"dunno)\b[\s,:;!.-]*)+",
                     re.I)
#: The words of the present among the fillers: what holds now, kept (:func:`clean`).
_LEAD_NOW = re.compile(r"\b(?:these days|nowadays|currently|now)\b", re.I)
#: "Now that ...": a conjunction (a cause), no word of the present.
_NOW_THAT = re.compile(r"(?:\w+[\s,]+)*?now\s+that\b", re.I)
#: "Oh no!": dismay at what the other said, no correction marker ("Oh no! Sorry to hear
#: that" corrects nothing).
_DISMAY = re.compile(r"^(?:oh|ah|aw|aww|uh|oh my)[\s,]+no\b[\s,!.]*", re.I)
#: A correction marker opening a clause ("Actually, ...", "No, I meant ...").
CORRECTION = re.compile(r"^(?P<m>actually|no|nope|not quite|wrong|correction|i meant|sorry,?\s+i "
                        r"meant|that is (?:wrong|not right|incorrect|not true|not correct))"
                        r"\b[\s,:;!.-]*", re.I)


def norm(text: str) -> str:
    """Lowercase words only: how keys and duplicate contents compare."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().translate(APOS)))


def _unfilled(text: str) -> tuple[str, str]:
    """``text`` without its opening fillers (:data:`_FILLER`), and the word of the present
    among them ("These days I play squash": "I play squash", "these days"), if any."""
    lead = _FILLER.match(text)
    now = _LEAD_NOW.search(lead.group(0)) \
        if lead and not _NOW_THAT.match(text[lead.start():]) else None
    return _FILLER.sub("", text).strip(), now.group(0).lower() if now else ""


def unmoved(said: str) -> str:
    """A cleaned statement (normalised) without the word of the present :func:`clean`
    said after it, as the sentence told it first ("these days it is the trumpet ..." holds
    "it is the trumpet ..."): what it reads of the sentence, for the readers that look
    for it there."""
    return re.sub(r"\s+(?:these days|nowadays|currently|now)$", "", said)


def clean(raw: str) -> str:
    """One sentence as the rules read it: contractions expanded, fillers and openers
    dropped ("Quick update: ..."), a dropped subject restored ("Just moved to Leeds"),
    the closing punctuation gone (an abbreviation's period stays)."""
    text = raw.translate(APOS)
    for pattern, repl in _EXPAND:
        text = pattern.sub(repl, text)
    # An opening word of the present ("These days it's the trumpet I practise") is no
    # filler to a reader of change: it says the value holds now, against what was. It is
    # kept, said after the statement, where the readers look for it.
    # An opening word of the present ("These days it's the trumpet I practise") is no
    # filler to a reader of change: it says the value holds now, against what was. It is
    # kept, said after the statement once the shapes below are read.
    text, now = _unfilled(text.strip())
    text = text if ends_with_abbreviation(text) else text.rstrip(".!?;").strip()
    # "Jo is my manager" (after a time too) is "my manager is Jo", which the rules key.
    text = _NAME_IS_MY.sub(lambda m: f"My {m['r']} is {m['n']}{m['t'] or ''}",
                           _SINCE_OPENER.sub("", text))
    # "Gareth's the new boss since April", "Monzo's the bank now": the value first, then
    # which of the speaker's it is now, "my" said by "the new" or "now".
    text = _NAME_THE_NEW.sub(lambda m: f"My {m['new'] + ' ' if m['new'] else ''}"
                                       f"{m['r'].lower()} is {m['n']}{m['rest']}", text)
    # "New number is 555-0199", "First day at Stripe was ...": a chat's dropped "my" (a
    # lowercase noun after "new": "New York is great" is a name).
    text = _FIRST_OWN.sub("My first ", _NEW_OWN.sub("My new ", text))
    # "Car's a Kia Niro now", "Mum's in Perth these days": one of the speaker's things or
    # people as the subject, "my" dropped (a bare singular noun takes a determiner).
    text = _BARE_OWN.sub(lambda m: f"My {m['n'].lower()} is ", text)
    # "Job at Lidl since Monday", "Kids at St Anne's now": one of them and where it is now,
    # no verb at all; "my" and "is" dropped.
    text = _BARE_OWN_AT.sub(lambda m: f"My {m['n'].lower()} "
                                      f"{'are' if _plural(m['n']) else 'is'} ", text)
    # "Phone number changed to 07700 900123", "Surname's Patel now": one of the speaker's
    # details and its new value, "my" dropped.
    text = _DETAIL_NOW.sub(lambda m: f"My {m['n'].lower()} is {m['v'] or m['w']}", text)
    # "Ella had her 4th birthday" says "Ella turned 4".
    text = _BIRTHDAY.sub(lambda m: f"{m['n']} turned {m['age']}", text)
    # "I'd pick tacos over sushi any day", "Tea beats coffee any day": a taste told by
    # comparison is "I prefer tacos over sushi", which the rules key by both things.
    text = _COMPARED.sub(lambda m: f"I prefer {m['a'] or m['c'] or m['e']} over "
                                   f"{m['b'] or m['f']}", text)
    text = restore_subject(text)
    return f"{text} {now}" if now and text and not TOLD_NOWISH.search(text) else text


#: A preference said by comparison: "I would pick / take / choose / go for X over Y", "I
#: would rather have X than Y", "X beats Y any day" (the tail says it is a taste, not a
#: match result: "Leeds beat Hull" is not). Not a pronoun for either thing ("I'd take that
#: over nothing"): the rules could not tell what.
_THING = (r"(?!(?:it|that|this|them|those|these|one|nothing|anything|you)\b)[\w'-]+"
          r"(?:\s+[\w'-]+){0,3}?")
_ANY_DAY = r"\s+(?:any day(?: of the week)?|every time|anytime|any time|hands down|every day)"
_COMPARED = re.compile(
    r"^I\s+would\s+(?:(?:always|still|definitely|totally|probably|now)\s+)*"
    r"(?:(?:pick|take|choose|go for)\s+(?P<a>" + _THING + r")\s+over|"
    r"(?:much\s+)?rather\s+(?:have|eat|drink|watch|read|use|drive|play|listen to)\s+"
    r"(?P<c>" + _THING + r")\s+than)\s+(?P<b>" + _THING + r")(?:" + _ANY_DAY + r")?$|"
    r"^(?P<e>" + _THING + r")\s+(?:beats|trumps)\s+(?P<f>" + _THING + r")" + _ANY_DAY + r"$",
    re.I)


def owned_nouns() -> str:
    """The nouns of what a person has or who they have: the profile's attributes, by their
    names and as their questions name them ("What car do they drive?", "their job"), and
    the words of kin and the people around them (``RELATIONS``)."""
    # ("work": the workplace's own word, "Where do they work?", as in "Work's at Monzo")
    nouns = set(RELATIONS) | {"work"}
    for attribute in ATTRIBUTES:
        nouns.add(attribute.name)
        for question in attribute.questions:
            nouns.update((m[1] or m[2]).lower() for m in re.finditer(
                r"\btheir\s+([a-z]+)|\b(?:what|which)\s+([a-z]+)\s+(?:do|does|are|is)\b",
                question, re.I))
    return "|".join(sorted(n for n in nouns if not n.endswith("ing") and n != "free"))


#: One of those nouns opening a sentence without a determiner, then "is" and what it is:
#: a name, a place, a thing ("Car's a Kia Niro now", "Boss is Gareth now", "Mum's in Perth
#: these days"), or where or how it is now ("Commute is by bus now"). Not "'s" of "has"
#: ("Dad's got a Volvo"), not a judgement ("Job's great now", "Car's a wreck now"), not a
#: possessive.
_BARE_OWN = re.compile(
    r"^(?P<n>(?i:" + owned_nouns() + r"))(?:'s|\s+is)\s+"
    # (not the possessive: "Partner's car is a Tesla" is the partner's)
    r"(?!(?:[\w'-]+\s+){1,2}(?:is|are|was|were)\b)"
    r"(?=(?:(?:now|still|currently)\s+)?(?:(?:a|an|the|at|in|with|on|from|by|called|named)\s+)?"
    r"(?-i:[A-Z])|(?:at|in|with|on|from|by)\s[^,;]*\b(?:now|these days|nowadays|"
    r"currently)\b)")


#: One of those nouns without a determiner, where it is by its preposition and a name, and
#: the time it holds from or the present ("Job at Lidl since Monday", "Gym at the Y these
#: days"): a verbless statement of the speaker's ("Job at Lidl is hard" has its verb).
_BARE_OWN_AT = re.compile(
    # (not a verb's base: "Work at Tesco since May" is "I work ...", ``spoken.restore_subject``)
    r"^(?!(?i:" + "|".join(sorted(PRESENT_VERBS)) + r")\b)"
    r"(?P<n>(?i:" + owned_nouns() + r"))\s+(?=(?i:at|in|with|on|for)\s+(?:the\s+)?[A-Z][^,;]*?"
    r"\b(?i:now|these days|nowadays|since\s+\w+|as\s+of\s+\w+)\b)"
    r"(?![^,;]*\b(?i:is|are|was|were|has|have|had|will|would)\b)")


#: One of the speaker's details (the closed class of what a record holds of a person: a
#: number, an address, a name, an email, a contact), bare or with "my", and its new value:
#: "changed to" it, or it and the present ("Surname's Patel now").
_DETAIL_NOW = re.compile(
    r"^(?:(?i:my)\s+)?(?!(?i:the|a|an|this|that|his|her|their|our|your|its)\b)"
    r"(?P<n>(?i:(?:[a-z]+\s+)?(?:number|address|name|surname|email|contact)))"
    r"(?:(?:'s|\s+has|\s+have)?\s+(?i:changed|switched|moved)\s+(?i:to|over\s+to)\s+"
    r"(?P<v>\S.*)|(?:'s|\s+is)\s+(?P<w>(?!(?i:changed|new|not|the same|different)\b)\S[^,;]*?\s+"
    r"(?i:now|these days|nowadays)\b.*))$")


def _plural(noun: str) -> bool:
    """Whether a bare noun of the speaker's names more than one ("kids", "children")."""
    low = noun.lower()
    return low in ("children", "grandchildren", "parents", "relatives", "friends") or \
        low.endswith("s") and not low.endswith("ss")


#: "<Name> is the new <noun of the speaker's>", "<Name>'s the <noun> now": a name first (not
#: a pronoun or a demonstrative: "This is the new car"), "is" or its "'s", "the (new)" and
#: the noun (of ``owned_nouns``: "Grey is the new black" names none).
_NAME_THE_NEW = re.compile(
    r"^(?P<n>(?!(?:It|This|That|These|Those|He|She|They|There|Here|What|Who|Which|Mine)\b)"
    r"(?:Dr\.?\s+|Mr\.?\s+|Mrs\.?\s+|Ms\.?\s+)?[A-Z][\w'-]*?(?:\s+[A-Z][\w'-]*?){0,2})"
    r"(?:'s|\s+is)\s+the\s+(?:(?P<new>new)\s+)?(?P<r>(?i:" + owned_nouns() + r"))\b"
    # without "new", "now" says it replaced one ("Gareth's the boss now")
    r"(?(new)|(?=\s+(?:now|these days|nowadays)\b))(?P<rest>.*)$")


#: "New <thing> is/are ..." opening a sentence, no determiner; where or with whom it is may
#: come between, by its preposition and a name ("New flat in Clapham has a balcony", "New
#: job at Arup is ..."), and "has" tells it as well as "is" does. Not a time ("New year in
#: Paris was ...").
_NEW_OWN = re.compile(r"^(?i:new)\s+(?=(?!(?:year|years|day|week|month|term|season|era|"
                      r"chapter|beginnings?|normal)\b)[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}"
                      r"(?:\s+(?:in|at|on|with|for|from|near)\s+(?:the\s+)?[A-Z][\w'&-]*"
                      r"(?:\s+[A-Z][\w'&-]*){0,2})?\s+(?:is|are|has|have)\s)")
#: "First day at Stripe was ...": the speaker's first day, "my" dropped.
_FIRST_OWN = re.compile(r"^first\s+(?=(?:day|week|shift|month)\s+(?:of\s+work\s+)?at\s)", re.I)
#: "<Name> (or my son ...) had/celebrated her 4th birthday".
_BIRTHDAY = re.compile(r"^(?P<n>(?:(?i:my|our)\s+[a-z]+\s+)?[A-Z][a-z'-]+)\s+(?:just\s+)?"
                       r"(?:had|celebrated)\s+(?:her|his|their)\s+(?P<age>\d{1,3})"
                       r"(?:st|nd|rd|th)\s+birthday\b")
#: A time opening a "<Name> is my <relation>" sentence.
_SINCE_OPENER = re.compile(r"^(?:after|since|following|as of|from)\s+[^,]{1,40},\s+"
                           r"(?=[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?\s+is\s+my\s)", re.I)
#: "<Name> is my <relation>", the name first ("Jo is my manager", "Dr. Okafor is my dentist
#: now"); not a pronoun or a demonstrative ("This is my sister").
_NAME_IS_MY = re.compile(
    r"^(?P<n>(?!(?:It|This|That|These|Those|He|She|They|There|Here|What|Who|Which|Mine|"
    r"Everything|Nothing|Family|Life|Work)\b)(?:Dr\.?\s+|Mr\.?\s+|Mrs\.?\s+|Ms\.?\s+)?"
    r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)\s+is\s+my\s+(?P<r>(?!(?:thing|jam)\b)(?:new\s+)?[a-z]+"
    r"(?:\s+(?!(?:now|these|nowadays|currently)\b)[a-z]+)?)"
    # how it stands now, in any of the words for it ("Ravi is my line manager these days")
    r"(?P<t>\s+(?:now|these days|nowadays|currently))?$")


def carried(sentence: str) -> list[str] | None:
    """A statement sentence's clauses, each cleaned, when its build carries its fact in a
    clause of its own (:func:`carriers.carriers`); None for a plain build."""
    text, _ = untag(sentence.translate(APOS))
    built = carriers(text)
    if built == [text]:
        return None
    return [c for c in map(clean, built) if c]


def statements(text: str) -> Iterator[tuple[int, str, bool]]:
    """The cleaned clauses of ``text`` (see :func:`clean`): the sentence each is of (its
    position), the clause, and whether its sentence asks."""
    for index, whole in enumerate(split_sentences(text.translate(APOS))):
        whole, question = untag(whole)
        # "Could you update my employer to Lidl?": a request, which tells its new value
        question = question and not _REQUESTED.match(whole)
        whole = _DISMAY.sub("", whole)
        for pattern, repl in _EXPAND:
            whole = pattern.sub(repl, whole)
        marker = ""
        # A fact told inside a build ("Having switched to Y, I ...", "since moving to X,
        # ...", "Jonah, my boyfriend, ..."): the clauses that carry it, read each.
        pieces = [whole] if question else carriers(whole)
        for raw in (c for piece in pieces
                    for c in clauses(piece, lambda part: _FILLER.sub("", part))):
            sentence = clean(marker + raw)
            marker = ""
            if (m := CORRECTION.fullmatch(sentence)) and not raw.rstrip().endswith((".", "!")):
                # "Actually, I just took ...": the marker opens this sentence's next clause;
                # alone in its sentence ("That's wrong.") it makes the next sentence one.
                marker = m["m"] + ", "
                continue
            if sentence and len(sentence.split()) <= 60:
                yield index, sentence, question
        if marker:
            yield index, clean(marker), question


def unmarked(text: str) -> str:
    """``text`` without an opening reply or correction marker ("No, I switched to
    Superdrug", "Actually, I've moved over to Meta"): a change told after it is read in
    the clause it opens, as it would be said alone."""
    marker = CORRECTION.match(text)
    # Set off by punctuation: "No more coffee for me" opens on no marker.
    if marker is None or not re.match(r"\s*[,:;!.-]", text[marker.end("m"):]):
        return text
    rest = text[marker.end():].strip()
    return rest if len(rest.split()) >= 2 else text
