"""The speaker's present told by pointing back at a value named in the clause before:
"My mate got me in at Pret, so that's where I work now", "We both joined the David Lloyd
in Hatfield, so that's my gym now", "Dad moved his savings to Nationwide and that's who I
bank with these days". The clause of the speaker's present names no value: its subject is
"that" (whose it is reads as not known, ``holders.holder_of``) and its value is what "that"
points at, named before it, often in a clause whose subject is another person's. Neither
clause alone says what the speaker holds now, so the change is not read.

The clause is said again with its value in the place "that" points to: "so that's where I
work now" -> "I work at Pret now", "that's my gym now" -> "my gym is the David Lloyd in
Hatfield now", "that's who I bank with" -> "I bank with Nationwide", "that's what I drive
now" -> "I drive a Mazda MX-5 now"; the evaluator reads it as the speaker's own statement
(``change_statements._now_clause``), the sentence told whole.

What "that" points at is the last thing the clause before names (English puts the new
information last): a name, with the article and the places after it ("the David Lloyd in
Hatfield", "a Mazda MX-5"), else a plain noun after a preposition ending the clause ("at the
garage on the corner"). A person or a pronoun is never the value ("my brother", "him").

Why it is general: the grammar of a demonstrative resuming the clause before (a cleft "that
is where/who/what ...", a copula "that is my X"); the value is found by its position and its
form (a name, a noun phrase), no word of any case. A question, a plan or a past ("that's
where I used to work") is left to the evaluator's gates, which read the re-said clause as
they read any. Pure functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS

__all__ = ["pointed"]

#: A clause opening on a demonstrative that points back, as a cleft ("(so) that is where I
#: work now", "and that's who I bank with", "which is what I drive now") or as a copula
#: with a thing of the speaker's ("that is my gym now", "that's our local these days").
_POINTING = re.compile(
    r"(?:^|[,;:]\s*|\s+-\s+|\s+(?=(?:and|so|which)\s))"
    r"(?:(?:and|so|which|now)\s+)*(?:that|this|it|which)(?:'s|\s+is)\s+"
    r"(?:(?P<wh>where|who|what)\s+(?P<clause>(?:i|we)(?:'[a-z]+)?\s+[^,;.!?]+)|"
    r"(?P<mine>(?:my|our)\s+(?!(?:[\w-]+\s+)?(?:fault|problem|life|thing|point|plan|"
    r"worry|bad|mistake|guess|excuse|favourite)\b)[\w-]+"
    r"(?:\s+(?!(?:now|these|nowadays|at|currently)\b)[\w-]+)?)"
    r"(?P<time>(?:\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|currently))?))"
    r"\s*[.!]?\s*$", re.I)

#: Words of time ending the re-said clause: the value goes before them.
_TIME = re.compile(r"\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|currently|"
                   r"for\s+now|instead)(?:\s+(?:now|instead))?\s*$", re.I)

#: A named thing ending the clause before, with its article and the places after it: "the
#: David Lloyd in Hatfield", "a Mazda MX-5", "Pret", "Manchester Met".
_NAMED = re.compile(
    r"(?:\b(?P<prep>at|in|on|to|into|with|for|from)\s+)?"
    r"(?P<v>(?:(?:the|a|an)\s+)?(?-i:[A-Z])[\w'&.-]*(?:\s+(?:(?-i:[A-Z])[\w'&.-]*|[\d][\w-]*))*"
    # a plain noun after the name ("the Nuffield gym"), not a word of time or place
    r"(?:\s+(?!(?:now|too|again|then|there|here|instead|together|today)\b)(?-i:[a-z])"
    r"[\w-]+)?"
    r"(?:\s+(?:in|on|at|of)\s+(?:the\s+)?(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*)*)"
    r"\s*$")

#: A plain noun phrase after a preposition ending the clause before: "at the garage on the
#: corner", "with the building society".
_PLAIN = re.compile(r"\b(?P<prep>at|in|with|for)\s+(?P<v>(?:the|a|an)\s+[a-z][\w-]*"
                    r"(?:\s+[a-z][\w-]*){0,4})\s*$", re.I)

#: A thing named by a plain noun before the place it is in: "a bakery (in Ripon)", "the
#: garage (on Mill Road)", and the preposition before it.
_THING_PLACED = re.compile(r"(?:\b(?P<prep>at|in|on|to|into|with|for)\s+)?"
                           r"(?P<v>\b(?:the|a|an)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\s+$",
                           re.I)

#: A post held, not a place: "a job (at Halfords)", "a role (in Leeds)": the place is named.
_POST = re.compile(r"\b(?:job|role|position|post|placement|shift|shifts|contract)$", re.I)

#: Where a place goes after a verb of where one is ("I work at ...", "I live in ..."): the
#: preposition it was named with, a place moved to being where one is ("moved to Leeds").
_WHERE_PREP = {"at": "at", "in": "in", "on": "on", "to": "in", "into": "in"}

#: When the clause before says it happened, ending it: "bought a Mazda last month", "moved
#: to Leeds in May", "joined the Barracudas over the summer": not part of the value.
_WHEN = re.compile(
    r"(?:,?\s+(?:(?:last|this|in\s+the|over\s+the|at\s+the|back\s+in|earlier\s+(?:this|in\s+the)"
    r")\s+(?:week|weekend|month|year|spring|summer|autumn|fall|winter|holidays)|"
    r"(?:in|since|back\s+in|last)\s+(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december)|yesterday|recently|lately|(?:a|an|one|two|three|"
    r"four|five|six|a\s+few|a\s+couple\s+of|\d+)\s+(?:days?|weeks?|months?|years?)\s+ago|"
    r"(?:in\s+the\s+)?end))+\s*$", re.I)

#: Words that name no thing held: pronouns, people.
_NOT_VALUES = frozenset("i me my we us our he him his she her they them their it its you "
                        "your this that there".split()) | RELATIONS


def _value(before: str) -> tuple[str, str] | None:
    """What the clause ``before`` names last, and the preposition it follows ("" when none):
    "My mate Tom got me in at Pret" -> ("Pret", "at")."""
    before = _WHEN.sub("", before.rstrip(" ,;:-")).rstrip(" ,;:-")
    m = _NAMED.search(before)
    if m is None or not m["v"].strip() or m.start("v") == 0:
        m = _PLAIN.search(before)
    if m is None:
        return None
    value, prep = m["v"].strip(), (m["prep"] or "").lower()
    if prep in ("in", "on") and (thing := _THING_PLACED.search(before[:m.start()])) and \
            not _POST.search(thing["v"]):
        # "opened a bakery in Ripon": the bakery, placed, is what is named.
        value, prep = f"{thing['v']} {prep} {value}", (thing["prep"] or "").lower()
    words = [w.lower() for w in value.split()]
    head = [w for w in words if w not in ("the", "a", "an")]
    if not head or head[0] in _NOT_VALUES or head[-1] in _NOT_VALUES or \
            m.start("v") == 0:
        return None     # a person, a pronoun, or the clause's own subject
    return value, prep


#: The speaker's clause with "there" for a place named before it: "(and) I've moved there
#: with her", "so we work there now", "I've been going there since May" (not "there is":
#: with "I" or "we" before it, "there" is where).
_THERE = re.compile(
    r"(?:[,;:]\s*|\s+-\s+|\s+(?=(?:and|so|but)\s))(?:(?:and|so|but|now)\s+)*"
    r"(?P<clause>(?:i|we)(?:'[a-z]+)?\s+[^,;.!?]*?)(?P<adv>(?:\s+(?:up|down|over|back|out))?)"
    r"\s+there\b(?P<after>[^,;.!?]*)\s*[.!]?\s*$", re.I)

#: Verbs of going: a place gone to is "to" it ("moved there" -> "moved to Glasgow").
_GOING = re.compile(r"\b(?:move|moves|moved|moving|go|goes|went|gone|going|relocated|"
                    r"relocating|followed|headed|came|come|coming|transferred|commute|"
                    r"commutes|commuting|drive|drives)$", re.I)


def _there(sentence: str) -> str:
    """The speaker's clause with "there" said with the place it points at ("My girlfriend
    got a job in Glasgow and I've moved there with her" -> "I've moved to Glasgow with
    her"), or ""."""
    m = _THERE.search(sentence)
    if m is None:
        return ""
    found = _value(sentence[:m.start()])
    if found is None or not re.search(r"(?-i:[A-Z])", found[0]):
        return ""       # a place is named: "there" for "the shop" says no value
    value, prep = found
    clause = m["clause"].rstrip()
    to = "to" if _GOING.search(clause) else _WHERE_PREP.get(prep, "at")
    return f"{clause}{m['adv']} {to} {value}{m['after']}".strip()


def pointed(sentence: str) -> str:
    """The speaker's clause pointing back at a value said with that value in its place
    ("My mate Tom got me in at Pret, so that is where I work now" -> "I work at Pret
    now"), or "" (module doc)."""
    m = _POINTING.search(sentence)
    if m is None or m.start() == 0:
        return _there(sentence)
    found = _value(sentence[:m.start()])
    if found is None:
        return ""
    value, prep = found
    if m["mine"]:
        mine = m["mine"]
        return f"{mine[0].lower()}{mine[1:]} is {value}{m['time']}"
    clause = m["clause"].strip()
    time = _TIME.search(clause)
    rest, tail = (clause[:time.start()], clause[time.start():]) if time else (clause, "")
    if m["wh"].lower() != "where" and len(rest.split()) > 4:
        # the gap "what" or "who" fills is the verb's object, at the clause's end ("what I
        # drive", "who I bank with", "what I'm driving"): "what we use for long trips"
        # leaves it inside, no value of the speaker's said whole
        return ""
    if m["wh"].lower() == "where":
        # "where I work" -> "I work at Pret": the place after its preposition of where.
        # (a place one goes to is gone to: "where I go now" -> "I go to Headcase now")
        to = re.search(r"\b(?:go|goes|going|went|come|comes|coming|head|drive|commute)$",
                       rest, re.I)
        said = f"{rest} {'to' if to else _WHERE_PREP.get(prep, 'at')} {value}"
    elif re.search(r"\s(?:with|to|for|at|in|on|from|by)$", rest, re.I):
        said = f"{rest} {value}"        # "who I bank with" -> "I bank with Nationwide"
    else:
        said = f"{rest} {value}"        # "what I drive" -> "I drive a Mazda MX-5"
    return f"{said}{tail}"
