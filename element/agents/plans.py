"""A plan, a wish or an intention of the speaker's, kept as one ("context", as an episode's
plan is): "One day I'd love to run a campsite", "I'm hoping to move to Edinburgh", "We're
saving up for a camper van", "Thinking of retraining as a plumber", "I wish I'd studied
medicine".

What the speaker means to do or would like is worth remembering (an assistant asked about
them later should know it), and it is no present value: "I'd love to live by the sea" after
"I live in Leeds" leaves Leeds current. So it is read before the keyed rules
(``rules.extract``), which would read "live by the sea" as where the speaker lives; a plan
has no key and replaces nothing (the rule evaluator adds it as its own kind, "plan").

The cue is the grammar of wanting and intending with the speaker as its subject (I, we, "X
and I", or none as in chat: "Thinking of ..."): a verb of wish or intention followed by
what is wanted ("would love to", "'d like to", "hope to", "planning to", "thinking of",
"saving up for", "dream of", "I wish I'd", "if only we"), a time ahead before it ("one day",
"someday") or not; "I'd like to" and "I want to" only with a time ahead ("I'd like to
retire to Spain one day"), since without one they are as often a request of the moment
("I'd like to book a table"). Not a request of the other person ("I'd like you to ..."), not asking
to know, remember or hear something (what the conversation is about, not the speaker's
life), not a question, not one without a thing (at least two words after the verb), and
not one whose thing points into the conversation (the listener, "it", "them", "like this").
A bare "might" or "may" ("we might move next year") is left to the episodes: read as a
plan clause, its sentence's other clauses were read alone as changes. Pure functions over
text; English only.
"""

from __future__ import annotations

import re

from .narration import narrate

__all__ = ["plan"]

#: The speaker as the subject: I, we, "X and I", or none.
_SUBJECT = r"(?:(?:i|we)\s+|(?:(?:my|our)\s+)?[\w'-]+\s+and\s+i\s+)?"
#: Words between the subject and the verb ("really", "honestly", "still").
_BETWEEN = r"(?:(?:really|honestly|still|also|seriously|kind\s+of|sort\s+of|definitely)\s+)*"
#: A verb of wish or intention and what opens the thing wanted.
_WANT = (r"(?:would|'d)\s+(?:really\s+|so\s+|just\s+)?love\s+to|"
         # "I love to cook" is a taste; only "would love to" wishes.
         r"(?:would|'d|will|'ll|might|may)?\s*(?:really\s+)?(?:hope|plan|aim|intend)\s+to|"
         r"(?:am|'m|are|'re|have\s+been|'ve\s+been)\s+" + _BETWEEN +
         r"(?:hoping|planning|aiming|intending|meaning|looking|wanting|dying|itching|keen|"
         r"tempted)\s+(?:to|on)|"
         r"(?:am|'m|are|'re|have\s+been|'ve\s+been)?\s*" + _BETWEEN +
         r"(?:thinking|dreaming)\s+(?:of|about)|"
         r"(?:am|'m|are|'re|have\s+been|'ve\s+been)?\s*" + _BETWEEN +
         r"(?:saving\s+(?:up\s+)?for|toying\s+with\s+the\s+idea\s+of|considering|"
         r"eyeing\s+up|weighing\s+up)|"
         r"(?:dream|dreams|hope|hopes|plan|plans)\s+(?:of|to)")
#: "I'd like to", "I want to": as often a request of the moment ("I'd like to book a
#: table", "I want to cancel my order") as a plan; one only with a time ahead.
_LIKE = (r"(?:would|'d)\s+(?:really\s+|so\s+|just\s+)?like\s+to|(?:would|'d|will|'ll)?\s*"
         r"(?:really\s+)?(?:want|wanna)\s+(?:to\s+)?")
_AHEAD = re.compile(r"\b(?:one\s+day|someday|some\s+day|eventually|in\s+the\s+future|"
                    r"at\s+some\s+point|next\s+(?:year|summer|spring|autumn|winter|month)|"
                    r"in\s+a\s+(?:year|few\s+years|couple\s+of\s+years)|when\s+(?:i|we)\s+"
                    r"retire|before\s+(?:i|we)\s+(?:turn|die|retire)|long\s+term|"
                    r"(?:this|next)\s+time\s+next\s+year)\b", re.I)
_OPENER = (r"^(?:(?:one\s+day|someday|some\s+day|eventually|in\s+the\s+future|"
           r"at\s+some\s+point|honestly|ideally|and|but|so)\s*,?\s+)?")
_PLAN = re.compile(rf"{_OPENER}{_SUBJECT}{_BETWEEN}(?:{_WANT})\s+(?P<x>.+)$", re.I)
_LIKED = re.compile(rf"{_OPENER}{_SUBJECT}{_BETWEEN}(?:{_LIKE})\s*(?P<x>.+)$", re.I)
#: A wish about what is or was ("I wish I'd trained as a vet", "if only we had a garden").
_WISH = re.compile(rf"^(?:honestly\s+|sometimes\s+)?(?:{_SUBJECT}wish(?:\s+that)?\s+(?:i|we)|"
                   rf"if\s+only\s+(?:i|we))\s+(?P<x>.+)$", re.I)
#: "My dream is to open a bakery", "the plan is to move to Cardiff": the speaker's.
_DREAM = re.compile(r"^(?:my|our|the)\s+(?:\w+\s+)?(?:dream|plan|goal|hope|ambition|aim)\s+"
                    r"(?:is|was)\s+to\s+(?P<x>.+)$", re.I)
#: What the conversation wants, not the speaker's life: the other person, knowing,
#: remembering, hearing, asking, checking.
_NOT_LIFE = re.compile(r"^(?:you|your|to\s+)?(?:you|know|remember|forget|hear|ask|check|"
                       r"say|thank|see\s+(?:you|it|that|this|what|how)|try\s+(?:it|that|this)|"
                       r"talk|chat|share|tell|go\s+over|understand|learn\s+more|get\s+(?:your|"
                       r"some)\s+(?:advice|help|thoughts|tips)|make\s+sure|clarify|mention|"
                       r"add|point\s+out|figure|find\s+out|read\s+more)\b", re.I)
#: What is wanted points into the conversation rather than naming a thing of the speaker's
#: life: it names the listener ("would love to see another painting of yours", "have you
#: over again") or is only pointed at ("explore them someday", "try making it sometime",
#: "make something like this", "could have been there"). Out of its conversation such a
#: memory says nothing (LoCoMo dev: plans added 35 memories, few of them a fact, precision
#: .751 -> .727; without these .742).
_POINTED = re.compile(r"\b(?:you|your|yours|yourself|yourselves|it|them|those|these|either)\b|"
                      r"(?:^|\b(?:like|of|about)\s+)(?:this|that)\b|\b(?:this|that|here|there)\s*$",
                      re.I)
#: A wish that the present were otherwise ("I wish I was that patient", "wish I had a
#: vacation lined up"): the speaker's state told as its opposite, no plan.
_OTHERWISE = re.compile(r"^(?:was|were|am|are|could|had\s+(?:a|an|the|some|more|no|any)\b)",
                        re.I)
#: The least words of what is wanted.
_LEAST = 2


def plan(sentence: str, who: str) -> str | None:
    """The speaker's plan, wish or intention ``sentence`` (cleaned, first person) tells, in
    the third person; None for any other sentence."""
    said = sentence.strip()
    if not said or said.endswith("?"):
        return None
    m = _PLAN.match(said) or _DREAM.match(said) or _WISH.match(said) or \
        (_LIKED.match(said) if _AHEAD.search(said) else None)
    if m is None:
        return None
    thing = m["x"].strip(" .!")
    if len(re.findall(r"[\w'-]+", thing)) < _LEAST or _NOT_LIFE.match(thing) or \
            _POINTED.search(thing) or m.re is _WISH and _OTHERWISE.match(thing):
        return None
    told = narrate(said.rstrip(" !"), who)
    return told if told and told != said else None
