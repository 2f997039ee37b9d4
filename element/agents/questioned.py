"""News told inside a question (issue 23: a fifth of the newer statements that wrote nothing
on the blind sets are questions carrying it): "What's the best way to meet people in
Bristol now that I live here?", "Now that I'm at Lidl, can you help me plan my shifts?",
"How do I move my photos to the Samsung I got yesterday?". The rules read no question as
a statement (a question asks; it tells nothing of the speaker), so the news in it is not
stored.

English carries such news in two builds inside a question, each the speaker's own clause:

- a clause of reason or time, "now that I ...", "since I ...", "seeing as we ...", "as
  I ...", "because I ...", "given that I ..." (its verb not one of saying or thinking,
  not "was", no "you": "since I last saw you", "as I said" tell nothing new);
- a relative clause on a thing, its verb one of getting or starting a thing ("the Samsung
  I got yesterday", "the club we joined in May"): the speaker got, bought, joined it;
- a thing of the speaker's called new, with where it is or its name ("my new flat in
  York", "my new Pixel": "I have a new flat in York"), or their first days somewhere ("my
  first week at Aldi").

That clause, written as its own statement ("I live in Bristol": "here" and "there" as the
place the question names, ``places.placed``; "I got the Samsung yesterday"), is put
after the question, where the rules read it as any statement of the speaker's; the
question stays as asked. Pure functions over one turn's text; ``implicit.owned`` calls
:func:`told_in_question`.
"""

from __future__ import annotations

import re

from .places import named_place, placed

__all__ = ["told_in_question"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: The speaker's clause of reason or time in a question: its conjunction, "I" or "we",
#: and the clause up to a comma or the question's end.
_BECAUSE = re.compile(r"(?:^|\b)(?:now\s+that|now|since|seeing\s+(?:as|that)|as|because|cos|"
                      r"given\s+that)\s+(?P<c>(?:I|we)(?:'ve|'m|'re|\s)[^,;?]*)", re.I)
#: A relative clause of the speaker's getting or starting a thing: the thing (a
#: determiner, up to four words), "I" or "we", the verb, what follows up to a comma.
_GOT = re.compile(r"\b(?P<np>(?:the|my|our|this|that)\s+(?:[\w'&-]+\s+){0,3}?[\w'&-]+)\s+"
                  r"(?:that\s+|which\s+)?(?P<s>I|we)\s+(?P<adv>(?:just|recently|finally|only)\s+)?"
                  r"(?P<aux>have\s+|'ve\s+)?(?P<v>got|bought|picked\s+up|ordered|adopted|joined|"
                  r"started|moved\s+into|signed\s+up\s+(?:for|to|with)|switched\s+to|rented|"
                  r"leased|booked|enrolled\s+(?:in|on|at))\b(?P<rest>[^,;?]*)")
#: A thing of the speaker's named new, with where it is or a name ("my new flat in York",
#: "my new job at Aldi", "my new Pixel"), or the first days somewhere ("my first week at
#: Aldi"): the question's object, and the speaker's news.
_NAME = r"(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z0-9])[\w'&-]*){0,3}"
_FIRST = re.compile(r"\b(?P<my>my|our)\s+first\s+(?P<first>day|week|shift|month)\s+at\s+"
                    r"(?P<name>" + _NAME + r")")
_NEW = re.compile(r"\b(?P<my>my|our)\s+new\s+(?P<np>(?:[\w'&-]+\s+){0,2}?[\w'&-]+?)"
                  r"(?:\s+(?P<prep>at|in|with)\s+"
                  r"(?P<name>" + _NAME + r"))?(?=\s*(?:[,?]|$)|\s+(?:tomorrow|today|tonight|this|"
                  r"next|on|for|when|so|yet)\b)")
#: A clause that tells nothing new of the speaker's life: the other person in it ("since
#: I last saw you"), saying or thinking ("as I said", "because I think"), a state of the
#: past ("since I was a kid"), a wish or a doubt.
_NOT_NEWS = re.compile(r"\b(?:you|your|u|ur|said|say|says|told|tell|mentioned|mention|asked|"
                       r"ask|think|thought|know|knew|guess|mean|meant|wonder|wondered|was|were|"
                       r"want|wanted|wish|hope|need|needed|feel|felt|can|could|would|should|"
                       r"might|may|will|if|not|never|do|did|am\s+not)\b", re.I)
#: A relative clause's object that is the other person's ("the book I got you").
_FOR_ANOTHER = re.compile(r"^\s*(?:you|him|her|them|for\s+(?:you|him|her|them))\b", re.I)


def _statement(clause: str, question: str) -> str | None:
    """``clause`` written as a statement of its own: "here" and "there" the place named in
    ``question``; None when it is no news or its place is not named."""
    clause = clause.strip()
    if len(clause.split()) < 2 or _NOT_NEWS.search(clause):
        return None
    said = re.sub(r"\bhere\b", "there", clause, flags=re.I)
    if re.search(r"\bthere\b", said, re.I):
        said = placed(said, named_place(question.replace(clause, "")))
        if re.search(r"\bthere\b", said, re.I):
            return None     # where is not named: "now that I live there" says nothing
    return said[:1].upper() + said[1:] + "."


def _told(question: str) -> list[str]:
    """The statements of the speaker's news a question ``question`` carries."""
    told: list[str] = []
    for m in _BECAUSE.finditer(question):
        if (said := _statement(m["c"], question)) is not None:
            told.append(said)
    for m in _GOT.finditer(question):
        if _FOR_ANOTHER.match(m["rest"]):
            continue
        np = re.sub(r"^(?:this|that)\b", "the", m["np"], flags=re.I)
        np = np[:1].lower() + np[1:] if np.split()[0].lower() in ("the", "my", "our") else np
        verb = " ".join(w for w in (m["aux"] and "have", m["adv"], m["v"]) if w)
        said = _statement(f"{m['s']} {verb.strip()} {np}{m['rest']}", question)
        if said is not None:
            told.append(re.sub(r"\s+", " ", said))
    for m in _FIRST.finditer(question):
        told.append(f"{m['my'].capitalize()} first {m['first']} at {m['name']}.")
    for m in _NEW.finditer(question):
        np, name = m["np"], m["name"]
        # "my new flat in York": where it is; "my new Pixel": the thing by its name
        if name or np[:1].isupper():
            where = f" {m['prep']} {name}" if name else ""
            told.append(f"{'I' if m['my'] == 'my' else 'We'} have a new {np}{where}.")
    return told


def told_in_question(text: str) -> str:
    """``text`` (one user turn) with the speaker's news each of its questions carries put
    after that question as a statement (see the module); unchanged when none does."""
    if "?" not in text:
        return text
    parts = _SENTENCE.split(text.strip())
    out: list[str] = []
    for part in parts:
        out.append(part)
        if part.rstrip().endswith("?"):
            out.extend(_told(part))
    return " ".join(out) if len(out) > len(parts) else text
