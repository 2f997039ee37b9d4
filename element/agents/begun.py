"""A change told as the event that made it: "Had my first day at Sainsbury's on Monday"
after "I work at Tesco", "Collected my Kia Picanto from the garage on Tuesday" after "I
drive a Vauxhall Astra", "Opened an account with Monzo last month" after "I bank with
NatWest", "the school took me on as a Year 4 class teacher" after "I'm a teaching assistant".

People tell a new value by the event that brought it, in the past, with no word of change
("moved", "switched", "now"): the other finders read a past event as history (a visit, a
night out), never as a value that holds (``updates.is_event``), and a story's clauses only
when they carry a cue. But an event whose *result is a state* leaves that state holding:
who joined a gym is a member of it, who bought a car has it, who started at a firm works
there, who was taken on as a teacher is one. These are the grammar book's change-of-state
verbs, in closed classes (:data:`_EVENTS`): beginning ("started at", "began", "my first
day at", "took a post at", "landed a job at", "started seeing"), joining, registering and
admission ("joined", "signed up with", "registered with", "enrolled at", "got into"),
acquiring ("bought", "got", "collected", "picked up", "opened", "took out", "inherited"),
becoming ("became", "qualified as", "was promoted to", "made partner", "took over as",
"took me on as"), a transfer of one's own thing ("ported my number to"), an exchange
("traded the Astra in for a Kia Niro": the thing got), a home settled into ("we're settled
into the cottage in Frome") and a first counted or a probation passed ("Week one at Octopus
done", "passed my probation at Arup"); a thing of the speaker's told as the subject of its
own arrival ("The new Corsa arrived on Friday") is read by ``arrived.py``. What one drove
away in or got from a dealer is said to be driven, so the bank reads a vehicle. A visit, a
stay, a hire or a meal ("spent a weekend in Lisbon", "hired a van", "had lunch at Nando's")
changes no state and is no such verb.

Such an event of the speaker's (the subject "I"/"we", dropped, or "me"/"us" as the one
acted on), in a clause of the speaker's present (no plan, wish or past habit, no addition,
no negation, not another person's), is read as its result: the verb's object told as the
value the event leaves ("Desmond started at Sainsbury's", "Leonie has a Kia Picanto",
"Rhodri has an account with Monzo"), the time and what follows it cut off. So is such an
event set under another clause ("my forearms ache since I joined the climbing centre",
"since joining ..."): "since" and "after" say the state began then and holds. That
result replaces (``result_target.py``) the speaker's one-fact memory of a *single-valued*
attribute (``index.ATTRIBUTES``) that the memory answers best and the result answers among
its best (``profile.ANCHOR_GAP``), naming a value the memory lacks; one such memory only. A
story (longer than a statement) is read clause by clause: the clause that tells the event
is the news.

Why it is general: the verbs are closed grammatical classes (inchoative, acquisition,
membership, change of state), not words grown from any case; the attribute is the profile
bank's (a generic person profile), compared by the store's own model; the guards are the
other finders' (recall's readers of plans, past habits and additions, ``index/told.py``;
whose a sentence is, ``profile.whose``). Pure functions over texts and the pool.
"""

from __future__ import annotations

import re

from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_PAST

from .arrived import arrived_result
from .cues import bounded
from .holders import UNKNOWN, subjectless
from .meaning import SIMILAR_WORDS, clauses
from .profile import anothers_clause, whose
from .sentences import split_sentences
from .slots import PEOPLE

__all__ = ["DWELLING", "begun_result", "results"]

#: The speaker as the one who acts, right before the verb: "I", "we", "I've just", or the
#: subject dropped at the clause's start ("Joined the gym last week"); an opening word of
#: narration or a time first ("So last week I ...", "On Monday we ...").
_BY_SPEAKER = (r"^(?:(?:so|and|then|well|anyway|finally|eventually|also|oh|yeah|right)\b,?\s+)*"
               r"(?:(?:last|this|on|in|over|at\s+the\s+end\s+of)\s+[\w-]+(?:\s+[\w-]+)?,?\s+)?"
               # An opening phrase of time or circumstance, the subject said after it
               # ("After six interviews I finally landed ...", "Following the move, we ...").
               r"(?:(?:after|following|despite|with|at\s+last|in\s+the\s+end)\s+"
               r"(?:[\w'-]+\s+){0,4}?[\w'-]+,?\s+(?=(?:i|we)\b))?"
               r"(?:(?:i|we)(?:'ve|'d)?\s+)?"
               r"(?:(?:have|had|just|finally|recently|officially|eventually|actually|already|"
               r"then|also|went\s+and)\s+)*")

#: A possessive or a determiner opening the thing acquired ("a", "my", "the"): "got the
#: train", "got back", "got sick" are no acquisition.
_DET = r"(?=(?:a|an|the|my|our|one\s+of\s+the)\s)"

#: The speaker as the one an acquisition is for, between the verb and the thing: "got
#: myself a Pixel", "bought ourselves a camper", "got us a Kia" (the indirect object of the
#: English benefactive; "us" is the household). Another person there ("bought my mum an
#: iPhone") is no match: the thing is theirs.
_BENEFACTIVE = r"(?:(?:myself|ourselves|me|us)\s+)?"

#: The words that tell a job as one beside the one a person has ("a weekend job", "a
#: second job", "a summer job", "a temp role"): the hours or the season it fills, never its
#: kind ("a teaching job", "a day job", "a new post" are the job).
_SIDE_JOB = (r"(?:weekend|saturday|sunday|summer|holiday|christmas|seasonal|second|extra|side|"
             r"evening|part-time|temporary|temp|casual|volunteer|voluntary)")
#: One word telling a job's kind, not one beside it.
_MAIN_JOB = rf"(?!{_SIDE_JOB}\b)[a-z][\w-]*"

#: The change-of-state verbs, by the state each leaves (the result's verb phrase, ``None``:
#: the event's own words, its object after them).
_EVENTS: tuple[tuple[str, str | None], ...] = (
    # Beginning at a place of work or study, or with a person who serves one.
    (r"(?:started|began|begun|commenced)\s+(?:(?:(?:a|my|the)\s+)?(?:" + _MAIN_JOB +
     r"\s+)?(?:job|role|post|"
     r"position|placement|apprenticeship|course|degree|contract)\s+)?(?P<p>at|with|as|in|on)",
     None),
    # Beginning a relation: "started seeing Tom", "began going out with Sam".
    (r"(?:started|began)\s+(?:seeing|dating|going\s+out\s+with)\s+"
     r"(?=(?-i:[A-Z]))", "is dating"),
    # A couple made: married or engaged to a named person ("Married Oliver in May", "got
    # engaged to Dominic over Christmas"): one's partner.
    (r"(?:married|got\s+married\s+to|tied\s+the\s+knot\s+with)\s+(?=(?-i:[A-Z]))",
     "is married to"),
    (r"(?:got|became|were|was)\s+engaged\s+to\s+(?=(?-i:[A-Z]))", "is engaged to"),
    (r"(?:took|taken|accepted|landed)\s+(?:up\s+)?(?:a|an|the)\s+(?:" + _MAIN_JOB + r"\s+)?"
     r"(?:job|role|post|position|placement|offer|place)\s+(?P<p>at|with|as|in|on)", None),
    # A home come into: completing or exchanging on it, moving into it, its keys got
    # ("We completed on a cottage in Whitstable", "got the keys to our flat in Leith").
    (r"(?:(?:completed|exchanged(?:\s+contracts)?)\s+on|moved\s+in\s*to|got\s+(?:(?:the|our|my)\s+)?"
     r"keys\s+(?:to|for))\s+" + _DET, "lives in"),
    # Settled into a home, the state the move ends in ("we're finally settled into the
    # cottage in Frome", "all settled in Ripon now"): a dwelling or a place named.
    (r"(?:(?:i|we)(?:'re|'m|\s+are|\s+am)\s+)?(?:(?:all|finally|now|properly|nicely)\s+)*"
     r"settled\s+(?:in\s+)?(?:in|into)\s+(?=(?:a|an|the|my|our)\s|(?-i:[A-Z]))", "lives in"),
    # Signing for a club is playing for it ("Signed for Folkestone Invicta in August").
    (r"signed\s+for\s+(?=(?:the\s+)?(?-i:[A-Z]))", "plays for"),
    # Taken on by a firm, told in the passive with where: "got hired at Costa", "was taken
    # on by the Co-op" (with "as", a role: below).
    (r"(?:got|was|were|been)\s+(?:taken\s+on|hired|recruited|employed)\s+(?:at|by)\s+"
     r"(?=(?:the\s+)?(?-i:[A-Z]))", "works at"),
    # A job offer taken: "accepted an offer from Deloitte".
    (r"accepted\s+(?:a|an|the|their)\s+(?:job\s+)?offer\s+(?:from|with|at)\s+(?=(?-i:[A-Z]))",
     "works at"),
    # Joining, registering, enrolling: a member of it, on its books.
    (r"joined(?!\s+(?:in|up|forces|them|him|her|us|me)\b)", "is a member of"),
    (r"(?:signed(?:\s+(?:up|on))?|registered|enrolled|enlisted)\s+(?P<p>with|at|to|for|in|on)",
     "is"),
    # A place got on a course or at a university is a place to study, not a home ("got a
    # place at Durham", "won a place on the Leeds MA").
    (r"(?:got|won|secured|accepted|took\s+up)\s+(?:a|my|our)\s+place\s+(?P<p>at|on)", "studies at"),
    # Acquiring: the thing held.
    (r"(?:bought|purchased|acquired|inherited|leased|landed|got|picked\s+up|collected|"
     r"took\s+delivery\s+of|"
     r"opened|"
     r"took\s+out|treated\s+(?:myself|ourselves)\s+to)\s+" + _BENEFACTIVE + _DET, "has"),
    # An exchange: the thing given up, then the thing got for it, which is held now
    # ("traded the Astra in for a Kia Niro", "part-exchanged the Fabia for a Seat Leon",
    # "swapped my Golf for a Polo").
    (r"(?:traded|swapped|part[\s-]?exchanged|exchanged)\s+(?:in\s+)?(?:(?:the|my|our|a|an)\s+)"
     r"(?:[\w'&-]+\s+){0,3}?(?:in\s+)?for\s+" + _DET, "has"),
    # Leaving with a thing, its getting told by the way home: "drove home in a Mazda MX-5",
    # "came out of the shop with a Galaxy S23", "walked out with a Pixel".
    # What one drove away in is a vehicle one drives: said so, the bank reads its kind
    # ("has a Mini" reads as a phone as much as a car).
    (r"drove\s+(?:it\s+)?(?:home|away|off)\s+in\s+" + _DET, "drives"),
    (r"(?:(?:came|walked)\s+(?:home|away|out)\s+"
     r"(?:of\s+(?:the|a)\s+[\w-]+\s+)?with|left\s+with)\s+" + _DET, "has"),
    # A contract signed for a thing: "signed the papers for the Octavia".
    (r"(?:signed|took\s+on)\s+(?:(?:the|a|our|my)\s+)?(?:papers|paperwork|contract|deal|lease|"
     r"tenancy|mortgage)\s+(?:for|on|of)\s+" + _DET, "has"),
    # A contract signed with a provider is being its customer: "Signed the contract with
    # Aviva this morning", "took out a policy with Direct Line".
    (r"(?:signed|took\s+out|agreed)\s+(?:(?:the|a|an|my|our)\s+)?(?:new\s+)?(?:contract|policy|"
     r"deal|agreement|plan)\s+with\s+(?=(?:the\s+)?(?-i:[A-Z]))", "is with"),
    # An upgrade is a thing in place of the one held: "upgraded to a Galaxy S24", "upgraded
    # my phone to a Pixel 8".
    (r"upgraded\s+(?:(?:my|our)\s+(?:[\w-]+\s+){1,2}?)?to\s+" + _DET, "has"),
    # Becoming: what one is.
    (r"(?:became|qualified\s+as|passed\s+out\s+as|graduated\s+as|(?:got|was|were|been)\s+(?:promoted|made\s+up)\s+to|"
     r"(?:got|was|were|been)\s+(?:made|appointed)(?:\s+as)?(?=\s+(?:a|an|the|(?-i:[A-Z]))\b)|"
     # Taken on, told in the passive: "got taken on as a paralegal", "was hired as a
     # shift lead" (the active, "they took me on as", is :data:`_ON_SPEAKER`'s).
     r"(?:got|was|were|been)\s+(?:taken\s+on|hired|recruited|employed|signed)\s+as"
     r"(?=\s+(?:a|an|the)\b)|"
     # "Made partner", "made sergeant": "make" as "become", a bare role after it.
     r"made(?=\s+(?!(?:a|an|the|it|that|this|me|us|them|him|her|my|our|sure|up|do|time|"
     r"friends|plans|dinner|lunch|breakfast|tea|money|progress)\b)[a-z]+"
     r"(?:\s*(?:[,.!?;]|$)|\s+(?:at|in|of|last|this|on|after)\b)))\s+",
     "is"),
    # Admitted: "got into Exeter", "got onto the Leeds course".
    (r"(?:(?:got|been|was|were)\s+accepted|got)\s+(?P<p>into|onto|at|to|by)"
     r"(?<!got\sat)(?<!got\sto)(?<!got\sby)", "studies at"),
    # Taking over a role: "took over as head of maths", "stepped up as captain".
    (r"(?:took\s+over|stepped\s+(?:up|in))\s+as\s+", "is"),
    # A transfer of one's own thing: where it is now.
    (r"(?:ported|transferred|moved)\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:(?:over|across)\s+)?to",
     "is with"),
)
#: The noun of a thing begun that names its kind: a job (worked at) or a course (studied);
#: a placement is neither for sure (a student's, a trainee's: "as part of my degree").
_BEGUN_AS = re.compile(r"\b(?:(?P<work>job|role|post|position|contract)|"
                       r"course|degree)\b", re.I)

#: A job got, told with where: "a teaching job at St Luke's", "a new role with Arup".
_JOB_AT = re.compile(rf"^(?:a|an|the|my)\s+(?:{_MAIN_JOB}\s+)?(?:job|role|post|position)\s+"
                     r"(?P<p>at|with|in)\s+(?P<x>.+)$", re.I)

#: A person's name: its capitalised words ("Oliver", "Mary Jane").
_NAME_RUN = re.compile(r"(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*")

#: Being given a job, in the passive ("got taken on as", "was hired as"): one works as it.
_HIRED = re.compile(r"(?:got|was|were|been)\s+(?:taken\s+on|hired|recruited|employed)\b", re.I)

_SPEAKERS = [(re.compile(_BY_SPEAKER + r"(?P<v>" + verb + r")\s*(?P<o>.*)$", re.I), state)
             for verb, state in _EVENTS]

#: Another's act on the speaker, any subject: "the school took me on as a class teacher",
#: "they promoted me to senior developer", "Lidl hired me as a shift lead".
_ON_SPEAKER = re.compile(r"\b(?:(?:took|taken)\s+(?:me|us)\s+on\s+as|(?:promoted|moved|bumped)\s+"
                         r"(?:me|us)\s+(?:up\s+)?to|(?:hired|appointed|recruited|employed|"
                         r"made|taken)\s+(?:me|us)\s+(?:as\s+|on\s+as\s+)?(?=(?:a|an|the|"
                         r"(?-i:[A-Z]))\b))\s*(?P<o>.*)$", re.I)

#: A beginning counted, the speaker's by "my"/"our", whatever the clause's subject: "Had my
#: first day at Sainsbury's", "Monday was my first shift at the Co-op"; or opening the
#: clause, its owner left unsaid as a speaker's note leaves it ("First lecture at Keele"),
#: or after a verb of getting through it, its subject the speaker's ("Survived week one at
#: Currys", "Did my first shift at the Co-op").
_FIRST = re.compile(r"(?:\b(?:my|our)\s+|^(?:(?:i|we)\s+)?(?:(?:just|finally)\s+)?"
                    r"(?:survived|finished|completed|did|done|nailed|smashed)\s+|^)(?:first\s+(?:full\s+|proper\s+|official\s+)?"
                    r"(?P<n>day|week|fortnight|month|shift|term|session|appointment|lesson|class|"
                    r"lecture|seminar|tutorial)|"
                    # The first counted by its number ("Week one at Octopus done", "day 1
                    # at the new school"), or the start a place gives its newcomers ("my
                    # induction at Jaguar Land Rover", "passed my probation at Arup").
                    r"(?P<k>(?:day|week|month)\s+(?:one|1)|induction|onboarding|probation))\s+"
                    r"(?P<p>at|with|as|in|on)\s+(?P<o>.*)$", re.I)

#: Where the thing an event names ends: a time, a reason, a purpose, another clause.
_OBJECT_END = re.compile(
    r"\s+(?:(?:on|in|at|by|from|over|during|before|after|since|until)\s+(?:the\s+)?(?:monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|spring|summer|autumn|fall|"
    r"winter|weekend|morning|afternoon|evening|end|start|beginning|new\s+year|christmas|"
    r"easter|half[\s-]term|\d)|the\s+(?:next|following|same|other)\s+(?:day|week|morning|"
    r"evening|month)|(?:i|we|he|she|they)\b(?!')|"
    r"last|this|next|yesterday|today|ago|after|before|because|since|when|while|and|but|so|"
    r"which|who|where|for\s+(?:the|a|an|my|our|his|her|their|him|them|\d)|to\s+(?!(?:a|an|the|my|our|(?-i:[A-Z]))\b)|"
    r"from|then|just|done|"
    r"back|already|finally|at\s+last|"
    # The event told as the subject, its verb after it ("My first shift at the Waitrose
    # deli was on Thursday", "my first week at Guy's went well"): the thing ends there.
    r"that\s+(?:was|is)|(?:was|were|went|has\s+been|had\s+been|felt|seemed|turned\s+out)(?!-))\b.*$|"
    r"\s*[,;:!?()\"].*$|\.\s.*$|\.$", re.I)

#: A thing of the speaker's told by its possessive ("collected my Kia"): had, as "a Kia".
_OWN = re.compile(r"^(?:my|our)\s+(?:(?:new|brand-new|brand\s+new)\s+)?", re.I)

#: A negation: what did not happen left nothing.
_NEGATION = re.compile(r"\b(?:not|never|no|nor)\b|n't\b", re.I)

#: A temporary holding: a hire, a loan, a trial ("hired a van", "borrowed my dad's car",
#: "on a trial", "for the weekend"): the state does not last. Not the speaker hired
#: ("was hired as a shift lead", "they hired me"): a job.
_TEMPORARY = re.compile(r"\b(?:hired(?!\s+(?:as|me|us|by|on|at)\b)|rented|borrowed|lent|loan|trial|"
                        r"temporary|temporarily|for\s+the\s+(?:day|weekend|week|night|"
                        r"holidays?))\b", re.I)


#: A job got, told by its role: "I got the team leader job", "landed the deputy head post",
#: "accepted the senior associate role at Arm": one is that role. The words that only say
#: what kind of job it is ("new", "part-time", "dream") are no role.
_JOB_KIND = (r"(?:new|dream|first|second|part-time|full-time|permanent|temporary|summer|"
             r"weekend|holiday|better|proper|big|top|local|same|other|old|last|next|"
             r"\w+-paid|paid)")
#: Words no role is made of: "took a hard look at the job" names no role.
_NOT_ROLE = r"(?:at|the|a|an|in|on|of|for|to|with|from|my|our|his|her|their|this|that|about)"
_JOB_GOT = re.compile(
    _BY_SPEAKER + r"(?:got|landed|bagged|secured|won|accepted|took)\s+(?:the|a|an)\s+"
    rf"(?:{_JOB_KIND}\s+)*(?P<r>(?!{_JOB_KIND}\b)[a-z][\w'-]*(?:\s+(?!{_NOT_ROLE}\b)[a-z][\w'-]*)"
    r"{0,3}?)\s+(?:job|role|post|position)\b", re.I)

#: An offer taken: "Got offered the deputy manager job and said yes on the spot", "was
#: offered a place at Exeter, and I accepted": the thing offered is the thing accepted. An
#: offer alone may still be refused.
_OFFER_TAKEN = re.compile(
    r"\b(?:got|was|were|been|have\s+been|'ve\s+been)\s+offered\s+(?P<x>(?:the|a|an)\s+"
    r"[^,;.!?]+?)\s*,?\s+(?:and\s+)?(?:(?:i|we)\s+)?(?:(?:just|immediately|straight\s+away)\s+)?"
    r"(?:said\s+yes|accepted(?:\s+it)?|took\s+it|jumped\s+at\s+it)\b", re.I)


def accepted(sentence: str) -> str:
    """``sentence`` with an offer the speaker took told as taken ("Got offered the deputy
    manager job and said yes" -> "accepted the deputy manager job")."""
    return _OFFER_TAKEN.sub(lambda m: f"accepted {m['x']}", sentence)


#: The thing a clause of the speaker's acquisition or move names before it, as its head:
#: "The hybrid Toyota Yaris we picked up on Saturday does twice the miles", "the cottage in
#: Otley that we completed on in May has a leaking roof": the speaker did the event to it.
_FRONTED = re.compile(
    r"^(?P<np>(?:the|my|our)\s+(?:[\w'&-]+\s+){0,6}?[\w'&-]+)\s+(?:that\s+|which\s+)?"
    r"(?P<s>i|we)\s+(?:(?:just|finally|recently|eventually|only)\s+)?"
    r"(?P<v>bought|purchased|picked\s+up|collected|completed\s+on|exchanged\s+on|moved\s+into|"
    r"signed\s+for|joined|got\s+the\s+keys\s+(?:to|for))\b", re.I)


#: A home, by its noun before where it is ("a three-bed semi in Chorlton"): a closed class
#: of English words for a dwelling.
_HOME = re.compile(r"\b(?:house|home|flat|apartment|cottage|bungalow|semi|terrace|maisonette|"
                   r"townhouse|farmhouse|new-build|detached|place)\s+(?:in|on|at|near)\s+"
                   r"(?-i:[A-Z])", re.I)

#: A dwelling's noun: what one has the keys to is a home only if it names one.
DWELLING = re.compile(r"\b(?:house|home|flat|apartment|cottage|bungalow|semi|terrace|terraced|"
                       r"maisonette|townhouse|farmhouse|new-build|place|studio|room|bedsit|"
                       r"\w+-bed(?:room)?|digs|pad|barn|lodge|houseboat|narrowboat)\b", re.I)

#: Where a vehicle is got ("picked up the Octavia from the dealer", "collected it from the
#: showroom"): not a garage, where one's own car is mended.
_DEALER = re.compile(r"\b(?:from|at)\s+(?:the\s+)?(?:[\w'-]+\s+)?(?:dealers?(?:hip)?|showroom|"
                     r"forecourt|car\s+(?:lot|supermarket))\b", re.I)

#: A thing got for another person: "... for my daughter", "... for Mum".
_FOR_ANOTHER = re.compile(r"^\s+(?:[\w-]+\s+){0,3}?for\s+(?:(?:my|our|his|her|their)\s+|"
                          r"(?-i:[A-Z]))", re.I)


def fronted(sentence: str) -> str | None:
    """The speaker's event told with its thing first ("The Yaris we picked up on Saturday
    does ..." -> "we picked up the Yaris"), else None."""
    m = _FRONTED.match(sentence.strip())
    if m is None or _TEMPORARY.search(sentence) or \
            _FOR_ANOTHER.match(sentence.strip()[m.end():]):
        return None     # "The Volvo we bought for my daughter": hers
    head, _, rest = m["np"].partition(" ")
    return f"{m['s']} {m['v']} {head.lower()} {rest}"


#: What makes an arrival a move, not a trip: the right to stay got ("got my visa",
#: "our residency came through"), or the move said for good ("emigrated", "one-way").
_SETTLING = re.compile(r"\b(?:visas?|residency|residence\s+permit|green\s+card|citizenship|"
                       r"work\s+permit|emigrat\w*|for\s+good|one-way|permanently)\b", re.I)
#: A removal: a home's things carried with the arrival ("arrived in Lichfield with the
#: removal van"), the speaker's own only when no person of theirs is named (one helps a
#: sister move as often).
_REMOVAL = re.compile(r"\b(?:removals?(?:\s+(?:van|lorry|men|firm|company))?|"
                      r"moving\s+(?:van|lorry))\b", re.I)
#: The speaker's arrival at a named place: "we flew into Vancouver in May", "landed in
#: Perth in February".
_ARRIVED = re.compile(
    r"(?:^|\b(?:i|we)\s+)(?:(?:finally|eventually|just|then)\s+)?(?:flew|arrived|landed|touched\s+"
    r"down)\s+(?:in|into|at)\s+(?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)", re.I)
#: A trip's words: the arrival is a visit.
_TRIP = re.compile(r"\b(?:holiday|trip|visit\w*|conference|tour|honeymoon|break|weekend|"
                   r"fortnight|week's|wedding|stay\w*|return\s+flight|flew\s+back|"
                   r"tourist)\b", re.I)


def settled(sentence: str, who: str) -> str | None:
    """The home an arrival with the right to stay gives ("Finally got my visa approved and
    we flew into Vancouver in May" -> "Sam lives in Vancouver"), else None: an arrival
    alone, or with a trip's words, is a visit; so is one with a removal ("arrived in
    Lichfield with the removal van") of the speaker's alone (no helping, no person named)."""
    removal = _REMOVAL.search(sentence) is not None and not re.search(r"\bhelp", sentence, re.I) \
        and not any(w.lower().rstrip("s") in PEOPLE or w.lower() in PEOPLE
                    for w in re.findall(r"[\w'-]+", sentence))
    if not (_SETTLING.search(sentence) or removal) or _TRIP.search(sentence) or \
            _NEGATION.search(sentence) or TOLD_NOT_NOW.search(sentence) or \
            whose(sentence if re.match(r"(?:i|we|my|our)\b", sentence.strip(), re.I)
                  else f"I {sentence}") not in ("", UNKNOWN):
        return None     # another's move ("My brother got his visa and flew into Sydney")
    for part in [sentence] + clauses(sentence):
        m = _ARRIVED.search(part.strip())
        if m is not None and whose(part if re.match(r"(?:i|we)\b", part.strip(), re.I)
                                   else f"I {part}") in ("", UNKNOWN):
            return f"{who} lives in {m['place']}"
    return None


#: A couple's event, the speaker and a named person: a time together marked ("Me and Rafael
#: celebrated six months together", "Tom and I hit a year together") or a meeting with
#: "together ever since" ("I met Tom in June and we've been together ever since"): the
#: two are a couple.
_NAMED = r"(?P<n>(?-i:[A-Z])[a-z]+)"
_COUPLE = re.compile(
    r"^(?:(?:me|i)\s+and\s+" + _NAMED + r"|" + _NAMED.replace("<n>", "<m>") +
    r"\s+and\s+(?:me|i))\s+(?:(?:just|finally|have|'ve)\s+)*(?:celebrated|marked|hit|reached)"
    r"\s+(?:our\s+)?(?:[\w-]+\s+)?(?:months?|years?|anniversary)(?:\s+together)?\b"
    r"|^(?:i\s+)?met\s+" + _NAMED.replace("<n>", "<k>") +
    r"\b[^.!?]*\b(?:together|a\s+couple|been\s+(?:dating|seeing\s+each\s+other))\s+"
    r"(?:ever\s+)?since\b", re.I)


def couple(sentence: str, who: str) -> str | None:
    """The partner a couple's event of the speaker's names ("Me and Rafael celebrated six
    months together" -> "Sam is dating Rafael"), else None."""
    m = _COUPLE.match(sentence.strip())
    if m is None or _NEGATION.search(sentence) or TOLD_NOT_NOW.search(sentence):
        return None
    name = m["n"] or m["m"] or m["k"]
    return None if name.lower() in PEOPLE else f"{who} is dating {name}"


def _cut(thing: str) -> str:
    """The thing an event names, up to its time, reason or next clause."""
    thing = _OBJECT_END.sub("", thing.strip())
    return " ".join(thing.split()[:8])


def _thing(said: str, preposition: str | None, named: bool = True) -> str:
    """The thing an event names (``said``: what follows the verb, ``preposition`` its
    preposition if any), up to its time, reason or next clause: "" when only a time
    follows ("started in March"), when it names nothing by name (a proper name: "a new
    phone" says no value), or when its first noun is a person given the thing ("bought
    my mum an iPhone": hers)."""
    if preposition:
        cut = " ".join(_OBJECT_END.sub("", f" {preposition} {said}").split()[:9])
        thing = cut[len(preposition):].strip() if cut.lower().startswith(preposition.lower()) \
            else ""
    else:
        thing = _cut(said)
    head = re.match(r"^(?:(?:a|an|the|my|our|one\s+of\s+the)\s+)?([\w'-]+)", thing, re.I)
    if named and (not re.search(r"(?-i:[A-Z])", thing) or
                  head and re.sub(r"'s?$", "", head[1].lower()).rstrip("s") in PEOPLE):
        return ""
    return thing


def begun_result(clause: str, who: str) -> str | None:
    """The state an event of the speaker's in ``clause`` (raw, first person) leaves, told of
    ``who`` in the present ("Had my first day at Sainsbury's on Monday" -> "Desmond started
    at Sainsbury's"; "Collected my Kia Picanto from the garage" -> "Desmond has a Kia
    Picanto"), or None: no change-of-state verb of the speaker's, or not the speaker's
    present (a plan, a wish, a past habit, an addition, a negation, a hire or a stay, a
    question, another person's)."""
    said = clause.strip()
    if not said or said.endswith("?") or TOLD_NOT_NOW.search(said) or TOLD_PAST.search(said) \
            or TOLD_ADDITION.search(said) or _NEGATION.search(said) or \
            _TEMPORARY.search(said) or bounded(said):
        return None
    # Whose the clause is, its subject dropped or not ("Joined the gym" is the speaker's).
    mine = whose(said if re.match(r"(?:i|we|my|our)\b", said, re.I) else f"I {said}") \
        in ("", UNKNOWN)
    for pattern, state in _SPEAKERS:
        m = pattern.match(said)
        if m is None or not mine:
            continue
        # What one becomes is a role as often as a name ("made partner", "qualified as a
        # midwife"); a job's place is where one works, named or not ("took a day job at
        # the council"); what one joined or bought is named.
        thing = _thing(m["o"], m.groupdict().get("p"),
                       named=(state != "is" or bool(m.groupdict().get("p"))) and
                       not (state is None and _BEGUN_AS.search(m["v"]) is not None))
        if not thing:
            continue
        if state == "is" and _HIRED.match(m["v"]):
            return f"{who} works as {thing}"    # got taken on as a paralegal: a job
        if state == "is" and m.groupdict().get("p"):   # "is registered with", "is enrolled at"
            return f"{who} is {m['v'].lower()} {thing}"
        if state is None:
            if (kind := _BEGUN_AS.search(m["v"])) is not None:
                # The noun of what was begun says what it leaves: a job's place is where
                # one works, a course's where one studies ("started a new job at Lidl",
                # "landed a role at KPMG": the bank reads "started at Lidl" as a gym's
                # or a school's).
                if kind["work"] and m["p"].lower() == "as":
                    return f"{who} works as {thing}"
                verb = "works" if kind["work"] else "studies"
                return f"{who} {verb} {'in' if m['p'].lower() == 'in' else 'at'} {thing}"
            # The beginning told by its own words: "started at", "signed up with".
            verb = "started" if re.search(r"\b(?:first|took|taken|accepted|landed)\b",
                                          m["v"], re.I) else m["v"].split()[0].lower()
            return f"{who} {verb} {m['p'].lower()} {thing}"
        if state == "is a member of" and (job := re.match(
                r"(?P<x>.+?)\s+as\s+(?P<r>(?:a|an|the)\s+.+)$", thing)) is not None:
            return f"{who} works as {job['r']} at {job['x']}"   # joined Superdrug as a manager
        if state == "has" and _HOME.search(thing) and not _TRIP.search(said):
            state = "lives in"  # bought a three-bed semi in Chorlton: a home is lived in
        if state == "lives in" and _TRIP.search(said):
            continue    # "completed on a holiday cottage": a second home, a stay
        if state == "lives in" and "settled" in m["v"].lower() and \
                not (DWELLING.search(thing) or thing[:1].isupper()):
            continue    # settled into the new job, into a routine: no home
        if state == "lives in" and re.match(r"got\b", m["v"], re.I) and \
                not DWELLING.search(thing):
            state = "has"   # the keys to a new Golf: a thing had, not a home
        if state == "has" and re.search(r"leased|lease|tenancy", m["v"], re.I) and \
                not DWELLING.search(thing) and \
                re.search(r"\s(?:in|at|on|near)\s+(?-i:[A-Z])", thing):
            continue    # the lease of a shop in Headingley: premises, not a home nor a thing had
        if state == "has" and re.match(rf"(?:a|an|the|my)\s+{_SIDE_JOB}\s", thing, re.I):
            continue    # a weekend job, a summer job: beside the one held
        if state == "has" and (job := _JOB_AT.match(thing)) is not None:
            # Got a teaching job at St Luke's: where one works.
            return f"{who} works {'in' if job['p'].lower() == 'in' else 'at'} {job['x']}"
        if state == "has" and _DEALER.search(said):
            state = "drives"    # got from a car dealer: a vehicle, said so for the bank
        if state in ("has", "lives in", "drives"):
            thing = _OWN.sub("a ", thing)
        if state in ("is married to", "is engaged to") and \
                (person := _NAME_RUN.match(thing)) is not None:
            thing = person[0]     # the person, not where or when
        if state == "studies at" and m.groupdict().get("p") == "on":
            return f"{who} studies on {thing}"
        return f"{who} {state} {thing}"
    if (m := _JOB_GOT.match(said)) is not None and mine:
        role = m["r"].strip()
        # The thing got is a job: one works as its role ("is a team leader" alone reads
        # as a sport's team to the bank).
        return f"{who} works as {'an' if role[:1].lower() in 'aeiou' else 'a'} {role}"
    if (m := _ON_SPEAKER.search(said)) is not None and (thing := _thing(m["o"], None, named=False)):
        return f"{who} is {thing}"
    if (m := _FIRST.search(said)) is not None and (thing := _thing(m["o"], m["p"])):
        # A shift is worked, a term studied: said so, the bank reads the job or the
        # school ("started at the Royal Infirmary" alone reads as a doctor's).
        if (m["k"] or "").lower() in ("onboarding", "probation"):
            return f"{who} works {'in' if m['p'].lower() == 'in' else 'at'} {thing}"
        doing = {"shift": "working ", "term": "studying ", "lecture": "studying ",
                 "seminar": "studying ", "tutorial": "studying "}.get((m["n"] or "").lower(), "")
        return f"{who} started {doing}{m['p'].lower()} {thing}"
    return None


#: A clause of the speaker's event set under another ("My forearms ache since I joined the
#: climbing centre", "after we signed up with Octopus, the bills halved"): the subordinator
#: of time or cause, then "I"/"we" and the rest of the clause.
_SUBORDINATE = re.compile(r"\b(?:ever\s+since|since|after|now\s+that|once|because|as\s+soon\s+as)"
                          r"\s+(?P<c>(?:(?:i|we)\b|(?P<g>[a-z]+ing)\s)[^,;:.!?()]+)", re.I)
#: The verbs above said as gerunds after "since"/"after" ("since joining the climbing
#: centre"): the subject is the sentence's, told as the past.
_GERUNDS = {"starting": "started", "beginning": "began", "joining": "joined",
            "signing": "signed", "registering": "registered", "enrolling": "enrolled",
            "buying": "bought", "getting": "got", "picking": "picked", "collecting": "collected",
            "opening": "opened", "taking": "took", "becoming": "became",
            "qualifying": "qualified", "porting": "ported", "transferring": "transferred"}


#: A clause with the speaker as its subject, after at most three opening words ("so last
#: Saturday we went ...", "then I ...").
_SPEAKER_SUBJECT = re.compile(r"^(?:[\w'-]+,?\s+){0,3}?(?:i|we)\b(?!')", re.I)


def _after_speaker(part: str, parts: list[str]) -> bool:
    """Whether ``part``, a clause of ``parts`` (a sentence's, in order) with its subject
    dropped, follows a clause whose subject is the speaker, with no other subject between:
    the nearest subject before it is the one it drops."""
    if part not in parts:
        return False
    for before in reversed(parts[:parts.index(part)]):
        if subjectless(before):
            continue
        return _SPEAKER_SUBJECT.match(before.strip()) is not None
    return False


def results(source: str, who: str) -> list[str]:
    """The states the events of ``source`` (the sentences of an episode, raw) leave: each
    sentence whole when it is a statement's length, each of its clauses, and each clause of
    the speaker's set under another (:data:`_SUBORDINATE`)."""
    found: list[str] = []
    for sentence in split_sentences(source):
        sentence = accepted(sentence)
        parts = clauses(sentence)
        if (head := fronted(sentence)) is not None:
            parts.append(head)
        if (home := settled(sentence, who)) is not None and home not in found:
            found.append(home)
        if (pair := couple(sentence, who)) is not None and pair not in found:
            found.append(pair)
        whole = [sentence] if len(sentence.split()) <= SIMILAR_WORDS or not parts else []
        under = [m["c"] if not m["g"] else _GERUNDS[m["g"].lower()] + m["c"][len(m["g"]):]
                 for m in _SUBORDINATE.finditer(sentence)
                 if not m["g"] or m["g"].lower() in _GERUNDS]
        for part in whole + parts + under:
            # "... and bought a Tesla" after "My brother sold his Golf": his, not the speaker's;
            # but after a clause of the speaker's ("The Ka failed its MOT, so we went to the
            # dealer and drove away in a Jazz") the dropped subject is the speaker's.
            told = None if anothers_clause(part, sentence) and not _after_speaker(part, parts) \
                else begun_result(part, who) or arrived_result(part, who)
            if told and told not in found:
                found.append(told)
    return found
