"""Short news a friend remembers however few its words: a milestone of the speaker's life
or of a named relation's (promoted, engaged, a baby, a first flat), something given up
told by how long, work or a post another gives the speaker, a thing of the closed class a
person has just got; and the test that reads a sentence, its head or its tail, as such
news (``short_news``). Moved out of ``episode_words.py``, whose vocabulary it uses."""

from __future__ import annotations

import re

from index import RELATIONS

from .episode_words import (STANDING_WORDS, does, head, person_taste, short_named,
                            stands_now, tail)

__all__ = ["CONSUMED", "SPAN", "milestone", "relation_subject", "short_news"]


def relation_subject(text: str) -> bool:
    """Whether ``text`` opens on a named relation of the speaker's (``index.RELATIONS``:
    friend, sister, partner, boss ...) as its subject, after at most two words that qualify
    it ("my best friend", "our new boss", "my sister's"): news of theirs is the speaker's
    news to a friend, as a family member's is ("My best friend just got a job at Meta").
    Not "my friend and I": that is the speaker."""
    words = text.split()
    if len(words) < 3 or words[0].lower() not in ("my", "our"):
        return False
    for i, word in enumerate(words[1:4], start=1):
        if not word.isalpha() and not word.lower().endswith("'s"):
            return False
        if word.lower().removesuffix("'s") in RELATIONS:
            return i + 1 < len(words) and words[i + 1].lower() not in ("and", "or", "&")
    return False


#: A milestone of the speaker's working or family life, told as done ("I got a promotion",
#: "We got engaged", "I was laid off", "I had a baby"), or of a named relation's, told as
#: done or as it stands ("my sister got engaged", "my boss is pregnant"): news a friend
#: remembers, however few its words.
_MILESTONE = re.compile(
    r"^(?:(?:I|we)|(?P<rel>(?:my|our)\s.+?))\s+(?:(?:just|finally|recently|officially|actually)\s+)?"
    r"(?:(?:have|had|has)\s+)?(?:got|was|were|been|had|landed|lost|passed|became|took|"
    r"accepted|started|"
    r"am|is|are|'s)\s+(?:(?:just|finally|officially|now)\s+)?"
    r"(?:promoted|(?:a|my)\s+(?:big\s+)?(?:promotion|raise|pay rise)|hired|fired|laid off|"
    r"made redundant|let go|engaged|married|divorced|pregnant|a (?:baby|son|daughter)|"
    r"diagnosed with|"
    r"(?:my|our|his|her|their)\s+job|(?:a|the)\s+(?:(?:new|day|full-time|permanent)\s+)?job|"
    r"(?:my|our)\s+(?:own|first)\s+(?:place|flat|house|home|apartment|car)|"
    r"(?:my|his|her|their) (?:degree|diploma|driving test)|"
    r"a (?:grandparent|grandmother|grandfather|dad|mum|mom|father|mother))\b", re.I)


#: A span of time: "six months", "a few weeks", "over a year".
SPAN = (r"(?:(?:over|almost|nearly|about|more than|a good)\s+)?(?:a|an|one|two|three|four|"
        r"five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several|\d+)\s+"
        r"(?:day|week|month|year)s?")
#: The verbs of a habit one gives up: "I have not had / touched / smoked ...".
CONSUMED = r"(?:had|touched|smoked|vaped|drunk|drank|eaten|used|taken|bought|gambled|played)"
#: Something given up, told by how long it has been ("I have not had a drink in four
#: months", "I am six months sober", "I have gone three weeks without coffee", "It has
#: been a year since my last cigarette", "I have been off the booze since January"); and
#: what the speaker has moved to a new value ("My hours went up to full time"): a change
#: of the speaker's life told with no verb of ending or change.
_GONE_WITHOUT = re.compile(
    r"^(?:I|we)\s+(?:have|has)\s+(?:not|never)\s+" + CONSUMED +
    r"\s+(?:[\w-]+\s+){0,3}?(?:in|for)\s+"
    + SPAN + r"\b|"
    r"^(?:I|we)\s+(?:am|are|have been|have gone)\s+(?:now\s+)?" + SPAN +
    r"\s+(?:without|off|free of|clean|sober|dry|[\w]+-free)\b|"
    r"^(?:I|we)\s+have\s+had\s+no\s+.+\s+(?:for|in)\s+" + SPAN + r"\b|"
    r"^it\s+(?:has|is)\s+been\s+" + SPAN + r"\s+since\s+(?:my|our|I|we)\b|"
    r"^(?:I|we)\s+(?:am|are|have been)\s+off\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
    r"(?:since|for)\b|"
    # what the speaker has, moved up or down to a new value ("My hours went up to full
    # time", "our rent has gone up to 900 a month")
    r"^(?:my|our)\s+(?:[\w-]+\s+){1,2}(?:(?:has|have)\s+)?(?:went|gone|got|was|were|been)\s+"
    r"(?:up|down|increased|reduced|cut|bumped up|changed)\s+to\b", re.I)
#: Work given to the speaker by another: hired, appointed, taken on ("Deloitte have taken
#: me on as a graduate", "They have appointed me head of maths", "Monzo snapped me up");
#: or a person in a role toward the speaker ("Marcus coaches me now"; "Ravi is my line
#: manager these days" is keyed, ``cleaning.py``). A new job or a new boss, told with the
#: other as the subject.
_TAKES_ME = re.compile(
    r"^(?!(?:I|we|you|he|she|it|this|that|there|what|who)\b)(?:(?:the|my|our)\s+)?"
    r"[\w'&.-]+(?:\s+[\w'&.-]+)?\s+(?:(?:have|has|had)\s+)?(?:(?:just|finally|officially|"
    r"now)\s+)?(?:(?:hired|appointed|recruited|promoted|headhunted|poached)\s+(?:me|us)\b|"
    r"(?:taken|took)\s+me\s+on\b(?!\s+(?:a|an|the|my|our|his|her|their|some)\b)|snapped\s+me\s+up\b|offered\s+me\s+(?:a|the)\s+"
    r"(?:\w+\s+)?(?:job|role|position|post|place|contract)\b)|"
    r"^(?-i:[A-Z])[\w'.-]+(?:\s+(?-i:[A-Z])[\w'-]+)?\s+(?:now\s+)?(?:coaches|manages|"
    r"teaches|trains|mentors|tutors|supervises|treats|represents|employs)\s+(?:me|us)\b",
    re.I)
#: The speaker given a post ("I have been made head of department", "I was appointed
#: deputy head").
_POSTED = re.compile(r"^(?:I|we)\s+(?:(?:have|had)\s+)?(?:been|was|were|got)\s+(?:just\s+)?"
                     r"(?:appointed|taken on|recruited|headhunted|poached|made\s+(?:a\s+)?"
                     r"(?:[\w-]+\s+)?(?:head|lead|partner|director|manager|captain|chair|"
                     r"deputy|principal|editor|supervisor|senior))\b", re.I)


#: A thing of the closed class a person has (a vehicle, a home, a pet, a child) that the
#: speaker got ("We got a puppy too", "I bought a van", "We adopted a rescue greyhound"):
#: what they have from now on, in the few words it takes ("I got a call" is no such thing).
_ACQUIRED = re.compile(
    r"^(?:I|we)\s+(?:(?:just|finally|recently|also|have|'ve|went\s+and)\s+)*"
    r"(?:got|bought|adopted|rescued|picked\s+up|took\s+in|brought\s+home|welcomed)\s+"
    r"(?:(?:a|an|our|my|ourselves\s+a|myself\s+a|another|a\s+second)\s+)(?:[\w-]+\s+){0,2}?"
    r"(?:car|van|motorbike|bike|campervan|caravan|boat|house|flat|cottage|bungalow|dog|cat|"
    r"puppy|kitten|rabbit|hamster|parrot|horse|pony|tortoise|greyhound|spaniel|labrador|"
    r"terrier|lurcher|collie|baby|allotment)s?"
    # (and no more: "I adopted a puppy named Rex" scores by its words)
    r"(?:\s+(?:too|as\s+well|also|now|today|yesterday|(?:last|this)\s+\w+))?\W*$", re.I)


def milestone(text: str) -> bool:
    """Whether ``text``, a short cleaned sentence, tells a milestone of the speaker's life or
    of a named relation's (``_MILESTONE``), something given up told by how long
    (``_GONE_WITHOUT``), or work or a role another gives the speaker (``_TAKES_ME``,
    ``_POSTED``): worth a memory however few its words, as ``stands_now``."""
    if len(text.split()) > STANDING_WORDS:
        return False
    if _GONE_WITHOUT.match(text) or _TAKES_ME.match(text) or _POSTED.match(text) or \
            _ACQUIRED.match(text):
        return True
    m = _MILESTONE.match(re.sub(r"(?<=\w)'s\b", " is", text))
    return m is not None and (not m["rel"] or relation_subject(text))


def short_news(text: str) -> bool:
    """Whether ``text``, its ``head`` or its ``tail``, is news few words say all of: how
    things stand now (``stands_now``), a milestone or what the speaker does
    (``milestone``, ``does``)."""
    return any(stands_now(t) or milestone(t) or does(t) or short_named(t) or
               person_taste(t) for t in dict.fromkeys((text, head(text), tail(text))))
