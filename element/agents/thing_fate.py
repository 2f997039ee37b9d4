"""A thing's fate: the end of a thing of the speaker's told as what became of it.

People tell a thing of theirs ended by what became of it, in the past, with a cause or a
time, and no verb of ending the grammar lists (``ending_grammar.py``, ``befallen.py``,
``told_ended.py``): the ending was stored as an episode linked to nothing, the old fact
left current. Its shapes, whatever the thing:

- the thing ceased to be or to be had, itself the subject of an intransitive verb of
  dissolving, sinking, vanishing or dying (:data:`_CEASED`): "the choir wound up in
  January", "the Harriers merged into another club", "the houseboat sank at her
  moorings", "Kiwi flew out the window", "the tortoise wandered off", "the colony didn't
  survive the winter", "the goats went to a farm";
- any past act on it told final by an adverbial of finality (:data:`_FINAL`): "Monty went
  to sleep for the last time", "we loaned the pony out for good", "my nephew smashed it
  beyond repair", "... and we never found him";
- the thing done away with by someone's hand, covered or dug out of being
  (:data:`_DONE_AWAY`): "Mum paved over the veg patch", "the council concreted over the
  allotments", "wrote the Mini off";
- the whole of a flock or a brood lost (:data:`_LOST_ALL`): "I lost every one of the
  fish", "lost the last of the hens".

Each gives the thing as said (a pronoun read back to the noun phrase named before it,
the quantifier of the whole dropped: "every one of the fish" is "the fish"); the memory
it ends is found as for any ending (``endings.py``: meaning, words, kind, the lexicon),
only when one memory is clearly meant.

What ends nothing: a person as the thing ("my son went missing for an hour"), a part or
one of several ("one of the hens died", "the car's wing mirror got smashed"), a thing that
came back or was found ("ran off but came home the next day"), for a while ("the choir
wound up for the summer"), not done ("nearly sank", "might fold"), a plan, and the
speaker as the subject of a verb of ceasing ("we disappeared for the weekend"). Pure
functions over a clause; closed classes of English verbs, particles and adverbials; no
case, no benchmark, no name.
"""

from __future__ import annotations

import re

from index import lexicon

from .befallen import for_a_while, made_thing
from .slots import PEOPLE

__all__ = ["fates", "told_final"]

#: The whole of a thing that is many: "both goats", "all the hens", "every one of the
#: fish", "the last of the chickens" (not "one of the ducks": one of several).
_WHOLE = r"(?:(?:both|all|every\s+(?:last\s+)?one|every\s+last|the\s+last)(?:\s+of)?\s+)"
#: A definite noun phrase or a name: the thing as said.
_NP = (r"(?:(?:the|my|our)\s+(?:[\w'&-]+\s+){0,3}?[\w'&-]+|"
       r"(?-i:[A-Z])[\w'&-]+(?:\s+(?-i:[A-Z&])[\w'&-]*){0,2})")
#: Where a noun phrase ends: the clause's end, a stop, or a preposition or conjunction.
_NP_END = (r"(?=\s*$|\s*[,.;:!?]|\s+(?:for|in|at|on|and|to|with|last|this|after|before|when|"
           r"so|because|but|from|by|near|outside|over|into|off|out|up|down|while|then)\b)")
#: The thing as the subject: a definite noun phrase or a name, or the whole of one
#: ("both goats").
_SUBJECT = (rf"^(?P<x>{_WHOLE}?{_NP}|(?:both|all)\s+[\w'-]+)"
            r"(?:\s+(?:has|have|had|'s|'ve|just|finally|sadly|then|eventually|basically|"
            r"actually|suddenly|somehow|quietly|got|was|were|been|all|both|(?:sort|kind)\s+of))*"
            r"\s+")
#: Verbs of ceasing to be, or to be had, the thing their subject.
_CEASED = re.compile(
    _SUBJECT +
    r"(?:wound\s+up|(?:got|was|been)?\s*disbanded|dissolved|merged\s+(?:into|with)|"
    r"sank|sunk|went\s+down\s+with\s+all|went\s+(?:missing|awol)|"
    r"(?:ran|run|flew|flown|wandered|slipped|swam|hopped|scarpered)\s+(?:off|away|out)|"
    r"(?:drifted|floated)\s+(?:off|away)|(?:blew|blown)\s+(?:away|down|over)|"
    r"collapsed|fell\s+down|fizzled(?:\s+out)?|petered\s+out|"
    r"escaped|vanished|disappeared|drowned|perished|"
    # Died, in the words people use of a pet: "crossed the rainbow bridge", "passed on
    # Tuesday", "slipped away in his sleep".
    r"crossed\s+(?:over\s+)?the\s+rainbow\s+bridge|slipped\s+away|"
    r"passed(?:\s+on)?(?=\s*(?:$|[,.;!]|(?:on|in|last|this|at|away|peacefully|quietly|"
    r"yesterday|overnight|early)\b))|"
    r"(?:got|was|were|been)\s+(?:washed|swept|blown)\s+away|(?:washed|swept|blown)\s+away|"
    r"(?:got|was|were|been)\s+(?:crushed|smashed(?:\s+up)?|wrecked|totall?ed|mangled|trashed|"
    r"flattened|destroyed)|"
    r"(?:burnt|burned)\s+(?:down|to\s+the\s+ground)|went\s+up\s+in\s+(?:flames|smoke)|"
    r"(?:did\s+not|didn't|never)\s+(?:survive|make\s+it|recover|pull\s+through|"
    r"c(?:a|o)me\s+(?:back|home))|"
    r"went\s+to\s+(?:the|a|an)\s+(?:farm|sanctuary|rescue|shelter|breakers|scrapyard|"
    r"scrappers|knacker'?s\s+yard|knackers|tip|dump|crusher)"
    # the place itself, not one of its people or parts ("went to the farm vet").
    r"(?=\s*(?:$|[,.;:!]|(?:in|at|on|near|down|up|for|with|outside|last|this|and|where|"
    r"over|across|nearby|after|when)\b)))\b", re.I)
#: Adverbials that tell an act on a thing final.
_FINAL = re.compile(r"\b(?:for\s+good|for\s+the\s+(?:very\s+)?last\s+time|beyond\s+(?:repair|"
                    r"saving|fixing|help)|never\s+to\s+be\s+seen\s+again|never\s+(?:seen|"
                    r"heard\s+of)\s+again|(?:and\s+)?(?:i|we)\s+never\s+(?:found|saw)\s+"
                    r"(?:him|her|it|them)(?:\s+again)?)\b", re.I)
#: Verbs that take a thing in or keep it, which "for good" makes lasting, not over.
_TAKEN_IN = re.compile(r"^(?:bought|got|gotten|adopted|kept|keeping|joined|moved|settled|"
                       r"switched|signed|took|taken|brought|started|picked|came|come|"
                       r"stayed|returned|went\s+back)\b", re.I)
#: A past verb (and its particle) acting on an object: "loaned the pony out", "smashed it".
_ACT = re.compile(r"\b(?P<v>[a-z]+ed|sold|put|sent|gave|lent|let|took|broke|left|lost|"
                  r"threw|swapped)\s+(?:(?P<x>(?:the|my|our|(?-i:[A-Z]))[\w' -]*)|"
                  r"(?P<p>it|them|him|her)\b)", re.I)
#: A thing done away with by someone's hand: covered over, dug out, written off.
_DONE_AWAY = re.compile(rf"\b(?:(?:paved|concreted|tarmacked|tarmacadamed|gravelled|built|"
                        rf"decked|turfed)\s+over|dug\s+up|grubbed\s+up|bulldozed|"
                        rf"(?:wrote|written)\s+off)\s+(?P<x>{_NP}){_NP_END}|"
                        rf"\b(?:wrote|written)\s+(?P<y>{_NP})\s+off\b", re.I)
#: The whole of a flock or brood lost: "lost every one of the fish".
_LOST_ALL = re.compile(rf"\blost\s+(?:every\s+(?:last\s+)?(?:one\s+)?(?:of\s+)?|the\s+last\s+of\s+)"
                       rf"(?P<x>{_NP}|[\w'-]+){_NP_END}", re.I)
#: Not done, or not yet: "nearly sank", "might fold", "if the band splits".
_NOT_DONE = re.compile(r"\b(?:nearly|almost|tried|try|trying|want\w*|going\s+to|gonna|will|"
                       r"would|might|could|may|about\s+to|if|unless|in\s+case|worried|afraid|"
                       r"scared|thought)\b", re.I)
#: For a while only: "the choir wound up for the summer", "ran off for a couple of days".
_WHILE = re.compile(r"\bfor\s+(?:a|an|one|two|three|a\s+few|a\s+couple\s+of|\d+)\s+"
                    r"(?:minutes?|hours?|days?|nights?|weeks?|months?|while|bit|time|year|season|fortnight|summer|"
                    r"winter)\b|\bfor\s+the\s+(?:summer|winter|season|time\s+being|moment|"
                    r"holidays|night|weekend)\b|\b(?:until|till|temporarily|again)\b|"
                    r"\bback\s+(?:in|on|next|after)\b", re.I)
#: It came back, or was found: no end.
_BACK = re.compile(r"(?<!never\s)(?<!n't\s)(?<!nobody\s)(?<!one\s)(?<!none\s)"
                   r"\b(?:(?:came|come|turned|showed)\s+(?:back|home|up)|"
                   r"found\s+(?:him|her|it|them)(?!\s+again))|"
                   r"(?:got|get)\s+(?:him|her|it|them)\s+back|"
                   r"(?<!never\s)(?<!n't\s)(?:survived|recovered|pulled\s+through)|"
                   r"(?<!\bhe)(?<!\bshe)(?:\s+is|'s)\s+(?:fine|ok|okay|back)\b", re.I)
#: A person's pronoun said to be fine: the thing, if it lives, or its keeper.
_PERSON_FINE = re.compile(r"\b(?:he|she)(?:\s+is|'s)\s+(?:fine|ok|okay|alright|all\s+right)\b",
                          re.I)
#: Where the thing as said ends: a time, place, reason or manner after it.
_TAIL = re.compile(r"\s*[,.;:!?].*$|\s+(?:last|this|on|in|at|over|during|after|before|when|"
                   r"while|because|as|so|and|but|then|for|from|with|into|to|out|off|away|"
                   r"through|down|up|under|near|by|yesterday|today|loose|free|adrift)\b.*$", re.I)
#: What a pronoun object points back at: the last definite noun phrase told before it.
_BEFORE = re.compile(r"\b(?P<x>(?:the|my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)"
                     r"(?=\s+(?:and|on|in|at|off|outside|near|by|with|then|out|loose|free|"
                     r"adrift)\b|\s*[,.]|\s*$)",
                     re.I)
#: A pronoun subject of a thing, read back to the thing named before it.
_IT = re.compile(r"\b(?:and|then)\s+(?:it|they)\s+", re.I)
#: The whole of them dead or gone, said of none: "none of the seahorses survived", "not
#: one of the pigeons came back".
_NONE_LIVED = re.compile(rf"\b(?:none|not\s+(?:a\s+single\s+)?one)\s+of\s+(?P<x>{_NP})\s+"
                         r"(?:(?:has|have|had)\s+)?(?:survived|made\s+it|pulled\s+through|lived|"
                         r"c(?:a|o)me\s+(?:back|home))\b", re.I)
#: A discourse opener before the subject: "Turns out the choir folded".
_OPENER = re.compile(r"^(?:(?:it\s+)?turn(?:s|ed)\s+out|long\s+story\s+short|in\s+the\s+end|"
                     r"sadly|annoyingly|unfortunately|tragically|anyway|honestly|well|so)"
                     r"(?:\s+that)?\s*,?\s+", re.I)
#: A subject that is the speaker, a pronoun, or an existential: no thing.
_NO_THING = re.compile(r"^(?:i|we|you|he|she|they|it|this|that|there|one|someone|somebody|"
                       r"everyone|everybody|nobody|people)\b", re.I)


def _thing(text: str) -> str:
    """The thing as said, its quantifier of the whole and its tail dropped; "" for a
    part or another's ("the car's wing mirror"), or a person of the speaker's."""
    thing = re.sub(rf"^{_WHOLE}", "", text.strip(), flags=re.I)
    thing = _TAIL.sub("", thing).strip()
    if not re.search(r"\w", thing) or re.search(r"\w(?:'s|s')\s+\w", thing) or \
            re.search(r"\s(?:is|are|was|were|has|have|had)\s", thing, re.I):
        return ""   # another's, a part, or a clause ("the band is old van")
    head = re.sub(r"^(?:the|my|our)\s+", "", thing, flags=re.I).lower()
    if head in PEOPLE or head.split()[-1] in PEOPLE - _PETS:
        return ""
    return thing


#: Words of ``slots.PEOPLE`` that name a pet, which may well be the thing ended.
_PETS = frozenset("dog cat puppy kitten pet".split())


#: An object right after a verb: a determiner, a pronoun or a name.
_OBJECT_NEXT = re.compile(r"^\s+(?:(?:the|my|our|his|her|their|its|it|them|him|a|an)\b|"
                          r"(?-i:[A-Z]))", re.I)


def _a_person(thing: str) -> bool:
    """Whether the lexicon knows ``thing``'s head as a person ("my brother-in-law")."""
    lex = lexicon()
    head = thing.split()[-1].lower()
    # "brother-in-law": the word before its hyphened tail names the kind.
    heads = (head, head.split("-")[0]) if "-" in head else (head,)
    return any(h in PEOPLE and h not in _PETS or lex is not None and
               lex.is_a(h, "person") is True for h in heads)


def _pronoun_thing(clause: str, at: int) -> str:
    """What a pronoun object at ``at`` points back at: the last definite noun phrase named
    before it in the clause ("sat on the iPad and smashed it": the iPad)."""
    found = [m["x"] for m in _BEFORE.finditer(clause[:at])]
    return _thing(found[-1]) if found else ""


def told_final(sentence: str) -> bool:
    """Whether ``sentence`` tells an act final ("loaned the pony out for good"): lent so,
    a thing is no longer the speaker's."""
    return bool(_FINAL.search(sentence)) and not _NOT_DONE.search(sentence)


def fates(clause: str, sentence: str = "") -> list[str]:
    """The things a clause (its subject first) of ``sentence`` tells ended by what became
    of them, as said; none when not done, for a while, or come back."""
    told = sentence or clause
    clause = _OPENER.sub("", clause, count=1)
    if (none := _NONE_LIVED.search(clause)) and not _NOT_DONE.search(clause) and \
            (thing := _thing(none["x"])):
        return [thing]  # "none of the seahorses survived"
    if _NOT_DONE.search(clause) or _BACK.search(told) or _WHILE.search(clause):
        return []
    found: list[str] = []
    if (m := _CEASED.match(clause)) and not _NO_THING.match(clause) and \
            not for_a_while(clause) and \
            (thing := _thing(m["x"])):
        found.append(thing)
    elif (it := _IT.search(clause)) and (before := _pronoun_thing(clause, it.start())) and \
            _CEASED.match(f"{before} {clause[it.end():]}"):
        found.append(before)    # "cut the canoe loose and it drifted off"
    if not found and (final := _FINAL.search(clause)):
        subject = re.match(rf"^(?P<x>{_WHOLE}?{_NP})\s+(?:(?:has|have|had|'s|was|were|got|"
                           r"just|finally|sadly|then)\s+)*(?P<v>[a-z]+)\b", clause, re.I)
        # A subject whose verb acts on an object is the doer, not the thing ("my
        # brother-in-law cracked the hot tub beyond repair").
        if subject and not _NO_THING.match(clause) and not _TAKEN_IN.match(subject["v"]) and \
                not _OBJECT_NEXT.match(clause[subject.end("v"):]) and \
                not _a_person(subject["x"]):
            if thing := _thing(subject["x"]):
                found.append(thing)     # "Monty went to sleep for the last time"
        if not found:
            for act in _ACT.finditer(clause[:final.start()]):
                if _TAKEN_IN.match(act["v"]):
                    continue
                thing = _thing(act["x"]) if act["x"] else _pronoun_thing(clause, act.start())
                if thing:
                    found.append(thing)  # "loaned the pony out for good"
                    break
    for m in _DONE_AWAY.finditer(clause):
        if thing := _thing(m["x"] or m["y"]):
            found.append(thing)     # "paved over the veg patch", "wrote the Mini off"
    for m in _LOST_ALL.finditer(clause):
        if thing := _thing(m["x"]):
            found.append(thing)     # "lost every one of the fish"
    # "Rolo collapsed on a walk, the vet says he's fine": a living thing that lived; a
    # person fine after a made thing's end is its driver or rider ("the Mini").
    if _PERSON_FINE.search(told):
        found = [t for t in found if made_thing(t)]
    return found
