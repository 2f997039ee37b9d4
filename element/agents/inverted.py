"""The value told first, for the updates: "Leeds is where I live now", "Home is Leeds these
days", "Leeds has been home since May", and the time told first ("These days I'm at
KPMG"). Spoken English puts the new value (or its time) up front, where the rules look for
the speaker ("I live in ..."): read as it is, such a sentence is no statement of the
speaker's and is not stored at all. Written as the plain statement it means ("I live in
Leeds now", "I have lived in Leeds since May", "I'm at KPMG these days"), it is read like
any other, and the memory says it plainly. (A taste told by comparison, "I'd pick tacos
over sushi", is ``cleaning``'s: every turn's.)

Only whole sentences of these shapes are rewritten, the rest of the turn as it was said;
a name as the subject must be capitalised (a place, not "the kitchen is where I work").
"""

from __future__ import annotations

import re

# The words that say "now" ("now", "these days", "currently"; not "now and then"): recall's
# (index/told.py), so that a sentence written plain keeps the time both sides read. "Now"
# is read as a word after the verb and its particle ("the Rovers I play for now").
from index import TOLD_NOW_WORD as _NOW_WORD, TOLD_PRESENT_TIME as _PRESENT_TIME

from .episode_words import FAMILY
from .slots import PEOPLE
from .spoken import LEAD

__all__ = ["inverted"]

#: A capitalised name of up to four words: the value told first.
_NAME = r"(?P<x>(?-i:[A-Z])[\w'-]*(?:\s+(?:(?-i:[A-Z])[\w'-]*|of|upon|on))*?)"
#: "Leeds is where I live now", "Hove's where we're based these days", "Norwich is where
#: we call home these days".
#: With no verb, being there is living there: "York's where we are now".
_WHERE = re.compile(rf"^{_NAME}(?:'s|\s+is)\s+where\s+(?P<s>i|we)(?:(?:'m|\s+am|'re|\s+are)?\s+"
                    r"(?P<v>live|stay|based|work|study|call\s+home)\b|(?:'m|\s+am|'re|\s+are)"
                    rf"(?=(?:\s+(?:{_PRESENT_TIME}|{_NOW_WORD}))?$))(?P<rest>.*)$", re.I)
#: "Home is Leeds these days", "home's Leeds now", "home is now Leeds".
_HOME_IS = re.compile(rf"^(?P<o>(?:my|our)\s+)?home(?:'s|\s+is)\s+(?:now\s+)?{_NAME}"
                      rf"(?P<rest>(?:\s+(?:{_PRESENT_TIME}|{_NOW_WORD}|"
                      r"since\b.*|for\b.*))*(?:\s*[,;].*)?)$", re.I)
#: "Leeds has been home since May", "Leeds is home now", "Leeds is our home these days".
_IS_HOME = re.compile(rf"^{_NAME}(?:'s|\s+is|\s+has)\s+(?P<b>been\s+|become\s+)?"
                      r"(?P<o>my\s+|our\s+)?(?:new\s+)?home\b(?!\s+(?:to|of)\b)"
                      r"(?P<rest>.*)$", re.I)
#: "These days I'm at KPMG", "Nowadays, we rent in Hove": the time told first, before the
#: speaker the rules look for at the start; "now" alone opens talk ("Now, I ...") as often.
_FRONTED_NOW = re.compile(rf"^(?P<t>{_PRESENT_TIME})\s*,?\s+"
                          r"(?P<s>(?:i|we)\b[^,;:]*?)(?P<rest>\s*[,;:].*)?$", re.I)
#: The verb of a cleft's clause, with its particle or preposition: "run with", "drive",
#: "'m with", "have been going to".
_VERB = (r"(?P<v>(?:(?:am|'m|are|'re|have|'ve|had|'d)\s+)?(?:been\s+)?[a-z]+"
         r"(?:\s+(?:with|for|at|to|in|on|from|by|under|into))?)")
#: When it holds, after the verb: "now", "these days".
_WHEN = rf"(?P<t>(?:\s+(?:{_PRESENT_TIME}|{_NOW_WORD}|instead))*)"
#: The clause after the cleft: a reason, more news.
_REST = r"(?P<rest>\s*[,;].*)?"
#: An it-cleft, the value told first: "it's the Riverside Striders I run with now", "it's
#: Aldi we go to these days" (after a clause of its own: "Gone are my Harriers days; it's
#: ..."). The value opens on a determiner or a capital: "it's funny I ..." is no value.
#: (the clauses before it read possessively: a space given to either ``\s*`` or the next
#: clause made "aaa, aaa, ..." exponential)
_CLEFT = re.compile(r"^(?P<pre>(?:[^,;]*+[,;]\s*+)*?)it(?:'s|\s+is|\s+has\s+been|'s\s+been)\s+"
                    r"(?P<x>(?:(?:the|a|an|my|our)\s+|(?-i:[A-Z]))[^,;]{0,40}?)\s+"
                    r"(?:that\s+|who\s+|which\s+)?(?P<s>i|we)(?:\s+|(?=['’]))" + _VERB + _WHEN +
                    _REST + r"$", re.I)
#: A pseudo-cleft, the value told first: "Three days a week is all I do now", "A Skoda is
#: what I drive these days".
_IS_WHAT = re.compile(r"^(?P<x>[^,;]{1,40}?)\s+(?:is|'s|are)\s+(?:all|what)\s+(?P<s>i|we)\s+"
                      + _VERB + _WHEN + _REST + r"$", re.I)
#: ... and told last: "What I drive now is a Skoda".
_WHAT_IS = re.compile(r"^what\s+(?P<s>i|we)\s+" + _VERB + _WHEN + r"\s+(?:is|'s|are)\s+"
                      r"(?P<x>[^,;]{1,40}?)" + _REST + r"$", re.I)
#: The time in a new place told first, as the sentence's subject: "Week one as a trainee
#: chef", "First month at Primark done", "Day three in the new flat": the speaker is there
#: now ("I am a trainee chef now", "I am at Primark now").
_COUNTED = (r"(?:(?:day|week|month|year|shift|term)\s+(?:one|two|three|four|five|six|seven|"
            r"eight|nine|ten|\d+)|(?:my\s+)?(?:first|second|third|fourth|fifth)\s+(?:full\s+)?"
            r"(?:day|week|month|year|shift|term|fortnight))")
_TIME_SUBJECT = re.compile(rf"^(?P<t>{_COUNTED})\s+(?P<p>as|at|in|on|with)\s+"
                           r"(?P<x>(?:the|a|an|my|our|(?-i:[A-Z]))[^,:;!?]{0,40}?)"
                           r"(?P<rest>\s*[,:;-].*|\s+(?:and|so)\s.*)?$", re.I)
#: A cleft of the subject, a person of the speaker's told first: "It's my sister who's in
#: Edinburgh now", "these days it's my parents who live in Whitby". What it tells is that
#: person's ("My sister is in Edinburgh now"), never the speaker's: read as it is, its "it"
#: opened a statement of no holder, and the speaker's own value was replaced by it.
_WHO_CLEFT = re.compile(rf"^(?P<t>{_PRESENT_TIME}\s*,?\s+)?it(?:'s|’s|\s+is|\s+was)\s+"
                        r"(?P<x>(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?P<p>[\w-]+))\s+(?:who|that)"
                        r"(?:(?P<be>'s|’s|'re|’re|\s+is|\s+are|\s+was|\s+were)|\s+(?P<v>[a-z]+))\s+"
                        r"(?P<rest>.+)$", re.I)
#: Words opening a value that are no name: lower-cased when the value moves to the end.
_OPENERS = frozenset("""the a an my our some one two three four five six seven eight nine ten
eleven twelve half""".split())
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: An adverb between the speaker's "am" and what they are: "I'm officially an attorney
#: now", "we're finally the owners": said of the present, it adds no fact, and it hides
#: the statement's shape from the rules ("I'm an attorney now"). Not a hedge or a negation
#: ("I'm hardly a chef", "probably a ...": they change what is said).
_STANCE = re.compile(r"\b(?P<be>(?:i|we)(?:'m|'re|\s+am|\s+are))\s+(?!(?:hardly|barely|scarcely|"
                     r"nearly|probably|possibly|supposedly|allegedly|likely|unlikely|early|"
                     r"only|partly|mostly|largely)\b)[a-z]{3,}ly\s+(?=(?:a|an|the|my|our)\s)",
                     re.I)


def _value(x: str) -> str:
    first, _, rest = x.partition(" ")
    return (first.lower() if first.lower() in _OPENERS else first) + (" " + rest if rest else "")


#: A cleft's "value" that is a time or a clause: "It's been a while since I went", "It's
#: the first time that I ...", "That is all I know".
_NO_VALUE = re.compile(r"\b(?:since|ago|while|until|before|after|when|because|if|time|times|"
                       r"long|ages|years|first|last|only|reason|way|thing|things|that|this|"
                       r"it)\b", re.I)


def _cleft(body: str) -> str | None:
    """A cleft's plain statement: "it's the Striders I run with now" -> "I run with the
    Striders now"; "Three days a week is all I do now" -> "I do three days a week now"."""
    m = _CLEFT.match(body) or _IS_WHAT.match(body) or _WHAT_IS.match(body)
    if m is None or _NO_VALUE.search(m["x"]):
        return None
    # (the speaker's "'m" or "'re" kept on them: "it's Superdrug I'm with now")
    said = f"{m['s']}{m['v']}" if m["v"][:1] in "'’" else f"{m['s']} {m['v']}"
    if "pre" in m.groupdict():
        return f"{m['pre']}{said} {_value(m['x'])}{m['t']}{m['rest'] or ''}"
    return f"{said} {_value(m['x'])}{m['t']}{m['rest'] or ''}"


def _subject_cleft(body: str) -> str | None:
    """A subject cleft's plain statement, its person a person of the speaker's: "It's my
    sister who's in Edinburgh now" -> "My sister is in Edinburgh now"."""
    m = _WHO_CLEFT.match(body)
    if m is None or m["p"].lower() not in PEOPLE and m["p"].lower() not in FAMILY:
        return None
    plural = m["p"].lower().endswith("s") and not m["p"].lower().endswith("ss")
    be = (m["be"] or "").strip(" '’").lower()
    verb = m["v"] if m["v"] else {"s": "is", "re": "are"}.get(be, be)
    if be == "s" and plural:
        verb = "are"
    time = f" {m['t'].strip(' ,').lower()}" if m["t"] else ""
    x = m["x"][:1].upper() + m["x"][1:]
    rest = m["rest"]
    if time:
        head, sep, tail = rest.partition(",")
        rest = f"{head}{time}{sep}{tail}"
    return f"{x} {verb} {rest}"


def _sentence(said: str) -> str:
    # An interjection before it ("Yep, Lisbon is home now") is kept and read past.
    if (lead := LEAD.match(said)) and lead.end() < len(said):
        rest = said[lead.end():]
        written = _sentence(rest)
        return said if written == rest else said[:lead.end()] + written
    core = said.rstrip()
    end = core[len(core.rstrip(".!?")):]
    body = core.rstrip(".!?")
    if m := _WHERE.match(body):
        verb = (m["v"] or "live").lower()
        verb = "live" if verb.startswith("call") else verb    # "where we call home"
        prep = "at" if verb in ("work", "study") else "in"
        verb = "am based" if verb == "based" and m["s"].lower() == "i" else \
            "are based" if verb == "based" else verb
        return f"{m['s']} {verb} {prep} {m['x']}{m['rest']}{end}"
    if m := _HOME_IS.match(body):
        who = "we" if (m["o"] or "").lower().startswith("our") else "I"
        return f"{who} live in {m['x']}{m['rest']}{end}"
    if m := _IS_HOME.match(body):
        who = "we" if (m["o"] or "").strip().lower() == "our" else "I"
        verb = "have lived" if m["b"] else "live"
        return f"{who} {verb} in {m['x']}{m['rest']}{end}"
    if m := _FRONTED_NOW.match(body):
        return f"{m['s']} {m['t'].lower()}{m['rest'] or ''}{end}"
    if (m := _TIME_SUBJECT.match(body)) and not re.search(
            r"\b(?:is|was|are|were|has|had|done|over|finished|complete|and|but)\b", m["x"], re.I):
        x = _value(m["x"]) if m["p"].lower() == "as" else m["x"]
        where = "" if m["p"].lower() == "as" else m["p"].lower() + " "
        return f"I am {where}{x} now{m['rest'] or ''}{end}"
    if (plain := _subject_cleft(body)) is not None:
        return f"{plain}{end}"
    if (plain := _cleft(body)) is not None:
        return f"{plain}{end}"
    return said


def _capital(said: str, written: str) -> str:
    """``written`` opening with a capital where ``said`` did ("we are based ..." -> "We")."""
    return written[:1].upper() + written[1:] if written != said and said[:1].isupper() \
        else written


def inverted(text: str) -> str:
    """``text`` with each sentence that tells its value first written as the plain
    statement it means ("Leeds is where I live now" -> "I live in Leeds now")."""
    parts = _SENTENCE.split(text)
    written = [_capital(p, _STANCE.sub(lambda m: m["be"] + " ", _sentence(p))) for p in parts]
    return text if written == parts else " ".join(written)
