"""What the keyed rules (``rules.py``) read as a fact about the speaker: the sentence
patterns, the keys they give and the word lists they need (data only, no functions).

A key names an attribute of the speaker's (``fact:location``, ``fact:manager``,
``fact:age:son leo``): a later statement with the same key gives it a new value
(``updates.py``). What they catch and miss: ``docs/agents.md``.
"""

from __future__ import annotations

import re

from .irregular import PASTS

__all__ = ["WE", "FACTS", "NEW_VALUES", "OCCUPATIONS", "ALIASES", "QUALIFIERS", "PAST_TENSE",
           "STATES", "IS",
           "NOT_ROLES",
           "HABIT", "NOT_HABITS", "HIRED", "WORKPLACES"]

#: Job titles (the head noun of "a senior software *engineer*"): "I'm a nurse", "I'm an
#: accountant at Deloitte" say what the speaker does for a living, one value at a time.
OCCUPATIONS = frozenset("""
accountant actor actress administrator analyst architect artist assistant associate
attorney auditor baker banker barber barista bartender biologist bookkeeper builder
butcher buyer carer carpenter cashier chef chemist cleaner clerk coach consultant
contractor cook coordinator copywriter counselor counsellor courier curator dancer
dentist designer detective developer dietitian director doctor driver economist editor
electrician engineer executive farmer firefighter gardener geologist hairdresser
historian hygienist illustrator inspector instructor intern journalist judge lawyer
lecturer librarian lifeguard machinist manager marketer mechanic midwife musician nanny
nurse officer optician painter paralegal paramedic pharmacist photographer physician
physicist physiotherapist pilot planner plumber poet policeman principal producer
professor programmer psychiatrist psychologist radiographer receptionist recruiter
reporter representative researcher salesman saleswoman scientist secretary surgeon
surveyor tailor teacher technician therapist trainer translator tutor vet veterinarian
waiter waitress welder writer
""".split())
_ROLE = (r"(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:" + "|".join(sorted(OCCUPATIONS)) + r")")
#: Places of work, as where a move leads ("relocated to the Glasgow office", "the move to
#: the Leeds branch"): a transfer of where one works or the firm's move, not a new home.
WORKPLACES = frozenset("""office offices branch branches store shop depot warehouse site team
department division unit ward practice campus plant factory lab headquarters hq firm company
job role""".split())
#: Whom one sees for care, not as a partner ("I'm seeing a therapist now").
CARERS = (r"(?:(?:new|private|local)\s+)?(?:doctor|gp|physio|physiotherapist|therapist|"
          r"counsell?or|specialist|consultant|"
          r"dentist|psychiatrist|psychologist|nurse|midwife|chiropractor|osteopath)")
#: The speaker as a subject, alone or with their household ("my wife and I", "we").
WE = r"^(?:i|we|(?:my\s+\w+|(?-i:[A-Z][a-z]+))\s+and\s+i|me\s+and\s+my\s+\w+)"
#: Statements about the speaker: (pattern, memory template, key). A template "" tells the
#: sentence itself (in the third person); ``{h}`` in a key is whose it is ("my son").
FACTS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(p, re.I), tpl, key) for p, tpl, key in (
    (WE + r"\s+(?:am\s+|are\s+|have been\s+)?(?:currently\s+|now\s+|still\s+)?(?:live|"
     r"living|reside|residing|based)\s+(?:(?:right|downtown|just)\s+)?in\s+(?P<x>.+)$",
     "{who} lives in {x}", "fact:location"),
    (WE + r"\s+(?:have\s+)?(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+"
     r"(?:(?:back|up|down|over|out|across|away|home)\s+)?to\s+(?P<x>.+)$", "{who} lives in {x}",
     "fact:location"),
    (r"^(?:my|our)\s+(?:new\s+)?(?:apartment|flat|house|home|place)\s+is\s+(?:now\s+)?in\s+"
     r"(?P<x>.+)$", "{who} lives in {x}", "fact:location"),
    (r"^home(?:\s+for\s+(?:me|us))?\s+is\s+(?:now\s+)?(?:an?\s+[\w\- ]{1,30}?\s+)?in\s+"
     r"(?P<x>.+)$", "{who} lives in {x}", "fact:location"),
    # The place named as the speaker's home: "Bristol is our home now", "Leeds has been my
    # home since May" (its own possessive: "Mom is home" says she arrived).
    (r"^(?P<x>(?!(?:this|that|it|here|there|home|what|where)\b)(?-i:[A-Z])[\w'.-]*"
     r"(?:\s+(?-i:[A-Z])[\w'.-]*){0,2})\s+(?:is|has been|has become|became)\s+(?:now\s+)?"
     r"(?:my|our)\s+(?:new\s+)?home\b.*$", "{who} lives in {x}", "fact:location"),
    (r"^i\s+(?:am|come)\s+(?:originally\s+)?from\s+(?P<x>.+)$", "{who} is from {x}",
     "fact:origin"),
    (r"^i\s+(?:am\s+)?(?:currently\s+|now\s+|still\s+)?(?:work|working)\s+(?:at|for)\s+"
     r"(?P<x>.+)$", "{who} works at {x}", "fact:employer"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+)?(?:started|began)\s+(?:a\s+new\s+job|"
     r"working|work)\s+(?:at|for|with)\s+(?P<x>.+)$", "{who} works at {x}", "fact:employer"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+|finally\s+)?(?:accepted|taken|took|got)\s+"
     r"(?:an?\s+|the\s+)?(?:new\s+)?(?:job|offer|position|role)\s+(?:offer\s+)?(?:at|with|from)\s+"
     r"(?P<x>(?:the\s+)?(?-i:[A-Z]).+)$", "{who} works at {x}", "fact:employer"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+)?got\s+a\s+(?:new\s+)?job\s+(?:at|with)\s+"
     r"(?P<x>.+)$", "{who} works at {x}", "fact:employer"),
    # Starting at a firm told as the event: "I started at Stripe on Monday", "my first day
    # at Stripe went well". The firm is a name ("my first day at school" is no employer),
    # what follows it says when or how it went.
    (r"^(?:i\s+(?:have\s+)?(?:just\s+|recently\s+|finally\s+)?(?:started|began)|my\s+first\s+"
     r"(?:day|week|shift|month)(?:\s+of\s+work)?)\s+(?:at|with)\s+(?P<x>(?:the\s+)?"
     r"(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*){0,3})(?:\s+.*)?$", "{who} works at {x}",
     "fact:employer"),
    (r"^i\s+(?:am\s+)?(?:currently\s+|now\s+|still\s+)?(?:work|working)\s+as\s+(?P<x>.+)$",
     "{who} works as {x}", "fact:occupation"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+|finally\s+)?(?:got|found|landed|took|started|"
     r"accepted)\s+(?:a\s+)?(?:new\s+)?(?:job|position|role|work)\s+as\s+(?P<x>.+)$",
     "{who} works as {x}", "fact:occupation"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+)?(?:started|began)\s+working\s+as\s+(?P<x>.+)$",
     "{who} works as {x}", "fact:occupation"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+|finally\s+)?(?:became|become|retrained as|"
     r"(?:got|was|have been)\s+promoted\s+to|went|gone)\s+(?P<x>(?:a|an|the)\s+.+|freelance"
     r"|self-employed|part-time|full-time|senior\s.+|junior\s.+|head\s.+)$", "",
     "fact:occupation"),
    (r"^i\s+(?P<x>\w+\s+.+?)\s+for a living$", "", "fact:occupation"),
    (r"^i\s+(?:now\s+|currently\s+|mostly\s+|usually\s+|mainly\s+)?(?:work|am working)\s+"
     r"(?:(?:fully|entirely|mostly|full-time|part-time)\s+)?(?P<x>(?:from|at)\s+home|"
     r"remotely|from\s+(?:the|an|my)\s+office|in\s+(?:the|an)\s+office|on[- ]?site|hybrid|"
     r"in\s+person)\b.*$", "", "fact:workplace"),
    (r"^i\s+am\s+(?:now\s+)?(?:back\s+)?(?P<x>(?:in|at)\s+(?:the|an)\s+office|on[- ]?site|"
     r"(?:fully\s+)?remote)\s+(?:full-time|part-time|every day|most days|(?:\d|one|two|three|"
     r"four|five)\s+days\s+a\s+week|now|these days|again)\b.*$", "", "fact:workplace"),
    (r"^i\s+(?:\w+\s+)?(?:commute|go|drive|head|travel)\s+(?:in\s*)?to\s+(?:the|my)\s+"
     r"(?P<x>office)\b.*$", "", "fact:workplace"),
    (r"^i\s+(?:now\s+|currently\s+|mostly\s+|usually\s+)?(?:work|am working)\s+"
     r"(?P<x>part-time|full-time|nights|night shifts|day shifts|early shifts|late shifts|"
     r"shifts|weekends|evenings|mornings|(?:\d|two|three|four|five|six)\s+days\s+a\s+week)\b"
     r".*$", "", "fact:hours"),
    (r"^i\s+am\s+(?:currently\s+|now\s+)?(?P<x>" + _ROLE + r"(?:\s+(?:at|for|with|in)\s+.+)?)$",
     "{who} is {x}", "fact:occupation"),
    (r"^i\s+am\s+allergic\s+to\s+(?P<x>.+)$", "{who} is allergic to {x}", "fact:allergy:{x}"),
    (r"^i\s+am\s+(?P<x>\d{1,3})(?:\s+years?\s+old)?$", "{who} is {x} years old", "fact:age"),
    (r"^i\s+(?:have\s+)?(?:just\s+|recently\s+)?turned\s+(?P<x>\d{1,3})\b.*$",
     "{who} is {x} years old", "fact:age"),
    (r"^(?:my|our|the)\s+(?P<h>[a-z]+(?:\s+(?-i:[A-Z][a-z]+))?)\s+(?:is|are|has turned|have turned|"
     r"(?:just\s+)?turned)\s+(?P<x>\d{1,2})(?:\s+years?\s+old)?(?=\s*,|\s+(?:now|and|already|"
     r"today|yesterday|this|last)\b|\W*$)", "", "fact:age:{h}"),
    (r"^(?P<h>(?-i:[A-Z][a-z]+))\s+(?:has\s+)?(?:just\s+)?turned\s+(?P<x>\d{1,2})\b", "",
     "fact:age:{h}"),
    (r"^i\s+(?:now\s+|currently\s+)?report\s+(?:directly\s+)?to\s+(?P<x>.+)$",
     "{who} reports to {x}", "fact:manager"),
    (WE + r"\s+(?:am\s+|are\s+)?(?:now\s+)?(?:drive|driving)\s+(?P<x>(?:a|an)\s+.+)$",
     "{who} drives {x}", "fact:car"),
    (r"^i\s+am\s+(?:now\s+)?(?P<x>(?:married|engaged)\s+to\s+.+)$", "{who} is {x}",
     "fact:relationship"),
    # Seeing one's doctor or therapist: care, one of several (below: seeing someone).
    (r"^i\s+(?:am|have been|had been)\s+(?:now\s+)?seeing\s+(?P<x>(?:a|an|the|my)\s+"
     + CARERS + r"\b.*)$", "", "fact:sees:{x}"),
    # Seeing someone, not seeing how something went or seeing one's doctor.
    (r"^i\s+(?:am|have been|had been)\s+(?:now\s+)?(?:seeing|dating|going out with|"
     r"in a relationship with)\s+"
     r"(?!(?:how|what|why|where|when|whether|if|that|this|these|those|it|things|more|less|"
     r"(?:a|an|the|my)\s+" + CARERS + r")\b)(?P<x>.+)$", "", "fact:relationship"),
    (r"^(?:(?:my\s+(?:boyfriend|girlfriend|partner|husband|wife|fiance|fiancee)\s+)?"
     r"(?-i:[A-Z][a-z]+)\s+and\s+i|i\s+and\s+(?-i:[A-Z][a-z]+))\s+(?:have\s+|are\s+)?(?:just\s+|"
     r"finally\s+)?(?:got married|got engaged|broke up|split up|separated|got divorced|"
     r"been together|been dating|together|dating|engaged|married)\b.*$",
     "", "fact:relationship"),
    (r"^i\s+(?:have\s+)?(?:just\s+)?(?:gone|went|turned|became|switched to being)\s+"
     r"(?:(?:fully|completely|totally|full|strictly|mostly)\s+)?(?P<x>vegetarian|vegan|pescatarian|keto|paleo|gluten-free|dairy-free)\b.*$",
     "", "fact:diet"),
    (r"^i\s+am\s+(?:now\s+)?on\s+(?:a|the)\s+(?P<x>[\w\- ]{2,30}?)\s+diet$",
     "{who} is on a {x} diet", "fact:diet"),
    (r"^i\s+(?:can\s+)?speak\s+(?P<x>.+)$", "{who} speaks {x}", "fact:speaks:{x}"),
    (r"^i\s+(?:have|have got|own)\s+(?P<x>(?:a|an|one|two|three|four|five|six|\d+)\s+.+)$",
     "{who} has {x}", "fact:has:{head}"),
    (r"^we\s+(?:have|have got|own)\s+(?P<x>(?:a|an|one|two|three|four|five|six|\d+)\s+"
     r"(?:[\w-]+\s+)?"
     r"(?:car|van|minivan|suv|truck|house|flat|apartment|cottage|caravan|boat|dog|cat|puppy|"
     r"kitten|rabbit|hamster|parrot|horse|garden|allotment|kids?|children|sons?|daughters?|"
     # (the kinds of pet and of vehicle "we" keep, and their plurals: "two rabbits", "a
     # border collie")
     r"baby|puppies|kittens|motorbike|campervan|bungalow|pony|ponies|tortoise|"
     r"goldfish|guinea\s+pigs?|greyhound|spaniel|labrador|retriever|"
     r"terrier|lurcher|collie|poodle|budgie|ferret|gerbil|snake|lizard)s?\b.*)$", "",
     "fact:has:{head}"),
    (r"^i\s+am\s+(?:currently\s+)?(?P<x>(?:working on|planning|preparing|learning|studying|"
     r"traveling to|travelling to|moving to|writing|building)\s+.+)$", "{who} is {x}",
     "context:{verb}"),
)]
#: What "my X is Y" is about when X names one of a person's single facts.
ALIASES = {"employer": "fact:employer", "company": "fact:employer", "job": "fact:occupation",
            "boss": "fact:manager", "manager": "fact:manager", "supervisor": "fact:manager",
            "team lead": "fact:manager", "line manager": "fact:manager", "car": "fact:car",
            "vehicle": "fact:car", "phone": "fact:phone", "mobile": "fact:phone",
            "cell": "fact:phone", "cell phone": "fact:phone", "mobile phone": "fact:phone",
            "diet": "fact:diet", "age": "fact:age", "partner": "fact:relationship",
            "boyfriend": "fact:relationship", "girlfriend": "fact:relationship",
            "husband": "fact:relationship", "wife": "fact:relationship",
            "fiance": "fact:relationship", "fiancee": "fact:relationship",
            "email": "fact:email", "e mail": "fact:email", "email address": "fact:email",
            "e mail address": "fact:email", "mail address": "fact:email",
            "phone number": "fact:phone", "mobile number": "fact:phone",
            "cell number": "fact:phone", "cell phone number": "fact:phone",
            "mobile phone number": "fact:phone", "telephone": "fact:phone",
            "telephone number": "fact:phone", "number": "fact:phone",
            "home address": "fact:address", "address": "fact:address",
            "postal address": "fact:address", "street address": "fact:address"}
#: Words that qualify the X of "my X is Y" without changing what it is ("my new car").
QUALIFIERS = {"new", "old", "current", "usual", "present", "latest", "former", "regular"}
#: Every simple past of an irregular verb (``irregular.py``'s table).
PAST_TENSE = PASTS
STATES = {"vegetarian": "diet", "vegan": "diet", "pescatarian": "diet", "married": "relationship",
           "single": "relationship", "divorced": "relationship", "widowed": "relationship",
           "engaged": "relationship", "retired": "work"}
IS = re.compile(r"^i\s+am\s+(?P<art>(?:a|an)\s+)?(?P<x>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})$",
                 re.I)
NOT_ROLES = {"bit", "little", "lot", "big", "huge", "great", "bad", "good", "not", "so",
              "very", "really", "just", "sure", "sorry", "here", "back", "fine", "going",
              "trying", "looking", "asking", "wondering", "thinking", "glad", "happy"}
#: A habit: "I play the piano", "I drink my coffee black", "I take the train to work"; of
#: the household too ("We shop at Lidl": ``habits.py`` says which verbs).
HABIT = re.compile(r"^(?P<s>i|we)\s+(?:usually\s+|often\s+|always\s+|normally\s+|mostly\s+|"
                    r"regularly\s+|sometimes\s+)?(?P<v>[a-z]{2,})\s+(?P<x>.+)$", re.I)
#: Verbs of thinking, feeling, talking and helping: "I think so" is no habit; nor are the
#: verbs other rules read (like, have, work, live ...).
NOT_HABITS = frozenset("""
think know guess mean hope feel agree see understand wish bet suppose believe wonder remember
forget need want appreciate love like hate prefer enjoy adore dislike detest am have do can
could will would should must may might just really also totally get say tell promise swear
doubt imagine recommend suggest apologize apologise admit realize realise assume care miss
thank figure hear cannot try plan live work speak own reside stay move come go mean find
would ask answer reply call let keep look wait sound seem owe totally definitely absolutely
truly actually still always never only even probably guess mind reckon trust expect wanna
gonna gotta kinda sorta lemme dunno bet
""".split()) - {"go"}

#: A proper name: capitalised words ("Hackney Wick FC", "St. Mary's", "H&M").
_NAME = r"(?-i:(?:[A-Z]|[ie](?=[A-Z]))[\w&'.-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z0-9][\w&'.-]*)*)"
#: Where a change statement names an attribute's new value, per key: (pattern, the
#: attribute's own statement). "I left Google and joined Spotify" superseding "works at
#: Google" is told "works at Spotify"; the last match is the new value. Only read once the
#: statement is known to replace a memory of that key (``restated.restate``).
NEW_VALUES: dict[str, tuple[re.Pattern[str], str]] = {
    key: (re.compile(p, re.I), tpl) for key, p, tpl in (
    ("fact:employer", r"\b(?:joined|(?:now|am|started|working|work|job|position|role|offer)\s+"
     r"(?:\w+\s+)?(?:at|with|for|from)|signed\s+(?:up\s+)?(?:with|for)|moved\s+(?:over\s+)?to|"
     r"switched\s+to|went\s+(?:over\s+)?to|over\s+to)\s+(?P<x>" + _NAME + ")",
     "{who} works at {x}"),
    ("fact:location", r"\b(?:to|in|into)\s+(?P<x>" + _NAME + ")", "{who} lives in {x}"),
    ("fact:manager", r"\b(?:reports?\s+to|reporting\s+to|(?:boss|manager|supervisor|team lead)"
     r"(?:,?\s+(?:his|her|their)\s+name)?(?:\s+is)?(?:\s+now)?(?:\s+called|\s+named)?|under)"
     r"\s+(?P<x>" + _NAME + ")",
     "{who} reports to {x}"),
    ("fact:car", r"\b(?:bought|got|getting|drive|driving|for|to|with|into)\s+(?P<x>(?:a|an)\s+"
     r"(?:new\s+|used\s+|second-hand\s+|little\s+|electric\s+)?" + _NAME + ")",
     "{who} drives {x}"),
    ("fact:phone", r"\b(?:to|got|bought|using|on|with|for)\s+(?P<x>(?:an?\s+|the\s+)?(?:new\s+)?"
     + _NAME + ")", "{who}'s phone is {x}"),
    ("context:studying", r"\b(?:switched|changed|moved|transferred|swapped)\b.*?\bto\s+"
     r"(?:study(?:ing)?"
     r"\s+)?(?P<x>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)(?=\s*(?:[,.;!?]|$)|\s+(?:this|last|at|in|now|"
     r"instead)\b)", "{who} is studying {x}"),
    ("fact:occupation", r"\b(?:became|become|as|to|am(?:\s+now)?|now)\s+(?P<x>(?:(?:a|an|the)\s+)?"
     r"(?:[\w-]+\s+){0,3}?(?:" + "|".join(sorted(OCCUPATIONS)) + r")(?:\s+(?:at|for|with)\s+"
     + _NAME + r")?)\b", "{who} works as {x}"),
)}


#: Another's act giving the speaker a role: a hire or an appointment ("the council took me
#: on as a planning officer", "they made me head of maths", "they've appointed me
#: deputy head"): the speaker's occupation from then on.
HIRED = (r"\b(?:(?:took|taken)\s+(?:me|us)\s+on(?:\s+as\b|(?=\s*(?:[,.;!?]|$)|\s+(?:in|at|last|"
         r"this|full|part|permanently|straight)\b))|(?:hired|appointed|employed|"
         r"recruited)\s+(?:me|us)\b(?:\s+as)?|voted\s+(?:me|us)\s+in\s+as|"
         # "made me head of maths", not "made me proud of", "made us part of".
         r"made\s+(?:me|us)\s+(?!(?:feel|think|laugh|cry|smile|wait|wonder|realise|realize|"
         r"want|do|go|sick|ill|proud|aware|fond|tired|afraid|scared|jealous|conscious|sure|"
         r"wary|full|part|one|some|all|most|each)\b)[a-z]+\s+of)")
