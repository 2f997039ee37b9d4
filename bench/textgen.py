"""Deterministic generator of memory-like texts for benchmarks (templates x vocabulary).

Every text depends only on ``(seed, kind, index)``: memory ``i`` of a 100k corpus is the
same as memory ``i`` of a 1k corpus, so a corpus of ``n`` is the prefix of any larger one
and embeddings can be cached per index range. Python's ``random.Random`` seeded with a str
is stable across runs and machines (sha512 of the string), unlike ``hash()``.

Kinds:

- ``memory(i)``: ``{content, category, subject, context, intention}`` - content is one or
  two sentences (~8 to 30 words), context a 2 to 4 turn conversation window (<= 64 words),
  intention the goal of that turn (~5 to 12 words); 60% are about one of ``SUBJECTS``
  people, the rest general.
- ``query(i)``: ``{query, window, goal}`` - a question (~8 to 16 words), a window
  (<= 64 words) and a goal (~6 to 12 words) about the same vocabulary.

    from bench.textgen import TextGen
    gen = TextGen(seed=7)
    gen.memory(0)["content"]
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

GEN_VERSION = 1
SUBJECTS = 2000
SUBJECT_SHARE = 0.6
MAX_WINDOW_WORDS = 64

FIRST = """Ann Bob Carla Dmitri Elena Farid Greta Hiro Ines Jamal Kofi Lena Marco Nadia Omar
Priya Quentin Rosa Sven Tara Umar Vera Wei Ximena Yusuf Zoe Aiko Bruno Chloe Diego Emil Fatima
Gustav Hana Ivan Julia Kenji Leila Mateo Nora Oscar Paula Rafael Sofia Tomas Ursula Viktor
Wanda Xavier Yara Zain Amir Beatrix Caleb Daria Eitan Freya Gabriel Helga Idris Jonas Kira
Lucas Maya Nikolai Olga Pedro Rania Samir Tessa Uri Valentina Willem Yasmin Zeno Alma Bastian
Celine Dario Esme Felix Gianna Hugo Isla Joaquin Katya Levi Mira Nils Ophelia Pablo Renata
Silas Thea Ulrich Vivian Walter Yvonne Anouk Boris Cyrus Delia Enzo Flora Goran Hester Ilya
Jade Kasper Lorena Milo Naomi Otto Pilar Quinn Rufus Saskia Theo Una Vito Wren Alba Cosmo
Dalia Ezra Fiona Gideon Ada Ravi Sunita Tobias Mei Arjun Noor Kai Leon Ingrid Paolo""".split()
LAST = """Smith Okafor Rossi Novak Tanaka Haddad Lindqvist Moreau Costa Petrov Nguyen Schmidt
Kowalski Silva Dubois Jensen Mendes Yilmaz Fischer Ahmed Kim Larsen Weber Garcia Ivanova
Brennan Castillo Duarte Eriksen Fontaine Gallo Horvat Iqbal Jovanovic Keller Lopez Mancini
Nakamura Olsen Park Quispe Romero Sato Toth Ueda Vargas Wagner Xu Young Zielinski""".split()
RELATIONS = """sister brother mother father daughter son manager colleague neighbour cousin
partner flatmate mentor landlord dentist doctor coach teacher aunt uncle grandmother
grandfather boss assistant accountant""".split()
PLACES = """Lisbon Porto Madrid Seville Barcelona Lyon Marseille Paris Brussels Antwerp Utrecht
Amsterdam Hamburg Berlin Munich Vienna Prague Krakow Warsaw Vilnius Riga Tallinn Helsinki
Stockholm Oslo Copenhagen Aarhus Dublin Galway Edinburgh Glasgow Manchester Leeds Bristol
London Cardiff Reykjavik Zurich Geneva Milan Turin Bologna Florence Rome Naples Palermo
Athens Thessaloniki Istanbul Izmir Sofia Bucharest Budapest Zagreb Ljubljana Belgrade Tbilisi
Yerevan Cairo Tunis Marrakesh Lagos Accra Nairobi Kigali Addis-Ababa Johannesburg Cape-Town
Mumbai Pune Bangalore Chennai Delhi Kathmandu Colombo Dhaka Bangkok Hanoi Saigon Manila Jakarta
Singapore Kuala-Lumpur Taipei Seoul Busan Tokyo Osaka Kyoto Sapporo Shanghai Beijing Shenzhen
Sydney Melbourne Brisbane Perth Auckland Wellington Vancouver Toronto Montreal Quebec Boston
Chicago Denver Austin Seattle Portland Oakland Phoenix Atlanta Miami Havana Bogota Lima Quito
Santiago Valparaiso Mendoza Cordoba Montevideo Asuncion La-Paz Sao-Paulo Recife""".split()
FOODS = """ramen sushi tacos paella risotto lasagna pho curry dumplings falafel hummus shakshuka
goulash pierogi borscht ceviche empanadas arepas burritos pad-thai laksa bibimbap bulgogi
tempura udon soba okonomiyaki moussaka souvlaki spanakopita tagine couscous injera jollof
biryani dosa samosas paneer dal kimchi tofu tempeh quinoa sourdough bagels croissants crepes
waffles pancakes granola porridge muesli oatmeal lentil-soup minestrone gazpacho ratatouille
fondue raclette schnitzel bratwurst pretzels herring gravlax smorrebrod meatballs
fish-and-chips shepherds-pie haggis scones tiramisu baklava cheesecake brownies churros
gelato sorbet mochi flan""".split()
DRINKS = """espresso cappuccino flat-white oat-latte black-coffee green-tea matcha chai
earl-grey rooibos peppermint-tea hot-chocolate kombucha sparkling-water lemonade orange-juice
smoothies cola ginger-beer red-wine white-wine rose cider lager stout IPA whisky gin mezcal
sake""".split()
ADDITIVES = """lemon honey oat-milk almond-milk soy-milk no-sugar two-sugars cinnamon
cardamom ice extra-foam whole-milk a-splash-of-cream ginger mint""".split()
HOBBIES = """bouldering climbing running trail-running cycling swimming rowing sailing surfing
skiing snowboarding hiking birdwatching gardening knitting pottery woodworking painting
watercolours photography film-photography chess go bridge poker baking sourdough-baking
brewing beekeeping fishing archery fencing judo yoga pilates tango salsa choir piano violin
cello guitar drums jazz-piano podcasting blogging stargazing origami calligraphy
crossword-puzzles sudoku board-games video-games tabletop-roleplaying volunteering
marathon-training""".split()
JOBS = """nurse surgeon pharmacist teacher lecturer librarian architect civil-engineer
electrician plumber carpenter chef baker barista journalist editor translator lawyer
paralegal accountant auditor data-analyst data-scientist software-engineer site-reliability-engineer
product-manager designer illustrator photographer pilot flight-attendant bus-driver
courier farmer veterinarian dentist physiotherapist psychologist social-worker
police-officer firefighter paramedic musician actor researcher biologist chemist
geologist economist consultant recruiter sales-manager shop-owner florist""".split()
PETS = "dog cat parrot rabbit hamster tortoise goldfish ferret guinea-pig gecko horse".split()
PET_NAMES = """Biscuit Pepper Luna Milo Nala Oscar Pixel Mochi Rocket Ziggy Olive Waffles
Clementine Bean Juniper Pickles Socks Tofu Maple Ginger""".split()
MONTHS = """January February March April May June July August September October November
December""".split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
EVENTS = """birthday party wedding anniversary dinner team-offsite conference trip
hackathon retreat housewarming graduation reunion book-club concert marathon
board-meeting quarterly-review product-launch job-interview doctor's-appointment
parent-teacher-meeting""".split()
TOOLS = [t.strip() for t in """the VPN|the billing service|the staging cluster|the payroll
export|the CI pipeline|the analytics dashboard|the mail server|the backup job|the search
index|the mobile app|the customer portal|the inventory database|the print queue|the build
cache|the deployment script|the shared calendar|the password manager|the kubernetes
node|the ticketing system|the data warehouse""".replace("\n", " ").split("|")]
ACTIONS = [a.strip() for a in """restart|clear|flush|rotate the keys of|reindex|drain|
re-sync|roll back|re-authenticate|rebuild|back up|patch|update|check the logs of|
migrate|monitor|scale down|renew the certificate of""".replace("\n", " ").split("|")]
STEPS = """check the status page first|open a ticket with the on-call team|wait five minutes
before retrying|export the settings to a file|ask for approval in the ops channel|run the
smoke tests|take a snapshot|notify the customer success team|write a short incident note|
compare the checksums|disable the cron job|log out of every session|confirm with the
owner|update the runbook|archive the old version|verify the backups|pin the previous
version|clear the browser cache|reboot the router|call the vendor hotline""".replace(
    "\n", " ").split("|")
STEPS = [s.strip() for s in STEPS]
COLORS = """red blue green yellow purple orange teal navy maroon olive beige black white
grey pink turquoise""".split()
GENRES = """jazz blues techno house hip-hop classical opera folk bluegrass punk metal
indie-rock k-pop reggae afrobeat bossa-nova flamenco ambient synthwave country""".split()
SPORTS_TEAMS = """Benfica Ajax Celtic Boca-Juniors the-Lakers the-Yankees Bayern Napoli
Galatasaray Flamengo the-All-Blacks the-Warriors Barcelona Liverpool Juventus""".split()
ALLERGIES = """peanuts shellfish gluten lactose eggs soy sesame tree-nuts strawberries
penicillin cats pollen dust""".split()
LANGS = """Portuguese Spanish French German Italian Dutch Polish Greek Turkish Arabic Hindi
Japanese Korean Mandarin Swahili Finnish Icelandic Czech Hungarian Vietnamese""".split()
TIMES = """early in the morning|at lunch|in the afternoon|after work|late at night|on weekends|
before meetings|on Friday evenings|during long flights|on rainy days""".replace(
    "\n", " ").split("|")
TIMES = [t.strip() for t in TIMES]
SUBJECT_TYPES = ("guest", "circle_member", "entity")

CATEGORIES = ("fact", "preference", "procedure", "context", "correction")
CATEGORY_WEIGHTS = (0.35, 0.3, 0.12, 0.15, 0.08)


def _w(word: str) -> str:
    return word.replace("-", " ")


class _Draw:
    """One text's random choices, from a seeded stream."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def pick(self, seq: list[str] | tuple[str, ...]) -> str:
        return _w(self.r.choice(seq))

    def person(self) -> str:
        return f"{self.r.choice(FIRST)} {self.r.choice(LAST)}" if self.r.random() < 0.35 \
            else self.r.choice(FIRST)

    def year(self) -> int:
        return self.r.randint(1995, 2025)

    def date(self) -> str:
        return f"{self.r.randint(1, 28)} {self.r.choice(MONTHS)}"

    def hour(self) -> str:
        return f"{self.r.randint(7, 20)}:{self.r.choice(['00', '15', '30', '45'])}"


def _fact(d: _Draw, who: str) -> str:
    return d.r.choice([
        lambda: f"{who} works as a {d.pick(JOBS)} in {d.pick(PLACES)}.",
        lambda: f"{who}'s {d.pick(RELATIONS)} is called {d.person()} and lives in "
                f"{d.pick(PLACES)}.",
        lambda: f"{who} was born on {d.date()} {d.year()} in {d.pick(PLACES)}.",
        lambda: f"{who} has a {d.pick(PETS)} named {d.pick(PET_NAMES)}.",
        lambda: f"{who} moved to {d.pick(PLACES)} in {d.year()} to work as a {d.pick(JOBS)}.",
        lambda: f"{who} is allergic to {d.pick(ALLERGIES)}.",
        lambda: f"{who} speaks {d.pick(LANGS)} and is learning {d.pick(LANGS)}.",
        lambda: f"{who} supports {d.pick(SPORTS_TEAMS)} and watches every match with "
                f"their {d.pick(RELATIONS)}.",
        lambda: f"{who}'s {d.pick(EVENTS)} is on {d.date()} in {d.pick(PLACES)}.",
        lambda: f"{who} has been doing {d.pick(HOBBIES)} since {d.year()}.",
        lambda: f"{who} drives a {d.pick(COLORS)} car and parks it near the office on "
                f"{d.pick(WEEKDAYS)}s.",
        lambda: f"{who} owns {d.r.randint(2, 9)} {d.pick(PETS)}s and a small garden in "
                f"{d.pick(PLACES)}.",
    ])()


def _preference(d: _Draw, who: str) -> str:
    return d.r.choice([
        lambda: f"{who} prefers {d.pick(FOODS)} over {d.pick(FOODS)}.",
        lambda: f"{who} takes {d.pick(DRINKS)} with {d.pick(ADDITIVES)} {d.pick(TIMES)}.",
        lambda: f"{who} dislikes {d.pick(FOODS)} and never orders it.",
        lambda: f"{who} likes to listen to {d.pick(GENRES)} while working.",
        lambda: f"{who} would rather meet on {d.pick(WEEKDAYS)} than on "
                f"{d.pick(WEEKDAYS)}.",
        lambda: f"{who}'s favourite colour is {d.pick(COLORS)}.",
        lambda: f"{who} wants reminders {d.pick(TIMES)}, not by phone but by email.",
        lambda: f"{who} enjoys {d.pick(HOBBIES)} and {d.pick(HOBBIES)} {d.pick(TIMES)}.",
        lambda: f"For the {d.pick(EVENTS)}, {who} asked for {d.pick(FOODS)} and "
                f"{d.pick(DRINKS)}.",
        lambda: f"{who} prefers window seats and flies to {d.pick(PLACES)} in "
                f"{d.r.choice(MONTHS)}.",
    ])()


def _procedure(d: _Draw, who: str) -> str:
    tool = d.r.choice(TOOLS)
    return d.r.choice([
        lambda: f"To {d.r.choice(ACTIONS)} {tool}, {d.r.choice(STEPS)}, then "
                f"{d.r.choice(STEPS)}.",
        lambda: f"When {tool} fails, {d.r.choice(STEPS)} and {d.r.choice(STEPS)}; "
                f"{who} owns it.",
        lambda: f"Before the {d.pick(EVENTS)}, {d.r.choice(STEPS)} and then "
                f"{d.r.choice(ACTIONS)} {tool}.",
        lambda: f"{who} says: to {d.r.choice(ACTIONS)} {tool}, {d.r.choice(STEPS)} at "
                f"{d.hour()}.",
    ])()


def _context(d: _Draw, who: str) -> str:
    return d.r.choice([
        lambda: f"{who} is planning a trip to {d.pick(PLACES)} in {d.r.choice(MONTHS)} "
                f"with their {d.pick(RELATIONS)}.",
        lambda: f"{who} is preparing the {d.pick(EVENTS)} for {d.date()}.",
        lambda: f"{who} is busy with {d.r.choice(TOOLS)} this week and works from "
                f"{d.pick(PLACES)}.",
        lambda: f"{who} started a new job as a {d.pick(JOBS)} on {d.pick(WEEKDAYS)}.",
        lambda: f"{who} is training for a {d.pick(HOBBIES)} competition in "
                f"{d.pick(PLACES)}.",
    ])()


def _correction(d: _Draw, who: str) -> str:
    return d.r.choice([
        lambda: f"Correction: {who} lives in {d.pick(PLACES)}, not {d.pick(PLACES)}.",
        lambda: f"Correction: {who} is a {d.pick(JOBS)}, not a {d.pick(JOBS)}.",
        lambda: f"Correction: {who}'s birthday is {d.date()}, not {d.date()}.",
        lambda: f"Correction: {who} drinks {d.pick(DRINKS)}, not {d.pick(DRINKS)}.",
        lambda: f"Correction: the {d.pick(EVENTS)} moved to {d.pick(WEEKDAYS)} at "
                f"{d.hour()}.",
    ])()


_CONTENT = {"fact": _fact, "preference": _preference, "procedure": _procedure,
            "context": _context, "correction": _correction}

_USER_TURNS = [
    lambda d, w: f"I just got back from {d.pick(PLACES)} and I'm exhausted.",
    lambda d, w: f"Can you remind me what {w} said about the {d.pick(EVENTS)}?",
    lambda d, w: f"By the way, {w} really liked the {d.pick(FOODS)} last time.",
    lambda d, w: f"We need to sort out {d.r.choice(TOOLS)} before {d.pick(WEEKDAYS)}.",
    lambda d, w: f"My {d.pick(RELATIONS)} is visiting from {d.pick(PLACES)} next week.",
    lambda d, w: f"I'm thinking of taking up {d.pick(HOBBIES)} again.",
    lambda d, w: f"Let's book a table somewhere that serves {d.pick(FOODS)}.",
    lambda d, w: f"{w} called about the {d.pick(EVENTS)} on {d.date()}.",
    lambda d, w: f"Did anyone fix {d.r.choice(TOOLS)} yet? It broke again at {d.hour()}.",
    lambda d, w: f"Please note that {w} can't have {d.pick(ALLERGIES)}.",
    lambda d, w: f"I'd like a {d.pick(DRINKS)}, the usual way.",
    lambda d, w: f"{w} is now working as a {d.pick(JOBS)}, isn't that great?",
]
_ASSISTANT_TURNS = [
    lambda d, w: f"Noted, I'll keep that in mind for {w}.",
    lambda d, w: f"Sure, shall I add the {d.pick(EVENTS)} to the calendar for {d.date()}?",
    lambda d, w: f"Last time you mentioned {d.pick(PLACES)}; is that still the plan?",
    lambda d, w: f"I can look up places serving {d.pick(FOODS)} near {d.pick(PLACES)}.",
    lambda d, w: f"The runbook says to {d.r.choice(STEPS)} first.",
    lambda d, w: f"Got it. Do you want a reminder {d.pick(TIMES)}?",
    lambda d, w: f"Understood, {d.pick(HOBBIES)} it is. Any gear you need?",
    lambda d, w: f"I'll tell {w} that you asked.",
]

_INTENTIONS = [
    lambda d, w: f"learn {w}'s food preferences for the {d.pick(EVENTS)}",
    lambda d, w: f"help {w} plan the trip to {d.pick(PLACES)}",
    lambda d, w: f"remember how to {d.r.choice(ACTIONS)} {d.r.choice(TOOLS)}",
    lambda d, w: f"keep track of {w}'s family and friends",
    lambda d, w: f"avoid serving {d.pick(ALLERGIES)} to {w}",
    lambda d, w: f"suggest a {d.pick(DRINKS)} that {w} will enjoy",
    lambda d, w: f"organise the {d.pick(EVENTS)} on {d.pick(WEEKDAYS)}",
    lambda d, w: f"update what we know about {w}'s job as a {d.pick(JOBS)}",
    lambda d, w: f"recommend {d.pick(HOBBIES)} groups near {d.pick(PLACES)} for {w}",
    lambda d, w: f"fix the wrong detail we had about {w}",
    lambda d, w: f"schedule meetings with {w} at a good time",
    lambda d, w: f"answer {w}'s question about {d.r.choice(TOOLS)} quickly",
]

_QUESTIONS = [
    lambda d, w: f"What does {w} usually like to drink {d.pick(TIMES)}?",
    lambda d, w: f"Where did {w} move after working as a {d.pick(JOBS)}?",
    lambda d, w: f"Which food should we avoid ordering for {w} at the {d.pick(EVENTS)}?",
    lambda d, w: f"How do we {d.r.choice(ACTIONS)} {d.r.choice(TOOLS)} when it fails again?",
    lambda d, w: f"When is {w}'s {d.pick(EVENTS)} and where will it take place?",
    lambda d, w: f"What is the name of {w}'s {d.pick(PETS)} and how old is it?",
    lambda d, w: f"Who is {w}'s {d.pick(RELATIONS)} and where do they live now?",
    lambda d, w: f"Does {w} still do {d.pick(HOBBIES)} on weekends or did they stop?",
    lambda d, w: f"Which languages does {w} speak, and is it {d.pick(LANGS)}?",
    lambda d, w: f"Is {w} allergic to anything like {d.pick(ALLERGIES)} or {d.pick(ALLERGIES)}?",
    lambda d, w: f"What kind of music does {w} listen to while working in {d.pick(PLACES)}?",
    lambda d, w: f"Which day of the week does {w} prefer for meetings about {d.pick(EVENTS)}s?",
]


def _window(d: _Draw, who: str, turns: int) -> str:
    out: list[str] = []
    for t in range(turns):
        pool = _USER_TURNS if t % 2 == 0 else _ASSISTANT_TURNS
        speaker = "User" if t % 2 == 0 else "Assistant"
        out.append(f"{speaker}: {d.r.choice(pool)(d, who)}")
    words = " ".join(out).split()
    return " ".join(words[:MAX_WINDOW_WORDS])


def _intention(d: _Draw, who: str) -> str:
    text = d.r.choice(_INTENTIONS)(d, who)
    roll = d.r.random()
    if roll < 0.2:
        text += f" before {d.date()}"
    elif roll < 0.4:
        text += f" this {d.r.choice(WEEKDAYS)}"
    elif roll < 0.5:
        text += f" {d.pick(TIMES)}"
    return text


class TextGen:
    """Deterministic memories and queries; see the module docstring."""

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed

    def _draw(self, kind: str, index: int) -> _Draw:
        return _Draw(random.Random(f"triform-bench:v{GEN_VERSION}:{self.seed}:{kind}:{index}"))

    def subject(self, d: _Draw) -> tuple[str, str, str] | None:
        """(subject_type, subject_id, display name) or None for a general memory."""
        if d.r.random() >= SUBJECT_SHARE:
            return None
        k = d.r.randrange(SUBJECTS)
        name = f"{FIRST[k % len(FIRST)]} {LAST[(k // len(FIRST)) % len(LAST)]}"
        return SUBJECT_TYPES[k % len(SUBJECT_TYPES)], f"s{k:04d}", name

    def memory(self, index: int, kind: str = "memory") -> dict[str, Any]:
        d = self._draw(kind, index)
        subject = self.subject(d)
        who = subject[2].split()[0] if subject and d.r.random() < 0.5 else (
            subject[2] if subject else d.person())
        category = d.r.choices(CATEGORIES, weights=CATEGORY_WEIGHTS)[0]
        content = _CONTENT[category](d, who)
        if d.r.random() < 0.45:   # a second sentence for some variety in length
            content += " " + _CONTENT[d.r.choice(CATEGORIES)](d, who)
        return {
            "content": content,
            "category": category,
            "subject_type": subject[0] if subject else None,
            "subject_id": subject[1] if subject else None,
            "context": _window(d, who, d.r.randint(2, 4)),
            "intention": _intention(d, who),
        }

    def query(self, index: int, kind: str = "query") -> dict[str, Any]:
        d = self._draw(kind, index)
        subject = self.subject(d) or (SUBJECT_TYPES[0], "s0000", FIRST[0] + " " + LAST[0])
        who = subject[2].split()[0] if d.r.random() < 0.6 else subject[2]
        return {
            "query": d.r.choice(_QUESTIONS)(d, who),
            "window": _window(d, who, d.r.randint(2, 5)),
            "goal": _intention(d, who),
        }

    def memories(self, start: int, stop: int, kind: str = "memory") -> list[dict[str, Any]]:
        return [self.memory(i, kind) for i in range(start, stop)]

    def queries(self, start: int, stop: int, kind: str = "query") -> list[dict[str, Any]]:
        return [self.query(i, kind) for i in range(start, stop)]


def digest(items: list[dict[str, Any]]) -> str:
    """A short hash of generated items (invalidates caches when the generator changes)."""
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


if __name__ == "__main__":   # a peek at the texts
    import sys
    g = TextGen(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    for i in range(5):
        print(json.dumps(g.memory(i), indent=1))
    for i in range(3):
        print(json.dumps(g.query(i), indent=1))
