"""What a memory replacing another says: the attribute's own statement of the new value.

A change statement that replaces a stored memory ("I left Google last month and joined
Spotify" replacing "Lena works at Google") is written the way the attribute's key says its
value ("Lena works at Spotify"), when the sentence names one (the patterns of
``facts.NEW_VALUES``); a name the old memory introduced keeps its introduction ("Finn
turned 7" replacing "Martha's son Finn is 6"). A home told by a move to an organisation
("Moved to Lidl in May") is restated as the job it is (:func:`job_moved`, the name read
by the model). Pure functions over texts, but that one.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .episodes import narrate, tell
from .facts import NEW_VALUES
from .decisions import Pool
from .observation import Observation
from .places import organisation
from .rules import Candidate, norm
from .slots import slot_keys
from .updates import key_target, keys_of, mentions, moved_to, signals

__all__ = ["restate", "introduced", "change_to", "restated", "as_attribute", "job_moved",
           "replacing"]

#: Words that name no value ("the new one").
_GENERIC = frozenset("my our the a an old new whole".split())

#: Capitalised words that are times, not values ("moved to Lisbon in May").
_TIME_WORDS = frozenset("""
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday christmas easter
""".split())


#: A proper name, with a title ("Dr. Shah", "Marco"), not opening the sentence.
_NAMED = re.compile(r"(?<!^)\b(?P<x>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?-i:[A-Z])[\w'-]+"
                    r"(?:\s+(?-i:[A-Z])[\w'-]+)*)")


#: A thing opening a memory with "the" ("The Skoda got written off", "The Netflix got
#: cancelled"): whose is not said.
_THE_THING = re.compile(r"^(?:the|our|my)\s+(?P<t>[\w-]+)\b(?!'s)", re.I)


def introduced(content: str, old: str, who: str) -> str:
    """``content`` opening with a name ``old`` introduced as the speaker's ("Martha's son
    Finn is 6"), opening with that introduction: "Finn turned 7" -> "Martha's son Finn
    turned 7"; opening with a thing ``old`` holds as the speaker's, without its owner,
    with its owner: "The Skoda got written off" -> "Theo's Skoda got written off"."""
    if (thing := _THE_THING.match(content)) and who not in content and \
            re.search(rf"\b{re.escape(thing['t'])}\b", old, re.I) and \
            re.match(rf"{re.escape(who)}\b(?!'s\s+(?!family\b))", old):
        # "The Skoda got written off" ending "Theo drives a Skoda": the speaker's Skoda.
        return f"{who}'s {thing['t']}" + content[thing.end():]
    first = re.match(r"(?P<n>[A-Z][a-z]+)\b(?!'s)", content)
    if first is None or first["n"] == who:
        return content
    # The speaker's "their" is theirs too: a memory names its speaker once ("Maria lives
    # with their boyfriend Tom", ``narration.py``).
    intro = re.search(rf"\b(?:{re.escape(who)}'s|[Tt]heir) (?P<k>(?:(?!(?:is|are|was|were|has|"
                      rf"had|called|named)\b)[a-z]+ ){{1,2}}){first['n']}\b", old)
    return f"{who}'s {intro['k']}{first['n']}" + content[first.end():] if intro else content


def restate(key: str, sentence: str, who: str, old: str) -> str | None:
    """The attribute's own statement of the new value a change statement gives, once it is
    known to replace ``old`` (a memory of ``key``): "I left Google last month and joined
    Spotify" -> "Lena works at Spotify". None when the sentence names no new value of that
    attribute (a value all of whose words are in ``old``, the speaker's name or a month is
    none): the sentence is then told as it is."""
    found = NEW_VALUES.get(key)
    after = -1      # where the attribute's own word is said, for a name it introduces
    if found is None and key.startswith("fact:my:"):
        # "Eli's GP is Dr. Morgan", then "I changed GPs, I see Dr. Shah now": the same
        # words of the attribute, the new name.
        said = re.match(rf"^{re.escape(who)}'s (?P<k>[\w' -]+?) (?P<v>is|are) ", old)
        if said is not None:
            found = (_NAMED, f"{{who}}'s {said['k']} {said['v']} {{x}}")
            word = re.search(rf"\b{re.escape(said['k'].split()[-1])}", sentence, re.I)
            after = word.end() if word else -1
    if found is None:
        return None
    pattern, template = found
    matches = list(pattern.finditer(sentence))
    # The name right after the attribute's word is the one it introduces ("my new
    # dentist, Dr Okafor in Harborne": the dentist, not the place); else the last.
    ordered = [m for m in matches if m.start() >= after] if after >= 0 else []
    for m in ordered + list(reversed(matches)):
        value = m["x"].strip()
        words = [w.lower() for w in re.findall(r"[\w&']+", value)]
        named = [w for w in words if w not in _GENERIC]
        if not named or named[0] in _TIME_WORDS or norm(value) == norm(who) or \
                mentions(old, value, who) >= 1.0:
            continue
        return template.format(who=who, x=value)
    return None


def change_to(target: dict[str, Any] | None, sentence: str, who: str, turn: int,
              observation: Observation, taken: list[str],
              source: str | None = None) -> Candidate | None:
    """``sentence`` (of ``observation``'s turn ``turn``) as a change superseding
    ``target``, told as the memory says it and introducing the value it replaces; None
    when there is no target or nothing to tell. The target joins ``taken``. ``source``:
    the sentence as said, when ``sentence`` is it read otherwise (``antecedent.py``)."""
    content = tell(sentence, who, observation.others(turn)) if target is not None else ""
    if target is None or not content:
        return None
    taken.append(target["id"])
    return Candidate("fact", introduced(content, target["content"], who), None, turn,
                     "change", source=source or sentence, target=target["id"])


def restated(target: dict[str, Any], sentence: str, content: str, who: str,
             holder: str) -> tuple[str | None, str]:
    """The key and content of a change statement replacing ``target``: the attribute's own
    statement of the new value (:func:`restate`) with the target's key, or with the
    key of a slot both are about ("Just got the keys to our new house in Walthamstow"
    replacing "Rory rents a flat in Camden" is "Rory lives in Walthamstow"), or the
    statement as told (no key)."""
    if holder:
        return None, content
    stored = ((target.get("metadata") or {}).get("observe") or {}).get("key")
    for key in ((stored,) if stored else keys_of(target["content"], who)) + \
            slot_keys(sentence, target["content"], who):
        said = restate(key, sentence, who, target["content"])
        if said and not _drops_second(said, sentence, target["content"], who):
            return key, said
    return None, content


def _names(text: str, who: str) -> set[str]:
    """The capitalised words of ``text`` that may name a value: not the speaker, a time,
    "I" or a word of no value."""
    return {w for w in re.findall(r"[A-Z][\w'&-]*", text)
            if w != who and w.lower() not in _TIME_WORDS and w != "I" and
            w.lower() not in _GENERIC}


def _drops_second(said: str, sentence: str, old: str, who: str) -> bool:
    """Whether the attribute's statement ``said`` leaves out a second value the change
    gives: ``old`` holds two ("works as an auditor at PwC"), and the sentence names a new
    one beside the attribute's ("Ernst & Young took me on as a senior auditor"), which
    ``said`` ("works as a senior auditor") drops with the old. Told as it was said then,
    both new values in it."""
    told = sentence.split(None, 1)[1] if " " in sentence else ""   # (not its first word)
    dropped = {n for n in _names(old, who) - _names(said, who) - _names(sentence, who)
               if re.search(rf"\b(?:at|for|with)\s+(?:the\s+)?{re.escape(n)}\b", old)}
    new = {n for n in _names(told, who) - _names(said, who)
           if not re.fullmatch(r"[A-Z]{2,}s", n)}   # (not a plural: "GPs")
    return bool(dropped) and bool(new)


def as_attribute(cand: Candidate, who: str, old: str) -> str:
    """A keyed statement of a change told as it was said ("I became the principal this
    year") as the attribute's own statement of its value ("works as the principal"), if
    it names one that ``old`` does not hold; else its content."""
    if cand.key and cand.source and norm(cand.content) == norm(narrate(cand.source, who)) \
            and signals(cand.source).change:
        return restate(cand.key, cand.source, who, old) or cand.content
    return cand.content


def replacing(cand: Candidate, who: str, old: dict[str, Any]) -> tuple[str | None, str]:
    """The key and content of a keyed statement that replaces ``old``: as told, or, when
    ``old`` is of another attribute (found by the change it tells, not by its key), as
    ``old``'s attribute says the new value. "I've moved over to Meta" read as a home
    ("lives in Meta") but replacing "Ana works at Google" is "Ana works at Meta"; the
    home a keyed rule read there is not the speaker's, the job it replaces is."""
    content = introduced(as_attribute(cand, who, old["content"]), old["content"], who)
    stored = ((old.get("metadata") or {}).get("observe") or {}).get("key")
    held = (stored,) if stored else keys_of(old["content"], who)
    if cand.key is None or not cand.source or not held or cand.key in held:
        return cand.key, content
    key, said = restated(old, cand.source, content, who, "")
    return (key, introduced(said, old["content"], who)) if key else (cand.key, content)


def job_moved(cand: Candidate, who: str, pool: Pool) -> Candidate:
    """``cand`` read as a new job when the home it tells is a move to an organisation:
    "Moved to Lidl in May" after "I work at Tesco" is "works at Lidl" (the employer's key),
    not "lives in Lidl"; "Moved to York" stays a home. The name decides
    (``places.organisation``), only after a verb of moving that could say either and
    only of a speaker with a job on record."""
    if cand.key != "fact:location" or not cand.source or not moved_to(cand.source):
        return cand
    # Only a speaker with a job to move from: "Moved to X" of one with none is likelier home.
    if key_target("fact:employer", pool.memories(), who) is None:
        return cand
    embedder = pool.embedder()
    said = restate("fact:employer", cand.source, who, "")
    if embedder is None or said is None or \
            not organisation(said.split(" works at ", 1)[-1], embedder.embed):
        return cand
    return replace(cand, content=said, key="fact:employer")
