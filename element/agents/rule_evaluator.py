"""The rule evaluator: the subconscious without a network (the default, and the fallback).

Keyed sentence rules (``rules.py``: facts, preferences, procedures, corrections, forgets),
change statements (``updates.py``: what makes a stored memory stale) and episodes
(``episodes.py``: what a speaker tells about themselves) over the user's new turns,
decided against the pool.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import partial

from .ages import birthday_change
from .afterwards import new_after_ending, one_replacement
from .answered import answered
from .elided import elided
from .implicit import held, owned
from .inverted import inverted
from .dates import iso, occurred_at, parse_session_date
from .decide import decide, keyed_target, same_turn
from .decisions import WRITES, Decision, Pool
from .choice import beside_ending, choice_change
from .ending_grammar import long_past_ending
from .endings import ending_change
from .told_ended import event_change
from .unnamed_ending import unnamed_change
from .antecedent import antecedent_change
from .episodes import episode, is_english, kin, tell
from .follow import continued
from .continued import undertaking
from .framed import framed
from .lasting import awaited_in
from .fragments import completed, told_alone, told_plainly
from .valued import valued
from .wondered import wondered   # a frame of surprise: its news (``wondered.py``)
from .observation import Observation
from .readable import MAX_SENTENCE, MAX_SENTENCES, readable
from .polarity import ends_another, opposite_change
from .aided import aided
from .ours import ours
from .own_clause import own_clause, without_possessor
from .reported import reported
from .referent import referred
from .bare import bare_opening
from .brief import told_briefly
from .kind_told import told_by_kind
from .begun import results as begun_results
from .undergone import undergone
from .change_done import told_done
from .mine_told import mine_written
from .spoken import clean as written
from .restated import as_attribute, introduced, job_moved, restated
from .relation import provider_target
from .name_frame import chosen_change
from .role import role_target
from .role_noun import role_change
from .theirs import done_to_theirs
from .stale import change_target, one_more_new, short_now
from .rules import Candidate, clean, extract, norm, statements
from .cleaning import carried, unmarked, unmoved
from .sentences import split_sentences, untag
from .named import named_change
from .offers import listener
from .meaning import SIMILAR_WORDS, by_meaning, clauses
from .profile import values
from .present_value import present_value
from .parts import part_of_thing, part_taken_off
from .together import together
from .slots import HIRED, PEOPLE, owner, single_slot
from .holders import UNKNOWN, holder_of
from .holding import kept_named
from .updates import MAY_CHANGE, is_event, signals

__all__ = ["RuleEvaluator", "SIMILAR_WORDS"]

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


def _when(cand: Candidate, decision: Decision, observation: Observation,
          pool: Pool) -> str | None:
    """When what ``cand`` tells happened (``dates.occurred_at``): for a supersede or a
    retire, when the old memory stopped holding, so not before it was said to hold: "I
    quit smoking three months ago" after "I smoke a pack a day" told five weeks ago
    contradicts the older statement's time, and the change is dated when it was told (the
    session), so that ``as_of`` between the two answers the older one."""
    when = occurred_at(cand.source, observation.session_date)
    if decision.action in ("supersede", "retire") and when is not None and \
            observation.session_date is not None:
        old = pool.holds(decision.memory_id) or {}
        began = parse_session_date(old.get("valid_from") or old.get("occurred_at"))
        if began is not None and when <= began:
            when = observation.session_date
    return iso(when) if when else None


# -- the rule evaluator -----------------------------------------------------------------------

#: Statements one observe reads (the last ones: a later statement supersedes an earlier
#: one). Each is decided against the pool and may write; thousands in one request cost a
#: minute of CPU (issue 26). What is left out is said in a "nothing" decision.
MAX_STATEMENTS = 64


class RuleEvaluator:
    """Pattern rules over the user's turns (:func:`extract`); needs no network.

    Candidates come from user turns only, in order; of several candidates with one key the
    last wins (the earlier ones are "superseded by a later statement"). A keyed candidate
    supersedes the pool's memory of the same attribute (``updates.py``: a single-valued
    one always, another only with a change cue, never with an addition cue) or is a
    duplicate of it; a change statement supersedes the memory it makes stale; a
    statement that something no longer holds retires its memory. Otherwise a candidate is
    added unless the same content is stored. A correction without a key revises the memory
    closest to what was corrected (the previous assistant turn); a "forget" without a key
    deletes the closest memory, if one is close enough (``SIMILAR_MIN``).
    """

    name = "rules"

    def __init__(self) -> None:
        # The candidates of the last observation read: the pipeline asks for the texts to
        # embed before it asks for decisions, and the rules need not run twice.
        self._read: tuple[Observation, list[Candidate], list[int]] | None = None
        self._left_out = 0
        # What the rules read of the last observation (``readable``: bounded sentences,
        # a bounded number of them) and how many sentences it left out; the same object
        # while the same observation is asked about.
        self._readable: tuple[Observation, Observation, int] | None = None

    def lane_texts(self, observation: Observation, pool: Pool) -> list[list[str]]:
        """Per write ``observation`` will likely make, the texts it embeds (content,
        context, intention; "" for a lane without text), so the pipeline can embed them all
        in one model call. A candidate stored word for word, superseded, a retire or a
        forget writes nothing: left out."""
        observation = self._read_of(observation)
        found, _ = self._candidates(observation, pool)
        last = {c.key: i for i, c in enumerate(found) if c.key}
        writes: list[list[str]] = []
        for i, cand in enumerate(found):
            if cand.kind in ("forget", "retire") or cand.key and last[cand.key] != i or \
                    pool.by_content(cand.content) is not None:
                continue
            writes.append([as_attribute(cand, observation.speaker(cand.turn), ""),
                           observation.window(cand.turn) or "",
                           observation.goal(cand.turn) or ""])
        return writes

    def _read_of(self, observation: Observation) -> Observation:
        if self._readable is None or self._readable[0] is not observation:
            self._readable = (observation, *readable(observation))
        return self._readable[1]

    def _candidates(self, observation: Observation,
                    pool: Pool | None) -> tuple[list[Candidate], list[int]]:
        if self._read is None or self._read[0] is not observation:
            found, skipped = self.candidates(observation, pool)
            self._left_out = max(0, len(found) - MAX_STATEMENTS)
            self._read = (observation, found[self._left_out:], skipped)
        return self._read[1], self._read[2]

    def candidates(self, observation: Observation, pool: Pool | None = None
                   ) -> tuple[list[Candidate], list[int]]:
        """The candidates of the fresh user turns, in order, and the turns skipped as not
        English. Each turn gives its keyed statements (``rules.extract``), its change
        statements (a sentence with a change cue that makes a memory of ``pool`` stale)
        and at most one episode of what else it tells (``episodes.episode``); a loose
        keyed statement (a preference, a possession, "my X is Y") of a turn that gives an
        episode is told in the episode instead, unless it updates a memory."""
        found: list[Candidate] = []
        skipped: list[int] = []
        for i, turn in enumerate(observation.turns):
            if turn.role != "user" or not observation.is_fresh(i):
                continue
            if not is_english(turn.content):
                skipped.append(i)
                continue
            who = observation.speaker(i)
            # An answer's ending pointing back at what was asked ("left there"): named;
            # the value told first ("Leeds is where I live now"): the plain statement.
            # A bare value and its time, the subject and verb left to the question
            # ("Samsung now, since May"): written in the question's frame (``elided``).
            # A thing told without its owner ("The new flat ..."): "my" (``implicit``).
            asked = observation.previous_assistant(i)
            # A value alone answering what the question asks of a memory ("Is the Astra
            # still going strong?" / "Kia Picanto these days"): in its frame (``framed``).
            # A value named, then the change that brought it ("Harrogate now, we moved in
            # June"): the change to the value (``valued``). A change told as a noun said to
            # be done ("The move to Leith went smoothly"): its plain statement said first
            # ("I moved to Leith.", ``change_done``).
            text = told_done(owned(awaited_in(inverted(wondered(valued(
                framed(answered(elided(turn.content, asked), asked), asked,
                       [m["content"] for m in pool.memories()] if pool is not None else [], who)
                if observation.answers_question(i) else turn.content))))))
            # A thing of the speaker's told without its owner as a value ("Rent's £1,050
            # now", "The car's a Kia now"): "My rent is ...", where the rules read nothing.
            text = mine_written(text, partial(_reads, who=who))
            # A verbless fragment ("Favourite film? Paddington 2", "On days now"): said
            # whole, from its topic or the memory it answers (``fragments.py``).
            text = completed(text, [m["content"] for m in pool.memories()] if pool else [],
                             who, pool.embedder() if pool is not None else None)
            keyed = extract(text, i, who,
                            answers_question=observation.answers_question(i),
                            replies=observation.replies(i),
                            listener=listener(observation.others(i)))
            if pool is not None:    # a move to an organisation is a job, not a home
                keyed = [job_moved(c, who, pool) for c in keyed]
            strong = [c for c in keyed if not c.loose or pool is not None and
                      keyed_target(c, pool, who) is not None]
            changes = self._changes(text, strong, i, who, observation, pool) \
                if pool is not None else []
            # A change statement tells its sentence whole: a loose statement read in it
            # ("I cycle to work now instead of ...") is in it.
            said = [norm(c.source) for c in changes]
            # As the episodes read it too, contractions written out ("They've moved me
            # ..." is "They have moved me ..."): a change told is not told twice.
            said += [w for c in changes if (w := norm(written(c.source, None)[0])) not in said]
            said += [u for s in said if (u := unmoved(s)) != s]    # its "now" said first
            keyed = [c for c in keyed if c in strong or
                     not any(norm(c.source) in s for s in said)]
            mems = [m["content"] for m in pool.memories()] if pool else []
            theirs = kin(mems, who) | held(mems, who)   # the names of their people, things
            # A change read in a sentence's build undone ("I have sold the Fabia and I have
            # got a Zoe" of "Having sold the Fabia, ...") tells that sentence; of one
            # undone into two statements, only its own.
            if said:     # most turns change nothing: no sentence to undo again
                built = {norm(u[0]): norm(clean(untag(whole)[0]))
                         for whole in split_sentences(text)
                         if len(u := carried(whole) or []) == 1}
                said += [built[s] for s in said if s in built]
            loose = [norm(c.source) for c in keyed if c not in strong and c.source]
            told = episode(text, who, addressee=observation.others(i),
                           consumed=[norm(c.source) for c in strong] + said, kin=theirs,
                           loose=loose)
            # An opening "he", "they", "it" told by what it names (``referent.py``), unless
            # the turn only goes on about the speaker's previous one (``follow.py``).
            resolved = referred(text, asked if observation.replies(i) else None,
                                [who, *observation.others(i)])
            if resolved != text and not (
                    told is None and pool is not None and not keyed and not changes and
                    continued(observation, i, pool, theirs) is not None):
                text = resolved
                told = episode(text, who, addressee=observation.others(i),
                               consumed=[norm(c.source) for c in strong] + said,
                               kin=theirs, loose=loose)
            tastes = [c for c in keyed if c not in strong and c.category == "preference"]
            if told is not None and tastes and told.when is not None:
                # One fact per memory: a taste is not part of a dated event ("... last
                # Friday. I can't stand cilantro" would date the taste too).
                strong += tastes
                told = episode(text, who, addressee=observation.others(i),
                               consumed=[norm(c.source) for c in strong] + said,
                               kin=theirs, loose=loose)
            for _ in range(2):
                if told is None or (opening := bare_opening(told)) is None:
                    break
                # Opening on a pronoun that names nothing found (``bare.py``): without it.
                said.append(opening)
                told = episode(text, who, addressee=observation.others(i),
                               consumed=[norm(c.source) for c in strong] + said,
                               kin=theirs, loose=loose)
            if told is None:
                more = continued(observation, i, pool, theirs) \
                    if pool is not None and not keyed and not changes else None
                # Nothing else told, unprompted: a fragment naming a value, or a statement
                # of an attribute the speaker has a memory of, kept as said (``fragments``).
                alone = (told_alone(text, who, observation.others(i)) or
                         told_plainly(text, who, observation.others(i),
                                      [m["content"] for m in pool.memories()] if pool else [],
                                      pool.embedder() if pool is not None else None)) \
                    if not keyed and not changes and more is None and \
                    not observation.answers_question(i) else None
                if alone is not None:
                    # One telling an event whose result holds ("First lecture at Keele this
                    # morning", ``begun.py``): told as an episode is, so that it may replace
                    # the value it tells anew; else kept as said, replacing nothing.
                    more = Candidate("fact", alone[0], None, i,
                                     "episode" if begun_results(alone[1], who) else "add",
                                     source=alone[1])
                elif not keyed and not changes and more is None and pool is not None and \
                        (brief := told_briefly(text, who, observation.others(i),
                                               [m["content"] for m in pool.memories()],
                                               pool.embedder())) is not None:
                    # A brief statement of the speaker's present (``brief.py``): told, as
                    # an episode is, so that it may replace the value it tells anew.
                    more = Candidate("fact", brief[0], None, i, "episode", source=brief[1])
                elif not keyed and not changes and more is None and pool is not None and \
                        not observation.answers_question(i) and \
                        (kinded := told_by_kind(text, who, observation.others(i),
                                                [m["content"] for m in pool.memories()])):
                    # A statement whose held noun is of the kind a memory's value is
                    # ("it's decaf only" of "drinks espressos", ``kind_told.py``): told too.
                    more = Candidate("fact", kinded[0], None, i, "episode", source=kinded[1])
                found.extend(keyed + changes + ([more] if more else []))
                continue
            # A turn that tells more than a loose statement ("I love all dances, but ...")
            # is one memory: split, its parts would each say less than the whole.
            found.extend(strong + changes)
            found.append(Candidate(told.category, told.content, None, i, "episode",
                                   source=" ".join(told.sentences)))
        return found, skipped

    def _changes(self, text: str, keyed: list[Candidate], turn: int, who: str,
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
        for units, read in [*self._units(text, said), *beside_ending(keyed)]:
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
                    found = self._found(sentence, turn, who, observation, pool, taken,
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

    def _found(self, sentence: str, turn: int, who: str, observation: Observation,
               pool: Pool, taken: list[str], partial: bool, after_end: bool,
               read: list[str]) -> Candidate | None:
        """One sentence's change by the finders in turn: the cue lists first (they restate
        the new value as its attribute's own statement), then the old value named as
        ended in words they lack, then by meaning."""
        found = self._change(sentence, turn, who, observation, pool, taken, partial,
                             after_end)
        if found is None or found.target is None:
            found = named_change(sentence, pool, who, turn, observation, taken) or \
                birthday_change(sentence, pool, who, turn, observation, taken) or \
                role_change(sentence, pool, who, turn, observation, taken) or \
                chosen_change(sentence, pool, who, turn, observation, taken) or found
        if found is None or found.target is None:
            found = self._now_clause(sentence, turn, who, observation, pool, taken) or found
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

    def _change(self, sentence: str, turn: int, who: str, observation: Observation,
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
        if sig.holder and not owner(sentence):
            sig = replace(sig, holder="")   # "our broadband provider is now ..."
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

    def _now_clause(self, sentence: str, turn: int, who: str, observation: Observation,
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
            found = self._change(clause, turn, who, observation, pool, taken, False, False)
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

    @staticmethod
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

    def evaluate(self, observation: Observation, pool: Pool) -> Iterator[Decision]:
        observation = self._read_of(observation)
        found, skipped = self._candidates(observation, pool)
        for i in skipped:
            yield Decision("nothing", f"turn {i} skipped: not English (the rules read English "
                           "only)")
        if self._left_out:
            yield Decision("nothing", f"{self._left_out} earlier statements left out: one "
                           f"observe reads at most {MAX_STATEMENTS}")
        if self._readable is not None and self._readable[2]:
            yield Decision("nothing", f"sentences left out: {self._readable[2]} (the rules "
                           f"read at most {MAX_SENTENCES} of one observe, the last ones, none "
                           f"over {MAX_SENTENCE} characters)")
        if not found:
            if not skipped:
                yield Decision("nothing", "no memory-worthy content in the turns")
            return
        last = {c.key: i for i, c in enumerate(found) if c.key}
        turn: list[tuple[Candidate, Decision]] = []
        for i, cand in enumerate(found):
            if turn and turn[-1][0].turn != cand.turn:
                yield from self._told(turn, observation, pool)
                turn = []
            if cand.key and last[cand.key] != i:
                decision = Decision("nothing", "superseded by a later statement in the same "
                                    "turns", category=cand.category)
            else:
                decision = self.decide(cand, observation, pool)
            if decision.action in WRITES or decision.action == "retire":
                decision.occurred_at = _when(cand, decision, observation, pool)
            turn.append((cand, decision))
        yield from self._told(turn, observation, pool)

    @staticmethod
    def _told(turn: list[tuple[Candidate, Decision]], observation: Observation,
              pool: Pool) -> Iterator[Decision]:
        """One turn's decisions, its supersedes of one memory told as one."""
        if turn:
            at = turn[0][0].turn
            yield from (d for _, d in one_replacement(turn, observation.turns[at].content,
                                                      pool, observation.speaker(at)))

    def decide(self, cand: Candidate, obs: Observation, pool: Pool) -> Decision:
        """What to do with one candidate (``decide.py``); a new fact giving a remembered
        single-valued attribute a present value supersedes it (``present_value.py``)."""
        return present_value(decide(cand, obs, pool, type(self)), cand.source, pool,
                             obs.speaker(cand.turn), same_turn(pool, obs.window(cand.turn)))


def _reads(said: str, who: str) -> bool:
    """Whether the keyed rules find a statement in ``said`` as it is."""
    return bool(extract(said, 0, who))
