"""Whether a change picked by meaning changes a thing of another kind than the memory holds
(issue 23: a wrong supersede takes a true fact out of recall).

A finder by meaning (``stale.change_target``'s similarity, ``meaning.by_meaning``,
``present.present_target``, ``present_value``) compares what two texts are about with the
small model; right picks go as low as cos .25 ("became a data analyst" over "teaches
maths") and wrong ones as high (".351" for "I changed practices" over "has been doing a lot
of jigsaw puzzles"): no cosine bar separates them. What does is what the two values ARE: a
practice and a jigsaw share no kind nearer than "entity"; a data analyst and a maths
teacher are both persons. WordNet (``index.lexicon``) says it:

- **the new value**: the head noun of the object of the first clause's verb of change or
  of using ("I've changed *banks*", "Now I use a *flask* instead of a mug", "sold the
  *horsebox*"), or of what it changed to ("swapped the car for a *motorbike*", "switched
  to *oat milk*"; "for a bigger one" points back at the object), past an opener of a few
  words ("Big news, ..."); a physical thing in one of its senses (not "jobs", "courses",
  "practices": an attribute's name, whose values are of other kinds); a copula ("I'm a
  midwife now"), another verb ("got the keys to our new place", "I've gone vegetarian")
  or a name ("switched to Three") reads none;
- **the memory's held things**: every noun of every noun phrase of its one sentence, its
  subject's too ("My *doctor* is ...", "I play *squash* at the sports *club*"), and the
  doer its verb names when WordNet knows one as a worker or a professional ("teaches
  maths": a *teacher*), read generously: a pick is refused only when NO held thing shares a
  kind with the new value. A memory whose value is a name (in its verb's first phrase,
  "goes to Oakwood Primary", "drives a Volvo estate", or anywhere after a copula, "is a
  member of the YMCA") holds a thing WordNet does not know: not read;
- **another kind**: the two share no kind deeper than a general one (``GENERAL_DEPTH``:
  "whole", "object", "abstraction", "relation"...: :meth:`Lexicon.shared_depth`, the
  deepest kind any of their first senses meet at). Measured on pairs
  (tests/element/test_other_kind.py): values of one attribute share "artifact"
  (flat/house, trainers/boots, 4) or deeper ("beverage", "motor vehicle", "skilled
  worker", a person and a person "organism" 5); a dentist and a gym, a boiler and a
  tomato, a flask and coffee, a van and a carpenter share "whole" (3) or less. A person
  and an animal share "organism" (a vet and a cat: not refused), and a word's rarer
  senses can meet deep (a racket is also a noisy "activity", like squash): the guard
  misses those rather than refuse a true change.

Time words ("last month", "twice a week", "on Thursdays") and numbers name no held thing.

Why it is general: English noun phrase grammar over closed classes (determiners,
prepositions, pronouns, auxiliaries) and WordNet's hierarchy; no case, value or attribute
list. Pure functions over texts.
"""

from __future__ import annotations

import re

from index import lexicon

from .updates import first_person

__all__ = ["other_kind", "new_value_noun", "held_nouns", "GENERAL_DEPTH"]

#: The deepest a kind two values share may lie and still be a general one: WordNet's top
#: ("entity" 0, "physical entity"/"abstraction" 1, "object"/"relation" 2, "whole" 3).
GENERAL_DEPTH = 3

#: Words that open a noun phrase and are no part of its head.
_DETERMINERS = frozenset(
    "a an the my our your his her their its this that these those some any another every "
    "two three four five six seven eight nine ten eleven twelve twenty hundred "
    "each no new old same other own different bigger smaller better cheaper proper first "
    "second last next few many several lots lot couple pair few".split())
_NUMBERS = frozenset("two three four five six seven eight nine ten eleven twelve twenty "
                     "hundred".split())
#: Words that end a noun phrase: prepositions, conjunctions, pronouns, auxiliaries,
#: adverbs of time, degree and manner.
_PREPOSITIONS = frozenset(
    "to for into in on at with from by of about over under near above below after before "
    "since instead as like than through across around off up down out back away onto "
    "per via without within beside behind".split())
_BOUNDARIES = _PREPOSITIONS | frozenset(
    "and or but so because while when if then "
    "i we you he she they it me us him them one ones myself there here "
    "am is are was were be been being have has had do does did will would can could "
    "shall should may might must 's 've 'm 're 'd 'll "
    "not never now just also finally recently really actually still again too already "
    "twice once much very more less most well even only always often usually "
    "today yesterday tonight tomorrow week weeks month months year years day days "
    "morning mornings evening evenings night nights weekend weekends time times "
    "these those everyday every all".split())
#: The verbs of a change whose object is the old or the kind and whose complement after
#: "to", "for", "into" or "with" is the new value.
_CHANGE_VERBS = re.compile(r"^(?:switch|swap|chang|mov|trad|replac|exchang|upgrad)\w*$", re.I)
#: The verbs of using a thing or of parting with it, whose object is the thing held now or
#: given up ("I use a backpack now", "sold the horsebox"); not of getting ("got the keys
#: to our new place": the keys are no home).
_HOLDING_VERBS = re.compile(r"^(?:use|used|uses|using|sold|sell|sells|selling)$", re.I)
#: Where a statement's first clause ends.
_CLAUSE_END = re.compile(r"[,;:.!?]|\s(?:but|so|because|though|although|which|who|since)\s",
                         re.I)
_WORD = re.compile(r"'?[A-Za-z0-9][A-Za-z0-9'-]*")
#: Prepositions introducing what a change went to.
_TO = frozenset(("to", "for", "into", "with"))
#: What a value went from: the old one, not the new.
_FROM = frozenset(("from", "instead", "of"))


def _phrases(words: list[str], whole: bool = False) -> list[tuple[str, str, int]]:
    """The noun phrases of ``words``: (the preposition before it or "", its head, the index
    of its first word). A phrase is a run of words that are neither determiners nor
    boundaries; its head is its last word, or its last two when WordNet knows them as one
    ("double bass", "building society"); with ``whole``, each of its words besides."""
    out: list[tuple[str, str, int]] = []
    prep, start = "", 0
    run: list[str] = []
    lex = lexicon()

    def close() -> None:
        if run:
            two = " ".join(run[-2:]).lower()
            head = two if len(run) > 1 and lex is not None and lex.knows(two) else run[-1]
            out.append((prep, head, start))
            out.extend((prep, word, start) for word in run[:-1] if whole)

    for i, word in enumerate(words):
        low = word.lower()
        if word[:1].isupper() and low in _NUMBERS:
            low = "(name)"      # "switched to Three": a name
        if low in ("one", "ones") and prep in _TO and not run:
            out.append((prep, "one", i))     # "swapped the van for a bigger one"
        if low in _DETERMINERS or low in _BOUNDARIES or low.endswith("ly") or \
                low.endswith("'s") or low.isdigit() or _PAST.search(low):
            close()
            if run or low in _BOUNDARIES or _PAST.search(low):
                prep = low if low in _PREPOSITIONS else ""
            run = []
            continue
        if not run:
            start = i
        run.append(word)
    close()
    return out


def _words(text: str) -> list[str]:
    return _WORD.findall(text.replace("\u2019", "'").replace("'s ", " 's ")
                         .replace("'ve ", " 've ").replace("'m ", " 'm ")
                         .replace("'re ", " 're ").replace("'d ", " 'd ")
                         .replace("'ll ", " 'll "))


def _verb_at(words: list[str]) -> tuple[int, int]:
    """Where the statement's verb stands and where what follows it starts: past its subject
    pronoun and auxiliaries ("I've switched", "After the course I'm ..."), past a subject
    noun phrase up to its first auxiliary or past tense ("The boiler got replaced", "My son
    swapped ..."), or first ("Changed vets", "Switched to oat milk"); the verb -1 when a
    copula stands there ("I'm a midwife now", "it's boots these days")."""
    lowered = [w.lower() for w in words]
    i = next((n for n, w in enumerate(lowered) if w in _SUBJECTS), -1)
    if i >= 0:
        i += 1
    elif lowered and (lowered[0] in _DETERMINERS or words[0][:1].isupper() and
                      not _PAST.search(lowered[0])):
        i = next((n for n, w in enumerate(lowered) if n and
                  (w in _AUXILIARIES or _PAST.search(w))), len(words))
        if i < len(words) and _PAST.search(lowered[i]):
            return i, i + 1
    else:
        i = 0
    while i < len(words) and lowered[i] in _AUXILIARIES:
        i += 1
    if i > 0 and lowered[i - 1] in _COPULAS:
        if i < len(words) and lowered[i].endswith("ing"):
            return i, i + 1     # "I'm doing pilates now", "he's begging for ..."
        return -1, i
    if i > 0 and lowered[i - 1] in _HAVING and (i == len(words) or lowered[i] in _DETERMINERS):
        return i - 1, i     # "I have a tabby cat", "I've got a new phone"
    return i, i + 1


#: The speaker as a subject (and "it" of a cleft: "it's boots these days").
_SUBJECTS = frozenset(("i", "we", "it"))
#: A verb's past tense: regular, or one of the irregular pasts of having and changing.
_PAST = re.compile(r"^(?:\w+ed|got|went|gone|took|bought|sold|made|gave|traded|swapt)$")
#: Auxiliaries and adverbs between a subject and its verb.
_AUXILIARIES = frozenset("'ve 'm 's 're 'd have has had am is are was were just finally "
                         "recently now also really actually then been got".split())
_COPULAS = frozenset("'m 's 're am is are was were been".split())
_HAVING = frozenset("have has had got".split())


def new_value_noun(sentence: str) -> str | None:
    """The head noun of what a first-person statement's first clause says holds now (module
    doc); None when it is a name, a pronoun, or none is read."""
    words = _speakers_clause(sentence)
    verb, rest = _verb_at(words)
    if not 0 <= verb < len(words):
        return None     # a copula ("I'm a midwife now"): a state, told of no thing
    phrases = _phrases(words[rest:])
    if _CHANGE_VERBS.search(words[verb]):
        went = [head for prep, head, _ in phrases if prep in _TO]
        if went and went[0] != "one":
            return _noun(went[0])
    elif not _HOLDING_VERBS.search(words[verb]):
        return None     # a verb of no change and no holding: its object is no value
    objects = [head for prep, head, _ in phrases if not prep and head != "one"]
    return _noun(objects[0]) if objects else None


def _speakers_clause(sentence: str) -> list[str]:
    """The words of the statement's first clause past an opener of a few words ("Big news,
    I've relocated to ...", "Honestly, I use ...")."""
    clauses = [w for c in _CLAUSE_END.split(" " + sentence.strip() + " ") if (w := _words(c))]
    while len(clauses) > 1 and len(clauses[0]) <= _OPENER_WORDS:
        clauses = clauses[1:]
    return clauses[0] if clauses else []


#: How many words an opener has at most ("Big news", "Quick update", "To be honest").
_OPENER_WORDS = 3


def held_nouns(content: str, who: str) -> list[str]:
    """The head nouns of every noun phrase of a one-sentence memory (read in the first
    person), past its verb: the things it holds."""
    said = first_person(content, who)
    if len(said) != 1:
        return []
    words = _words(said[0])
    verb, rest = _verb_at(words)
    # Its subject too ("My doctor is Dr Patel"), and each word of a phrase ("my coffee
    # black"): a held thing missed only lets a pick stand.
    subject = words[:verb] if verb >= 0 else words[:rest]
    phrases = _phrases(subject, whole=True) + _phrases(words[rest:], whole=True)
    held = [noun for _, head, _ in phrases if (noun := _noun(head)) is not None]
    doer = _doer(words[verb]) if 0 <= verb < len(words) and held else None
    return held + [doer] if doer else held


#: Verbs of no kind of their own: their doer is only "a person".
_LIGHT_VERBS = frozenset("go goes do does have has get gets live lives use uses make makes "
                         "take takes keep keeps be am is are".split())


def _doer(verb: str) -> str | None:
    """The noun of the one who does what ``verb`` says, when WordNet knows it as a worker
    or a professional ("teaches" -> "teacher", "drives" -> "driver", not a "player" or a
    "drinker"): "teaches maths" holds a job as much as a subject, so "I became a data
    analyst" is of its kind."""
    lex = lexicon()
    if verb.lower() in _LIGHT_VERBS:
        return None     # a goer, a doer, a haver: of no kind
    stem = re.sub(r"(?:es|s)$", "", verb.lower()) if verb.lower().endswith(("ches", "shes")) \
        else re.sub(r"s$", "", verb.lower())
    for noun in (stem + "er", stem + "r"):
        if lex is not None and (lex.is_a(noun, "worker") or lex.is_a(noun, "professional")):
            return noun
    return None


def _noun(head: str) -> str | None:
    """``head`` as a common noun WordNet knows, or None (a name, a pronoun, an unknown word,
    a word of time or quantity)."""
    lex = lexicon()
    if lex is None or head[:1].isupper() or head.lower() in _BOUNDARIES:
        return None
    word = head.lower()
    if not lex.knows(word) or lex.is_a(word, "time period") or lex.is_a(word, "time unit") \
            or lex.is_a(word, "number"):
        return None
    return word


def other_kind(sentence: str, memory: str, who: str) -> bool:
    """Whether the first-person statement ``sentence`` gives a new value of another kind of
    thing than every thing the memory ``memory`` (of ``who``'s) holds: both read, WordNet
    knowing them, sharing no kind deeper than a general one (module doc). False whenever
    either is not read: the finder's pick stands."""
    lex = lexicon()
    if lex is None:
        return False
    new = new_value_noun(sentence)
    if new is not None and not lex.is_a(new, "physical entity"):
        new = None      # "I changed jobs", "switched courses": the attribute, not a value
    held = held_nouns(memory, who) if new is not None and not _names_value(memory, who) \
        else []
    if new is None or not held:
        return False
    depths = [lex.shared_depth(one, other) for one in _forms(new) for old in held
              for other in _forms(old)]
    return all(d is None or d <= GENERAL_DEPTH for d in depths) and \
        any(d is not None for d in depths)


def _names_value(memory: str, who: str) -> bool:
    """Whether a memory names a proper name past its first word ("goes to Oakwood Primary",
    "is a member of the YMCA", "drives a Volvo estate"): a value WordNet does not know, so
    what kind of thing it holds is not read (a new school, gym or car may replace it)."""
    said = first_person(memory, who)
    if len(said) != 1:
        return True
    words = _words(said[0])
    verb, rest = _verb_at(words)
    if 0 <= verb < len(words):
        # Of a verb, the value is its first phrase ("keeps two ponies at a farm near
        # Hexham": the ponies; "works at Tesco on the tills": Tesco); of a copula, its
        # value may be anywhere ("is a member of the YMCA").
        phrases = _phrases(words[rest:])
        end = phrases[1][2] if len(phrases) > 1 else len(words) - rest
        words = words[rest:rest + end]
    lex = lexicon()
    return any((any(c.isupper() for c in word) or any(c.isdigit() for c in word)) and
               word not in ("I", "I'm", "I've") and
               not (lex is not None and lex.is_a(word, "time period"))   # "on Thursdays"
               for word in words[1:] if word.lower() != who.lower())


def _forms(word: str) -> tuple[str, ...]:
    """``word`` and, for a plural WordNet knows as a name too ("banks", "rackets"), its
    singular: either sense may be the one meant."""
    lex = lexicon()
    single = word[:-1] if len(word) > 3 and word.endswith("s") and \
        not word.endswith(("ss", "us")) else ""
    return (word, single) if single and lex is not None and lex.knows(single) else (word,)
