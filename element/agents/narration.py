"""Third person: a cleaned first-person sentence told about its named speaker ("I love my
dog" -> "Ana loves Ana's dog"), as episodes (``episodes.py``) and the keyed rules
(``rules.py``) write their memories. "We" is resolved here: the speaker's household, a
couple, the two people talking, someone named beside the speaker, or "<name> and others".
Pure functions, English only."""

from __future__ import annotations

import re
from collections.abc import Callable

from .episode_words import (
    ADVERBS as _ADVERBS,
    FAMILY as _FAMILY,
    IRREGULAR as _IRREGULAR,
    MODALS as _MODALS,
    NOT_VERBS as _NOT_VERBS,
    PAST as _PAST,
)

__all__ = ["narrate", "household", "household_of"]

#: Words of home, family and pets: "we" among them is the speaker's household. "Family"
#: not as someone else's ("saved a family from a fire"), and
#: "live" only of where one lives ("we live in Leeds"; not "our best life", "our lives").
_HOUSEHOLD = re.compile(r"\b(?:" + "|".join(sorted(_FAMILY - {"family", "fam"})) +
                        r"|(?<!\ba )(?<!\banother )famil(?:y|ies)|fam|home|house|"
                        r"apartment|flat|household|moved|move|"
                        r"(?:live[sd]?|living)\s+(?:\w+\s+)?(?:in|at|with|together|near|next|by|"
                        r"abroad|nearby|here|there|downtown|close)|adopted|adopt|married|wedding|"
                        r"husband|wife)\b", re.I)
#: A group of the speaker's that is not the household: a turn that names one besides the
#: family ("My fam's small, but I love the friends I have. We watch movies ...") leaves
#: "we" to what each sentence says.
_GROUP = re.compile(r"\b(?:friends?|buddies|pals|team|teammates|colleagues|co-?workers|"
                    r"workmates|classmates|class|group|gang|crew|squad|band|club|students|"
                    r"volunteers|members|neighbou?rs|community)\b", re.I)
#: "We" of the two people talking: "we both", "both of us", "the two of us".
_BOTH = re.compile(r"\bwe\s+(?:\w+\s+){0,2}?both\b|\bboth of us\b|\bthe two of us\b", re.I)


#: Prefixes that make a past form of another ("retook", "overcame", "mistook", "rebuilt").
_PREFIXES = ("re", "over", "under", "mis", "out", "with", "up", "fore")


def _prefixed_past(low: str) -> bool:
    return any(low.startswith(p) and low[len(p):] in _PAST for p in _PREFIXES)


def _third_singular(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _MODALS or low.endswith(("ed", "ing", "s", "ly")) or not low.isalpha() or \
            low in _NOT_VERBS or _prefixed_past(low):
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_SUBJECT_I = re.compile(r"\bI\b((?:\s+(?:" + "|".join(sorted(_ADVERBS, key=len, reverse=True))
                        + r"|\w+ly))*)\s+([A-Za-z']+)")
_SUBJECT_WE = re.compile(r"\b[Ww]e\b((?:\s+(?:" + "|".join(sorted(_ADVERBS, key=len, reverse=True))
                         + r"|\w+ly))*)\s+([A-Za-z']+)")


#: A preposition of place or time right before a capitalised word: "during Thanksgiving",
#: "in Lisbon" name no one who could be "we" (unlike "with Sam").
_PLACE_OR_TIME = re.compile(r"\b(?:during|on|in|at|for|since|after|before|until|by|from|to|"
                            r"of|over|around|near|across|through)\s+(?:the\s+)?$", re.I)


def _one_other(text: str, who: str) -> str | None:
    """The one person ``text`` names besides ``who``, if exactly one (a capitalised word
    that does not open the text, a sentence or a clause)."""
    if re.search(r"\b[A-Z][a-z]+,? (?:and|&) [A-Z][a-z]+\b", text):
        return None     # "Sam and Jo came over, we ...": more than one
    named = {m[0] for m in re.finditer(r"(?<![.!?,;:-] )(?<!^)(?<!\S)[A-Z][a-z]+\b", text)
             if m[0] != who and m[0].lower() not in _NOT_NAMES and
             not _PLACE_OR_TIME.search(text[:m.start()])}
    return named.pop() if len(named) == 1 else None


_SOMEONE_NAMED = re.compile(r"\b(?:someone|somebody|a (?:guy|girl|man|woman|person|boy))"
                            r"(?P<t> now| new)?,?\s+(?:his|her|their) name is "
                            r"(?P<n>[A-Z][a-z]+)\b")
#: A pair opening a clause as its subject, "I" second: "Chloe and I have ...".
_PAIR_I = re.compile(r"((?:^|,\s+)(?:(?:[Mm]y|[Oo]ur)\s+\w+(?:\s+[A-Z][a-z]+)?|[A-Z][a-z]+)"
                     r"\s+and\s+)"
                     r"I\b(?=\s+(?:\w+ly\s+|just\s+|have\s+|had\s+)*\w)")
#: "We" of a couple: the verbs of two people's relationship.
_COUPLE = re.compile(r"\b[Ww]e(?=\s+(?:(?:have|had|just|finally|officially|recently|)\s*)*"
                     r"(?:broke up|split up|separated|got divorced|got engaged|got married|"
                     r"are getting married|are engaged|are dating|started dating|are together|"
                     r"have been together|are no longer together)\b)")
#: Capitalised words that are not a person's name.
_NOT_NAMES = frozenset("""
i so and but then after when sadly well yes no oh ok anyway also actually finally today
yesterday last this my our the a an we it he she they tomorrow tonight what when where
how why hey hi thanks thank wow great please sorry just now here there on in at for from
with after before during since until by to of
monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december christmas easter
""".split())


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that is ``text`` itself, never a template (a name may hold ``\\1``)."""
    return lambda _: text


def household(text: str) -> bool:
    """Whether "we" in ``text`` is the speaker's household: it speaks of family, home or
    pets ("we have a cat", "we moved house", "me and the kids")."""
    return bool(_HOUSEHOLD.search(text))


def household_of(sentence: str, turn: str) -> bool:
    """Whether "we" in ``sentence`` of ``turn`` is the speaker's household: the sentence
    speaks of family, home or pets, or the turn does and names no other group of the
    speaker's ("We went camping" after "My family's been great"; not "We usually watch
    movies" after "I love spending time with the friends I have")."""
    return household(sentence) or household(turn) and not _GROUP.search(turn)


def narrate(text: str, who: str, home: bool | None = None, partner: str | None = None) -> str:
    """A cleaned first-person sentence in the third person about ``who``.

    "I love my dog" -> "Ana loves Ana's dog": the name stands for every I/me/my (a pronoun
    would need the speaker's gender, and repeating the name keeps each clause
    self-contained). "We" is the speaker's household where the words are of home, family
    or pets (``home``, default :func:`household` of ``text``): "we have a cat" -> "Ana's
    family has a cat"; elsewhere "Ana and others" ("we can make a difference"); "me and my
    husband" -> "Ana and Ana's husband"; our -> "<who>'s". With ``partner``, the one person
    the speaker talks to, "we both" is the two of them ("we both face the same challenges"
    -> "Jon and Gina both face the same challenges").
    """
    if partner and _BOTH.search(text) and not household(text) and \
            not re.search(r"\band I\b|\bme and\b", text, re.I):
        # Not "my husband and I, we both ...": that pair is named.
        pair = f"{who} and {partner}"
        text = re.sub(r"\b(b)oth of us\b", lambda m: f"{m[1]}oth {pair}", text, flags=re.I)
        text = re.sub(r"\bthe two of us\b", lambda _: pair, text, flags=re.I)
        text = re.sub(r"\b(?:we|us)\b", lambda _: pair, text, flags=re.I)
        text = re.sub(r"\b(?:our|ours)\b", lambda _: f"{pair}'s", text, flags=re.I)
    home = household(text) if home is None else home
    if couple := _COUPLE.search(text):
        # "Tom moved out, we broke up": "we" is the speaker and the one named, not the
        # household (nor "others").
        named = [n for n in re.findall(r"\b[A-Z][a-z]+\b", text[:couple.start()])
                 if n not in (who, "I") and n.lower() not in _NOT_NAMES]
        pair = f"{who} and {named[-1]}" if len(set(named)) == 1 else f"{who} and a partner"
        text = text[:couple.start()] + pair + text[couple.start() + 2:]

    def agree(m: re.Match[str]) -> str:
        adverbs, verb = m.group(1), m.group(2)
        return f"{who}{adverbs} {_third_singular(verb)}"

    # "My girlfriend Chloe and I have been together": a pair's verb stays plural.
    text = _PAIR_I.sub(lambda m: m[1] + who, text)

    def agree_we(m: re.Match[str]) -> str:
        adverbs, verb = m.group(1), m.group(2)
        verb = "was" if verb.lower() == "were" else _third_singular(verb)
        return f"{who}'s family{adverbs} {verb}"

    # "seeing someone now, his name is Marco": seeing Marco now.
    text = _SOMEONE_NAMED.sub(lambda m: m["n"] + (m["t"] or ""), text)
    out = _SUBJECT_I.sub(agree, text)
    if home:
        out = _SUBJECT_WE.sub(agree_we, out)
    # Replacements are functions: a speaker's name is text, never a pattern template.
    out = re.sub(r"\bI\b", lambda _: who, out)
    we = f"{who}'s family" if home else f"{who} and others"
    first_we = re.search(r"\bwe\b", out, re.I)
    if not home and " we " in out and first_we and \
            (other := _one_other(out[:first_we.start()], who)):
        # "My friend Sam ..., we met at school": the subject "we" is the two of them. Only
        # someone named before the first "we" can be in it: "We paused Gousto, we cook
        # again" names what "we" acted on, not who "we" are.
        out = re.sub(r"\bwe\b", _literal(f"{who} and {other}"), out)
    for pattern, repl in (
            (r"\b(?:my|mine)\b", f"{who}'s"), (r"\bmyself\b", "themselves"), (r"\bme\b", who),
            (r"\b(?:we|us)\b", we), (r"\b(?:our|ours)\b", f"{who}'s"),
            (r"\bourselves\b", "themselves")):
        out = re.sub(pattern, _literal(repl), out, flags=re.I)
    return out[:1].upper() + out[1:]
