"""Change cues: what a new first-person sentence says of what it holds, without an LLM.

A sentence may say a value changed ("I switched to a Pixel", "we moved to Leeds", "my new
boss is Dana"), name what ended ("I left Google", "Rex passed away", "I let Spotify go",
"I don't eat meat anymore"), add rather than replace ("also", "another"), or not be of
the present at all (a plan, a wish, a past habit). :func:`signals` reads these cues into a
:class:`Signals`; ``updates.py`` uses them to find the stored memory meant. Pure regular
expressions over one sentence; whose sentence it is comes from ``holders.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words adding to what is known rather than replacing it ("also", "too" at a clause's end),
# and not (yet, or any longer) the present (plans, wishes, past habits, a stay): one list
# with recall's (index/told.py). So are the words of the present against what was (_NOWISH:
# "now", "these days", "no longer", "this year"): "right now", "for now", "now and then"
# say no present against before, to either side.
from index import TOLD_ADDITION as ADDITION, TOLD_NOT_NOW as NOT_NOW
from index import TOLD_NOWISH as _NOWISH, TOLD_PRESENT_TIME as _PRESENT_TIME

from .holders import _OPENING_ADVERB, holder_of
from .lasted import unlasted
from .rules import norm, point_key

__all__ = ["NEW_HOME", "ROLE_BEGUN", "MAY_CHANGE", "SINGLE_KEYS", "GENERIC", "Signals",
           "signals", "ranked", "bounded"]

#: The single-valued attributes "a new X" can name ("we got a new boss").
SINGLE_KEYS = frozenset({"fact:manager", "fact:car", "fact:phone", "fact:employer",
                         "fact:occupation", "fact:relationship", "fact:diet", "fact:location"})

# -- cues ---------------------------------------------------------------------------------

#: A home bought or leased: where one lives from then on ("we've bought a three-bed semi
#: in Horsham", "I signed a lease on a studio in Walthamstow"); a holiday home or a
#: buy-to-let is one more (``ADDITION``).
_DWELLING = (r"(?:house|home|flat|apartment|place|condo|studio|cottage|bungalow|semi|"
             r"terrace|maisonette|townhouse|duplex|loft)")
NEW_HOME = (r"(?:bought|purchased|signed\s+(?:a|the)\s+(?:\w+\s+)?(?:lease|tenancy)\s+"
             r"(?:on|for)|(?:got|picked\s+up|collected)\s+the\s+keys\s+(?:to|for))\s+"
             r"(?:a|an|our|my|the)\s+(?:new\s+)?(?:[\w-]+\s+){0,2}" + _DWELLING +
             # Not where one lives: a home bought for another or for another use ("a
             # flat for our daughter", "a cottage for weekends", "a house to do up").
             r"\b(?!(?:\s+[\w'-]+){0,3}?\s+(?:abroad|for\s+(?![£$€\d]|(?:me|us|myself|ourselves)"
             r"\b)|to\s+(?:rent|let|do\s+up|flip|renovate|sell)|as\s+(?:an?\s+)?(?:investment|"
             r"holiday|rental|buy-to-let)))")

#: A role or a job begun, counted: "my first month as a trainee police officer", "first
#: week at the new job at Shopify": the speaker's occupation or workplace from then on.
ROLE_BEGUN = (r"\bfirst\s+(?:day|week|month|shift|fortnight)\s+(?:as\s+(?:a|an|the)\b|at\s+"
              r"(?:the\s+|my\s+)?new\s+(?:job|role|place|firm|company|practice|school)\b)|"
              r"\b(?:my|the)\s+new\s+(?:job|role|position)\s+(?:at|with|as)\b")

#: A change done to the speaker, said in the passive: "I've been moved under Declan", "we
#: got transferred to the Leeds office", "I was put on nights": the speaker is the one
#: changed, whoever did it (the active, "they moved me", is ``change_statements._ACTED_ON``).
_DONE_TO = (r"(?:been|got|gotten|was|were)\s+(?:moved|transferred|switched|reassigned|"
            r"relocated|posted|put|placed|redeployed|seconded)\s+(?:over\s+)?"
            r"(?:to|under|onto|into|on|at|in)\b")
#: A change said as a noun after a light verb ("made the switch to a Pixel", "made the
#: jump to Monzo", "did the move to Leeds"): the same change as the verb it names.
_NOMINAL = (r"(?:made|make|making|done|did)\s+the\s+(?:big\s+|final\s+)?(?:switch|jump|move|"
            r"change|leap|shift|swap|transition)(?:\s+over)?\s+(?:to|from|across)\b")
#: Verbs of change, as the speaker's own act ("I switched", "we moved", "got promoted").
_CHANGE_VERBS = (r"(?:switched|changed|swapped|moved|relocated|emigrated|transferred|became|"
                 r"become|rehomed|(?:am|are)\s+done\s+with|"
                 r"retrained|qualified\s+as|dyed|kicked|separated|"
                 r"(?:gone|went|going)\s+back\s+to|" + NEW_HOME + r"|"
                 # Sides changed: "I've gone over to Bath Rugby" (not a visit: "went over to
                 # see Mum", "gone over to my sister's").
                 r"gone\s+(?:over|across)\s+to(?!\s+(?:see|visit|stay|help)\b|(?:\s+[\w-]+){0,2}?"
                 r"\s+[\w-]+'s?(?:\s|$|[,.;!?]))|"
                 r"(?:got|gotten|been|are|were)\s+(?:married|engaged|divorced)|divorced|"
                 r"(?:got|was|been)\s+promoted|" + _DONE_TO + r"|" + _NOMINAL + r"|"
                 r"(?:got\s+|been\s+)?(?:bumped|moved|stepped)\s+up\s+"
                 r"to|replaced|traded(?:\s+in)?|part[\s-]?exchanged|quit|stopped|"
                 r"gave\s+up|given\s+up|left(?!\s+(?:for|to|on|early|home|the\s+house|work|at|"
                 r"with|after|before)\b)|sold|broke\s+up|broken\s+up|split\s+up|cancell?ed|dropped|"
                 r"ended\s+(?:things|it|everything)\s+with|parted\s+ways|"
                 r"ditched|outgr(?:ew|own)|gone\s+off|went\s+off|got\s+rid\s+of|resigned|retired|"
                 r"handed\s+in|dropped\s+out|cut\s+(?:out|down\s+on|back\s+on)|upgraded|"
                 r"downgraded|(?:went|gone|turned)\s+(?:(?:fully|completely|totally|full)\s+)?"
                 r"(?:freelance|vegan|vegetarian|pescatarian|part-time|full-time|remote))")
_ACTED = re.compile(r"(?:^|\b(?:i|we)(?:\s+(?:have|had|just|finally|recently|also|really|"
                    r"then|already|eventually|officially|actually))*\s+|\band\s+)"
                    + _CHANGE_VERBS + r"\b", re.I)
#: Change said by the shape of the sentence: "instead of", "no longer", "anymore", "my new X",
#: "X passed away".
_SHAPED = re.compile(r"\b(?:instead|no longer|any\s?more|not\b.{1,40}\bafter all|passed away|"
                     r"died)\b|" + ROLE_BEGUN, re.I)
#: A value named after a change ("... to Dr. Kim", "... is 555-0199", "... to Three"): a
#: name, a number, an address.
_VALUE = re.compile(r"(?<!^)\b(?-i:[A-Z])\w|\d|@")
#: Cues too common to carry a change alone ("I started a class", "I'm learning German
#: now"): they count with a key (a single-valued attribute), or a closer memory
#: (``SIMILAR_MIN_WEAK``) for a keyed statement.
_WEAK = re.compile(r"\b(?:started|joined|again|turned|actually|update|back (?:in|at|to)|"
                   r"since\s+(?:the|my|our|i|we)\b|"
                   r"(?:a|my|our) new)\b", re.I)
#: "Switched dentists", "changed my email", "a new boss": the attribute changed, named.
_CHANGED_THING = re.compile(r"\b(?:switched|changed|swapped|switching|changing)\s+(?:my\s+|our\s+)?"
                            r"(?P<x>(?!to\b|from\b|over\b|back\b|it\b|that\b|things\b)"
                            r"[a-z]+(?:\s+(?!to\b|from\b)[a-z]+)?)|"
                            r"\b(?P<a>a|my|our)\s+(?:new|different)\s+(?P<y>[a-z]+(?:\s+(?!(?:is|are|was|were|"
                            r"and|but|for|from|to|in|at|on|with|her|his|i|we|that|which|who|"
                            r"called|named|since|now)\b)[a-z]+)?)|"
                            r"^(?:my|our)\s+(?P<z>[a-z]+(?:\s+[a-z]+)?)\s+(?:has\s+|have\s+|"
                            r"just\s+)*(?:changed|moved)\b", re.I)
#: Any word a cue above starts with: a sentence without one is no change (checked first:
#: most sentences have none, and the cues are many patterns).
MAY_CHANGE = re.compile(
    r"\b(?:switch|chang|swap|mov|relocat|emigrat|qualified as|leaving|transfer|becam|becom|"
    r"retrain|promot|replac|trad|quit|"
    r"stop|gave|given|giving|left|sold|sell|broke|split|cancel|drop|ditch|outgr|gone|went|"
    r"dyed|kicked|last day|married|engaged|divorc|separat|bought|written off|stolen|"
    r"rehomed|done with|since|"
    r"got rid|instead|no longer|any\s?more|after all|passed away|died|new|different|now|"
    r"these days|"
    r"currently|at the moment|this|start|join|again|turn|actually|update|back|finish|cut|"
    r"gone over|gone across|"
    r"no more|resign|retire|handed|upgrad|downgrad|first|up to|ended|parted|"
    # A hire or an appointment by another ("took me on as", ``slots.HIRED``).
    r"(?:took|taken|voted|made)\s+(?:me|us)\b|hired|appoint|employed|recruit|"
    # A change said as a noun after a light verb ("made the jump to", ``_NOMINAL``).
    r"(?:made|make|making|done|did)\s+the\b|"
    # A home bought or leased (``NEW_HOME``).
    r"purchas|lease|tenancy|keys|"
    # Endings with a particle after what ended, stepping down, growing out, "no X for me".
    r"let|knock|packed|jacked|stood down|stepped down|grown out|grew out|^no\b|^not\b)", re.I)
#: Verbs ending something, followed by what ended ("I left Google").
_ENDED_OBJECT = re.compile(
    r"\b(?:(?:left|leaving)(?!\s+(?:for|to|on|early|home|the\s+house|work|at|with|after|"
    r"before)\b)|quit|quitting|sold|selling|stopped|ditched|dropped|cancell?ed|"
    r"finished(?=\s+(?:my|our)\s+(?:studies|degree|master'?s|masters|bachelor'?s|phd|course|"
    r"contract|internship|training|apprenticeship)\b)|"
    r"outgr(?:ew|own)|got rid of|gave up(?: on)?|given up(?: on)?|giving up(?: on)?|traded in|"
    r"replaced|gone off|went off|cut out|moved (?:away )?from|switched (?:away )?from|"
    r"changed from|instead of|broke up with|split up with|broke off|called off|"
    # A relationship ended by the speaker ("I ended things with Tom", "we parted ways
    # with the agency").
    r"ended (?:things|it|everything) with|broke it off with|parted ways with|"
    r"no longer [a-z]+|no more|"
    r"resigned from|handed in (?:my|our|his|her) notice (?:at|to)|dropped out of|"
    r"(?:stood|stepped) down (?:from|as)|gr(?:own|ew) out of|"
    r"cut (?:down|back) on|upgraded from|downgraded from|"
    r"gave away|rehomed|(?:am|are)\s+done\s+with|gave(?=\s+[A-Z])|"
    r"(?:was|is)\s+(?:my|our)\s+last\s+day\s+(?:at|with))\s+(?P<x>[^,;.!?]+)")
#: A phrasal ending with what ended between the verb and its particle: "I let Spotify go",
#: "I've cut Coke out", "knocked the roll-ups on the head", "packed the darts in".
_OBJ = (r"(?P<x>(?!(?:it|that|this|them|me|us|him|her)\b)(?:(?:the|my|our)\s+)?[\w'-]+"
        r"(?:\s+[\w'-]+)?)")
_ENDED_SPLIT = re.compile(
    r"\b(?:let\s+" + _OBJ + r"\s+go|cut\s+" + _OBJ.replace("x>", "x2>") + r"\s+out|"
    r"knocked\s+" + _OBJ.replace("x>", "x3>") + r"\s+on\s+the\s+head|(?:packed|jacked)\s+" +
    _OBJ.replace("x>", "x4>") + r"\s+in|(?:gave|given)\s+" + _OBJ.replace("x>", "x5>") +
    r"\s+up)\b(?!\s+(?:to|with|for)\b)", re.I)
#: The speaker acting, right before a verb: "I", "we", "I have just", or nothing.
_BY_SPEAKER = re.compile(r"(?:^|\b(?:i|we)(?:\s+(?:have|had|just|finally|recently|also|really|"
                         r"then|already|sadly|never|actually|totally|completely|eventually|"
                         r"officially))*)\s*$", re.I)
#: What ended, as the subject ("Rex passed away", "Jake and I broke up", "Sarah left the
#: firm"); not the agent of a closing done to an object after it ("Barclays closed our
#: local branch": the branch closed, not the bank).
_ENDED_SUBJECT = re.compile(
    r"^(?P<x>(?:(?:my|our|the)\s+)?[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+(?:and I\s+)?"
    r"(?:has\s+|have\s+|had\s+)?(?:just\s+|sadly\s+|finally\s+|recently\s+)?(?:passed away|"
    r"died|left|moved (?:to another|away|out|on)|broke up|split up|"
    r"(?:closed(?: down)?|shut down)(?!\s+(?:the|a|an|my|our|his|her|their|its|all|this|that|"
    r"these|those|every)\b|\s+(?-i:[A-Z]))|"
    r"retired|went out of business|(?:got|was|has been) (?:written off|stolen|"
    r"totall?ed|scrapped|sold))\b")
#: A pet or a person named by kind and name who died: "Our cat Tigger passed away", "my
#: old dog Rolo died" (only a death: "my best friend Priya moved away" is still a friend).
_DIED_NAMED = re.compile(
    r"^(?P<x>(?i:my|our|the)\s+(?:[a-z][\w'-]*\s+){1,2}(?-i:[A-Z])[\w'-]*)\s+"
    r"(?:has\s+|had\s+)?(?:just\s+|sadly\s+|finally\s+|recently\s+)?(?:passed\s+away|died|"
    r"was\s+put\s+(?:down|to\s+sleep))\b")
#: The one the speaker ended a relationship with, named after the clause as its subject
#: ("We've broken up, me and Marcus", "we split up last month, Jo and I").
_ENDED_PAIR = re.compile(
    r"^we\b[^,;.!?]*?\b(?:broke|broken|split|separated|divorced|called\s+it\s+(?:off|quits)|"
    r"parted|ended\s+(?:it|things))\b[^,;.!?]*,\s*(?:me\s+and\s+(?P<x>(?-i:[A-Z])[\w'-]+)|"
    r"(?P<y>(?-i:[A-Z])[\w'-]+)\s+and\s+(?:me|i|myself))\s*$", re.I)
#: "I do not run anymore", "I am not a nurse anymore", "I no longer smoke", "I am not
#: actually allergic to nuts".
_NEGATED = re.compile(r"\b(?:(?:do|does|am|is|are|can)\s*not\s+(?P<x>[^,;.!?]+?)\s+(?:any\s?more|"
                      r"after all)|no longer\s+(?P<y>[^,;.!?]+?)|"
                      # "No statins for me now", "no more Scouts for me".
                      r"^no\s+(?:more\s+)?(?P<w>[^,;.!?]+?)\s+for\s+(?:me|us)\b(?:\s+(?:now|"
                      r"these\s+days|any\s?more|from\s+now\s+on))?|"
                      # The subject dropped: "Not doing pottery these days".
                      r"^not\s+(?P<v>[^,;.!?]+?)\s+(?:any\s?more|these\s+days|nowadays)|"
                      # "I'm not actually lactose intolerant": what was said is corrected.
                      r"(?:am|is|are)\s+not\s+actually\s+(?P<z>[^,;.!?]+?))(?=[,;.!?]|$)", re.I)
#: Where a named value ends: before a clause, a reason, a time.
_VALUE_END = re.compile(r"\s*[\"()]|\s+(?:and|but|so|because|for|to|with|after|since|last|"
                        r"this|in|when|as|at|on|from|now|then|three|two|a few|\d+)\b.*$",
                        re.I)
GENERIC = frozenset("my our the a an old new whole".split())
_SELF = frozenset("i we me".split())
_SPEAKER_FIRST = re.compile(r"^(?:i|we)\b", re.I)
_AFTER = re.compile(r"\b(?:after|since)\s*$", re.I)


@dataclass(frozen=True)
class Signals:
    """What a cleaned first-person sentence says about changing what is known."""

    #: A change cue: ``strong`` when the speaker changed something ("I switched", "I've
    #: gone vegetarian") or the sentence says so ("instead", "anymore", "my new X"); else
    #: weak ("now", "these days", "started", "a new X").
    change: bool
    strong: bool
    #: "also", "too", "another", "second"...: adds, never replaces.
    addition: bool
    #: Not about the present: a plan, a wish, a past habit.
    not_now: bool
    #: Old values it names as ended ("Google" of "I left Google").
    ended: tuple[str, ...]
    #: Whose statement: "" for the speaker (I, we, my X and I), else the holder's words
    #: ("sister", "son leo", "rex"), or ``UNKNOWN`` ("It became real").
    holder: str
    #: The attribute it says changed ("dentist" of "I switched dentists").
    things: tuple[str, ...] = ()
    #: It says what holds now ("now", "these days", "anymore", "this year").
    now: bool = False

    @property
    def replaces(self) -> bool:
        """Whether the sentence may replace a stored value at all."""
        return not self.addition and not self.not_now


def _cut(value: str) -> str:
    value = _VALUE_END.sub("", value.strip())
    words = value.split()
    return " ".join(words[:6])


#: A span with an end, not a value held from then on: a stay counted out ("I'm staying at
#: my mum's for a fortnight", "we're living out of a van for three months"), or what was
#: told in the simple past with its length ("I lived in Bristol for a few years", "tried
#: keto for a month"): over, or to be over (a change of the speaker's, "I switched to ...",
#: is read as one however long ago: :func:`bounded`). A span up to now holds ("for a few weeks
#: now"), as does the present perfect ("I've lived here for years").
_SPAN = (r"for\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+"
         r"of|several|some|many|\d+)\s+(?:\w+\s+)?(?:days?|nights?|weeks?|weekends?|fortnights?|"
         r"months?|years?|summers?|winters?|terms?|semesters?|seasons?|decades?)\b"
         r"(?!\s+(?:now|already|so\s+far)\b)")
_STAY = re.compile(r"\b(?:am|are|is|'m|'re|'s|be|been)\s+(?:\w+\s+)?(?:staying|stopping|lodging|"
                   r"crashing|house-sitting|living)\b[^;.!?]*?\b" + _SPAN + "|"
                   # a holiday spent somewhere: "I'm spending Christmas at my mum's in
                   # Wakefield", "we're spending the summer in Crete"
                   r"\b(?:am|are|'m|'re|be|been|will\s+be)\s+spending\s+(?:christmas|easter|"
                   r"new\s+year|half\s+term|the\s+(?:weekend|holidays?|summer|week|night|"
                   r"festive\s+season)|a\s+(?:few\s+|couple\s+of\s+)?(?:days?|nights?|weeks?))\b",
                   re.I)
_PAST_SPAN = re.compile(r"(?<!have\s)(?<!has\s)(?<!'ve\s)(?<!'s\s)(?<!had\s)(?<!been\s)"
                        r"\b(?:[a-z]{3,}ed|was|were|went|did|had|took|spent|kept|ran|ate|drove|"
                        r"rode|taught)\b[^;.!?]*?\b" + _SPAN, re.I)
#: What came after a past span, told after it: "I worked in retail for years before
#: retraining as a nurse", "... for ten years, but I'm at Monzo now": the sentence tells
#: a change, the span only what it ended.
_AFTERWARDS = re.compile(r"\b(?:before|until|till|then|after\s+that|since\s+then|but|now)\b|"
                         r"\b(?:i|we)(?:'m|'re|'ve|\s+am|\s+are|\s+have)\b", re.I)


#: A start or move to come, told in the present with its time ("My new job at Nationwide
#: starts on Monday", "I start there in a fortnight", "we're moving in two weeks"): a
#: plan, not what holds now. "started on Monday" and "moved in two weeks" are no match.
_SCHEDULED = re.compile(
    r"\b(?:starts?|begins?|starting|beginning|moves?|moving)\b[^.,;!?]{0,40}?\b(?:on\s+(?:"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in\s+(?:a|one|two|three|"
    r"four|five|six|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|fortnights?|months?))\b",
    re.I)


def scheduled(sentence: str) -> bool:
    """Whether ``sentence`` tells a start or move to come (:data:`_SCHEDULED`)."""
    return _SCHEDULED.search(sentence) is not None


def bounded(sentence: str) -> bool:
    """Whether ``sentence`` tells a span with an end (a stay: :data:`_STAY`; a past span
    with nothing after it: :data:`_PAST_SPAN`) and nothing of what holds now: a stay or a
    past period is no new value."""
    if _NOWISH.search(sentence) or _ACTED.search(sentence):
        return False
    if _STAY.search(sentence):
        return True
    past = _PAST_SPAN.search(sentence)
    return past is not None and not _AFTERWARDS.search(sentence[past.end():])


#: "I used to work at Amazon but now I'm at Microsoft": what was, against what is now.
_USED_TO_NOW = re.compile(rf"\bused to (?P<x>[^,;.!?]+?),?\s+but\s+(?:now|{_PRESENT_TIME}|"
                          r"today)\b", re.I)


def signals(sentence: str) -> Signals:
    """The cues of a cleaned first-person sentence (``rules.clean``)."""
    if was := _USED_TO_NOW.search(sentence):
        found = signals(sentence[was.end("x"):])
        return Signals(change=True, strong=True, addition=found.addition,
                       not_now=found.not_now,
                       ended=(" ".join(was["x"].split()[:6]), *found.ended),
                       holder=holder_of(sentence), things=found.things, now=True)
    strong = bool(_ACTED.search(sentence) or _SHAPED.search(sentence))
    # "for forty years now" counts a span up to now: no present against what was.
    nowish = bool(_NOWISH.search(unlasted(sentence)))
    weak = bool(_WEAK.search(sentence)) or nowish
    things = []
    for m in _CHANGED_THING.finditer(sentence):
        # "I'm enjoying my new job" names no new value: nothing to replace the old with.
        if not _VALUE.search(sentence[m.end():]):
            continue
        thing = (m["x"] or m["y"] or m["z"]).lower()
        words = thing.split()
        if words[-1].endswith("s") and not words[-1].endswith("ss"):
            words[-1] = words[-1][:-1]
        things.append(" ".join(words))
        # "My new car is a Mazda" replaces the car; "a new project" is one more, but "a
        # new boss" replaces the one a person has.
        if m["y"] and (m["a"].lower() != "a" or point_key(things[-1]) in SINGLE_KEYS) or \
                m["z"]:
            strong = True
    ended: list[str] = []
    for m in _ENDED_OBJECT.finditer(sentence):
        # What the speaker ended ("I left Google"), not another's ("Sarah left the firm").
        # The speaker's too after "after" or "since" in their own sentence ("I start next
        # week after leaving Channel 4").
        if not _BY_SPEAKER.search(sentence[:m.start()]) and \
                not re.match(r"(?:instead|no|was|is)\b", m.group(0), re.I) and \
                not (_SPEAKER_FIRST.match(sentence) and
                     _AFTER.search(sentence[:m.start()])):
            continue
        if value := _cut(m["x"]):
            ended.append(value)
    opened = _OPENING_ADVERB.sub("", sentence, count=1)
    subject = _ENDED_SUBJECT.match(opened) or _DIED_NAMED.match(opened)
    if subject and norm(subject["x"]) not in _SELF:
        ended.append(subject["x"])
    for m in _ENDED_SPLIT.finditer(sentence):
        # "I let Spotify go", "I've cut Coke out": the particle after what ended.
        said = next(v for v in (m["x"], m["x2"], m["x3"], m["x4"], m["x5"]) if v)
        if _BY_SPEAKER.search(sentence[:m.start()]) and (value := _cut(said)):
            ended.append(value)
    if pair := _ENDED_PAIR.match(sentence):
        ended.append(pair["x"] or pair["y"])
    for m in _NEGATED.finditer(sentence):
        if value := _cut(m["x"] or m["y"] or m["z"] or m["w"] or m["v"]):
            ended.append(value)
    return Signals(change=strong or weak, strong=strong,
                   addition=bool(ADDITION.search(sentence)),
                   not_now=bool(NOT_NOW.search(sentence)) or bounded(sentence) or
                   scheduled(sentence),
                   ended=tuple(ended),
                   holder=holder_of(sentence), things=tuple(things),
                   now=nowish)


#: A rank among others as what is said of the subject: "Mia is one of the tallest in her
#: class", "he's now the oldest in his year", "I'm the slowest of the group". A comparison
#: with a group gives no attribute a value (not an age, not a height): it replaces nothing.
_RANKED = re.compile(r"\b(?:is|are|am|was|were|'s|'m|'re)\s+(?:now\s+|still\s+|currently\s+|"
                     r"easily\s+|officially\s+)?(?:one\s+of\s+)?the\s+(?:\w+est|most\s+\w+|"
                     r"least\s+\w+|best|worst)\s+(?:in|of|among|on|at)\b", re.I)


def ranked(sentence: str) -> bool:
    """Whether ``sentence`` says only where its subject ranks among others."""
    return bool(_RANKED.search(sentence))
