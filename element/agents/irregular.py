"""The irregular verbs of English: one table, as a grammar book lists them (base form, simple
past, past participle), for every module that tells a verb's tense.

Chat drops the subject before a past ("Sold the Golf in the end", "Lost Tigger in
October"), puts "I" back before a present ("Speak a bit of German these days"), and
reads a fronted clause as the act it tells ("since getting a dog" -> "I got a dog"). Each
needs to know which words are the past of which verb. Regular verbs take "-ed"; the rest
are this closed class. The modules that once kept their own partial lists (the episode
words' ``PAST``, the facts' ``PAST_TENSE``, the carriers' past of a base) derive them from
here, so a verb added once is known to all.

Variant forms are all listed ("learnt" and "learned", "got" and "gotten"); archaic and
rare verbs (smite, beseech, cleave) are left out: chat does not use them.
"""

from __future__ import annotations

__all__ = ["IRREGULAR", "BASES", "PASTS", "PARTICIPLES", "DISTINCT_PASTS", "SAME_PASTS",
           "past_of_base"]

#: base, simple past(s), past participle(s); variants joined by "/".
_TABLE = """
arise arose arisen
awake awoke awoken
be was/were been
bear bore borne/born
beat beat beaten
become became become
begin began begun
bend bent bent
bet bet bet
bind bound bound
bite bit bitten
bleed bled bled
blow blew blown
break broke broken
breed bred bred
bring brought brought
broadcast broadcast broadcast
build built built
burn burnt/burned burnt/burned
burst burst burst
buy bought bought
catch caught caught
choose chose chosen
cling clung clung
come came come
cost cost cost
creep crept crept
cut cut cut
deal dealt dealt
dig dug dug
do did done
draw drew drawn
dream dreamt/dreamed dreamt/dreamed
drink drank drunk
drive drove driven
dwell dwelt dwelt
eat ate eaten
fall fell fallen
feed fed fed
feel felt felt
fight fought fought
find found found
flee fled fled
fling flung flung
fly flew flown
forbid forbade forbidden
forecast forecast forecast
forget forgot forgotten
forgive forgave forgiven
freeze froze frozen
get got got/gotten
give gave given
go went gone
grind ground ground
grow grew grown
hang hung hung
have had had
hear heard heard
hide hid hidden
hit hit hit
hold held held
hurt hurt hurt
keep kept kept
kneel knelt knelt
know knew known
lay laid laid
lead led led
lean leant/leaned leant/leaned
leap leapt/leaped leapt/leaped
learn learnt/learned learnt/learned
leave left left
lend lent lent
let let let
lie lay lain
light lit lit
lose lost lost
make made made
mean meant meant
meet met met
mislay mislaid mislaid
mistake mistook mistaken
outgrow outgrew outgrown
overcome overcame overcome
overhear overheard overheard
oversleep overslept overslept
overtake overtook overtaken
pay paid paid
prove proved proven
put put put
quit quit quit
read read read
rebuild rebuilt rebuilt
redo redid redone
repay repaid repaid
resell resold resold
retake retook retaken
rethink rethought rethought
rewrite rewrote rewritten
rid rid rid
ride rode ridden
ring rang rung
rise rose risen
run ran run
say said said
see saw seen
seek sought sought
sell sold sold
send sent sent
set set set
sew sewed sewn
shake shook shaken
shed shed shed
shine shone shone
shoot shot shot
show showed shown
shrink shrank shrunk
shut shut shut
sing sang sung
sink sank sunk
sit sat sat
sleep slept slept
slide slid slid
smell smelt/smelled smelt/smelled
sow sowed sown
speak spoke spoken
speed sped sped
spell spelt/spelled spelt/spelled
spend spent spent
spill spilt/spilled spilt/spilled
spin spun spun
spit spat spat
split split split
spoil spoilt/spoiled spoilt/spoiled
spread spread spread
spring sprang sprung
stand stood stood
steal stole stolen
stick stuck stuck
sting stung stung
stink stank stunk
strike struck struck
string strung strung
strive strove striven
swear swore sworn
sweep swept swept
swell swelled swollen
swim swam swum
swing swung swung
take took taken
teach taught taught
tear tore torn
tell told told
think thought thought
throw threw thrown
tread trod trodden
understand understood understood
undertake undertook undertaken
undo undid undone
upset upset upset
wake woke woken
wear wore worn
weave wove woven
weep wept wept
win won won
wind wound wound
withdraw withdrew withdrawn
wring wrung wrung
write wrote written
"""

#: base -> (simple pasts, past participles), in the table's order of variants.
IRREGULAR: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    base: (tuple(past.split("/")), tuple(part.split("/")))
    for base, past, part in (line.split() for line in _TABLE.strip().splitlines())}
BASES = frozenset(IRREGULAR)
PASTS = frozenset(p for pasts, _ in IRREGULAR.values() for p in pasts)
PARTICIPLES = frozenset(p for _, parts in IRREGULAR.values() for p in parts)
#: Pasts said only of the past ("sold", "went"), and pasts that are also their present
#: ("put", "read", "quit"): only the first tell the past by their form.
SAME_PASTS = frozenset(p for base, (pasts, _) in IRREGULAR.items() for p in pasts if p == base)
DISTINCT_PASTS = PASTS - SAME_PASTS


def past_of_base(base: str) -> str | None:
    """The simple past of an irregular verb's base ("sell" -> "sold"), its first form;
    None for a regular verb."""
    entry = IRREGULAR.get(base.lower())
    return entry[0][0] if entry else None
