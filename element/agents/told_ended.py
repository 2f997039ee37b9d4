"""An ending told as an event of the speaker's, and the one memory it ends.

People seldom end a thing in an ending's own shape ("I quit the choir", ``endings.py``);
they tell what happened, in the past, with its circumstances:

- the thing passed out of their hands, to someone or back: "Gave the allotment keys back
  to the committee on Saturday", "handed the caravan over to its new owners", "gave the
  bees to a keeper in Essex", in the perfect ("we've given the hives to a neighbour") or
  the particle before the object ("handed back my season ticket", "gave away the bike");
- the last time of it: "Played my last game for the Harriers in May", "worked my final
  shift at Morrisons", "my leaving do at the Infirmary was on Friday", "locked up the shop
  for the last time", "put my guitar away for good", "said goodbye to the allotment";
- the thing done away with by the speaker's hand through another's: "I had it scrapped",
  "we had the old shed taken down" (the causative with a participle of ending);
- the thing gone to live elsewhere, or for scrap: "Marmalade went to live with my aunt in
  Devon", "the Corsa went to the scrapyard";
- the thing taken back or ended by another (a body, not a person of theirs), or another
  doing the speaker's part now: "the council took the allotment back", "the college axed
  its evening programme", "someone else runs the under-tens now"; its end said as what an
  event was: "that was the end of my time at the bank";
- an act whose purpose is the ending, inside a short story: "In November I wrote to the
  choir director to give up my place" (the infinitive of purpose after a whole act, not
  a wish: "I want to give up" has no act before it).

Each shape gives the thing as said and the clause it is in. The memory meant is found
as ``endings.py`` finds it (``meant.ended_by_meaning``: its words, or the cosine of the
thing and the memory, close enough and clearly closest); failing that, by its distinctive
words: the speaker's one-fact memories of the present that a distinctive word of the
thing names ("the allotment keys" and "rents an allotment plot": the model reads them .14
apart, their word is the same), exactly one of them; a thing that names none ("my
place") is read with its clause ("wrote to the choir director to give up my place").

What ends nothing: a question, a plan or wish, an addition, a pause or a stay ("for the
weekend", "until March", "again"), another person's act ("my brother sold his van", "he
gave the keys back"), a time as the thing ("my last game of the season": one instance of
a habit that goes on), a memory of a person ("went to live with my aunt" ends no aunt),
of another's, or one that is itself an event, a plan or an ending. Pure functions over
texts and an embedding function, closed classes of English (determiners, pronouns, the
verbs of transfer and their particles); no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from index import terms

from .bygone import PAUSE
from .decisions import Pool
from .ended_kind import ended_by_kind
from .ended_lexicon import ended_by_what_it_is
from .ended_words import held_now, sole_best
from .ending_grammar import NONE_IN_ITS_PLACE, speakers_own, thing_of
from .episode_words import PAST
from .holders import subject_first
from .meant import ended_by_meaning
from .holding import kept_meanwhile
from .named import ENDING
from .observation import Observation
from .restated import change_to
from .rules import Candidate
from .slots import PEOPLE
from .updates import ADDITION, NOT_NOW, Memory

__all__ = ["EventEnding", "event_endings", "event_ended", "event_change"]


@dataclass(frozen=True)
class EventEnding:
    """An ending told as an event: the thing as said, and for an act whose purpose is the
    ending, the act's complement (what a thing naming nothing is read with: "to the choir
    director" of "my place")."""

    thing: str
    context: str = ""


#: The speaker as the subject, or none (chat drops it before a past: "Played my last ...").
_SUBJECT = (r"(?:(?:i|we|(?:(?:my|our)\s+)?[\w'-]+\s+and\s+i)(?:\s+(?:have|had|'ve|'d|just|"
            r"finally|eventually|then|also|sadly|officially|actually))*\s+)?")
#: A noun phrase of the speaker's or a definite one: what is handed on or done away with.
_NP = r"(?:the|my|our|all\s+(?:the|my|our))\s+(?!(?:{kin})\b)[\w' -]+?"
_KIN = "|".join(re.escape(p) for p in sorted(PEOPLE, key=len, reverse=True))
#: Pets are among ``PEOPLE`` (a holder: "my dog's vet"), but a pet is also a thing handed
#: on or done away with ("we had to rehome the dog", "gave the cat to my aunt").
_PETS = frozenset("dog dogs cat cats puppy kitten pet pets".split())
#: The people of the speaker's that are no thing to hand on (an object's exclusion).
_HUMAN = "|".join(re.escape(p) for p in sorted(PEOPLE - _PETS, key=len, reverse=True))
#: Passed out of the speaker's hands: a verb of transfer, its object, then a particle
#: ("back", "over", "on", "in") or who took it ("to a keeper", "to its new owners").
#: The verb in the past or the perfect ("gave", "we've given them to a neighbour"), or
#: with its particle before the object ("handed back my keys", "gave away the bike").
_TRANSFER = re.compile(
    rf"^{_SUBJECT}(?:(?:gave|given|handed|passed|returned|sold|signed)\s+"
    rf"(?P<x>{_NP.format(kin=_HUMAN)})"
    r"\s+(?:(?:back|over)\b|(?:on|in)(?=\s*$|\s+(?:to|at)\b)|to\s+(?!(?:me|us|myself|ourselves)\b)"
    r"(?:a|an|the|its|their|his|her|one|some|someone|somebody)\b)|"
    rf"(?:gave|given|handed|passed)\s+(?:back|over|away)\s+(?P<y>{_NP.format(kin=_HUMAN)})"
    r"(?=\s*$|\s+(?:to|at|on|in|last|this|after|when|because)\b))", re.I)
#: Taken back or away from the speaker by another, not a person of theirs: "the council
#: took the allotment back in the spring", "the bank took the van away".
_TAKEN_BACK = re.compile(rf"^(?!(?:i|we|you|he|she|they|my\s+(?:{_KIN})|our\s+(?:{_KIN}))\b)"
                         rf"(?:[\w'-]+\s+){{1,3}}?(?:has\s+|have\s+)?(?:took|taken|reclaimed|"
                         rf"repossessed)\s+(?P<x>{_NP.format(kin=_HUMAN)})\s+(?:back|away)\b",
                         re.I)
#: Taken by the speaker to where things are done away with: "took the old Micra to the
#: scrappers", "dropped the sofa off at the tip" (the place a closed class: no garage, no
#: vet, where a thing goes and comes back).
_TAKEN_TO = re.compile(
    rf"^{_SUBJECT}(?:took|taken|sent|drove|dropped|carted|lugged)\s+(?P<x>{_NP.format(kin=_HUMAN)})"
    r"\s+(?:off\s+)?(?:to|at)\s+(?:the|a)\s+(?:local\s+)?(?:scrap(?:yard|heap|pers|\s+yard|"
    r"\s+heap|\s+dealer|\s+merchant)?|scrappers|breakers(?:'?\s+yard)?|tip|dump|"
    r"recycling\s+centre|charity\s+shop)\b", re.I)
#: Another doing the speaker's part now: "someone else runs the under-tens now".
_SOMEONE_ELSE = re.compile(r"^(?:someone|somebody)\s+else(?:'s|\s+has|\s+is)?\s+"
                           r"(?:now\s+|taken\s+over\s+)?(?P<verb>[a-z]+)\s+(?P<x>.+)$", re.I)
#: The last time of it, the speaker's, told in the past: "played my last game for the
#: Harriers", "did my final session with the under-nines".
_LAST = re.compile(rf"^{_SUBJECT}(?P<verb>[a-z]+)\s+(?:my|our)\s+(?:very\s+)?(?:last|final)\s+"
                   r"(?P<noun>[\w-]+)(?:\s+ever)?\s+(?P<x>(?:for|at|with|in|on|of|from)\s+.+)$",
                   re.I)
#: A portion of a course of something, whose last ends the course: "finished my final
#: round of chemo", "took my last dose of the antibiotics", "did my last session of physio"
#: (a game, a class or a shift of a thing is one of a habit that goes on).
_PORTION = re.compile(r"rounds?|doses?|courses?|cycles?|sessions?|blocks?|stints?", re.I)
#: "Last" is also the latest ("did my last session of physio on Monday"): the very last
#: is "final", "last ever", or the last one finished.
_VERY_LAST = re.compile(r"\b(?:final|last\s+[\w-]+\s+ever|very\s+last)\b|^(?:(?:i|we)\s+"
                        r"(?:have\s+|'ve\s+|had\s+|just\s+)*)?(?:finished|completed)\b", re.I)
#: The same, said of a day: "Friday was my last shift at Morrisons".
_WAS_LAST = re.compile(r"\b(?:was|were)\s+(?:my|our)\s+(?:very\s+)?(?:last|final)\s+[\w-]+\s+"
                       r"(?P<x>(?:for|at|with|in|on|from)\s+.+)$", re.I)
#: A farewell of the speaker's from it, or the last day there, told as past: "my leaving do
#: at the Infirmary was last Friday", "my last day at the bank was Friday" ("is": to come).
_FAREWELL = re.compile(r"\b(?:my|our)\s+(?:(?:leaving|farewell|retirement)|(?:very\s+)?"
                       r"(?:last|final))\s+[\w-]+\s+(?P<x>(?:at|from|for|with)\s+.+?)\s+"
                       r"(?:was|were)\b", re.I)
#: A thing done for the last time or for good, the speaker's: "locked up the shop for the
#: last time", "put my guitar away for good" (an object, not a place gone to: "moved to
#: Leeds for good" is a move).
_LAST_TIME = re.compile(rf"^{_SUBJECT}(?P<verb>[a-z]+)(?:\s+(?:up|out|down|off|away))?\s+"
                        rf"(?P<x>{_NP.format(kin=_KIN)})(?:\s+(?:up|out|down|off|away|back))?"
                        r"\s+(?:for\s+the\s+(?:very\s+)?(?:last|final)\s+time|for\s+good)\b",
                        re.I)
#: A farewell said to it: "said goodbye to the allotment", "waved a last goodbye to the boat".
_GOODBYE = re.compile(rf"^{_SUBJECT}(?:said|waved|bid|bade)\s+(?:a\s+|our\s+|my\s+)?(?:last\s+|"
                      rf"final\s+|fond\s+|sad\s+|tearful\s+)?(?:goodbyes?|farewells?)\s+to\s+"
                      rf"(?P<x>{_NP.format(kin=_KIN)}(?:\s|$).*)$", re.I)
#: The participles of a thing done away with (or stolen): sold, scrapped, put down, rehomed,
#: demolished, taken away; not a thing served ("had the boiler serviced", "got my car
#: washed": it goes on).
_DISPOSED = (r"(?:sold|scrapped|crushed|rehomed|re-homed|put\s+down|put\s+to\s+sleep|"
             r"destroyed|demolished|knocked\s+down|pulled\s+down|taken\s+(?:down|away)|"
             r"towed\s+away|cut\s+down|felled|removed|cancell?ed|closed(?:\s+down)?|"
             r"shut\s+down|written\s+off|repossessed|dismantled|disconnected|stolen|nicked|"
             r"pinched)")
#: The speaker's own act of doing away with it: "we had to rehome Biscuit in the spring",
#: "scrapped the Volvo", "closed the café in March" (past, or the base after "had to").
_DISPOSE = re.compile(rf"^{_SUBJECT}(?:(?:had|have|has)\s+to\s+(?P<base>sell|scrap|rehome|re-home|"
                      r"demolish|dismantle|disconnect|close|shut|give\s+away)|(?P<past>scrapped|"
                      r"rehomed|re-homed|demolished|dismantled|disconnected|gave\s+away))\s+"
                      rf"(?P<x>(?:the|my|our)\s+(?!(?:{_HUMAN})\b).+|(?-i:[A-Z])[\w'-]+.*)$", re.I)
#: The end of it said as what an event was: "that was the end of my time at the bank",
#: "the move meant the end of the allotment".
_END_OF = re.compile(r"\b(?:was|were|meant|marked|spelled|spelt)\s+the\s+(?:very\s+)?end\s+of\s+"
                     r"(?P<x>(?:the|my|our)\s+.+)$", re.I)
#: Another (a body, not a person of the speaker's) ending the thing the speaker took part
#: in: "the college axed its evening programme", "the council closed the lido in May" (not
#: for a while or a reason: "closed the lido for repairs" is a pause).
_THEY_ENDED = re.compile(rf"^(?!(?:i|we|you|he|she|they|my\s+(?:{_KIN})|our\s+(?:{_KIN}))\b)"
                         r"(?:[\w'-]+\s+){1,3}?(?:has\s+|have\s+|finally\s+|just\s+)?"
                         r"(?:closed(?:\s+down)?|shut(?:\s+down)?|axed|scrapped|cancell?ed|"
                         r"disbanded|discontinued|wound\s+up|dropped|ended|sold\s+off)\s+"
                         r"(?P<x>(?:the|its|their|my|our)\s+.+)$", re.I)
#: The causative with a participle of ending (``named.ENDING`` or the disposals of a
#: thing): "I had it scrapped", "we had the old shed taken down".
_CAUSED = re.compile(rf"\b(?:i|we)\s+(?:(?:have|'ve|had|'d)\s+)?(?:had|got)\s+"
                     rf"(?P<x>it|them|{_NP.format(kin=_HUMAN)})\s+(?P<p>{_DISPOSED})\b", re.I)
#: The thing gone to live with another or to a new home: "Marmalade went to live with my
#: aunt", "the rabbits have gone to a new home".
_RELOCATED = re.compile(r"^(?!(?:i|we|you|he|she|they|it|this|that|there)\b)"
                        r"(?P<x>(?:(?:my|our|the)\s+)?[\w'-]+(?:\s+[\w'-]+)??)"
                        # A first act told before: "the Corsa failed its MOT and went ...".
                        r"(?:\s+[a-z]+ed\s+[\w' -]+?\s+and)?\s+"
                        r"(?:has\s+|have\s+|'s\s+)?(?:went|gone|moved)\s+(?:off\s+)?"
                        r"(?:to\s+live\s+(?:with|at|in)|to\s+(?:a|an|her|his|their|its)\s+"
                        r"(?:new|forever|loving)\s+(?:home|owners?|family)|"
                        # Gone for scrap: "the Corsa went to the scrapyard".
                        r"(?:to|for)\s+(?:the\s+)?scrap(?:yard|heap|\s+yard|\s+heap)?|"
                        # Gone to a person, to keep: "the Corsa went to my nephew", "the
                        # piano went to a collector" (not to their home: "went to my
                        # sister's" is a visit).
                        # "... gone to someone off the waiting list", "to a couple in
                        # Leeds": anyone unnamed.
                        rf"to\s+(?:someone|somebody|(?:my|our)\s+(?:[\w-]+\s+)?(?:{_KIN})|"
                        r"(?:a|an|one\s+of\s+(?:my|our))\s+"
                        r"(?:[\w-]+\s+)?(?:friends?|neighbou?rs?|colleagues?|mates?|dealer|man|"
                        r"woman|couple|family|lad|bloke|chap|guy|lady|"
                        r"collector|buyer|charity(?:\s+shop)?|new\s+owners?))(?!'|\s+(?:house|place|"
                        r"home|flat|party|wedding|funeral|office|school)\b))\b", re.I)
#: A thing's last event, then "that's that": "the car failed its MOT so that's that", "my
#: phone went in the canal and that was the end of it" (the thing the sentence opens on is
#: over; a person opening it is no thing: "my sister said no, so that's that").
_THATS_THAT = re.compile(r"^(?P<x>(?:the|my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+?|(?-i:[A-Z])[\w'-]+)"
                         r"(?:'s)?\s+(?:[a-z]+ed|was|were|went|got|broke|died|gave|packed|has|"
                         r"had|is)\b[^,;]*?(?:,\s*|\s+)(?:so|and)\s+(?:that's|that\s+is|that\s+"
                         r"was)\s+(?:that|the\s+end\s+of\s+(?:it|that|them|her|him))\b", re.I)
#: The speaker's thing stolen: "my bike was stolen", "the van got nicked", "some git
#: nicked my bike from outside the station" (a person's of theirs is no thing of the
#: speaker's: "my son's bike was stolen"; a thief's own subject, not "I": "I nicked ...").
_THEFT = r"(?:stolen|nicked|pinched|nabbed|swiped|robbed)"
_STOLEN = re.compile(rf"^(?P<x>{_NP.format(kin=_HUMAN)})\s+(?:was|were|got|has\s+been|"
                     rf"have\s+been|'s\s+been)\s+{_THEFT}\b", re.I)
_STOLE = re.compile(rf"^(?!(?:i|we|you)\b)(?:[\w'-]+\s+){{1,3}}?(?:stole|nicked|pinched|nabbed|"
                    rf"swiped|made\s+off\s+with|(?:has|have)\s+{_THEFT})\s+"
                    rf"(?P<x>(?:my|our|the)\s+(?!(?:{_HUMAN})\b)[\w' -]+)$", re.I)
#: A thing stolen and had back: no ending ("the police found it", "we got it back").
_RECOVERED = re.compile(r"\b(?:found|recovered|returned|got\s+(?:it|them|\w+)\s+back|"
                        r"turned\s+up)\b", re.I)
#: An act of the speaker's in the past whose purpose is an ending: "wrote to the choir
#: director to give up my place", "rang the gym to cancel my membership". The act is
#: whole before "to" (a complement after its verb), so no wish or try ("I want to quit").
_PURPOSE = re.compile(rf"^{_SUBJECT}(?P<verb>[a-z]+)\s+(?P<c>[\w' -]+?)\s+to\s+"
                      r"(?P<end>give\s+up|quit|cancel|leave|hand\s+(?:back|in)|return|sell|"
                      r"step\s+down\s+from|resign\s+from|drop\s+out\s+of|end|stop)\s+"
                      r"(?P<x>.+)$", re.I)
#: Verbs before an infinitive that make it a wish, a try or a plan, not a purpose.
_NOT_DONE = re.compile(r"\b(?:tried|trying|try|wanted|want|hoped|meant|planned|decided\s+not|"
                       r"forgot|failed|refused|asked|begged|told)\b", re.I)
#: A time as the thing: the end of one instance of a habit that goes on ("my last game of
#: the season", "my final class of the term").
_SPAN = frozenset(terms("season year term semester week month summer winter autumn spring "
                        "series day night weekend holiday holidays course"))
#: Where a sentence's clauses part.
_CLAUSE = re.compile(r"\s*[;:!?()]\s*|\s*,\s+(?=(?:i|we|my|our|the|it|that|this|so|but|and|"
                     r"which|who)\b)|\s+(?:but|so|because|and\s+(?=(?:i|we|my|our)\b))\s+|"
                     r"\s+-\s+", re.I)
#: The first noun phrase of a sentence: what "it" points back at ("The Volvo failed its MOT
#: so badly that I had it scrapped").
_FIRST_NP = re.compile(r"^(?P<x>(?:(?:the|my|our)\s+)?(?:[\w'-]+\s+)??[\w'-]+?)\s+"
                       r"(?:[a-z]+ed|was|were|is|had|has|went|got|broke|died|failed|"
                       r"[a-z]+s)\b", re.I)
#: Words too light to name a memory by.
_LIGHT = frozenset(terms(
    "the my our a an this that all place spot seat bit lot thing things stuff time last final "
    "first old new keys key one ones day days week weeks month year years back over on in "
    "with for from have has had get got make made take took give gave hand handed "
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays weekend weekends"))


#: A day said after the thing: "the depot on Christmas Eve", "the club on Saturday".
_WHEN = re.compile(r"\s+(?:on|over|at)\s+(?:the\s+)?(?:(?:christmas|new\s+year'?s?|boxing)"
                   r"\s*(?:eve|day)?|easter|[a-z]+day|weekend|\d+(?:st|nd|rd|th)?)\b.*$", re.I)


def _head(text: str) -> str:
    """The object acted on, without what it is at or of ("the gate at the allotment" is
    the gate): a disposal or a transfer acts on the thing it names first."""
    return _thing(re.sub(r"\s+(?:at|in|on|of|with|behind|near|by|from|for|to)\s+.*$", "", text,
                         flags=re.I))


def _last_portion(m: re.Match[str], clause: str) -> bool:
    """Whether a last "of" a thing (``_LAST``) is the end of a course ("finished my final
    round of chemo"), not of a span ("my last session of the week") nor the latest one."""
    of = re.sub(r"^of\s+(?:the\s+)?", "", m["x"], flags=re.I).split()
    return bool(_PORTION.fullmatch(m["noun"]) and _VERY_LAST.search(clause) and of and
                not set(terms(of[0])) & _SPAN)


def _past(verb: str) -> bool:
    low = verb.lower()
    return low in PAST or low.endswith("ed")


def _thing(text: str) -> str:
    """The thing said, cut at its time or reason, without a leading preposition."""
    thing = _WHEN.sub("", thing_of(text))
    return re.sub(r"^(?:for|at|with|in|on|of|from)\s+", "", thing, flags=re.I)


def _clause_events(clause: str, sentence: str) -> list[EventEnding]:
    own = subject_first(clause)
    if (m := _STOLEN.match(own) or _STOLE.match(clause)) and _head(m["x"]) and \
            not _RECOVERED.search(sentence):
        return [EventEnding(_head(m["x"]))]
    if (m := _TRANSFER.match(own)) and speakers_own(own):
        return [EventEnding(_head(m["x"] or m["y"]))] if _head(m["x"] or m["y"]) else []
    if (m := _TAKEN_TO.match(own)) and speakers_own(own) and _head(m["x"]):
        return [EventEnding(_head(m["x"]))]
    if (m := _END_OF.search(own)) and _thing(m["x"]):
        return [EventEnding(_thing(m["x"]))]
    if (m := _THEY_ENDED.match(own)) and _head(m["x"]) and \
            not re.search(r"\bfor\s+(?!good\b|ever\b)", m["x"], re.I):
        return [EventEnding(re.sub(r"^(?:its|their)\s+", "the ", _head(m["x"]), flags=re.I))]
    if (m := _DISPOSE.match(own)) and speakers_own(own) and _head(m["x"]):
        return [EventEnding(_head(m["x"]))]
    if (m := _TAKEN_BACK.match(own) or _SOMEONE_ELSE.match(own)) and _thing(m["x"]):
        return [EventEnding(_thing(m["x"]))]
    if (m := _LAST_TIME.match(own)) and _past(m["verb"]) and speakers_own(own) or \
            (m := _GOODBYE.match(own)) and speakers_own(own):
        return [EventEnding(_thing(m["x"]))] if _thing(m["x"]) else []
    if (m := _LAST.match(own)) and _past(m["verb"]) and speakers_own(own):
        if m["x"].lower().startswith("of ") and not _last_portion(m, own):
            return []   # "my last game of the season": one of a habit that goes on
        return [EventEnding(_thing(m["x"]))] if _thing(m["x"]) else []
    if (m := _WAS_LAST.search(own) or _FAREWELL.search(own)) and _thing(m["x"]):
        return [EventEnding(_thing(m["x"]))]
    if m := _CAUSED.search(own):
        x = m["x"]
        if x.lower() in ("it", "them"):
            first = _FIRST_NP.match(subject_first(sentence))
            x = first["x"] if first and not re.match(r"(?:i|we)\b", first["x"], re.I) else ""
        return [EventEnding(_head(x))] if x and _head(x) else []
    if (m := _RELOCATED.match(own)) and _thing(m["x"]) and \
            not set(m["x"].lower().split()) & (PEOPLE - _PETS) and \
            not re.search(r"\w(?:'s|s')(?:\s|$)", m["x"]):    # another's: "our neighbour's cat"
        return [EventEnding(_thing(m["x"]))]
    if (m := _PURPOSE.match(own)) and _past(m["verb"]) and speakers_own(own) and \
            not _NOT_DONE.search(f"{m['verb']} {m['c']}") and _thing(m["x"]):
        return [EventEnding(_thing(m["x"]), m["c"])]
    return []


def event_endings(sentence: str) -> list[EventEnding]:
    """The endings told as events of the speaker's that a first-person sentence (cleaned)
    tells, clause by clause; none in a question, a clause of a plan or wish, an addition
    or a pause, and no time as the thing."""
    if sentence.rstrip().endswith("?"):
        return []
    found = []
    if (m := _THATS_THAT.match(sentence.strip())) and _thing(m["x"]) and \
            not set(m["x"].lower().split()) & PEOPLE and not PAUSE.search(sentence):
        found.append(EventEnding(_thing(m["x"])))
    for clause in (c.strip() for c in _CLAUSE.split(sentence)):
        if not clause or NOT_NOW.search(ENDING.sub(" ", clause)) or \
                ADDITION.search(NONE_IN_ITS_PLACE.sub(" ", clause)) or \
                PAUSE.search(clause):
            continue
        for ending in _clause_events(clause, sentence):
            words = set(terms(ending.thing)) - _LIGHT
            if words and words <= _SPAN or not words and not ending.context:
                continue    # a time ("the season") or nothing distinctive as the thing
            found.append(ending)
    return found


#: People, not animals or roles one plays ("coach", "teacher"): a memory of having one
#: ("I have a younger brother called Owen") is no thing to hand on or see go.
_HUMANS = "|".join(sorted(PEOPLE - frozenset(
    "dog cat puppy kitten pet coach trainer teacher tutor team client".split())))
_A_PERSON = re.compile(rf"^(?:i|we)\s+(?:have|'ve\s+got|got)\s+(?:an?|one|two|three|four|"
                       rf"\d+)\s+(?:[\w-]+\s+){{0,2}}?(?:{_HUMANS})s?\b", re.I)


def _held(memory: Memory, who: str) -> str | None:
    """A one-fact memory of the speaker's held now, of no person (a pet may be handed on):
    its fact, else None."""
    return held_now(memory, who, _A_PERSON)


def _named(words: set[str], memories: Sequence[Memory], who: str,
           skip: Sequence[str]) -> Memory | None:
    """The one memory of the speaker's held now that the distinctive ``words`` name most
    (stemmed terms), when no other is named as much; None when none or a tie."""
    ranked = []
    own = set(terms(who))
    for memory in memories:
        if memory["id"] in skip or (said := _held(memory, who)) is None:
            continue
        shared = len(words & (set(terms(said)) - _LIGHT - own))
        if shared:
            ranked.append((shared, memory))
    return sole_best(ranked)


def event_ended(sentence: str, pool: Pool, who: str,
                skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's memory an ending told as an event in ``sentence`` ends (see the
    module's note), or None: no such ending, or no memory clearly meant."""
    told = [] if kept_meanwhile(sentence) else event_endings(sentence)    # a loan, a repair
    embedder = pool.embedder() if told else None
    for ending in told:
        if embedder is not None:
            try:
                found = ended_by_meaning(ending.thing, pool.nearest(ending.thing, 10), who,
                                         embedder.embed, skip)
            except Exception:   # a failing model finds nothing: read by its words
                found = None
            if found is not None and _held(found, who) is not None:
                return found
        own = set(terms(who))
        words = set(terms(ending.thing)) - _LIGHT - own
        found = _named(words, pool.memories(), who, skip) if words else None
        if found is None and ending.context:
            # A thing naming none of them ("my place"): read with the act's complement.
            context = set(terms(ending.context)) - _LIGHT - own
            found = _named(context - words, pool.memories(), who, skip) if context else None
        if found is None and embedder is not None:
            # "The car failed its MOT so that's that": the kind of the one held (``ended_kind``).
            try:
                found = ended_by_kind(ending.thing, pool.memories(), who, embedder, skip)
            except Exception:   # a failing model finds nothing
                found = None
        if found is None:
            # "We had to rehome the dog" after "a cocker spaniel called Biscuit": what the
            # thing is, by the lexicon (``ended_lexicon.py``).
            found = ended_by_what_it_is(ending.thing, pool.memories(), who, skip)
        if found is not None:
            return found
    return None


def event_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                 taken: list[str]) -> Candidate | None:
    """``sentence`` (of ``observation``'s turn ``turn``) as a change superseding the
    speaker's memory an ending told as an event in it ends (:func:`event_ended`), else
    None. Tried after the ending grammar (``endings.ending_change``)."""
    return change_to(event_ended(sentence, pool, who, taken), sentence, who, turn,
                     observation, taken)
