"""What a memory's words tell of time and of whom (issue 23, item 5): the text readers
of recall's newest-first order (``recency.py``) and of a newer value joining from under
the threshold (``answers_under.py``).

Whether a sentence says its value holds now (:data:`NOW`, :data:`CURRENT`) or adds to an
old one (:data:`ADDITION`); places it in the past, a wished future or a stay (:data:`NOT_NOW`,
:func:`aside`: :data:`PAST`, :data:`WISH`, unless it tells the change, :data:`CHANGE`); ends a value
(:data:`ENDING`, :func:`yields`); and whose fact it is (:func:`relations`, the people of
the subject's it names; :func:`told_of`, those its sentences are about). Read from the
words alone, no vector: kept apart from the ranking's reorderings so that each rule of
language is read and tested in one place. The subconscious reads the same lists
(:data:`NOW`, :data:`ADDITION`, :data:`NOT_NOW`, :data:`PAST`; ``index.TOLD_*``) when it
decides what a statement replaces.
"""

from __future__ import annotations

import re

from .lexical import terms
from .profile_bank import RELATIONS

__all__ = ["ADDITION", "BEGUN", "CHANGE", "CURRENT", "ENDING", "HOUSEHOLD", "NOT_NOW", "NOW",
           "NOWISH", "NOW_WORD", "NO_LONGER", "PAST", "PAST_EVENT", "PRESENT_TIME", "REPLACED",
           "SPENT", "THIS_PERIOD", "WISH", "aside", "gives_way", "names_gone", "relations",
           "says_now", "tells_event", "told_of", "yields"]

# One reader of these words for both sides of memory: the subconscious reads them in what a
# person says when it decides whether a statement replaces one remembered
# (``element/agents/present.py``, ``updates.py``: the speaker's raw first-person words),
# recall in what was stored when it orders the values it found (``recency.py``,
# ``answers_under.py``: third person). A sentence that says "now", adds, or is not about
# the present says so to both; were the lists kept apart, what the write side lets stand
# side by side the read side would order by other words.

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|"
           "december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"

#: The present-time adverbials, a pattern fragment (no boundaries) for every reader of
#: "now" to build on: the write side's cues (``element/agents/cues.py``), the questions an
#: answer is read against (``answered.py``) and the value told first (``inverted.py``) read
#: a sentence's time by these words as recall does (:data:`NOW`). Those of more than the
#: one word "now", which may also open talk ("Now, I ..."): "these days", "nowadays", "at
#: the moment", "currently".
PRESENT_TIME = r"(?:these\s+days|nowadays|at\s+the\s+moment|currently)"
#: ... and "now" itself ("I'm a third-year now"), not "now and then" (a habit). "Now that
#: ..." is now: "I cycle to work now that the evenings are lighter" says its clause holds
#: now against before, the reason told after it (a stay or a wish is aside whatever "now"
#: it says: :data:`NOT_NOW`). As a word after a verb and its particle that a pattern reads
#: itself ("Who are you playing for now?"): the "for" is the verb's, no "for now".
NOW_WORD = r"now(?!\s+and\s+then)"
#: "Now" said of a moment, a stay or a past, by the word before it: "right now", "just
#: now", "for now", "until now", "till now".
_NOT_NOW_BEFORE = r"(?<!right )(?<!just )(?<!for )(?<!until )(?<!till )"
#: A state of before said to be over ("not ... anymore", "no longer"): the present by
#: what no longer holds.
NO_LONGER = r"(?:any\s?more|no\s+longer)"
#: The period one is in ("this year", "this term"): what holds in it holds now; a cue of
#: change for the write side (``cues.py``), no newer value to recall.
THIS_PERIOD = r"this\s+(?:year|term|semester|season|fall|autumn|spring|summer|winter)"

#: Said as now: a present-time adverbial, the state it qualifies holds now against before
#: ("I'm a health visitor these days", "nowadays", "at the moment", "currently", "now",
#: "since May", "since a few weeks ago", "now that ..."); not the "now" of a moment, a
#: stay, a past or a habit (:data:`NOW_WORD`, :data:`_NOT_NOW_BEFORE`).
NOW = re.compile(
    rf"\b(?:{PRESENT_TIME}|{_NOT_NOW_BEFORE}{NOW_WORD}|"
    rf"since\s+(?:(?:last|early|late|mid)[\s-]+)?(?:{_MONTHS}|{_DAYS}|spring|summer|autumn|"
    r"fall|winter|christmas|easter|new\s+year|\d{4}|then|(?:last|this)\s+\w+|"
    r"(?:a|an|one|two|three|four|five|six|\d+|a\s+few|a\s+couple\s+of)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago))\b", re.I)
#: A memory that says its value holds now, against what was: said as now (:data:`NOW`),
#: or said to replace ("not ... anymore", "no longer", "instead", "ever since"): "it is
#: decaf from now on", "these days the weekends are all about motorbikes".
CURRENT = re.compile(rf"{NOW.pattern}|\b(?:from now on|{NO_LONGER}|instead|"
                     r"ever since)\b", re.I)
#: The present against what was, as the write side's cues read it (``cues.py``): said as
#: now by an adverbial (:data:`PRESENT_TIME`, :data:`NOW_WORD`), by what no longer holds
#: (:data:`NO_LONGER`) or by the period one is in (:data:`THIS_PERIOD`). Not "since May":
#: a span's start is the cues' own ("since I left", a change told).
NOWISH = re.compile(rf"\b(?:{PRESENT_TIME}|{_NOT_NOW_BEFORE}{NOW_WORD}|{NO_LONGER}|"
                    rf"{THIS_PERIOD})\b", re.I)
#: ... unless it adds to the old one ("has started running too", "also has a cat now", "a
#: second car", "a holiday cottage"): "too" ending its clause or before a time ("some Dutch
#: too these days"), not "too high"; "a third-year", "a second-hand car", "a third of the
#: price" is a year, a kind, a share, no second one.
ADDITION = re.compile(r"\b(?:also|too(?!\s+(?!and\b|but\b|now\b|these\s+days\b|nowadays\b|"
                      r"lately\b|at\s+the\s+moment\b)[a-z])|as well|another|"
                      r"a (?:second|third)(?!\s+of\b)|one more|in addition|besides|"
                      # "both", not of the people who do it together ("my husband and I
                      # both joined ...", "we've both", "both of us"): they share one value
                      r"(?<!\bwe\s)(?<!\bI\s)(?<!\bus\s)(?<!we've\s)(?<!we're\s)(?<!we\shave\s)"
                      r"(?<!we\sare\s)both(?!\s+of\s+(?:us|we)\b)|"
                      r"other|buy-to-let|to rent out|holiday (?:home|house|flat|cottage|place|let)|"
                      r"for (?:the )?holidays)\b(?!-)", re.I)


#: A wished, planned or hypothetical future ("dreams of a cottage in Cornwall", "would
#: love to", "plans to", "is thinking about", "one day", "if ...", "toying with the idea of
#: moving out at some point", "might", "is going to"): not (yet) the present.
_WISH = (r"going to|gonna|will|would|(?:would|'d) (?:love|like) to|might|(?-i:may)|should|"
         r"could|wish|(?:wants?|wanting|hopes?|hoping|plans?|planning) to|"
         r"thinking (?:about|of)|considering|if|dream(?:s|ed|t|ing)?\s+(?:of|about)|"
         r"(?:the\s+)?idea\s+of|one\s+day|some\s?day|at\s+some\s+point|tempted|maybe|"
         r"perhaps|hopefully")
WISH = re.compile(rf"\b(?:{_WISH})\b", re.I)
#: A past habit or a childhood ("used to", "as a kid", "grew up", "when I was").
_HABIT = r"used to|as a (?:kid|child|teen(?:ager)?)|when (?:i|we) (?:was|were)|grew up|growing up"
#: A stay, not a home or a value ("for a week", "for a few days"); not a span up to now
#: ("vegan for a few weeks now", "in Leeds for a couple of weeks now": it holds now).
_STAY = (r"for\s+(?:a|the|one|two|three|a few|several)\s+(?:days?|nights?|weeks?|"
         r"weekends?)(?!\s+now\b(?!\s+that))")
#: Not (yet, or any longer) the present: a wish or plan, a past habit, a stay. What the
#: subconscious lets no statement replace a remembered value by.
NOT_NOW = re.compile(rf"\b(?:{_WISH}|{_HABIT}|{_STAY})\b", re.I)
#: A memory whose sentence places its value in the past, not a newer value of the
#: attribute: a past habit, or a past state ("was a teacher", "lived in Leeds", "back when
#: ..."). "has lived / has worked" (a present perfect) still holds, so it is no past.
PAST = re.compile(rf"\b(?:{_HABIT}|back when|(?:was|were) (?:a|an|the|in|at|from|based)|"
                  r"(?<!has )(?<!have )(?<!'s )(?<!'ve )(?:lived|worked|studied))\b", re.I)
#: A verb in the past simple: an event told, done ("spent a lovely week in Lisbon",
#: "visited their aunt in Leeds", "went to Prague for a conference"), not a state that
#: holds ("the flat in Lisbon gets so much more light", "is brilliant on long trips"). A
#: regular past ("-ed": not "need", "shed") or an irregular one (the grammar book's table
#: of strong verbs, past forms only), neither after an auxiliary of the perfect or the
#: passive ("has moved", "is married", "got engaged": the state they make holds), nor a
#: name ("Winifred": lower case only) or an adjective after a determiner ("a chartered
#: accountant", "the fixed rate", "a retired teacher"). Read
#: only where no cue says the value holds now (``answers_under.py``): a visit or a night
#: out names a place or a thing as a home or a car does, in the past. Not in a clause of
#: comparison (:func:`tells_event`: "more light than the old place did" sets the present
#: against before).
PAST_EVENT = re.compile(
    r"(?<!\bhas )(?<!\bhave )(?<!\bhad )(?<!'s )(?<!'ve )(?<!\bis )(?<!\bare )(?<!\bam )"
    r"(?<!\bbe )(?<!\bbeen )(?<!\bget )(?<!\bgets )(?<!\bgot )(?<!\bgetting )"
    r"\b(?:(?-i:[a-z])[a-z]+[^\We]ed|was|were|went|spent|did|took|came|made|met|saw|bought|sold|"
    r"gave|told|said|ran|flew|drove|rode|ate|drank|sat|stood|slept|kept|felt|found|thought|"
    r"brought|caught|taught|fought|sent|lent|built|lost|paid|held|heard|knew|threw|wrote|"
    r"broke|chose|spoke|woke|wore|swam|sang|began|rang|won|hung|shook|forgot|fell|left|"
    r"had)\b", re.I)
#: ... unless it tells the change that makes the present ("moved to Lisbon, used to live
#: in Porto", "was a teacher, now a nurse"): a past change is a newer value.
CHANGE = re.compile(r"\b(?:moved|relocated|switched|started|joined|got a (?:new )?job|"
                    r"took a job|now|these days|nowadays|currently)\b", re.I)


#: A memory that tells a value ending, not a value that holds: "Karin and Nils got
#: divorced last year", "The Skoda got written off in a crash", "No more trains", "quit
#: accounting", "Sunny escaped out the kitchen window".
ENDING = re.compile(r"\b(?:divorced|broke up|broken up|split up|separated|passed away|died|"
                    r"RIP|put down|put to sleep|ran away|escaped|went missing|sold|"
                    r"written off|stolen|scrapped|quit|left|resigned|retired|(?:got|was) fired|"
                    r"laid off|made redundant|let go|gave up|given up|stopped|ended|"
                    r"cancell?ed|closed down|shut down|moved out|no more|no longer|"
                    r"any\s?more|said goodbye to|got rid of|"
                    # Idioms of being done: "Swindon is a distant memory now", "netball
                    # fell by the wayside", "the membership lapsed", "stepped away from".
                    r"(?:is|are|was|were|'s|'re)\s+(?:now\s+|well\s+)?(?:ancient\s+)?history|"
                    r"a thing of the past|a distant memory|in the rear-?view mirror|"
                    r"behind (?:me|us|him|her|them|[A-Z][\w-]+)(?:\s+now)?(?=\s*[.,;!]|\s*$)|"
                    r"(?:fell|fallen|gone|went) by the wayside|"
                    r"(?:went|gone) out (?:of )?the window|"
                    r"lapsed|expired|fizzled out|petered out|stepped (?:away|back|down) from|"
                    r"walked away from|bowed out of|called time on|called it quits|parted ways|"
                    r"went (?:our|their|separate) (?:separate )?ways|hung up|is done with|"
                    r"fell off the \w+ wagon)\b", re.I)
#: ... unless it tells the new value too ("cancelled the membership and joined the
#: climbing gym instead", "left the bank and started as a nurse", "since the office moved
#: out to Slough": a move to a place is a change, whoever moved).
_CHANGE_VERB = re.compile(r"\b(?:moved (?:(?:out|away|over|back|up|down|across) )?to|"
                          r"relocated|switched|started|joined|took a job|"
                          r"got a (?:new )?job|taken up|took up|got into|became)\b", re.I)

#: A value told as begun, in an event's words: a thing of the person's called new ("the
#: removal van dropped the boxes at Percival's new place", "The new GP sorted out ..."
#: opening its clause, "got a new phone"; not the new year, new to something, nor "visited
#: the new museum": another's thing in the event); a first spell in it, not in a place
#: ("first week on the wards at Guy's"; "first week in Lisbon" may be a visit's); a role or
#: a place taken up ("promoted to", "appointed", "voted in as chair", "got hired", "signed
#: for the Kings Arms", "registered with a new practice", "settled in", "took over the
#: under-twelves"; not "hired a van", a thing rented). Read by recall where no word of now
#: is said (``answers_under.py``, ``changed_ahead.py``): an event that tells a value began
#: is a value of now, as a change told is (:data:`CHANGE`); a visit or a night out tells
#: none of these.
BEGUN = re.compile(
    r"(?:(?:\b(?:my|our|their|his|her)|(?-i:[A-Z])[\w-]*'s?|(?:^|[.;,:])\s*the)\s+"
    r"(?:(?!brand\b)[\w-]+\s+)?new|\b(?:got|bought|found|has|have)\s+(?:a|an)\s+new)"
    r"\s+(?!years?\b|to\b)[\w-]+|"
    r"\bfirst\s+(?:day|week|fortnight|month|term|shift|season)\s+(?:at|on|with|as)\b|"
    r"\b(?:promoted|appointed|elected|(?:got|was|were|been)\s+hired|hired\s+as|"
    r"enrolled|registered\s+with|"
    r"signed\s+(?:up\s+|on\s+)?(?:with|for|at|to)|voted\s+\w+\s+in\s+as|"
    r"(?:took|taken)\s+over|made\s+up\s+to|settled\s+in(?:to)?|moved\s+in(?:to)?|"
    r"(?:got|picked\s+up|collected)\s+the\s+keys)\b", re.I)



def says_now(text: str | None) -> bool:
    """Whether a memory says its value holds now, tells the change or tells it begun
    (:data:`CURRENT`, :data:`CHANGE`, :data:`BEGUN`): the words by which recall takes a
    newer statement for a value of now, beside an older one its write did not replace
    (``answers_under.py``, ``changed_ahead.py``)."""
    said = text or ""
    return bool(CURRENT.search(said) or CHANGE.search(said) or BEGUN.search(said))


#: A value told as given up for another: "swapped the violin for the cello", "switched
#: from sertraline", "instead of the five-a-side", "traded in", "dropped the Spanish",
#: "has overtaken Succession", "has gone over to Bath". With :data:`ENDING`,
#: :data:`CHANGE` and :data:`CURRENT`: the words by which a newer statement says an older
#: value gave way (:func:`names_gone`).
REPLACED = re.compile(r"\b(?:swapp?(?:ed|ing)|switch(?:ed|ing)|replac(?:ed|ing)|instead|"
                      r"traded|part[\s-]?exchanged|transferred|dropped|ditched|overtaken|changed|moved|"
                      r"(?:gone|went|come|came) over to)\b", re.I)
#: What opens a memory, its subject and the word after it ("Hugo rides", "Marguerite's
#: hairdresser", "Maria works"), and a name owning something in it: the person and what is
#: said of them, in each memory of theirs alike; the value is in the rest.
_OWNER_NAMES = re.compile(r"^\s*([A-Z][\w-]*(?:'s?)?\s+[\w-]+)|\b([A-Z][\w-]*)'s?\b")


def gives_way(text: str | None) -> bool:
    """Whether a memory says a change, an ending or what holds now (:data:`REPLACED`,
    :data:`ENDING`, :data:`CHANGE`, :data:`CURRENT`), and no past, wish or addition: the
    words a newer statement needs to tell an older value gone (:func:`names_gone`), read
    once per memory."""
    said = text or ""
    return not aside(said) and not ADDITION.search(said) and \
        bool(REPLACED.search(said) or ENDING.search(said) or CHANGE.search(said) or
             CURRENT.search(said))


def names_gone(older: str | None, newer: str | None) -> bool:
    """Whether ``newer`` tells that the value of ``older`` gave way: it names a word of
    ``older``'s besides its subject's name ("Hugo sold the Vespa; Hugo gets around on an
    e-bike these days" of "Hugo rides a red Vespa around town"; not its opening subject
    and verb: "works from home now" names no value of "works at Google") and says a
    change, an ending or what holds now (:data:`REPLACED`, :data:`ENDING`, :data:`CHANGE`,
    :data:`CURRENT`). Never a past, a wish or an addition (:func:`aside`,
    :data:`ADDITION`: "got a second dog to keep Rex company"), nor named in another
    person's fact (:func:`told_of`): a sentence naming the old value to say it ended or
    was replaced tells which of the two holds, whatever else each says."""
    said, old = newer or "", older or ""
    if not old or not gives_way(said):
        return False
    names = {w.lower() for m in _OWNER_NAMES.finditer(old) for w in m.groups() if w}
    value = set(terms(old)) - set(terms(" ".join(names)))
    # Named in a sentence of the subject's own, not in one about another person of theirs
    # ("Ruaridh has gone over to Bath Rugby. Ruaridh's dad's disowned Ruaridh.").
    return any(value & set(terms(sentence)) and not told_of(sentence)
               for sentence in re.split(r"(?<=[.!?;])\s+", said))


#: A clause of comparison, to its end: "than the old place did", "than it was".
_THAN = re.compile(r"\bthan\b[^,.;!?]*", re.I)


#: A thing named by a participle ("a cockatiel called Pip", "a woman called Dorothy", "a
#: greyhound named Biscuit"): a name given, no event told.
_NAMING = re.compile(r"\b(?:called|named|nicknamed)\s+(?=[A-Z0-9])")


#: A determiner before a word: a past form after it is an adjective ("a chartered
#: accountant", "the fixed rate", "a left turn"), no verb.
_DETERMINER = re.compile(r"(?:^|\W)(?:a|an|the|their|his|her|my|our) $", re.I)


def tells_event(text: str | None) -> bool:
    """Whether a memory tells a past event (:data:`PAST_EVENT`), outside a clause of
    comparison and a naming participle (:data:`_NAMING`), and not by an adjective after
    a determiner (:data:`_DETERMINER`)."""
    said = _THAN.sub("", text or "")
    if "named" in said or "called" in said:
        said = _NAMING.sub(" ", said)
    return any(not _DETERMINER.search(said[max(0, m.start() - 8):m.start()])
               for m in PAST_EVENT.finditer(said))


def yields(text: str | None) -> bool:
    """Whether a memory is no current value beside one told with it or later: a past or a
    wish (:func:`aside`), or an ending (:data:`ENDING`) that names no new value."""
    said = text or ""
    return aside(said) or bool(ENDING.search(said)) and not _CHANGE_VERB.search(said)


#: A stay told by the time spent away or come back from ("spent a week in Lisbon", "spent a
#: lovely fortnight in Edinburgh", "is back from a week in Rome", "just got back from ten
#: days in Kyoto"): a visit, no home or value of now (recall's reading only; a span of
#: days to a month, not "spent two years at Google").
SPENT = re.compile(r"\b(?:spent|spending|spend|back\s+from)\s+(?:a|an|the|one|two|three|four|"
                   r"five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|\d+)\s+"
                   r"(?:[\w-]+\s+){0,2}?(?:days?|nights?|weeks?|weekends?|fortnights?|"
                   r"months?)\b", re.I)
#: A relative clause, to its end: what it tells (a past, a wish) is of the one it
#: describes, not the subject's value ("a woman called Dorothy who used to run the Madrid
#: office"; "a flat which was built in 1900").
_RELATIVE = re.compile(r"\b(?:who|whom|whose|which)\b[^,.;!?]*", re.I)
_RELATIVE_WORD = re.compile(r"\b(?:who|whom|whose|which)\b", re.I)

#: A wish or a stay: not the present whatever else its sentence says ("is thinking of
#: moving to Leeds now", "would love to switch to tea").
_WISH_OR_STAY = re.compile(rf"\b(?:{_WISH}|{_STAY})\b", re.I)


def aside(text: str | None) -> bool:
    """Whether a memory tells a value of the past, of a wish or of a stay (:data:`PAST`,
    :data:`NOT_NOW`, :data:`SPENT`; outside a relative clause, which tells of the one it
    describes) and none of its sentences tells the change that makes the present
    (:data:`CHANGE`, in a sentence with no wish or stay): it takes no part in newest
    first, keeping its ranked place. Read as the subconscious reads a statement
    (``element/agents/updates.py``: a sentence with a wish or a stay replaces nothing,
    whatever "now" or change verb it also says): "Oona is thinking of moving to Leeds
    now" is a wish on both sides; "grew up in Cork. Lives in Dublin now" tells the
    present."""
    said = text or ""
    own = _RELATIVE.sub(" ", said) if _RELATIVE_WORD.search(said) else said
    if not (PAST.search(own) or NOT_NOW.search(own) or
            any(w in own.lower() for w in ("spen", "back")) and SPENT.search(own)):
        return False
    return not any(CHANGE.search(sentence) and not _WISH_OR_STAY.search(sentence)
                   for sentence in re.split(r"(?<=[.!?;])\s+", own))


#: A person of the subject's named as whose a fact is: "Maria's brother", "their older
#: sister", "his boss".
_RELATION = re.compile(r"(?:\w's|\w'|\b(?:their|his|her|my|our))\s+((?:[\w-]+\s+)?[\w-]+)",
                       re.I)


#: The subject's household, not another person: the subconscious writes a speaker's
#: "we" of home life as "<name>'s family" ("Cosmo's family has got a cockatiel now"), and
#: where the family lives or what pet it has is the subject's answer too.
HOUSEHOLD = frozenset({"family", "household"})


#: The name a possessive relation is of ("Lionel" of "Lionel's doctor").
_OWNER = re.compile(r"([A-Z][\w-]*)$")
#: What follows a name that starts a clause of its own ("told Maria that he ...", "told
#: Maria he is moving"): the relation's news told to the subject, not the subject's.
_FINITE = r"that|he|she|they|it|who|is|was|are|were|has|had|will|would"
#: The verbs by which a person directs the subject's state (a doctor's, a boss's): told
#: to, put on, switched from, moved to, signed up for. Not what the person did beside the
#: subject ("helped Lucia fix the fence", "taught Luca to play chess"): their own news.
_DIRECTS = (r"told|tells|advised|advises|asked|ordered|put|puts|switched|switches|moved|"
            r"moves|prescribed|signed|transferred|made|makes")


def _acts_on_owner(sentence: str, m: re.Match[str]) -> bool:
    """Whether the relation of ``m`` directs the person it is of (:data:`_DIRECTS`):
    "Lionel's doctor told Lionel to cut caffeine", "Paul's doctor put Paul on a
    gluten-free diet". The subject is the verb's object, so what the sentence tells (a
    diet, a drink, a medication) is the subject's own."""
    owner = _OWNER.search(sentence[:m.start() + 1])
    if owner is None:
        return False
    return bool(re.match(rf"\w*'s?\s+(?:[\w-]+\s+){{0,2}}?(?:(?:has|had|just)\s+)*"
                         rf"(?:{_DIRECTS})\s+{re.escape(owner[1])}\b(?!'|\s+(?:{_FINITE})\b)",
                         sentence[m.start():], re.I))


def relations(text: str) -> frozenset[str]:
    """The people of the subject's a text names as whose something is (``RELATIONS``; not
    the :data:`HOUSEHOLD`, nor one who acts on the subject: :func:`_acts_on_owner`)."""
    return frozenset(w for m in _RELATION.finditer(text) if not _acts_on_owner(text, m)
                     for w in re.split(r"[\s-]+", m[1].lower())
                     if w in RELATIONS and w not in HOUSEHOLD)


#: The words a sentence's subject may open with before the person whose it is: names
#: (capitalised), articles and "and" ("Yesterday Maria's brother", "The twins' mum").
_LEAD_WORD = re.compile(r"[A-Z][\w.'-]*|the|a|an|and|both|one|of")
#: A discourse opener before a sentence's subject, up to three words and a comma
#: ("Honestly, Ana's daughter ...", "Long story short, Ana's son ...", "Yesterday, ..."),
#: or one of the few said without a comma ("Turns out Ana's sister ..."): it names no one,
#: and the sentence's subject follows it.
_OPENER = re.compile(r"^\s*(?:(?:[A-Za-z-]+\s+){0,2}[A-Za-z-]+,|(?:it\s+)?turns\s+out"
                     r"(?:\s+that)?|long\s+story\s+short|apparently|honestly|anyway|"
                     r"well|so|oh)\s+", re.I)


def told_of(text: str) -> frozenset[str]:
    """The people of the subject's a memory is about (:func:`relations` named in the
    subject of one of its sentences: "Maria's brother lives in Brighton", "Erin's
    girlfriend Chloe ..."), not those named only in what the subject does ("Theo has been
    driving their dad's old Volvo", "Maria lives in Porto with Maria's husband"), nor one
    who acts on the subject ("Lionel's doctor told Lionel to cut caffeine, so it is decaf
    for Lionel from now on": :func:`_acts_on_owner`): that is the subject's own fact."""
    found: set[str] = set()
    for sentence in re.split(r"(?<=[.!?;])\s+", text):
        for m in _RELATION.finditer(sentence):
            head = _OPENER.sub("", sentence[:m.start() + 1], count=1)
            lead = re.sub(r"[\w'-]*$", "", head).split()
            if all(_LEAD_WORD.fullmatch(w) for w in lead) and not _acts_on_owner(sentence, m):
                found |= relations(m[0])
    return frozenset(found)
