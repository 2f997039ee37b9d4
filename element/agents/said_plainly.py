"""Said plainly: a statement of the speaker's lasting present told in a shape that writes
nothing, said again as the plain first-person clause it stands for (issue 23: a newer or
older statement that wrote nothing can neither update nor be recalled).

Three shapes of talk leave out or move the words the rules read a statement by:

1. **What the speaker is, its "I am" left out** (:func:`what_i_am`): "Cubs leader now,
   moved down a section", "Fountain pen user these days", "Vegetarian, for about ten
   years now", "Quakers now". A verbless fragment whose head noun names a kind of person
   (the lexicon: leader, user, vegetarian, Quaker; WordNet's "person") and which says it
   holds now or has held for long ("now", "these days", "since ...", "for ten years") is
   the speaker's own standing: "I am a Cubs leader now, moved down a section". Not a
   fragment naming a meal, a place or a moment ("Lunch at Dishoom now": no person), nor
   one with no word of the present ("Best man at Tom's wedding": an occasion).
2. **A cleft** (:func:`uncleft`): "It's green tea I drink now", "It's Aldi I go to these
   days": the value put first after an empty "it's", then the speaker's clause missing its
   object. Said in its own order: "I drink green tea now", "I go to Aldi these days". Only
   when the clause after the value is the speaker's present verb with nothing after it but
   a stranded preposition and a time ("It's a shame I missed it" and "It's time I went"
   are no clefts of a value).
(A third, "I'm in the Ramblers", is a standing the episodes score: ``named_standing``.)

A fragment is said whole only when it writes nothing as said (``fragments``' test), so a
sentence the rules already read is read as before; a cleft always (read as said, its "it"
is taken for an earlier topic, and it writes nothing or "It is green tea Sam drinks"); of
a turn answering a
question, none (the answer's subject is the question's: "How's your brother?" / "Nurse
now"). General: the sentence's shape, the words of the present and what a noun names
(the lexicon); no word of any case. Without the lexicon, (1) reads nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index import lexicon

from .habits import habit_verb_of
from .sentences import split_sentences
from .verbless import _HEAD, _opened, _words, verbless

__all__ = ["restated", "what_i_am", "uncleft"]

#: What says a standing holds now, or has held for long: the present, a start, a span.
_HELD = re.compile(r"\b(?:now|these\s+days|nowadays|currently|since\s+\w+|as\s+of\s+\w+|"
                   r"for\s+(?:about\s+|over\s+|nearly\s+|almost\s+)?(?:\w+\s+)?(?:years?|"
                   r"months?|decades?)|all\s+my\s+life|from\s+(?:this|next)\s+\w+)\b", re.I)
#: A time that places the fragment at an occasion, not a standing: past or to come.
_OCCASION = re.compile(r"\b(?:tonight|tomorrow|yesterday|today|ago|last\s+\w+|next\s+(?!"
                       r"week\b|month\b|term\b|year\b)\w+|this\s+(?:morning|afternoon|"
                       r"evening|weekend))\b", re.I)
#: Words opening a fragment that say how, not what ("Strictly", "Officially", "Fully").
_STANCE = re.compile(r"^(?:(?:\w+ly|just|still|mostly|now)\s+)+", re.I)
_DETERMINER = re.compile(r"^(?:a|an|the|one\s+of\s+the)\s", re.I)
#: A preposition after the head noun of a fragment ("holder at Anfield").
_PREPOSITION = re.compile(r"\s+(?:with|at|for|of|in|on|to|from|by|about)\s+", re.I)
#: How a noun of what a person is ends ("Vegetarian", "Methodist", "Quakers"), as a name
#: alone rarely does ("Tom", "Ali").
_ROLE_ENDING = re.compile(r"(?:arian|ist|er|or|ian|ant|ent|ee|ic|s)$", re.I)
#: Words of time closing the value, and what follows the head noun ("leader now").
_TIME_WORDS = frozenset("now these days nowadays currently again".split())


def _singular(word: str) -> str:
    return word[:-1] if word.lower().endswith("s") and not word.lower().endswith("ss") \
        else word


def _a_person(noun: str) -> bool | None:
    """Whether ``noun`` names a kind of person (the lexicon), None without it."""
    lex = lexicon()
    if lex is None:
        return None
    said = lex.is_a(noun.lower(), "person")
    if not said and noun.lower().endswith("s"):
        said = lex.is_a(_singular(noun.lower()), "person")
    return bool(said)


def what_i_am(sentence: str, who: str) -> str | None:
    """A verbless fragment naming what the speaker is, now or for long ("Cubs leader now,
    moved down a section"), said as the speaker's clause ("I am a Cubs leader now, moved
    down a section."); None for any other sentence (module docstring, 1)."""
    body = _opened(sentence.strip())
    m = _HEAD.match(body)
    if m is None or body.rstrip().endswith("?") or not verbless(m["head"]) or \
            not _HELD.search(body) or _OCCASION.search(body):
        return None
    core = _STANCE.sub("", m["head"].strip())
    words = _words(core)
    # The head noun closes the noun phrase, before its words of time ("leader now").
    value = [w for w in words if w.lower() not in _TIME_WORDS and
             not _HELD.fullmatch(w)]
    head = re.split(r"\s+(?:now|these\s+days|nowadays|currently|again|since|as\s+of|for|"
                    r"from)\b", core, maxsplit=1, flags=re.I)[0].strip()
    if not value or not head or len(_words(head)) > 4 or \
            value[0].lower() in (w.lower() for w in who.split()):
        return None
    # The head noun: the last word before a preposition ("Coffee with Mum": coffee;
    # "Season ticket holder at Anfield": holder).
    noun = _words(_PREPOSITION.split(head, maxsplit=1)[0] or head)[-1]
    if noun[:1].isupper() and len(_words(head)) == 1 and not _ROLE_ENDING.search(noun):
        return None     # a name alone ("Tom now"): whose, the fragment does not say
    if not _a_person(noun):
        return None
    if len(_words(head)) == 1 and noun.lower().endswith("s") and not _a_person_plural(noun):
        # "Quakers now": one of them ("I am a Quaker now")
        core = core.replace(noun, _singular(noun), 1)
        head = _singular(noun)
    if not _DETERMINER.match(core):
        article = "an" if re.match(r"[aeio]|u(?![a-z][aeiou])", core, re.I) else "a"
        first = core.split()[0]
        lex = lexicon()
        if lex is not None and lex.kinds(first.lower()):
            core = core[:1].lower() + core[1:]     # a common noun opening it, not a name
        core = f"{article} {core}"
    core = core[:1].lower() + core[1:] if _DETERMINER.match(core) else core
    rest = m["rest"] or ""
    if re.search(r"\b(?:you|your|ya)\b", rest, re.I):
        rest = ""   # an aside to the listener ("..., would you believe"): no part of it
    said = f"I am {core}{rest}".rstrip()
    return said if said.endswith((".", "!")) else said + "."


def _a_person_plural(noun: str) -> bool:
    """Whether a plural noun is itself a kind of person as said ("people", "folks")."""
    lex = lexicon()
    return lex is not None and noun.lower() in ("people", "folks", "folk") and \
        bool(lex.is_a(noun.lower(), "person"))


#: A cleft of a value: "It's green tea I drink now", "It's Aldi I go to these days".
_CLEFT = re.compile(r"^(?:it(?:'s|’s|\s+is))\s+(?P<x>[^,;:]+?)\s+(?:that\s+)?"
                    r"(?P<s>I|we)\s+(?P<v>[a-z]+)"
                    r"(?P<prep>\s+(?:at|in|on|with|to|for|from|by|into|through))?"
                    r"(?P<time>(?:\s+(?:now|these\s+days|nowadays|mostly|usually|"
                    r"most\s+days|every\s+\w+))*)"
                    r"(?P<tail>\s*(?:[,;:.!]\s*.*)?)$", re.I)
#: What the "value" of a cleft must not be: a clause, or a judgement of what follows
#: ("It's a shame I ...", "It's time I ...", "It's lucky we ...").
_NOT_VALUE = re.compile(r"\b(?:i|you|he|she|we|they|me|him|her|us|them|it|is|are|was|were|"
                        r"be|been|am|has|have|had|do|does|did|will|would|can|could|should|"
                        r"what|who|how|why|where|when|which|if|because|not|no|never|time|"
                        r"shame|pity|wonder|miracle|thing|lucky|funny|strange|odd|weird|"
                        r"good|bad|great|nice|sad|true|amazing|crazy|mad|ages|while|"
                        r"hard|easy|fine|ok|okay)\b|n't\b", re.I)


#: Verbs the keyed rules read a value by, which ``habits`` leaves to them ("I work
#: nights", "I live with my sister").
_KEYED_VERBS = frozenset({"work", "live"})


def uncleft(sentence: str) -> str | None:
    """A cleft of the speaker's value ("It's green tea I drink now, doctor's orders.")
    said in its own order ("I drink green tea now, doctor's orders."); None otherwise."""
    body = _opened(sentence.strip())
    m = _CLEFT.match(body)
    if m is None:
        return None
    verb = m["v"].lower()
    if _NOT_VALUE.search(m["x"]) or len(_words(m["x"])) > 5 or \
            not (habit_verb_of(verb, m["x"] + m["time"], m["s"]) or verb in _KEYED_VERBS):
        return None
    prep = m["prep"] or ""
    value = m["x"].strip()
    return f"{m['s']} {m['v']}{prep} {value}{m['time']}{m['tail']}".rstrip()


def restated(text: str, who: str, writes_nothing: Callable[[str, str], bool]) -> str:
    """``text`` (an unprompted user turn of ``who``'s) with each cleft of the speaker's
    value, and each fragment of what the speaker is that writes nothing as said
    (``writes_nothing(sentence, who)``), said as the plain clause; unchanged otherwise."""
    told = list(split_sentences(text))
    said = []
    for sentence in told:
        # (a cleft always: read as said, its "it" is taken for an earlier topic)
        plain = uncleft(sentence)
        if plain is None and (am := what_i_am(sentence, who)) is not None and \
                writes_nothing(sentence, who):
            plain = am
        said.append(plain or sentence)
    if said == told:
        return text
    return " ".join(s if s.rstrip().endswith((".", "!", "?")) else s + "." for s in said)
