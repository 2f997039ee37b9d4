"""What the rules read of an observe: sentences of a bounded length, and a bounded number
of them, the last ones (issue 26's bounded work, hardening).

The rules are hundreds of regular expressions, most read per sentence, some per turn.
People chat in sentences of tens of words (LoCoMo's longest, of 8,276: 177 characters), but
a turn may hold 16,000 characters with no sentence end ("x" * 16,000, a pasted log), and an
observe 200 such turns. A pattern whose cost grows with the square of its text then holds a
core for seconds, and reading a thousand short sentences a turn, for 200 turns, for minutes.
So the rules read:

- no sentence longer than :data:`MAX_SENTENCE` characters: no statement a person makes in
  chat (the rest of its turn is read as before);
- at most :data:`MAX_SENTENCES` sentences of the fresh user turns, the last ones, as
  ``MAX_STATEMENTS`` keeps the last statements (a later statement supersedes an earlier
  one): earlier turns are read as already heard, and a turn cut across keeps its last
  sentences.

An observe within both bounds is read untouched (the same object). What is left out is
counted, and the evaluator says so in a "nothing" decision.
"""

from __future__ import annotations

from dataclasses import replace

from .observation import Observation, Turn
from .sentences import split_sentences

__all__ = ["MAX_SENTENCE", "MAX_SENTENCES", "readable"]

#: The longest sentence the rules read, in characters (five times the longest of LoCoMo's).
MAX_SENTENCE = 1000
#: The most sentences the rules read of one observe (a LoCoMo session sent whole: ~60).
MAX_SENTENCES = 200


def readable(observation: Observation) -> tuple[Observation, int]:
    """``observation`` as the rules read it, and how many sentences were left out."""
    turns = list(observation.turns)
    fresh = [observation.is_fresh(i) for i in range(len(turns))]
    budget, left_out = MAX_SENTENCES, 0
    for i in reversed(range(len(turns))):
        turn = turns[i]
        if turn.role != "user" or not fresh[i]:
            continue
        sentences = list(split_sentences(turn.content))
        kept = [s for s in sentences if len(s) <= MAX_SENTENCE][-budget:] if budget else []
        left_out += len(sentences) - len(kept)
        budget -= len(kept)
        if not kept and sentences:
            fresh[i] = False        # nothing of it read: as if heard before
        elif len(kept) < len(sentences):
            turns[i] = Turn(turn.role, "\n".join(kept), turn.name, turn.id)
    if not left_out:
        return observation, 0
    return replace(observation, turns=tuple(turns), fresh=tuple(fresh)), left_out
