"""A change of the speaker's told of the speaker among others, or of a thing they share:
"We sold both our cars and now share one Skoda Octavia", "We dropped the gym and signed up
for the leisure centre instead", "The family home is in Frome these days", "the household
car is a Zafira now". The speaker is one of the holders, so the value is theirs too; but the
clause carrying it does not open on "I" or "we": its subject is dropped after the speaker's
("... and now share ..."), or it opens on a thing of the family's ("the family home"), and
whose it is reads as not known, or as a person called "family" (``holders.holder_of``). The
speaker's own statement of what holds now is that clause with the speaker as its subject,
"I now share one Skoda Octavia", "I signed up for the leisure centre instead", "our family
home is in Frome these days"; it is read for a change as its own sentence
(``change_statements._now_clause``), and the sentence is told whole.

Why it is general: English grammar only. A clause whose subject is dropped shares the
subject of the clause before it (coordination), and only a speaker's subject (I, we, "X and
I", "me and X") is carried; a dropped subject after another's ("My brother sold his Golf
and bought a Tesla") is that person's (``profile.anothers_clause``) and is not re-voiced. A
thing of the family's is the family's, the speaker's household, unless the family is
another's ("the family next door", "Tom's family"). The carried clause must say that it
holds now or changed (a now word, a change cue): a story's next step ("and stayed in a
hotel") says nothing of now. Pure functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS

from .cues import signals
from .holders import family_thing_of, holder_of, subjectless, without_opening
from .meaning import clauses

__all__ = ["ours", "family_thing", "acted_on_ours", "household"]

#: The speaker's subject opening a clause: I, we, the speaker with others ("me and the
#: kids", "Sam and I", "my wife and I", "both of us").
_SPEAKERS = re.compile(
    r"^(?:(?:and|so|then|but|well|anyway)\s+)?(?:i|we|i'm|we're|i've|we've|i'd|we'd|"
    r"me\s+and\s+[^,;]{1,30}?|[^,;]{1,30}?\s+and\s+(?:i|me)|both\s+of\s+us|all\s+of\s+us|"
    r"the\s+(?:two|three|four|five)\s+of\s+us)(?=\s|$)", re.I)

#: Words that may open a clause before its dropped subject's verb: "(and) now share ...".
_LEAD = re.compile(r"^(?:(?:and|then|so|but|now|also|just|finally|recently|since|even|"
                   r"both|all)\s+)*", re.I)

#: The others the speaker holds a thing with, said after it ("between the two of us",
#: "between us", "together"): the speaker's own statement leaves them out.
_WITH_OTHERS = re.compile(r"\s+(?:(?:between|among|amongst)\s+(?:the\s+\w+\s+of\s+us|"
                          r"all\s+of\s+us|both\s+of\s+us|us(?:\s+all|\s+both)?|ourselves)|"
                          r"together)\b", re.I)

#: The verb forms of "we" said of "I".
_AGREE = {"are": "am", "were": "was", "'re": "'m"}

def family_thing(sentence: str) -> str | None:
    """``sentence`` opening on a thing of the family's said as the speaker's ("The family
    home is in Frome" -> "our family home is in Frome"), or None."""
    said = without_opening(sentence.strip())
    m = family_thing_of(said)
    if m is None:
        return None
    rest = re.split(r"\s*(?:[,;:!?(]|\s-\s)", said[m.end():], maxsplit=1)[0]
    return f"our {m['fam'].lower()} {m['thing']}{rest}"


def _as_mine(clause: str) -> str:
    """A clause whose subject is dropped said with "I": "now share one Skoda" -> "I now
    share one Skoda", "are settled in Leeds" -> "I am settled in Leeds"."""
    lead = _LEAD.match(clause)
    rest = clause[lead.end():] if lead else clause
    head = clause[:len(clause) - len(rest)]
    head = re.sub(r"^(?:(?:and|then|so|but)\s+)+", "", head, flags=re.I)
    m = re.match(r"^([\w']+)", rest)
    if m and m[1].lower() in _AGREE:
        rest = _AGREE[m[1].lower()] + rest[m.end():]
    return _WITH_OTHERS.sub("", f"I {head}{rest}").strip()


#: Words a clause opens on that are no verb: its own subject, or no clause of a doing.
_NO_VERB = frozenset("""
the a an my our your his her their its this that these those there here it he she they you
i we me us him them who which what when where why how if as in on at to for with from by of
or nor yet far too quite rather also
about after before since until while because though although not no never very really so
one two three four five some all both each every any many much more most few lots
""".split())
#: The auxiliaries that open a clause whose subject is dropped ("and are renting in Hove").
_AUX = frozenset("are were have has had am 've 're will would can could".split())


def _dropped(clause: str) -> bool:
    """Whether ``clause`` (past its leading adverbs) opens on a verb, its subject dropped:
    "share one Skoda", "signed up for ...", "are renting in Hove"; not "the kids love it",
    "it was great", "Sam's doing the books"."""
    m = re.match(r"^([a-z][\w']*)(?:\s+([\w']+))?", clause)
    if m is None:
        return False
    first, second = m[1].lower(), (m[2] or "").lower()
    if first in _AUX:
        return True
    if first in _NO_VERB or "'" in first or second in ("is", "are", "was", "were", "has",
                                                        "have", "had", "will", "would"):
        return False
    # A past or an irregular verb ("signed up", "bought"), or a plain verb before its
    # object ("share one Skoda", "lease a Kia"): not a noun ("rasberry cake"), an
    # adverb ("far too dear"), a gerund ("pulling pints": no subject dropped).
    if first.endswith("ing"):
        return False
    return subjectless(clause) or bool(re.match(
        r"^[a-z]+\s+(?:a|an|the|one|two|three|my|our|his|her|their|some|it|them)\b", clause))


def _carried(sentence: str) -> str | None:
    """The first clause after the speaker's whose subject is dropped and which says that it
    holds now or changed, said with "I" (``_as_mine``); None else."""
    parts = clauses(sentence)
    if len(parts) < 2 or not _SPEAKERS.match(without_opening(sentence)) or \
            holder_of(sentence) != "":
        return None
    for part in parts[1:]:
        clause = part.strip()
        lead = _LEAD.match(clause)
        bare = clause[lead.end():] if lead else clause
        if not bare or not _dropped(bare):
            return None     # a clause with a subject of its own: none carried past it
        sig = signals(clause)
        if sig.replaces and (sig.now or sig.change or sig.strong):
            return _as_mine(clause)
    return None


#: Another person's act on a thing of the speaker's (or of the household's): "My wife
#: moved our joint account to Monzo", "Dad's switched our energy over to Octopus". Only an
#: act done (no "not", "will", "going to", "if"), and a thing, not a person or an animal
#: ("my wife moved my mum into a care home" is the mum's: ``theirs.py``).
_ON_OURS = re.compile(
    r"^(?!(?:i|we|me|us)\b)(?![^,;]*?\b(?:not|never|n't|would|could|might|will|shall|should|"
    r"wants?|wanted|tried|tries|offered|going\s+to|gonna|if|whether)\b)"
    r"(?P<agent>[\w'&.-]+(?:\s+[\w'&.-]+){0,4}?)\s+"
    r"(?:(?:has|have|'s|'ve|just|finally|recently|also)\s+)*"
    r"(?P<verb>moved|switched|changed|transferred|swapped|upgraded|renewed)\s+"
    r"(?P<thing>(?:our|my)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?P<rest>(?:over\s+|across\s+|back\s+)?(?:to|onto|into|with)\s+[^,;]+)", re.I)


def acted_on_ours(sentence: str) -> str | None:
    """Another person's act on a thing of the speaker's said as the speaker's own ("My
    wife moved our joint account to Monzo" -> "I moved our joint account to Monzo"), or
    None: the speaker's thing holds the new value, whoever moved it."""
    m = _ON_OURS.match(without_opening(sentence.strip()))
    if m is None or set(re.sub(r"'s?\b", "", m["thing"].lower()).split()[1:]) & RELATIONS:
        return None
    return f"I {m['verb'].lower()} {m['thing']} {m['rest'].strip()}"


#: The speaker's household as the subject: "our whole family goes to St Luke's now", "the
#: whole household is on Octopus", "our family has switched to Ocado" (not "my family":
#: often the speaker's parents, apart from them; not "the family next door").
_HOUSEHOLD = re.compile(r"^(?:our\s+(?:whole\s+|entire\s+)?|the\s+(?:whole|entire)\s+)"
                        r"(?:family|household|lot)\s+(?P<adv>(?:(?:now|all|also|just|finally|"
                        r"recently)\s+)*)(?P<verb>[a-z]+)\b(?P<rest>.*)$", re.I)
#: The third person of a verb said of "I".
_OWN = {"is": "am", "has": "have", "does": "do", "goes": "go", "was": "was"}


def _first_person(verb: str) -> str | None:
    """The first person of a present or past verb of the third person singular ("goes" ->
    "go", "lives" -> "live", "moved" -> "moved"), None for no verb ("next", "friend")."""
    low = verb.lower()
    if low in _OWN:
        return _OWN[low]
    if re.fullmatch(r"[a-z]{2,}ed", low):
        return low
    if re.fullmatch(r"[a-z]+(?:ch|sh|ss|x|z)es", low):
        return low[:-2]
    if re.fullmatch(r"[a-z]+[^aeiou]ies", low):
        return low[:-3] + "y"
    if re.fullmatch(r"[a-z]{2,}[^su]s", low):
        return low[:-1]
    return None


def household(sentence: str) -> str | None:
    """The speaker's household as the subject said as "I" ("Our whole family goes to St
    Luke's now" -> "I go to St Luke's now"), or None."""
    m = _HOUSEHOLD.match(without_opening(sentence.strip()))
    if m is None or (verb := _first_person(m["verb"])) is None:
        return None
    return f"I {m['adv']}{verb}{m['rest']}"


def ours(sentence: str) -> str | None:
    """The speaker's own statement of what holds now that ``sentence`` (cleaned) tells of
    the speaker among others: a clause whose subject is dropped after the speaker's ("We
    sold both our cars and now share one Skoda Octavia" -> "I now share one Skoda
    Octavia"), or a thing of the family's ("The family home is in Frome these days" ->
    "our family home is in Frome these days"); None else."""
    s = sentence.strip()
    if not s or s.endswith("?"):
        return None
    return family_thing(s) or acted_on_ours(s) or household(s) or _carried(s)
