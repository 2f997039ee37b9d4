"""The things a speaker holds, named by their common nouns, as their memories tell them.

A memory of what the speaker has, keeps or goes to ("Winifred keeps hens", "Lorcan grows
a fig tree in a pot", "Perpetua is in a book club that meets at the library", "Dervla's
van is a Citroen") names a thing of theirs. When they later tell what happened to it
with "the" and no owner, another agent as subject ("A fox got the last of the hens", "The
frost did for the fig tree") or the thing itself ("The book club fizzled out", "The van
got repossessed"), the sentence says no "I" or "my", and the episode reader took it for
talk about the world: it wrote nothing. "The hens" of someone who keeps hens are theirs,
as a person of theirs named alone is (``narration.kin``) and a car of theirs named by its
make is (``implicit.held``).

Only memories of a standing (a present-tense verb after the speaker's name, or "X's <thing>
is ..."), not of an event ("went to the beach"): a thing they visited once is not theirs,
and LoCoMo's talk names such places with "the" all the time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .episode_words import PARTICIPLES
from .irregular import DISTINCT_PASTS

#: A standing of the speaker's, after their name: a present-tense verb ("keeps", "grows",
#: "goes to", "is in", "has got", "is a member of"), then what it holds.
_STANDING = re.compile(
    r"^(?:(?:also|still)\s+)?(?:is\s+(?:in|at|on|with|part\s+of|a\s+member\s+of)|"
    r"has\s+got|has|(?!(?:is|was|has|does|says|thinks|feels|knows|loves|likes|enjoys|hates|"
    r"misses|wants|needs|hopes|wishes|seems|looks|sounds|gets|finds|means|believes)\b)"
    r"[a-z]+(?<!ss)s(?:\s+(?:to|in|at|on|for|with|"
    r"after|out\s+of|up))?)\s+(?P<np>.+)$")
#: "Ana's cat is ...", "Ana's old Golf needs ...": the thing, named after the owner.
_OWNED = re.compile(r"^(?P<np>(?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:is|are|was|has|needs|lives)\b")
#: What opens the noun phrase of the thing and is no part of its name.
_DETERMINER = re.compile(r"^(?:(?:a|an|the|their|his|her|its|some|two|three|four|five|six|"
                         r"several|few|couple\s+of|pair\s+of|lot\s+of|\d+)\s+)+")
#: Words that end the noun phrase of the thing: what follows them tells where, when, who.
_ENDS = frozenset("""in on at for to from with by of near off over under about as and or
but out that which who whom where when while because since called named so than like every
each this these those their his her my our your its was were is are be been had did
""".split())
#: Heads that name no thing of anyone's own: a while, a lot, a way of doing.
_VAGUE = frozenset("""thing things lot lots bit time times way ways day days week weeks
year years month months kind sort part one ones place stuff home work job life break rest
people person family friend friends others other something anything everything nothing
""".split())


def _noun_phrase(np: str) -> list[str]:
    """The words of the thing's name in ``np`` (its determiner off, up to the first word
    that ends it): "a fig tree in a big pot" -> ["fig", "tree"]."""
    words: list[str] = []
    for word in _DETERMINER.sub("", np.strip().rstrip(".")).split()[:4]:
        bare = word.strip(",.;:!")
        if not re.fullmatch(r"[A-Za-z][a-z-]+", bare) or bare in _ENDS:
            break
        words.append(bare)
        if bare != word:    # a comma after it ends the phrase
            break
    return words


def _other_number(noun: str) -> str:
    """``noun`` in the other number, as near as spelling tells it: "hens" -> "hen",
    "class" -> "classes", "classes" -> "class", "allotment" -> "allotments"."""
    if re.search(r"(?:s|sh|ch|x)es$", noun):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun + ("es" if re.search(r"(?:s|sh|ch|x)$", noun) else "s")


def _forms(words: list[str]) -> set[str]:
    """How a speaker names the thing ``words`` with "the": by its head, its last two words,
    in the singular and plural ("the hens", "the hen", "the fig tree", "the tree")."""
    if not words or words[-1] in _VAGUE or len(words[-1]) < 3:
        return set()
    head = words[-1]
    if not head.islower():
        return {head}   # a make or a name ("has a Golf"): named alone ("The Golf failed")
    heads = {head, _other_number(head)}
    named = set(heads)
    if len(words) > 1:
        named |= {f"{words[-2]} {h}" for h in heads}
    return {f"{the} {n}" for n in named for the in ("the", "The")}


def _singular_verb(said: str) -> str:
    """``said`` with its opening verb as said of one ("keep hens" -> "keeps hens"), as the
    household's memories word it in the plural."""
    verb, _, rest = said.partition(" ")
    if verb in ("keeps", "has", "is") or verb.endswith("s") or not verb.isalpha():
        return said
    verb = {"have": "has", "are": "is"}.get(verb, verb + "s")
    return f"{verb} {rest}"


def held_things(memories: Iterable[str], who: str) -> set[str]:
    """The ways ``who`` names with "the" the things their memories tell they hold (see the
    module's doc): "Winifred keeps hens" -> "the hens", "The hens", "the hen", ...; for
    ``episodes.episode``'s ``kin``, which takes a sentence naming one as the speaker's."""
    found: set[str] = set()
    for content in memories:
        for household in (f"{who}'s family ", f"{who} and others "):
            if content.startswith(household):     # "Ana's family keeps hens": theirs too
                content = f"{who} {_singular_verb(content[len(household):])}"
        if content.startswith(f"{who} "):
            m = _STANDING.match(content[len(who) + 1:])
        elif content.startswith(f"{who}'s "):
            m = _OWNED.match(content[len(who) + 3:])
        else:
            continue
        if m is not None:
            found |= _forms(_noun_phrase(m["np"]))
            # ... and by its name ("a cat called Sooty": "Sooty went missing")
            found.update(re.findall(r"\b(?:called|named)\s+((?-i:[A-Z])[a-z]+)\b", m["np"]))
    return found


#: Words after which a form in -ed is a state, not an event ("was packed", "so tired").
_STATE_BEFORE = frozenset("""is are was were be been being am 's 're so very really too
looks look seems seem feels feel""".split())


def happened(text: str) -> bool:
    """Whether ``text`` tells something that happened, by a verb in the simple past other
    than "be" ("A fox got the hens", "The van got repossessed", "The book club fizzled
    out"), not a state of the moment ("The gym was packed tonight", "The flat is freezing
    today"): what happened to a thing of the speaker's is their news, how it looks today
    is not."""
    words = re.findall(r"[a-z']+", text.lower())
    return any(w in DISTINCT_PASTS and w not in ("was", "were") or
               w.endswith("ed") and len(w) > 4 and (i == 0 or words[i - 1] not in _STATE_BEFORE)
               and w not in PARTICIPLES
               for i, w in enumerate(words))
