"""Names: the people (and places, things) a query names, and the names a memory is about.

A question about a person ("What did Caroline research?") is mostly answered by a memory
*about* that person. BM25 cannot tell these from a memory that merely addresses them
("Melanie: Caroline, that's great!"), and the name's vector pulls every memory that says
it toward the query. So the ranking lifts the memories about a name the query names
(``recall.boost_named``, ``IndexParams.name_weight``; measured in ``docs/recall.md``):
those that open with it (a turn stored as ``"Caroline: ..."``, a fact as ``"Caroline
researched ..."``) and those that say it anywhere else but as an address (``named_in``:
"First night in Agnes's new apartment", an update stored as the speaker told it, "Noodle
met Agnes"). Reading only the opening name, a stronger boost lifted every "Agnes ..."
memory above such an update.

With ``IndexParams.name_projection`` (1 by default), the query's first name is embedded
alone (``first_name``) and that share of the content cosine is read with its direction
taken out, on the query's side and the memory's (``recall.without_name``): what is left of
"What did Caroline research?" is how close a memory is to what was asked, and the name
counts through the boost and BM25.

With ``IndexParams.query_without_names`` (off by default: ``docs/recall.md`` says why),
the query's vector is the mean of its own and that of the query without its first name
(``without_names``): a name pulls a small model's
vector toward every memory that says it, whatever they say, and the name still counts
through BM25 and the boost above. Only the first: it is most often the person asked
about, while a later one is often what is asked ("... Maria live in Porto or Lisbon?").

Both sides are read with plain ASCII rules, so that PostgreSQL reads a memory's names in
SQL exactly as Python does here (``postgres/search.py``: ``OPENING_SQL`` and ``said_sql``):

- the query's names are its words of ASCII letters that start with a capital letter and
  are not stopwords (``lexical``'s list: "What", "When", "I" are not names), lowercased;
- a memory opens with the first run of ASCII letters at the very start of its content,
  lowercased (``"Caroline: hi"`` and ``"Caroline's dog"`` open with ``caroline``; a content
  starting with a space, a digit or a non-ASCII letter opens with no name);
- a memory says a name where a run of ASCII letters starting with a capital reads as it,
  unless set off as an address (``named_in``).
"""

from __future__ import annotations

import re

from .lexical import STOPWORDS

__all__ = ["query_names", "opening_name", "opening_word", "without_names", "first_name",
           "named_in", "said_sql", "OPENING_SQL", "MAX_NAMES"]

_LETTERS = re.compile(r"[A-Za-z]+")
# A query naming more than this many things is a list, not a question about someone: the
# first ones count (in the query's order), which also bounds the SQL parameter.
MAX_NAMES = 8
# The same rule in PostgreSQL: the first run of ASCII letters at the start of the content
# (NULL when there is none), lowercased.
OPENING_SQL = "lower(substring({alias}.content from '^[A-Za-z]+'))"


def query_names(text: str | None) -> tuple[str, ...]:
    """The names ``text`` names, lowercased, in order, without repeats (at most
    ``MAX_NAMES``)."""
    if not text:
        return ()
    names: dict[str, None] = {}
    for word in _LETTERS.findall(text):
        lower = word.lower()
        if word[0].isupper() and lower not in STOPWORDS:
            names.setdefault(lower)
            if len(names) == MAX_NAMES:
                break
    return tuple(names)


def without_names(text: str, names: tuple[str, ...]) -> str | None:
    """``text`` without the first of its ``names`` (``query_names``), wherever it says it
    (with a possessive ``'s``), spaces folded; None when it names nothing or holds
    nothing else."""
    if not names:
        return None
    pattern = r"\b" + re.escape(names[0]) + r"(?:'s)?\b"
    rest = re.sub(r"\s+", " ", re.sub(pattern, "", text, flags=re.IGNORECASE)).strip()
    return rest if _LETTERS.search(rest) else None


def first_name(text: str, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` (``query_names``) as ``text`` writes it ("Caroline"), the
    text whose vector ``IndexParams.name_projection`` takes out of the content cosine;
    None when it names nothing or says nothing else (``without_names``)."""
    if without_names(text, names) is None:
        return None
    match = re.search(r"\b" + re.escape(names[0]) + r"\b", text, flags=re.IGNORECASE)
    return match.group(0) if match else None


def opening_word(content: str) -> str | None:
    """The word ``content`` opens with, as written (None: it opens with no ASCII letter)."""
    match = _LETTERS.match(content)
    return match.group(0) if match else None


def opening_name(content: str) -> str | None:
    """The name ``content`` opens with, lowercased (None: it opens with no ASCII letter)."""
    word = opening_word(content)
    return word.lower() if word else None



def named_in(content: str) -> frozenset[str]:
    """The names ``content`` is about, lowercased: the one it opens with
    (``opening_name``) and every other word of ASCII letters it says with a capital letter
    (not a stopword), but for one said as an address: set off at the start of what is said
    (the content's start, after a colon or a comma) and followed by a comma, "!", "?", "."
    or the end ("Melanie: Caroline, that's great!", "Thanks, Mel!"). So "First night in
    Agnes's new apartment" and "Noodle met Agnes" are about Agnes, wherever they say it.
    PostgreSQL reads the same rule per name (``said_sql``)."""
    found: set[str] = set()
    opening = opening_name(content)
    if opening:
        found.add(opening)
    for match in _LETTERS.finditer(content):
        word = match.group(0)
        lower = word.lower()
        if not word[0].isupper() or lower in STOPWORDS or lower in found:
            continue
        before = content[:match.start()].rstrip(" ")
        addressed = before == "" or before.endswith((":", ","))
        if addressed and content[match.end():match.end() + 1] in ("", ",", "!", "?", "."):
            continue
        found.add(lower)
    return frozenset(found)


def said_sql(names: tuple[str, ...]) -> str:
    """A regular expression (PostgreSQL's and Python's) that a content matches when it
    says one of ``names`` (``query_names``) the way ``named_in`` reads them, but for the
    opening name (``OPENING_SQL``): the name with a capital letter, as a whole word, not
    set off as an address (preceded by something other than the start, a colon or a
    comma, or followed by something other than a comma, "!", "?", "." or the end)."""
    words = "|".join(name[0].upper() + "".join(f"[{c}{c.upper()}]" for c in name[1:])
                     for name in names)
    word = f"(?:{words})"
    return (f"(?:[^ :,A-Za-z]|[^ :,] +){word}(?![A-Za-z])"
            f"|(?:^|[^A-Za-z]){word}(?=[^A-Za-z,!?.])")
