"""An appraisal of what the other person just shared ("Wow, that looks amazing!", "Looks
great!") and praise of a detail of it after one ("I love the color and texture"): a reaction
to their turn, not the speaker's news or taste. Pure functions, English only; split from
``spoken.py``."""

from __future__ import annotations

import re

from .episode_words import GENERIC as _GENERIC
from .spoken import APOS, LEAD as _LEAD, drop_address

__all__ = ["appraises", "praises_shown"]


#: An appraisal of something the other person just shared ("Wow, that looks amazing!",
#: "Looks great!", "It's so cute!", "that photo's gorgeous!"): a deictic subject (or
#: none) and a word of reaction (``GENERIC``).
_APPRAISAL = re.compile(r"^(?:(?:that|this|it|these|those)(?:\s+(?!(?:is|are|looks?|sounds?|"
                        r"seems?)\b)\w+)?(?:'s|\s+is|\s+are|\s+looks?|\s+sounds?|\s+seems?)|"
                        r"looks?|sounds?)\s+(?:(?:\w+ly|so|really|just|very|pretty|super)\s+)*"
                        r"(?P<adj>[a-z]+)$", re.I)
#: A taste for a detail of it ("I love the color and texture", "I love the way the
#: frosting turned out", "I love how it came out"), or for the kind it is of, told by what
#: the kind does ("That sounds awesome. I love stories that tackle important issues").
_DETAIL = re.compile(r"^I\s+(?:(?:\w+ly|just|also|so)\s+)*(?:love|like|adore|dig)\s+"
                     r"(?:(?:all\s+)?(?:the|how)\b|[a-z]+s\s+(?:that|which|who|where)\b)",
                     re.I)


def appraises(raw: str) -> bool:
    """Whether a raw sentence appraises what the other person shared (``_APPRAISAL``)."""
    text = drop_address(_LEAD.sub("", raw.translate(APOS)).strip(" ,;:-~!.?"))
    # The other person's name, before or after it ("Ana, that's gorgeous", "..., Nate!").
    text = re.sub(r"^[A-Z][a-z]+,\s*|,\s*[A-Z][a-z]+$", "", text.strip(" !.?"))
    m = _APPRAISAL.match(text)
    return m is not None and m["adj"].lower() in _GENERIC


def praises_shown(cleaned: str, appraised: bool) -> bool:
    """Whether a cleaned sentence, after an appraisal in the same turn (``appraised``),
    likes a detail of the thing appraised ("That looks amazing! I love the color and
    texture"): praise of what the other person shared, not a taste of the speaker's; the
    thing itself is theirs, in their turn."""
    return appraised and _DETAIL.match(cleaned) is not None
