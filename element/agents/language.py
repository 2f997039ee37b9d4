"""Whether a turn is English enough for the rules (they read English only and would only
mangle another language): the script, and common English against foreign function words.
"""

from __future__ import annotations

import re

__all__ = ["is_english", "COMMON_WORDS"]

#: Common English words (function words and everyday ones).
COMMON_WORDS = _COMMON_EN = frozenset("""
the a an and or but to of in on at for with is are was were be been have has had do does
did i you he she it we they my your his her our their me him us them this that these those
not no so very just what when where who how why if then there here all some any can will
would could should about from up out like get got go went really also too am as well
last next new now one two first more most much many some still just only even back over
after before again then than because into off down through here yes no thanks good great
love time day week month year today work home make made know think want need see said
""".split())


#: Function words of the languages written in Latin letters English is most often mixed up
#: with (French, Spanish, German, Italian, Portuguese), none of them an English word: not
#: the ones spelt as one ("car", "ma", "ta", "soy", "um", "im" for "I'm"), which a texted
#: English turn has with few common words ("new car!! little red Mazda, obsessed" read as
#: French by its "car").
_FOREIGN = frozenset("""
le la les un une des du et est sont pas je tu il elle nous vous ils elles avec pour dans
sur au aux ce cette mon ma mes ton ta ses leur qui que quoi mais ou donc car très suis été
el los las unos unas del y pero muy yo él ella nosotros con para por su sus mi mis como
está estoy soy tengo der das dem ein eine einen einem einer und ist sind nicht ich du er
sie wir mit für auf aus bei nach von zu im habe auch sehr gestern meiner meine lo gli della
dei delle che non sono ho io lui lei noi voi loro molto anche os um uma não é são eu ele
nós vocês muito também
""".split()) - _COMMON_EN - frozenset("""
car ma ta ton con soy er im um lo yo ho os die sin pan son eu y
""".split())


def is_english(text: str) -> bool:
    """Whether ``text`` reads as English enough for the rules (short texts pass).

    Mostly non-Latin letters is not English; nor are three or more words with at least two
    function words of French, Spanish, German, Italian or Portuguese and no more common
    English words than those, or under a fifth of common English words and one such
    word. A short English turn of names and numbers ("Leo turned 5 yesterday!") is
    English: it has no foreign function word.
    """
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return True
    latin = sum(1 for c in letters if c.isascii())
    if latin / len(letters) < 0.7:
        return False
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
    if len(words) < 3:
        return True
    english = sum(1 for w in words if w in _COMMON_EN)
    foreign = sum(1 for w in words if w in _FOREIGN)
    if foreign >= 2 and foreign >= english:
        return False
    return english / len(words) >= 0.2 or foreign == 0
