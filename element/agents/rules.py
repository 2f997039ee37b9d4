"""Sentence rules of the built-in evaluator: find memory-worthy statements in a user's turn.

English only, one sentence at a time, first person. :func:`extract` turns a turn's text
into :class:`Candidate` memories (facts, preferences, procedures, corrections, forgets);
the turn's goal is ``goals.goal_of``. What the rules catch and miss is listed in
``docs/agents.md``. Pure functions: no I/O, no store.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .dates import time_phrase
from .cleaning import CORRECTION, clean, norm, statements
from .episodes import narrate
from .habits import SAME_FORM, habit_verb_of
from .negated import negated_habit
from .mine_told import mine_does, mine_in_predicate, trait_of_speaker
from .offers import offer
from .plans import plan
from .episode_words import GENERIC, ends_as_ing
from .appraisal import appraises, praises_shown
from .candidate import (ARTICLES as _ARTICLES, VAGUE as _VAGUE, Candidate, about_of as _about,
                        capitalised as _cap, key_of as _key, object_of as _obj,
                        theirs as _theirs, third_person)
from .instructions import (FROM_NOW as _FROM_NOW, instruction as _instruction,
                           instructs as _instructs)
from .facts import (ALIASES as _ALIASES, FACTS as _FACTS, HABIT as _HABIT, IS as _IS,
                    NOT_HABITS as _NOT_HABITS, NOT_ROLES as _NOT_ROLES,
                    QUALIFIERS as _QUALIFIERS, STATES as _STATES, WORKPLACES)

__all__ = ["Candidate", "extract", "norm", "third_person", "clean", "point_key",
           "statements"]

# -- the rules --------------------------------------------------------------------------------
# English only, one sentence at a time, first person. What they catch and miss: docs/agents.md.

_VERBS = {"prefer": "prefers", "like": "likes", "love": "loves", "enjoy": "enjoys",
          "adore": "adores", "hate": "hates", "dislike": "dislikes", "detest": "detests",
          "cannot stand": "cannot stand", "do not like": "does not like",
          "do not enjoy": "does not enjoy", "do not care for": "does not care for",
          "do not mind": "does not mind"}
_PRESENT = {"liked": "like", "loved": "love", "enjoyed": "enjoy", "adored": "adore",
            "hated": "hate", "preferred": "prefer"}
_HELD_ALL_ALONG = re.compile(r"^i\s+(?:have\s+)?always\s+(?P<v>" + "|".join(_PRESENT) + r")\b",
                             re.I)
_PREFER = re.compile(r"^i\s+(?:(?:really|absolutely|totally|kind of|kinda|much|definitely|"
                     r"usually|generally|strongly|also|still|always)\s+)*(?P<v>" +
                     "|".join(sorted(_VERBS, key=len, reverse=True)) + r")\s+(?P<x>.+)$", re.I)
_OVER = re.compile(r"^(?P<a>.+?)\s+(?:over|to|rather than|more than|than)\s+(?P<b>.+)$", re.I)
_FAN = re.compile(r"^i\s+am\s+(?P<neg>not\s+)?(?:(?:also|still|really|totally|so|quite|pretty|"
                  r"now|currently)\s+)*(?:a\s+)?(?:big\s+|huge\s+|great\s+|really\s+)?"
                  r"(?:fan of|into|fond of|keen on)\s+(?P<x>.+)$", re.I)
#: A taste said as what the speaker is about ("I'm all about dramas", "Guitar's mostly my
#: thing", "It's green tea for me these days"): everyday English for "I like X".
_MY_THING = re.compile(r"^(?:i\s+am\s+(?:(?:really|totally|just)\s+)?all\s+about\s+(?P<a>.+)|"
                       r"it\s+is\s+(?:(?:all|mostly|always)\s+)?(?P<b>.+?)\s+for\s+me\s+"
                       r"(?:these days|now|nowadays)|(?P<c>.+?)(?:'s|\s+(?:is|has become|are))\s+"
                       r"(?:(?:mostly|really|definitely|totally|kind of|very much|now)\s+)?"
                       r"my\s+(?:thing|jam)(?:\s+(?:now|these days|nowadays))?)$", re.I)
_NAME = re.compile(r"^(?:my name is|i am called|(?P<call>(?:you can |please )?call me|"
                   r"people call me))\s+(?P<x>.+)$", re.I)
_INTRO = re.compile(r"^(?i:i am|this is)\s+(?P<x>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)$")
_NOT_NAMES = {"Fine", "Good", "Sorry", "Back", "Here", "Done", "Ready", "Not", "Okay", "Sure",
              "Glad", "Happy", "Tired", "Busy", "Great", "Well", "Just"}
_ABOUT_THEM = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
#: An object that points at something said or shown before ("this series", "having them
#: around"): the rules cannot tell what, so the preference would be empty.
_POINTS_BACK = re.compile(r"\b(?:it|its|this|these|those|them|his|her)\b", re.I)
_MY = re.compile(r"^my\s+(?P<k>[\w'\- ]{1,40}?)\s+(?P<v>is|are|was|will be)\s+(?P<x>.+)$", re.I)
_MY_VERB = re.compile(r"^my\s+(?P<k>\w+(?:\s\w+)?)\s+(?P<v>lives|works|is called|likes|loves|"
                      r"hates|prefers|has|studies)\s+(?P<x>.+)$", re.I)
_NOT_MY = {"question", "point", "guess", "bad", "fault", "pleasure", "apologies", "turn",
           "answer", "reply", "request", "name"}
_REMEMBER = re.compile(r"^(?:please\s+)?(?:remember|do not forget|keep in mind|note)"
                       r"\s+(?P<that>that\s+)?(?P<x>.+)$", re.I)
_FORGET = re.compile(r"^(?:please\s+)?(?:forget|stop remembering|disregard)\s+(?:that\s+|about\s+|"
                     r"what i said about\s+)?(?P<x>.+)$", re.I)
#: Saying a statement no longer holds: it retires what it names ("I'm not allergic to
#: shellfish anymore"). "Forget ..." asks to erase instead.
_NO_LONGER = [re.compile(p, re.I) for p in (
    r"^(?P<s>i)\s+no longer\s+(?P<x>.+)$", r"^(?P<s>i am)\s+no longer\s+(?P<x>.+)$",
    r"^(?P<s>i)\s+do not\s+(?P<x>.+?)\s+any\s?more(?:\s*[,;].*)?$",
    r"^(?P<s>i am)\s+not\s+(?P<x>.+?)\s+(?:any\s?more|after all)(?:\s*[,;].*)?$")]
#: A time word closing a statement ("I'm pescatarian now"): not part of what it says.
_NOW = re.compile(r"(?:,?\s+(?:now|currently|these days|nowadays|at the moment|right now|"
                  r"lately|again|finally))+$", re.I)
_ASK_MEMORY = re.compile(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?"
                         r"(?P<x>(?:remember|forget|note|keep in mind)\b.+)$", re.I)
_WEAK = {"actually", "no", "nope", "not quite"}
#: Markers that, right after a question, answer it ("Did you like it?" "No, ...").
_ANSWERS = {"no", "nope"}
_REFERS = re.compile(r"^(?:it|its|it is|it was|that is|the|his|her|their|our|they|he|she)\b",
                     re.I)


def _sentences(text: str) -> Iterator[tuple[str, bool]]:
    """Cleaned clauses (see :func:`clean`) and whether each asks."""
    for _, sentence, question in statements(text):
        yield sentence, question


def point_key(thing: str, value: str = "") -> str:
    """The key of "my <thing>": ``fact:manager`` for "my new boss", ``fact:my:order`` for
    "my usual order"; a contact by the shape of its ``value`` when the thing only says where
    to reach the speaker ("my new address is kim@example.org": ``fact:email``)."""
    thing = re.sub(r"\b(?:these days|nowadays|now|currently|at the moment|right now)\b", " ",
                   norm(thing))
    point = " ".join(w for w in thing.split() if w not in _QUALIFIERS)
    if point.split()[-1:] and point.split()[-1] in _CONTACT_WORDS:
        if _EMAIL.search(value):
            return "fact:email"
        if len(re.findall(r"\d", value)) >= 7:
            return "fact:phone"
    return _ALIASES.get(point) or _key("fact:my", point)


#: Words naming where to reach someone, whatever the channel: its value says which.
_CONTACT_WORDS = {"address", "contact", "details", "number", "handle", "info", "line"}
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


def _named(name: str, turn: int, who: str) -> Candidate | None:
    """"My name is X": nothing when memories already call the speaker X ("Maria's name is
    Maria" says nothing), "X's full name is X Y" when it adds to it."""
    if norm(name) == norm(who):
        return None
    if norm(name).startswith(norm(who) + " "):
        return Candidate("fact", f"{who}'s full name is {name}", "fact:name", turn, slot=True)
    return Candidate("fact", f"{who}'s name is {name}", "fact:name", turn, slot=True)


#: Nouns of places one lives in, for a value not named by a proper noun ("the suburbs").
_PLACES = frozenset("""
town city village suburb suburbs countryside country area neighborhood neighbourhood
district coast island state province region street road avenue flat apartment house home
place studio cottage farm estate block building downtown uptown centre center outskirts
north south east west north-east north-west south-east south-west capital hills mountains
seaside countryside shore valley bay
""".split())


def _place(value: str) -> bool:
    """Whether ``value`` can be where someone lives: a name ("Leeds", "New York") or a
    place noun ("a small town", "the suburbs"), not "day shifts", "a new team" or a
    workplace ("the Glasgow office": its head before any "in"/"of"/"at" is one of
    ``facts.WORKPLACES``)."""
    head = re.split(r"\s+(?:in|of|at|on|near|for|with)\s+", value, maxsplit=1)[0].split()
    if head and head[-1].lower().strip(".,!;:") in WORKPLACES:
        return False
    words = re.findall(r"[A-Za-z][\w'-]*", value)
    return any(w[0].isupper() or w.lower() in _PLACES for w in words)


#: A state held for a while: "I have been vegan since January", "I am single for now".
_STATE_SINCE = re.compile(r"^i\s+(?:am|have been|had been)\s+(?:now\s+|fully\s+|happily\s+)?"
                          r"(?P<x>[a-z]+)\s+(?:since|for)\b.*$", re.I)
#: When a single fact became true, closing its value: not part of it.
_WHEN_TAIL = re.compile(r"\s+(?:in|during|over|since|around|by)\s+(?:the\s+|early\s+|late\s+|"
                        r"mid-?)?(?:spring|summer|autumn|fall|winter|january|february|march|"
                        r"april|may|june|july|august|september|october|november|december|"
                        r"\d{4}|new year)\b.*$", re.I)
#: A short phrase setting the scene before "I" ("After the reorg I report to ...").
_SCENE = re.compile(r"^(?:after|since|on|in|at|from|during|as of|starting|this|last|next|"
                    r"for)\b[^,]{1,30}?,?\s+(?=i\s)", re.I)


def _statement(s: str, turn: int, who: str, echo: bool = True) -> Candidate | None:
    """A fact, preference or context the user states about themselves (after a short
    scene-setting phrase, too: "After the reorg I report to Ana")."""
    found = _my_thing(s, turn, who) or _statement_at(_NOW.sub("", s) or s, turn, who, echo)
    if found is None and (m := _SCENE.match(s)) and not _FROM_NOW.match(s):
        found = _statement_at(_NOW.sub("", s[m.end():]) or s, turn, who, echo)
    return found or _mine(s, turn, who)


def _mine(s: str, turn: int, who: str) -> Candidate | None:
    """A plain present statement about the speaker or a thing of theirs in a build the
    rules above do not read (``mine_told.py``): "The car's a Kia now" read as "my car ...",
    "Our house has three bedrooms", "Cider's my drink", "I'm left-handed"."""
    if does := mine_does(s):
        thing, verb = does
        return Candidate("fact", narrate(_cut(s), who), _key("fact:my", f"{thing} {verb}"),
                         turn, slot=True)
    if (held := mine_in_predicate(s)) is not None:
        # (keyed loose, as "my X is Y" is: a change finder reading the sentence goes first)
        thing, what = held
        return Candidate("fact", narrate(_cut(s), who),
                         point_key(what) if what else _key("fact:my", thing or "way"), turn,
                         slot=bool(what))
    if trait := trait_of_speaker(s):
        return Candidate("fact", narrate(_cut(s), who), _key("fact:is", trait), turn)
    return None


def _cut(s: str) -> str:
    """``s`` without what a comma adds after its statement ("..., which hurts")."""
    return re.split(r"\s*(?:,(?!\d{3}\b)|[;:(])", s.strip())[0]


def _my_thing(s: str, turn: int, who: str) -> Candidate | None:
    """A taste said as the speaker's thing (``_MY_THING``), read before "now" is cut."""
    m = _MY_THING.match(s)
    if m is None:
        return None
    x = _obj(m["a"] or m["b"] or m["c"])
    if not x or _ABOUT_THEM.search(x) or _POINTS_BACK.search(x) or \
            re.match(r"(?:that|this|it|which|what|so|too|a|an|the)\b", x, re.I) or \
            m["b"] and (any(w in GENERIC for w in x.lower().split()) or
                        re.search(r"(?:ful|ous|ive|ble|ult|ic|ed|ing)$", x, re.I)):
        return None     # "It is hard for me these days" is how it goes, no taste
    return Candidate("preference", f"{who} likes {third_person(x, named=who)}",
                     _key("preference", x), turn)


def _statement_at(s: str, turn: int, who: str, echo: bool = True) -> Candidate | None:
    if m := _NAME.match(s):
        name = _obj(m["x"], 4)
        if not name:
            return None
        if m["call"]:
            return Candidate("fact", f"{who} wants to be called {name}", "fact:name", turn,
                             slot=True)
        return _named(name, turn, who)
    if (m := _INTRO.match(s)) and m["x"].split()[0] not in _NOT_NAMES:
        if who == "User" or m["x"].split()[0] == who.split()[0] or s[0] in "Tt":
            return _named(m["x"], turn, who)
        # a speaker already named who says "I'm Catholic" or "I'm Irish" describes
        # themselves: another name would come as "my name is" or "call me"
        return Candidate("fact", f"{who} is {m['x']}", _key("fact:is", m["x"]), turn)
    # "I have always loved jazz": a taste held all along is held now.
    s = _HELD_ALL_ALONG.sub(lambda m: "I always " + _PRESENT[m["v"].lower()], s)
    if m := _PREFER.match(s):
        verb, x = m["v"].lower(), _obj(m["x"])
        if not x or _ABOUT_THEM.search(x):
            return None     # "I love that you chose pottery" is a compliment
        if _POINTS_BACK.search(x):
            return None     # "I love how uncomplicated it is": what "it" is is not said
        if re.fullmatch(r"(?:to help|helping)(?:\s+out)?", x, re.I):
            return None     # "No problem! I love to help": help offered, no taste
        if echo and re.search(r"\b(?:too|as well)$", s, re.I):
            return None     # "I love that movie too": agreeing, on the other's topic
        pair = _OVER.match(x) if verb == "prefer" else None
        key = "preference:" + "|".join(sorted(_key("", p)[1:] for p in (pair["a"], pair["b"]))) \
            if pair else _key("preference", x)
        return Candidate("preference", f"{who} {_VERBS[verb]} {third_person(x, named=who)}", key,
                         turn)
    if m := _FAN.match(s):
        x = _obj(m["x"])
        if x and _ABOUT_THEM.search(x):
            return None
        verb = "does not like" if m["neg"] else "likes"
        return Candidate("preference", f"{who} {verb} {third_person(x, named=who)}",
                         _key("preference", x), turn) if x else None
    plain = re.sub(r"^(i|we)\s+(am\s+|are\s+)?(?:also|still|currently|now|really|actually)"
                   r"\s+", r"\1 \2", s, flags=re.I)
    for pattern, template, key in _FACTS:
        if m := pattern.match(plain):
            found = m.groupdict()
            x = _obj(found["x"]) if found.get("x") else None
            if not x and template:
                return None
            x = x or ""
            # "a dentist appointment next month" is about the appointment: a time phrase
            # in the key would make every "next month" plan one point; in a single fact's
            # value it says when, not what ("moved to Leeds last week": lives in Leeds).
            when = time_phrase(x)
            timeless = " ".join(x.replace(when, " ").split()) if when else x
            if when and timeless and "{" not in key:
                x = timeless
            if "{" not in key:      # "moved to Leeds in the spring": lives in Leeds
                x = _WHEN_TAIL.sub("", x) or x
            if key == "fact:location" and re.search(r"\b(?:moved|relocated)\b", s, re.I) and \
                    not _place(x):
                continue    # "I moved to day shifts" says nothing of where

            head = (re.split(r"\s+(?:named|called|who|that|which|with|at|in|on|for|from|to)\b",
                             timeless or x)[0].split() or [""])[-1]
            slot = "{" not in key or "{h}" in key
            key = key.format(x=norm(x), head=norm(head), verb=(norm(x).split() or [""])[0],
                             h=norm(found.get("h") or ""))
            category = "context" if key.startswith("context") else "fact"
            text = template.format(who=who, x=_theirs(x, who)) if template \
                else narrate(s, who)
            return Candidate(category, text, key, turn, slot=slot)
    if m := _MY.match(re.sub(r"^our\s", "my ", s, flags=re.I)):     # ours: the household's
        k, x = m["k"].strip(), _obj(m["x"])
        if not x or norm(k) in _NOT_MY:
            return None
        category = "preference" if re.match(r"favou?rite\b", k, re.I) else "fact"
        return Candidate(category, f"{who}'s {k} {m['v'].lower()} {third_person(x, named=who)}",
                         point_key(k, x), turn, slot=True)
    if m := _MY_VERB.match(s):
        x = _obj(m["x"])
        return Candidate("fact", f"{who}'s {m['k']} {m['v'].lower()} {third_person(x, named=who)}",
                         _key("fact:my", f"{m['k']} {m['v']}"), turn, slot=True) if x else None
    if (m := _STATE_SINCE.match(s)) and m["x"].lower() in _STATES:
        # "I've been vegan since January": a state that holds now, however long.
        x = m["x"].lower()
        return Candidate("fact", narrate(s, who), f"fact:{_STATES[x]}", turn, slot=True)
    if (m := _IS.match(s)) and m["x"].split()[0].lower() not in _NOT_ROLES:
        x = m["x"]
        if echo and re.fullmatch(r"(?:\w+\s+)?fan\s+(?:too|as well)", x, re.I):
            return None     # "I'm a fan too": agreeing, on the other's topic
        if not m["art"] and x.lower() not in _STATES:
            return None
        key = f"fact:{_STATES[x.lower()]}" if x.lower() in _STATES else _key("fact:is", x)
        return Candidate("fact", f"{who} is {m['art'] or ''}{x}", key, turn,
                         slot=x.lower() in _STATES)
    if without := negated_habit(s, who):
        return Candidate("fact", *without, turn)
    return _habit(s, turn, who)


def _habit(s: str, turn: int, who: str) -> Candidate | None:
    """"I play the piano": what the speaker does, keyed by verb and object (many at once)."""
    m = _HABIT.match(s)
    if m is None:
        return None
    verb, x = m["v"].lower(), _obj(m["x"])
    if not habit_verb_of(verb, x or "", m["s"]) or ends_as_ing(verb) or \
            not x or _ABOUT_THEM.search(x) or _POINTS_BACK.search(x):
        return None
    if x.split()[0].lower() in _NOT_HABITS | set(_VERBS):
        return None     # "I absolutley love ...": the "verb" was an adverb
    words = [w for w in norm(x).split() if w not in _ARTICLES and w not in _VAGUE
             and w not in ("to", "at", "in", "on", "with", "for", "about", "of", "the")]
    if not words:
        return None
    content = narrate(s, who)
    if verb in SAME_FORM:   # "Ana read on a Kindle" says a past: the habit's present
        content = re.sub(rf"^({re.escape(who)}) {verb}\b", rf"\1 {verb}s", content)
    return Candidate("fact", content, f"fact:does:{verb} {words[0]}", turn)


def _names_nothing(text: str) -> bool:
    """Whether ``text`` is a statement whose object has no word ("I like *", "my *"): a
    forget of it must not fall back to forgetting the closest memory."""
    if re.fullmatch(r"my\W*", text, re.I):
        return True
    patterns = [_PREFER, _FAN, _MY, _MY_VERB, *(pattern for pattern, _, _ in _FACTS)]
    return any((m := p.match(text)) is not None and not norm(m["x"]) for p in patterns)


def _parse(s: str, turn: int, who: str, echo: bool = True) -> Candidate | None:
    if m := _FORGET.match(s):
        x = _obj(m["x"], 30)
        if not x or _names_nothing(x):
            return None
        inner = _statement(x, turn, who)
        key = inner.key if inner else (_key("fact:my", x[3:]) if x.lower().startswith("my ")
                                       else None)
        text = inner.content if inner else _about(x, who)
        return Candidate(inner.category if inner else "fact", text, key, turn, "forget", text,
                         slot=bool(inner and inner.slot))
    for pattern in _NO_LONGER:
        if m := pattern.match(s):
            inner = _statement(f"{m['s']} {m['x']}", turn, who)
            text = inner.content if inner else _about(f"{m['s']} {m['x']}", who)
            return Candidate(inner.category if inner else "fact", text,
                             inner.key if inner else None, turn, "retire", m["x"],
                             slot=bool(inner and inner.slot))
    if m := _REMEMBER.match(s):
        x = m["x"]
        if re.match(r"to\s", x, re.I):
            if not _instructs(x[3:]):
                return None     # "remember to stay positive" is encouragement
            x2 = _obj(x[3:], 30)
            return Candidate("procedure", f"Remember to {third_person(x2, who)}",
                             _key("procedure", x2), turn) if x2 else None
        found = _statement(x, turn, who) or _instruction(x, turn, who)
        if found:
            return found
        if not m["that"] or len(x.split()) < 3:
            return None     # "Remember Jon, just do it!" is encouragement, not a fact
        x = _obj(x, 30)
        return Candidate("fact", _cap(_about(x, who)), None, turn) if x else None
    return _instruction(s, turn, who) or _statement(s, turn, who, echo)


def _plan(s: str, turn: int, who: str) -> Candidate | None:
    """A plan or wish of the speaker's (``plans.py``), kept as one: no key, replaces nothing
    (kind "plan": no loose statement an episode retells, no sentence read for a change)."""
    told = plan(s, who)
    return Candidate("context", told, None, turn, "plan") if told else None


def _correction(rest: str, turn: int, who: str, strong: bool) -> Candidate | None:
    inner = _parse(rest, turn, who)
    if inner is not None:
        if inner.kind == "add":
            inner.kind = "correct"
        return inner
    if strong or _REFERS.match(rest):
        return Candidate("correction", _cap(third_person(rest)), None, turn, "correct", rest)
    return None


def extract(text: str, turn: int, who: str = "User", *,
            answers_question: bool = False, replies: bool = True,
            listener: str | None = None) -> list[Candidate]:
    """The candidates of one user turn, sentence by sentence, in order.

    Questions are skipped unless they ask to remember or forget ("could you remember that
    ..."). A correction marker ("actually", "no", "that's wrong"...) makes what follows a
    correction; alone in its sentence, it makes the next sentence one. When the turn
    ``answers_question`` (the turn before it asked one), a leading "no"/"nope" is the answer,
    not a correction. When it ``replies`` (the other side spoke right before), a taste
    ending "too" agrees with theirs ("I love that movie too"): not stored; said unprompted
    ("I love ramen too"), it adds a taste. After an appraisal of what the other shared
    ("That looks amazing!"), a taste for a detail of it ("I love the color") is praise.
    An offer of help to ``listener`` (the other person, by name), asked or said, is told
    as the act it is (``offers.py``), once per turn.
    """
    found: list[Candidate] = []
    pending = appraised = offered = False
    for s, question in _sentences(text):
        if praises_shown(s, appraised):
            continue
        appraised = appraised or appraises(s)
        told = None if offered else offer(s, who, listener, question)
        if told is not None:
            offered = True
            found.append(Candidate("context", told, None, turn, "offer", source=s))
            pending = False
            continue
        if question:
            m = _ASK_MEMORY.match(s)
            if not m:
                pending = False
                continue
            s = m["x"]
        marker = CORRECTION.match(s)
        if marker and answers_question and norm(marker["m"]) in _ANSWERS:
            s, marker = s[marker.end():].strip(), None
            answers_question = False
            if not s:
                continue
        candidate = None
        if marker:
            rest = s[marker.end():].strip()
            strong = norm(marker["m"]) not in _WEAK
            if not rest:
                pending = True
                continue
            candidate = _correction(rest, turn, who, strong)
        elif pending:
            candidate = _correction(s, turn, who, True)
        else:
            # A plan or wish first: "I'd love to live in Glasgow" is no present home.
            candidate = _plan(s, turn, who) or _parse(s, turn, who, echo=replies)
        pending = False
        if candidate is not None:
            candidate.source = s
            found.append(candidate)
    return found
