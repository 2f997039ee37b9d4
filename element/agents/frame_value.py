"""A value told as now, matched to the value it replaces by the frame around it: the verb
and the words of the attribute, the values left out (issue 23: "similarity of the
subject-stripped attribute").

"YouTube is where I stream these days" after "streams on Twitch most evenings", "Lidl's
where I get the weekly food now" after "shops at Tesco for the weekly food", "I swim at the
lido now" after "swims at the leisure centre": the profile bank (``present_value.py``)
answers no single-valued attribute for these (a shop, a pool, a site to stream on are no
field of a contact record), and the values are names the lexicon does not know (a brand, a
place), so no reading of what the value *is* links them (``kin_values.py``). What links
them is what is said *around* the value: the same verb of doing ("streams", "swims"), or
the same words of its object ("the weekly food", "car insurance"), with another value in
the slot. Told as what holds now ("now", "these days", "instead": ``told.CURRENT``), the
new value answers the question the old one answered, in its place.

What is read:

- **the frame** of a third-person statement: its words past the subject's name, without
  the values (names, numbers), the small words (``episode_words.STOP``: "get", "go",
  "have" are no verb of a frame), and words of time ("evenings", "these days"); each word
  cut to its stem ("shops" and "shop", "streams" and "stream");
- **a match**: the old memory's verb (its first word past the subject) said again, not a
  small word; or two words of its frame said again ("weekly food");
- **another value**: the new statement names what the old does not (``present_value.
  _unlike``), and where the lexicon knows both values they are not wholly unlike kinds ("I
  play tennis now" is no new instrument after "plays the guitar": a guitar and tennis share
  no kind below "entity", :data:`UNLIKE_DEPTH`);
- **one memory**: exactly one of the speaker's one-fact memories matches.

The speaker's parts come read already (``present_value._parts``: the speaker's own, of the
present, no past, plan, wish, negation, event, addition or occasion). The cleft "X is where
I ..." (:func:`where_cleft`) is said plainly too: "The lido's where I swim now" -> "I swim
at the lido now" (read as it is, its subject is the lido, no statement of the speaker's).

Why it is general: the frame is the grammar of the statement (its verb and its object's
words), compared between the two statements the speaker made; no case's words or values.
"""

from __future__ import annotations

import re
from typing import Any

from index import TOLD_NOWISH, lexicon

from .episode_words import STOP
from .profile import values

__all__ = ["frame", "framed_target", "mine_last", "takes_up", "where_cleft", "UNLIKE_DEPTH"]

#: Two values whose deepest shared kind lies no deeper than this are of wholly unlike
#: kinds ("entity", "abstraction", "physical entity": a guitar and tennis).
UNLIKE_DEPTH = 1

#: Words of time: when a value holds, not what it is.
_TIME = frozenset("""
now nowadays currently moment days day week weeks weekend weekends month months year years
morning mornings evening evenings night nights afternoon afternoons today tonight time times
lately recently anymore again daily most these those
""".split())

#: Verbs of many frames: said again alone, they say no attribute ("plays the guitar" and
#: "plays padel now", "works at Tesco" and "works nights now", "uses Gmail" and "uses a
#: Pixel"): a match by the verb needs one that names its doing ("streams", "swims").
_MANY_FRAMES = frozenset("""
play plays playing use uses using run runs running work works working do does have has
keep keeps see sees watch watches read reads listen listens drink drinks eat eats live lives
""".split())

#: The speaker's household said as the subject with their name ("Cosmo's family goes
#: camping"): who holds the value, no word of its frame.
_HOLDERS = frozenset({"family", "household"})

#: "Do" before the doing it names: "does the shopping", "did the cooking".
_DOES = frozenset("do does did doing".split())

#: The cleft "X is where I ...": the value told first, the speaker's verb after it. X is a
#: name ("YouTube", "Lidl's") or a noun phrase with its article ("the lido").
_WHERE = re.compile(
    r"^(?P<x>(?:(?:the|a|an|my|our)\s+)?(?:(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*|"
    r"(?<=the\s)[a-z][\w-]*(?:\s+[a-z][\w-]*)?|(?<=The\s)[a-z][\w-]*(?:\s+[a-z][\w-]*)?))"
    r"(?:'s|’s|\s+is)\s+where\s+(?P<s>i|we)\s+(?P<rest>[^,;.!?]+)", re.I)

#: Words that point at a value told elsewhere, never the value: "that's where I work now".
_POINTERS = frozenset("that this it which there here what everything anything nothing "
                      "home".split())

#: Words of time ending the speaker's clause: the place goes before them.
_TRAILING_TIME = re.compile(r"\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|currently)"
                            r"(?:\s.*)?$", re.I)


def where_cleft(sentence: str) -> str | None:
    """The cleft "X is where I V ..." said plainly: "I V ... at X (now)", or None."""
    m = _WHERE.match(sentence.strip())
    if m is None or m["x"].split()[0].lower() in _POINTERS:
        return None     # "That's where I work now": what it points at (``pointed.py``)
    rest = m["rest"].strip()
    time = _TRAILING_TIME.search(rest)
    head, tail = (rest[:time.start()], rest[time.start():]) if time else (rest, "")
    x = m["x"]
    x = x[0].lower() + x[1:] if x.split()[0].lower() in ("the", "a", "an", "my", "our") else x
    return f"{m['s']} {head} at {x}{tail}"


#: The speaker's role told last, its holder named first: "Dr Okafor is my doctor there",
#: "Sarah's my line manager now", "Leicester are our team these days".
_MINE_LAST = re.compile(
    r"^(?P<x>(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*)*?)"
    r"(?:'s|’s|\s+is|\s+are)\s+(?P<m>(?:my|our)\s+(?:[\w-]+\s+)?"
    r"(?!(?:there|here|now|these|nowadays|at|currently)\b)[\w-]+)"
    r"(?P<rest>(?:\s+(?:there|here|now|these\s+days|nowadays|at\s+the\s+moment|currently))*)"
    r"\s*[.!]?$", re.I)


def mine_last(sentence: str) -> str | None:
    """A name told as the speaker's role's holder, said the other way round: "Dr Okafor is
    my doctor there" -> "my doctor is Dr Okafor there" (read as it is, its subject is
    Dr Okafor, no statement of the speaker's), or None."""
    m = _MINE_LAST.match(sentence.strip())
    if m is None or m["x"].split()[0].lower() in ("it", "that", "this", "there", "which"):
        return None
    return f"{m['m']} is {m['x']}{m['rest']}"


#: An event of taking a value up in place of another: renewing with, going or moving over
#: to, signing up or registering with, switching, porting ("Renewed the car insurance with
#: Admiral", "went over to Smarty", "signed up with Octopus for the energy").
_TAKES_UP = re.compile(r"\b(?:renew(?:ed|s)?\b[^,;.]*?\bwith|(?:went|gone|moved|switched|"
                       r"changed|ported|transferred)\b[^,;.]*?\b(?:over\s+to|across\s+to)|"
                       r"(?:signed|signing)\s+(?:up|on)\s+with|(?:re-?)?registered\s+with|"
                       r"switched|swapped)\b", re.I)


def takes_up(part: str) -> bool:
    """Whether ``part`` tells an event of taking a value up in place of another."""
    return bool(_TAKES_UP.search(part))


def _stem(word: str) -> str:
    """A word cut to its stem, enough to say two forms of it alike ("shops", "shopping")."""
    for end in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            stem = word[:-len(end)] + ("y" if end == "ies" else "")
            # "shopping", "swimming": the consonant doubled before the ending is one
            return stem[:-1] if end in ("ing", "ed") and len(stem) > 3 and \
                stem[-1] == stem[-2] and stem[-1] not in "lsz" else stem
    return word


def _words(text: str, who: str) -> tuple[str, list[str]]:
    """The frame's words of ``text`` (third person, of ``who``) as said: its verb (its
    first word past the subject, "" when that is a small word or one of many frames) and
    its other words, the values, the small words and the words of time left out."""
    named = {w.lower() for v in values(text, who) for w in re.findall(r"[a-z0-9]+", v.lower())}
    # The words of a name are no frame ("Labor Day", "Match of the Day": no shared "day").
    named |= {w.lower() for w in re.findall(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z'-]*", text)}
    # The speaker's household as the subject ("Cosmo's family has ...") is whose, not what.
    own = {w.lower() for w in who.split()} | _HOLDERS
    words = re.findall(r"[a-z][a-z'-]*", text.lower())
    # past the subject: the words from the speaker's name on ("Alys gets ..."), else all
    at = next((i for i, w in enumerate(words) if re.sub(r"'s?$", "", w) in own), None)
    said = words[at + 1:] if at is not None else words
    said = [re.sub(r"'s?$", "", w) for w in said]
    kept = [w for w in said if w not in STOP and w not in _TIME and w not in named and
            w not in own and len(w) > 2]
    said = [w for w in said[:1] if w not in _HOLDERS] + said[1:]
    verb = said[0] if said and said[0] not in STOP and said[0] not in named and \
        said[0] not in _MANY_FRAMES else ""
    if said and said[0] in _DOES and kept and kept[0].endswith("ing"):
        verb = kept[0]      # "does their shopping at ...": the doing is the verb
    return verb, kept


def frame(text: str, who: str) -> tuple[str, list[str]]:
    """The frame of ``text`` (:func:`_words`), each word cut to its stem."""
    verb, kept = _words(text, who)
    return _stem(verb), [_stem(w) for w in kept]


def _unlike_kinds(new: list[str], old: list[str]) -> bool:
    """Whether the words only one side says name things of wholly unlike kinds, where the
    lexicon knows both (:data:`UNLIKE_DEPTH`); unknown words (a brand) say nothing."""
    lex = lexicon()
    if lex is None:
        return False
    known = [k for a in new for b in old if (k := lex.kinship(a, b)) is not None]
    return bool(known) and all(k.depth <= UNLIKE_DEPTH for k in known)


def _matches(new: str, old: str, who: str, taken: bool = False) -> bool:
    """Whether ``new`` says ``old``'s frame again with another value in it (``taken``: an
    event of taking it up, whose verb is its own: only the frame's other words match)."""
    _, new_words = frame(new, who)
    old_verb, old_words = frame(old, who)
    shared = set(new_words) & set(old_words)
    if not (old_verb and old_verb in new_words and not taken or
            len(shared - {old_verb}) >= 2):
        return False
    new_said, old_said = _words(new, who)[1], _words(old, who)[1]
    only_new = [w for w, stem in zip(new_said, new_words, strict=True) if stem not in shared]
    only_old = [w for w, stem in zip(old_said, old_words, strict=True) if stem not in shared]
    if not (only_old or values(old, who)) or not (only_new or values(new, who) - values(old, who)):
        return False    # "swims every morning": no value held in the slot to be replaced
    return not _unlike_kinds(only_new, only_old)


def framed_target(parts: list[tuple[str, str]], memories: list[dict[str, Any]], who: str,
                  unlike: Any, taken: bool = False, cleft: str | None = None
                  ) -> dict[str, Any] | None:
    """The one memory of ``memories`` (the speaker's one-fact memories) whose frame a part
    of ``parts`` (raw, told in the third person) told as now says again with another value
    (``unlike(old, new, who)``: ``present_value._unlike``), or None. With ``taken``, the
    parts tell an event of taking the value up (:func:`takes_up`), and name it; ``cleft``:
    the sentence's cleft said plainly (:func:`where_cleft`), a value told as the one held."""
    for part, told in parts:
        # (a cleft tells its value as the one that holds, with or without "now": "Aldi's
        # where I shop, it's half the price")
        if not (TOLD_NOWISH.search(part) or taken and values(told, who) or
                part == cleft):
            continue
        meant = [m for m in memories
                 if _matches(told, m["content"], who, taken) and unlike(m["content"], told, who)]
        if len(meant) == 1:
            return meant[0]
    return None
