"""A chat sentence as plain written English, before the episode rules read it: the
apostrophes and quotes normalised, interjections and greetings dropped ("Wow,", "Hey!"),
the other person's name where it is addressed ("Thanks, Gina!"), slang, chat clippings and
contractions expanded ("gonna" -> "going to", "biz" -> "business", "it's made" -> "it has
made"), a discourse opener cut ("Speaking of trips, ..."), a dropped subject put back
("Just got back from Paris" -> "I just got back from Paris"), and an extraposed judgement
told as the speaker's ("It is so freeing to express myself" -> "I find it so freeing to
express myself"). Pure functions, English only; ``episodes.py`` scores and tells what is
left."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .dates import time_phrase
from .episode_words import (
    STOP as _STOP,
    GENERIC as _GENERIC,
    PARTICIPLES as _PARTICIPLES,
    PAST as _PAST,
    ADVERBS as _ADVERBS,
    ING_NOUNS as _ING_NOUNS,
    STATUSES,
)
from .facts import OCCUPATIONS
from .milestones import CONSUMED, SPAN
from .irregular import BASES as IRREGULAR_BASES, PARTICIPLES as IRREGULAR_PARTICIPLES
from .language import COMMON_WORDS as _COMMON_WORDS
from .sentences import split_sentences, untag
from .texted import FEELING, REQUESTED, TEXTED

__all__ = ["APOS", "HAD_D", "MY_IS", "NOT_NAMES", "OPENER", "LEAD", "JUDGED", "sentences",
           "vocatives", "drop_address", "clean", "restore_subject", "maybe_name"]

_SECOND = re.compile(r"\b(?:you|your|yours|yourself|yourselves)\b", re.I)
APOS = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u201c": '"',
                       "\u201d": '"'})
#: Inside a sentence, a dash before a capital starts another ("... today - Then we ..."),
#: and so does an em dash, or a spaced en dash, anywhere ("Researching adoption agencies
#: — it's been a dream"): chat writes them between two statements (an unspaced en
#: dash is a range: "2019–2020").
_DASH = re.compile(r"\s+-\s+(?=[A-Z])|\s*\u2014+\s*|\s+\u2013\s+")
#: "'d" before a past participle is "had" ("I'd left", "she'd gone", "we'd just moved");
#: anywhere else it is "would" ("I'd love to", "I'd rather"). A participle is a distinct
#: irregular one, a past form (chat's "I'd went"), or a regular "-ed" other than a plain
#: verb that ends so ("I'd need", "I'd feed"); a form that is its own base ("come", "put")
#: could be either and stays "would".
_DISTINCT_PARTICIPLES = IRREGULAR_PARTICIPLES - IRREGULAR_BASES
_PARTICIPLE = (r"(?:" + "|".join(sorted((set(_PAST) | set(_DISTINCT_PARTICIPLES))
                                         - IRREGULAR_BASES - {"was", "were", "did"})) +
               r"|(?!(?:need|feed|bleed|breed|speed|proceed|succeed|exceed|heed|seed|weed|"
               r"shed|wed|shred|embed|bed)\b)\w+ed)")
HAD_D = (r"\b(i|we|you|they|he|she|it|that|there)'d\s+(?=(?:(?:just|already|never|ever|"
         r"recently|finally|only|also|always|since|not|all|both)\s+)?" + _PARTICIPLE +
         r"\b)", r"\1 had ")
#: "'s" after the speaker's thing, before an article, a preposition or an adverb: "is";
#: not after a preposition, where it is a home ("a fortnight at my sister's in Cardiff").
MY_IS = (r"(?<!\bat\s)(?<!\bto\s)(?<!\bfrom\s)(?<!\bround\s)(?<!\bover\s)(?<!\bnear\s)"
         r"\b((?:my|our)\s+(?:[\w-]+\s+)?[\w-]+)'s\s+(?=(?:a|an|the|now|still|not|in|at|on|"
         r"back|so|really|just|always|never|off|with)\b)")
_REQUESTED = re.compile(REQUESTED[0], re.I)
_EXPAND = [(re.compile(p, re.I), r) for p, r in (
    # A wish to be able to do something is what the speaker would like to do.
    (r"^(?:I\s+)?wish\s+(I|we)\s+could\s+(?!have\b)", r"\1 would like to "),
    HAD_D, (r"\bain't\b", "is not"),
    # The other person's and others' contractions too: "you're" is no content word.
    (r"\b(you|they)'re\b", r"\1 are"), (r"\b(you|they)'ve\b", r"\1 have"),
    (r"\b(you|they|he|she|it|that)'ll\b", r"\1 will"),
    (r"\b(you|they|he|she|it|that|there)'d\b", r"\1 would"),
    (r"\bi'm\b", "I am"), (r"\bi've\b", "I have"), (r"\bi'd\b", "I would"),
    (r"\bi'll\b", "I will"), (r"\bwe're\b", "we are"), (r"\bwe've\b", "we have"),
    (r"\bwe'll\b", "we will"), (r"\bwe'd\b", "we would"), (r"\bcan't\b", "cannot"),
    (r"\bwon't\b", "will not"), (r"\b(\w+)n't\b", r"\1 not"), (r"\bgonna\b", "going to"),
    (r"\bwanna\b", "want to"), (r"\bgotta\b", "have to"), (r"\bkinda\b", "kind of"),
    (r"\bsorta\b", "sort of"), (r"\blemme\b", "let me"),
    (r"\b(it|that|what|there|here|he|she)'s\s+(been|got|gotten|had)\b", r"\1 has \2"),
    # "It's made a huge difference", "it's taken a while": the perfect, not the passive
    # ("it's made of wood", "it's taken by hand").
    (r"\b(it|that|he|she)'s\s+(?=(?:made|taken|given|done|become|brought|kept|shown|grown|"
     r"gone|helped|changed|taught|allowed|meant|opened|pushed)\s+(?!(?:of|by|from|for|in|"
     r"with|out|up|into|on|at|to)\b)\w)", r"\1 has "),
    # "Goodbye Vodafone, hello EE", "Out with the old phone, in with the Pixel": the
    # speaker's swap, said as an idiom.
    (r"^(?:good\s*bye|farewell|bye(?:\s+bye)?|so long)\s+(?!(?:for|to|everyone|all|you|"
     r"guys|folks)\b)(?P<a>[^,;]+?)\s*[,;-]+\s*(?:and\s+)?hello\s+(?!(?:to|from|again|"
     r"everyone|you)\b)(?P<b>\S.*)$", r"I swapped \g<a> for \g<b>"),
    (r"^out with the old\s+(?P<a>[^,;]+?)\s*[,;-]+\s*(?:and\s+)?in with the\s+"
     r"(?:new\s+(?=\S))?(?P<b>\S.*)$", r"I swapped the old \g<a> for the \g<b>"),
    (r"'cause\b|\bcuz\b|\bcoz\b", "because"),
    (r"\b(it|that|what|there|here|he|she)'s\b", r"\1 is"), (r"\bya\b", "you"),
    # "My car's a Golf now", "my sister's in Leeds": the "'s" of "is", before what can only
    # follow a verb (an article, a preposition, an adverb).
    (MY_IS, r"\1 is "),
    # "Nationwide's where I bank now", "Tuesday's my day at the food bank": a name's "'s"
    # before what only "is" can take (no possessive is followed by "where" or "my").
    (r"\b((?-i:[A-Z])[\w-]*)'s\s+(?=(?:where|my|our)\s)", r"\1 is "),
    # Texted "u" is "you"; a capital U with a dot is an initial ("the U.S.", "U.K.").
    (r"(?-i:\bu\b)(?!\.\w)", "you"), (r"\bthx\b", "thanks"), (r"\bgonna\b", "going to"),
    # Chat clippings: a memory says "business", as a reader (and a search) would.
    (r"\bbiz\b", "business"), (r"\bedu\b", "education"), (r"\bfam\b", "family"),
    (r"\bpic\b", "picture"), (r"\bpics\b", "pictures"), (r"\bpeeps\b", "people"),
    (r"\bmag\b", "magazine"), (r"\bconvo\b", "conversation"), (r"\bb-?day\b", "birthday"),
    (r"\bvacay\b", "vacation"))]
_INTERJECTIONS = (
    # A reaction to the other's news with what it is about, up to its comma ("Congrats on
    # the cooking show, I'll be tuning in", "Sorry about your dog, I lost mine too").
    r"(?:congrats|congratulations|sorry|kudos|(?:good|best of) luck|thanks|thank you|cheers)"
    r"\s+(?:on|for|about|with|to)\s+[^,.!?;:]{1,50}?(?=\s*,)|"
    # "Good thanks, Harrogate now", "Not much, new car though": the reply to "how are
    # you", before a comma or a stop ("thanks to the new job" goes on; "Thanks, Maria."
    # alone is thanks for what the other said, and the turn goes on about that).
    r"(?:(?:good|fine|great|well|ok|okay|all good),?\s+(?:thanks|thank you|cheers)|not much|"
    r"nothing much|not bad)(?=\s*[,!.;:~-])|"
    "so far,? so good|hey there|hey|hi there|hi|hello|hiya|yo|wow|woah|whoa|oh my god|oh my|"
    "oh|ooh|ah|aw+|aww+|"
    "haha+|hah|hehe|lol|lmao|omg|yay|yeah|yea|yep|yup|yes|nope|nah|ok|okay|alright|"
    # "No" answers ("No, I ...", "no way"); "No more Netflix" says the sentence itself.
    r"no way|no(?=\s*[,!.;:~-]|\s*$|\s+(?:i|we|you|it|that|thanks|worries)\b)|"
    "cool|great|awesome|amazing|nice|sweet|wonderful|fantastic|perfect|good|sure|of course|"
    "totally|absolutely|definitely|indeed|exactly|true|right|so|well|anyway|anyways|also|"
    "and|but|btw|tbh|tbf|ngl|imo|imho|fwiw|by the way|fyi|plus|man|dude|buddy|guys|girl|"
    "mate|hmm+|um+|uh+|ugh|phew|"
    "gosh|geez|damn|sorry|congrats|congratulations|same here|me too|actually|honestly|"
    "speaking of which|oh yeah|guess what|you know what|you know|no idea|who knows|dunno|"
    "(?:a )?(?:quick|small|little|big|good|bad|some) (?:update|news)|update|news|heads up|"
    "just so you know|(?:it |as it )?turns out(?: that)?|please note(?: that)?|note that")
_LEAD = re.compile(rf"^(?:(?:{_INTERJECTIONS})\b[\s,!.:;~-]*)+", re.I)
#: The interjections and openers a sentence may start on (``carriers.py`` reads past them).
LEAD = _LEAD
#: A finite verb after a sentence-opening gerund makes the gerund its subject ("Sourcing
#: pieces for my store was a hurdle"), not a dropped "I am" ("Looking for a place now").
_FINITE = re.compile(r"\b(?:is|are|was|were|sounds|looks|seems|has|have|had|made|makes|"
                     r"gives|gave|brings|brought|helps|"
                     r"helped|keeps|kept|took|takes|feels|felt|seems|seemed|means|meant|can|"
                     r"will|would|could|should|must|might|may|pushed|got|gets|became|becomes|"
                     r"opens|shows|lets|allows|reminds|teaches|boosts|fills|warms|matters)\b",
                     re.I)
#: Words that open a sentence capitalised and name no one: adverbs, times.
NOT_NAMES = frozenset("""
maybe perhaps besides still overall luckily sadly anyway tonight tomorrow yesterday today
lately recently sometimes often usually also plus then now later soon meanwhile otherwise
unfortunately fortunately honestly hopefully personally actually basically seriously
monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december morning evening afternoon weekend
""".split())
#: "At Monzo these days", "With EE now", "Over at Lidl now", "Up in Leeds these days": a
#: preposition of place or company, a name (not a time) and the present, no clause of its
#: own between.
_PLACED_NOW = (r"^(?:(?:over|up|down|out)\s+)?(?:at|with|in|on)\s+(?=(?:the\s+)?(?!(?:"
               + "|".join(sorted(NOT_NAMES)) + r")\b)(?-i:[A-Z])[\w'&-]*"
               r"(?:\s+(?!(?:i|we|you|he|she|they|it)\b)[\w'&-]+){0,4}?"
               r"\s+(?:now|these days|nowadays)\b)")
_RESTORE = [(re.compile(p, re.I), r) for p, r in (
    # "gonna be great": it is; "Going to those places is on my list": the gerund is.
    (r"^(?:going to|gonna)\s+(?!be\b)(?!(?:(?!\s[-–—]+\s)[^,;])*\b(?:is|was|has been)\b)",
     "I am going to "),
    # "Been quite a ride": the dropped subject is "it" before a noun phrase.
    (r"^been\s+(?=(?:(?:quite|such|really|pretty|so)\s+)?(?:a|an)\b)", "It has been "),
    (r"^been\s+", "I have been "),
    (r"^(?:just|recently|finally|also|still)\s+(?=(?:\w+ed|" + "|".join(sorted(_PAST))
     + r")\b)", "I \\g<0>"),
    (r"^(?:still|now|currently|also)\s+(?=[\w-]{3,}ing\b)", "I am \\g<0>"),
    # "Officially a Londoner now", "Back on the night shift", "No longer with Mark": the
    # speaker's "I am" dropped before what they are now ("Back in the day" is a time).
    (r"^(?:officially|finally|now)\s+(?=(?:a|an)\s)", "I am \\g<0>"),
    # "Back from a week in Rome": where the speaker has been, now over. Not a time long
    # past ("Back in my twenties I had a Land Rover", "back in 2009", "back in the
    # nineties"): a scene of the past, its clause the speaker's memory, not a return.
    (r"^(?:(?:just|only|finally)\s+)?back\s+(?=(?:on|at|to|with|in|from)\s+"
     r"(?!the day\b|time\b|(?:the\s+)?(?:19|20)?\d0'?s\b|(?:19|20)\d\d\b|"
     r"(?:my|our|the|his|her|their)\s+(?:\w+\s+)?(?:teens|twenties|thirties|forties|fifties|"
     r"sixties|seventies|eighties|nineties|youth|childhood|days|"
     r"(?:school|uni|student|college)\s+days)\b))",
     "I am \\g<0>"),
    # "Still in Manchester", "Now with Octopus for energy", "Finally at Lidl", "Off to
    # university in Leeds": where the speaker is or is going, "I am" dropped.
    (r"^(?:still|now|currently|finally)\s+(?=(?:in|at|with|based|living)\s)", "I am \\g<0>"),
    (r"^off\s+to\s+(?=\w)", "I am \\g<0>"),
    # "At Monzo these days", "With EE now, way cheaper": where or with whom the speaker is
    # now, told by its preposition and a name alone (not a time: "In May, ..."; not a
    # clause of its own: "In March I joined ... now").
    (_PLACED_NOW, "I am \\g<0>"),
    # "No sugar in my tea these days": what the speaker has no more, "I have" dropped.
    (r"^no\s+(?!(?:problems?|worries|worry|idea|way|doubt|clue|rush|wonder|matter|time|"
     r"longer|more|one|big deal|pressure|stress|complaints|regrets)\b)"
     # ("No meat for two months now" is told by how long, below)
     r"(?!.*\b(?:for|in)\s+(?:over\s+)?" + SPAN + r"\b)"
     r"(?=[\w-]+(?:\s+[\w-]+){0,5}?\s+(?:these days|nowadays|now|any\s?more)\W*(?:,|$))",
     "I have \\g<0>"),
    # "Dental nurse at a practice in Hove now", "Senior developer as of this month": what
    # the speaker works as, "I am a" dropped (not "Nurse said ...": a verb follows).
    (r"^(?:(?!(?:" + "|".join(sorted(_GENERIC | _STOP)) + r")\b)[\w-]+\s+){0,2}?(?:"
     + "|".join(sorted(OCCUPATIONS)) + r")\b(?=\s+(?:at|in|for|with|as of|since|now|"
     r"these days|nowadays)\b|\W*$)", "I am a \\g<0>"),
    # "Full vegan since March", "Single again": a state of the speaker's told by its
    # adjective, "I am" dropped (not a word of reaction: "Busy again"; not before "now",
    # where a noun is as likely: "Lunch now").
    (r"^(?:(?:full|fully|totally|completely|officially|strictly|finally)\s+)?(?!(?:"
     + "|".join(sorted(_GENERIC | _STOP | _PARTICIPLES | _ADVERBS)) + r")\b)[a-z][a-z-]+\s+"
     r"(?=(?:since|again)\b)", "I am \\g<0>"),
    # "Fully vegan for a year now", "Sober for six months now": a state held for a while
    # and still, "I have been" dropped (the "now" says it still holds; with an intensifier
    # that only an adjective takes, without it: "Totally sober for a year").
    (r"^(?:(?:(?:full|fully|totally|completely|officially|strictly)\s+)(?!(?:"
     + "|".join(sorted(_GENERIC | _STOP | _PARTICIPLES | _ADVERBS)) + r")\b)[a-z][a-z-]+\s+"
     r"(?=for\s+" + SPAN + r"\b)|(?!(?:" + "|".join(sorted(_GENERIC | _STOP | _PARTICIPLES |
                                                      _ADVERBS)) + r")\b)[a-z][a-z-]+\s+"
     r"(?=for\s+" + SPAN + r"\s+now\b))", "I have been \\g<0>"),
    # "New job at Sainsbury's since Monday", "New flat in Leith": a verbless noun phrase of
    # what the speaker has that is new, "I have" dropped (a noun, then where or with whom;
    # not a time: "New year in Paris"; "New job is great" is ``cleaning``'s "my new job").
    (r"^(?:brand\s+)?new\s+(?=(?!(?:year|years|day|week|month|term|season|era|chapter|beginnings?|"
     r"normal)\b)[a-z][\w'-]*(?<!s)\s+(?:[a-z][\w'-]*\s+)?(?:at|in|with|for|from|as|on)\s"
     r"(?![^,;]*\b(?:is|are|was|were|has|have|had|will|would|can|could)\b))",
     "I have a \\g<0>"),
    # "Might go back to uni next year", "Might be moving to Leeds": a plan, "I" dropped
    # (not "Might be worth a try": "it").
    (r"^might\s+(?=(?!be\b)[a-z]+\s|be\s+\w+ing\b)", "I \\g<0>"),
    # "Favourite band at the moment is Wet Leg": the speaker's "my" dropped before a taste.
    (r"^(?:favou?rite|fave)\s+(?=[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|at|right|these|this)\b)",
     "My \\g<0>"),
    (r"^no longer\s+(?=(?:a|an|with|at|in|on|part of)\s)", "I am \\g<0>"),
    # "Don't feel like I'm making an impact": the speaker's "I" dropped before a negation.
    (r"^(?:do not|did not|cannot|could not)\s+(?=(?:feel|think|know|want|have|remember|"
     r"understand|see|get|like|mind|care)\b)", "I \\g<0>"),
    # "Gone off tea lately", "Given up on the gym": a phrasal participle, "I have" dropped.
    (r"^(?:gone|given|taken)\s+(?=(?:off|up|back|out|on)\b)", "I have \\g<0>"),
    # "Haven't had a drink in months": the speaker's "I" dropped before a habit's verb
    # negated (not "Haven't talked in a while", "Have not been there yet").
    (r"^(?:have|has)\s+(?:not|never)\s+(?=" + CONSUMED + r"\b)", "I \\g<0>"),
    # "Haven't been to the food bank since the spring": where the speaker has not gone,
    # "I" dropped (not "Have not been there yet": where "there" is is the other's).
    (r"^have\s+(?:not|never)\s+(?=been\s+(?:back\s+)?(?:to|at|in|on)\s+(?!there\b))",
     "I \\g<0>"),
    # "Three weeks without coffee now", "No meat for two months": something given up,
    # told by how long; "I have gone" / "I have had" dropped.
    # ("Six months smoke-free" is read as it is, by ``endings.py``).
    (r"^" + SPAN + r"\s+(?=(?:without|off|free of|clean|sober|dry)\b)",
     "I have gone \\g<0>"),
    (r"^no\s+(?=[\w-]+(?:\s+[\w-]+)?\s+(?:for|in)\s+(?:over\s+)?" + SPAN + r"\b)",
     "I have had \\g<0>"),
    # "Off the booze since January", "Off meat for a year": "I have been" dropped.
    (r"^off\s+(?=(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:since|for)\b)", "I have been \\g<0>"),
    # "Can't eat gluten anymore", "Don't drink these days": a habit ended, "I" dropped.
    (r"^(?:do not|cannot|can not|no longer)\s+(?=[a-z]+\b.*\b(?:any\s?more|these days|"
     r"nowadays)\W*$)", "I \\g<0>"),
    # "Gives me a visual of my progress": what gives is "it", said before.
    (r"^(?=(?:gives|helps|makes|keeps|reminds|brings|lets|reminded|gave|helped|made|kept|"
     r"brought)\s+(?:me|us)\b)", "It "),
    # "New car though, a Mazda 3", "New job: Deloitte": a new thing of the speaker's and
    # its name after the comma, "I have" dropped (not "New year, new me": a name follows).
    (r"^(?=new\s+(?!(?:year|week|month|day|term|season|me|you)\b)[a-z]+(?:\s+(?:though|too|"
     r"as well|then))?\s*[,:-]\s+(?:(?:a|an|the)\s+)?(?-i:[A-Z0-9]))", "I have a "),
    # A change texted without "I" (``texted.TEXTED``): a base verb and a time of now, a
    # standing, a belonging, "done with", a span at a named place, "Guess who ...".
    *TEXTED,
)]


#: "is" clipped onto the gerund's last noun ("Searching for the perfect studio's a tough
#: job"): the gerund is the subject.
_NOUN_IS = re.compile(r"\w's\s+(?:a|an|the|so|really|very|pretty|quite|not|been|always|"
                      r"never|such)\b", re.I)
#: The speaker as the object of a verb in -s ("Seeing my students succeed motivates me",
#: "having a pet brightens my days"): the opening gerund is the subject, no "I am" dropped.
_ACTS_ON_ME = re.compile(r"\b\w+s\s+(?:\w+ly\s+)?(?:me|us|my|our)\b", re.I)


def sentences(text: str) -> Iterator[str]:
    """The raw sentences of a turn (apostrophes and quotes normalised)."""
    for whole in split_sentences(text.translate(APOS)):
        for raw in _DASH.split(whole):
            raw = raw.strip()
            if raw:
                yield raw


def vocatives(names: Iterable[str]) -> re.Pattern[str] | None:
    words = sorted({w for name in names for w in re.findall(r"[A-Za-z][A-Za-z'-]+", name)},
                   key=len, reverse=True)
    if not words:
        return None
    alt = "|".join(map(re.escape, words))
    return re.compile(rf"(?:^(?:{alt})\b[\s,!.:;]*|[\s,]+(?:{alt})(?=[\s]*[!.?,]*$)|"
                      rf",\s*(?:{alt})\s*,)", re.I)


#: A name said to the other person before the speaker's "I" ("Maria, I went to ...",
#: "Jon I have news"), when the other turns name nobody: a capitalised word that is no
#: common word, adverb or time.
_ADDRESS = re.compile(r"^(?P<n>[A-Z][a-z]{1,15})(?:\s*,\s*(?=(?:I|we|my|our|me)\b)"
                      # not a name in apposition: "Jonah, my boyfriend, cooked ..."
                      r"(?!(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s*,)|"
                      # Without a comma only before a subject: "Gives me a visual" is a verb.
                      r"\s+(?=(?:I|we)\b))")


#: A greeting and the name it greets ("Hey John, this week has been busy"): whoever the
#: other turns name, a capitalised word after "hey" is the one addressed.
_GREETED = re.compile(r"^(?:hey|hi|hello|hiya|yo|dear|good (?:morning|afternoon|evening))"
                      r"(?:\s+there)?[\s,!]+(?P<n>[A-Z][a-z]{1,15})\s*[,!.:;-]+\s*", re.I)


def maybe_name(word: str) -> bool:
    """Whether a capitalised ``word`` opening a sentence can be a name, not a common word,
    an adverb or a time."""
    low = word.lower()
    return not (low in NOT_NAMES or low in _STOP or low in _GENERIC or low in _ADVERBS or
                low in _COMMON_WORDS or low in _PAST or low in _PARTICIPLES or
                low.endswith(("ly", "ing", "ed")) or bool(time_phrase(low)))


def drop_address(text: str) -> str:
    """``text`` without a name it opens on to address the other person (``_ADDRESS``), or
    greets (``_GREETED``)."""
    m = _ADDRESS.match(text) or _GREETED.match(text)
    if m is None or not maybe_name(m["n"]):
        return text
    return text[m.end():]


def clean(raw: str, vocative: re.Pattern[str] | None) -> tuple[str, bool]:
    """A sentence without interjections and the addressee's name, contractions expanded and
    a dropped subject restored; and whether it asks."""
    text, question = untag(raw)
    text = drop_address(text)
    if _REQUESTED.match(text):
        # "Could you update my employer to Lidl?": a request tells its new value (before
        # "Update" is read as news's opener)
        text, question = _REQUESTED.sub(REQUESTED[1], text), False
    for _ in range(4):
        before = text
        if vocative is not None:
            text = vocative.sub(lambda m: "," if m.group(0).startswith(",") and
                                m.group(0).rstrip().endswith(",") else "", text).strip()
        text = drop_address(_LEAD.sub("", text).strip(" ,;:-~"))
        if text == before:
            break
    text = re.sub(r"\bi\b", "I", text)
    for pattern, repl in _EXPAND:
        text = pattern.sub(repl, text)
    text = _unframe(text)
    # A discourse opener goes before the subject is restored ("Speaking of trips, we ..."
    # is no "I am speaking of trips").
    text = OPENER.sub("", text.strip().rstrip(".!?;:~ ").strip())
    if not text:
        return "", question
    return _own_judgement(restore_subject(text)), question


#: The frame of news told to the other person: "I got a promotion and wanted to tell you
#: about it", "Just wanted to let you know I got the job". The news is the statement; the
#: frame says only that it is being told (alone, "I wanted to tell you about my school
#: event", it announces and is no disclosure: ``episodes._EXCHANGE``).
_TELL_YOU = (r"(?:wanted|want|needed|need|had|have|thought I would|could not wait)\s+(?:to\s+)?"
             r"(?:tell you|let you know|share (?:it |this |that )?with you|update you)")
_FRAME_AFTER = re.compile(r",?\s+(?:and|so)\s+(?:I\s+)?(?:just\s+|really\s+)?" + _TELL_YOU
                          + r"\b.*$", re.I)
_FRAME_BEFORE = re.compile(r"^(?:[^,;]{1,40},\s+)?(?:I\s+)?(?:just\s+|really\s+)?" + _TELL_YOU
                           + r"(?:\s+that|\s*[,:-])?\s+(?=(?:I|we|my|our)\b)", re.I)


def framed(raw: str) -> bool:
    """Whether a raw sentence tells its news in a frame ("Wanted to let you know that I'm
    running for office again"): the speaker marks it as news worth telling."""
    text = raw.translate(APOS).replace("I'm", "I am")
    return bool(_FRAME_AFTER.search(text) or re.search(
        r"^(?:\W*\w+\W+){0,3}?" + _FRAME_BEFORE.pattern.removeprefix("^"), text, re.I))


def _unframe(text: str) -> str:
    """``text`` without the frame that says news is being told (``_FRAME_AFTER``,
    ``_FRAME_BEFORE``), when news is left."""
    told = _FRAME_BEFORE.sub("", _FRAME_AFTER.sub("", text)).strip()
    return told if len(told.split()) >= 3 else text


#: "It is so freeing to express myself", "it was great to unplug with the kids": "it"
#: stands for what follows (no earlier turn's topic), and the judgement is the speaker's
#: own, of what they do. Told as theirs: "I find it so freeing to express myself".
_EXTRAPOSED = re.compile(r"^it\s+(?P<be>is|was|has been|had been|feels|felt)\s+"
                         r"(?P<adv>(?:(?:so|really|very|super|pretty|quite|extra|truly|just|"
                         r"also|always|definitely|incredibly|absolutely)\s+)*)"
                         r"(?P<adj>[a-z][\w-]*)\s+(?P<rest>(?:to\s+\w+|\w+ing)\b.*)$", re.I)
JUDGED = re.compile(r"^I (?:find|found|have found|had found) it\b")
_FIND = {"is": "I find it", "feels": "I find it", "was": "I found it", "felt": "I found it",
         "has been": "I have found it", "had been": "I had found it"}
#: Judgements the speaker gives as everyone's ("it is important to ..."): maxims
#: (``_MAXIM``), not the speaker's experience.
_NOT_JUDGEMENTS = frozenset("""important key vital essential crucial necessary normal okay
ok time worth like about all possible impossible true clear obvious""".split())


def _own_judgement(text: str) -> str:
    """``text`` with an extraposed "it is ADJ to ..." told as the speaker's judgement, when
    it judges something done, not the other person's words ("It is great to hear that",
    "it is nice to see you") nor a maxim ("It is important to rest")."""
    m = _EXTRAPOSED.match(text)
    if m is None or _SECOND.search(text):
        return text
    adj, rest = m["adj"].lower(), m["rest"]
    if adj in _NOT_JUDGEMENTS or adj in _STOP and adj not in ("hard",) or \
            not (adj in _GENERIC or adj.endswith(("ing", "ful", "ive", "ous", "ble", "al",
                                                    "ic", "y", "ed", "ent", "ant"))) or \
            re.match(r"(?:to\s+)?(?:hear|hearing|know|knowing|read|reading)\b", rest, re.I):
        return text
    return f"{_FIND[m['be'].lower()]} {m['adv']}{m['adj']} {rest}"


#: A phrase that sets the scene before the statement ("After a lot of documentaries, full
#: vegan since March", "With the kids at school, back at work full time").
_INTRO = re.compile(r"^(?P<intro>(?:after|before|following|despite|thanks to|because of|"
                    r"with|as of|since)\b[^,]{1,60},\s*)(?P<rest>\w.*)$", re.I)


def restore_subject(text: str) -> str:
    """``text`` with a dropped "I" put back ("Just got back from Paris" -> "I just got back
    from Paris", "Quit Amazon" -> "I quit Amazon", "Looking for a place" -> "I am looking
    for a place"), after a phrase that sets the scene too (``_INTRO``); not when the
    opening gerund is the subject ("Losing my job was hard")."""
    if not text:
        return text
    intro = _INTRO.match(text)
    if intro and not re.match(_PLACED_NOW, text, re.I):    # "With EE now, ..." is no scene
        rest = _restore(intro["rest"])
        return intro["intro"] + rest if rest != intro["rest"] else text
    return _restore(text)


#: An activity said to be over, "is" dropped: "Moving day done", "Unpacking finished,
#: ...", "Packing finally sorted!": the words of completion (a closed class) close the
#: clause after the gerund and a noun or two; the gerund is the subject, not a dropped "I
#: am" ("I am moving day done"). Not after a verb that links its subject to a state
#: (``_LINKING``: "Feeling done", "Getting there").
_DONE = re.compile(r"^(?:[a-z]+\s+){0,2}?(?:\w+ly\s+)?(?:done|finished|over|complete|"
                   r"completed|sorted)(?=\s*(?:[,.;:!?]|$))", re.I)
#: Verbs that link their subject to a state ("Feeling done", "Getting tired").
_LINKING = frozenset("feeling getting being becoming looking seeming sounding going "
                     "growing staying keeping".split())


#: A past form, a modal or "is" right after an opening word that could be a past ("Rose got
#: a job", "Bore said no"): the opening word is the subject, a name, not a past whose "I"
#: was dropped (after "got" a participle is its passive: "Got lost", "Got married").
_VERB_NEXT = re.compile(r"(?:is|are|was|were|has|have|had|will|would|can|could|"
                        + "|".join(sorted(_PAST)) + r")\b", re.I)


#: How the speaker is where they now are, opening a sentence with "I am" dropped
#: ("Happy at Currys, way better than ...", "Settled in at the Leeds office").
_SETTLED = frozenset("happy settled content thriving comfortable busy loving".split())


def _restore(text: str) -> str:
    first, _, rest = text.partition(" ")
    low = first.lower()
    gerund_subject = low.endswith("ing") and bool(_FINITE.search(rest) or
                                                  _ACTS_ON_ME.search(rest) or
                                                  _NOUN_IS.search(rest) or
                                                  low not in _LINKING and _DONE.match(rest))
    done = _DONE.match(rest) if low.endswith("ing") and low not in _LINKING else None
    if done is not None:
        # "Moving day done, finally settled in York": the clause after the activity over
        # is the speaker's, its "I" dropped as well.
        head, comma, after = text.partition(", ")
        return f"{head}, {_restore(after)}" if comma and after and \
            len(head) <= len(first) + 1 + done.end() else text
    for pattern, repl in _RESTORE:
        if pattern.match(text):
            text = pattern.sub(repl, text[:1].lower() + text[1:], count=1)
            break
    else:
        if low in _PARTICIPLES and rest:
            text = f"I am {low} {rest}"
        elif not rest and low in STATUSES:
            text = f"I am {low}"    # "Engaged!", "Retired!": a standing told by its word
        elif not rest and low in ("promoted", "hired", "fired"):
            text = f"I was {low}"   # "Promoted!": a milestone told by its word
        elif low in _SETTLED and re.match(r"(?:at|in|with)\s+(?:the\s+)?(?-i:[A-Z])", rest):
            text = f"I am {low} {rest}"     # "Happy at Currys, ...": where the speaker is
        elif low == "let" and re.match(r"(?:the|my|our)\s[^,;.!?]{1,40}?\s(?:lapse|go|slide|"
                                       r"expire|run\s+out)\b", rest, re.I):
            text = f"I let {rest}"  # "Let the gym membership lapse": the speaker's act
        elif rest and (low in _PAST - {"was", "were", "did", "had"} or low == "quit" or
                       # "Did the egg challenge": "did" with an object, not "did you ...?"
                       low == "did" and bool(re.match(r"(?:the|a|an|my|our|some|it|this|"
                                                      r"that|all)\b", rest, re.I)) or
                       low == "had" and not re.match(r"(?:i|we|you|he|she|they|it)\b", rest,
                                                     re.I) or
                       # "Much-needed break": a compound adjective, no past verb
                       (low.endswith("ed") and len(low) > 4 and "-" not in low)) and \
                not re.match(r"(?:is|was|has|by)\b", rest) and \
                not (low != "got" and _VERB_NEXT.match(rest)):
            text = f"I {low} {rest}"
        # (not "Having sold the van, ...": a perfect participle, no "I am having")
        elif rest and low.endswith("ing") and (len(low) > 5 or low == "doing") and \
                not gerund_subject and \
                not (low == "having" and re.match(_PARTICIPLE + r"\b", rest, re.I)) and \
                low not in _ING_NOUNS and not re.match(
                # "Exciting but nerve-wracking": an adjective, no "I am exciting".
                r"(?:but|and|or|yet|is|was|has|can|makes|helps|gives|brings|sounds|seems|will|would|"
                r"really|always|never|it|that|this|you|your|the)\b", rest, re.I) or \
                rest and low in FEELING and re.match(r"the\s+\w", rest, re.I) and \
                re.search(r"\s(?-i:[A-Z])", rest) and not gerund_subject:
            # ("Loving the new flat in Leeds": a verb whose subject feels is no adjective
            # before "the", as "Amazing the difference it makes" is; a name says it is of
            # the speaker's life, not praise of what the other shared: "Loving the colours!")
            text = f"I am {low} {rest}"
    return text


#: Discourse openers that say a topic is coming, not what it is ("On another note,",
#: "As for me,", "since we last talked").
OPENER = re.compile(r"^(?:on (?:another|a different|a similar|a side) note|as for me|anyway|"
                     r"speaking of [\w' ]{1,30}?|by the way|in other news|other than that|"
                     r"apart from that|besides that|also)\s*,\s*", re.I)
