"""An ending that names its thing by a pronoun, or not at all, and the one memory it means.

The ending grammar (``ending_grammar.py``, ``told_ended.py``) reads "we had to have him
put to sleep", "I had it scrapped" or "I've stopped" as naming nothing, and the finders
of the memory an ending ends had nothing to look for: the ending was stored as an episode
linked to nothing, the old fact left current. People end a thing so when it is plain
from what they hold which one they mean. So here:

- an object pronoun of an ending ("we lost her", "sold it", "found him a new home") is
  read by the grammars themselves: the pronoun stood in for by a thing, the sentence so
  read is an ending of the speaker's whose thing is the stand-in. A subject pronoun's
  death ("she passed away on Sunday") or theft ("it was stolen") is one too. The pronoun
  then means the speaker's one held thing of its kind: "him", "her", "he", "she" an
  animal held (by the lexicon, or named: "a bearded dragon named Rex"), "it", "them" a
  thing or an animal held (a memory of having, keeping, driving, renting it); never a
  person; and only when nothing was named before it in the turn (then it is that
  thing's: ``antecedent.py``, or another's: "My first car was a Mini, I sold it");
- an ending with no thing at all ("I've stopped", "that's me done", "I'm finished with
  all that", "not doing that any more": ``bare_ending.py``) means the speaker's one
  activity held now (a habit: "plays rugby on Saturdays", "does a jigsaw every
  evening"; not where they live, what they are or have); a parting with no one named
  ("we broke up", "we've split up") the speaker's one memory of a partner; "that's me
  done with football" is read as "I'm done with football".

The margin: an ending that could mean two memories ends neither (two pets, two habits);
a plan, a wish, a pause or another person's act ends nothing (as in the grammars). Pure
functions over texts and the lexicon; closed classes of English; no case, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index import lexicon, terms

from .bare_ending import OPENING, bare_ending
from .bygone import PAUSE
from .decisions import Pool
from .ended_words import held_now
from .endings import ended_memory
from .ending_grammar import clauses, endings, speakers_own
from .named import ENDING
from .cleaning import clean, norm
from .observation import Observation
from .paused import paused
from .restated import change_to
from .rules import Candidate
from .sentences import split_sentences, untag
from .slots import PEOPLE
from .told_ended import event_endings
from .updates import NOT_NOW, Memory, first_person

__all__ = ["Unnamed", "unnamed_endings", "unnamed_ended", "unnamed_change"]

#: What a pronoun is stood in for by: a word no grammar treats as light or as a person.
_STAND_IN = "the quillwort"
#: An object pronoun: after a word, not the subject of its own verb ("it broke").
_OBJECT = re.compile(r"(?<=[a-z]\s)(?P<p>it|him|her|them)\b(?!\s*(?:'s|is|was|has|had|will|"
                     r"would|broke|died|went|got|failed|needs|needed)\b)", re.I)
#: Rehomed, the thing as the indirect object: "found him a new home", "found a home for
#: them" (no grammar of ending reads it: the ending is the home found).
_REHOMED = re.compile(r"^(?:i|we)\s+(?:have\s+|had\s+|finally\s+|eventually\s+)*(?:found|got)\s+"
                      r"(?:(?P<p>him|her|them|it)\s+(?:a|an)\s+(?:new|good|loving|lovely|"
                      r"forever|better)\s+(?:home|owners?|family)|(?:a|an)\s+(?:new\s+|good\s+|"
                      r"loving\s+|forever\s+)?home\s+for\s+(?P<q>him|her|them|it))\b", re.I)
#: A thing of the speaker's done away with, told of it by a pronoun: "it was stolen from
#: outside the station", "it got written off" (its repair is no end: "it got fixed").
_GONE = re.compile(r"^(?P<p>it|they)\s+(?:was|were|got|has\s+been|have\s+been)\s+(?:stolen|"
                   r"nicked|pinched|written\s+off|scrapped|repossessed|crushed|towed\s+away)\b",
                   re.I)
#: "Had to have him put to sleep": the causative after "had to" (``told_ended`` reads
#: "had it scrapped").
_HAD_TO_HAVE = re.compile(r"\b(?:had|have)\s+to\s+have\s+(?P<p>him|her|it|them)\s+(?:put\s+"
                          r"(?:down|to\s+sleep)|scrapped|rehomed|re-homed|towed\s+away|"
                          r"taken\s+away|destroyed|crushed)\b", re.I)
#: A pet lost, by a pronoun: "we lost her to kidney failure" (only an animal held can be
#: meant: a person lost is a bereavement, no thing held).
_LOST = re.compile(r"^(?:i|we)\s+(?:have\s+|had\s+|sadly\s+|just\s+)*lost\s+(?P<p>him|her)\b"
                   r"(?!\s+(?:for|in\s+the|at|on)\b)", re.I)
#: A pronoun's death: "she passed away on Sunday", "he died in his sleep", "it didn't make
#: it" (an animal's: a person's death is a bereavement, no thing held).
_DIED = re.compile(r"^(?P<p>he|she)\s+(?:has\s+|is\s+|sadly\s+|finally\s+)*(?:died|passed"
                   r"(?:\s+away|\s+on)?|was\s+put\s+(?:down|to\s+sleep)|had\s+to\s+be\s+put\s+"
                   r"(?:down|to\s+sleep)|did\s+not\s+make\s+it|is\s+no\s+longer\s+with\s+us|"
                   r"ran\s+away|flew\s+(?:away|off|out)\b.*\bnever\s+came\s+back)\b", re.I)
#: A parting with the one the speaker was with, no one named: "we broke up", "we have
#: split up", "we are over", "we separated".
_PARTED = re.compile(r"^we\s+(?:have\s+|had\s+|finally\s+|just\s+)*(?:broke(?:n)?\s+up|split"
                     r"(?:\s+up)?|separated|divorced|called\s+it\s+(?:a\s+day|quits)|are\s+"
                     r"(?:over|done|finished|no\s+longer\s+together|not\s+together\s+any\s?more)|"
                     r"went\s+our\s+separate\s+ways)\b", re.I)
#: "That is me done with football": the speaker's ending of a thing named, in a shape the
#: ending grammar does not read; read as "I am done with football".
_ME_DONE_WITH = re.compile(r"^that\s+is\s+(?:me|us)\s+(?:done|finished|through)\s+with\s+"
                           r"(?P<x>.+)$", re.I)
#: A memory of being with a partner.
_PARTNER = re.compile(r"^(?:i|we)\s+(?:am|are|have\s+been|have|have\s+got)\s+(?:(?:been\s+)?"
                      r"(?:seeing|dating|going\s+out\s+with|together\s+with|engaged\s+to|"
                      r"married\s+to|with)\b|(?:a|my)\s+(?:new\s+)?(?:boyfriend|girlfriend|"
                      r"partner|fianc[eé]e?)\b)|^(?:my|our)\s+(?:boyfriend|girlfriend|partner|"
                      r"fianc[eé]e?)\b", re.I)
#: A clause whose subject is a pronoun: told of the thing the pronoun means.
_PRONOUN_SUBJECT = re.compile(r"^(?:it|he|she|they)\b", re.I)
#: A noun phrase said with its determiner, and a capitalised word past a clause's opening.
_SOME_NP = re.compile(r"\b(?:the|my|our|a|an|his|her|their|this|that)\s+(?:[\w-]+\s+)?"
                      r"(?P<x>[\w-]+)", re.I)
_CAPITALISED = re.compile(r"(?<=\w\s)(?-i:[A-Z])[\w'-]*")
#: Heads that name no thing to point back at: times, the news, a while.
_NOT_THINGS = frozenset("""week weeks month months year years day days time times while bit lot
news morning evening night weekend i i'm monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november
december christmas easter""".split())
#: The verbs of holding a thing, and what is held after them.
_HOLDS = re.compile(r"^(?:i|we)\s+(?:also\s+|still\s+)?(?:have\s+got|have|got|own|keep|drive|"
                    r"ride|rent|run|look\s+after|pay\s+for|subscribe\s+to|am\s+paying\s+for)\s+"
                    r"(?P<x>.+)$", re.I)
#: The subject "X and I" of a memory: the speaker with another, read as "we".
_WITH_ANOTHER = re.compile(r"^(?:(?:my|our)\s+)?[\w'-]+\s+and\s+i\s+", re.I)
#: A name given to what is held: "a bearded dragon named Rex".
_NAMED = re.compile(r"\b(?:called|named)\s+(?-i:[A-Z])", re.I)
#: Verbs of what one is, has or where one lives: no activity to stop.
_STATES = frozenset("""am are is be been have has had got own live lives rent know like love
prefer work works drive ride keep need want own""".split())
#: A habit told by how often: "every evening", "on Saturdays", "twice a week".
_HOW_OFTEN = re.compile(r"\b(?:every|each|daily|weekly|nightly|most\s+\w+|twice|three\s+times|"
                        r"once\s+a|a\s+week|a\s+day|weekends?|(?:on\s+)?(?:mon|tues|wednes|"
                        r"thurs|fri|satur|sun)days)\b", re.I)
#: Verbs of doing a thing as a pastime or habit (the rest told so by how often).
_DOING = frozenset("""play plays do does go goes volunteer volunteers swim swims run runs cycle
cycles sing sings smoke smokes vape vapes drink drinks practise practice practises coach
coaches train trains dance dances climb climbs row rows knit knits paint paints bake bakes
attend attends""".split())


def _animal(text: str) -> bool | None:
    """Whether a noun of ``text`` names an animal (by the lexicon; None when it is off)."""
    lex = lexicon()
    if lex is None:
        return None
    return any(lex.is_a(word, "animal") is True for word in re.findall(r"[a-z]+", text.lower()))


def _held(memory: Memory, who: str) -> str | None:
    """The fact of a one-fact memory of the speaker's held now (``held_now``), "X and I"
    read as "we"; None when it is no such memory."""
    said = held_now(memory, who)
    if said is None:
        # "my son and I keep a bearded dragon": the speaker's, with another.
        facts = first_person(memory["content"], who)
        if len(facts) == 1 and _WITH_ANOTHER.match(facts[0]):
            said = held_now({**memory, "content": _WITH_ANOTHER.sub("we ", facts[0])}, who)
    return said


def _fits(pronoun: str, said: str) -> bool:
    """Whether the speaker's held fact ``said`` is a thing ``pronoun`` can mean: "he",
    "she", "him", "her" an animal held; "it", "them" a thing or animal held; never a
    person."""
    m = _HOLDS.match(said)
    if m is None:
        return False
    thing = m["x"]
    if set(terms(thing)) & set(terms(" ".join(PEOPLE - {"dog", "cat", "pet", "puppy",
                                                        "kitten"}))):
        return False    # "a younger brother called Owen", "a cleaner": a person
    animal = _animal(thing)
    if pronoun.lower() in ("he", "she", "him", "her"):
        return bool(animal) or bool(_NAMED.search(thing))
    return True


class Unnamed:
    """An ending naming its thing by ``pronoun``, or by nothing (``pronoun`` ""); ``before``:
    the sentence's clauses before the pronoun's."""

    def __init__(self, pronoun: str, parting: bool = False, before: str = "") -> None:
        self.pronoun = pronoun
        self.parting = parting
        self.before = before

    def __repr__(self) -> str:
        return f"Unnamed({self.pronoun!r}, parting={self.parting})"


def _ends_stand_in(said: str) -> bool:
    """Whether the grammars read ``said`` (a pronoun stood in for) as the speaker's ending
    of the stand-in."""
    return any(e.holder == "" and "quillwort" in e.thing.lower() for e in endings(said)) or \
        any("quillwort" in e.thing.lower() for e in event_endings(said))


def unnamed_endings(sentence: str) -> list[Unnamed]:
    """The endings of ``sentence`` (cleaned) naming their thing by a pronoun or by nothing,
    clause by clause; none in a question, a plan or wish, a pause, another's act."""
    if sentence.rstrip().endswith("?"):
        return []
    found: list[Unnamed] = []
    parts = [OPENING.sub("", c) for c in clauses(sentence)]
    for at, clause in enumerate(parts):
        before = ", ".join(parts[:at])
        if not clause or NOT_NOW.search(ENDING.sub(" ", clause)) or paused(clause) or \
                PAUSE.search(clause):
            continue
        if m := _DIED.match(clause) or _REHOMED.match(clause) or _GONE.match(clause):
            found.append(Unnamed(m["p"] or m.groupdict().get("q") or "it", before=before))
            continue
        if (m := _HAD_TO_HAVE.search(clause) or _LOST.match(clause)) and speakers_own(clause):
            found.append(Unnamed(m["p"], before=before))
            continue
        if _PARTED.match(clause):
            found.append(Unnamed("", parting=True))
            continue
        if bare_ending(clause):
            found.append(Unnamed(""))
            continue
        for m in _OBJECT.finditer(clause):
            said = clause[:m.start()] + _STAND_IN + clause[m.end():]
            if _ends_stand_in(said):
                found.append(Unnamed(m["p"], before=before))
                break
    return found


def _activity(said: str) -> bool:
    """Whether a held fact is a habit the speaker can stop: a verb of doing, or any verb
    but one of being, having or living told with how often."""
    words = said.split()
    verb = next((w.lower() for w in words[1:] if w.lower() not in ("also", "still", "usually",
                                                                    "often", "always")), "")
    return verb in _DOING or verb not in _STATES and bool(_HOW_OFTEN.search(said))


def _sole(memories: Sequence[Memory]) -> Memory | None:
    return memories[0] if len(memories) == 1 else None


def names_a_thing(text: str) -> bool:
    """Whether ``text`` (clauses or sentences said before a pronoun) names a thing or a
    person the pronoun may point back at: a noun phrase or a name, past a clause whose
    subject is itself a pronoun ("It failed its MOT so badly that I had it scrapped": the
    same thing), a time ("it's been a hard week") or the speaker."""
    for part in (c.strip(" .") for said in re.split(r"[.!?]\s+", text) for c in clauses(said)):
        if _PRONOUN_SUBJECT.match(part):
            continue
        if any(m["x"].lower() not in _NOT_THINGS for m in _SOME_NP.finditer(part)) or \
                any(w.lower() not in _NOT_THINGS for w in _CAPITALISED.findall(part)):
            return True
    return False


def unnamed_ended(sentence: str, pool: Pool, who: str,
                  skip: Sequence[str] = (), said_before: str = "") -> Memory | None:
    """The speaker's one memory an ending of ``sentence`` naming its thing by a pronoun or
    by nothing means (see the module's note), or None: no such ending, or not one memory
    it can mean. A pronoun after a thing or person named before it (in ``said_before``,
    the turn's sentences before, or the sentence's clauses before it) is that one's: it
    is read so by ``antecedent.py``, or ends nothing of the speaker's ("My first car was
    a Mini, I sold it when I went to university")."""
    for clause in (OPENING.sub("", c) for c in clauses(sentence)):
        if (m := _ME_DONE_WITH.match(clause)) and \
                (found := ended_memory(f"I am done with {m['x']}", pool, who, skip)):
            return found
    told = unnamed_endings(sentence)
    if not told:
        return None
    held = [(memory, said) for memory in pool.memories()
            if memory["id"] not in skip and (said := _held(memory, who)) is not None]
    for ending in told:
        if ending.parting:
            found = _sole([m for m, said in held if _PARTNER.match(said)])
        elif ending.pronoun:
            if names_a_thing(f"{said_before}. {ending.before}"):
                continue
            found = _sole([m for m, said in held if _fits(ending.pronoun, said)])
        else:
            found = _sole([m for m, said in held if _activity(said)])
        if found is not None:
            return found
    return None


def unnamed_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                   taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the one memory its ending, naming its thing by
    a pronoun or by nothing, means (:func:`unnamed_ended`), else None. Tried after the
    finders of a thing named."""
    text = observation.turns[turn].content
    sentences = [clean(untag(s)[0]) for s in split_sentences(text)]
    at = next((i for i, s in enumerate(sentences) if norm(s) == norm(sentence)), 0)
    return change_to(unnamed_ended(sentence, pool, who, taken, ". ".join(sentences[:at])),
                     sentence, who, turn, observation, taken)
