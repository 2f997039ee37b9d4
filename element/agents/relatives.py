"""News of a person of the speaker's, told in passing: what a relative, a partner or a friend
does, did, has or became ("My brother got into the police", "My girlfriend got a cat",
"Grandad still goes fishing every weekend"). The speaker's own news is worth a memory in
few words (``milestones.short_news``); so is theirs, to a friend who will ask after them.
Such a fact is the other person's (``narration`` tells it as "<speaker>'s brother ...")
and replaces nothing of the speaker's; stored, it keeps a control's newer fact.

Read by ``episodes._score``: the gate (a kin word used as a name opens the speaker's world,
as "my" does) and the floor (a relative's news scores ``MIN_SCORE`` however few its words).
"""

from __future__ import annotations

import re

from index import RELATIONS

from .episode_words import FAMILY, GENERIC, PARTICIPLES, PAST, STOP
from .irregular import PARTICIPLES as IRREGULAR_PARTICIPLES

__all__ = ["kin_named", "relative_news"]

#: The kin words used as a name, with no "my" ("Mum", "Grandad"): one's own parent or
#: grandparent only is called so; and the people of one's household said with "the" ("the
#: kids", "the wife"): one's own.
_KIN_NAMES = r"(?:mum|mom|mam|mummy|dad|daddy|nan|nana|nanna|gran|granny|grandma|grandpa|" \
             r"grandad|granddad)"
_HOUSEHOLD = r"the\s+(?:kids|children|twins|boys|girls|wife|husband|missus|hubby|grandkids|" \
             r"in-laws)"
#: Such a name opening a sentence as its subject ("Grandad still goes fishing", "Nan does
#: aqua aerobics on Thursdays", "Mum's just got a new puppy", "The kids are mad about
#: gymnastics"), then a verb (a present or past form after at most two adverbs or
#: auxiliaries), not a compound ("Dad jokes are ...").
_KIN_NAMED = re.compile(r"^(?:(?P<name>" + _KIN_NAMES + r")|" + _HOUSEHOLD + r")"
                        r"(?:'s\b)?\s+(?:(?:still|also|now|just|finally|recently|"
                        r"always|usually|often|has|have|had|is|was)\s+){0,2}"
                        r"(?P<verb>[a-z]+)\b", re.I)

#: A subject of the speaker's: "my"/"our", at most two words qualifying it ("my older
#: brother", "our new neighbour", "my sister's"), a word of a person (``RELATIONS``,
#: ``FAMILY``), an optional name ("my mate Jake"), then what is said of them.
_MINE = re.compile(r"^(?:my|our)\s+(?P<qual>(?:[\w'-]+\s+){0,2}?)(?P<rel>[a-z-]+)"
                   r"(?:\s+(?-i:[A-Z])[a-z]+)?\s+(?P<rest>.+)$", re.I)

#: What ends a statement on something said before ("My kids loved it"): no news of theirs.
_POINTING = re.compile(r"\b(?:it|that|this|them|those|these|him|her|me|us|you)\W*$", re.I)
#: A verb of what a person does, did, has or became: what news of theirs opens with.
_VERB = re.compile(r"^(?:(?:just|finally|recently|now|also|still|always|usually|often|"
                   r"never)\s+)*(?P<verb>[a-z]+)\b", re.I)
#: Words that tell no act or state of a person's: a conjunction or a relative opening what
#: follows the subject ("my brother and I", "my friend who ..."), a modal of a guess.
_NOT_VERB = frozenset("and or but who whose which that nor might may could would should "
                      "says said thinks thought reckons".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
#: "be" followed by what names a thing or a place ("is a vet", "is at Leeds uni now", "was
#: in Canada", "is Head of Year"), not a judgement or a feeling ("is amazing with the
#: kids", "was so happy", "is always asking"): a state told as a value.
_BE = re.compile(r"(?:is|are|was|were)\s+(?:(?:now|still|also|just)\s+)?"
                 r"(?P<what>\S+)", re.I)
_VALUE_OPENS = frozenset("a an the at in on with from into for back off".split())
#: An object that points back ("loved it and ...", "enjoyed that"): a reaction to what was
#: said, not news.
_POINTED = re.compile(r"\s+(?:it|that|this|them|those|these)\b", re.I)
#: "have" and "got" name a thing only with what opens a noun phrase or a place after them
#: ("got a cat", "got into the police", "has two boys"), not a quantity ("have so much").
_HAVING = frozenset("have has had got gets".split())
_THING_OPENS = re.compile(r"\s+(?:(?:just|finally|now|also|recently)\s+)?(?:a|an|the|his|her|"
                          r"their|its|into|onto|to|in|one|two|three|four|five|six|\d|"
                          r"(?-i:[A-Z])|"
                          # the perfect: "has just got a new job", "has taken up golf"
                          r"\w+ed\b|\w+en\b|got|gone|become|begun|done|made|bought|sold|won|"
                          r"left|found|run)", re.I)
#: A form of "be" or "have" right after the word read as the verb: that word was a noun
#: ("Dad jokes are the worst").
_NEXT_IS_VERB = re.compile(r"^\s+(?:is|are|was|were|has|have|had)\b", re.I)


def _verb(word: str) -> bool:
    """Whether ``word`` can be a finite verb or participle: a present in -s, a past in -ed or
    of the irregular ones (``PAST``, ``irregular.PARTICIPLES``: "has gone back", "has
    become"), or a form of "be", "have", "do", "get"."""
    w = word.lower()
    return w in PAST or w in IRREGULAR_PARTICIPLES or w.endswith(("s", "ed")) or \
        w in ("is", "are", "was", "were", "has", "have", "had", "does", "did", "got", "gets")


def kin_named(text: str) -> bool:
    """Whether ``text`` opens on a parent or grandparent called by their kin word as a name,
    or on the household's people with "the", the subject of a verb ("Grandad still goes
    fishing every weekend", "The kids are mad about gymnastics"): the speaker's world,
    though no "my" says so; not a reaction ("The kids loved it")."""
    m = _KIN_NAMED.match(text)
    return m is not None and (text[:1].isupper() or not m["name"]) and _verb(m["verb"]) and \
        not _NEXT_IS_VERB.match(text[m.end():]) and not _POINTED.match(text[m.end():])


def relative_news(text: str) -> bool:
    """Whether ``text``, a cleaned sentence, is news of a person of the speaker's: its
    subject theirs ("my brother", "our eldest", "my mate Jake", or ``kin_named``), a verb,
    and what it tells naming a thing (a word of content that is no judgement or feeling,
    and not a pronoun pointing back): "My brother got into the police", "My sister is a
    vet", "Nan does aqua aerobics on Thursdays". Not "My mum is so lovely", "My kids loved
    it", "my friend and I ..." (the speaker), "my boss thinks ..." (an opinion)."""
    m = _MINE.match(text)
    if m is not None:
        words = [w.lower().removesuffix("'s") for w in m["qual"].split()]
        if m["rel"].lower() not in RELATIONS | FAMILY or \
                any(w in ("and", "or", "&") for w in words):
            return False
        rest = m["rest"]
    elif (named := _KIN_NAMED.match(text)) is not None and kin_named(text):
        rest = text[named.start("verb"):]   # ("Mum's just got ...": from the verb on)
    else:
        return False
    verb = _VERB.match(rest)
    if verb is None or verb["verb"].lower() in _NOT_VERB or not _verb(verb["verb"]) or \
            _POINTING.search(rest):
        return False
    if _POINTED.match(rest[verb.end():]) or verb["verb"].lower() in _HAVING and \
            not _THING_OPENS.match(rest[verb.end():]):
        return False    # "The kids loved it and ...", "my kids have so much": no thing named
    be = _BE.match(rest[verb.start("verb"):])
    if be is not None and not (be["what"].lower() in _VALUE_OPENS or be["what"][:1].isupper()
                               or be["what"][:1].isdigit()):
        return False
    told = [w.lower() for w in _WORD.findall(rest[verb.end():]) if len(w) > 2]
    content = [w for w in told if w not in STOP and w not in GENERIC]
    return bool(content) and content[0] not in PARTICIPLES
