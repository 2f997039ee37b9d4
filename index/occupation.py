"""Whether a statement tells what its subject does for a living: a job told by its title
("is a postman in Derby", "back on the wards as a staff nurse") or by the work done for an
employer ("delivers parcels for Evri", "teaches year 4 at St Anne's").

The profile bank (``index/profile_bank.py``) reads a job by meaning, and the small model
reads a job told so by what else its words say: "is a bus driver in Leicester" answers
where one lives and how one commutes better than what one's job is, "drives delivery vans
for Ocado" what car one drives, "does the accounts for a builder's merchant" who one banks
with. The grammar says it plainly: the subject said to *be* what a word for a person's
trade names (a head noun of an occupation, or a noun made of a work verb: "driver",
"electrician", "postman"), or said to do work for or at an employer (a work verb, then
"for" or "at" a named organisation or a firm, a school, a shop). Both sides of memory read
such a statement as the job: the subconscious when it decides what a statement replaces
(``element/agents/profile.py``, ``present_value.py``), recall when it orders a subject's
results by what each answers (``own_answer.as_job``, ``recency.answering``).

What it must not read as the speaker's job (each a guard below): a taste or a hobby told
with the same nouns ("a keen gardener", "an avid cyclist", "bakes cakes for friends"), a
volunteer role ("volunteers at the food bank", "as a volunteer"), a past or a former one
("used to be a postman", "a retired teacher", ``told``'s past is read by the callers), and
anything of a person who is not the subject (the callers read whose a statement is).

Why it is general: the lists are generic English (the common words for trades and
professions, the suffixes English makes agent nouns of trades with, the verbs of paid
work, the nouns of employers), written from the language, not from any case.
"""

from __future__ import annotations

import re

import numpy as np

from .profile_bank import ATTRIBUTES, RELATIONS

__all__ = ["job_first", "job_title", "tells_job"]

#: Head nouns of trades and professions that no suffix below makes: generic English.
_TITLES = frozenset("""
nurse chef cook guard clerk porter pilot vet doctor gp surgeon dentist midwife paramedic
medic solicitor barrister lawyer judge accountant bookkeeper auditor actuary architect
surveyor engineer mechanic plumber electrician joiner carpenter builder bricklayer plasterer
roofer decorator glazier welder labourer fitter tiler locksmith gardener landscaper cleaner
housekeeper caretaker janitor nanny childminder au-pair carer teacher lecturer tutor
professor headteacher headmaster headmistress principal librarian curator archivist
receptionist secretary administrator assistant manager supervisor director executive officer
consultant analyst developer programmer coder designer tester technician scientist
researcher chemist pharmacist optician optometrist physio physiotherapist therapist
counsellor psychologist psychiatrist radiographer sonographer dietitian nutritionist
hygienist beautician hairdresser barber stylist florist baker butcher fishmonger grocer
greengrocer shopkeeper cashier representative agent broker banker trader postie courier
driver cabbie chauffeur trucker haulier dispatcher conductor signaller steward stewardess
waiter waitress barista bartender barman barmaid server sommelier butler firefighter
constable detective sergeant inspector soldier sailor warden bouncer lifeguard instructor
trainer personal-trainer journalist reporter editor copywriter translator interpreter
videographer producer presenter illustrator animator farmer farmhand shepherd forester
gamekeeper jockey vicar priest minister rabbi imam chaplain civil-servant councillor mp
diplomat apprentice trainee intern freelancer contractor entrepreneur proprietor publican
miner docker packer picker operative operator machinist technologist ecologist geologist
postman postwoman fireman firewoman policeman policewoman salesman saleswoman milkman binman
dustman handyman fisherman linesman
""".split())

#: Endings English makes a person of a trade or a profession with: "-ician" (electrician,
#: technician), "-ologist" (radiologist), "-apist" (therapist), "-iatrist" (podiatrist),
#: "-person" (salesperson), "-eer" (engineer, auctioneer; not a volunteer).
_TRADE_ENDING = re.compile(r"(?:ician|ologist|apist|iatrist|person|(?<!volunt)eer)$")

#: What makes a word for a person a taste, a pastime or a past, not a living: "a keen
#: gardener", "an avid reader", "an amateur photographer", "a retired teacher", "a
#: volunteer driver", "a former nurse".
_NOT_A_LIVING = re.compile(r"\b(?:keen|avid|big|huge|massive|great|amateur|budding|aspiring|"
                           r"wannabe|hobby|weekend|volunteer|voluntary|unpaid|retired|former|"
                           r"ex|old|lapsed|occasional|bit\s+of\s+an?|fan|lover|enthusiast|"
                           r"member|supporter|learner|beginner|pupil|good|decent|terrible|"
                           r"bad|awful|brilliant|proud|natural|careful|nervous|confident|"
                           r"safe|slow|fast|better|worse|lousy|hopeless|backseat|"
                           r"back-seat|sunday|fair-weather|self-taught)\b", re.I)

#: The subject said to be what a noun phrase names, from the start of a third-person text
#: stripped of its subject ("is a bus driver in Leicester", "works as a postman", "'s a
#: postie"), or anywhere told as what the subject works as ("... as a staff nurse").
_IS_A = re.compile(r"^(?:(?:is|'s|works\s+as|working\s+as|has\s+been|'s\s+been|became|becomes|"
                   r"has\s+become|'s\s+become)\s+)?(?:now\s+)?"
                   r"(?:an?|the)\s+(?P<np>[\w'-]+(?:\s+[\w'-]+){0,3}?)"
                   r"(?=\s+(?:at|for|in|with|on|of|from|near|by|and|who|which)\b|\s*[,;.!]|$)",
                   re.I)
_AS_A = re.compile(r"\bas\s+(?:an?|the)\s+(?P<np>[\w'-]+(?:\s+[\w'-]+){0,3}?)"
                   r"(?=\s+(?:at|for|in|with|on|of|from|near|by|and|who|which)\b|\s*[,;.!]|$)",
                   re.I)

#: Verbs of paid work ("drives for Uber", "teaches year 4 at ...", "does the accounts for
#: ...", "cleans offices for ...").
_WORK_VERB = (r"(?:teach(?:es|ing)?|deliver(?:s|ing)?|driv(?:es|ing)|"
              r"clean(?:s|ing)?|fix(?:es|ing)?|repair(?:s|ing)?|serv(?:es|ing)|"
              r"cook(?:s|ing)?|nurs(?:es|ing)|manag(?:es|ing)|"
              r"(?:does|doing|do)\s+(?:the\s+)?(?:accounts|books|payroll|admin|marketing|"
              r"bookkeeping|ha?ir|nails|deliveries|cleaning|accounts|it|hr|sales)|"
              r"cut(?:s|ting)?\s+hair|stack(?:s|ing)?\s+shelves|look(?:s|ing)?\s+after|"
              r"car(?:es|ing)\s+for|sell(?:s|ing)?|build(?:s|ing)?|design(?:s|ing)?|"
              r"write(?:s|ing)?\s+(?:code|software|copy)|cod(?:es|ing)|answer(?:s|ing)\s+"
              r"phones|wait(?:s|ing)\s+tables)")
#: An employer: a name ("Evri", "St Anne's", "the Royal Infirmary") or an organisation's
#: noun ("a plumbing firm", "a builder's merchant", "the village school").
_ORG_NOUN = (r"(?:firm|company|business|agency|council|charity|bank|school|academy|college|"
             r"university|uni|nursery|hospital|practice|surgery|clinic|pharmacy|chemist's|"
             r"shop|store|supermarket|chain|group|merchants?|contractors?|restaurant|cafe|"
             r"café|hotel|pub|bar|garage|salon|barber's|hairdresser's|service|trust|studio|"
             r"brand|start-?up|factory|warehouse|farm|homes?|"
             r"centre|center|department|ministry|authority|nhs|airline|airport|"
             r"estate\s+agents?|solicitors|accountants|builders|partnership|consultancy)")
_EMPLOYER = (r"(?:(?-i:[A-Z])[\w&'.-]*|(?:an?|the|my|his|her|their|our|[\w-]+'s?)\s+"
             rf"(?:[\w&'-]+\s+){{0,4}}?{_ORG_NOUN}\b)")
#: The work verb is the subject's own, its clause's verb: at the start of the text (its
#: subject stripped) or of a clause ("..., is doing deliveries for DPD"), not a noun of
#: another verb ("is studying nursing at Leeds Beckett": a course).
_CLAUSE_VERB = (r"(?:^|[,;]\s*|\b(?:and|so|but|now)\s+)(?:(?:is|'s|are|has\s+been|'s\s+been|"
                r"now|also|still|currently|mostly|mainly|actually)\s+)*")
_WORK_FOR = re.compile(rf"{_CLAUSE_VERB}{_WORK_VERB}\b(?:\s+[\w'-]+){{0,4}}?\s+(?:for|at)\s+"
                       rf"{_EMPLOYER}", re.I)
#: Working for or at a named employer ("works for Deloitte", "working at Greggs"): "works
#: for a firm in Derby" names no employer and no work (an electrician may work for one),
#: "works at the Leeds office" a site,
#: "working on a project for Ericsson" tells a project.
_WORKS_AT = re.compile(rf"{_CLAUSE_VERB}(?:works?|working)\s+(?:for|at)\s+"
                       r"(?-i:[A-Z])", re.I)
#: A school year or grade named ("teaches Year 4 at ...", "as a Year 4 class teacher"): the
#: bank's own question of a year or grade reads it, and the year is what changes.
_SCHOOL_YEAR = re.compile(r"\b(?:year|grade)\s+(?:\d{1,2}|one|two|three|four|five|six|seven|"
                          r"eight|nine|ten|eleven|twelve|thirteen)\b", re.I)
#: Work told by its hours ("works night shifts at the hospital", "works weekends at the
#: Co-op"): the working pattern is what it tells.
_HOURS = re.compile(r"\b(?:shifts?|nights|lates|earlies|weekends|hours|days|part[\s-]time|"
                    r"full[\s-]time|overtime|rota)\b", re.I)
#: A business of one's own run or owned: "runs their own dog grooming business", "owns a
#: little cafe" (not "has a garage": a thing held).
_OWN_BUSINESS = re.compile(r"\b(?:run(?:s|ning)?|own(?:s|ing)?)\s+(?:an?|my|his|her|their|our)\s+"
                           r"(?:own\s+)?(?:[\w'-]+\s+){0,3}?(?:business|firm|company|shop|"
                           r"salon|cafe|café|practice|agency|consultancy|bakery|pub|"
                           r"restaurant)\b", re.I)

#: Work told as a pastime or unpaid: "volunteers at the food bank", "for fun", "as a hobby",
#: "for friends", "in (my|his|her) spare time".
_UNPAID = re.compile(r"\b(?:volunteer\w*|for\s+(?:fun|free|friends|family|a\s+hobby|charity|"
                     r"the\s+love\s+of\s+it)|as\s+a\s+(?:hobby|volunteer|favour)|"
                     r"in\s+(?:\w+\s+)?spare\s+time|unpaid)\b", re.I)


def _trade(noun_phrase: str) -> bool:
    """Whether a noun phrase names a trade or a profession: its head (last word), or the
    head of a title told with a place ("bus driver", "staff nurse", "sous chef"), is a word
    for a person's trade (:data:`_TITLES`, :data:`_TRADE_ENDING`), and no word of it makes
    it a taste, a pastime or a past (:data:`_NOT_A_LIVING`)."""
    if _NOT_A_LIVING.search(noun_phrase):
        return False
    words = [w.lower().strip("'") for w in noun_phrase.split()]
    if not words:
        return False
    head = words[-1]
    joined = "-".join(words[-2:])
    return head in _TITLES or joined in _TITLES or bool(_TRADE_ENDING.search(head))


def job_title(text: str) -> str | None:
    """The title a text (third person, its subject stripped: "is a bus driver in
    Leicester") says its subject works as, or None."""
    text = " ".join(text.split())
    for found in (_IS_A.match(text), *_AS_A.finditer(text)):
        if found is not None and _trade(found["np"]):
            return found["np"]
    return None


def _anothers(text: str) -> bool:
    """Whether a text stripped of its subject opens on another person ("daughter works as a
    hairdresser" of "Sam's daughter ..."): the work is theirs, not the subject's."""
    first = re.match(r"^\W*(?:(?:my|his|her|their|our|'s)\s+)?([\w-]+)", text, re.I)
    return first is not None and first[1].lower() in RELATIONS


def tells_job(text: str) -> bool:
    """Whether a text (third person, its subject stripped) tells what its subject does for a
    living: a title (:func:`job_title`), work done for or at an employer
    (:data:`_WORK_FOR`, :data:`_WORKS_AT`; not told by its hours: :data:`_HOURS`) or a
    business of one's own (:data:`_OWN_BUSINESS`); never work told as unpaid or a pastime
    (:data:`_UNPAID`), nor a school year taught (:data:`_SCHOOL_YEAR`)."""
    if _UNPAID.search(text) or _anothers(text) or _SCHOOL_YEAR.search(text):
        return False
    if job_title(text) is not None or _OWN_BUSINESS.search(text):
        return True
    return bool(_WORK_FOR.search(text) or _WORKS_AT.search(text)) and not _HOURS.search(text)


#: Where the job stands in the profile bank.
_JOB = next(i for i, a in enumerate(ATTRIBUTES) if a.name == "job")


def job_first(row: np.ndarray, lead: float, least: float = -np.inf) -> np.ndarray:
    """A statement's answers to the bank (``profile_bank.attribute_scores``) with the job
    answered best, ``lead`` above its best other answer and at least ``least``: for a
    statement that :func:`tells_job` (the small model reads "is a postman in Derby" by its
    other words as a home, "drives delivery vans for Ocado" as a car)."""
    raised = np.array(row, copy=True)
    others = np.delete(raised, _JOB)
    raised[_JOB] = max(float(raised[_JOB]), float(others.max()) + lead, least)
    return raised
