"""An ending told as the opposite of a stored memory: the speaker's clause that says, of
the present, the negation of what a memory of theirs says (issue 23).

The cue lists (``cues.py``, ``endings.py``) know endings by their words: "quit", "gave
up", "no longer", "is over". People also end a thing by simply saying its opposite now,
in words no list holds: "I haven't needed glasses since the laser surgery", "I've not
done a shift at the food bank for ages", "not a drop of wine since September", "eggs are
fine for me now" after "I can't eat eggs". What these share is grammar, not words:

- **polarity**: the clause negates (a closed class: *not*, *n't*, *never*, *no*, *no
  longer*, *no more*, *without*) where the memory affirms, or affirms where the memory
  negates;
- **the present**: the clause says how things stand now, over a span up to now (*since*,
  *for ages*, *in months*, *these days*, *now*, *anymore* ...), in the present or present
  perfect; never a past episode ("I didn't go last week"), a plan or wish, a question;
- **the same predicate**: with its negation and time words stripped, the clause is
  clearly nearest that memory of the speaker's, by the cosine of the texts stripped of the
  subject's name (``updates.nearest_attribute``), among all the speaker's one-fact
  memories (``POLAR_MIN``, ``POLAR_MARGIN``);
- **the same thing**: not another thing of the same kind. A clause and a memory naming
  one head noun with different words before it ("the tennis club" / "the golf club")
  name two things (:func:`other_of_kind`).

A double negative is no ending ("I haven't missed a crossword in months"): a negation of a
verb of lacking or ending (*miss*, *fail*, *skip*, *stop* ...) affirms. A clause whose
subject is another person ("my dad doesn't play darts anymore") ends nothing of the
speaker's (``ending_grammar.speakers_own``). Pure functions over texts and an embedding
function; no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .decisions import Pool
from .ending_grammar import KIN_SUBJECT, speakers_own
from .cues import signals
from .holders import holder_of, memory_holder, same_holder, subject_first
from .named import ENDING
from .negated import does_without
from .observation import Observation
from .profile import whose
from .restated import change_to
from .rules import Candidate, clean, norm
from .sentences import split_sentences
from .slots import PEOPLE
from .kinds import TIMES, other_named, other_of_kind
from .bare_ending import bare_ending
from .updates import ADDITION, FACT_WORDS, NOT_NOW, Memory, first_person, is_event, \
    nearest_attribute

__all__ = ["DOUBLE", "negated", "now_span", "ends_another", "opposite_memory", "opposite_change",
           "POLAR_MIN", "POLAR_MARGIN"]

#: The least cosine of the clause (negation and time words stripped) and the memory it
#: contradicts: a clause and an unrelated fact of the same person score under .3; the one
#: it negates in other words over .4 ("needed glasses" / "wears glasses").
POLAR_MIN = 0.42
#: How much closer than the next of the speaker's memories it must be.
POLAR_MARGIN = 0.12

#: The closed class of English negators, with the negative quantifier "none" ("none for me
#: these days"; "nothing" is left out: "nothing beats a long walk" praises).
_NEGATOR = re.compile(r"\b(?:not|never|no|zero|without|nor|none(?!\s+other\b))\b|n't\b|"
                      r"\bcannot\b", re.I)
#: A negation of the past or of a modal: an episode ("I didn't go last week", "I couldn't
#: make it") or a wish, not how things stand now.
_PAST_NEGATION = re.compile(r"\b(?:did|was|were|could|would|should|might|must|will|wo|"
                            r"shall)(?:n't|\s+not|\s+never)\b", re.I)
#: A negated verb of lacking or ending affirms ("haven't missed", "never fails", "can't
#: stop", "didn't give up").
DOUBLE = re.compile(r"(?:\b(?:not|never|no)|n't|\bcannot)\s+(?:\w+\s+){0,2}?"
                     r"(?:miss|fail|skip|forget|forgot|stop|quit|give\s+up|gave\s+up|"
                     r"lose|lost|lack|avoid|mind|help|wait|get\s+enough|resist|"
                     r"complain|regret|doubt)\w*\b", re.I)
#: A span up to now or the present, as a grammar book lists the adverbials of time.
_NOW_SPAN = re.compile(
    r"\b(?:since|any\s?more|any\s+longer|no\s+longer|no\s+more|these\s+days|nowadays|now|"
    r"at\s+the\s+moment|lately|at\s+all|(?:for|in)\s+(?:ages|months|years|weeks|a\s+while|"
    r"a\s+long\s+time|(?:a|an|one|two|three|four|five|six|several|a\s+few|many|\d+)\s+"
    r"(?:days?|weeks?|months?|years?))|"
    # A span counted up to now: "six months without a cigarette" (not "six months ago").
    r"(?:a|one|two|three|four|five|six|seven|eight|nine|ten|several|a\s+few|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)(?!\s+ago\b))\b", re.I)
#: Words stripped before comparing by meaning: the negators and the time words say the
#: polarity and the span, not which predicate.
_STRIP = re.compile(rf"{_NOW_SPAN.pattern}|{_NEGATOR.pattern}|\b(?:do|does|am|is|are|'m|"
                    r"'re|'s|have|has|'ve|been|single|a|an|the|ever|even|really|"
                    r"finally|still|yet|any|for|me|us)\b", re.I)
#: Words that name no thing: articles, pronouns, prepositions, auxiliaries.
_WEAK = frozenset("""a an the my our your his her their its this that i we you he she they
it me us of in on at to for with from by about as and or but is am are be been have has do
does very really much any""".split())
#: Where a sentence's clauses part: at a comma, a conjunction, or "and" before the
#: speaker ("My camera got nicked in Bristol and I haven't replaced it": the negation is
#: the second clause's, not the first's; the lookahead leaves the space to the split).
_CLAUSES = re.compile(r"\s*[,;:!?()]\s*|\s+(?:but|so|because|and(?=\s+(?:i|we)\b))\s+|"
                      r"\s+-\s+", re.I)
#: A conjunction opening a clause.
_OPENING = re.compile(r"^(?:so|and|but|then|because|cos|as)\s+", re.I)
def negated(clause: str) -> bool:
    """Whether ``clause`` negates its predicate (a double negative affirms)."""
    return bool(_NEGATOR.search(clause)) and not DOUBLE.search(clause)


def ends_another(sentence: str, memory: str, who: str) -> bool:
    """Whether ``sentence``, read by any finder as ending ``memory`` (about ``who``),
    cannot end it: it affirms by a double negative what the memory affirms ("I haven't
    missed a parkrun in months" after "does the parkrun every Saturday"), it ends another
    thing of the memory's kind ("I quit the squash club" and "is a member of the rugby
    club"), or a clause of it negates another person's present ("my wife doesn't work
    from home anymore" and "Ana works from home") or another named thing's ("I haven't
    been to London in years" and "Ana lives in Leeds")."""
    if _only_double(sentence) and not negated(memory) and \
            not ENDING.search(DOUBLE.sub(" ", sentence)):
        return True
    if ENDING.search(sentence) and other_of_kind(sentence, memory):
        return True
    said = first_person(memory, who)
    if len(said) == 1 and does_without(said[0]) and not _names_object(sentence, memory):
        # A memory of doing without ("cannot swim", "does not eat meat") holds no value
        # a change replaces ("joined the climbing wall instead"): only what names what
        # it does without ends it.
        return True
    mine = len(said) == 1 and same_holder(memory_holder(said[0]), "")
    # The ending is in a clause of the speaker's own, when one says it ("I told my brother
    # I'd left Halifax, he didn't believe me"); else in the negated clause read here.
    blocked, own = False, False
    for part in _CLAUSES.split(sentence):
        clause = subject_first(_OPENING.sub("", part.strip(" .!")))
        clause = clause[:1].upper() + clause[1:]
        if len(clause.split()) < 3:
            continue
        theirs = _anothers(clause)
        if not theirs and ENDING.search(DOUBLE.sub(" ", clause)) and \
                not other_named(clause, memory):
            own = True
        if not theirs and bare_ending(clause):
            own = True  # "..., so that's me done": the speaker's own ending, thing unsaid
        if not theirs and holder_of(clause) == "" and signals(clause).strong:
            # "My dad's not well, so I've moved in with him in Swansea": the change is
            # the speaker's own clause's, whatever another's clause negates.
            own = True
        if negated(clause) and (mine and theirs or other_named(clause, memory)):
            blocked = True
    return blocked and not own


def _anothers(clause: str) -> bool:
    """Whether ``clause``'s subject is a person of the speaker's ("my wife doesn't ...",
    "our neighbour hasn't ..."), or he or she: theirs, not the speaker's (an "it" or no
    subject at all is not known to be another's)."""
    by = whose(clause)
    return bool(set(re.split(r"[\s-]+", by)) & PEOPLE) or \
        bool(re.match(r"(?:he|she)\b", clause, re.I))


def _only_double(sentence: str) -> bool:
    """Whether each negation of ``sentence`` is a double negative: one plain negation
    beside it ("Haven't touched a cigarette since May, and I don't miss them") is an
    ending, the double one a feeling about it."""
    doubles = len(DOUBLE.findall(sentence))
    return doubles > 0 and doubles == len(_NEGATOR.findall(sentence))


def now_span(clause: str) -> bool:
    """Whether ``clause`` says how things stand now, over a span up to now: a time word of
    the present, and no negated past or modal."""
    return bool(_NOW_SPAN.search(clause)) and not _PAST_NEGATION.search(clause)


def _polar_clauses(sentence: str) -> list[tuple[str, bool]]:
    """The speaker's clauses of ``sentence`` that say how things stand now, each with its
    polarity (True: negated); none of a question, a plan or wish, or an addition."""
    return [(clause, negative) for clause, negative, holder in _held_clauses(sentence)
            if holder == ""]


def _held_clauses(sentence: str) -> list[tuple[str, bool, str]]:
    """The clauses of ``sentence`` that say how things stand now, of the speaker's ("") or
    of a person of theirs ("my husband hasn't had a cigarette since May": "husband"), each
    with its polarity and whose it is; none of a question, a plan or wish, an addition."""
    if sentence.rstrip().endswith("?") or NOT_NOW.search(sentence):
        return []
    out = []
    for part in _CLAUSES.split(sentence):
        clause = subject_first(_OPENING.sub("", part.strip(" .!")))
        clause = clause[:1].upper() + clause[1:]    # a sentence's case, as ``whose`` reads
        if len(clause.split()) < 3 or ADDITION.search(clause) or not now_span(clause):
            continue
        if speakers_own(clause):
            out.append((clause, negated(clause), ""))
        elif kin := KIN_SUBJECT.match(clause):
            out.append((clause, negated(clause), kin["kin"].lower()))
    return out


def _names_object(clause: str, held: str) -> bool:
    """Whether an affirmation names what a negated memory does without: a word of what
    follows the memory's negated verb ("eggs are fine for me now" and "I can't eat
    eggs"); "I eat fish now" names nothing "I don't eat meat" lacks, and ends nothing."""
    m = _NEGATOR.search(held)
    after = re.findall(r"[a-z][a-z'-]*", held[m.end():].lower()) if m else []
    words = [w for w in after if w not in _WEAK][1:]
    said = set(re.findall(r"[a-z][a-z'-]*", clause.lower()))
    return any(w in said or w.rstrip("s") in said or w + "s" in said for w in words)


def _stripped(text: str) -> str:
    """``text`` without its polarity and time ("since Christmas Eve", "in March"): its
    predicate."""
    words = [w for w in _STRIP.sub(" ", text).split()
             if re.sub(r"\W", "", w).lower() not in TIMES]
    return " ".join(words) or text


def opposite_memory(sentence: str, pool: Pool, who: str,
                    skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's one-fact memory a clause of ``sentence`` says the opposite of now (see
    the module's note), or None: no such clause, no model, or no memory clearly meant."""
    clauses = _held_clauses(sentence)
    embedder = pool.embedder() if clauses else None
    if embedder is None:
        return None
    for clause, negative, holder in clauses:
        # An affirmation contradicts only a memory that negates; a negation one that
        # affirms (both read below), but an affirmation must say "now" of a state, not
        # merely mention a span ("I've been at it for years" ends nothing).
        core = _stripped(clause)
        try:
            near = pool.nearest(core, 10)
        except Exception:   # a failing model finds nothing: the statement is added
            return None
        # A person's clause ("my husband hasn't smoked since May") can only mean theirs.
        mine = [m for m in near if m["id"] not in skip and _one_fact(m, who, holder)]
        if not mine:
            continue
        try:
            closest, best, second = nearest_attribute(
                core, [{**m, "content": _stripped(m["content"])} for m in mine], who,
                embedder.embed)
        except Exception:   # a failing model finds nothing: the statement is added
            return None
        memory = next(m for m in mine if m["id"] == closest["id"])
        held = first_person(memory["content"], who)[0]
        if best < POLAR_MIN or best - second < POLAR_MARGIN or negated(held) == negative or \
                other_of_kind(clause, held) or other_named(clause, memory["content"]) or \
                not negative and not _names_object(clause, held):
            continue
        return memory
    return None


def opposite_change(sentence: str, pool: Pool, who: str, turn: int,
                    observation: Observation, taken: list[str]) -> Candidate | None:
    """``sentence`` (of ``observation``'s turn ``turn``) as a change superseding the
    speaker's memory it says the opposite of now, else None. Tried after the finders by
    cue words (``endings.ending_change``). An elliptical answer negates the question's
    predicate: "Do you still volunteer at the shelter?" / "Haven't been in ages"."""
    target = opposite_memory(sentence, pool, who, taken)
    question = observation.previous_assistant(turn) \
        if target is None and observation.answers_question(turn) else None
    topic = _topic(observation.turns[turn].content, sentence) if target is None else None
    if question is not None and _elliptical(sentence) or \
            topic is not None and _elliptical(sentence, answered=False):
        asked = [topic] if topic is not None else \
            [q for q in re.split(r"(?<=[.!?])\s+", question or "") if q.rstrip().endswith("?")]
        if asked and (target := _nearest_affirmed(_YOU.sub(" ", asked[-1]), pool, who,
                                                  taken)) is not None:
            # Told whole: what ended, then the answer ("Ana no longer volunteers at the
            # shelter, has not been in ages"), not a fragment without its subject.
            ended = _no_longer(first_person(target["content"], who)[0])
            sentence = f"{ended}, {sentence[:1].lower()}{sentence[1:]}" if ended else sentence
    return change_to(target, sentence, who, turn, observation, taken)


def _no_longer(held: str) -> str:
    """A first-person fact said to hold no longer ("I volunteer at the shelter" -> "I no
    longer volunteer at the shelter", "I'm on the rota" -> "I'm no longer on the rota"),
    or "" when its subject is not the speaker."""
    held = held.strip().rstrip(".!")
    if m := re.match(r"^(?:i|we)\s*(?:am|'m|are|'re)\b", held, re.I):
        return f"{m.group(0)} no longer{held[m.end():]}"
    if m := re.match(r"^(?:i|we)\b", held, re.I):
        return f"{m.group(0)} no longer{held[m.end():]}"
    return ""


#: The addressee and the words a question of "still" asks with: no part of its predicate.
_YOU = re.compile(r"\b(?:you|your|yours|still|do|does|are|is|have|has|any\s?more)\b|\?", re.I)


def _elliptical(sentence: str, answered: bool = True) -> bool:
    """Whether ``sentence`` opens on a negation of the present that leaves its predicate
    to the question answered: "Haven't been in ages", "Haven't played for months", "None
    for me these days" (nothing but the negation, one verb without its object, and the
    span). ``answered``: the question is the other speaker's, whose "No" and "Not ..."
    answers ``answered.py`` reads."""
    first = _CLAUSES.split(sentence.strip(), maxsplit=1)[0]
    if not negated(first) or not now_span(first) or \
            answered and re.match(r"(?:no|not|nope)\b", first, re.I):
        return False
    # What the span counts from is no part of the predicate: "since my knee op".
    span = _NOW_SPAN.search(first)
    told = first[:span.start()] if span and span.start() > 0 else first
    rest = [w for w in re.findall(r"[a-z][a-z'-]*", _STRIP.sub(" ", told).lower())
            if w not in _WEAK and w not in TIMES and w not in ("i", "we")]
    return len(rest) <= 1       # a verb at most, its object left to the question


#: Words no bare topic holds: pronouns, auxiliaries and the question words (a topic is a
#: noun phrase put as a question: "Crisps?", "The allotment?", "Red meat?").
_NOT_TOPIC = frozenset("""i we you he she it they me us him them this that what who where
when why how which whose is are was were am do does did have has had can could will would
should may might must shall be been being not no yes yeah really ok okay right sure oh""".split())


def _topic(text: str, sentence: str) -> str | None:
    """The topic the speaker put as a bare question just before ``sentence`` in ``text``
    (their turn), to answer it themselves: "Crisps? None for me these days", "Meat?
    Haven't touched it in years" -> "Crisps", "Meat"; else None. The answer leaves its
    predicate to the topic, as an answer to the other speaker's question leaves it to
    the question."""
    return _topics(text).get(norm(sentence))


@lru_cache(maxsize=16)
def _topics(text: str) -> dict[str, str]:
    """Each sentence of ``text`` put right after a bare topic question (its normal form)
    and that topic. Read once per turn: asked per sentence, a long turn would be split
    once for each of its sentences."""
    parts = list(split_sentences(text))
    topics: dict[str, str] = {}
    for before, part in zip(parts, parts[1:], strict=False):
        words = re.findall(r"[\w'-]+", before)
        if before.rstrip().endswith("?") and 1 <= len(words) <= 4 and \
                not {w.lower() for w in words} & _NOT_TOPIC:
            topics.setdefault(norm(clean(part)), before.rstrip(" ?"))
    return topics


def _nearest_affirmed(text: str, pool: Pool, who: str, skip: Sequence[str]) -> Memory | None:
    """The speaker's one-fact memory, affirmed, clearly nearest ``text`` by meaning."""
    embedder = pool.embedder()
    if embedder is None:
        return None
    try:
        mine = [m for m in pool.nearest(text, 10) if m["id"] not in skip and _one_fact(m, who)]
        if not mine:
            return None
        closest, best, second = nearest_attribute(text, mine, who, embedder.embed)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    held = first_person(closest["content"], who)[0]
    return closest if best >= POLAR_MIN and best - second >= POLAR_MARGIN and \
        not negated(held) else None


def _one_fact(memory: Memory, who: str, holder: str = "") -> bool:
    """Whether ``memory`` is one present fact of the speaker's own (of ``holder``'s, a
    person of the speaker's, when given)."""
    said = first_person(memory["content"], who)
    return len(said) == 1 and len(said[0].split()) <= FACT_WORDS and not is_event(said[0]) \
        and not ENDING.search(said[0]) and not NOT_NOW.search(said[0]) and \
        same_holder(memory_holder(said[0]), holder)
