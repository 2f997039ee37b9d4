"""A change done to the speaker, told with another grammatical subject: "They've moved me
to the Leeds office", "Work put me on nights", "The new rota has me on lates", "They made
me ward manager", "Superdrug took me on in September", and the same told in the passive,
"I got bumped up to set 1". The sentence opens on someone else (an employer, a landlord,
"they", a doctor), but the one changed is its object, the speaker: what holds now is the
speaker's own present state, "I am at the Leeds office now", "I am on nights now", "I am
ward manager now", "I work at Superdrug now". That clause is read for a change as its own
sentence (``change_statements._now_clause``), and the sentence is told whole, the agent with
it, as reported speech is (``reported.py``).

Why it is general: the frame is English grammar, a closed class of verbs that place or
make someone (move, put, transfer, post, make, appoint, hire, take on, "have someone on"),
"me" or "us" their object, and a preposition naming where the object ends up; never a
value. Another person as the object ("they've given my husband a job at Lidl", "the
council moved my nan into sheltered housing") is no match: only the speaker's own change
is re-voiced, so another person's fact keeps both. Feelings made ("it made me so happy",
"that put me in a good mood") are not a place or a role and are left out. Pure functions
over texts.
"""

from __future__ import annotations

import re

from .meaning import clauses

__all__ = ["undergone"]

#: Verbs that put someone somewhere or in some state: their object ends up where the
#: preposition after it says ("moved me to", "put us in", "stuck me on", "bumped me up to").
_PLACING = (r"moved|put|switched|changed|transferred|relocated|posted|sent|rehoused|housed|"
            r"placed|stuck|shifted|bumped|upgraded|downgraded|reassigned|assigned|seconded|"
            r"promoted|demoted|rota'?d|rostered|enrolled|registered")
#: Verbs that make someone a role: "made me ward manager", "appointed me deputy head".
_MAKING = r"made|appointed|named|elected|promoted|crowned|voted"
#: Verbs of taking someone into a job: the subject is the employer ("Superdrug took me on").
_HIRING = (r"(?:took|taken)\s+(?:me|us)\s+on(?=\s+as\b|\s*(?:[,.;!?]|$)|\s+(?:in|at|last|"
           r"this|full|part|permanently|straight)\b)|(?:hired|employed|recruited|poached|"
           r"headhunted|signed)\s+(?:me|us)(?!\s+(?:up|off|out|in)\b)")
#: What a subject may have before its verb: auxiliaries and a few adverbs.
#: Not "had" or "'d": a past before a past, or a "would" (a plan).
_AUX = r"(?:(?:'s|'ve|has|have|just|finally|now|officially|recently|gone\s+and)\s+)*"
#: A particle between the object and where it ends up ("moved me up to"); "up" only
#: before "to": "put me up in her flat" is a bed for the night, a visit.
_PARTICLE = r"(?:(?:up(?=\s+to\b)|down|over|across|back|round|around)\s+)?"
#: The words after which the rest of a sentence is no longer where the speaker ended up.
_END = re.compile(r"\s*(?:[,;:!?.(]|\s-\s|\b(?:and|but|so|because|cos|since|which|who|"
                  r"after|when|while|though|although)\b)", re.I)
_MONTHS = (r"(?:january|february|march|april|may|june|july|august|september|october|november|"
           r"december|spring|summer|autumn|winter|monday|tuesday|wednesday|thursday|friday|"
           r"saturday|sunday)")
#: A time or manner said at the end of what holds: not part of the value.
_TRAILING = re.compile(
    r"(?:\s+(?:(?:last|this|next)\s+\w+|(?:at|from|since|by)\s+the\s+(?:start|end|beginning)"
    r"\s+of\s+(?:the\s+)?\w+|(?:in|from|since|as\s+of|starting)\s+(?:" + _MONTHS + r"|the\s+"
    r"(?:new\s+year|spring|summer|autumn|winter)|\d{4})|yesterday|today|recently|"
    r"permanently|for\s+good|instead|again|now|full[-\s]time|part[-\s]time|"
    r"for\s+the\s+(?:new\s+)?(?:term|year|season|school\s+year)|"
    r"for\s+(?:now|the\s+time\s+being)|these\s+days|from\s+now\s+on))+\s*$", re.I)
#: What never opens a place or a role: feelings, states of mind, quantities, "for" a time
#: ("put me in a good mood", "made me so happy", "has me worried", "put me off"); work or
#: home alone, where a thing happened ("got promoted at work" is no "at work now").
_NOT_VALUE = re.compile(
    r"^(?:so|very|really|quite|too|more|less|feel|think|laugh|cry|smile|wait|wonder|realise|"
    r"realize|want|do|go|sick|ill|proud|aware|fond|tired|afraid|scared|jealous|conscious|sure|"
    r"wary|happy|sad|angry|mad|nervous|anxious|worried|redundant|late|early|part|one|some|all|"
    r"most|each|a\s+(?:good|bad|great|better|worse)\s+mood|(?:a\s+)?(?:good|bad)\s+mood|"
    r"mind|charge|stitches|tears|touch|trouble|danger|hospital|hold|the\s+spot|my\s+place|"
    r"the\s+mood|"
    r"the\s+picture|a\s+position|a\s+spot|an\s+awkward|for\b|off\b|out\b|through\b|"
    r"(?:work|home)$)\b", re.I)
#: The subject of an agent's act: short, and not the speaker ("I", "we").
_AGENT = r"^(?P<agent>(?!(?:i|we)\b)[\w'&.-]+(?:\s+[\w'&.-]+){0,4}?)\s+"


def _value(rest: str) -> str:
    """Where or what the speaker ended up, up to the clause's end, its time left out."""
    rest = _END.split(rest, maxsplit=1)[0].strip()
    return _TRAILING.sub("", rest).strip()


def _placed(prep: str, value: str, verb: str) -> str:
    """The present statement of being put ``prep`` ``value``: "to the Leeds office" is
    based at it, "to Leeds" based in it, "to nights" or "up to year 6" on it; "promoted to
    manager" is manager."""
    prep = prep.lower()
    if prep == "as":
        return f"work as {value}"
    if prep in ("into", "in"):
        return f"in {value}"
    if prep in ("onto", "on"):
        return f"on {value}"
    if prep == "at":
        return f"at {value}"
    if re.match(r"promoted|demoted", verb, re.I):
        return value
    # Moved to a place is based there, the word a post or a home is told by ("based at
    # the Leeds office", "based in Leeds"); moved to a rank or a shift is on it.
    if re.match(r"(?:the|our|my|a|an|their|its)\b", value, re.I):
        return f"based at {value}"
    if value[:1].isupper():
        return f"based in {value}"
    return f"on {value}"


#: An agent putting the speaker somewhere: "They've moved me to the Leeds office", "Head
#: office have moved me up to the Birmingham branch", "my GP's put me on ezetimibe".
_AGENT_PLACED = re.compile(
    _AGENT + _AUX + rf"(?P<verb>{_PLACING})\s+(?P<obj>me|us)\s+{_PARTICLE}"
    r"(?:from\s+[^,;.!?]{1,40}?\s+)?(?P<prep>to|into|onto|on|in|at|as)\s+(?P<rest>.+)$", re.I)
#: The same told by the speaker in the passive: "I got bumped up to set 1", "we have been
#: rehoused in Wythenshawe", "I was moved to nights".
_PASSIVE_PLACED = re.compile(
    r"^(?P<obj>i|we)\s+(?:(?:have|'ve|just|finally|now|officially|recently)\s+)*"
    r"(?:got|get|been|was|were|am|are|'m|'re|have\s+been|'ve\s+been|has\s+been|"
    r"got\s+(?:myself|ourselves))\s+"
    rf"(?:(?:just|finally|officially|now)\s+)?(?P<verb>{_PLACING})\s+{_PARTICLE}"
    r"(?:from\s+[^,;.!?]{1,40}?\s+)?(?P<prep>to|into|onto|on|in|at|as)\s+(?P<rest>.+)$", re.I)
#: An agent making the speaker a role: "They made me ward manager", "the school's made me a
#: cover supervisor", "they've appointed me deputy head".
_AGENT_MADE = re.compile(
    _AGENT + _AUX + rf"(?P<verb>{_MAKING})\s+(?P<obj>me|us)\s+(?:(?:in\s+)?as\s+|to\s+)?"
    r"(?P<rest>.+)$",
    re.I)
#: The speaker made a role, in the passive: "I've been made ward manager".
_PASSIVE_MADE = re.compile(
    r"^(?P<obj>i|we)\s+(?:(?:have|'ve|just|finally|now|officially|recently)\s+)*"
    r"(?:got|been|was|were|have\s+been|'ve\s+been)\s+(?:(?:just|finally|officially)\s+)?"
    rf"(?P<verb>{_MAKING})\s+(?:as\s+|to\s+)?(?P<rest>.+)$", re.I)
#: An agent holding the speaker somewhere: "the new rota has me on lates", "they've got me
#: on nights", "work have us in the Annex".
_AGENT_HAS = re.compile(
    _AGENT + r"(?:(?:now|currently|still|just)\s+)?(?:'s\s+got|'ve\s+got|has\s+got|have\s+got|"
    r"got|has|have|'s|'ve|keeps?)\s+(?P<obj>me|us)\s+(?:(?:down|working)\s+)?"
    r"(?P<prep>on|in|at|as)\s+(?P<rest>.+)$", re.I)
#: An employer taking the speaker on: "Superdrug took me on full-time", "Nationwide
#: poached me in the summer", "they took me on as a driver".
_AGENT_HIRED = re.compile(_AGENT + _AUX + rf"(?:{_HIRING})\b(?:\s+as\s+(?P<role>.+))?", re.I)
#: A place of study taking the speaker in: "The veterinary science course at Bristol took me
#: in", "Leeds Beckett accepted me onto the nursing degree", "the college offered me a place
#: on the plumbing course, and I took it". The subject is a course or a school (a closed
#: class of nouns of study, or a name), and the speaker studies there: no hospital, shelter
#: or friend taking someone in.
_STUDY = r"(?:course|degree|programme|program|university|uni|college|school|academy|sixth\s+form)"
_AGENT_ADMITTED = re.compile(
    r"^(?P<agent>(?!(?:i|we)\b)[\w'&.-]+(?:\s+[\w'&.-]+){0,7}?)\s+" + _AUX +
    r"(?:took\s+(?:me|us)\s+in|(?:accepted|let)\s+(?:me|us)(?:\s+in)?)\b"
    r"(?:\s+(?:onto|to|into)\s+(?P<onto>[^,;.!?]+))?", re.I)
#: A move the speaker asked for, granted: "They accepted my transfer to the Glasgow branch",
#: "my transfer to Leeds came through", "HR approved my move to the Bristol office".
_GRANTED = re.compile(
    r"(?:^" + _AGENT[1:] + _AUX + r"(?:accepted|approved|granted|agreed|signed\s+off)\s+"
    r"(?:to\s+)?(?:my|our)\s+|^(?:my|our)\s+)(?:request(?:ed)?\s+(?:for\s+a\s+)?)?"
    r"(?:transfer|move|relocation|secondment)\s+(?P<prep>to)\s+(?P<rest>[^,;.!?]+?)"
    r"(?:\s+(?:has\s+|finally\s+|just\s+)*(?:came|come|went|gone|got)\s+(?:through|"
    r"approved|accepted)|\s+(?:was|got|has\s+been|'s\s+been)\s+(?:approved|accepted|"
    r"granted|signed\s+off)|(?=\s*(?:[,;.!?]|$)|\s+(?:and|so|but|last|this|in|on|after)\b))",
    re.I)
#: A subject that names no employer: a pronoun, or a person of the speaker's.
_NO_EMPLOYER = re.compile(r"^(?:they|he|she|it|you|someone|somebody|my\s|our\s|his\s|her\s|"
                          r"their\s)", re.I)
#: A thing made or done to the speaker that is no change of theirs: an opening that makes
#: the sentence a question, a wish, a plan or a condition.
_NOT_TOLD = re.compile(r"^(?:if|when|whether|maybe|perhaps|hopefully|what|why|how|would|"
                       r"could|should|will|might|can|do|does|did)\b|\b(?:want(?:s|ed)?\s+to|"
                       r"going\s+to|gonna|planning\s+to|might|could|would|may|will|'ll|"
                       r"should|threaten(?:s|ed|ing)?\s+to|tried\s+to|try\s+to|offered\s+to)"
                       r"\s+(?:\w+\s+){0,2}?(?:me|us)\b", re.I)


#: An impersonal "it" whose complement is a thing of the speaker's, named by its make:
#: "It's a Golf now", "It's a Nissan Leaf on my driveway these days": what the speaker has
#: now. A thing by a name with "a" is one of a kind the speaker owns, not a place or a firm
#: ("It's Lisbon now" answers a question: ``elided.py``).
_IMPERSONAL = re.compile(
    r"^(?:it|it's)\s+(?:(?:is|has\s+been|'s)\s+)?(?:(?:now|still|actually)\s+)?"
    r"(?P<np>an?\s+(?:new\s+|shiny\s+|little\s+|second-hand\s+|secondhand\s+|used\s+)?"
    r"(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z0-9])[\w-]*){0,3})(?P<rest>(?:\s+[^,;.!?]*)?)", re.I)
#: A word of time saying the complement holds now.
_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|at\s+the\s+moment|currently)\b", re.I)
#: Another person beside the thing ("It's a Golf now, my son's"): not the speaker's.
_ANOTHERS = re.compile(r"\b(?:his|her|their|your|(?:my|our)\s+(?:\w+\s+)?(?:son|daughter|"
                       r"husband|wife|partner|brother|sister|mum|mom|dad|father|mother|kids?|"
                       r"boyfriend|girlfriend|friend|neighbour|neighbor)\b)", re.I)


#: The speaker as the possessor of a new thing named inside a sentence about something
#: else: "The commute to my new office in Leeds is brutal", "The people at my new job at
#: Tesco are lovely", "The boot on my new Golf is massive". "New" says the thing changed;
#: its value is the name after it (or after a preposition).
_NEW_MINE = re.compile(
    r"\b(?P<my>my|our)\s+new\s+(?:(?P<n>[a-z]+)\s+(?P<prep>in|at|with|on)\s+|(?P<bare>))"
    r"(?P<v>(?:the\s+)?(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z0-9])[\w'&-]*){0,3})", re.I)
#: The speaker's present statement of a thing by its noun: a closed class of the things a
#: person has one of at a time, each with the verb that states it.
_BY_NOUN = {**dict.fromkeys("flat house home apartment place pad digs".split(), "I live in"),
            **dict.fromkeys("job work employer workplace company firm".split(), "I work at"),
            **dict.fromkeys("office branch base site depot".split(), "I am based")}


def _new_of_mine(sentence: str) -> str | None:
    """The speaker's present statement of a new thing of theirs named inside a sentence
    that opens on something else ("I work at Tesco now" of "The people at my new job at
    Tesco are lovely"), or None: a thing named first is the sentence's own subject, read
    by the rules; another person beside it makes it no news of the speaker's."""
    m = _NEW_MINE.search(sentence)
    if m is None or m.start() == 0 or _ANOTHERS.search(sentence) or \
            re.match(r"(?:i|we|my|our)\b", sentence, re.I):
        return None
    value = re.sub(r"^the\s+", "", m["v"]) if m["n"] else m["v"]
    if m["bare"] is not None and not m["n"]:
        return None if value.lower().startswith("the ") else f"I have a {value} now"
    verb = _BY_NOUN.get(m["n"].lower())
    if verb is None:
        return None
    if verb == "I am based":     # "my new office in Leeds": based in Leeds
        return f"{verb} {m['prep'].lower()} {value} now"
    return f"{verb} {value} now" if verb != "I live in" or m["prep"].lower() == "in" else None


#: A provider named first holding a thing of the speaker's that a provider holds for a
#: customer, one at a time: "Monzo's had my salary since March", "EE has my contract now":
#: the speaker's thing is with that provider now. A closed class of such things.
_PROVIDER_HOLDS = re.compile(
    r"^(?P<agent>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*){0,3})\s+"
    r"(?:(?:now|finally)\s+)?(?:has\s+got|has|have|'s\s+got|'s\s+had|has\s+had|had|'s|"
    r"holds?|looks?\s+after|handles?)\s+(?P<my>my|our)\s+(?P<n>(?:(?:current|savings|"
    r"joint|phone|mobile|car|home|health|pet|energy|gas|electricity)\s+)?(?:account|"
    r"accounts|salary|wages|savings|mortgage|pension|contract|broadband|internet|records|"
    r"prescriptions?|insurance|policy|energy|gas|electricity|membership|custom|business|"
    r"number|sim))\b", re.I)
_NOW_OR_SINCE = re.compile(r"\b(?:now|these\s+days|nowadays|since|currently|from\s+now\s+on)\b",
                           re.I)


#: A time to come: the change is a plan, not what holds ("Work's put me on nights from
#: next month": the day shift holds until then). A bare "from October" after a past verb
#: is read as the change's start, as most often told.
_FUTURE = re.compile(r"\b(?:next\s+(?:week|month|year|term|season|" + _MONTHS[3:-1] + r")|"
                     r"from\s+(?:next|tomorrow)|tomorrow|"
                     r"starting\s+(?:next|from)|in\s+the\s+new\s+year|in\s+a\s+(?:week|"
                     r"fortnight|month)|soon)\b", re.I)


#: The people of a place the speaker has joined: colleagues are at work, neighbours at
#: home. A closed class of English, each with the speaker's statement of that place.
_PLACE_PEOPLE = {
    **dict.fromkeys("colleagues coworkers co-workers workmates boss manager team staff "
                    "crew".split(), "I work at"),
    **dict.fromkeys("neighbours neighbors flatmates housemates landlord landlady".split(),
                    "I live in")}
#: The people of a place, named by it: "my new colleagues at Lidl", "our new neighbours in
#: Headingley", "everyone at Lidl", "the team at Lidl".
_PEOPLE_AT = re.compile(
    r"\b(?:(?P<my>my|our)\s+new|the|everyone|everybody|all\s+the|the\s+people|the\s+folks)"
    r"(?:\s+(?P<n>[a-z-]+))?\s+(?P<prep>at|in)\s+"
    r"(?P<v>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z0-9])[\w'&-]*){0,3})", re.I)
#: The speaker's own beginning at the place, said beside its people: "since I started",
#: "on my first day", "since we moved in".
_BEGAN = re.compile(r"\b(?:since\s+(?:i|we)\s+(?:started|joined|arrived|moved(?:\s+in)?|got\s+"
                    r"there)|(?:on|in|for|after)\s+(?:my|our)\s+first\s+(?:day|week|shift|"
                    r"month|night|morning))\b", re.I)


def _among(sentence: str) -> str | None:
    """The speaker's present statement of a place they have joined, told by its people:
    "my new colleagues at Lidl" (work), "our new neighbours in Headingley" (home), or
    "everyone at Lidl" beside the speaker's own beginning ("since I started"); None for
    another's people ("my sister's new colleagues") or people met with no beginning."""
    m = _PEOPLE_AT.search(sentence)
    if m is None or _ANOTHERS.search(sentence) and not m["my"]:
        return None
    noun = (m["n"] or "").lower()
    verb = _PLACE_PEOPLE.get(noun)
    began = _BEGAN.search(sentence)
    if m["my"] and verb is None or not m["my"] and not began:
        return None
    if verb is None:        # "everyone at Lidl ... since I started": the beginning says
        verb = "I live in" if began and re.search(r"moved|night", began[0], re.I) \
            else "I work at"
    if verb == "I live in" and m["prep"].lower() != "in" or \
            verb == "I work at" and m["prep"].lower() != "at":
        return None
    subject = "we" if (m["my"] or "").lower() == "our" else "I"
    return f"{subject} {verb.split(' ', 1)[1]} {m['v']} now"


#: A time long past: what was done to the speaker then says nothing of now ("My parents
#: put me in art classes when I was a kid").
_BACK_THEN = re.compile(r"\b(?:when\s+(?:i|we)\s+(?:was|were)|as\s+a\s+(?:kid|child|teenager|"
                        r"teen|boy|girl)|back\s+then|back\s+in\s+the\s+day|used\s+to|"
                        r"growing\s+up|in\s+(?:high\s+)?school|at\s+uni(?:versity)?\s+we)\b",
                        re.I)


def _admitted(agent: str, onto: str | None) -> str | None:
    """Where a place of study that took the speaker in (``agent``, the subject; ``onto``,
    the course named after it) has them: on the course named ("I am on the nursing degree
    at Leeds Beckett now"), else at the place; None when the subject is no place of study
    (a course, a school, or a name)."""
    course = _value(onto or "")
    if not (re.search(rf"\b{_STUDY}\b", agent, re.I) or course and
            re.search(rf"\b{_STUDY}\b", course, re.I) and
            all(w[:1].isupper() for w in agent.split())):
        return None     # "Mum took me in", "the shelter took us in": no place of study
    if course and not _NOT_VALUE.match(course) and len(course.split()) <= 8:
        named = agent if agent[:1].isupper() and not re.match(r"the\b", agent, re.I) else ""
        return f"I am on {course}{' at ' + named if named else ''} now"
    head = re.sub(r"^The\b", "the", agent)
    if not re.search(r"(?-i:[A-Z])", head):
        return None     # "the college took me in": no value named
    return f"I am on {head} now" if re.search(r"\b(?:course|degree|programme|program)\b",
                                               agent, re.I) else f"I study at {head} now"


def _subject(obj: str) -> tuple[str, str]:
    """The speaker as subject, and "to be" for it: "me" -> ("I", "am")."""
    return ("we", "are") if obj.lower() in ("us", "we") else ("I", "am")


def undergone(sentence: str) -> str | None:
    """The speaker's own present statement of a change ``sentence`` (cleaned) tells done
    to them ("I am at the Leeds office now" of "They've moved me to the Leeds office", "I
    work at Superdrug now" of "Superdrug took me on in September"), told as the sentence
    or as one of its clauses ("Got some news: they've moved me to the Leeds office"), or
    None. A clause is read alone only when no other person is named beside it ("It's a
    Skoda now, my dad's pride and joy" is his)."""
    s = sentence.strip()
    if not s or s.rstrip().endswith("?") or _NOT_TOLD.search(s) or _FUTURE.search(s) or \
            _BACK_THEN.search(s):
        return None
    if (said := _said(s)) is not None or _ANOTHERS.search(s):
        return said
    return next((said for clause in clauses(s)[1:] if (said := _said(clause)) is not None),
                None)


def _said(s: str) -> str | None:
    """:func:`undergone` of one sentence or clause ``s``."""
    for shape in (_AGENT_PLACED, _PASSIVE_PLACED, _AGENT_HAS):
        if (m := shape.match(s)) is None:
            continue
        value = _value(m["rest"])
        if not value or _NOT_VALUE.match(value) or len(value.split()) > 8 or \
                _ANOTHERS.search(value):
            return None     # "in her spare room": another's place, a stay
        subject, be = _subject(m["obj"])
        verb = m["verb"] if "verb" in m.groupdict() else ""
        placed = _placed(m["prep"], value, verb)
        return f"{subject} {placed} now" if placed.startswith("work as") else \
            f"{subject} {be} {placed} now"
    for shape in (_AGENT_MADE, _PASSIVE_MADE):
        if (m := shape.match(s)) is None:
            continue
        value = _value(m["rest"])
        if not value or _NOT_VALUE.match(value) or len(value.split()) > 6:
            return None
        subject, be = _subject(m["obj"])
        return f"{subject} {be} {value} now"
    if (m := _IMPERSONAL.match(s)) is not None and _NOW.search(m["rest"]) and \
            not _ANOTHERS.search(s):
        return f"I have {m['np']} now"
    if (m := _PROVIDER_HOLDS.match(s)) is not None and _NOW_OR_SINCE.search(s) and \
            not _NO_EMPLOYER.match(m["agent"]):
        agent = re.sub(r"'s$", "", m["agent"])
        be = "are" if m["n"].endswith("s") and not m["n"].endswith("business") else "is"
        return f"{m['my'].lower()} {m['n']} {be} with {agent} now"
    if (said := _new_of_mine(s) or _among(s)) is not None:
        return said
    if (m := _AGENT_ADMITTED.match(s)) is not None and not _NO_EMPLOYER.match(m["agent"]) \
            and not re.match(r"\s+(?:for|over|during)\b", s[m.end():], re.I) \
            and (said := _admitted(m["agent"].strip(), m["onto"])) is not None:
        return said
    if (m := _GRANTED.match(s)) is not None and (value := _value(m["rest"])) and \
            not _NOT_VALUE.match(value) and len(value.split()) <= 8:
        agent = (m.groupdict().get("agent") or "").strip()
        if not _ANOTHERS.search(agent):
            return f"I am {_placed('to', value, 'moved')} now"
    if (m := _AGENT_HIRED.match(s)) is not None:
        role = _value(m["role"] or "")
        agent = m["agent"].strip()
        employer = not _NO_EMPLOYER.match(agent) and agent[:1].isupper()
        named = employer and all(w[:1].isupper() or w == "&" for w in
                                 re.sub(r"^the\s+", "", agent, flags=re.I).split())
        if role and not _NOT_VALUE.match(role):
            # "Ernst & Young took me on as a senior auditor": the role and where, both
            return f"I work as {role} at {agent} now" if named else f"I work as {role} now"
        return f"I work at {agent} now" if employer else None
    return None
