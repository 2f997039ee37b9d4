"""A change of the speaker's that another person brought about, told with that person as
the sentence's subject: "My brother helped me move into my own flat in Woking", "My tutor
helped me switch my course to law", "A mate got me into his Sunday league side, the Red
Lions", "My dad sold me his old Volvo", "My neighbour gives me a lift to work now", "My
old manager poached me to join her team at Sainsbury's", "My boss told me that I've been
made a senior developer". The sentence opens on someone else, so whose it is reads as
theirs (``profile.whose``) and the speaker's finders leave it; but the one whose attribute
takes the new value is the speaker, the verb's object: what holds now is the speaker's own
statement, "I live in my own flat in Woking now", "I switched my course to law", "I am in
his Sunday league side, the Red Lions now", "I have his old Volvo now", "I get a lift to
work now", "I am in her team at Sainsbury's now", "I am a senior developer now". That
statement is read for a change as its own sentence (``change_statements._now_clause``), and
the sentence is told whole, the other person with it.

Why it is general: the frame is English grammar, closed classes of verbs whose object does
what follows (help, get, persuade, talk into, hire someone to: the implicative verbs, whose
act happened) or receives what follows (sell, give, lend, hand, leave someone a thing), "me"
or "us" their object, and what the speaker reported being told about themselves
(``reported.py``, ``undergone.py``); never a value. Another person as the object ("my mum
helped my brother move", "my sister bought herself a Tesla") is no match, nor an act not
done (a wish, an offer, a plan, a question, a negation): the other person's own change keeps
both facts. Pure functions over texts.

So are the speaker signed up to something ("Work signed us all up to the Nuffield gym": we
are signed up to it now), got onto a plan or a diet ("my trainer got me onto a pescatarian
diet": I am on it now), a thing got for the speaker ("bought a Juke for me"), a home got
("found us a flat in Hove": we live in it now) and a post got at a place ("found me a role at
Lidl": I work there now); a move to what is no home is told as moved ("talked me into
moving to Monzo": I moved to Monzo), and "meant we had to move" as the move done.
"""

from __future__ import annotations

import re

from index import TOLD_ADDITION

from .irregular import IRREGULAR
from .meaning import clauses, several
from .reported import reported
from .undergone import undergone

__all__ = ["aided"]

#: The subject of the other person's act: short, not the speaker, and saying no act not
#: done ("my dad wants to sell me", "my boss didn't help me", "she would have got me").
_AGENT = (r"^(?!(?:i|we|me|us)\b)(?![^,;]*?\b(?:not|never|n't|would|could|might|will|shall|"
          r"should|wants?|wanted|tried|tries|offered|offers|promised|promises|going(?=\s+to\b)|gonna|"
          r"hopes?|hoped|if|when|whether)\b)"
          r"(?P<agent>[\w'&.-]+(?:\s+[\w'&.-]+){0,5}?)\s+"
          r"(?:(?:has|have|'s|'ve|just|finally|kindly|eventually|recently|also)\s+)*")
#: Implicative verbs: their object did what follows ("helped me move", "got me to join",
#: "talked me into joining", "poached me to join").
_CAUSING = (r"helped|got|persuaded|convinced|encouraged|pushed|talked|roped|coaxed|"
            r"poached|recruited|hired|headhunted|signed")
#: What one is got onto and stays on: a plan, a diet, a course, a list, a rota (a noun
#: phrase), not a vehicle, a call or a topic ("got me onto the train", "onto the phone").
_ONTO_THING = re.compile(r"^(?:a|an|the|his|her|their|its)\s+(?![\w-]+\s*$)(?!(?:[\w-]+\s+)?"
                         r"(?:train|bus|plane|flight|boat|ferry|phone|line|call|subject|topic|"
                         r"stage|floor|roof|bike|horse)\b)[\w-]+", re.I)
#: Verbs handing their object a thing: in the past the speaker has it now, in the present
#: the speaker gets it as a habit ("gives me a lift to work").
_HANDING_PAST = r"sold|gave|given|handed|passed|bought|got|gotten|left|found"
_HANDING_NOW = r"gives|sells|hands"

_HELPED = re.compile(_AGENT + rf"(?P<verb>{_CAUSING})\s+(?P<obj>me|us)\s+"
                     r"(?:(?:to|into)\s+)?(?P<v>[a-z]+)\b(?P<rest>.*)$", re.I)
_INTO = re.compile(_AGENT + r"(?:got|put|brought|took)\s+(?P<obj>me|us)\s+(?P<prep>in|into|onto)\s+"
                   r"(?P<rest>.+)$", re.I)
#: Signed up with something by another: "Work signed us all up to the Nuffield gym", "my
#: mum signed me up for the choir": the speaker is signed up to it now.
_SIGNED = re.compile(_AGENT + r"(?:signed|enrolled|registered|booked)\s+(?P<obj>me|us)"
                     r"(?:\s+(?:all|both))?\s+up\s+(?:to|for|with|at|on)\s+(?P<rest>.+)$", re.I)
#: A thing got for the speaker: "my parents bought a Nissan Juke for me", "my in-laws
#: found a flat for us in Hove": the speaker has it now.
_FOR_ME = re.compile(_AGENT + rf"(?:{_HANDING_PAST}|rented|leased|built|sorted|arranged)\s+"
                     r"(?P<thing>(?:a|an|the|his|her|their|its|some|one)\s+[^,;]+?)\s+for\s+"
                     r"(?P<obj>me|us)\b(?P<rest>.*)$", re.I)
#: A home: had, it is where one lives ("found us a flat in Hove": we live in a flat in
#: Hove now).
_DWELLING = re.compile(r"^(?:a|an|the|his|her|their|its|some|one)\s+(?:[\w-]+\s+){0,3}?"
                       r"(?:flat|house|home|place(?!\s+(?:at|on)\b)|bungalow|cottage|room|"
                       r"apartment|studio|"
                       r"maisonette|semi|terrace|bedsit|houseboat|caravan)\b", re.I)
#: A post got at a place: "a role at Lidl head office", "a transfer to the Tesco in
#: Bromley", "a placement with Arup": the speaker works there now.
_JOB_AT = re.compile(r"^(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:role|position|post|placement|"
                     r"transfer|apprenticeship|traineeship|contract)\s+(?:at|with|to)\s+"
                     r"(?P<org>.+)$", re.I)
#: A place got at a school or on a course ("got me a place at Leeds uni", "a place on the
#: nursing course"): the speaker is at it, or on it, now; not a home ("a place in Hove").
_PLACE_AT = re.compile(r"^(?:a|an|the)\s+(?:[\w-]+\s+)?place\s+(?P<prep>at|on)\s+(?P<org>.+)$",
                       re.I)
#: A job as a role ("a job as a mechanic at his uncle's garage"): the speaker works as it.
_JOB_AS = re.compile(r"^(?:a|an|the)\s+(?:[\w-]+\s+)?(?:job|post|position|role)\s+as\s+"
                     r"(?P<role>(?:a|an)\s+[^,;.!?]+)$", re.I)
_HANDED = re.compile(_AGENT + rf"(?:(?P<past>{_HANDING_PAST})|(?P<now>{_HANDING_NOW}))\s+"
                     r"(?P<obj>me|us)\s+(?P<rest>(?:a|an|the|his|her|their|its|some|one)\b.+)$",
                     re.I)

#: A thing given to the speaker, said with "to me" after it: "My brother passed his
#: Samsung on to me", "Mum handed her old Clio down to us": the speaker has it now.
_TO_ME = re.compile(_AGENT + r"(?:passed|handed|gave|given|sold|left)\s+"
                    r"(?P<thing>(?:a|an|his|her|their|its)\s+[^,;]+?)\s+"
                    r"(?:(?:on|down|over|back)\s+)?to\s+(?P<obj>me|us)\b", re.I)
#: A thing given as a treat: "My husband surprised me with a Mini Cooper for my
#: fortieth", "the kids surprised us with a new telly" (not "treated me to a coffee": a
#: treat had, not a thing kept).
_TREATED = re.compile(_AGENT + r"(?:surprised|treated|spoiled|spoilt|presented)\s+(?P<obj>me|us)\s+"
                      r"with\s+(?P<thing>(?:a|an|the|his|her|their|some)\s+.+)$", re.I)
#: A partner found for the speaker: "My sister set me up with Ravi": the speaker is with
#: that person now (one name, not a thing: "set me up with Office 365").
_SET_UP = re.compile(_AGENT + r"(?:set|fixed)\s+me\s+up\s+with\s+"
                     r"(?P<name>(?-i:[A-Z][a-z]+))(?!\s*(?-i:[A-Z0-9])|')", re.I)
#: Another's post that took the speaker's household to a place, or the speaker following
#: another there: "My partner's job took us to Bristol", "We followed my wife's job down
#: to Exeter", "I followed my boyfriend up to Glasgow": the speaker moved there. The cause
#: is another's (a possessive), so a work trip ("Work took me to Berlin") is not read.
_PLACE_NAMED = r"(?P<p>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)"
_TOOK_US = re.compile(r"^(?:(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+'s?|his|her|their)\s+"
                      r"(?:new\s+)?(?:job|work|career|post|posting|transfer|contract|company|"
                      r"firm|promotion|role)\s+(?:(?:has|have|'s|finally)\s+)*(?:took|taken|"
                      r"brought|moved)\s+(?P<obj>me|us)\s+(?:(?:up|down|over|out|back)\s+)?"
                      r"to\s+" + _PLACE_NAMED, re.I)
_FOLLOWED = re.compile(r"^(?P<obj>i|we)\s+(?:(?:have|'ve|just|finally|eventually)\s+)*"
                       r"followed\s+(?:my|our|his|her|their)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+"
                       r"(?:(?:up|down|over|out|back)\s+)?to\s+" + _PLACE_NAMED, re.I)

#: A stay for a while, not what holds now: "put us in the Grand Hotel for the week".
_A_WHILE = re.compile(r"\bfor\s+(?:now|the\s+time\s+being|(?:the|a|an|one|two|three|a\s+few|"
                      r"a\s+couple\s+of)\s+(?:\w+\s+)?(?:nights?|days?|weeks?|weekend|fortnight|"
                      r"months?|bit|while|holidays?|summer))\b", re.I)
#: Where a clause ends: what follows is no longer what the speaker did or got.
_END = re.compile(r"\s*(?:[;:!?.(]|\s-\s|\b(?:and|but|so|because|cos|since|which|who|after|"
                  r"when|while|though|although|as)\b)", re.I)
#: A comma that is not an appositive naming the thing just said ("his side, the Red Lions").
_COMMA = re.compile(r",(?!\s+(?:(?:the|a|an)\s+)?(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z0-9])[\w'&-]*)*"
                    r"\s*(?:,|$))")
#: A time said at the end of what was done: not part of the value.
_WHEN = re.compile(r"(?:\s+(?:on|last|this|over\s+the|at\s+the)\s+(?:weekend|\w+day|week|"
                   r"month|year|summer|spring|autumn|winter)|\s+(?:yesterday|today|recently|"
                   r"instead|again|too|as\s+well|in\s+(?:january|february|march|april|may|june|"
                   r"july|august|september|october|november|december)))+\s*$", re.I)
#: What never follows a verb of helping as a change: a feeling, a chore, an errand.
_NOT_DONE = re.compile(r"^(?:feel|think|realise|realize|see|understand|laugh|cry|smile|relax|"
                       r"calm|cope|wait|out|up|with|through|pack|tidy|clean|paint|carry|find|"
                       r"look|cook|fix)\b", re.I)

def _past(verb: str) -> str:
    """The past of a plain verb or of its "-ing" form ("switch" -> "switched", "joining" ->
    "joined", "moving" -> "moved", "swap" -> "swapped", "taking" -> "took"): an irregular
    verb's from the one table (``irregular.py``; its regular variant when it has one,
    "learned"), else by the spelling rules."""
    low = verb.lower()
    if len(low) > 3 and low.endswith("ed") and not low.endswith("eed") and low not in IRREGULAR:
        return low      # a participle already ("got us connected"): not "connecteded"
    stem = low[:-3] if low.endswith("ing") and len(low) > 4 else ""
    for base in (low, stem, stem + "e", stem[:-1]) if stem else (low,):
        if base in IRREGULAR:
            pasts = IRREGULAR[base][0]
            return next((p for p in pasts if p.endswith("ed")), pasts[0])
    if stem:
        return stem + "ed"      # "moving" -> "moved", "swapping" -> "swapped"
    if low.endswith("e"):
        return low + "d"
    if re.search(r"[^aeiou]y$", low):
        return low[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", low):
        return low + low[-1] + "ed"     # "swap" -> "swapped"
    return low + "ed"


def _base(verb: str) -> str:
    """The plain form of a verb said with "-ing" ("joining" -> "join"; "moving" -> "mov"
    is enough to compare its start)."""
    low = verb.lower()
    return low[:-3] if low.endswith("ing") and len(low) > 4 else low


def _what(rest: str) -> str:
    """What follows the verb, up to its clause's end, its time left out."""
    rest = _COMMA.split(rest, maxsplit=1)[0]
    rest = _END.split(rest, maxsplit=1)[0].strip()
    return _WHEN.sub("", rest).strip()


#: What a thing was handed over for, after it: a price or an occasion ("sold me his Fabia
#: for a grand", "surprised me with a Mini for my fortieth"): not part of the thing.
_FOR_WHAT = re.compile(r"\s+for\s+(?:a\s+(?:grand|song|tenner|fiver|steal)|free|nothing|"
                       r"next\s+to\s+nothing|cheap|peanuts|£?\d[\w,.]*|(?:a|one|two|three|"
                       r"a\s+few)\s+(?:hundred|thousand|grand|quid|pounds)|(?:my|our)\s+[\w-]+|"
                       r"christmas|(?:his|her|their)\s+(?:birthday|christmas))\b.*$", re.I)


def _thing(rest: str) -> str:
    """The thing handed to the speaker (``_what``), its price or occasion left out."""
    return _FOR_WHAT.sub("", _what(rest)).strip()


def _subject(obj: str) -> tuple[str, str]:
    """The speaker as subject, and "to be" for it: "me" -> ("I", "am")."""
    return ("we", "are") if obj.lower() == "us" else ("I", "am")


def _done(m: re.Match[str]) -> str | None:
    """What the speaker did with the other's help, said as the speaker's own: a move is
    where they live, a joining where they are, any other act as done."""
    verb, rest = m["v"], _what(m["rest"])
    subject, be = _subject(m["obj"])
    if not rest or _NOT_DONE.match(verb) or _NOT_DONE.match(rest):
        return None
    base = _base(verb)
    if re.match(r"mov|relocat", base):
        # "helped me move all my stuff into my own flat in Woking": where the speaker lives.
        place = re.search(r"\b(?:in)?to\s+(?P<p>.+)$", rest, re.I)
        if place is None:
            return None
        # Into a home, or to a place by its name: where the speaker lives; to anything
        # else ("talked me into moving to Monzo"): moved, what to left to the finders.
        return f"{subject} live in {place['p']} now" if _DWELLING.match(place["p"]) or \
            re.fullmatch(r"(?:my|our)\s.+", place["p"], re.I) else \
            f"{subject} moved to {place['p']}"
    if re.fullmatch(r"join", base):
        return f"{subject} {be} in {rest} now"
    if re.fullmatch(r"[a-z]+", verb) and not re.fullmatch(r"(?:be|being|a|an|the)", verb, re.I):
        return f"{subject} {_past(verb)} {rest}"
    return None


#: The speaker's clause told as what another's act led to: "My partner got a job in
#: Cardiff, so we've moved there", "My husband's new job means we've relocated to Bristol".
_SO_WE = re.compile(r"^(?!(?:i|we|me|us)\b)(?P<cause>[^;:]{3,}?)(?:,\s*|\s+)(?:and\s+)?"
                    r"(?:so(?!\s+(?:much|many|far|long|good|glad|happy|proud))|(?:which\s+)?"
                    r"(?:means?|meant)(?:\s+that)?|and\s+now)\s+(?P<c>(?:i|we)\b[^;:]+)$", re.I)
#: "There" after a move: the place the cause named ("so we've moved there").
_MOVED_THERE = re.compile(r"\b(?P<v>moved|relocated|gone|went)(?P<p>\s+(?:back\s+)?)there\b", re.I)
_PLACE = re.compile(r"\b(?:in|to|at)\s+(?P<p>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)")


def _consequence(s: str) -> str | None:
    """The speaker's clause of what another's act led to (``_SO_WE``), "there" said as
    the place the cause named; None when the clause is a plan, a wish or a question."""
    m = _SO_WE.match(s)
    if m is None:
        return None
    clause = m["c"].strip()
    # "meant we had to move to Sutton": the obligation met, what was done.
    clause = re.sub(r"\b(?:had|have|'ve)\s+(?:had\s+)?to\s+([a-z]+)\b",
                    lambda v: _past(v[1]), clause, count=1, flags=re.I)
    if (there := _MOVED_THERE.search(clause)) is not None:
        places = _PLACE.findall(m["cause"])
        if not places:
            return None
        clause = clause[:there.start()] + f"{there['v']}{there['p']}to {places[-1]}" + \
            clause[there.end():]
    return clause


#: A worker of a named firm who set the speaker up with it: "The BT engineer came out and
#: got us connected on full fibre", "the Octopus man hooked us up last week", "an EE rep
#: switched me over": the firm, named as what the worker is of, is the speaker's provider
#: now. Only an act done (no "not", "will", "going to", "if": the same guard as
#: ``_AGENT``), and the speaker its object.
_FIRM_WORKER = re.compile(
    r"^(?:the|an?|our|my)\s+(?P<firm>(?-i:[A-Z][\w&'-]*)(?:\s+(?-i:[A-Z][\w&'-]*)){0,2})\s+"
    r"(?:engineers?|technicians?|techs?|installers?|fitters?|man|men|guy|guys|lady|rep|team)\b"
    r"(?![^,;]*?\b(?:not|never|n't|would|could|might|will|shall|should|going|gonna|if|"
    r"whether)\b)[^,;]{0,40}?\b(?:(?:got|had)\s+(?P<o>me|us)\s+(?:connected|hooked\s+up|"
    r"set\s+up|switched\s+over|signed\s+up|moved\s+over)|(?:connected|hooked|set|"
    r"switched|signed|moved)\s+(?P<o2>me|us)\s+(?:up|over|across)?)"
    r"(?P<rest>.*)$", re.I)


def _firm(s: str) -> str | None:
    """The speaker's statement of the provider a firm's worker set them up with
    (``_FIRM_WORKER``): "we are with BT for full fibre now"."""
    m = _FIRM_WORKER.match(s)
    if m is None:
        return None
    subject, be = _subject(m["o"] or m["o2"])
    onto = re.match(r"\s+(?:to|on|onto|with)\s+(?P<w>.+)$", _WHEN.sub("", m["rest"]), re.I)
    what = _what(onto["w"]) if onto else ""
    return f"{subject} {be} with {m['firm']}" + (f" for {what}" if what else "") + " now"


def _had(subject: str, thing: str) -> str:
    """What the speaker has now that it was got for them: a home lived in ("we live in a
    flat in Hove now"), any other thing had ("I have a Nissan Juke now")."""
    if _DWELLING.match(thing):
        return f"{subject} live in {thing} now"
    return f"{subject} have {thing} now"


def _said(s: str) -> str | None:
    """:func:`aided` of one sentence or clause ``s``."""
    if (firm := _firm(s)) is not None:
        return firm
    if (m := _SIGNED.match(s)) is not None and (rest := _what(m["rest"])):
        subject, be = _subject(m["obj"])
        return f"{subject} {be} signed up to {rest} now"
    if (m := _INTO.match(s)) is not None:
        rest = _what(m["rest"])
        subject, be = _subject(m["obj"])
        if m["prep"].lower() == "onto" and rest and _ONTO_THING.match(rest):
            return f"{subject} {be} on {rest} now"     # "got me onto a low-carb diet"
        if re.match(r"^at\s+(?-i:[A-Z])", rest) and m["prep"].lower() == "in":
            return f"{subject} work {rest} now"    # "got me in at Asda": a job there
        return f"{subject} {be} in {rest} now" if rest and re.search(
            r"\b(?-i:[A-Z])|\b(?:team|side|club|band|choir|squad|group|course|class|school|"
            r"job|role)\b", rest) else None
    if (m := _HELPED.match(s)) is not None and (done := _done(m)) is not None:
        return done
    if (m := _FOR_ME.match(s)) is not None and (thing := _what(m["thing"] + m["rest"])):
        subject, _ = _subject(m["obj"])
        return _had(subject, thing)
    if (m := _HANDED.match(s)) is not None:
        if m["past"] and (job := _JOB_AS.match(_COMMA.split(m["rest"], maxsplit=1)[0])) and \
                not _END.search(job["role"]):
            return f"{_subject(m['obj'])[0]} work as {_WHEN.sub('', job['role']).strip()} now"
        rest = _thing(m["rest"]) if m["past"] else _what(m["rest"])
        subject, _ = _subject(m["obj"])
        if not rest:
            return None
        if m["past"] and _DWELLING.match(rest):
            return _had(subject, rest)
        if m["past"] and (place := _PLACE_AT.match(rest)):
            subject, be = _subject(m["obj"])
            return f"{subject} {be} {place['prep'].lower()} {place['org']} now"
        if m["past"] and (job := _JOB_AT.match(rest)):
            return f"{subject} work at {job['org']} now"    # "found me a role at Lidl"
        return f"{subject} have {rest} now" if m["past"] else f"{subject} get {rest}"
    if (m := _TO_ME.match(s)) is not None and (thing := _what(m["thing"])):
        return _had(_subject(m["obj"])[0], thing)
    if (m := _TREATED.match(s)) is not None and \
            (thing := _thing(m["thing"])):
        return _had(_subject(m["obj"])[0], thing)
    if (m := _SET_UP.match(s)) is not None:
        return f"I am with {m['name']} now"
    if (m := _TOOK_US.match(s) or _FOLLOWED.match(s)) is not None:
        return f"{'we' if m['obj'].lower() in ('we', 'us') else 'I'} moved to {m['p']}"
    if (inner := reported(s)) is not None:
        # "My boss told me that I've been made a senior developer": what the speaker was
        # told of their own change, read as undergone.
        return undergone(inner)
    return _consequence(s)


#: How often or how long ("three times a week", "two days a month", "for two years"):
#: no several things held.
_HOW_OFTEN = re.compile(r"\b(?:two|three|four|several|a\s+couple\s+of)\s+(?:times|days|"
                        r"nights|evenings|mornings|weeks|weekends|months|years|hours)\b", re.I)


#: A time long past the sentence is told in ("When I turned ten, dad signed me up for a
#: league", "as a kid", "years ago"): what was done then says nothing of now.
_LONG_AGO = re.compile(r"^(?:back\s+)?when\s+(?:i|we)\s+(?:was|were|turned|started|first)\b|"
                       r"\b(?:as\s+a\s+(?:kid|child|boy|girl|teen(?:ager)?)|growing\s+up|"
                       r"years\s+ago|used\s+to)\b", re.I)


#: A clause of time or cause told after the act, opening on its own subject.
_AFTER_ACT = re.compile(r"\s+(?:when|after|because|since|once|as\s+soon\s+as)\s+(?=(?:he|she|"
                        r"they|we|i|my|our|his|her|their|the)\b)", re.I)


def aided(sentence: str) -> str | None:
    """The speaker's own statement of a change ``sentence`` (cleaned) tells another person
    brought about ("I live in my own flat in Woking now" of "My brother helped me move all
    my stuff into my own flat in Woking"), told as the sentence or one of its clauses, or
    None."""
    s = sentence.strip()
    if not s or s.endswith("?") or several(_HOW_OFTEN.sub(" ", s)) or TOLD_ADDITION.search(s) \
            or _A_WHILE.search(s) or _LONG_AGO.search(s):
        return None     # "My work gave me an iPhone, so I carry two phones now": one more
    if (said := _said(s)) is not None:
        return said
    # A time or a cause told after the act ("My dad gave me his Volvo when he stopped
    # driving"): the act read without it (its "when" is no condition of an act done), a
    # habit ("gives me a lift when it rains") left as it was.
    cut = _AFTER_ACT.split(s, maxsplit=1)[0]
    if cut != s and (said := _said(cut)) is not None and \
            not re.match(r"^(?:i|we)\s+get\b", said, re.I):
        return said
    return next((said for clause in clauses(s)[1:] if (said := _said(clause.strip()))
                 is not None), None)
