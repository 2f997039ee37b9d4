"""A plain present statement about the speaker or a thing of theirs, in a build the keyed
rules do not expect (issue 23): "The car's a Kia Niro now", "Rent's £1,050 now",
"Breakfast is overnight oats these days", "Our house has three bedrooms", "Jo runs my team
now", "Cider's my drink these days", "I'm six months pregnant", "I'm left-handed". Each
says something lasting of the speaker, and the rules found no statement in it: nothing
was written, and a memory never written can never be first.

Three readings, by the sentence's subject:

- **A thing or an attribute told without its owner** (:func:`owner_said`): a bare singular
  noun ("Rent", "Breakfast", "Work") or "the" + a noun of a thing a person has ("the car",
  "the mortgage": the profile's nouns, or what the lexicon knows as an artifact or a
  possession, not an event), then "is"/"'s"/"are" and a value. English needs a determiner
  before a singular count noun subject; the one dropped in talk of one's own life is "my"
  (as ``implicit.py`` reads a headline's). Written with "my", the keyed rules read it as
  "my X is Y" and key it by X (``point_key``), so a later update finds it.
- **A thing of the speaker's and its own verb** (:func:`mine_does`): "my/our X" + a present
  verb in -s ("My commute takes an hour", "Our house has three bedrooms"), written in the
  third person and keyed by the thing and its verb.
- **Another subject, the speaker in the predicate** (:func:`mine_in_predicate`): a name, a
  thing or an activity that is the speaker's Y ("Cider's my drink": keyed by Y), or does
  something to a thing of theirs or takes them somewhere ("Jo runs my team", "The bus gets
  me to work").
- **The speaker and a measure or a trait** (:func:`trait_of_speaker`): "I'm" + a measure
  ("six months pregnant", "five foot six") or an adjective of what a person is, not how
  they feel: a compound of a body part or a way ("left-handed", "short-sighted",
  "self-employed"), or one the lexicon knows as a kind of person ("diabetic", "vegan").

What is lasting (:func:`lasting`): a present declarative, no question, no "you" (the
listener's or everyone's), no wish or hypothetical (a modal, "if"), no moment ("today",
"right now", "this week"), no past; a value, not only a verdict ("the gym is great", "the
weather's grim": a verdict or the world around one is nobody's fact).

Pure functions over one cleaned sentence (``rules._statement`` calls them last, when no
other rule read it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index import RELATIONS, lexicon

from .cleaning import owned_nouns
from .episode_words import ADVERBS, DAYS, FAMILY, GENERIC, PARTICIPLES, STOP
from .irregular import PARTICIPLES as IRREGULAR_PARTICIPLES
from .implicit import others_named
from .spoken import LEAD, NOT_NAMES

__all__ = ["lasting", "mine_written", "owner_said", "inverted_mine", "mine_does",
           "mine_in_predicate", "trait_of_speaker"]

#: The nouns of what a person has (the profile's attributes and the people around them).
_OWNED = frozenset(owned_nouns().split("|"))
#: Times and the world around one: nobody's ("The weather's grim", "Life is good").
_NOBODYS = frozenset("""year years day days week weeks month months term season morning
evening night weekend today tonight moment time weather rain snow sun wind traffic life news
stuff everything nothing something anything everyone nobody someone world business money
luck fun progress history nature place thing things way idea point problem question answer
truth reason news situation plan""".split())
#: A moment, a wish, a hypothetical, the listener, or the past: no lasting fact.
_NOT_LASTING = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|this\s+(?:morning|afternoon|evening|week|"
    r"weekend|month|year)|right\s+now|at\s+the\s+moment|just\s+now|so\s+far|lately|"
    r"you|your|yours|u|ur|would|could|should|might|will|wo|if|unless|wish|hope|maybe|"
    r"perhaps|probably|was|were|been|had|did|used\s+to|going\s+to|gonna|not|n't|never|"
    r"no\s+longer|anymore|any\s+more|again)\b")
#: A verdict or a feeling, not a value ("The gym is great", "Work's mad").
_VERDICTS = frozenset("""great good bad amazing awesome awful terrible lovely nice fun boring
hard tough crazy mad busy hectic quiet grim fine ok okay better worse best worst wonderful
brilliant exhausting stressful tiring insane nuts manic slow rubbish perfect gorgeous
beautiful fantastic incredible horrible dreadful weird strange funny interesting exciting
easy difficult cool sweet cute ugly nasty annoying frustrating stressful relaxing chaotic
lonely happy sad tired excited worried nervous scared angry upset sick ill sore stressed
okay alright expensive cheap huge tiny massive big small full empty late early ready done
over""".split())
#: Words that may stand between the verb and its value ("is mostly", "'s fully").
_BETWEEN = frozenset("""now mostly usually always fully all just still currently basically
pretty largely generally normally mainly totally completely officially properly
nowadays""".split())
#: Markers of what holds now or as a rule.
_HOLDS = re.compile(r"\b(?:now|these\s+days|nowadays|usually|always|mostly|normally|"
                    r"generally|mainly|fully|every|each|most)\b", re.I)
_QUANTIFIERS = frozenset("most some all half many few every each both any no".split())
_INTENSIFIERS = frozenset("so really real very super pretty quite too totally absolutely".split())
_COPULA = re.compile(r"^(?P<subject>.+?)(?:'s|\s+is|\s+are)\s+(?P<rest>.+)$", re.I)
_NUMBER = re.compile(r"^(?:\d[\d,.]*\w*|[£$€]\d[\d,.]*\w*|one|two|three|four|five|six|seven|"
                     r"eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                     r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
                     r"eighty|ninety|hundred|half|a)(?:-\w+)?$", re.I)
_MEASURES = frozenset("""months month weeks week days foot feet ft inches inch cm metres
meters stone stones kilos kilo kg pounds lbs lb years year""".split())
_DAYS = re.compile(rf"^{DAYS}$", re.I)
_WORD = re.compile(r"^[a-z][a-z-]*$")


def lasting(said: str) -> bool:
    """Whether ``said`` (one sentence) can tell a lasting fact: no question, no listener,
    wish, moment, negation or past (``_NOT_LASTING``)."""
    # (case kept, but for the first word: "Hope Street", "May" and "Will" are names)
    return not said.rstrip().endswith("?") and \
        not _NOT_LASTING.search(said[:1].lower() + said[1:])


def _lasting_head(said: str) -> str | None:
    """The first clause of ``said`` when it can tell a lasting fact (:func:`lasting`) and
    the sentence speaks to no listener and sets no condition anywhere ("Pottery's a way
    to relax, so make sure you ...", "My face gets puffy when I'm ...")."""
    head = _head(said)
    if not lasting(head) or _ASIDE.search(said[:1].lower() + said[1:]):
        return None
    return head


#: The listener or a condition anywhere in the sentence.
_ASIDE = re.compile(r"\b(?:you|your|yours|yourself|u|ur|when|whenever|if)\b")


def _head(clause: str) -> str:
    """The first clause of a sentence: what a comma, a dash or "which"/"because" adds after
    it ("Rent's £1,050 now, which hurts") is another thing."""
    return _CLAUSE_END.split(clause.strip().rstrip(".!"))[0]


#: Where a sentence's first clause ends (not at a number's thousands comma: "£1,050").
_CLAUSE_END = re.compile(r"\s*(?:,(?!\d{3}\b)|[;:(])|\s+-\s+|"
                         r"\s+(?:which|because|since|so|but|and\s+i)\s+")


def _value(rest: str) -> bool:
    """Whether ``rest`` (after the copula) gives a value, not only a verdict: a noun phrase
    (an article, a number, a name, a possessive), a place or a party by its preposition, a
    participle ("spent at the allotment"), an activity in -ing, or a lone adjective held
    as a rule ("fully remote now") that is no verdict."""
    words = [w for w in rest.split() if w.lower() not in _BETWEEN]
    while words and words[-1].lower() in ("now", "these", "days", "nowadays"):
        words = words[:-1]
    if words[-2:] == ["these", "days"]:
        words = words[:-2]
    if not words:
        return False
    first = words[0]
    low = first.lower()
    if low in _INTENSIFIERS or low in _VERDICTS:
        return False
    if low in ("a", "an", "the", "my", "our") and len(words) > 1 and \
            words[1].lower() in _VERDICTS | _INTENSIFIERS:
        return False    # "a great way to relax", "a real mess": a verdict
    if low in ("a", "an", "the", "my", "our") or _NUMBER.match(first) or first[:1].isupper():
        return len(words) > 1 or first[:1].isupper() or first[:1].isdigit() or \
            first[:1] in "£$€"
    if low in ("with", "at", "in", "from", "on", "around", "about", "more", "like") and \
            len(words) > 1:
        return True
    if (low.endswith("ed") or low in IRREGULAR_PARTICIPLES) and low not in PARTICIPLES:
        return True     # "spent at the allotment", "painted green"
    if low.endswith("ing") and len(words) == 1:
        return True     # "Evenings are knitting now" (not "is gathering dust": a verb's)
    # a lone adjective ("fully remote now") or a bare noun phrase ("overnight oats"): a
    # value when what holds now is said of it (``owner_said``)
    return len(words) <= 6 and low not in STOP and low not in GENERIC and \
        all(_WORD.match(w.lower()) and w.lower() not in _VERDICTS for w in words)


#: What the lexicon says a bare noun of the speaker's names: what they have, eat, do, or
#: their time (not a place: "Barcelona is a must-visit city" is nobody's).
_HELD_KINDS = ("possession", "meal", "activity", "act", "attribute", "artifact", "time period")


def _thing(noun: str, determined: bool) -> bool:
    """Whether ``noun`` (the subject's head, lowercase) can be a thing of the speaker's
    told without its owner: the profile's nouns; with "the", what the lexicon knows as an
    artifact or a possession (not an event: "the film", "the party"); bare, any common
    noun that is not a time, the world around one, or a function word."""
    if noun in _NOBODYS or noun in STOP or noun in GENERIC or noun in ADVERBS or \
            noun in NOT_NAMES or noun.endswith(("ly", "ing")):
        return False
    if noun in _OWNED:
        return True
    lex = lexicon()
    if lex is None:
        return False
    if not determined:
        # a noun of what a person has, eats, does or keeps to ("Rent", "Breakfast",
        # "Work", "Evenings"); not a name, nor a plant, an animal or a food a pet may be
        # named after ("Pepper's a rescue")
        if any(lex.is_a(noun, kind) for kind in ("person", "plant", "animal")):
            return False
        return any(lex.is_a(noun, kind) for kind in _HELD_KINDS)
    if lex.is_a(noun, "event") and not lex.is_a(noun, "possession"):
        return False
    return bool(lex.is_a(noun, "artifact") or lex.is_a(noun, "possession"))


def _person(noun: str) -> bool:
    """Whether ``noun`` names a person (kin, the people around one, or what the lexicon
    knows as a person)."""
    if noun in FAMILY or noun in RELATIONS:
        return True
    lex = lexicon()
    return bool(lex is not None and lex.is_a(noun, "person"))


def owner_said(said: str) -> str | None:
    """``said`` with "my" before its subject, when it is a thing or an attribute of the
    speaker's told without its owner ("The car's a Kia Niro now" -> "My car is a Kia Niro
    now", "Rent's £1,050 now, which hurts" -> "My rent is £1,050 now, which hurts") or
    with "my" and a contraction the keyed rules do not read ("My hair's short now"), and
    the sentence gives it a lasting value; else None."""
    head = _lasting_head(said)
    if head is None:
        return None
    m = _COPULA.match(head)
    if m is None:
        return None
    whole = said.strip()[len(m["subject"]):]
    if whole.startswith("'s") and re.search(r"\b(?:is|are)\b", m["rest"]):
        return None     # "Husband's car is a Tesla": a possessive, another's thing
    tail = re.sub(r"^(?:'s|\s+is|\s+are)\s+", "", whole, flags=re.I)
    words = m["subject"].split()
    if words[0].lower() in ("my", "our") and 2 <= len(words) <= 3 and \
            whole.startswith("'s") and _value(m["rest"]) and not _person(words[-1].lower()):
        # "My hair's short now": the contraction the keyed rules do not read (of a thing:
        # "my daughter's vegan now" is hers, which the rules read as it is)
        return f"{words[0]} {' '.join(words[1:])} is {tail}"
    determined = words[0].lower() == "the"
    noun_words = words[1:] if determined else words
    if not 1 <= len(noun_words) <= 2 or not all(_WORD.match(w.lower()) for w in noun_words):
        return None
    rest = noun_words[1:] if len(noun_words) > 1 else []
    if rest and rest[0] != rest[0].lower() or noun_words[0].lower() in STOP or \
            noun_words[0].lower() in _QUANTIFIERS:
        return None     # "Most weekends ...", "My ...", "Tom Smith ...": not a bare noun
    noun = noun_words[-1].lower()
    if noun.endswith("s") and not noun.endswith("ss") and not _DAYS.match(noun):
        return None     # a bare plural is everyone's ("Dogs are great"), a day the speaker's
    if not _thing(noun, determined) or not _value(m["rest"]) or \
            re.match(r"(?:my|our)\b", m["rest"], re.I):
        return None     # ("Music's my thing": the value first, ``inverted_mine``'s)
    if _DAYS.match(noun) and not _value_told(m["rest"]) and not re.search(
            r"\b(?:spent|for)\b|\w(?:ing|ed)\b", m["rest"]):
        return None     # "Mornings are dark now": the light, not what the speaker does
    # "the X" may be the talk's thing ("The house is a mess"): the speaker's when what
    # holds now is said of it ("The car's a Kia now"); a bare noun, also when it names its
    # value ("Rent's about nine hundred a month")
    if not _HOLDS.search(said) and (determined or not _value_told(m["rest"])):
        return None
    thing = " ".join(w.lower() for w in noun_words)
    verb = "are" if noun.endswith("s") and not noun.endswith("ss") else "is"
    return f"My {thing} {verb} {tail}"


_MINE_IS = re.compile(r"^(?P<x>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*)?)(?:'s|\s+is)\s+my\s+"
                      r"(?P<k>[a-z][\w-]*(?:\s+(?!now\b|these\b)[a-z][\w-]*)?)(?P<t>(?:\s+(?:now|these\s+days|"
                      r"nowadays))?)$")


def inverted_mine(said: str) -> str | None:
    """``said`` ("Cider's my drink these days") told the way round the keyed rules read:
    "My drink is cider these days", when its value is a thing or an activity (not a
    pronoun, nor a verdict) and no addition ("too", "also": another of the kind)."""
    head = _lasting_head(said)
    if head is None or _ADDED.search(head) or not _HOLDS.search(head):
        return None
    m = _MINE_IS.match(head)
    if m is None:
        return None
    value, thing = m["x"], m["k"]
    if value.split()[0].lower() in _PRONOUNS or value.split()[0].lower() in STOP or \
            thing.split()[-1] in ("thing", "life", "world", "fault", "favourite"):
        return None     # "It's my life", "Music's my thing now": no value of a thing
    told = value if value[1:] != value[1:].lower() else value[:1].lower() + value[1:]
    return f"My {thing} is {told}{m['t']}{said.strip()[len(head):]}"


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def mine_written(text: str, read: Callable[[str], bool]) -> str:
    """``text`` (one user turn) with each sentence that tells a thing of the speaker's
    without its owner, or as the value first, written as "My X is Y" (:func:`owner_said`,
    :func:`inverted_mine`): what every reader after it (the keyed rules, the change
    finders, the episodes) reads. Not a sentence the rules already ``read`` a statement
    in ("Home's Bristol now"), nor in a turn that speaks of someone else (whose "the car"
    it is would be theirs)."""
    parts = _SENTENCE.split(text)
    out = []
    for part in parts:
        lead = LEAD.match(part)
        start = lead.end() if lead and lead.end() < len(part) else 0
        told = owner_said(part[start:]) or inverted_mine(part[start:])
        if told is not None and read(part):
            told = None
        if told is not None and start:
            told = told[:1].lower() + told[1:]      # "Honestly, my gym is ..."
        out.append(part if told is None else part[:start] + told)
    if out == parts:
        return text
    written = " ".join(out)
    # (read once written: "Work's fully remote" is no possessive "Work's")
    return text if others_named(written) else written


def _value_told(rest: str) -> bool:
    """Whether ``rest`` names its value by a noun phrase or a name (not a lone adjective,
    which needs what holds now said of it: "Hair's short now")."""
    words = [w for w in rest.split() if w.lower() not in _BETWEEN]
    return bool(words) and (words[0].lower() in ("a", "an", "with", "at", "in", "from",
                                                 "about", "around") or
                            words[0][:1].isupper() or _NUMBER.match(words[0]) is not None)


_MINE_DOES = re.compile(r"^(?P<o>my|our)\s+(?P<x>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+"
                        r"(?P<v>[a-z]{2,}(?:es|s))\s+(?P<rest>\S.*)$", re.I)
#: Verbs of a moment or a feeling: "my knee hurts", "my phone keeps dying".
_MOMENT_VERBS = frozenset("""hurts aches itches stings burns keeps needs wants says sounds looks
seems feels smells tastes misses sucks rocks""".split())


def mine_does(said: str) -> tuple[str, str] | None:
    """``said`` as a thing of the speaker's and its own present verb ("My commute takes an
    hour", "Our house has three bedrooms"): the thing and the verb (for the key), else
    None. A singular thing ("my parents ..." has its own rules), no verb of a moment."""
    head = _lasting_head(said)
    if head is None:
        return None
    m = _MINE_DOES.match(head)
    if m is None:
        return None
    thing, verb = m["x"].lower(), m["v"].lower()
    last = thing.split()[-1]
    if last.endswith("s") and not last.endswith("ss") or last in STOP or verb in _MOMENT_VERBS \
            or verb.endswith("ss") or verb in ("was", "does") or verb in ADVERBS or \
            len(m["rest"].split()) > 10 or last.endswith(("ed", "ing")) or _person(last):
        return None     # (people have rules of their own: "my family motivates me")
    # its object a thing by a determiner, a number or a name ("takes an hour", "has three
    # bedrooms", "faces the window"): not a noun read as a verb ("my dance moves get me",
    # "my marketing skills to ...") nor a verb's tense ("has seen", "has been")
    first = m["rest"].split()[0]
    if not (first.lower() in _DETERMINERS or _NUMBER.match(first) or first[:1].isupper()):
        return None
    return thing, verb


_IN_PREDICATE = re.compile(
    r"^(?P<s>(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)(?P<v>'s|\s+is|\s+[a-z]{2,}s)"
    r"(?P<prep>\s+(?:after|on|in|at|for|with|over))?\s+(?P<o>my|me)\b\s*(?P<rest>.*)$")
_TAILS = frozenset("now these nowadays too also still currently".split())
#: An addition: another of the kind, not a new value ("The ukulele's my new side thing too").
_ADDED = re.compile(r"\b(?:too|also|as\s+well|another|second)\b", re.I)
_DETERMINERS = frozenset("a an the my our every each two three four five six".split())
_PRONOUNS = frozenset("""it this that there here he she they we i what which who one
everything something nothing everyone someone anyone""".split())


def mine_in_predicate(said: str) -> tuple[str, str | None] | None:
    """``said`` as another subject (a name, a thing, an activity) that is the speaker's Y
    ("Cider's my drink these days": the key names Y) or does something to a thing of
    theirs or takes them somewhere ("Jo runs my team now", "The bus gets me to work"): the
    thing the key names (None for a verb's object), else None."""
    head = _lasting_head(said)
    if head is None:
        return None
    m = _IN_PREDICATE.match(head)
    if m is None:
        return None
    first = m["s"].split()[0].lower()
    if first in _PRONOUNS or first in STOP and first != "the":
        return None
    verb = m["v"].strip().lower()
    rest = m["rest"].split()
    copula = verb in ("'s", "is")
    if m["o"] == "me":
        # "takes me to work": the speaker is taken somewhere, a lasting arrangement
        if copula or m["prep"] or not rest or rest[0].lower() not in ("to", "into", "around"):
            return None
        return "", None
    if not rest or verb in _MOMENT_VERBS and m["prep"] != " after" or \
            rest[0].lower() in _VERDICTS or re.search(r"\b(?:too|as\s+well)$", head, re.I):
        # ("Dance is my stress fix too": agreeing with what the other said)
        return None
    named = []
    for word in rest[:3]:
        if not _WORD.match(word.lower()) or word.lower() in _TAILS:
            break
        named.append(word.lower())
    thing = " ".join(named)
    if copula and not m["prep"] and thing and not _ADDED.search(head):
        return thing, thing     # "Cider's my drink": keyed by what it is to the speaker
    return thing, None


_TRAIT = re.compile(r"^i\s+am\s+(?P<x>[\w-]+(?:\s+[\w-]+){0,3})$", re.I)
#: Heads of compound adjectives of what a person is ("left-handed", "short-sighted").
_TRAIT_ENDS = re.compile(r"^[a-z]+-(?:handed|sighted|employed|eyed|haired|footed|minded|"
                         r"skinned|blind|deaf|free|intolerant)$")


def trait_of_speaker(said: str) -> str | None:
    """The word that keys "I'm" + a measure ("six months pregnant", "five foot six") or a
    trait ("left-handed", "diabetic"), else None."""
    head = _lasting_head(said)
    if head is None:
        return None
    m = _TRAIT.match(re.sub(r"\s+(?:already|now|these days|nowadays)$", "", head, flags=re.I))
    if m is None:
        return None
    words = m["x"].lower().split()
    if words[0] in _INTENSIFIERS or words[0] in ("a", "an", "the", "not"):
        return None
    if _NUMBER.match(words[0]) and words[0] != "a" and len(words) >= 2 and \
            words[1] in _MEASURES:
        rest = [w for w in words[2:] if not _NUMBER.match(w)]
        return rest[-1] if rest else words[1]
    if len(words) != 1:
        return None
    word = words[0]
    if _TRAIT_ENDS.match(word):
        return word
    lex = lexicon()
    if lex is not None and word not in _VERDICTS and lex.is_a(word, "person"):
        return word
    return None
