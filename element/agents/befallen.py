"""An ending told as what befell the thing: another's act on it, or the speaker's place in
it ended by another.

People often tell the end of a thing of theirs with something else as the subject of the
verb: what did it, not what they did.

- another's act that does away with it: "a mink got into the run and killed the ducks",
  "the gales tore the polytunnel to shreds", "the neighbour's bonfire burnt down the summer
  house", "the council cut down the pear tree", "a lorry ploughed into the old banger and
  the insurance wrote it off" (a pronoun read back to the thing the clause named first);
  an animal's "got" or "had" is a kill ("a fox got the last of the chickens", "next door's
  cat got Nibbles");
- the speaker's place ended by another's act: "Harlow's let me go before Christmas", "the
  Ramblers kicked me out", "they voted me out as treasurer", "they replaced me as
  secretary" (the role after "as", the body the speaker was put out of, or for a job let
  go, the speaker's job).

Each gives the thing as said; ``endings.py`` finds the memory it means (by meaning, its
words, its kind, the lexicon). What ends nothing: a part or another's ("dented the bonnet",
"my neighbour's hens", "one of the ducks"), a thing not held ("a branch"), the act not
done (negated, nearly, tried, a plan), another person let go ("let my brother go"). Pure
functions over a clause; closed classes of English verbs, and for an animal's "got", the
lexicon's knowledge that the subject is an animal (without it, that shape reads nothing).
"""

from __future__ import annotations

import re

from index import lexicon

__all__ = ["JOB", "befallen", "for_a_while", "head_of_possessed", "made_thing"]

#: What a job ended unnamed ends (as ``ending_grammar``'s job lost: the speaker's one).
JOB = "my employer or career"

#: A definite noun phrase of the speaker's side, or a name: what was done away with.
#: ("the last of the chickens", "both the goats", "all our hens" are the whole of them;
#: "one of the ducks", "a branch" are not.)
_NP = (r"(?:(?:the\s+last\s+of|all(?:\s+of)?|both(?:\s+of)?|every\s+(?:one|last\s+one)\s+of)"
       r"\s+)?(?:(?:the|my|our)\s+[\w' -]+?|(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)|"
       # "every last koi": the whole, its noun bare.
       r"every\s+last\s+[\w'-]+")
#: Verbs of doing away with a thing, their object after them (past or participle).
_DESTROY = (r"killed|ate|eaten|savaged|mauled|wrote\s+off|written\s+off|totall?ed|"
            r"(?:burnt|burned|tore|torn|knocked|pulled|blew|blown|brought|cut|chopped)\s+down|"
            r"flattened|destroyed|wrecked|demolished|crushed|smashed\s+up|trashed|"
            r"ran\s+over|run\s+over|wiped\s+out|finished\s+off|uprooted|felled|repossessed|"
            r"put\s+down|poisoned|drowned")
#: The same with the object before its particle: "tore the polytunnel to shreds", "wrote
#: the car off", "burnt the shed down".
_DESTROY_SPLIT = (r"(?P<v2>(?:burnt|burned|tore|torn|knocked|pulled|blew|blown|brought|cut|"
                  r"chopped)\s+(?P<y>{np})\s+down|(?:wrote|written)\s+(?P<z>{np})\s+off|"
                  r"(?:tore|torn|ripped|smashed|blew|blown)\s+(?P<w>{np})\s+(?:to|into)\s+"
                  r"(?:shreds|pieces|bits|smithereens))")
#: Ends the object where a time, place or reason begins ("the ducks last week", "the
#: greenhouse, glass everywhere", "the pear tree because ...").
_OBJECT_END = (r"(?=\s*$|\s*[,.;:!]|\s+(?:last|this|on|in|at|over|during|after|before|when|"
               r"while|because|as|so|and|but|then|overnight|yesterday|today|for|from|with|"
               r"outside|near|by|off|out)\b)")
_DONE_TO = re.compile(rf"(?<![\w'])(?:(?P<verb>{_DESTROY})\s+(?P<x>{_NP}|it|them){_OBJECT_END}|"
                      rf"{_DESTROY_SPLIT.format(np=_NP + '|it|them')})", re.I)
#: An animal's kill: "a fox got the last of the chickens", "next door's cat got Nibbles".
_KILLED_BY = re.compile(rf"^(?P<a>(?:[\w'-]+\s+){{0,3}}?(?P<head>[\w-]+))\s+(?:(?:has|had)\s+)?"
                        rf"(?:got|had|took|taken|gotten)\s+(?P<x>{_NP}){_OBJECT_END}", re.I)
#: Not done: negated, nearly, tried, wished or to come ("nearly killed the cat", "didn't
#: write it off", "they might let me go").
_NOT_DONE = re.compile(r"\b(?:not|n't|never|nearly|almost|tried|try|trying|want\w*|going\s+to|"
                       r"gonna|will|would|might|could|may|threaten\w*|about\s+to|if)\b", re.I)
#: For a while only: "replaced me as captain for one game", "while I was injured".
_BRIEF = re.compile(r"\bfor\s+(?:one|a|the|this|that|next|[\w-]+'s)\s+(?:game|match|week|day|"
                    r"night|weekend|month|session|gig|fixture|race)\b|\bwhile\s+(?:i|we)\b", re.I)
#: A game's result, not an end: "the Hammers got flattened 9-0", "destroyed them in the
#: final".
_GAME = re.compile(r"\b\d+\s*-\s*\d+\b|\b(?:match|game|final|semi-?final|league|cup|derby|"
                   r"fixture|tournament)\b", re.I)
#: Ended for a while, or a call cut short: "disbanded for the summer", "back in September",
#: "cut off mid-call".
_WHILE = re.compile(r"\b(?:for\s+(?!good\b|ever\b)(?:the\s+)?(?:a|an|one|two|three|few|couple|"
                    r"\d+|summer|winter|holidays?|week|weekend|month|season|now|time\s+being|"
                    r"moment|repairs|a\s+refit)\b|until|till|back\s+(?:in|on|next|after)|"
                    r"mid-?(?:call|sentence|conversation)|in\s+the\s+middle\s+of|temporarily)\b",
                    re.I)
#: It lived or was saved after all: "the dog got our cat but she survived".
_SURVIVED = re.compile(r"\b(?:survived|pulled\s+through|made\s+it|recovered|(?:is|was|'s)\s+"
                       r"(?:fine|ok|okay|alright|all\s+right)|got\s+(?:it|them|her|him)\s+back|"
                       r"found\s+(?:it|them|her|him)|turned\s+up)\b", re.I)
#: A thing told by a public place beside it is no thing held ("cut down the tree outside
#: the library", "towed the van opposite the school").
_PUBLIC_PLACE = re.compile(r"^\s+(?:outside|opposite|near|next\s+to|across\s+from|down\s+the\s+"
                           r"road\s+from|at\s+the\s+end\s+of|by)\s+(?:the|a|an)\b", re.I)
#: Its survival denied: "none of them made it", "she didn't pull through".
_DENIED = re.compile(r"\b(?:none\s+of\s+(?:them|us)|neither(?:\s+of\s+(?:them|us))?|not|n't|never|"
                     r"nobody|no\s+one)\s+(?:\w+\s+)?$",
                     re.I)
#: The speaker as the doer, or none said: the speaker's own acts are read elsewhere, and
#: as idioms end nothing ("we killed the bottle of wine").
_SPEAKER_DOER = re.compile(r"^\s*$|\b(?:i|we|you)(?:\s+(?:have|had|'ve|'d|just|finally|then|"
                           r"accidentally|actually))*\s*$", re.I)
#: The speaker put out of a place by another: "let me go", "kicked me out", "voted me out
#: as treasurer", "replaced me as secretary".
_PUT_OUT = re.compile(
    r"^(?P<a>(?!(?:i|we|you)\b)(?:[\w'&-]+\s+){0,3}?[\w'&-]+)\s+(?:(?:has|have|had|'ve|'d|"
    r"just|finally|then|eventually)\s+)*(?P<v>(?P<job>let\s+(?:me|us)\s+go|laid\s+(?:me|us)\s+"
    r"off|made\s+(?:me|us)\s+redundant|sacked\s+(?:me|us)|fired\s+(?:me|us))|"
    r"(?:kicked|threw|thrown|chucked|booted|voted|turfed|forced|pushed|eased)\s+(?:me|us)\s+"
    r"out|struck\s+(?:me|us)\s+off|stood\s+(?:me|us)\s+down|replaced\s+(?:me|us)|"
    r"dropped\s+(?:me|us)|got\s+rid\s+of\s+(?:me|us)|(?:evicted|expelled)\s+(?:me|us))"
    r"(?:\s+(?:of|from|as)\s+(?P<x>.+))?", re.I)
#: Who is no body the speaker was put out of: a person ("my boss kicked me out" of a room).
_PERSON = re.compile(r"^(?:he|she|my\s+\w+|our\s+\w+|his|her|the\s+(?:boss|manager|kids?|"
                     r"wife|husband))\b", re.I)
#: Where the thing said ends: its time, place or reason.
_TAIL = re.compile(r"\s*[,.;:!].*$|\s+(?:last|this|on|in|at|over|during|after|before|when|"
                   r"while|because|as|so|and|but|then|for|from|with|outside|near|by|just|"
                   r"said|apparently|yesterday|today)\b.*$", re.I)


def _thing(text: str) -> str:
    """The thing as said, without its tail and its quantifier ("the last of the chickens"
    is "the chickens"); "" for a pronoun, a possessive of another ("my neighbour's hens")
    or a part ("the Focus's bonnet")."""
    thing = re.sub(r"^(?:the\s+last\s+of|all(?:\s+of)?|both(?:\s+of)?|every\s+(?:one|last\s+one)"
                   r"\s+of|every\s+last)\s+", "", text.strip(), flags=re.I)
    thing = _TAIL.sub("", thing)
    if re.search(r"\w(?:'s|s')\s+\w", thing) or not re.search(r"\w", thing) or \
            re.fullmatch(r"(?:the\s+)?(?:lot|rest)(?:\s+of\s+(?:them|it))?", thing, re.I):
        return ""   # another's or a part; "the lot of them" names nothing by itself
    return thing.strip()


def _antecedent(clause: str, at: int) -> str:
    """What a pronoun object at ``at`` points back at: the first definite noun phrase told
    before it that is no subject ("a lorry ploughed into the old banger ... and the
    insurance wrote it off": the old banger)."""
    before = clause[:at]
    for m in re.finditer(r"\b(?:into|onto|on|at|over|off|with|to|hit|struck|rammed|"
                         r"clipped)\s+(?P<x>(?:the|my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)"
                         r"(?=\s+(?:on|in|at|and|outside|near|by|off)\b|\s*[,.]|\s*$)",
                         before, re.I):
        return _thing(m["x"])
    return ""


def for_a_while(clause: str) -> bool:
    """Whether a clause tells its end as for a while, or a game's result, not for good
    ("the choir was disbanded for the summer", "the Hammers got flattened 9-0")."""
    return bool(_WHILE.search(clause) or _GAME.search(clause))


def head_of_possessed(thing: str) -> str:
    """What a thing said with a possessor of no person is: its head ("the choir's concert"
    is the concert, "the Sundays' tour bus" the bus); a name told so is whole ("Harlow's
    Bakery", "Sainsbury's Local")."""
    m = re.search(r"\w(?:'s|s')\s+(?P<head>(?-i:[a-z])[\w' -]*)$", thing)
    return m["head"] if m else thing


#: A person's pronoun right before a word of survival: "he's fine", "she survived".
_PERSON_FINE = re.compile(r"\b(?:he|she)(?:'s)?\s*$", re.I)


def made_thing(thing: str) -> bool:
    """Whether the lexicon knows ``thing``'s head as no living thing; a bare name ("Biscuit")
    may be a pet's, and is not read so."""
    lex = lexicon()
    if lex is None or not re.match(r"(?:the|my|our)\s", thing, re.I):
        return False
    head = thing.split()[-1]
    return lex.is_a(head, "organism") is False and lex.is_a(head, "person") is False


def _is_animal(word: str) -> bool:
    lex = lexicon()
    return bool(lex is not None and lex.is_a(word, "animal"))


def _no_body(thing: str) -> bool:
    """Whether what the speaker was put out of is known to be no body one belongs to ("the
    pub", "the kitchen", "the meeting": a place or a gathering left for the night); a word
    the lexicon does not know (a club's name) is taken as one."""
    lex = lexicon()
    head = re.sub(r"^(?:the|my|our)\s+", "", thing, flags=re.I)
    if lex is None or (known := lex.is_a(head, "organization")) is None:
        return False
    return not known


def befallen(clause: str, sentence: str = "") -> list[str]:
    """The things a clause (its subject first) of ``sentence`` tells ended by another's
    act, as said (:data:`JOB` for the speaker's job let go unnamed); none when not done,
    for a while, or survived."""
    found: list[str] = []
    told = sentence or clause
    if _BRIEF.search(clause):
        return found
    survived = [m for m in _SURVIVED.finditer(told) if not _DENIED.search(told[:m.start()])]
    if survived and not all(_PERSON_FINE.search(told[:m.start()]) for m in survived):
        return found
    if (m := _PUT_OUT.match(clause)) and not _NOT_DONE.search(clause[:m.start("v")]) and \
            not _PERSON.match(m["a"]):
        named = _thing(m["x"]) if m["x"] else ""
        agent = m["a"].strip()
        if named and re.search(r"\bout$", m["v"], re.I) and _no_body(named) and \
                re.match(r"\s*as\b", clause[m.end("v"):], re.I) is None:
            return found    # "chucked us out of the pub": a place, for the night
        if named:
            found.append(named)
        elif m["job"]:
            found.append(JOB)
        elif not re.fullmatch(r"they|them|people|everyone|the\s+(?:committee|members)", agent,
                              re.I):
            found.append(re.sub(r"(?:'s|s')$", "", agent))
        return found
    for m in _DONE_TO.finditer(clause):
        if _NOT_DONE.search(clause[:m.start()]) or _SPEAKER_DOER.search(clause[:m.start()]) or \
                _PUBLIC_PLACE.match(clause[m.end():]) or _GAME.search(told):
            continue
        said = m["x"] or m["y"] or m["z"] or m["w"] or ""
        if re.fullmatch(r"it|them", said.strip(), re.I):
            said = _antecedent(clause, m.start())
        if thing := _thing(said):
            found.append(thing)
    if not found and (m := _KILLED_BY.match(clause)) and _is_animal(m["head"]) and \
            not _NOT_DONE.search(m["a"]) and (thing := _thing(m["x"])):
        found.append(thing)
    # A person said to be fine ("wrote the Mini off, thankfully he's fine") is the driver,
    # not a thing made by hand; a living thing may be the one that lived.
    return [t for t in found if not survived or made_thing(t)]
