"""What a sentence of the speaker's says that is no disclosure of their life: the exchange
with the other person (offers, thanks, news announced rather than told, help offered),
guesses at the other's life, maxims and general thoughts about "us". The episode rules
(``episodes.py``) leave such sentences out, or out of a memory of the speaker's news."""

from __future__ import annotations

import re

__all__ = ["OFFER", "EXCHANGE", "HELPING", "SURMISE", "MAXIM", "SPEAKER_ACTS", "TO_ME",
           "WE_CAN", "US", "SINGULAR", "we_can"]


#: The speaker promising or offering something to the other person ("I will send you a
#: video", "let me know if I can help"): about the exchange, not the speaker's life.
OFFER = re.compile(r"\b(?:I|we)\s+(?:\w+ly\s+|also\s+|just\s+)?(?:will|would|can|could|"
                   r"shall|might|am going to|are going to)\b", re.I)
EXCHANGE = re.compile(r"\blet (?:me|us) know\b|\bthanks? (?:you )?for\b|\bthank you\b|"
                      r"\bcheers for\b|"
                      # how the speaker is, said back to "How are you?" ("I'm doing OK")
                      r"^I am (?:doing |feeling )?(?:really |pretty |very )?(?:ok|okay|good|"
                      r"great|well|fine|alright|all right|not bad)(?:,|$)|"
                      r"\bif (?:that|it) is (?:fine|ok|okay|alright|all right)\b|"
                      # announcing news, not telling it ("I wanted to tell you about ...")
                      r"\b(?:wanted|want|had|have) to (?:tell|update|fill) you\b|"
                      r"\bfill you in\b", re.I)
#: Help offered to the other person, or asked of them, though "you" is not said ("I'm here
#: to lend an ear", "I'd love to lend a hand with the next event", "I'll reach out if I need
#: more tips"): about the exchange, not the speaker's life.
HELPING = re.compile(r"^(?:I|we)\s+(?:am|are)\s+(?:always\s+)?here\s+(?:for|to)\b|"
                     r"^(?:I|we)\s+would\s+(?:\w+ly\s+)?(?:love|be happy|be glad)\s+to\s+"
                     r"(?:help|lend|assist|pitch in)\b|"
                     r"\breach out\s+(?:if|when|whenever)\b", re.I)
#: Guessing at what the other person lives ("that must have been scary", "gaining
#: confidence must feel great").
SURMISE = re.compile(r"\bmust (?:be|feel|have been|have felt)\b", re.I)
#: A maxim: something "is key / important / vital" with no speaker acting in it ("Taking
#: care of ourselves is key").
MAXIM = re.compile(r"\b(?:is|are)\s+(?:\w+ly\s+|so\s+|just\s+|also\s+)?(?:key|vital|"
                   r"important|essential|crucial|everything|a must|necessary|the best "
                   r"medicine)\b", re.I)
SPEAKER_ACTS = re.compile(r"\b(?:I|we)\b")
TO_ME = re.compile(r"\b(?:to|for)\s+(?:me|us)\b", re.I)
#: "We can achieve great things if we join forces": a general thought, not an event.
WE_CAN = re.compile(r"^(?:if\s+)?(?:we|us)\s+(?:all\s+)?(?:can|could|must|should|might|"
                    r"have to|need to|got to|ought to)\b", re.I)


def we_can(text: str) -> bool:
    """Whether ``text`` is such a general thought (``WE_CAN``): not when it names a place
    or a person, a plan of the household's ("We might move to Nottingham next year"); a
    time alone does not tell a plan from an idea for the two talking ("We could do a
    family outing this summer")."""
    return bool(WE_CAN.match(text)) and not re.search(r"(?<=\s)(?!I\b)[A-Z]", text)
#: A general statement about people, the speaker among them ("Being in nature helps us take
#: a break", "Taking a step back can show us the beauty of life", "If we stand together we
#: can tackle any problems"): the speaker is in it only as the "us" something helps, shows
#: or brings, or as a "we" that can or should, with no "I", nothing done and no time: a
#: thought, not a fact of theirs ("Grandma lives with us" is one: "with" is no such verb).
US = re.compile(r"\b(?:helps?|help|shows?|brings?|lets?|makes?|reminds?|teach(?:es)?|gives?|"
                r"keeps?|allows?|inspires?|motivates?|pushes|push|unites?|connects?|"
                r"drives?|guides?)\s+(?:\w+\s+)?us\b|\bourselves\b|"
                r"\bwe\s+(?:all\s+)?(?:can|could|should|must|might|need to|have to)\b", re.I)
SINGULAR = re.compile(r"\b(?:I|me|my|mine|myself)\b|^(?:our|we)\b(?!\s+(?:all\s+)?(?:can|"
                      r"could|should|must|might|need to|have to)\b)", re.I)
