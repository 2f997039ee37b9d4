"""An episode read against the memory it names: a later sentence that names the thing one
of the speaker's one-fact memories says holds now, and tells it as over.

People rarely end a thing in the memory's words or in an ending's own shape ("I quit the
choir"); they tell what happened to it: "I handed back the keys to the studio", "Dunlop
made the whole night team redundant, me included", "a couple from Leicester bought the
boat off me", "the college axed its evening programme, so that was my final term". The
ending grammar (``endings.py``) reads a shape and looks the thing up by meaning; the
finder by name (``named.py``) needs a marker of ending within two words of the value.
Neither reads the relation here: the sentence names the memory's thing somewhere (its
proper names, or a distinctive word of it, or the head of its compound: "the boat" of "a
narrowboat"), and in the same simple clause (a common word within a few words of it, a
name anywhere) a general marker says it ended
(``named.ENDING``: verbs of ending, leaving, losing, failing, selling, the farewells),
passed out of the speaker's hands (:data:`AWAY`: "bought it off me", "handed back the
keys", "handed in my badge"), went to its next keeper (:data:`KEEPER`: "Marmalade went to
live with my aunt", "the boat went to a couple from Leicester") or happened for the last
time (:data:`FINAL`: "that was my final term"). A clause whose subject points back ("that
was my last shift") is read with the clause before it; an answer that names nothing
("Stood down at the last election") with the question it answers, and so an answer ending
a pronoun ("We lost him in August", "Gave it up in May") with the question naming the
thing ("How's Biscuit?"). "Still" and "again", and a plan, are read in their own clause
("The price went up again, so I cancelled Netflix"; "the landlord won't have pets").
When no clause names the thing, its aftermath may (:func:`_aftermath_target`): the
habit's time told free again (``freed.py``), its own verb's last time (``last_done.py``).

What ends nothing: a question, a plan or wish, an addition, a pause (:data:`PAUSE`: "shut
until March", "for the next month"), a clause of another person's ("my brother's club
folded"), a clause whose marker and the thing are parted by another clause's subject or a
subordinator ("I lost my phone at the park where I walk the dog"), a memory of another
person's or one that is itself an event, a plan or an ending. Of several memories named
so, one must be named more than the others (a proper name over a word).

Why it is general: closed classes of English (pronouns, subordinators, determiners, the
transfer verbs of giving and taking with their particles), the existing general ending
markers, and the memory's own words; no model call, no case, no benchmark, no name.
Pure functions over texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from index import terms

from .acted import acts_on, left_by_another, remaining
from .decisions import Decision, Pool
from .episode_words import PAST
from .holders import memory_holder, same_holder, subject_first
from .named import ENDING, predates
from .holding import kept_meanwhile
from .parts import part_taken_off
from .paused import paused
from .person_subject import theirs_alone
from .listed import others_listed
from .one_of_several import one_of_several
from .freed import freed_target
from .last_done import last_done_target
from .observation import Observation
from .polarity import DOUBLE
from .profile import whose
from .rules import Candidate, clean
from .sentences import split_sentences, untag
from .slots import PEOPLE, names_of
from .updates import ADDITION, NOT_NOW, FACT_WORDS, Memory, first_person, is_event

__all__ = ["AWAY", "FINAL", "KEEPER", "PAUSE", "bygone_target", "episode_ending", "markers"]

#: The most words between a marker and a common word of the memory's: said of it.
NEAR_WORDS = 3
#: The thing passing out of the speaker's hands: taken or bought off them, handed or given
#: back, over or on, handed in (the verbs of transfer, the speaker as the source).
AWAY = re.compile(r"\b(?:(?:bought|took|taken|got|collected|picked\s+up)\s+(?:[\w'-]+\s+){1,4}?"
                  r"(?:off|from)\s+(?:me|us)\b|"
                  r"(?:handed|gave|given|sent|passed|took|taken)\s+(?:back|over|on)\s+"
                  r"(?:the|my|our|all)\b|"
                  r"handed\s+in\s+(?:my|our|the)\b)", re.I)
#: The thing gone to its next keeper, the thing the subject: "Marmalade went to live with
#: my aunt", "the boat went to a couple from Leicester", "Dash found his forever home"; not
#: a person going there ("I went to a family barbecue", "we found a new home in Leeds").
KEEPER = re.compile(r"(?<!\bi\s)(?<!\bwe\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)(?<!\byou\s)"
                    r"\b(?:(?:went|gone|moved)\s+(?:off\s+)?to\s+live\s+with\b|"
                    r"found\s+(?:(?:a|his|her|its|their)\s+)?(?:new|forever)\s+home\b|"
                    r"(?:(?:went|gone|passed)\s+to\s+(?:(?:a|its|his|her|their)\s+)?new\s+"
                    r"(?:owners?|home|family|keepers?)|"
                    r"(?:went|gone)\s+to\s+(?:someone|somebody|(?:a|an)\s+(?:couple|family|"
                    r"dealer|buyer|collector)))"
                    r"(?=\s*(?:$|[,.;!]|(?:from|in|at|on|off|who|for|near|with|down|up|last|"
                    r"this|and)\b)))", re.I)
#: A verb of ending split round a pronoun, the thing the question asked about: "gave it up",
#: "packed it in".
SPLIT = re.compile(r"\b(?:gave|given|packed|jacked|chucked|knocked)\s+(?:it|them)\s+"
                   r"(?:up|in|on\s+the\s+head)\b", re.I)
#: Pronouns a marker of ending acts on.
_PRONOUNS = frozenset(("him", "her", "it", "them"))
#: The last time of a thing, said of the past: "that was my final term", "Friday was my
#: last shift", "their farewell gig".
FINAL = re.compile(r"\b(?:was|were)\s+(?:my|our|their|the)\s+(?:very\s+)?(?:last|final)\b|"
                   # "their last ever gig" (not "my last shift": the latest of a habit).
                   r"\b(?:my|our|their)\s+(?:final|farewell|leaving|last\s+ever)\s+(?:day|shift|term|"
                   r"gig|concert|match|game|show|session|class|lesson|service|week|night|do|"
                   r"party)\b", re.I)
#: A pause: the thing said to stop for a while, to be away and come back, or to go on
#: ("still", "again").
PAUSE = re.compile(r"\b(?:until|till|til|for\s+the\s+(?:next|time\s+being|moment|summer|winter)|"
                   r"temporarily|for\s+a\s+(?:few|couple\s+of)\s+(?:days|weeks|months)|"
                   r"(?:a|the)\s+break\s+from|on\s+hold|reopen\w*|resum\w*|still|again)\b",
                   re.I)
#: A pause said of the whole sentence: PAUSE without its words of going on ("still",
#: "again"), which say so of their own clause only ("The price went up again, so I
#: cancelled Netflix" ends Netflix; "I'm at the choir again" ends nothing).
_WIDE_PAUSE = re.compile(PAUSE.pattern.replace(r"|still|again", ""), re.I)
_GOES_ON = re.compile(r"\b(?:still|again)\b", re.I)
#: Where a sentence's clauses part.
_CLAUSE = re.compile(r"\s*[,;:!?()]\s*|\s+-\s+|\s+(?:but|so|and\s+(?=(?:i|we|it|that|they)\b)|"
                     r"because)\s+", re.I)
#: What parts a marker from a word of another clause: a subordinator, or a new subject.
_PARTED = re.compile(r"\b(?:where|when|while|which|who|whom|whose|that|because|after|before|"
                     r"as|if|since|though|although|i|we|he|she|they|you)\b", re.I)
#: A question whether a thing still holds.
_STILL_ASKED = re.compile(r"\b(?:still|any\s?more|these\s+days)\b[^?]*\?", re.I)
#: Right after a marker, where or to whom it went, not what ended ("lost to Arsenal"; "handed
#: back the keys to the studio" is the keys' studio).
_TOWARD = re.compile(r"(?:to|into|onto|for|against)\b(?:\s+(?:the|a|an|my|our))?\s*$", re.I)
#: A pronoun pointing at a thing named before.
_REFERS = re.compile(r"\b(?:it|them|there|that\s+one)\b", re.I)
#: A clause opening on a subject that points back at the clause before.
_POINTING = re.compile(r"^(?:that|this|it|which)\b", re.I)
#: Days and months: when a fact holds, not what it is.
_CALENDAR = frozenset(terms(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays january february march april may june july "
    "august september october november december weekend weekends morning mornings "
    "evening evenings night nights week weeks month months year years day days"))
#: Words too common to say which memory is meant.
_LIGHT = frozenset(terms(
    "am is are was were be been have has had get got do does did make made go goes went "
    "take took use used work works worked live lives like likes love loves want need thing "
    "stuff lot time really just also now still every always usually never good great nice "
    "new old big small little much many some very about over away back down into from "
    "with after before again around off out last first next here there what which quite "
    "often sometimes regularly once twice three four five local whole place people "
    "something someone everyone friend friends family"))


def markers(clause: str) -> list[tuple[int, int]]:
    """The word spans (start, end) of ``clause``'s markers of ending (``named.ENDING``,
    :data:`AWAY`, :data:`FINAL`); a capitalised word inside a name is no marker ("The
    Loose *Ends*")."""
    spans = []
    for pattern in (ENDING, AWAY, FINAL, KEEPER, SPLIT):
        for m in pattern.finditer(clause):
            if m.start() > 0 and m.group(0)[:1].isupper():
                continue
            start = len(_words(clause[:m.start()]))
            spans.append((start, start + max(1, len(_words(m.group(0))))))
    return spans


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'-]+", text)


#: A memory of what the speaker holds or does now: "I" or "we" as its subject, its verb in
#: the present ("I rent a studio", "we're on the parish council"), not a description of
#: theirs ("my goal is ...", "my family went ...") nor a span up to now ("I have been busy
#: with a project").
_HOLDS = re.compile(r"^(?:i|we)\s+(?!(?:have|'ve|had|'d)\s+been\b|was\b|were\b|did\b|"
                    r"had\b)", re.I)


@lru_cache(maxsize=50_000)
def _named_by(content: str, who: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """A one-fact memory of the speaker's held now: its proper names and its distinctive
    words (stemmed); None for another's memory, an event or a past ("we went on a camping
    trip"), a plan, several sentences, or one that tells an ending itself (its names
    aside: "The Loose Ends" is a band)."""
    said = first_person(content, who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
            NOT_NOW.search(said[0]) or not same_holder(memory_holder(said[0]), "") or \
            not _HOLDS.match(said[0]) or \
            any(w in PAST or w.endswith("ed") for w in said[0].lower().split()[1:4]):
        return None
    own = {w.lower() for w in who.split()}
    names = frozenset(names_of(said[0])) - own - _CALENDAR
    plain = " ".join(w for w in _words(said[0]) if w.lower() not in names)
    if ENDING.search(plain):
        return None
    rest = re.sub(r"^(?:i|we)\s+(?:\w+\s+)?", "", said[0], flags=re.I)
    rare = frozenset(t for t in terms(rest) if len(t) >= 4) - _LIGHT - _CALENDAR - \
        set(terms(who)) - set(terms(" ".join(names)))
    return names, rare


def _hits(words: Sequence[str], names: frozenset[str], rare: frozenset[str]) -> list[int]:
    """Where ``words`` name the memory: a proper name of it, a distinctive word (stemmed),
    or the head of its compound ("boat" of "narrowboat"; a head, not a tail: "last" is no
    head of "blast")."""
    return _hits_read(_Read.of(words), names, rare)


def _hits_read(read: _Read, names: frozenset[str], rare: frozenset[str]) -> list[int]:
    out = []
    for i, (low, stem) in enumerate(zip(read.lows, read.stems, strict=True)):
        if low in names:
            out.append(i)
        elif stem not in _LIGHT and (stem in rare or len(stem) >= 4 and any(
                r.endswith(stem) and len(r) - len(stem) >= 4 for r in rare)) and \
                not (i and _another_kind(read.words[i - 1], rare)):
            out.append(i)
    return out


@dataclass(frozen=True)
class _Read:
    """A clause's words read once for all the memories compared with it: the words, lower-
    cased without a possessive, stemmed, and its markers' spans."""

    words: tuple[str, ...]
    lows: tuple[str, ...]
    stems: tuple[str, ...]
    spans: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, words: Sequence[str], spans: Sequence[tuple[int, int]] = ()) -> _Read:
        lows = tuple(re.sub(r"'s?$", "", w.lower()) for w in words)
        return cls(tuple(words), lows, tuple((terms(w) or [w])[0] for w in lows), tuple(spans))


#: Words before a noun that say which one without naming another kind of it.
_DETERMINERS = frozenset("""the a an my our his her their its this that these those all
whole old little same""".split())


def _another_kind(before: str, rare: frozenset[str]) -> bool:
    """Whether the word before a common word of the memory's names another of its kind
    ("the *tennis* club" is not "the golf club"): a content word the memory lacks."""
    low = before.lower()
    return low not in _DETERMINERS and not low.endswith("'s") and \
        (terms(low) or [low])[0] not in rare and low.isalpha() and not ENDING.fullmatch(low)


def _clause_names(read: _Read, names: frozenset[str], rare: frozenset[str]) -> float:
    """How surely a clause (``read``) tells the memory over: 2 for a proper name of it, 1
    for a word (within ``NEAR_WORDS`` of the marker), joined to a marker of ending within
    the clause with no subordinator or other subject between; 0 else."""
    words = read.words
    best = 0.0
    for i in _hits_read(read, names, rare):
        for start, end in read.spans:
            named = read.lows[i] in names
            if i >= start and re.search(r"\bsince\b", " ".join(words[start:i]), re.I):
                joined = False  # "not felt since my time in the army": when, not what
            elif start <= i < end:
                joined = True
            elif i < start and acts_on(words, start, end):
                joined = False  # "Barclays closed our branch": its agent (``acted.py``)
            else:
                lo, hi = (end, i) if i >= end else (i + 1, start)
                # A common word is the marker's only near it ("lost my phone at the
                # bakery" ends no bakery); a name anywhere in the simple clause; not one
                # the marker went to ("lost to Arsenal": whom to, not what).
                between = " ".join(words[lo:hi])
                joined = not _PARTED.search(between) and \
                    (named or hi - lo <= NEAR_WORDS) and \
                    not (i >= end and _TOWARD.match(" ".join(
                        w for w, low in zip(words[lo:hi], read.lows[lo:hi], strict=True)
                        if low not in names)))
            if joined:
                best = max(best, 2.0 if named else 1.0)
    return best


def _speakers(clause: str) -> bool:
    """Whether a clause is the speaker's side: not of a person of theirs or another's
    ("my brother's club folded", "she left")."""
    said_by = whose(subject_first(clause))
    return not (set(said_by.split()) & PEOPLE) and \
        not re.match(r"(?:he|she|his|her)\b", subject_first(clause), re.I)


def bygone_target(sentence: str, memories: Iterable[Memory], who: str,
                  skip: Iterable[str] = (), asked: str | None = None) -> Memory | None:
    """The speaker's one-fact memory held now whose thing ``sentence`` (first person,
    cleaned) names and tells as over (see the module's note); ``asked``, the question the
    sentence answers, names it for an answer that names nothing. None when no clause
    says so, or two memories are named alike."""
    # A double negative affirms ("I haven't missed a parkrun in months").
    # A closure for a while or one occasion called off (``paused.py``: "Zumba was cancelled
    # this week") is a pause too.
    if sentence.rstrip().endswith("?") or _WIDE_PAUSE.search(sentence) or paused(sentence) or \
            DOUBLE.search(sentence) or ADDITION.search(sentence):
        return None
    # "The only tenor left": "left" of what remains, no leaving (``acted.remaining``).
    parts = [remaining(p) for p in _CLAUSE.split(sentence) if p and p.strip()]
    # A plan or a present not yet so, of the speaker's clauses: another's ("the landlord
    # of the new place won't have pets") says nothing of the speaker's ending.
    if NOT_NOW.search(ENDING.sub(" ", " ; ".join(p for p in parts if _speakers(p)))):
        return None
    # A clause pointing back ("so that was my final term") is read with the one before.
    clauses = []
    for i, part in enumerate(parts):
        if not markers(part) or not _speakers(part) or _GOES_ON.search(part):
            continue
        clauses.append(part)
        if i and _POINTING.match(part.strip()):
            clauses.append(f"{parts[i - 1]} {part}")
    if not clauses:
        return None
    reads = [_Read.of(_words(c), markers(c)) for c in clauses]
    # An answer to whether a thing still holds ("Are you still on the council?").
    # Short, or pointing at it by a pronoun ("Sold it in the spring", "left there in May").
    answer = asked is not None and bool(_STILL_ASKED.search(asked)) and \
        (len(_words(sentence)) <= 8 or any(_REFERS.search(c) for c in clauses))
    # An answer ending the one the question names by name, a pronoun the marker's object
    # ("How's Biscuit doing?" "We lost him in August").
    pointed = asked is not None and any(
        any(low in _PRONOUNS for low in r.lows[start:end + 1])
        for r in reads for start, end in r.spans)
    avoid = set(skip)
    ranked: list[tuple[float, Memory]] = []
    for memory in memories:
        if memory["id"] in avoid or predates(sentence, memory):
            continue
        value = _named_by(memory["content"], who)
        if value is None or not (value[0] or value[1]):
            continue
        # "Tom quit the choir": another's own leaving of the thing (``acted.py``).
        own = {w for n in value[0] for w in n.split()} | set(value[1])
        score = max(0.0 if left_by_another(c, own) else _clause_names(r, *value)
                    for r, c in zip(reads, clauses, strict=True))
        if not score and answer and _hits(_words(asked or ""), *value):
            # "Stood down at the last election" after "Are you still on the parish
            # council?": the question names the thing, the answer its end.
            score = 0.5
        elif not score and pointed and _hits(_words(asked or ""), *value):
            # "How's Biscuit doing?" "We lost him in August"; "How's the allotment?"
            # "Gave it up in May".
            score = 0.5
        if score:
            ranked.append((score, memory))
    ranked.sort(key=lambda pair: pair[0], reverse=True)
    if not ranked or len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    return ranked[0][1]


def episode_ending(cand: Candidate, observation: Observation, pool: Pool,
                   who: str) -> Decision | None:
    """An episode the rules link to nothing (``cand``, of ``observation``'s turn) read
    against the memories it names: a supersede of the one its sentences tell as over
    (:func:`bygone_target`, each sentence cleaned as the rules read it, with the question
    the turn answers), the episode the memory's newer version; else None. Read last, so
    every finder of a change of this turn had its turn first."""
    asked = observation.previous_assistant(cand.turn) \
        if observation.answers_question(cand.turn) else None
    said = [clean(untag(whole)[0]) for whole in split_sentences(cand.source or "")]
    for i, sentence in enumerate(said):
        # "The council shut the lido in May. That was my last swim there.": one clause.
        if i and _POINTING.match(sentence.strip()):
            sentence = f"{said[i - 1].rstrip(' .!')}, {sentence}"
        if kept_meanwhile(sentence) or part_taken_off(sentence):
            continue    # lent, borrowed, being fixed, or a part of it sold: still held
        target = bygone_target(sentence, pool.memories(), who, (), asked) or \
            _aftermath_target(sentence, pool.memories(), who)
        if target is not None and theirs_alone(sentence, target["content"], who):
            continue    # "The Spanish teacher at my son's school just left": theirs
        if target is not None and one_of_several(sentence,
                                                 others_listed(target["content"], who)):
            continue    # "Flopsy died" of "two rabbits, Flopsy and Mopsy": Mopsy's still
        if target is not None:
            return Decision("supersede", "a later statement tells the thing as over",
                            category=target["category"], memory_id=target["id"],
                            content=cand.content, context=observation.window(cand.turn),
                            intention=observation.goal(cand.turn))
    return None


def _aftermath_target(sentence: str, memories: Iterable[Memory], who: str) -> Memory | None:
    """The speaker's one-fact habit held now that ``sentence`` tells over by its aftermath
    rather than by its thing: the time it took told free again (``freed.py``: "so my
    Saturdays are my own again"), or its own verb's last time ("I sang my last evensong",
    ``last_done.py``)."""
    held = [m for m in memories
            if not predates(sentence, m) and (value := _named_by(m["content"], who)) is not None
            and (value[0] or value[1])]
    return freed_target(sentence, held, who) or last_done_target(sentence, held, who)
