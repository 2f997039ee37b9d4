"""What the speaker does in a sentence, as the episode reader (``episodes.py``) weighs it:
whether they act in it ("I joined", "we are moving", "I've been to Rome") rather than feel
or judge ("I am so proud"), a habit told by its verb alone ("I vape"), and news told as
done ("We made pizza"). Pure functions over a cleaned sentence, English only."""

from __future__ import annotations

import re

from .episode_words import (
    ADVERBS as _ADVERBS,
    AMBIGUOUS_PAST as _AMBIGUOUS_PAST,
    GENERIC as _GENERIC,
    PARTICIPLES as _PARTICIPLES,
    PAST as _PAST,
    STOP as _STOP,
    ends_as_ing,
)
from .facts import NOT_HABITS
from .habits import PRESENT_ED

__all__ = ["acts", "habit_verb", "done"]

#: A habit told by its verb alone ("I vape", "I knit now", "We still smoke").
_ONE_VERB = re.compile(r"^(?:I|[Ww]e)\s+(?:(?:usually|still|now|also|mostly|only|sometimes|often|"
                       r"regularly|occasionally)\s+)?(?P<v>[a-z]{3,})(?:\s+(?:now|these days|"
                       r"again|too|daily|every day|a lot|regularly|sometimes|occasionally))?$")


def habit_verb(text: str) -> bool:
    """Whether ``text`` is a habit told by its verb alone (``_ONE_VERB``): a verb no rule
    reads as thinking, feeling or talking (``facts.NOT_HABITS``), not a word of reaction,
    a past form or an adverb ("I agree", "I guess", "I did", "I totally")."""
    m = _ONE_VERB.match(text)
    if m is None:
        return False
    verb = m["v"]
    return verb not in NOT_HABITS and verb not in _STOP and verb not in _GENERIC and \
        verb not in _PAST and verb not in _PARTICIPLES and verb not in _ADVERBS and \
        not verb.endswith("ly") and not ends_as_ing(verb) and \
        (not verb.endswith("ed") or verb in PRESENT_ED)     # "I breed": no past


#: Past forms that tell no act: being, having, feeling, thinking, missing.
_NOT_ACTS = frozenset({"was", "were", "did", "had", "felt", "thought", "knew", "meant"})


def acts(text: str) -> bool:
    """Whether the speaker does, did or plans something ("I joined", "we are moving", "I am
    off to bake", "I've been to Rome"), as opposed to feeling or judging ("I am so proud")."""
    if _BEEN_TO.search(text):
        return True
    for m in _ACTION.finditer(text):
        aux = (m.group(1) or "").lower()
        verb = m.group(2).lower()
        if verb.endswith("ing") and len(verb) > 4 or verb in ("off", "going") or \
                aux in ("will", "might", "may", "had to") and \
                verb not in ("be", "never", "always", "not", "have", "well", "say", "admit"):
            return True
        if aux in ("", "have", "has", "had") and _past_act(verb) or \
                aux in ("have", "has", "had") and (
                    verb in _DONE or verb in _AMBIGUOUS_PAST and _PARTICLE.match(text[m.end():])
                ) and not _BECOME.match(text[m.end():]):
            return True
    return False


def _past_act(verb: str) -> bool:
    return verb in _PAST - _NOT_ACTS or verb.endswith("ed") and verb not in _PARTICIPLES


#: Past participles that are no past form ("I have given up meat", "I've gone back to uni",
#: "we have taken on a dog"): after "have", an act done; so is a phrasal verb of a form
#: with its past ("I have set up my own business", "I've cut out sugar"; ``_PARTICLE``).
_DONE = frozenset("""
gone given taken begun written driven eaten flown grown broken chosen spoken stolen ridden
risen shown thrown worn torn beaten hidden forgotten frozen swum sung drunk
""".split())
_PARTICLE = re.compile(r"\s+(?:up|out|off|down|back|in|on|away)\b", re.I)
#: A state after such a participle ("I have grown fond of them", "it has gone quiet"):
#: becoming, no act.
_BECOME = re.compile(r"\s+(?:\w+ly\s+|so\s+|very\s+|quite\s+)*(?:fond|tired|used|close|"
                     r"accustomed|attached|quiet|silent|numb|cold|bad|sick|weary|mad|crazy|"
                     r"soft|stale|wrong)\b", re.I)


#: A place the speaker has been to ("I have been only to Rome once"): a trip, done.
_BEEN_TO = re.compile(r"\b(?:I|we)\s+(?:have|had)\s+(?:\w+\s+)?been\s+(?:\w+\s+)?to\s+(?!be\b)",
                      re.I)
_ACTION = re.compile(r"\b(?:I|we)(?:\s+(?:" + "|".join(sorted(_ADVERBS, key=len, reverse=True))
                     + r"))*\s+(?:(am|are|was|were|have been|had been|had to|have|has|had|"
                     r"will be|will|might|may)\s+)?"
                     r"(?:(?:just|also|still|finally|recently|really|now)\s+)?([A-Za-z']+)", re.I)
#: A frame that announces news rather than telling it ("I got some great news to share").
_NEWS_FRAME = re.compile(r"\b(?:news|update|something|anything|to share|to tell)\b", re.I)


def done(sentence: str) -> bool:
    """Whether ``sentence`` opens on the speaker's past act, with no auxiliary ("We made
    pizza", "I got a puppy"; not "I missed it", "I got some news to share"): news told as
    done."""
    m = _ACTION.match(sentence)
    if m is None or m.group(1) or _NEWS_FRAME.search(sentence):
        return False
    verb = m.group(2).lower()
    return verb != "missed" and _past_act(verb)
