"""Whose a sentence is: the speaker's, another person's (or animal's), or not known.

A change replaces only what the same holder had: "my sister lives in Lisbon" is not about
where the speaker lives. A first-person sentence (``rules.clean``ed, or a memory read back
by ``updates.first_person``) is the speaker's when it opens on I or we, or on a thing of the
speaker's ("my manager is Dev", "my pet insurance is with Petplan", "she's my favourite
writer now"); another's when it opens on a person or an animal ("my sister ...", "Leo
turned 5"); not known when it opens on a pronoun or a thing ("It became real"). Pure
functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS

from .among import shares, speaker_object
from .episode_words import FAMILY
from .irregular import BASES, PARTICIPLES, PASTS
from .opening import (done_to_speaker, from_subject, names_no_one, new_thing, speakers_news,
                      speakers_subject, subject_dropped)
from .rules import norm

__all__ = ["UNKNOWN", "by_order", "family_thing_of", "framed", "holder_of", "main_clause",
           "subjectless",
           "kin_word", "possessed", "same_holder", "memory_holder", "kin_modifier",
           "subject_first", "without_opening"]

#: A word opening a sentence before its subject ("Sadly, Rex passed away").
_OPENING_ADVERB = re.compile(r"^(?:sadly|unfortunately|tragically|so|and|but|well|also|"
                             r"anyway|finally|actually|yesterday|today|recently|"
                             r"(?:last|this)\s+(?:week|weekend|month|night|year))\b\s*,?\s+",
                             re.I)
#: Whose a sentence is not known: it opens on a pronoun or a thing ("It was great", "They
#: moved"), or does not open on a subject.
UNKNOWN = "?"
_NOT_HOLDERS = frozenset("""
it its this that these those there here what they them he she his her their you your who
which when where why how if so and but or as then just also really well yes no oh ok wow
""".split())
#: A short phrase setting the scene before the subject ("After the reorg, I ...").
_SCENE = re.compile(r"^(?:ever\s+|even\s+|just\s+)?(?:after|since|on|in|at|from|during|as of|"
                    r"starting|this|these|last|next|for|first|most|every|each|some|many|"
                    r"a few|two|three|four|several)\b[^,]{0,30}?,?\s+(?=(?:i|we|my|our)\b)",
                    re.I)


#: A subordinate clause opening a sentence ("Since the office moved out to Slough I catch
#: the train every morning"): whose the sentence is, is its main clause's subject's.
_SUBORDINATE = re.compile(r"^(?:since|after|before|until|till|while|whilst|because|although|"
                          r"though|once|now\s+that|ever\s+since|"
                          # a phrase of comparison or cause before the subject: "Like my
                          # dad, I'm all about ...", "Thanks to my brother I'm ..."
                          r"(?:just\s+)?(?:un)?like|thanks\s+to|despite|because\s+of|"
                          r"due\s+to|apart\s+from|besides|"
                          # another's counsel or help the speaker acted on: "On my
                          # brother's advice I moved to First Direct", "With Dad's help,
                          # we ...", "At my boss's request I ...": the act is the speaker's
                          r"(?:on|at|with|upon|following|by)\s+(?:(?:my|our|the|a)\s+)?"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+'s?\s+(?:[\w-]+\s+)?(?:advice|"
                          r"suggestion|recommendation|help|request|insistence|urging|"
                          r"invitation|encouragement|prompting|say-so|nagging|tip))\s*,?\s+",
                          re.I)
#: Where the main clause opens after it: past a comma, or on "I" or "we" (no comma said).
#: Without a comma, a name said to be the speaker's person opens it too ("Since the
#: restructure Marcus is my boss").
_MAIN = re.compile(r",\s*(?P<m>\S.*)$|\s(?P<m2>(?-i:I)(?:'[a-z]+)?\s.*|we(?:'[a-z]+)?\s.*)$|"
                   r"\s(?P<m3>(?-i:[A-Z])[a-z]+\s+(?:is|are|'s)\s+(?:now\s+)?(?:my|our)\s.*)$",
                   re.I)
#: An act opening a sentence as its subject ("Being an architect means ...", "Stacking
#: shelves at Morrisons these days"): a gerund, not a name ("Irving is my boss" is one).
_GERUND = re.compile(r"^(?-i:[A-Z])[a-z]+ing\b(?!\s+(?:is|was|has|had|and|said|says|got|"
                     r"gets|will|would)\b|')")


#: The speaker's frame of what they think or feel of a clause told after it: "I can't
#: believe my youngest is two already", "I heard my sister has moved to Leeds", "I'm so
#: proud that our eldest got into Durham": whose the sentence is, is its clause's subject's
#: ("can you believe I'm a junior already" is the speaker's).
_FRAME = re.compile(
    r"^(?:i\s+(?:still\s+|just\s+)?(?:can't|cannot|can\s+not|couldn't)\s+believe|"
    r"can\s+you\s+believe|i\s+(?:just\s+)?(?:think|reckon|guess|suppose|heard|hear|realised|"
    r"realized|noticed|found\s+out)|(?:i'm|i\s+am)\s+(?:so\s+|really\s+|very\s+)?(?:proud|"
    r"happy|glad|chuffed|thrilled|pleased|sad|sorry|relieved|amazed|shocked))\s+"
    r"(?:that\s+)?(?=(?:my|our|i|we)\b|(?-i:[A-Z][a-z]+)\b)", re.I)


def framed(sentence: str) -> str:
    """``sentence`` without the speaker's frame of what they think or feel of it ("I can't
    believe my youngest is two" -> "my youngest is two")."""
    return _FRAME.sub("", sentence.strip(), count=1)


def without_opening(sentence: str) -> str:
    """``sentence`` without an opening adverb ("Sadly, ...", "Last week ...")."""
    return _OPENING_ADVERB.sub("", sentence.strip(), count=1)


def subject_first(sentence: str) -> str:
    """``sentence`` from its subject on: without an opening adverb or a short scene
    ("Sadly, ...", "First night in our new flat ..." -> "our new flat ...")."""
    return _SCENE.sub("", without_opening(sentence), count=1)


def main_clause(sentence: str) -> str:
    """The main clause of a sentence opening on a subordinate one ("Since the office moved
    out to Slough, I catch the train" -> "I catch the train"), else the sentence."""
    s = without_opening(sentence)
    if not _SUBORDINATE.match(s):
        return sentence
    main = _MAIN.search(s)
    return (main["m"] or main["m2"] or main["m3"]) if main else sentence


#: A thing of the speaker's household: "the family home", "the household car", "the
#: family's car" (not "the family next door", "the family friend", "the family moved", nor
#: "my family ...": often the speaker's parents, apart from them).
_FAMILY_THING = re.compile(
    r"^(?P<det>the)\s+(?P<fam>family|household)(?:'s)?\s+"
    r"(?!(?:is|are|was|were|has|have|had|will|would|can|could|did|does|do|just|now|also|"
    r"still|next|across|over|from|of|in|at|on|who|which|that|and|or|but|moved|lives|live|"
    r"went|got|bought|sold)\b)(?P<thing>[a-z][\w-]*)\b", re.I)


def family_thing_of(sentence: str) -> re.Match[str] | None:
    """The opening of ``sentence`` on a thing of the family's ("The family home ..."), or
    None: a person of the family ("the family friend") is no thing."""
    m = _FAMILY_THING.match(sentence)
    # A verb is no thing ("the family motivates me", "the household agreed").
    if m is None or m["thing"].lower() in RELATIONS or \
            re.search(r"(?:ed|ing|[^s]s)$", m["thing"].lower()):
        return None
    return m


def possessed(sentence: str) -> str:
    """The named person another person has whose sentence ``sentence`` is ("Leo's friend
    Max is ten now" -> "friend max"), else "": Max's age, never Leo's. Unnamed, when what
    follows is that person's own life ("my son's best friend just turned 7", "Lena's
    manager quit"): that person, told as one word of theirs ("friend-of-son"), no one
    else's."""
    first = subject_first(sentence)
    if m := _POSSESSED_PERSON.match(first):
        return norm(m["h"])
    if m := _POSSESSED_OWN_LIFE.match(first):
        return f"{m['h'].lower()}-of-{(m['a'] or m['n']).lower()}"
    return ""


#: A child of the speaker's named by their order of birth, no kin word: "our youngest
#: started at ...", "my eldest is at Leeds uni now", "our middle one has a new phone"; not
#: "my eldest brother" or "my oldest friend" (a kin word names the person), nor "my oldest
#: car" (a thing: what follows is no verb, name or comma).
_BY_ORDER = re.compile(
    r"^(?:my|our)\s+(?P<h>eldest|oldest|youngest|firstborn|(?:middle|little|older|younger|"
    r"big|baby)\s+one)(?=,|'s\b|\s+(?-i:[A-Z])|\s+(?:is|are|was|were|has|have|had|will|"
    r"just|now|finally|also|recently|goes|went|got|gets|turned|turns|[a-z]+ed)\b)", re.I)


def by_order(sentence: str) -> str:
    """The child a sentence opens on by their order of birth ("our youngest started at
    Kingsway" -> "youngest"), else ""."""
    m = _BY_ORDER.match(subject_first(sentence))
    return norm(m["h"]) if m else ""


def subjectless(clause: str) -> bool:
    """Whether a clause opens on a verb, its subject dropped ("bought a Tesla", "went with
    Three", "then moved to York", "Sold the Golf"): not on a name followed by its own verb
    ("Fred moved to York", "Ted's left")."""
    m = re.match(r"^(?:(?:and|then|so|but)\s+)*(?P<w>[A-Za-z]+)(?P<n>'|\s+[\w']+)?",
                 without_opening(clause), re.I)
    if m is None or not _verb(m["w"]):
        return False
    after = (m["n"] or "").strip().lower()
    return not (after.startswith("'") or _verb(after) or
                after in ("is", "was", "has", "had", "will", "would", "can", "could"))


def _verb(word: str) -> bool:
    """Whether a word opening a clause is a verb said with its subject dropped ("Sold",
    "Been", "Quit", "Cancelled", "Packing"): the speaker's act, not a person's name."""
    low = word.lower()
    return bool(re.fullmatch(r"[a-z]+(?:ed|ing)", low)) or low in BASES or \
        low in PASTS or low in PARTICIPLES


def holder_of(sentence: str) -> str:
    """Whose statement ``sentence`` (first person, cleaned) is: "" for the speaker (I, we,
    "my husband and I", "my manager is Dev"), the holder's words for another ("my sister
    lives ..." -> "sister", "Leo turned 5" -> "leo"), ``UNKNOWN`` for a pronoun or a thing
    ("It became real"). What opens it before its subject is no holder
    (``opening.from_subject``: "Turns out I'm ...", "Mum thinks I'm mad but I've ...")."""
    sentence = framed(from_subject(sentence))
    if done_to_speaker(sentence) or subject_dropped(sentence) or new_thing(sentence) or \
            speakers_news(sentence):
        return ""   # "They made me ward manager", "Got engaged to ...", "The new flat ..."
    if shares(sentence) or done_to_speaker(speaker_object(sentence)):
        return ""   # "Everyone on the ward got moved to days, me too": a group of the speaker's
    if (main := main_clause(sentence)) is not sentence:
        return holder_of(main)      # "Since the restructure Marcus is my boss"
    s = subject_first(sentence)
    if _SUBORDINATE.match(s):
        # "Since the office moved out to Slough I catch the train": the main clause's.
        main = main_clause(s)
        return holder_of(main) if main != s else UNKNOWN
    if family_thing_of(s):
        return ""       # "the family home is in Frome now": the speaker's household's
    if _GERUND.match(s):
        return ""       # "Being an architect means ...": an act of the speaker's
    if held := possessed(sentence) or by_order(s):
        return held     # "Leo's friend Max is ten", "our youngest started at ..."
    if m := re.match(r"^(?:my|our)\s+(?P<h>[a-z]+)(?:'s|s')\s", s, re.I):
        return norm(m["h"])     # "my sister's Toyota broke down": a thing of hers
    # "my husband and I", "the kids and I", "Tom and I": the speaker with others.
    if re.match(r"^(?:i|we|me|us)\b|^(?:my|our|the)\s+(?:[\w-]+\s+)?[\w-]+\s+and\s+(?:i|me)\b|"
                r"^(?-i:[A-Z][a-z]+)\s+and\s+(?:i|me)\b|"
                r"^me\s+and\b|^(?:both|all|the\s+(?:two|three|four|five))\s+of\s+us\b|^(?:was|is)\s+(?:my|our)\s+(?:last|first)\s+day\b|"
                # "No statins for me now": what the speaker no longer has.
                r"^no\s+(?:more\s+)?[^,;.!?]{1,30}?\s+for\s+(?:me|us)\b", s, re.I):
        # "(Today) was my last day at ...": the speaker's day.
        return ""
    if _SPEAKERS_VALUE.match(s) or speakers_thing(s):
        return ""       # "she's my favourite writer now", "it's decaf for me now"
    # "My new phone is ...": the phone is the holder's word, "new" says it changed.
    s = re.sub(r"^((?:my|our)\s+)(?:new|current|latest)\s+", r"\1", s, flags=re.I)
    if kin_modifier(s):
        return ""       # "my pet insurance is with Petplan": a thing of the speaker's
    if m := re.match(r"^(?:my|our)\s+(?P<h>[a-z]+(?:-[a-z]+)*(?:\s+(?-i:[A-Z][a-z]+))?)\s+"
                     r"(?P<v>\w+)", s, re.I):
        if "-" in m["h"] and (set(m["h"].lower().split("-")) & RELATIONS or
                              m["h"].lower() in RELATIONS):
            return norm(m["h"])     # "my brother-in-law is ...", "my in-laws have ...": theirs
        if set(m["h"].lower().split()) & RELATIONS and re.match(
                r"^(?:my|our)\s+[a-z]+(?:\s+(?-i:[A-Z])\w+)?\s+(?:is|are|was|were)\s+"
                r"(?:not|no\s+longer|never|(?!(?:thing|something|nothing|everything|king|"
                r"darling|sibling)\b)\w+ing)\b", s, re.I):
            return norm(m["h"])     # "my dad is not drinking anymore": what he does
        if _DESCRIBED.match(s):
            return norm(m["h"])     # "my fiance is a nurse at St James's now": his job
        if _KIN_PLACED.match(s):
            return norm(m["h"])     # "my sister is in Edinburgh now": where she is
        if m["v"].lower() in ("is", "are", "was", "were", "will", "has", "have") and \
                not _PERSON_DID.match(s) and \
                not re.match(r"^(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])\w+)?\s+(?:is|are|has|have)\s+"
                             r"(?:just\s+)?(?:\d|turned|been|got|had|moved|lived|worked)", s, re.I):
            return ""       # "my manager is Dev": an attribute of the speaker
        return norm(m["h"])
    if m := re.match(r"^(?:the|his|her|their)\s+(?P<h>[a-z]+)\b", s, re.I):
        return norm(m["h"]) if m["h"].lower() not in _NOT_HOLDERS else UNKNOWN
    if speakers_subject(s):
        return ""       # "Home is a narrowboat now", "Monday was my first day at ..."
    if (m := re.match(r"^(?P<h>[A-Z][a-z]+)\b", s)) and m["h"].lower() not in _NOT_HOLDERS:
        if names_no_one(m["h"]):
            return UNKNOWN      # "Nope", "Tuesday works better": no one's name
        # "Sold the Golf in the end": the speaker's act, the subject dropped.
        return "" if subjectless(s) else norm(m["h"])
    return UNKNOWN


#: A person another person has, named, opening a sentence: "Leo's friend Max", "my son's
#: best mate Sam": that person is the holder, not the one named first. Unnamed ("my son's
#: teacher is Mr Hall") the person is the first one's relation, said as "my son has a new
#: teacher" as often: the son's.
_POSSESSED_PERSON = re.compile(
    r"^(?:(?:my|our)\s+[a-z]+|(?-i:[A-Z][a-z]+))'s?\s+(?:(?:best|old|new|little|big|older|"
    r"younger|eldest|youngest|close|school|childhood|current)\s+)?"
    rf"(?P<h>(?:{'|'.join(sorted(RELATIONS))})\s+(?-i:[A-Z][a-z]+))\b(?!')", re.I)
#: ... or unnamed, before what happens in that person's own life: "my son's best friend
#: just turned 7", "Lena's manager quit", "my wife's boss retired" (the first one's relation
#: otherwise: "my son's teacher is Mr Hall" is said of the son as often).
_POSSESSED_OWN_LIFE = re.compile(
    r"^(?:(?:my|our)\s+(?P<a>[a-z]+)|(?P<n>(?-i:[A-Z][a-z]+)))'s?\s+(?:(?:best|old|new|little|"
    r"big|older|younger|eldest|youngest|close|school|childhood|current)\s+)?"
    rf"(?P<h>{'|'.join(sorted(RELATIONS))})\s+(?:(?:just|has|have|had|recently|finally|"
    r"suddenly)\s+)*(?:turned|turns|quit|quits|left|retired|retires|died|passed\s+away|"
    r"got\s+(?:married|engaged|divorced|sacked|fired)|graduated|resigned)\b", re.I)
#: The animals among the kin words: "my pet is a corn snake" says which pet the speaker has.
_ANIMALS = frozenset({"pet", "dog", "cat", "kitten", "puppy"})
#: A person of the speaker's said to be what a noun names ("my fiance is a nurse at St
#: James's now", "my wife is now an architect"): the person's own attribute, not who the
#: speaker's person is ("my boss is a woman called Dorothy", "my GP is Dr Shah") nor an
#: age ("my son is a year old").
_DESCRIBED = re.compile(
    rf"^(?:my|our)\s+(?:{'|'.join(sorted(RELATIONS - _ANIMALS))})\s+(?:is|are|'s)\s+"
    r"(?![^,;.!?]*\b(?:called|named)\b)"
    r"(?:(?:now|still|also|currently)\s+)?an?\s+(?!(?:[\w-]+\s+)?(?:year|month|week|day)s?\b)"
    r"(?!(?:[\w-]+\s+)?(?:woman|man|guy|bloke|lady|chap|girl|lad|fella|fellow|person|"
    r"gentleman)\s+(?:called|named)\b)[\w-]+", re.I)
#: A person of the speaker's family told where they are ("my sister is in Edinburgh now",
#: "my parents are out in Spain these days"): their place, not an attribute of the
#: speaker's ("my manager is Dev" is; "my family is in Frome" is the household's).
_PLACED_KIN = FAMILY - _ANIMALS - {"family", "fam", "dogs", "cats", "pets"}
_KIN_PLACED = re.compile(
    rf"^(?:my|our)\s+(?:{'|'.join(sorted(_PLACED_KIN))})"
    r"\s+(?:is|are|'s|'re)\s+(?:(?:now|still|also|currently|finally|happily|all)\s+)?"
    r"(?:(?:back|over|out|down|up|off|away|based|living|settled|staying)\s+)?"
    r"(?:in|at|near|on)\s+(?:the\s+)?(?-i:[A-Z])", re.I)
#: A person of the speaker's who has done something ("my husband has started at ...", "my
#: wife has just qualified as ..."): their act, not an attribute of the speaker's.
_PERSON_DID = re.compile(rf"^(?:my|our)\s+(?:{'|'.join(sorted(RELATIONS))})\s+(?:has|have)\s+"
                         r"(?:just\s+|also\s+|finally\s+|recently\s+|now\s+)?"
                         r"(?!(?:need|want|seem|us|tri|appli|chang|switch|swapp|replac|updat)ed\b)"
                         r"[a-z]+ed\b", re.I)
#: A pronoun naming the speaker's own attribute or value: "she's my favourite writer now",
#: "that's my longest now", "it's decaf for me from now on".
_SPEAKERS_VALUE = re.compile(r"^(?:he|she|they|it|that|this)(?:'s|\s+is|\s+are)\s+"
                             r"(?:(?:now|still|officially)\s+)?(?:(?:my|our)\b|"
                             r"[^,;.!?]{1,30}?\s+for\s+(?:me|us)\b)", re.I)
#: The value told first, the speaker's role noun after the copula: "pottery is my thing
#: now", "green tea is my drink of choice these days" (not "Tom is my brother": a person of
#: the speaker's is said who they are, and "my sister is my rock" opens on her).
_VALUE_THEN_MINE = re.compile(
    r"^(?!(?:my|our|his|her|their|your|he|she|they|you|i|we)\b)[\w'-]+(?:\s+[\w'-]+){0,3}?"
    r"(?:'s|\s+(?:is|are|has\s+become|have\s+become|became))\s+(?:now\s+)?(?:my|our)\s+"
    rf"(?!(?:[\w-]+\s+)?(?:{'|'.join(sorted(RELATIONS))})\b)[\w-]+", re.I)
#: A thing named by what the speaker does with it: "the membership I've got these days is
#: at the leisure centre", "the car we drive now ...": the speaker's membership, car. Not a
#: person so named ("the guy I'm seeing is a chef" is his job).
_THING_I_HAVE = re.compile(
    r"^the\s+(?!(?:guy|man|woman|person|girl|boy|lady|bloke|people|folks?|one)\b)"
    rf"(?!(?:{'|'.join(sorted(RELATIONS))})\b)[\w-]+(?:\s+[\w-]+)?\s+(?:that\s+|which\s+)?"
    r"(?:i|we)(?:'ve|'m|'re|\s+(?:have|am|are))?\s+[a-z]+", re.I)


def speakers_thing(sentence: str) -> bool:
    """Whether ``sentence`` opens on a value of the speaker's role noun ("pottery is my
    thing now") or on a thing named by what the speaker does with it ("the membership I've
    got is at ..."): the speaker's, whatever its first word."""
    return bool(_VALUE_THEN_MINE.match(sentence) or _THING_I_HAVE.match(sentence))


#: Words a kin word used as a modifier is never followed by: "my sister really is ...".
_ADVERBS = frozenset("just now also still really finally currently actually never always "
                     "recently".split())


def kin_modifier(sentence: str) -> bool:
    """Whether a "my X Y is ..." sentence names a thing of the speaker's whose first word
    is a person or an animal used as a modifier ("my pet insurance is with Petplan", "my
    dog walker is Sam"): the holder is the speaker, not the pet."""
    m = re.match(r"^(?:my|our)\s+(?P<k>[a-z]+)\s+(?P<n>(?-i:[a-z]+))\s+(?:is|are|was|were|has|"
                 r"have)\b", sentence, re.I)
    return m is not None and m["k"].lower() in RELATIONS and \
        m["n"].lower() not in RELATIONS | _ADVERBS


#: A preference or a record of the speaker's: "my favourite author", "my usual order", "my
#: longest run" (``holder_of`` reads the adjective as a holder).
_OWN_ADJECTIVE = re.compile(r"^(?:my|our)\s+(?:favou?rite|usual|regular|go-to|preferred|main|"
                            r"longest|fastest|furthest|best|worst|biggest)\s+"
                            r"(?P<rest>[\w'-]+(?:\s+[\w'-]+)?)", re.I)


def memory_holder(sentence: str) -> str:
    """Whose a stored one-fact memory (read back in the first person) is, a preference or
    a record of the speaker's being theirs: "my favourite author is ...", "my longest run
    is 10k" (not "my best friend ...", "my favourite cousin Jo ...": a person's)."""
    holder = holder_of(sentence)
    m = _OWN_ADJECTIVE.match(subject_first(sentence))
    if holder and holder != UNKNOWN and m and not any(
            w[0].isupper() or set(re.sub(r"'s?$", "", w.lower()).split("-")) & RELATIONS
            for w in m["rest"].split()):
        return ""
    return holder


#: The words of one kin relation in its registers and dialects ("nan", "gran", "grandma"
#: and "grandmother" are one person of the speaker's): a closed class of English, each
#: read as its first word.
_KIN_SAME = ("grandmother grandma granny gran nan nana nanna", "grandfather grandpa grandad "
             "granddad gramps", "mother mum mom mam mummy mommy", "father dad daddy papa")
_KIN = {w: group.split()[0] for group in _KIN_SAME for w in group.split()}


def kin_word(word: str) -> str:
    """A kin word as its relation's first word ("nan" -> "grandmother"); any other as it is."""
    return _KIN.get(word.lower(), word)


def same_holder(a: str, b: str) -> bool:
    """Whether holders ``a`` and ``b`` are one: equal, or sharing a word ("son leo" and
    "leo"; "nan" and "grandmother": :func:`kin_word`); never when one is not known."""
    if UNKNOWN in (a, b):
        return False
    return a == b or bool(a and b and {kin_word(w) for w in a.split()} &
                          {kin_word(w) for w in b.split()})
