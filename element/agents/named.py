"""The old value named as ended: a newer statement that names a stored fact's value and
says, in the same breath, that it ended or was replaced.

People rarely say "I switched banks"; they say what happened to the old one: "Closed out
my Wells Fargo account, my paycheck goes to a credit union now", "Kerry's retired, so I've
started going to Zoe", "Planet Fitness feels like a lifetime ago", "the Paris posting
fell through". The cue lists of ``updates.py`` name the speaker's own acts of change in
the shapes they know (subject "I", object after the verb); here any verb of ending stands
next to the old value, whoever its grammatical subject ("it's replaced the Ventolin").

The method (:func:`ended_target`): a clause of the statement holds a marker of ending
(:data:`ENDING`) within a couple of words of the distinctive value of one stored one-fact
memory of the same holder: its proper names (half of them at least), or, when it has
none, one of its rare content words ("crutches are finally gone" after "I'm on crutches").
That memory is superseded by the statement (which says what ended, and what holds now
when it names it).

Why it is general: :data:`ENDING` is written from general English, not from any case: the
verbs of ending a thing (end, finish, close, shut down, cancel, pause, expire, let lapse),
of leaving or losing it (leave, quit, give up, sell, lose, escape, die, step down, hand in
one's notice, get out of, take retirement, pack away, give or send back, though not "a
while back", a time; "had to rehome", "decided to sell"), of its failing (fall
through, fall apart, go bust, be made redundant), of replacing it (replace, swap, trade
in, move/switch from, overtake), the farewells (goodbye, RIP), and negation of the present
("not ... anymore", "haven't ... in months", "a lifetime ago"). Guards as the other
finders: a clause with an addition ("also", "another") or of a plan or wish ("going to",
"might") says nothing ended; a clause of another person's ("my sister's Toyota died") is
not the speaker's; a value right after "to"/"into" ("switched to Google") is the new one,
not the old. Pure functions over texts; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from index import terms

from .acted import acts_on, left_by_another, remaining
from .decisions import Pool
from .episodes import tell
from .observation import Observation
from .profile import whose
from .restated import introduced
from .rules import Candidate
from .slots import PEOPLE, names_of
from .paused import paused
from .one_of_several import one_of_several
from .person_subject import theirs_alone
from .listed import others_listed
from .holders import kin_word, same_holder
from .updates import ADDITION, NOT_NOW, FACT_WORDS, Memory, first_person, is_event

__all__ = ["ENDING", "ended_target", "may_end", "named_change", "predates", "NEAR_WORDS",
           "RARE_WORDS"]

#: Markers of an ending, from general English (see the module's note).
ENDING = re.compile(r"""\b(?:
    end(?:ed|s)(?!\s+up)|c(?:a|o)me\s+to\s+an\s+end|finish(?:ed|es)(?:\s+up)?|complet(?:ed|es)|wrapped\s+up|(?:am|are|is|'m|'re)\s+done\s+with|
    clos(?:ed|ing)(?:\s+(?:out|down))?|shut(?:\s+down)?|folded|went\s+(?:bust|under)|
    (?:went|gone)\s+out\s+of\s+business|
    (?:is|are|was|were|'s|'re)\s+(?:\w+\s+)?gone(?!\s+(?:to|for|on|out|up|into|through|back|over)\b)|
    left(?!\s+(?:for|to|on|early|home|the\s+house|work|at|with|after|before|over)\b)|
    leaving(?!\s+(?:for|to|on|early|home|work|at|with)\b)|
    (?:stopped|quit|quitting|gave\s+up|given\s+up)\s+\w+ing(?:\s+(?:to|at|with|on|in))?|
    quit|quitting|stopped(?!\s+(?:by|in|off|over)\b)|ceased|
    # a thing let fall ("dropped my phone in the bath", "dropped the kids off") or a call
    # paid ("dropped in") is held still; not "dropped out of"
    dropped(?!\s+(?:by|in|round|over)\b|\s+(?:[\w'-]+\s+){1,3}?(?:off\b|(?:down|in|into|on|onto|
        behind|under)\s+(?:the|a|an|my|our|his|her|their|some)\b))|ditched|dumped|scrapped|binned|
    ex-\w+|(?:my|our)\s+ex\b|former(?:ly)?|graduated|called\s+it\s+quits|
    (?:packed|jacked|chucked)\s+in|hung\s+up\s+(?:my|our|the)|
    (?:is|are|was|were|'s|'re)\s+(?:now\s+|well\s+)?(?:history|a\s+thing\s+of\s+the\s+past|
        behind\s+(?:me|us))|
    (?:'m|am|are|'re)\s+off(?!\s+(?:to|for|work|sick|today|tomorrow|tonight|now|home|on|out|duty|
        the\s+hook|again)\b)|
    and\s+(?:i|we)\s+(?:are\s+|have\s+|'ve\s+|'re\s+|got\s+|finally\s+|just\s+|officially\s+)*
        (?:divorced|separated|split\s+up|broke\s+up|broken\s+up|parted(?:\s+(?:ways|company))?|
        called\s+it\s+(?:a\s+day|quits)|(?:went|gone)\s+(?:our|their)\s+separate\s+ways)|
    (?:went|gone|going|go)\s+(?:our|their)\s+separate\s+ways|parted\s+company|
    deleted|unsubscribed|uninstalled|returned(?!\s+(?:from|home|to)\b)|
    (?:came|come|coming|got|get|getting|weaned(?:\s+myself)?)\s+off(?!\s+(?:work|(?:the|my|a|his|her)\s+(?:phone|bus|train|plane|bike|horse|motorbike|
        board|stage|ladder))\b)|
    kicked|divorced|separated|split\s+up|moved\s+out|used\s+to|
    (?:gave|given|giving|sent|took|handed|brought)(?=\s+(?:[\w'-]+\s+){1,4}?(?:away|back)\b
        (?<!while\sback)(?<!time\sback)(?<!way\sback)(?<!bit\sback)(?<!years\sback)
        (?<!months\sback)(?<!weeks\sback)(?<!days\sback))|
    without(?=\s+(?:[\w'-]+\s+){1,4}?(?:for|since)\b)|
    (?:is|are|was|were|'s|'re)\s+(?:\w+\s+)?over(?=\s*(?:[,;.!?]|$|(?:now|for|since|and|but|so)\b))|
    cancell?ed|cancell?ing|paused|suspended|frozen|terminated|expired|lapsed|
    # a lease or a plan runs out; one who "ran out of" milk is short of it for now
    ran\s+out(?!\s+of\b)|
    retired|resigned|redundant|laid\s+off|fired|sacked|let\s+go|
    (?:took|taken|taking|went\s+into|gone\s+into)\s+(?:early\s+)?retirement|
    overt(?:ook|aken)|dethroned|(?:packed|put|boxed|stored)\s+away|
    fell\s+(?:through|apart)|falling\s+apart|collapsed|broke\s+(?:down|up)|broken\s+(?:down|up)|
    died|passed\s+away|put\s+to\s+sleep|(?:was|were|be|been|got)\s+put\s+down\b|lost(?!\s+(?:in|track|count|for\s+words|to|on\s+penalties|\d+|at\s+home|away)\b)|escaped|ran\s+away|went\s+missing|(?:got|was|been)\s+stolen|
    written\s+off|sold|gave\s+(?:up|away)|given\s+(?:up|away)|giving\s+up|got\s+rid|rehomed|
    replaced|swapped|traded\s+in|part[\s-]?exchanged|outgr(?:ew|own)|moved\s+(?:away|on|out)|got\s+out\s+of|
    (?:handed|handing)\s+(?:in\s+)?(?:my|our|his|her|their)\s+notice|
    (?:stepped|stepping|stood|standing)\s+down|walked\s+away\s+from|parted\s+ways|
    (?:had|decided|chose)\s+to\s+(?:rehome|sell|give\s+up|quit|cancel|close|leave|scrap)|
    let\s+(?:[\w']+\s+){0,4}?(?:lapse|expire|run\s+out)|
    (?:moved|switched|transferred|came|went|changed|upgraded)\s+(?:\w+\s+)?from|
    said\s+goodbye|goodbye|farewell|rip|
    no\s+longer|no\s+more|
    (?:feels?|felt|seems?|seemed)\s+like\s+(?:a\s+lifetime|forever|ages|years|a\s+world)\s+ago
)\b|(?:n't|\bnot|\bnever)\s+(?:[\w']+\s+){0,5}?(?:any\s?more|in\s+(?:months|years|ages|weeks|
    a\s+while)|any\s+longer|since\s+\w+|for\s+(?:a|an|\d+|two|three|four|five|six|several|a\s+few)
    \s+(?:days?|weeks?|months?|years?))\b|
    (?:don't|doesn't|do\s+not|does\s+not|'m\s+not|am\s+not|isn't|aren't)\s+(?:[\w']+\s+){0,4}?
    (?:now|these\s+days|nowadays)\b""", re.I | re.X)
#: The most words between the marker and the value's name: the marker is said of it.
NEAR_WORDS = 2
#: The most words (first person) of a memory without a proper name whose common words
#: may be named as its value.
RARE_WORDS = 8
#: What holds on beside a past habit ("I used to swim, and still do now and then").
_STILL = re.compile(r"\b(?:still|again|back\s+(?:to|on|at|in))\b", re.I)
_USED_TO = re.compile(r"\bused\s+to\b", re.I)
#: Where a fact's value ends: its object before a place, a time or another clause ("an
#: upright piano | in the living room", "four coffees | a day").
_OBJECT_END = re.compile(r"\s*,.*$|\s+(?:in|at|on|for|with|from|after|before|every|each|"
                         r"most|a\s+day|a\s+week|since|because|so|and|but|when|which|that|"
                         r"who)\b.*$", re.I)
#: A year a statement dates its story by ("back in 2015", "in 2019").
_YEAR = re.compile(r"\b(?:in|of|back\s+in|around|circa|until|till)\s+((?:19|20)\d\d)\b", re.I)
#: Days and months: capitalised, yet when a fact holds, not its value ("on Mondays").
_CALENDAR = frozenset(
    f"{d}{s}" for d in ("monday tuesday wednesday thursday friday saturday sunday january "
                        "february march april may june july august september october "
                        "november december").split() for s in ("", "s"))
_CALENDAR_TERMS = frozenset(terms(" ".join(_CALENDAR)))
#: A holiday's name is a date, not a value: "on Boxing Day" is no value an ending "since
#: New Year's Day" names.
_HOLIDAY = re.compile(r"\b(?:day|eve|christmas|xmas|easter|new\s+year|halloween|thanksgiving|"
                      r"hanukkah|diwali|eid|ramadan|passover|whitsun|bank\s+holiday)\b", re.I)
#: Where a statement's clauses meet.
_CLAUSE = re.compile(r"\s*(?:[,;:!?()]|\s-\s|\b(?:so|but|and\s+(?=i\b|we\b)|because)\b)\s*",
                     re.I)
#: A value right after these is where something went, the new value ("switched to X").
_TOWARD = re.compile(r"\b(?:to|into|onto|with|for)\b", re.I)
#: Words too common to be a memory's distinctive value when it names no proper name.
_LIGHT = frozenset(terms(
    "am is are was were be been have has had get got do does did make made go goes went "
    "take took use used work works live lives like likes love loves want need thing stuff "
    "lot time day week month year really just also now still every always usually never "
    "good great nice new old big small little much many some very through about over away "
    "back down into onto from with after before again around off out upon last first next "
    "here there what which quite especially often sometimes regularly occasionally daily "
    "nightly weekly most mostly three four five seven eight nine twelve twenty"))


def predates(sentence: str, memory: Memory) -> bool:
    """Whether ``sentence`` dates what it tells by a year before ``memory`` was told ("I quit
    coffee back in 2015" beside "I drink coffee" told in 2024): a past episode, over
    before the memory held, ends nothing current."""
    told = str(memory.get("occurred_at") or memory.get("created_at") or "")[:4]
    years = [int(y) for y in _YEAR.findall(sentence)]
    return told.isdigit() and bool(years) and max(years) < int(told)


def may_end(sentence: str) -> bool:
    """Whether a sentence holds a marker of ending at all (checked first: most have none)."""
    return bool(ENDING.search(sentence))


@lru_cache(maxsize=50_000)
def _value_of(content: str, who: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """A one-fact memory's holder (``profile.whose``), its proper names, and, when it has
    none, its rare content words (stemmed); None for a story, a past event, several
    sentences, or a memory that itself tells an ending."""
    said = first_person(content, who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
            ENDING.search(said[0]) or NOT_NOW.search(said[0]):
        return None
    own = {w.lower() for w in who.split()}
    names = frozenset(re.sub(r"'s?$", "", n) for n in names_of(content)
                      if not _HOLIDAY.search(n)) - own - _CALENDAR
    # "Kerry at Cutting Edge": two names, Kerry and Cutting Edge; one named is half.
    names = frozenset(_runs(content, names))
    # "I play the flute": the words after the speaker's verb.
    rest = re.sub(r"^(?:i|we)\s+(?:\w+\s+)?", "", said[0], flags=re.I) if not names else ""
    rest = _HOLIDAY.sub(" ", rest)      # "on Christmas Eve": when, not what
    rare = _rare(rest, who)
    # Without a name, only a short plain fact ("I play the flute", "I'm on crutches after
    # a fall") has a word distinctive enough: a longer one's words are the chat's own, but
    # for its object before a place or a time ("an upright piano | in the living room").
    if not names and (len(said[0].split()) > RARE_WORDS or len(rare) > 3):
        head = _OBJECT_END.sub("", rest)
        rare = _rare(head, who) if head != rest and len(head.split()) <= 5 else frozenset()
        if len(rare) > 3:
            rare = frozenset()
    # "I smoke about ten a day", "I vape quite a lot": no object says the value, the verb
    # does (a habit's own verb, not a light one: "I have ...", "I go ...").
    verb = re.match(r"^(?:i|we)\s+(\w+)\b", said[0], re.I)
    if not names and not rare and verb and len(said[0].split()) <= RARE_WORDS:
        rare = _rare(verb.group(1), who)
    return whose(said[0]), names, rare


def _rare(text: str, who: str) -> frozenset[str]:
    """The content words (stemmed) of ``text`` rare enough to name a value."""
    text = " ".join(kin_word(w) for w in text.split())    # "nan" names "grandmother"
    return frozenset(t for t in terms(text) if len(t) >= 4 and t not in _LIGHT) - \
        set(terms(who)) - _CALENDAR_TERMS


def _runs(content: str, names: frozenset[str]) -> list[str]:
    """Each run of adjacent proper names of ``content`` as one name ("cutting edge")."""
    runs: list[list[str]] = []
    previous = False
    for word in _words(content):
        low = re.sub(r"'s?$", "", word.lower())
        if low in names:
            if previous:
                runs[-1].append(low)
            else:
                runs.append([low])
        previous = low in names
    return [" ".join(r) for r in runs]


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'-]+", text)


@dataclass(frozen=True)
class _Clause:
    """A clause with an ending marker, read once for all the memories compared with it."""

    text: str
    said_by: str
    words: list[str]
    low: list[str]
    stems: list[str]
    #: Each marker's word span (start, end) and text.
    spans: list[tuple[int, int, str]]
    #: Its words, lower-cased and stemmed, but a marker's own ("fell *through*").
    named: frozenset[str]


def _clause(text: str) -> _Clause:
    words = _words(text)
    low = [re.sub(r"'s?$", "", w.lower()) for w in words]
    # A compound's longest part ("e-*bike*", "smoke-free"), as a memory's value names it.
    stems = [max(terms(kin_word(w)) or [""], key=len) for w in words]
    spans = []
    for m in ENDING.finditer(text):
        start = len(_words(text[:m.start()]))
        spans.append((start, start + max(1, len(_words(m.group(0)))), m.group(0)))
    # A marker's own words ("fell *through*", "gave *up*") name no value.
    own = {w.lower() for _, _, marker in spans for w in _words(marker)
           if not re.match(r"\w*n't|not|never|do\b|does\b|am\b|'m\b", marker, re.I)}
    named = frozenset(w for w in low + stems if w not in own)
    return _Clause(text, whose(text), words, low, stems, spans, named)


def _named_near(clause: _Clause, names: frozenset[str], rare: frozenset[str]) -> float:
    """The share of the memory's value a clause names within ``NEAR_WORDS`` of an ending
    marker (0 when none or when the value follows "to"/"into" after the marker)."""
    name_words = {w for n in names for w in n.split()}
    if not (name_words or rare) & clause.named:
        return 0.0
    hits = [i for i, w in enumerate(clause.low) if w in name_words and w in clause.named] \
        if names else [i for i, s in enumerate(clause.stems) if s in rare and s in clause.named]
    for i in hits:
        for start, end, marker in clause.spans:
            if start <= i < end:
                break
            if i >= end and i - end <= NEAR_WORDS:
                between = " ".join(clause.words[end:i])
                if _TOWARD.search(between) and not re.search(r"goodbye|farewell", marker, re.I):
                    continue
                break
            if i < start and start - i - 1 <= NEAR_WORDS:
                if acts_on(clause.words, start, end):
                    continue    # "Barclays closed our branch": its agent (``acted.py``)
                break
        else:
            continue
        if not names:
            return 1.0
        said = {clause.low[j] for j in hits}
        return sum(1 for n in names if said & set(n.split())) / len(names)
    return 0.0


#: A subject of two, the speaker one of them ("Theo and I", "my ex and I", "the food bank and
#: I"): one subject, not two clauses ("Theo and I went our separate ways" names Theo as
#: parted from).
_BOTH = re.compile(r"^(?:(?:my|our|the)\s+(?:(?![\w'-]+ed\b)[\w'-]+\s+){0,2}(?![\w'-]+ed\b)[\w'-]+|"
                   r"(?!(?:i|we|you|he|she|they|it|this|that|there)\b)[\w'-]+)\s+and\s+(?:i|we)\b",
                   re.I)


def _clauses(sentence: str) -> list[str]:
    """``sentence``'s clauses (:data:`_CLAUSE`), a subject of two kept with its verb,
    whichever clause it opens ("The wedding's off, Marcus and I have called it a day")."""
    parts = []
    for piece in re.split(r"\s*[,;:!?()]\s*|\s-\s", sentence):
        both = _BOTH.match(piece)
        split = _CLAUSE.split(piece[both.end():] if both else piece)
        if both:
            split[0] = both.group(0) + split[0]
        parts.extend(split)
    return parts


#: A person or an animal of the speaker's who died ("Gran passed away in March", "my dad
#: died last year", "we lost our dog in May"): what they held is over, whatever it named,
#: and so is the speaker's having them ("I have a dog named Rex").
_DIED = re.compile(r"^(?:sadly\s+|(?:my|our)\s+)*(?P<kin>[\w-]+)\s+(?:has\s+|had\s+|just\s+|"
                   r"sadly\s+|finally\s+|recently\s+)*(?:died|passed\s+away|passed\s+on|"
                   r"passed(?=\s*$|\s+(?:in|last|this|on|at|over|a|two|three|few|recently)\b))|"
                   r"^(?:i|we)\s+(?:have\s+|had\s+|just\s+|sadly\s+|recently\s+)*lost\s+"
                   r"(?:my|our)\s+(?:beloved\s+|dear\s+|old\s+|lovely\s+)?(?P<lost>[\w-]+)"
                   r"(?=\s*$|\s+(?:in|last|this|on|at|over|to|a|two|three|few|recently|suddenly)\b)",
                   re.I)


def _died(clause: str) -> str:
    """The person or animal of the speaker's whose death ``clause`` tells, else "" (a name
    or another person's relative: "my husband's gran" is not the speaker's; "lost my
    temper" no one)."""
    m = _DIED.match(clause.strip())
    kin = kin_word((m["kin"] or m["lost"]).lower()) if m else ""
    return kin if kin in PEOPLE else ""


def _has(said: str, kin: str) -> bool:
    """Whether a first-person fact is the speaker's having ``kin`` ("I have a dog named
    Rex", "we've got an old cat"), one of them."""
    m = re.match(r"^(?:i|we)\s+(?:have\s+got|'ve\s+got|have|own|got)\s+(?:a|an|one)\s+"
                 r"(?:[\w-]+\s+){0,2}?(?P<k>[\w-]+)\b", said, re.I)
    return m is not None and kin_word(m["k"].lower()) == kin


def _proper_names(text: str) -> frozenset[str]:
    """The proper names of ``text``, lower-cased (a capitalised word but the first)."""
    return frozenset(w.lower() for w in _words(text)[1:] if w[:1].isupper() and
                     w.lower() not in _CALENDAR)


def _parting(sentence: str) -> bool:
    """Whether a clause of ``sentence`` opens on a subject of two, the speaker one."""
    return any(_BOTH.match(p) for p in re.split(r"\s*[,;:!?()]\s*|\s-\s", sentence))


def ended_target(sentence: str, memories: Iterable[Memory], who: str,
                 skip: Iterable[str] = ()) -> Memory | None:
    """The one-fact memory whose value ``sentence`` (first person, cleaned) names as ended
    or replaced (see the module's note), the newest of those naming most of their value;
    None when no clause says so."""
    # A plan's words inside a marker are the ending's own ("stopped going to", "used to"):
    # the clause is read for a plan without them.
    # "The only tenor left": "left" of what remains, no leaving (``acted.remaining``).
    clauses = [_clause(c) for c in map(remaining, _clauses(sentence)) if c and ENDING.search(c) and
               not ADDITION.search(c) and not NOT_NOW.search(ENDING.sub(" ", c)) and
               not (_USED_TO.search(c) and _STILL.search(c)) and
               not paused(c) and not c.rstrip().endswith("?")]
    if not clauses:
        return None
    avoid = set(skip)
    # A person or animal of the speaker's who died: their newest fact (by any words), or
    # the speaker's having them, is over; not one of another name ("we lost our dog
    # Bramble" and "a dog named Rex": a second of a kind).
    dead = {(k, frozenset(c.low) & _proper_names(c.text)) for c in clauses if (k := _died(c.text))}
    for kin, named in dead:
        for memory in memories:
            value = _value_of(memory["content"], who) \
                if memory["id"] not in avoid and not predates(sentence, memory) else None
            if value is None or named - value[1]:
                continue
            said = first_person(memory["content"], who)[0]
            if same_holder(kin, value[0]) or value[0] == "" and _has(said, kin):
                return memory
    # Two who part ("Tom and I are divorced now") end what the speaker holds of that
    # person alone, not a memory naming them beside its own value ("lives in Bath with
    # Tom"): more than half the value's names must be named.
    least = 0.51 if _parting(sentence) else 0.5
    best: tuple[tuple[bool, float], Memory] | None = None
    for memory in memories:
        if memory["id"] in avoid or predates(sentence, memory):
            continue
        value = _value_of(memory["content"], who)
        if value is None or not (value[1] or value[2]):
            continue
        holder, names, rare = value
        if len(names) > 1 and one_of_several(sentence, others_listed(memory["content"], who)):
            continue    # "Flopsy died" of "two rabbits, Flopsy and Mopsy": Mopsy's still
        for clause in clauses:
            # Another person's clause ("my sister's Toyota died", "Lena's manager quit":
            # ``holders.possessed``'s "manager-of-lena") is not the speaker's.
            if set(clause.said_by.replace("-of-", " ").split()) & PEOPLE and \
                    not same_holder(clause.said_by, holder) or \
                    holder and not (same_holder(clause.said_by, holder) or
                                    holder in clause.text.lower() or
                                    kin_word(holder) in map(kin_word, clause.low)):
                continue
            # "The PE teacher at Ashfield has just quit": a person named by what they are,
            # the memory's value only where they are (``person_subject.py``).
            if theirs_alone(clause.text, memory["content"], who):
                continue
            # "Tom quit the choir": another's own leaving of the thing (``acted.py``).
            if left_by_another(clause.text, {w for n in names for w in n.split()} | rare):
                continue
            share = _named_near(clause, names, rare)
            # A proper name says which memory more surely than a common word.
            rank = (bool(names), share)
            if share >= least and (best is None or rank > best[0]):
                best = (rank, memory)
    return best[1] if best else None


def named_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                 taken: list[str]) -> Candidate | None:
    """``sentence`` (of ``observation``'s turn ``turn``) as a change superseding the
    one-fact memory whose value it names as ended or replaced, whoever its grammatical
    subject ("Kerry's retired, so I've started going to Zoe", "it's replaced the
    Ventolin"), else None. Tried after the cue lists (``rule_evaluator``), which restate
    the new value as its attribute's own statement; no model call."""
    if not may_end(sentence) or sentence.rstrip().endswith("?"):
        return None
    target = ended_target(sentence, pool.memories(), who, taken)
    content = tell(sentence, who, observation.others(turn)) if target is not None else ""
    if target is None or not content:
        return None
    taken.append(target["id"])
    if f"{who}'s family" in target["content"]:
        content = content.replace(f"{who} and others", f"{who}'s family")
    return Candidate("fact", introduced(content, target["content"], who), None, turn,
                     "change", source=sentence, target=target["id"])
