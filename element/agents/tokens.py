"""A token of holding a thing, and the thing it is held by.

People often end a thing by ending what they hold it by: "cancelled the direct debit for
the magazine" (a subscription), "handed back the keys to the flat" (a home), "our
membership card for the gym ran out" (a membership), "the lease on the studio ran out".
The token (a key, a lease, a debit, a card, a pass, a ticket, a contract) is no value of
its own: what ends is the thing named after it ("for the magazine", "to the flat", "on the
studio"), the held thing the speaker's memory tells. So the ending's thing is read as its
complement (:func:`held_through`), and the memory it ends is looked up by that.

Why it is general: a closed class of English nouns of holding (documents, payments and
keys that stand for a holding) and the prepositions that name what they are for; no
case, no benchmark, no name. Pure functions over texts.
"""

from __future__ import annotations

import re

__all__ = ["TOKENS", "held_through"]

#: Nouns that stand for holding a thing rather than name one: what one pays, signs or
#: carries to have it.
TOKENS = frozenset("""key keys fob lease tenancy contract agreement debit debits order orders
payment payments subscription subscriptions membership memberships card cards pass passes
ticket tickets permit permits licence license policy account deposit booking plan
""".split())

#: The token (its head the last word before the preposition), and what it is for.
_TOKEN_FOR = re.compile(r"^(?:(?:the|my|our)\s+)?(?:[\w'-]+\s+){0,2}?(?P<head>[\w'-]+)\s+"
                        r"(?:for|to|on|of|with|at)\s+(?P<x>(?:the|my|our|a|an)\s+.+|"
                        r"(?-i:[A-Z]).+)$", re.I)


def held_through(thing: str) -> str:
    """The thing ``thing`` is a token of holding, when it names one after its head
    ("the direct debit for the magazine" -> "the magazine", "the keys to the flat" ->
    "the flat"), else ""."""
    m = _TOKEN_FOR.match(thing.strip())
    if m is None or m["head"].lower() not in TOKENS:
        return ""
    return m["x"].strip(" .")
