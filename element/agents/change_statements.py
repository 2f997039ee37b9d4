"""The change statements of a turn: the sentences that make a remembered value stale.

A keyed statement (``rules.extract``) says its attribute's new value in a shape a rule
reads; a change statement is any other sentence whose change cue, or whose present value,
makes a memory of the pool stale ("I left Google and joined Spotify", "Treated myself to a
Galaxy S24"). The finders are tried in turn (``_found``): the cue lists first, then the
old value named as ended in words they lack, then by meaning. Read for the rule evaluator
(``rule_evaluator.py``), which decides what each statement writes; kept apart from it so
that the reading of a turn and the finding of what it changes are each one concept.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from .ages import birthday_change
from .afterwards import new_after_ending
from .aided import aided
from .antecedent import antecedent_change
from .choice import beside_ending, choice_change
from .cleaning import carried, unmarked
from .continued import undertaking
from .decisions import Pool
from .ending_grammar import long_past_ending
from .endings import ending_change
from .episodes import tell
from .holders import UNKNOWN, holder_of
from .holding import kept_named
from .meaning import SIMILAR_WORDS, by_meaning, clauses
from .name_frame import chosen_change
from .named import named_change
from .observation import Observation
from .ours import ours
from .own_clause import own_clause, without_possessor
from .parts import part_of_thing, part_taken_off
from .passing import passing
from .person_subject import person_subject
from .polarity import ends_another, opposite_change
from .profile import values
from .relation import provider_target
from .reported import reported
from .restated import introduced, restated
from .role import role_target
from .role_noun import role_change
from .rules import Candidate, clean, norm, statements
from .sentences import split_sentences, untag
from .slots import HIRED, PEOPLE, owner, single_slot
from .stale import change_target, one_more_new, short_now
from .theirs import done_to_theirs
from .together import together
from .told_ended import event_change
from .undergone import undergone
from .unnamed_ending import unnamed_change
from .updates import MAY_CHANGE, is_event, signals

__all__ = ["changes"]

#: A change done to the speaker by someone else: the verbs of change, "me" their object.
_ACTED_ON = re.compile(r"\b(?:switched|changed|moved|relocated|transferred|swapped|"
                       r"promoted|put)\s+(?:me|us)\b(?!\s+(?:up|off|through)\b)|" + HIRED, re.I)

#: The same verbs done to a person of the speaker's ("we moved my son to St Anne's", "I've
#: switched our daughter to the afternoon class"): a change of that person's attribute.
_DONE_TO_KIN = re.compile(r"\b(?:switched|changed|moved|transferred|swapped)\s+(?:my|our)\s+"
                          r"(?P<kin>[a-z]+)\s+(?:to|into|over\s+to)\b", re.I)


def _plain_statement(sentence: str, event: bool = False) -> bool:
    """A short first-person statement of what holds, not of what happened ("I've got a
    Razr", "my youngest is two"; with ``event``, also of what happened): one that may give
    an attribute a new value without a change word (an event, only with a weak one: "We
    went to Lisbon" is a visit)."""
    return len(sentence.split()) <= SIMILAR_WORDS and (event or not is_event(sentence)) \
        and not sentence.rstrip().endswith("?")


def changes(text: str, keyed: list[Candidate], turn: int, who: str,
            observation: Observation, pool: Pool) -> list[Candidate]:
    """The turn's change statements: sentences no keyed statement of ``keyed`` read
    whose change cue makes a pool memory stale ("I left Google and joined Spotify",
    "I switched to a Pixel"). Each becomes its own memory superseding that one. Where a
    keyed statement read one clause of a sentence, the others are read alone: "I don't
    run anymore, I switched to cycling" retires the running and keeps the cycling (a
    change of the speaker's in such a clause is kept even when it replaces nothing:
    it is the new value)."""
    out: list[Candidate] = []
    said = [norm(c.source) for c in keyed if c.source]
    ended = [norm(c.source) for c in keyed if c.source and c.kind == "retire"]
    taken: list[str] = []
    before: int | None = None   # the previous sentence's change, told as said
    for units, read in [*_units(text, said), *beside_ending(keyed)]:
        partial = bool(read)
        # Beside a clause saying the old value ended ("I don't live in Boston anymore,
        # I'm in Austin now", "I don't surf anymore, I've taken up climbing"), the
        # speaker's other clause is the new value, with or without a cue.
        after_end = any(e and (e in norm(p) or norm(p) in e) for e in ended for p in read)
        for sentence in units:
            # What a finder means that the sentence cannot end ("I quit the tennis
            # club" and "member of the golf club") is skipped, and the next one meant
            # looked for once.
            blocked: list[str] = []
            for _ in range(2):
                found = _found(sentence, turn, who, observation, pool, taken,
                                    partial, after_end, read)
                if found is None or found.target is None or \
                        (held := pool.holds(found.target)) is None or \
                        not ends_another(sentence, held["content"], who):
                    break
                blocked.append(found.target)
                taken.append(found.target)
                found = None
            taken[:] = [t for t in taken if t not in blocked]
            if (found is None or found.target is None) and before is not None and \
                    (then := new_after_ending(out[before], sentence, pool, who, turn,
                                              observation)) is not None:
                out[before], before = then, None    # "... written off. I've been driving"
                continue
            before = None
            if found is not None:
                out.append(found)
                if found.target is not None and found.key is None:
                    before = len(out) - 1
    return out

def _found(sentence: str, turn: int, who: str, observation: Observation,
           pool: Pool, taken: list[str], partial: bool, after_end: bool,
           read: list[str]) -> Candidate | None:
    """One sentence's change by the finders in turn: the cue lists first (they restate
    the new value as its attribute's own statement), then the old value named as
    ended in words they lack, then by meaning."""
    if passing(sentence):
        return None     # a break, a request, a thing got for a purpose, one occasion
    found = _change(sentence, turn, who, observation, pool, taken, partial, after_end)
    if found is None or found.target is None:
        found = named_change(sentence, pool, who, turn, observation, taken) or \
            birthday_change(sentence, pool, who, turn, observation, taken) or \
            role_change(sentence, pool, who, turn, observation, taken) or \
            chosen_change(sentence, pool, who, turn, observation, taken) or found
    if found is None or found.target is None:
        found = _now_clause(sentence, turn, who, observation, pool, taken) or found
    if found is None or found.target is None:
        # The thing ended named in other words ("Done with coffee"): by meaning.
        found = ending_change(sentence, pool, who, turn, observation, taken) \
            or event_change(sentence, pool, who, turn, observation, taken) \
            or antecedent_change(sentence, pool, who, turn, observation, taken) \
            or unnamed_change(sentence, pool, who, turn, observation, taken) \
            or opposite_change(sentence, pool, who, turn, observation, taken) \
            or choice_change(sentence, pool, who, turn, observation, taken,
                             beside=read if after_end else ()) or found
    return found

def _change(sentence: str, turn: int, who: str, observation: Observation,
            pool: Pool, taken: list[str], partial: bool,
            after_end: bool) -> Candidate | None:
    """One sentence's change statement (``_changes``), or None."""
    # Without a change word, a short statement of what holds may still give a
    # single-valued attribute a new value ("Treated myself to a Galaxy S24"
    # after "I've got a Razr"): found by meaning only (``profile.py``).
    plain = not (after_end or MAY_CHANGE.search(sentence))
    if plain and not (_plain_statement(sentence) and values(sentence, who)) or \
            plain and undertaking(sentence):
        # (found by meaning only with a value named, ``profile.py``; a plan or a search
        # under way, "We're looking at houses in Frome", holds no value yet)
        return None
    if part_of_thing(sentence) or part_taken_off(sentence):
        return None     # the thing itself is held still: its part changes no value
    if long_past_ending(sentence):
        return None     # "gave up driving to work years ago": a past told in passing
    sig = signals(sentence)
    if one_more_new(sentence, sig):
        return None     # "Picked up our new kitten" beside the Labrador: one more
    person = person_subject(sentence)   # "our lodger's moved out to ...": theirs
    if sig.holder and not owner(sentence) and not person:
        sig = replace(sig, holder="")   # "our broadband provider is now ..."
    elif person and not sig.holder:
        sig = replace(sig, holder=person)
    if _ACTED_ON.search(sentence):
        # Another's act changing the speaker's ("They've relocated me to ...",
        # "my doctor switched me from ... to ..."): a change of the speaker's.
        sig = replace(sig, holder="", change=True, strong=True)
    # A weak cue ("started", "now") says a change of the speaker's too rarely
    # to look for it by similarity, unless the statement is short and of the
    # present ("I'm on day shifts now"); of another holder ("my daughter
    # started at ..."), only that holder's memories can be meant.
    cued = not plain and bool(
        sig.ended or sig.things or sig.strong or sig.change and sig.holder or
        short_now(sentence, sig) or after_end or
        sig.change and single_slot(sentence))
    if not sig.replaces or sig.holder == UNKNOWN or \
            not (cued or _plain_statement(sentence) or
                 sig.change and _plain_statement(sentence, event=True)):
        return None
    content = tell(sentence, who, observation.others(turn))
    if not content:
        return None
    # Done to a person of the speaker's: that person's attribute first.
    kin = _DONE_TO_KIN.search(sentence) if cued and not sig.holder else None
    target = change_target(sentence, content, replace(sig, holder=kin["kin"].lower()),
                           pool, who, taken) \
        if kin and kin["kin"].lower() in PEOPLE else None
    theirs = done_to_theirs(sentence, pool, who)     # theirs alone (``theirs.py``)
    if target is None and cued and not theirs:
        target = change_target(sentence, content, sig, pool, who, taken)
    # Else by meaning, the sentence naming no attribute a rule reads: told as
    # it was said.
    meant = target is None and not theirs and \
        (target := by_meaning(sentence, content, sig, pool, who, taken)) is not None
    if target is None and not sig.holder:
        # "I'm with Aldi now", "I've gone with Aviva this year".
        target = role_target(sentence, pool, who, taken) or \
            provider_target(sentence, pool.memories(), who, taken)
    key = None
    if target is not None:
        taken.append(target["id"])
        # Told as the attribute's own statement of the new value, when the
        # sentence names one: "I left Google and joined Spotify" replacing
        # "works at Google" is "works at Spotify".
        if not meant:
            key, content = restated(target, sentence, content, who,
                                     sig.holder)
        content = introduced(content, target["content"], who)
        if f"{who}'s family" in target["content"]:
            # "We" changing what the family had is the family.
            content = content.replace(f"{who} and others", f"{who}'s family")
    # A short statement of the speaker's present naming a value ("Got a Polo now")
    # replacing nothing found is still the speaker's news: kept, not dropped.
    if target is not None or partial and not sig.holder and \
            (sig.strong or after_end) or \
            not sig.holder and short_now(sentence, sig) and bool(values(content, who)):
        return Candidate("fact", content, key, turn, "change", source=sentence,
                         target=target["id"] if target else None)
    return None

def _now_clause(sentence: str, turn: int, who: str, observation: Observation,
                pool: Pool, taken: list[str]) -> Candidate | None:
    """A sentence of several clauses, one of them the speaker's statement of what holds
    now ("Deborah took early retirement, so I'm under Kwesi now", "the renewal was
    daylight robbery, so I've gone with Aviva this year"): that clause read as its own
    sentence finds the memory it replaces (its subject is the speaker's, whoever the
    sentence's first subject is); the sentence is told whole, the cause with it."""
    # So is the speaker's clause of reported speech ("The nurse told me I can't give
    # blood anymore": ``reported.py``), with or without "now".
    # And a change done to the speaker by another ("They've moved me to the Leeds
    # office": the speaker's own "I am at the Leeds office now", ``undergone.py``).
    # Each reading is tried in turn: one that finds nothing leaves the next its chance.
    # And the speaker's clause told with another as its subject ("My husband and I both
    # joined the David Lloyd": "I joined the David Lloyd", ``together.py``). (A clause
    # pointing back at a value, ``pointed.py``, is read as a present value only,
    # ``present_value``: read here as a change too, it superseded a control's fact on
    # an unseen set.)
    # And the speaker's clause said without the other person told beside it: whose
    # counsel or help it was, the cause told first, the possessor of the place ("On my
    # brother's advice I moved to First Direct", "I've been living at my mum's in
    # Wakefield": ``own_clause.py``); a place another's act put the speaker in is said
    # by its name too ("I am in her gym, the Village": "I am in the Village").
    inners = list(dict.fromkeys(said for said in (aided(sentence), reported(sentence),
                                                  undergone(sentence), ours(sentence),
                                                  together(sentence), own_clause(sentence))
                                if said))
    inners += [named for said in inners
               if (named := without_possessor(said)) != said and named not in inners]
    # A clause of the speaker's with a strong cue of change ("so I've moved in with him
    # in Swansea") is read too beside another's clause ("My dad's not well, ..."): in
    # a sentence of the speaker's own, the sentence whole was read already.
    # So is one whose cue the sentence whole lost to another clause's words of one
    # more or of no present ("I swapped to the trombone, and the band was glad of
    # another one").
    whole = signals(sentence)
    anothers = holder_of(sentence) != ""
    for clause in clauses(sentence) + inners:
        sig = signals(clause)
        lost = sig.replaces and not whole.replaces
        if not (sig.now or sig.strong and (anothers or lost) or clause in inners) or \
                holder_of(clause) != "":
            continue
        found = _change(clause, turn, who, observation, pool, taken, False, False)
        if found is None or found.target is None:
            continue
        if (held := pool.holds(found.target)) is not None and \
                kept_named(sentence, held, who):
            taken.remove(found.target)  # "The Yaris is off the road, so ...": kept
            continue
        if found.key is None and (content := tell(sentence, who, observation.others(turn))):
            return replace(found, content=content, source=sentence)
        return found
    return None

def _units(text: str, said: list[str]) -> Iterator[tuple[list[str], list[str]]]:
    """What of each statement sentence of ``text`` is left to read for a change: the
    whole sentence, or, where a keyed statement (``said``) read some of its clauses,
    the others (and the clauses read)."""
    by_sentence: dict[int, list[str]] = {}
    for index, clause, question in statements(text):
        if not question:
            by_sentence.setdefault(index, []).append(clause)
    whole = list(split_sentences(text))
    for index, parts in by_sentence.items():
        read = [p for p in parts if any(s and (s in norm(p) or norm(p) in s)
                                        for s in said)]
        if not read:
            # A sentence whose fact is in a clause of its build ("Having wrecked my
            # knee, I've switched to swimming"): that clause is read, not the whole.
            yield [unmarked(p) for p in
                   carried(whole[index]) or [clean(untag(whole[index])[0])]], []
        elif len(read) < len(parts):
            yield [p for p in parts if p not in read], read
