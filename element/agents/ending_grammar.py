"""The grammar of an ending: what a clause says ended, and whose it was.

People say a thing of theirs ended in a few shapes of English, whatever the thing:

- a verb of ending and its object: "I quit *the choir*", "gave up *caffeine*", "done with
  *coffee*", "I'm off *the cigarettes*", "sold *my bike*", "kicked *the habit*", "gave
  *the allotment* up", "my GP took me off *the sertraline*", "stopped *going to the gym*";
- the present negated, with a word of time that says it once held: "I'm not *drinking*
  anymore", "I don't *eat red meat* any more", "I haven't *played chess* in months";
- "no longer" and "no more": "I no longer *volunteer*", "no more *sugar in my tea*";
- the thing as the subject of an ending: "*keto*'s over for me", "*the pottery course* is
  over", "*the fig* died", "Tomasz and I are over".

Each gives the thing ended as said (:class:`Ending`); ``endings.py`` finds the memory it
means. A thing named by a pronoun ("I've given it up") or not at all ("I stopped going")
names nothing.

Whose the ending is: the subject of its verb. "I", "we", "X and I", none ("Gave up my
season ticket") or a thing of the speaker's ("my gym membership is over") end the
speaker's; a person ("my sister quit smoking", "Jo left her choir", "she stopped") ends
nothing of the speaker's; a person of the speaker's ("Dad's given up the booze") ends only
that person's. Plans and wishes ("I want to quit smoking"), additions and questions end
nothing. Pure functions over texts; no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .befallen import befallen, for_a_while, head_of_possessed
from .thing_fate import fates
from .episode_words import PAST
from .kinds import TIMES
from .paused import paused
from .holders import UNKNOWN, subject_first
from .named import ENDING
from .profile import whose
from .slots import PEOPLE
from .updates import ADDITION, NOT_NOW

__all__ = ["ADVERBS", "Ending", "INTOLERANT", "KIN_SUBJECT", "NONE_IN_ITS_PLACE", "SPEAKER",
           "clauses", "endings", "long_past_ending", "speakers_own", "thing_of"]


#: The speaker as the subject: I, we, "X and I", or none (a clause opening on its verb).
SPEAKER = r"(?:(?:i|we)|(?:(?:my|our)\s+)?[\w'-]+\s+and\s+i)"
#: Words between a subject and its verb.
ADVERBS = (r"(?:\s+(?:have|had|'ve|'d|just|finally|recently|officially|actually|totally|"
            r"completely|already|eventually|basically|pretty\s+much|sadly|then|also|now|"
            r"kind\s+of|sort\s+of|decided\s+to|had\s+to|managed\s+to|went\s+and))*")
#: People of the speaker's (``slots.PEOPLE``): "gave my sister back her car" gives no thing
#: of the speaker's back.
_KIN = "|".join(re.escape(p) for p in sorted(PEOPLE, key=len, reverse=True))
#: The people of ``_KIN`` that are no pets: a pet lost is one that died ("we lost our dog
#: in May"), a person lost is a bereavement, theirs.
_HUMAN_KIN = "|".join(re.escape(p) for p in sorted(
    PEOPLE - frozenset("dog cat puppy kitten pet".split()), key=len, reverse=True))
#: Days and months: capitalised, and no thing ("we lost Saturday's match").
_CALENDAR = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
             r"march|april|may|june|july|august|september|october|november|december)")
#: Verbs of ending a thing, their object after them.
_END_VERB = (r"(?:quit|quitting|stopped|stopping|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|"
             r"giving\s+up(?:\s+on)?|kicked|ditched|dropped(?!\s+(?:off|by|in|out|round|over)\b)|"
             r"cancell?ed|sold|flogged|offloaded|got\s+shot\s+of|got\s+rid\s+of|"
             r"(?:am|'m|are|'re)\s+(?:so\s+|totally\s+|completely\s+)?done\s+with|"
             r"done\s+with|(?:am|'m|are|'re)\s+finished\s+with|binned|packed\s+in|jacked\s+in|chucked\s+in|"
             r"cut\s+out|left|stepped\s+down\s+from|dropped\s+out\s+of|came\s+off|"
             r"(?:got|gotten)\s+off|weaned\s+(?:myself|ourselves)\s+off|"
             r"(?:am|'m|are|'re|been|was|were)\s+off(?!\s+(?:to|for|work|sick|today|tomorrow|tonight|"
             r"home|on|out|duty|the\s+hook|again|now)\b)|(?:am|'m|are|'re)\s+over(?=\s+(?:the|my|"
             r"it|him|her|them)\b)|"
             r"moved\s+on\s+from|let\s+go\s+of|handed\s+over|"
             # Said without a subject or verb: "finally off the sertraline".
             r"off(?=\s+(?:the|my|our)\s+(?!(?:hook|top|back|record|radar|rails|mark|charts|"
             r"coast|beaten)\b))(?!.*\b(?:for|until|till|during)\s+(?:a\s+(?:week|month|while|bit|"
             r"fortnight)|the\s+(?:week|month|weekend|moment|time\s+being)|now|lent|january|"
             r"\w+\s+(?:days|weeks))\b)|"
             # Quitting a habit at once: "went cold turkey on the vape".
             r"(?:went\s+|gone\s+|going\s+)?cold\s+turkey\s+(?:on|with|from)|"
             # Idioms of walking away from a thing: "stepped back from the parish council",
             # "bowed out of the band", "called time on my Tuesday football".
             r"stepped\s+(?:away|back)\s+from|walked\s+away\s+from|bowed\s+out\s+of|"
             r"pulled\s+out\s+of|backed\s+out\s+of|turned\s+(?:my|our)\s+backs?\s+on|"
             r"called\s+time\s+on|called\s+it\s+(?:a\s+day|quits)\s+(?:with|on)|"
             r"fell\s+out\s+of\s+love\s+with|lost\s+interest\s+in|retired\s+from|"
             r"resigned\s+from|hung\s+up|(?:tore|torn)\s+up|cut\s+ties\s+with|"
             r"(?:swore|sworn|swearing)\s+off|(?:have|'ve|had|'d)\s+finished\s+with|"
             r"(?:wound|closed|shut)\s+down(?=\s+(?:my|our)\b)|"
             r"retired(?=\s+(?:my|our)\b)|"
             # Not renewing a membership, a ticket or a lease lets it end.
             r"(?:did\s+not|didn't|have\s+not|haven't|never)\s+(?:bother(?:ed)?\s+)?"
             r"renew(?:ed|ing)?|"
             r"broke\s+up\s+with|split\s+(?:up\s+)?with|parted\s+ways\s+with|"
             # A thing of the speaker's lost: "lost my job at the bank", "lost our
             # allotment"; not a person (a bereavement is theirs), nor a faculty or a
             # state lost for a moment ("lost my temper", "lost my way").
             # A named one lost, not to a rival: "we lost Biscuit in March" (not "lost to
             # Arsenal", nor a person of theirs: "lost Grandad").
             rf"lost(?=\s+(?!(?:{_KIN}|{_CALENDAR})\b)(?-i:[A-Z])[\w'-]+(?!\s+to\b))|"
             rf"lost(?=\s+(?:(?:both|all)(?:\s+of)?\s+)?(?:my|our|both|all)\s+(?!(?:{_HUMAN_KIN}|temper|mind|way|voice|patience|appetite|"
             r"nerve|balance|footing|bearings|cool|head|rag|breath|place|train|grip|"
             r"touch|focus|concentration|confidence|sleep|track|marbles)\b))|"
             # "let my membership lapse", "let the plot go": a thing let go, its
             # verb after it (the bare "let the dog out" lets nothing end).
             r"(?:let|allowed)(?:\s+(?:my|our)\b|(?=\s+the\s+(?:[\w'-]+\s+){1,3}?(?:go|lapse|"
             r"expire|run\s+out)\b)))")
_VERB_OBJECT = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+|{ADVERBS.replace('*', '*?')})"
                          rf"(?P<verb>{_END_VERB})\s+(?P<x>.+)$", re.I)
#: The object between the verb and its particle: "gave the allotment up".
_SPLIT_VERB = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+)?(?:"
                         # "handed the allotment back to the council", "gave the lease
                         # car back in March", "handed the Brownies over to another
                         # leader": a thing given back or over is the speaker's no longer
                         # (first: "back in March" is no particle "in").
                         rf"(?:handed|handing|gave|given|giving|sent|sending)\s+"
                         rf"(?P<u>(?:the|my|our|that)\s+(?!(?:{_KIN})\b)[\w' -]+?)\s+"
                         rf"(?:back|over)\b|"
                         rf"(?:gave|given|giving|packed|jacked|"
                         rf"chucked)\s+(?P<x>(?:the|my|our|that|this)\s+[\w' -]+?)\s+"
                         rf"(?:up|in|away)|(?:had|have|has)\s+to\s+put\s+"
                         rf"(?P<y>(?-i:[A-Z])[\w'-]*|(?:the|my|our)\s+[\w' -]+?)\s+down|"
                         # "knocked the cigarettes on the head", "gave the gym the boot".
                         rf"(?:knocked|knocking)\s+(?P<z>(?:the|my|our|that)\s+[\w' -]+?)\s+on\s+"
                         rf"the\s+head|(?:gave|given|giving)\s+(?P<w>(?:the|my|our|that)\s+"
                         rf"[\w' -]+?)\s+the\s+(?:boot|chop|elbow|push|heave-ho)|"
                         # "put the band behind me", "left the allotment behind".
                         rf"(?:put|left)\s+(?P<v>(?:the|my|our|that)\s+[\w' -]+?)\s+behind"
                         rf"(?:\s+(?:me|us))?(?=\s*$|\s*[,.;!]|\s+(?:now|last|this|in|for|"
                         rf"when|after|years?|months?|ages)\b))\b",
                         re.I)
#: A past of the speaker's held up to a date: "I was vegan until Christmas", "I played bass in
#: the band until the summer", "we had an allotment till last year". The date is a
#: calendar one (a month, a season, a feast, a year, "last ...", "recently", "... ago"),
#: not an hour of one day ("I worked until six" is an episode).
_UNTIL = re.compile(rf"^{SPEAKER}(?:\s+(?:just|also|then|always|only|still))*\s+"
                    rf"(?P<verb>[a-z]+)\s+(?P<x>.+?)\s+(?:up\s+)?"
                    rf"(?:until|till|til)\s+(?P<when>recently|(?:last|this)\s+\w+|"
                    rf"(?:the\s+)?(?:spring|summer|autumn|fall|winter|new\s+year)\b|"
                    rf"(?:19|20)\d\d\b|(?:a|one|two|three|four|five|six|a\s+few|several|\d+)\s+"
                    rf"(?:days?|weeks?|months?|years?)\s+ago|(?:{'|'.join(sorted(TIMES))})\b)",
                    re.I)
#: The speaker's job ended by another, told without it: "I was let go in May", "got laid
#: off", "I've been made redundant" (the passive's object is the speaker's job).
_JOB_LOST = re.compile(rf"^{SPEAKER}{ADVERBS}\s+(?:was|were|got|get|been|have\s+been|"
                       rf"'ve\s+been|had\s+been)\s+(?:let\s+go|laid\s+off|made\s+redundant|"
                       rf"fired(?!\s+up)|sacked|dismissed)\b(?!\s+(?:from|as|at)\s+(?:my|our)\s+"
                       rf"(?:{_KIN})\b)", re.I)
#: The speaker's job left by the speaker, told without it: "I retired in July", "I've
#: resigned", "handed in my notice", "I'm retired now" (not "retired from the choir" or
#: "retired my old laptop": a thing named; not "resigned myself to it").
_JOB_LEFT = re.compile(rf"^{SPEAKER}{ADVERBS}\s+(?:(?:am|'m|are|'re)\s+(?:now\s+)?retired|"
                       rf"retired|resigned|took\s+(?:early\s+)?retirement|"
                       rf"handed\s+in\s+(?:my|our)\s+notice)\b"
                       rf"(?!\s+(?:from|as|my|our|the|his|her|their|myself|ourselves|to)\b)",
                       re.I)
#: The time since the speaker's last one of a thing: "it's been a year since my last
#: cigarette", "three months since my last drink" (the thing given up, counted; not "two
#: days since my last gym session": a pause).
_SINCE_LAST = re.compile(r"^(?:it\s+(?:is|has)\s+been\s+|(?:i|we)\s+(?:am|are)\s+)?(?:over\s+|"
                         r"almost\s+|nearly\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|"
                         r"nine|ten|\d+|a\s+few|several|a\s+couple\s+of)\s+(?:whole\s+|full\s+)?"
                         r"(?:weeks?|months?|years?)\s+(?:now\s+)?since\s+(?:my|our)\s+"
                         r"(?:very\s+)?last\s+(?P<x>[\w'-]+(?:\s+[\w'-]+){0,2})", re.I)
#: A state of doing without, held now or for a span ("I've been sober for six months",
#: "I'm vegetarian now", "we went vegan in January"): the closed class of abstinence
#: words, each with what it does without.
_ABSTAINS = {"sober": "drinking alcohol", "teetotal": "drinking alcohol",
             "tee-total": "drinking alcohol", "vegetarian": "eating meat",
             "vegan": "eating meat and dairy", "pescatarian": "eating meat"}
_ABSTAIN = re.compile(rf"^{SPEAKER}{ADVERBS}\s+(?P<how>am|'m|are|'re|have\s+been|'ve\s+been|"
                      rf"been|went|gone|turned|became|become)\s+(?:now\s+)?(?:completely\s+|"
                      rf"fully\s+|totally\s+|stone[- ]cold\s+)?(?P<a>{'|'.join(_ABSTAINS)})\b",
                      re.I)
#: What a job ended unnamed ends: where the speaker works, or as what (both one-valued).
_JOB = "my employer or career"
#: "I'm an ex-smoker", "we're former members": what the speaker was.
_FORMER = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+(?:am|'m|are|'re)\s+(?:now\s+)?(?:an?\s+)?"
                     rf"(?:ex-|former\s+)(?P<x>.+)|"
                     # Said without a subject, the noun alone and when ("Ex-smoker as of
                     # last month!"; never "ex-boyfriend called me": another person).
                     rf"(?:an?\s+)?(?:proud\s+)?(?:ex-|former\s+)(?P<y>[\w-]+)"
                     rf"(?:\s+(?:as\s+of|since|for|now|these\s+days|here)\b.*)?)$", re.I)
#: "Smoke-free", "caffeine-free": the thing gone, as a compound.
_FREE = re.compile(r"\b(?P<x>[a-z]+)-free\b", re.I)
_SINCE = re.compile(r"\b(?:now|today|since|these\s+days|nowadays|any\s?more|"
                    r"for\s+(?:a|an|\d+|two|three|four|five|six|several|"
                    r"a\s+few)|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|"
                    r"several)\s+(?:days?|weeks?|months?|years?))\b", re.I)
#: Another's act ending the speaker's thing: "my GP took me off the sertraline".
_ACTED_OFF = re.compile(r"\b(?:took|taken|taking|got|put)\s+(?:me|us)\s+off\s+(?P<x>.+)$", re.I)
#: The present negated with a word that says it held before.
_NEGATED = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+(?:do\s+not|don't|dont|am\s+not|'m\s+not|"
                      rf"are\s+not|'re\s+not|aren't|can't|cannot|haven't|have\s+not|"
                      rf"no\s+longer|never|(?:have|'ve)(?:\s+got)?\s+no(?=\s+(?!(?:more|longer|"
                      rf"one|idea|time|need|plans?|problem|reason|choice)\b)\w))|"
                      # The subject dropped, as in speech: "Haven't touched a cigarette
                      # since May" (not "don't ...": an imperative).
                      rf"(?:have\s+not|haven't|have\s+never|never|not(?=\s+(?:had|touched|been|done|smoked|"
                      rf"drunk|eaten|used|played|bought)\s+(?!since\b)\w)|"
                      # Dropped with its verb too: "not smoking any more", "not a
                      # member of the golf club any longer".
                      rf"not(?=\s+(?:[a-z]+ing|an?)\s+\w)))\s+(?P<x>.+?)\s+(?P<when>any\s?more|any\s+longer|"
                      rf"these\s+days|nowadays|in\s+(?:months|years|ages|weeks|a\s+while|"
                      rf"a\s+long\s+time)|since\b.*|for\s+(?:months|years|ages|weeks))\b",
                      re.I)
#: "I fell off the keto wagon": the thing kept to is the wagon's word ("the wagon" alone is
#: drinking again, no thing of the speaker's named).
_WAGON = re.compile(rf"^{SPEAKER}{ADVERBS}\s+(?:fell|fallen|falling|came|come|got)\s+off\s+"
                    rf"(?:the|my|our)\s+(?P<x>[\w'-]+(?:\s+[\w'-]+)?)\s+wagon\b", re.I)
#: The value said before the ending, for weight: "A member of the golf club I am no
#: longer", "vegan I am not, not any more".
_FRONTED = re.compile(rf"^(?P<x>(?:(?:a|an|the)\s+)?[\w'-]+(?:\s+[\w'-]+){{0,5}}?)\s+"
                      rf"{SPEAKER}\s+(?:am|'m|are|'re)\s+no\s+(?:longer|more)\b", re.I)
#: A thing the speaker was said to react to, now told harmless to them: "it turns out
#: penicillin is fine for me after all", "the specialist says nuts are OK for me" (an
#: allergy or an
#: intolerance ended; what it ends must be one: :data:`INTOLERANT`).
_TOLERATED = re.compile(r"^(?:.*?\b(?:(?:turns?|turned)\s+out|says?|said|told\s+(?:me|us)|"
                        r"confirmed|reckons?)\s+(?:that\s+)?)?(?P<x>(?:(?:the|my)\s+)?"
                        r"(?!(?:i|we|you|he|she|they|it|this|that|there|everything)\b)[\w'-]+"
                        r"(?:\s+[\w'-]+)?)\s+(?:is|are|'s|'re)\s+(?:(?:perfectly|totally|"
                        r"completely|absolutely|actually)\s+)?(?:fine|ok|okay|safe|harmless)\s+"
                        r"(?:for|with)\s+(?:me|us)\b", re.I)
INTOLERANT = re.compile(r"\b(?:allerg\w*|intoleran\w*|sensitiv\w*|react\w*|coeliac|celiac)\b",
                         re.I)
#: "I no longer volunteer", "we're no longer members".
_NO_LONGER = re.compile(rf"^{SPEAKER}{ADVERBS}\s+(?:(?:am|'m|are|'re)\s+)?no\s+longer\s+"
                        rf"(?P<x>.+)$", re.I)
#: "No more sugar in my tea (for me)".
_NO_MORE = re.compile(r"^no\s+more\s+(?P<x>.+?)(?:\s+for\s+(?:me|us))?$", re.I)
#: None of it since a time: "no Netflix in this house since Christmas" (not a thing never
#: had: "no problem", "no idea"; not for a span to come: "no football for a month" is a
#: pause).
_NONE_SINCE = re.compile(r"^no\s+(?!(?:more|longer|one|way|idea|problem|problems|worries|chance|"
                         r"time|need|news|sign|word|reply|answer|luck)\b)(?P<x>[\w'-]+(?:\s+[\w'-]+)"
                         r"{0,2}?)(?:\s+(?:in|at|for)\s+(?:this|our|my|the)\s+(?:house|home|household|"
                         r"flat|family|life)|\s+for\s+(?:me|us))?\s+(?:since|these\s+days|nowadays|any\s?more|"
                         r"any\s+longer)\b", re.I)
#: The thing as the subject: "keto's over for me", "the fig died", "Tomasz and I are over".
_SUBJECT = (
    r"^(?!(?:i|we|you|he|she|they|it|this|that|there)\b)"
    r"(?P<x>(?:(?:my|our|the)\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)(?:\s+and\s+(?P<me>i|me))?"
    # A relative clause of the speaker's on it: "the shoe shop I worked at closed down",
    # "the choir we sang in has folded" (the thing is the speaker's by the clause).
    r"(?P<rel>\s+(?:that\s+|which\s+)?(?:i|we)\s+(?:used\s+to\s+)?[a-z]+(?:\s+(?:at|for|in|"
    r"with|on|to|into|from))?)?"
    r"(?:'s|'re|\s+is|\s+are|\s+was|\s+were|\s+has|\s+have)?(?:\s+(?:now|finally|officially|"
    r"well\s+and\s+truly|totally|completely|sadly|just|been))*\s+")
_SUBJECT_ENDED = re.compile(
    _SUBJECT +
    r"(?:over|gone|history|finished|done|dead|a\s+thing\s+of\s+the\s+past|behind\s+(?:me|us)|"
    # Owned no more: "the allotment isn't mine any more".
    r"(?:not|n't)\s+(?:mine|ours)\s+any\s?(?:more|longer)|"
    # Put by unused: "the saxophone is gathering dust in the loft".
    r"(?:gathering|collecting)\s+dust|"
    r"died|passed\s+away|(?:is\s+|'s\s+)?no\s+longer\s+with\s+us|broke\s+down|closed(?:\s+down)?|shut\s+down|ended|fell\s+through|"
    r"c(?:a|o)me\s+to\s+an\s+end|folded|went\s+(?:bust|under)|"
    r"fell\s+apart|lapsed|expired|ran\s+out|run\s+out|fizzled\s+out|petered\s+out|"
    # A thing returned: "the allotment's gone back to the council" (not "came off": a
    # part of a thing comes off, "the piano lid came off", and the thing goes on).
    r"(?:went|gone|been\s+(?:given|handed|sent))\s+back\s+to\s+(?=the\b)|"
    # Idioms of being done: "yoga classes fell by the wayside", "choir practice went out
    # the window", "Leeds is in the rear-view mirror", "vegetarian no more".
    r"(?:fell|fallen|went|gone)\s+by\s+the\s+wayside|(?:went|gone)\s+out\s+(?:of\s+)?the\s+"
    r"window|in\s+the\s+rear-?view\s+mirror|a\s+distant\s+memory|a\s+closed\s+chapter|"
    r"out\s+of\s+the\s+picture|no\s+more|off\s+the\s+(?:menu|table|cards)|"
    r"no\s+longer\s+(?:a\s+)?part\s+of\s+(?:my|our)\s+li(?:fe|ves)|"
    # Its span told in the past: "veganism lasted three years for me", "the allotment
    # lasted a couple of summers" (it held, and holds no more).
    r"lasted\s+(?:(?:about|almost|nearly|just|only|barely|over|under)\s+)?(?:a|an|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|\d+)\s+"
    r"(?:days?|weeks?|months?|years?|summers?|winters?|seasons?)|"
    r"(?:got|was|were|been|had\s+to\s+be)\s+(?:sold|cancell?ed|axed|scrapped|stolen|nicked|pinched|"
    r"swiped|written\s+off|"
    r"rehomed|put\s+down|put\s+to\s+sleep|discontinued|shut)|"
    # The passive of "gave it the chop": "Netflix got the chop", "the gym got the boot".
    r"(?:got|get|gets|was|were|been)\s+the\s+(?:chop|axe|boot|elbow|heave-ho)|"
    # Never so: "the allergy was a misdiagnosis", "the diagnosis turned out wrong".
    r"(?:was|were|turned\s+out\s+to\s+be)\s+(?:all\s+)?(?:a\s+)?(?:misdiagnosis|"
    r"false\s+alarm|mistake|wrong|a\s+mix-up))\b"
    # What ended, not what it went over or to ("connected over our love", "gone to bed").
    r"(?!\s+(?:our|my|the|a|an|his|her|their|to|with|into|through|some)\b)", re.I)
#: The thing's fate in an idiom or done by another, whatever follows (its words say no
#: more than the end): "the Tuesday Singers called it a day a few months back", "the
#: shelter went into administration", "the band split up", "the Rialto closed its doors",
#: "the band was disbanded", "the dog was run over", "the sub got cut off".
_FATE = re.compile(
    _SUBJECT +
    r"(?:called\s+it\s+(?:a\s+day|quits)|went\s+(?:into\s+(?:administration|liquidation|"
    r"receivership)|out\s+of\s+business|to\s+the\s+wall)|ceased\s+trading|bit\s+the\s+dust|"
    r"gave\s+up\s+the\s+ghost|packed\s+up|disbanded|split\s+up|broke\s+up|"
    r"(?:closed|shut)\s+(?:its|their)\s+doors|"
    r"(?:got|was|were|been|had\s+to\s+be)\s+(?:disbanded|dissolved|wound\s+up|run\s+over|"
    r"killed|cut\s+off|demolished|destroyed|repossessed|"
    r"closed\s+down|(?:knocked|pulled|torn|blown|burnt|burned|cut|chopped)\s+down))\b", re.I)
#: Another taking the speaker's place in it: "another dad's taken over the under-9s",
#: "Sue has taken over my Tuesday class" (the speaker's part in it ended).
_TAKEN_OVER = re.compile(r"^(?!(?:i|we|you)\b)(?:[\w'-]+\s+){1,3}?(?:has\s+|have\s+|'s\s+|"
                         r"'ve\s+)?(?:taken|took)\s+over\s+(?P<x>(?:the|my|our)\s+.+)$", re.I)
#: Where the thing said ends: a reason, a time, a manner after it.
_THING_END = re.compile(
    r"\s*[,;:!?()\"]|\s+-\s|\s+(?:because|cos|cause|since|after|before|as|when|so|but|"
    # A purpose after it: "stepped back from the council to spend more time at home".
    r"(?:in\s+order\s+)?to\s+(?:get|spend|focus|save|make|have|be|free|give|concentrate|look\s+after)|and\s+"
    r"(?:i|we|it|now)|for\s+(?:good|now|ever|the\s+(?:time|moment)|me|us)|last|this|"
    r"in\s+(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december|the\s+(?:end|spring|summer|autumn|fall|winter|new\s+year))|"
    r"at\s+the\s+end|a\s+(?:few|couple)|(?:two|three|four|five|six|\d+)\s+\w+\s+ago|"
    r"ago|altogether|completely|entirely|now|then|again|already|yesterday|today|"
    r"recently|any\s?more|any\s+longer|these\s+days|nowadays|over\s+the|up\b)\b.*$", re.I)
#: What a part was taken off or from: "(the roof box) off the Volvo", "(the sidecar) from
#: my motorbike" (a thing of its own after the part's noun, never the opening word).
_PART_OFF = re.compile(r"(?<=\w)\s+(?:off|from)\s+(?:of\s+)?(?:the|my|our)\s+.*$", re.I)
#: A thing named by a pronoun, or a word that names nothing by itself.
_EMPTY = frozenset("""it them that this those these there one all everything something
thing things stuff going doing being having trying up out off in on a an the my our me us
""".split())


@dataclass(frozen=True)
class Ending:
    """An ending a clause tells: the thing ended as said, and whose it is ("" the
    speaker's, else the holder's words, or ``UNKNOWN``)."""

    thing: str
    holder: str


def thing_of(text: str) -> str:
    """The thing said, cut at a reason or a time ("the choir in March" -> "the choir")."""
    # A time or a reason said first is no thing ("I quit last month").
    thing = _THING_END.sub("", " " + text.strip()).strip(" .")
    thing = re.sub(r"^(?:do|doing)\s+", "", thing, flags=re.I)
    # A verb of mere contact says nothing of the thing: "(haven't) touched a cigarette".
    thing = re.sub(r"^(?:touched|had|set\s+foot\s+(?:in|on)|been\s+near)\s+", "", thing, flags=re.I)
    # A part taken off a thing is what ended, not the thing: "sold the roof box off the
    # Volvo", "took the stabilisers from my bike" end no Volvo, no bike.
    thing = _PART_OFF.sub("", thing)
    words = [w for w in re.findall(r"[\w'-]+", thing.lower())]
    return "" if not words or all(w in _EMPTY for w in words) else thing


def clauses(sentence: str) -> list[str]:
    # "My evenings are free now that the choir has finished": the subordinate clause is
    # read on its own (:data:`_SUBORDINATE`).
    return [c.strip() for c in re.split(r"\s*[,;:!?()]\s*|\s+(?:but|so|because)\s+|\s+-\s+|"
                                        r"\s+(?=now\s+that\s)", sentence) if c.strip()]


#: A time long past, unreckoned ("I gave up driving to work years ago", "quit the piano as a
#: kid"): an ending told in passing, before whatever the speaker has since said holds now.
_LONG_AGO = re.compile(r"\b(?:(?:many|some|a\s+good\s+few)\s+)?(?:years|decades|ages)\s+ago\b|"
                       r"\blong\s+ago\b|\bas\s+a\s+(?:kid|child|boy|girl|teen(?:ager)?|student)\b|"
                       r"\bgrowing\s+up\b|\bwhen\s+(?:i|we)\s+(?:was|were)\s+(?:young|younger|little|"
                       r"small|a\s+(?:kid|child|teenager|student)|at\s+(?:school|uni|university|"
                       r"college))\b", re.I)
#: Who a thing went to ("to another leader", "to a second-hand shop"), or none got in its
#: place ("didn't get another car"): no addition.
NONE_IN_ITS_PLACE = re.compile(r"\b(?:to|with|into)\s+(?:another|a\s+second)\b|"
                         # The whole of a thing that is many, told as the subject:
                         # "both goats went to a farm", no second one.
                         r"^both(?:\s+of)?(?=\s+(?:the|my|our|\w+s)\b)|"
                         # None got in its place: "didn't get another car".
                         r"\b(?:did\s+not|didn't|not|never)\s+(?:get|got|buy|bought|take|took|"
                         r"find|found)\s+(?:another|a\s+second)\b", re.I)


def endings(sentence: str) -> list[Ending]:
    """The endings a first-person sentence (cleaned) tells, clause by clause; none in a
    clause of a plan or wish, an addition, or a question."""
    if sentence.rstrip().endswith("?"):
        return []
    found: list[Ending] = []
    for clause in clauses(sentence):
        # "Another dad's taken over ...": another person, not one more thing; "handed it
        # over to another leader": who took it, not one more thing.
        if ADDITION.search(NONE_IN_ITS_PLACE.sub(" ", clause)) and \
                not _TAKEN_OVER.match(subject_first(clause)) or \
                NOT_NOW.search(ENDING.sub(" ", clause)) or paused(clause) or \
                _LONG_AGO.search(clause):
            continue    # (a closure for a while, "shut until March", is no end: ``paused``)
        # "Three months since my last drink" is read whole: its count is no scene to skip.
        if (m := _SINCE_LAST.match(clause)) and thing_of(m["x"]):
            found.append(Ending(thing_of(m["x"]), ""))
            continue
        found.extend(_clause_endings(subject_first(clause)) or _kin_endings(subject_first(clause))
                     # "A fox got the chickens", "they let me go" (``befallen.py``).
                     or [Ending(thing, "") for thing in befallen(subject_first(clause), sentence)]
                     # "The choir wound up", "we loaned the pony out for good"
                     # (``thing_fate.py``).
                     or [Ending(thing, "") for thing in fates(subject_first(clause), sentence)])
    return found


def long_past_ending(sentence: str) -> bool:
    """Whether a clause of ``sentence`` (cleaned) tells an ending of the speaker's dated
    long past ("I gave up driving to work years ago"): told in passing, it ends nothing
    the speaker has said holds since."""
    return any(_LONG_AGO.search(c) and any(e.holder == "" for e in _clause_endings(
        subject_first(c))) for c in clauses(sentence))


#: A subordinator of time or reason opening the speaker's clause or one of their thing's:
#: "now that I've cut out dairy, ...", "once I'd sold the van, ...", "since the choir
#: folded, ...". The clause
#: under it tells an ending as a main clause would ("if", "when" and "before" do not: a
#: condition, a habit, an episode's time). Cleaning drops an opening "now" as a filler:
#: "that I have cut out dairy" is read so too.
_SUBORDINATE = re.compile(r"^(?:(?:(?:now\s+)?that|once|because|cos|seeing\s+(?:as|that)|"
                          r"given\s+that|ever\s+since|since|after)\s+(?=(?:the|my|our)\s)|"
                          r"(?:(?:now\s+)?that|now|once|because|cos|as|seeing\s+(?:as|that)|"
                          r"given\s+that|ever\s+since|since|after)\s+(?=(?:i|we)\b))", re.I)


#: A person of the speaker's as the subject: "Dad's given up the booze", "my husband hasn't
#: had a cigarette since May", "Mum has stopped driving".
KIN_SUBJECT = re.compile(rf"^(?:(?:my|our)\s+)?(?P<kin>{_KIN})(?P<aux>'s|\s+has|\s+have|\s+is|"
                          rf"\s+does|\s+doesn't|\s+does\s+not|\s+hasn't|\s+has\s+not|"
                          rf"\s+isn't|\s+is\s+not)?\s+(?P<rest>.+)$", re.I)
#: The speaker's auxiliary for a person's: what the clause says read in the first person.
_FIRST_PERSON_AUX = {"has": "have", "have": "have", "is": "am", "does": "do", "doesn't": "don't",
                     "does not": "do not", "hasn't": "haven't", "has not": "have not",
                     "isn't": "am not", "is not": "am not"}


def _kin_endings(clause: str) -> list[Ending]:
    """The endings a clause tells of a person of the speaker's, read as the speaker's own
    clause ("Dad's given up the booze" as "I have given up the booze"), each held by that
    person: only their memories can be meant."""
    m = KIN_SUBJECT.match(clause)
    if m is None:
        return []
    aux = (m["aux"] or "").strip().lower()
    rest = m["rest"]
    if aux == "'s":     # "Dad's given up" (has) or "Dad's off the booze" (is)
        first = rest.split()[0].lower()
        aux = "has" if first in PAST or re.search(r"(?:ed|en|un|one)$", first) else "is"
    said = " ".join(w for w in ("I", _FIRST_PERSON_AUX.get(aux, ""), rest) if w)
    kin = m["kin"].lower()
    return [Ending(e.thing, kin) for e in _clause_endings(said) if e.holder == ""]


def _clause_endings(clause: str) -> list[Ending]:
    clause = _SUBORDINATE.sub("", clause, count=1)
    # An adverb opening a clause without its subject: "Finally off the sertraline".
    clause = re.sub(r"^(?:finally|officially|at\s+last)\s+(?=(?:off|quit|done|stopped|gave|sold|"
                    r"packed|binned|ditched|dropped|left|cancell?ed|cut)\b)", "", clause,
                    flags=re.I)
    if m := _ACTED_OFF.search(clause):
        return [Ending(thing_of(m["x"]), "")] if thing_of(m["x"]) else []
    # "Six months smoke-free", "caffeine-free since May", "a pet-free household these
    # days": a thing given up, dated; not a standing diet ("I'm gluten-free" is what the
    # speaker eats, not an ending).
    if (m := _FREE.search(clause)) and _SINCE.search(clause) and \
            re.match(rf"^(?:{SPEAKER}{ADVERBS}\s+(?:am|'m|are|'re|have\s+been|'ve\s+been)\b|"
                     rf"(?:\w+\s+){{0,3}}{m[0]}\b)", clause, re.I):
        return [Ending(m["x"], "")]
    if m := _TOLERATED.match(clause):
        return [Ending(f"allergic to {m['x']}", "")] if thing_of(m["x"]) else []
    if _JOB_LOST.match(clause) or _JOB_LEFT.match(clause):
        return [Ending(_JOB, "")]
    # A state of doing without, said to hold from a change or over a span, not a standing
    # one ("I'm vegetarian" is what the speaker eats).
    if (m := _ABSTAIN.match(clause)) and (
            m["how"].lower() in ("went", "gone", "turned", "became", "become") or
            any(w[0].lower() != "today" for w in _SINCE.finditer(clause[m.end():]))):
        return [Ending(_ABSTAINS[m["a"].lower()], "")]
    if (m := _UNTIL.match(clause)) and (m["verb"].lower() in PAST or
                                          m["verb"].lower().endswith("ed")):
        # What was held: the state after "was", else the habit with its verb.
        verb = m["verb"].lower()
        thing = thing_of(m["x"] if verb in ("was", "were") else f"{verb} {m['x']}")
        return [Ending(thing, "")] if thing else []
    for pattern in (_SPLIT_VERB, _WAGON, _FRONTED, _FORMER, _NEGATED, _NO_LONGER, _VERB_OBJECT,
                    _NO_MORE, _NONE_SINCE):
        m = pattern.match(clause)
        if m is None:
            continue
        thing = thing_of(m["x"] or (m["y"] or m["z"] or m["w"] or m["v"] or m["u"]
                                    if pattern is _SPLIT_VERB else
                                    m["y"] if pattern is _FORMER else ""))
        if pattern is _VERB_OBJECT and re.match(r"(?:let|allowed)\b", m["verb"], re.I):
            thing = thing_of(re.sub(r"\s+(?:lapse|expire|run\s+out|go)\b.*$", "", m["x"]))
        return [Ending(thing, "")] if thing else []
    if (m := _TAKEN_OVER.match(clause)) and thing_of(m["x"]):
        return [Ending(thing_of(m["x"]), "")]
    if m := _FATE.match(clause) or _SUBJECT_ENDED.match(clause):
        if m.re is _FATE and for_a_while(clause):
            return []   # "the choir was disbanded for the summer", "got flattened 9-0"
        thing = re.sub(r"'s$", "", m["x"])
        if m["me"] or (paired := re.match(r"me\s+and\s+(?P<y>.+)$", thing, re.I)):
            # "Tomasz and I are over", "me and Marcus called it a day".
            return [Ending(paired["y"] if not m["me"] and paired else thing, "")]
        # "my sister's car died" is hers, "he's gone" not known; "the pottery course is
        # over", "keto's over for me", "my gym membership is over" are the speaker's.
        holder = whose(thing + " is over")
        if re.match(r"(?:it|he|she|they|this|that|there|what|which)\b", thing, re.I):
            holder = UNKNOWN
        elif not set(holder.split()) & PEOPLE or \
                re.match(r"(?:my|our)\s+(?:[\w-]+\s+){0,2}team\b", thing, re.I):
            holder = ""     # "our quiz team fizzled out": a group the speaker was in
            thing = head_of_possessed(thing)    # "the choir's concert got cancelled": the concert
        elif re.search(r"\bback\s+to\b", clause, re.I):
            return []   # a person gone back to school or work has ended nothing
        return [Ending(thing_of(thing), holder)] if thing_of(thing) else []
    return []


def speakers_own(clause: str) -> bool:
    """Whether a clause's subject is the speaker's side: not a person's ("my sister quit
    smoking", "Jo left her choir", "she stopped")."""
    said_by = whose(subject_first(clause))
    return not said_by or not (said_by == UNKNOWN or
                               set(said_by.split()) & PEOPLE or
                               re.match(r"(?:he|she|they|his|her|their)\b",
                                        subject_first(clause), re.I))
