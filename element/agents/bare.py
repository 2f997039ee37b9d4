"""A memory does not open on an "it" its reader cannot place: "It really helps Ana reset
and recharge" (what helps?). When what the pronoun names is nowhere to be found
(``referent.py`` found none), the sentence is left out of the turn's memory and the memory
opens on the next one the turn tells ("Ana loves camping trips with their family ..."); a
turn that says nothing else stores nothing of its own (it may still go on about the
speaker's previous memory: ``follow.py``).

Bare: "it" as the subject; not "it" before what it is ("It was an awesome day at the park
with my family", "It is a symbol of togetherness": the sentence names its content) and not
"it" that opens a judgement of what follows ("It takes courage to ..."), which names
nothing to find. "They", "he", "she" and a demonstrative alone were tried too: a "they"
that names nothing found still opens memories that match LoCoMo's facts, and "This is my
prized possession, ..." names it. LoCoMo (``observe_bench.py --hashing-store``), with
``referent.py``: 0-2 .609/.783 -> .607/.784, 3-4 .610/.717 the same; with they/he/she and
demonstratives: .606/.785, .606/.718. Pure functions.
"""

from __future__ import annotations

import re

from .episodes import Episode
from .rules import norm

__all__ = ["bare_opening"]

#: A sentence opening on "it" as its subject; not "it" before what it is, which names the
#: content itself ("It was an awesome day at the park with my family", "It is a symbol of
#: togetherness").
_BARE = re.compile(r"^it\b(?!\s+(?:and|&)\s+(?:I|me)\b)"
                   r"(?!\s+(?:is|was|has been|had been)\s+(?:(?:still|just|really|also)\s+)?"
                   r"(?:a|an|the|my|our|one)\b)", re.I)
#: "It" of a judgement to come: it names nothing ("It is so cool how ...", "It takes
#: courage to ...").
_JUDGEMENT = re.compile(r"^it\s+(?:is|was|has been|had been|feels|felt|seems|seemed|can be|"
                        r"would be|will be|takes|took)?\s*(?:(?:\w+ly|so|really|such|just|"
                        r"still|always|pretty|quite|kind of|a bit)\s+)*(?:[\w'-]+\s+){0,3}?"
                        r"(?:to|that|how|if|whether)\b", re.I)


#: "It" of a clarification: "It is not like I don't enjoy it, I just ...", "it isn't as if
#: we're unhappy": a denial of what follows, naming nothing to find (as "It is not that").
_DENIAL = re.compile(r"^it\s+(?:is|was)\s+not\s+(?:like|as\s+if|as\s+though)\s+(?:I|we)\b", re.I)


def bare_opening(told: Episode) -> str | None:
    """The opening sentence of ``told`` (as ``rules.norm`` gives it) when it opens on a bare
    pronoun: the memory is told again without it. None when it opens on something named."""
    first = told.sentences[0].strip() if told.sentences else ""
    if not _BARE.match(first) or _JUDGEMENT.match(first) or _DENIAL.match(first):
        return None
    return norm(first) or None
