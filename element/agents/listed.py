"""A memory's names as a list of things held, the speaker's own name left out: "Maria's
boyfriend Jake and Maria got a place together" lists Jake beside the speaker, not two
things of the speaker's; "Jake and I broke up" ends the whole of it (``one_of_several``
reads a name listed beside another). A pure function over a text."""

from __future__ import annotations

import re

__all__ = ["others_listed"]


def others_listed(memory: str, who: str) -> str:
    """``memory`` with the speaker's name (``who``) written "I", which names no thing."""
    return re.sub(rf"\b{re.escape(who)}\b", "I", memory) if who else memory
