"""A query that names its person, read as the profile bank words it: with "they" (issue 23).

The profile bank's questions are about "they" ("Where do they live?", ``profile_bank.py``);
a query names its person ("Where does Ottilie live now?"), and a name the model has not
seen weighs on the query's vector as much as what it asks, so the attribute it asks is
read faintly, or not at all, or as another ("What is Horatio's job?" nearer a child's
question than the job's). Projecting the name's direction out (``unnamed.py``) helps a
little; the query said with "they" for the name is read as sharply as the bank's own
questions (.9 and more where it asks one). So :func:`they_query` makes that text, and
:func:`asked.asked_of` embeds and reads it only when the query's own reading asks nothing
clearly and the query without its name nears a single-valued attribute (``THEY_GATE``): a
second model call for those queries alone (8% of ``search_http_bench.py``'s questions;
p50 +5% there), its text often in the embedding cache. Embedding it in the query's batch
for every named query cost p50 +43% on this CPU: two texts in one call cost about what
two calls do.

Only the reading of what is asked changes: the ranking's scores are the query's own.
"""

from __future__ import annotations

import re

__all__ = ["they_query"]

#: An auxiliary right before the name, said of "they" as English says it ("Where does
#: Maria live?" -> "Where do they live?"): the bank's questions are in that grammar.
_AUX = {"does": "do", "is": "are", "was": "were", "has": "have", "doesn't": "don't",
        "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't", "did": "did",
        "do": "do", "are": "are", "can": "can", "will": "will", "would": "would",
        "could": "could", "should": "should", "might": "might"}
_AUXES = "|".join(re.escape(a) for a in sorted(_AUX, key=len, reverse=True))


def they_query(text: str, names: tuple[str, ...]) -> str | None:
    """``text`` with the first of its ``names`` (``names.query_names``) said where a
    person is the one asked of (an auxiliary's subject, or an owner) as "they" or "their"
    (an auxiliary before it agreeing): "What is Horatio's job?" -> "What is their job?",
    "Where does Ottilie live now?" -> "Where do they live now?". A name in no such place
    ("Which part of London does Bilal live in?": London) is passed over for the next;
    None when none is in such a place, or the text says nothing else."""
    for name in names:
        pattern = (rf"\b(?:({_AUXES})\s+)?{re.escape(name)}\b('s\b|’s\b|'(?=\s))?"
                   r"(?!\s+(?-i:[A-Z]))")
        match = re.search(pattern, text, flags=re.IGNORECASE)
        if match is None or not (match.group(1) or match.group(2)):
            continue

        def said(found: re.Match[str]) -> str:
            aux, owned = found.group(1), found.group(2)
            if owned:
                return (f"{aux} " if aux else "") + "their"
            if not aux:
                return found.group(0)
            agreed = _AUX[aux.lower()]
            return f"{agreed.capitalize() if aux[0].isupper() else agreed} they"

        out = re.sub(pattern, said, text, count=1, flags=re.IGNORECASE)
        rest = re.sub(r"\b(they|their)\b", "", out, flags=re.IGNORECASE)
        return out if re.search(r"[A-Za-z]", rest) else None
    return None
