"""The rule evaluator: the subconscious without a network (the default, and the fallback).

Keyed sentence rules (``rules.py``: facts, preferences, procedures, corrections, forgets),
change statements (``change_statements.py``, with the cues of ``updates.py``: what makes a
stored memory stale) and episodes
(``episodes.py``: what a speaker tells about themselves) over the user's new turns,
decided against the pool.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from .afterwards import one_replacement
from .answered import answered
from .elided import elided
from .held_things import held_things
from .implicit import held, owned
from .inverted import inverted
from .dates import iso, occurred_at, parse_session_date
from .decide import decide, keyed_target, same_turn
from .decisions import WRITES, Decision, Pool
from .change_statements import changes as find_changes
from .episodes import episode, is_english, kin
from .follow import continued
from .framed import framed
from .lasting import awaited_in
from .fragments import completed, told_alone, told_plainly, writes_nothing
from .said_plainly import restated
from .valued import valued
from .wondered import wondered   # a frame of surprise: its news (``wondered.py``)
from .observation import Observation
from .readable import MAX_SENTENCE, MAX_SENTENCES, readable
from .referent import referred
from .bare import bare_opening
from .brief import told_briefly
from .kind_told import told_by_kind
from .begun import results as begun_results
from .change_done import told_done
from .mine_told import mine_written
from .spoken import clean as written
from .restated import as_attribute, job_moved
from .rules import Candidate, clean, extract, norm
from .cleaning import carried, unmoved
from .sentences import split_sentences, untag
from .offers import listener
from .meaning import SIMILAR_WORDS
from .present_value import present_value
from .lasted import spared

__all__ = ["RuleEvaluator", "SIMILAR_WORDS"]

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
        # What the pool holds, read once: every turn reads against the same memories.
        mems = [m["content"] for m in pool.memories()] if pool is not None else []
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
                framed(answered(elided(turn.content, asked), asked), asked, mems, who)
                if observation.answers_question(i) else turn.content))))))
            # A thing of the speaker's told without its owner as a value ("Rent's £1,050
            # now", "The car's a Kia now"): "My rent is ...", where the rules read nothing.
            text = mine_written(text, partial(_reads, who=who))
            # A verbless fragment ("Favourite film? Paddington 2", "On days now"): said
            # whole, from its topic or the memory it answers (``fragments.py``).
            text = completed(text, mems, who, pool.embedder() if pool is not None else None)
            # What the speaker is, its "I am" left out ("Cubs leader now"), and a cleft of
            # their value ("It's green tea I drink now"): said plainly (``said_plainly``).
            if not observation.answers_question(i):
                text = restated(text, who, writes_nothing)
            keyed = extract(text, i, who,
                            answers_question=observation.answers_question(i),
                            replies=observation.replies(i),
                            listener=listener(observation.others(i)))
            if pool is not None:    # a move to an organisation is a job, not a home
                keyed = [job_moved(c, who, pool) for c in keyed]
            strong = [c for c in keyed if not c.loose or pool is not None and
                      keyed_target(c, pool, who) is not None]
            changes = find_changes(text, strong, i, who, observation, pool) \
                if pool is not None else []
            # A change statement tells its sentence whole: a loose statement read in it
            # ("I cycle to work now instead of ...") is in it.
            said = [norm(c.source) for c in changes]
            # As the episodes read it too, contractions written out ("They've moved me
            # ..." is "They have moved me ..."): a change told is not told twice.
            said += [w for c in changes if (w := norm(written(c.source, None)[0])) not in said]
            # ... and as the sentence said it, its word of the present first (``cleaning``).
            said += [first for one in said if (first := unmoved(one)) != one]
            keyed = [c for c in keyed if c in strong or
                     not any(norm(c.source) in s for s in said)]
            having = held(mems, who)
            theirs = kin(mems, who) | having    # the names of their people, things
            # ... and their things as told with "the" ("the hens" of "keeps hens")
            things = held_things(mems, who) | having
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
                           held=things, loose=loose)
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
                               kin=theirs, held=things, loose=loose)
            tastes = [c for c in keyed if c not in strong and c.category == "preference"]
            if told is not None and tastes and told.when is not None:
                # One fact per memory: a taste is not part of a dated event ("... last
                # Friday. I can't stand cilantro" would date the taste too).
                strong += tastes
                told = episode(text, who, addressee=observation.others(i),
                               consumed=[norm(c.source) for c in strong] + said,
                               kin=theirs, held=things, loose=loose)
            for _ in range(2):
                if told is None or (opening := bare_opening(told)) is None:
                    break
                # Opening on a pronoun that names nothing found (``bare.py``): without it.
                said.append(opening)
                told = episode(text, who, addressee=observation.others(i),
                               consumed=[norm(c.source) for c in strong] + said,
                               kin=theirs, held=things, loose=loose)
            if told is None:
                more = continued(observation, i, pool, theirs) \
                    if pool is not None and not keyed and not changes else None
                # Nothing else told, unprompted: a fragment naming a value, or a statement
                # of an attribute the speaker has a memory of, kept as said (``fragments``).
                alone = (told_alone(text, who, observation.others(i)) or
                         told_plainly(text, who, observation.others(i), mems,
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
                        (brief := told_briefly(text, who, observation.others(i), mems,
                                               pool.embedder())) is not None:
                    # A brief statement of the speaker's present (``brief.py``): told, as
                    # an episode is, so that it may replace the value it tells anew.
                    more = Candidate("fact", brief[0], None, i, "episode", source=brief[1])
                elif not keyed and not changes and more is None and pool is not None and \
                        not observation.answers_question(i) and \
                        (kinded := told_by_kind(text, who, observation.others(i), mems)):
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
        single-valued attribute a present value supersedes it (``present_value.py``), but
        but for an age beside a span counted up to now ("running for 20 years now",
        ``lasted.py``)."""
        return present_value(decide(cand, obs, pool, type(self)), cand.source, pool,
                             obs.speaker(cand.turn), same_turn(pool, obs.window(cand.turn)) +
                             spared(cand.source, pool.memories()))


def _reads(said: str, who: str) -> bool:
    """Whether the keyed rules find a statement in ``said`` as it is."""
    return bool(extract(said, 0, who))
