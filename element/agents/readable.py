"""What the rules read of an observe: sentences of a bounded length, and a bounded number
of them, the last ones (issue 26's bounded work, hardening).

The rules are hundreds of regular expressions, most read per sentence, some per turn.
People chat in sentences of tens of words (LoCoMo's longest, of 8,276: 177 characters), but
a turn may hold 16,000 characters with no sentence end ("x" * 16,000, a pasted log), and an
observe 200 such turns. A pattern whose cost grows with the square of its text then holds a
core for seconds, and reading a thousand short sentences a turn, for 200 turns, for minutes.
So the rules read:

- no sentence longer than :data:`MAX_SENTENCE` characters or :data:`MAX_WORDS` words, no
  statement a person makes in chat, whole: a longer one (a voice transcript with no stops,
  a run-on paragraph) is cut at its clauses (a comma, a semicolon, a dash, "and", "but",
  "so" ...) into pieces of up to :data:`PIECE` characters, read as sentences; a part with
  no such cut within ``MAX_SENTENCE`` (a pasted log, a word of 16,000 letters) is left
  out;
- at most :data:`MAX_SENTENCES` sentences of the fresh user turns, the last ones, as
  ``MAX_STATEMENTS`` keeps the last statements (a later statement supersedes an earlier
  one): earlier turns are read as already heard, and a turn cut across keeps its last
  sentences.

An observe within both bounds is read untouched (the same object). What is left out is
counted, and the evaluator says so in a "nothing" decision.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace

from .observation import Observation, Turn
from .sentences import MAX_WORDS, split_sentences

__all__ = ["MAX_SENTENCE", "MAX_SENTENCES", "MAX_WORDS", "PIECE", "pieces", "readable"]

#: The longest sentence the rules read, in characters (five times the longest of LoCoMo's).
MAX_SENTENCE = 1000
#: The most sentences the rules read of one observe (a LoCoMo session sent whole: ~60).
MAX_SENTENCES = 200
#: The longest piece an over-long sentence is packed into, of whole clauses: a sentence of
#: chat, two or three clauses (longer pieces are read as one story, and their facts are
#: kept as one memory; a clause alone loses the neighbour that says whose it is).
PIECE = 120

#: Where an over-long sentence may be cut: after a comma, semicolon or colon, around a
#: dash, or before a conjunction opening a clause in speech run on without stops ("... last
#: month and I started at a bakery"). Each match is read from one position (a mark, or a
#: space before a word): no run is read twice.
_CUT = re.compile(r"(?<=[,;:])\s|\s[-\u2013\u2014]+(?=\s)|"
                  r"\s(?=(?:and|but|so|then|because|though|although|anyway)\s)", re.I)

_OPENING = re.compile(r"^(?:and|but|so|then|because|though|although|anyway)\s+", re.I)


def pieces(sentence: str) -> Iterator[str]:
    """``sentence`` as the rules read it: itself if short enough, else its clauses packed in
    order into pieces of at most :data:`PIECE` characters (a clause longer than that is a
    piece alone, up to :data:`MAX_SENTENCE`; longer ones are left out)."""
    if len(sentence) <= MAX_SENTENCE and len(sentence.split(None, MAX_WORDS)) <= MAX_WORDS:
        yield sentence
        return
    cuts = [0, *(m.start() for m in _CUT.finditer(sentence)), len(sentence)]
    start = 0
    for before, cut in itertools.pairwise(cuts):
        if cut - start > PIECE and before > start:
            yield from _readable_part(sentence[start:before])
            start = before
    yield from _readable_part(sentence[start:])


def _readable_part(text: str) -> Iterator[str]:
    # (a piece cut before "and" reads as a sentence of its own, not a continuation)
    part = _OPENING.sub("", text.strip(" \t,;:-\u2013\u2014"))
    if part and len(part) <= MAX_SENTENCE:
        yield part


def readable(observation: Observation) -> tuple[Observation, int]:
    """``observation`` as the rules read it, and how many sentences (or pieces of one) were
    left out."""
    turns = list(observation.turns)
    fresh = [observation.is_fresh(i) for i in range(len(turns))]
    budget, left_out, changed = MAX_SENTENCES, 0, False
    for i in reversed(range(len(turns))):
        turn = turns[i]
        if turn.role != "user" or not fresh[i]:
            continue
        sentences = list(split_sentences(turn.content))
        cut = [list(pieces(s)) for s in sentences]
        read = [p for parts in cut for p in parts]
        kept = read[-budget:] if budget else []
        left_out += sum(1 for parts in cut if not parts) + len(read) - len(kept)
        budget -= len(kept)
        if not kept and sentences:
            fresh[i], changed = False, True     # nothing of it read: as if heard before
        elif kept != sentences:
            turns[i], changed = Turn(turn.role, "\n".join(kept), turn.name, turn.id), True
    if not changed:
        return observation, 0
    return replace(observation, turns=tuple(turns), fresh=tuple(fresh)), left_out
