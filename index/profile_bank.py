"""A generic person profile as questions, and what a text's vector answers of it.

The bank (``ATTRIBUTES``): the fields of a contact record, an intake form, a CRM profile
(home, work, education, family, health, services, possessions, tastes), written as
questions one asks to fill it in, each attribute single-valued (a home, a job: one value
at a time) or not (pets, languages, hobbies). Nothing in it names a value or comes from a
case. A job is one attribute however it is told, by its employer or by its title (a job
told one way and then the other is one job replaced, and a query of either asks it);
an attribute asked of another person of theirs (their child, their boss, their doctor)
says so (``Attribute.another``). Two layers read it: the subconscious
(``element/agents/profile.py``: which attribute a new statement gives a new value) and
recall (``recency.py``: which results answer the attribute a query asks). It lives here,
below both (imports point down).

The question vectors are embedded once per model (:func:`question_vectors`), kept by the
embedder's ``model_id``: not by ``id(embedder)``, which a new embedder may reuse once the
old one is collected (its vectors would be another model's), and which kept every
embedder alive.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from .embed import Embedder, embed_for_lanes, normalize_rows

__all__ = ["ATTRIBUTES", "Attribute", "RELATIONS", "ROLES", "attribute_scores",
           "question_vectors"]


@dataclass(frozen=True)
class Attribute:
    name: str
    #: One value at a time (a home, an employer, a phone): a new value replaces the old
    #: without a change cue. Others add up (pets, languages, hobbies).
    single: bool
    questions: tuple[str, ...]
    #: Asked of another person of theirs (their child, their boss, their doctor, their
    #: friends): never answered by a description of the subject itself ("is a dental
    #: nurse" is a job, not who their dentist is; ``profile.names_another``).
    another: bool = False


def _a(name: str, single: bool, *questions: str) -> Attribute:
    return Attribute(name, single, questions)


def _of(name: str, single: bool, *questions: str) -> Attribute:
    return Attribute(name, single, questions, another=True)


#: A generic person profile, as questions (a contact record, an intake form, a CRM
#: profile): never a case's words or values.
ATTRIBUTES: tuple[Attribute, ...] = (
    _a("residence", True, "Where do they live?", "Which city or town is their home in?",
       "Which neighbourhood do they live in?", "What is their home address?"),
    # One attribute, a job, however told: by its employer ("works at Tesco") or by its title
    # ("is a postman"); a job told one way and then the other is one job replaced. (Its
    # questions stay few: each one more raises its answer to any query about work, "How
    # does ... get to work?" tied with it.)
    _a("job", True, "Which company do they work for?", "Who is their employer?",
       "Where do they work?", "What is their job?", "What do they do for a living?",
       "What is their job title or profession?", "What is their occupation?"),
    _a("workplace", True, "Which office or site do they work from?",
       "Do they work from home or in the office?"),
    _of("manager", True, "Who is their boss?", "Who is their manager or supervisor?",
       "Who do they report to at work?"),
    _a("commute", True, "How do they get to work?", "How do they commute?",
       "By what means of transport do they get to work?"),
    _a("schedule", True, "What shifts or hours do they work?",
       "What is their working pattern?"),
    _a("education", True, "Which school, college or university do they attend?",
       "What are they studying?", "What year or grade are they in at school?",
       "Which university or college are they at?", "What course are they doing?"),
    _a("partner", True, "Who is their partner?", "Who are they dating or married to?",
       "What is their relationship status?", "Are they single or seeing someone?",
       "Are they in a relationship?"),
    _of("child", True, "How old is their child?", "What year is their child in at school?",
       "Which school does their child go to?"),
    _a("name", True, "What is their name?", "What do they like to be called?"),
    _a("age", True, "How old are they?", "When is their birthday?"),
    _a("origin", True, "Where are they from?", "What is their nationality?"),
    _a("diet", True, "What diet do they follow?", "Are they vegetarian or vegan?",
       "What do they eat or avoid eating?"),
    _a("allergy", False, "What are they allergic to?",
       "What food intolerances do they have?"),
    _a("medication", True, "What medication do they take?",
       "What medicine are they prescribed?"),
    _a("health", False, "What health conditions do they have?"),
    _of("doctor", True, "Who is their doctor or GP?", "Who is their dentist?"),
    _a("exercise", False, "What exercise do they do?", "What is their workout routine?"),
    _a("gym", True, "Which gym are they a member of?"),
    _a("smoking", True, "Do they smoke or vape?"),
    _a("drink", False, "What do they usually drink?", "Do they drink alcohol or coffee?"),
    _a("vehicle", True, "What car do they drive?", "What vehicle do they own?"),
    _a("phone", True, "What phone do they have?",
       "Which mobile network, phone plan or contract are they on?"),
    _a("computer", True, "What computer or laptop do they use?"),
    _a("pet", False, "What pets do they have?", "Do they have a dog or a cat?"),
    _a("bank", True, "Who do they bank with?", "Which bank is their account with?"),
    _a("insurance", True, "Who is their insurance with?", "Which company insures them?"),
    _a("utilities", True, "Who is their internet or broadband provider?",
       "Who supplies their gas and electricity?"),
    _a("subscription", False,
       "What streaming services or memberships do they subscribe to?"),
    _a("hobby", False, "What are their hobbies?",
       "What do they do at the weekend or in their free time?"),
    _a("sport", False, "What sport do they play?", "Which team do they play for?"),
    _a("fandom", True, "Which sports team do they support?", "Who are they a fan of?"),
    _a("instrument", False, "What musical instrument do they play?"),
    _a("language", False, "What language are they learning?",
       "What languages do they speak?"),
    _a("favourite", False, "What is their favourite TV show, film or book?",
       "Who is their favourite author, band or artist?", "What is their favourite food?"),
    _a("music", False, "What music do they listen to?"),
    _a("religion", True, "What is their religion?"),
    _a("hair", True, "What colour is their hair?", "What hairstyle do they have?"),
    _a("contact", True, "What is their email address?", "What is their phone number?"),
    _a("volunteering", False, "Where do they volunteer?"),
    _of("family", False, "Who is in their family?", "Where do their relatives live?"),
    _of("friends", False, "Who are their friends?"),
)

#: The words of a person (or animal) a statement may be about other than its subject: kin,
#: partners, friends, people at work and at home, pets ("Maria's brother lives in Brighton"
#: is the brother's home, not Maria's).
RELATIONS = frozenset("""
sister brother mother mum mom dad father parents son daughter kid kids child children baby
wife husband partner boyfriend girlfriend fiance fiancee friend friends mate boss manager
neighbour neighbor cousin aunt uncle grandma grandmother grandpa grandfather granny niece
nephew colleague coworker flatmate roommate housemate family team teacher doctor dentist
landlord landlady therapist coach trainer client tutor ex twins twin stepson stepdaughter
grandson granddaughter grandchild grandchildren grandkid grandkids stepmum stepmom stepdad
grandparents grandad granddad nan gran in-laws siblings sibling stepbrother stepsister
dog cat puppy kitten pet
""".split())

#: The words (of :data:`RELATIONS`) for the one person an attribute is about: a statement
#: naming its person by any of them gives that attribute's value, not another person's fact
#: ("Erin's girlfriend Chloe" is who Erin's partner is; "Maria's brother lives in Brighton"
#: is not where Maria lives). Only words for one and the same person: a son and a
#: daughter, a dog and a cat, a doctor and a dentist are two.
ROLES: dict[str, frozenset[str]] = {name: frozenset(words.split()) for name, words in {
    "partner": "partner wife husband boyfriend girlfriend fiance fiancee",
    "manager": "boss manager",
    "friends": "friend friends mate",
    # (one's doctor is the one person of the attribute; a dentist is another, never said
    # for the doctor: "my doctor is Dr Okafor" is who their doctor is)
    "doctor": "doctor",
}.items()}

_LOCK = threading.Lock()
#: The bank's unit question vectors per model id.
_QUESTIONS: dict[str, np.ndarray] = {}
#: Where each attribute's questions start among the rows of :func:`question_vectors`.
_STARTS = np.cumsum([0] + [len(a.questions) for a in ATTRIBUTES[:-1]])


def question_vectors(embedder: Embedder) -> np.ndarray:
    """The bank's questions embedded with ``embedder``'s content model, one unit row each
    (embedded once per ``model_id``; an embedder without one is not remembered)."""
    key = getattr(embedder, "model_id", None)
    if key is not None:
        with _LOCK:
            held = _QUESTIONS.get(str(key))
        if held is not None:
            return held
    texts = [q for a in ATTRIBUTES for q in a.questions]
    matrix = normalize_rows(embed_for_lanes(embedder, ["content"] * len(texts), texts))
    if key is not None:
        with _LOCK:
            _QUESTIONS[str(key)] = matrix
    return matrix


def attribute_scores(vectors: np.ndarray, questions: np.ndarray) -> np.ndarray:
    """Each unit vector's answer to every attribute: its best cosine with the attribute's
    questions, shape ``(len(vectors), len(ATTRIBUTES))``."""
    scores = np.asarray(vectors, dtype=np.float32).reshape(-1, questions.shape[1]) @ questions.T
    per: np.ndarray = np.maximum.reduceat(scores, _STARTS, axis=1)
    return per
