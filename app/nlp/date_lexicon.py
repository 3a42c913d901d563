"""Date and duration phrases in Spanish, Russian and Portuguese, rewritten in English.

The English readers (``dates`` for deadlines, ``date_ranges`` for questions) know every
form we support; rather than a second grammar per language, a phrase is rewritten word
by word into the English those readers understand: "próximo viernes a las 17h" ->
"next friday at 17:00", "через 2 недели" -> "in 2 weeks", "sexta que vem às 17h" ->
"next friday at 17:00". Russian words are matched by their stems, so every case
ending reads the same ("пятница", "пятницу", "пятницы"). Adding a language is adding a
table here; nothing else changes.

Chat shorthand is one more such table, for English ("tmrw", "nxt wk", "eow"): the
readers try a phrase as written first and spelt out second, so a phrase they already
read never changes; ``spell_out`` keeps where each word came from, so a question's
shorthand can be cut out of it as the member wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Rule = tuple[str, str]

_WEEKDAYS_ES = ["lunes", "martes", "mi[eé]rcoles", "jueves", "viernes", "s[aá]bado", "domingo"]
_WEEKDAYS_PT = ["segunda", "ter[cç]a", "quarta", "quinta", "sexta", "s[aá]bado", "domingo"]
_WEEKDAYS_RU = ["понедельник", "вторник", "сред", "четверг", "пятниц", "суббот", "воскресень"]
_MONTHS_ES = (
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
)
_MONTHS_PT = (
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro"
)
_MONTHS_RU = "январ феврал март апрел ма июн июл август сентябр октябр ноябр декабр"
_EN_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_EN_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _words(names: list[str], english: list[str], suffix: str = r"\b") -> list[Rule]:
    return [(rf"\b{name}{suffix}", en) for name, en in zip(names, english, strict=True)]


_NUMBERS_ES = {"un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5,
               "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10}  # fmt: skip
_NUMBERS_PT = {"um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4,
               "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10}  # fmt: skip
_NUMBERS_RU = {"одну": 1, "один": 1, "одна": 1, "два": 2, "две": 2, "три": 3,
               "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9,
               "десять": 10}  # fmt: skip


def _numbers(table: dict[str, int]) -> list[Rule]:
    return [(rf"\b{word}\b", str(value)) for word, value in table.items()]


def _plural_weekdays(lead: str, names: list[str], suffix: str) -> list[Rule]:
    """ "los martes", "às terças", "по вторникам": a weekday that recurs ("on tuesdays")."""
    return [
        (rf"\b{lead} {name}{suffix}", f"on {en}s")
        for name, en in zip(names, _EN_WEEKDAYS, strict=True)
    ]


_WD_ES = "|".join(_WEEKDAYS_ES)
_WD_PT = "|".join(_WEEKDAYS_PT)


# Times first ("17h30", "18 h", "às 18h"), then phrases whose word order differs from
# English, then single words. Each rule is (pattern, replacement) on lowercased text.
_TIME: list[Rule] = [
    (r"\b(\d{1,2})\s?h\s?(\d\d)\b", r"\1:\2"),
    (r"\b(\d{1,2})\s?h\b", r"\1:00"),
    (r"\b(\d{1,2})º", r"\1"),
]

SPANISH: list[Rule] = [
    *_TIME,
    (r"\bpasado mañana\b", "in 2 days"),
    (r"\banteayer\b", "2 days ago"),
    (r"\b(?:(?:en )?(?:el|la|los|las) )?[uú]ltim[oa]s?\b", "the last"),
    (r"\bdel (\d{1,2}) al (?=\d)", r"from \1 to "),
    (r"\b(?:a )?(?:principios|comienzos|inicios) del?\b", "early"),
    (r"\b(?:a )?mediados del?\b", "mid"),
    (r"\b(?:a )?finales del?\b", "late"),
    (r"\bmañana\b", "tomorrow"),
    (r"\bhoy\b", "today"),
    (r"\bayer\b", "yesterday"),
    (r"\bfin(?:al)? de(?:l)? mes\b", "end of the month"),
    (r"\bfin(?:al)? de(?:l)? año\b", "end of the year"),
    (r"\bfin(?:al)? de la semana\b", "end of the week"),
    (r"\bfin(?:al)? de semana\b|\bfinde\b", "weekend"),  # the weekend, not the week's end
    *_plural_weekdays("los", [*_WEEKDAYS_ES[:5], "s[aá]bados", "domingos"], r"\b"),
    (r"\b(?:el |la )?siguiente (\w+)|\b(?:el |la )?(\w+) siguiente\b", r"the following \1\2"),
    (r"\b(\w+) que viene\b", r"next \1"),
    (r"\b(semana|mes|año) pasad[oa]\b", r"last \1"),
    (r"\b(\w+) pasad[oa]\b", r"last \1"),
    (r"\b(?:el |la )?pr[oó]xim[oa]\b", "next"),
    (rf"\best[ea] (?=semana|mes|año|weekend|{_WD_ES}|\d)", "this "),
    (r"\b(?:dentro de|de aqu[ií] a|en)\b", "in"),
    (r"\bhace (\w+ \w+)", r"\1 ago"),
    (r"\batr[aá]s\b", "ago"),  # "2 semanas atrás"
    (r"\bahora\b", "now"),
    (r"\bentre\b", "between"),
    (r"\ba las\b|\ba la\b", "at"),
    (r"\bantes del?\b", "by"),
    (r"\bhasta (?:el )?", "until "),
    (r"\bdesde (?:el )?", "since "),
    (r"\b(?:d[ií]as?)\b", "days"),
    (r"\bsemanas?\b", "weeks"),
    (r"\bhoras?\b", "hours"),
    (r"\bminutos?\b", "minutes"),
    (r"\bmes(?:es)?\b", "months"),
    (r"\btrimestres?\b", "quarters"),
    (r"\baños?\b", "years"),
    (r"\by\b", "and"),
    *_words(_WEEKDAYS_ES, _EN_WEEKDAYS),
    *_words(_MONTHS_ES.split(), _EN_MONTHS),
    *_numbers(_NUMBERS_ES),
    (r"\b(\d{1,2}) de (\w+)", r"\1 \2"),
    (r"\b(?:el|la|los|las|del|de)\b", ""),
]

PORTUGUESE: list[Rule] = [
    *_TIME,
    (r"\bdepois de amanhã\b", "in 2 days"),
    (r"\banteontem\b", "2 days ago"),
    (r"\b(?:(?:n?[oa]s?) )?[uú]ltim[oa]s?\b", "the last"),
    (r"\bde (\d{1,2}) a (?=\d)", r"from \1 to "),
    (r"\bamanhã\b", "tomorrow"),
    (r"\bhoje\b", "today"),
    (r"\bontem\b", "yesterday"),
    (r"\bfi(?:m|nal) do mês\b", "end of the month"),
    (r"\bfi(?:m|nal) do ano\b", "end of the year"),
    (r"\bfi(?:m|nal) da semana\b", "end of the week"),
    (r"\bfi(?:m|nal) de semana\b|\bfds\b", "weekend"),  # the weekend, not the week's end
    (r"\b(?:n?o )?(?:in[ií]cio|come[cç]o) d[eoa]\b", "beginning of"),
    (r"\b(?:em )?meados d[eoa]\b", "mid"),
    (r"\b(?:n?o )?fi(?:m|nal) d[eoa]\b", "end of"),
    *_plural_weekdays("(?:[àa]s|nas|aos|nos)", _WEEKDAYS_PT, r"s(?:-feiras)?\b"),
    (r"-feira\b", ""),
    (r"\b(?:n?[oa] )?(\w+) seguinte\b", r"the following \1"),
    (r"\b(\w+) que vem\b", r"next \1"),
    (r"\b(semana|mês|ano) passad[oa]\b", r"last \1"),
    (r"\b(\w+) passad[oa]\b", r"last \1"),
    (r"\b(?:o |a )?pr[oó]xim[oa]\b", "next"),
    (rf"\b(?:n?ess?[ea]|n?est[ea]) (?=semana|mês|ano|weekend|{_WD_PT}|\d)", "this "),
    (r"\b(?:daqui a|dentro de|em)\b", "in"),
    (r"\bhá (\w+ \w+)", r"\1 ago"),
    (r"\batr[aá]s\b", "ago"),  # "3 dias atrás"
    (r"\bagora\b", "now"),
    (r"\bentre\b", "between"),
    (r"\bàs\b|\bà\b|\bas\b", "at"),
    (r"\bantes d[eoa]s?\b", "by"),
    (r"\baté (?:o |a )?", "until "),
    (r"\bdesde (?:o |a )?", "since "),
    (r"\bdias?\b", "days"),
    (r"\bsemanas?\b", "weeks"),
    (r"\bhoras?\b", "hours"),
    (r"\bminutos?\b", "minutes"),
    (r"\bm[eê]s(?:es)?\b", "months"),
    (r"\btrimestres?\b", "quarters"),
    (r"\banos?\b", "years"),
    (r"\be\b", "and"),
    *_words(_WEEKDAYS_PT, _EN_WEEKDAYS),
    *_words(_MONTHS_PT.split(), _EN_MONTHS),
    *_numbers(_NUMBERS_PT),
    (r"\b(\d{1,2}) de (\w+)", r"\1 \2"),
    (r"\b(?:o|a|os|as|do|da|de|no|na)\b", ""),
]

RUSSIAN: list[Rule] = [
    (r"\b(\d{1,2}) ?ч\b", r"\1:00"),
    *_TIME,
    (r"\bпослезавтра\b", "in 2 days"),
    (r"\bпозавчера\b", "2 days ago"),
    (r"\bзавтра\b", "tomorrow"),
    (r"\bсегодня\b", "today"),
    (r"\bвчера\b", "yesterday"),
    (r"\bконц\w* месяца\b|\bконец месяца\b", "end of the month"),
    (r"\bконц\w* года\b|\bконец года\b", "end of the year"),
    (r"\bконц\w* недели\b|\bконец недели\b", "end of the week"),
    (r"\bвыходн\w*\b|\bвыхи\b", "weekend"),
    *_plural_weekdays("по", _WEEKDAYS_RU, r"(?:ам|ям)\b"),
    (r"\bс (\S+) по\b", r"from \1 to"),  # "с 1 по 15 ноября", "с понедельника по пятницу"
    (r"\bначал[еоа]\b", "beginning of"),
    (r"\bсередин[еау]\b", "middle of"),
    (r"\bконц[еа]\b|\bконец\b", "end of"),
    (r"\b(?:с|от) (?:этого|текущего) момента\b|\bотныне\b", "since now"),
    (r"\bсейчас\b", "now"),
    (r"\bмежду\b", "between"),
    (r"\bза последн\w*\b", "over the past"),
    (r"\bпоследн\w*\b", "last"),
    (r"\bследующ\w*\b", "next"),
    (r"\bпрошл\w*\b|\bпрошедш\w*\b", "last"),
    (r"\bэт\w*\b", "this"),
    (r"\bчерез\b", "in"),
    (r"\b(\S+ \S+) назад\b", r"\1 ago"),
    (r"\bназад\b", "ago"),  # "неделю назад"
    (r"\bдо\b", "until"),
    (r"\bс\b", "since"),
    (r"\bдн(?:я|ей)\b|\bдень\b|\bсутки\b|\bсуток\b", "days"),
    (r"\bнедел\w*\b", "weeks"),
    (r"\bчас(?:а|ов)?\b", "hours"),
    (r"\bминут\w*\b", "minutes"),
    (r"\bмесяц\w*\b", "months"),
    (r"\bгод(?:а|у|ом)?\b|\bлет\b", "years"),
    (r"\bквартал\w*\b", "quarters"),
    (r"\bи\b", "and"),
    *_words(_WEEKDAYS_RU, _EN_WEEKDAYS, r"\w*"),
    *_words(_MONTHS_RU.split(), _EN_MONTHS, r"(?:ь|я|е|ю|й|а|т|та|те|ом|ем|ём|том)?\b"),
    *_numbers(_NUMBERS_RU),
    (r"\b(?:в|во|на|к)\b", ""),
]

LEXICONS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    language: [(re.compile(pattern), replacement) for pattern, replacement in rules]
    for language, rules in (("es", SPANISH), ("pt_BR", PORTUGUESE), ("ru", RUSSIAN))
}
# After "this"/"next"/"last", the English readers want the unit in the singular.
_SINGULAR = re.compile(r"\b(this|next|last|following|past) (week|month|quarter|year|day)s\b")


def speaks(text: str, language: str) -> bool:
    """Whether a word of ``text`` is in ``language``'s lexicon ("hace", "через")."""
    said = text.lower()
    return any(pattern.search(said) for pattern, _ in LEXICONS.get(language, ()))


def _one_ago(found: re.Match[str]) -> str:
    """ "неделю назад": a unit with no number before it, counted back, is one of it."""
    before = found.string[: found.start()].split()
    counted = before and (before[-1].isdigit() or before[-1] in ("a", "an", *_EN_NUMBERS))
    return found.group(0) if counted else f"1 {found.group(0)}"


_EN_NUMBERS = "one two three four five six seven eight nine ten eleven twelve".split()


def to_english(text: str, language: str) -> str:
    """``text`` rewritten in English date words for ``language``'s lexicon; English and
    languages without a lexicon come back as they are."""
    rules = LEXICONS.get(language)
    if rules is None:
        return text
    said = text.lower().strip()
    for pattern, replacement in rules:
        said = pattern.sub(replacement, said)
    said = _SINGULAR.sub(r"\1 \2", said)
    said = re.sub(r"\bnext (\d+) (\w+)", r"in \1 \2", said)
    said = re.sub(r"\bat (\d{1,2})\b(?![:.]\d)", r"at \1:00", said)  # "a las 9"
    said = re.sub(r"^(\w+) (\d{1,2}:\d\d)$", r"\1 at \2", said)  # "завтра в 18:00"
    # "через неделю", "em uma semana", "месяц": a unit without a number is one of it.
    said = re.sub(r"^(weeks|days|hours|minutes|months|years)$", r"1 \1", said)
    said = re.sub(r"\bin (weeks|days|hours|minutes|months|years)\b", r"in 1 \1", said)
    said = re.sub(r"(?:^|(?<= ))(weeks|days|hours|minutes|months|years) ago\b", _one_ago, said)
    # "el fin de semana", "на выходных": a weekend with no "this"/"next" is "the weekend"
    said = re.sub(r"(?<!\bthis )(?<!\bnext )(?<!\blast )(?<!\bthe )(?<!following )\bweekend\b",
                  "the weekend", said)  # fmt: skip
    return " ".join(said.replace(" ,", ",").split())


# --- chat shorthand --------------------------------------------------------------------

# Words members abbreviate in chat, spelt out. "eod" is the end of today. Shorthand with a
# digit in it ("2day", "2moro", "b4") is spelt out before a phrase is read at all
# (``spell_out_digits``): dateparser would count with its digit ("2day" as two days).
_CHAT = {
    "tomorrow": "tmrw tmr tmw tmrow tmoro tmorrow tomoz 2moro 2morro 2morrow 2morow 2mrw 2mro",
    "today": "tdy 2day",
    "yesterday": "yday yest ystday ystrdy",
    "next": "nxt",
    "last": "lst",
    "previous": "prev",
    "wednesday": "weds",
    "week": "wk",
    "weeks": "wks",
    "weekend": "wknd wkend",
    "month": "mo mth mnth",
    "months": "mos mths mnths",
    "year": "yr",
    "years": "yrs",
    "hour": "hr",
    "hours": "hrs",
    "before": "b4",
    "end of today": "eod",
    "end of the week": "eow",
    "end of the month": "eom",
    "end of the year": "eoy",
    "end of next week": "eonw",
    "end of next month": "eonm",
}
CHAT_WORDS = {short: word for word, shorts in _CHAT.items() for short in shorts.split()}

# Phrases said another way than the readers' forms, each rewritten in those forms: a
# fortnight is 2 weeks, a couple 2 and a few 3 of a unit; "this past Friday" is "last
# Friday", "this past week" "the past week"; "the day before yesterday" is "2 days ago";
# "so far this year", "year to date" are "earlier this year"; "from now on" is "since
# now". Like the shorthand, they are tried only when the phrase as written reads nothing.
_UNIT_S = r"(?= (?:minute|hour|day|week|month|year)s\b)"
_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_PERIODS = ("week", "month", "year")
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday weekend".split()
_COUNTED = rf"(?:\d+|an?|{_NUMBER_WORDS}) (?:minute|hour|day|week|month|year)s?"
SAID_OTHERWISE: list[tuple[str, str]] = [
    (r"(?:an? |one )?fortnight(?!ly|s)", "2 weeks"),
    (r"((?:minute|hour|day|week|month|year)s?) back", r"\1 ago"),  # "two weeks back"
    (rf"(?:newer|younger) than ({_COUNTED})(?: old)?", r"less than \1 old"),
    (r"((?:last|past|next) \d+) ?h", r"\1 hours"),  # "last 24h"
    (r"(\d+) ?h ago", r"\1 hours ago"),
    (r"tonight|this (?:morning|afternoon|evening)", "today"),  # a part of a day: that day
    (r"last night", "yesterday"),
    (rf"(?:a )?couple(?: of)?{_UNIT_S}", "2"),
    (rf"(?:a )?few{_UNIT_S}", "3"),
    (r"(?:the )?day before yesterday", "2 days ago"),
    (r"(?:the )?day after tomorrow", "in 2 days"),
    (r"from now on", "since now"),
    (r"ever since", "since"),
    (r"ytd", "earlier this year"),
    (r"mtd", "earlier this month"),
    *((rf"this past {p}", f"the past {p}") for p in _PERIODS),
    *((rf"this past {d}", f"last {d}") for d in _WEEKDAYS),
    *((rf"so far this {p}|this {p} so far|{p}[- ]to[- ]date", f"earlier this {p}")
      for p in _PERIODS),
]  # fmt: skip
_RE_CHAT_WORD = re.compile(rf"(?<![\w'-])(?:{'|'.join(CHAT_WORDS)})(?![\w'-])", re.I)


def _or_shorthand(pattern: str) -> str:
    """``pattern`` with each word that has shorthand also matching it: "day after
    tomorrow" matches "day after tmrw" too."""
    for word in sorted({w for w in CHAT_WORDS.values() if " " not in w}, key=len, reverse=True):
        shorts = [re.escape(s) for s, spelt in CHAT_WORDS.items() if spelt == word]
        pattern = re.sub(rf"(?<![a-z]){word}(?![a-z])", f"(?:{word}|{'|'.join(shorts)})", pattern)
    return pattern


# A phrase said otherwise is tried before the shorthand in it, at the same place, so
# "2 wks back" is "2 weeks ago", not "2 weeks back".
_SAID = [re.compile(rf"\b(?:{_or_shorthand(p)})\b", re.I) for p, _ in SAID_OTHERWISE]
_RULES = [(f"said{i}", said.pattern) for i, said in enumerate(_SAID)]
_RULES += [("chat", _RE_CHAT_WORD.pattern)]
_RE_CHAT = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _RULES), re.I)


def _chat_word(found: re.Match[str]) -> str:
    return CHAT_WORDS[found.group(0).lower()]


def _spelt(found: re.Match[str]) -> str:
    if found.lastgroup == "chat":
        return _chat_word(found)
    i = int((found.lastgroup or "said0")[4:])
    said = _SAID[i].match(found.string, found.start())
    written = said.expand(SAID_OTHERWISE[i][1]) if said else SAID_OTHERWISE[i][1]
    return _RE_CHAT_WORD.sub(_chat_word, written)  # "2 wks back": "2 weeks ago"


def spell_out_digits(text: str) -> str:
    """``text`` with the shorthand that has a digit in it spelt out ("2day", "b4")."""
    return _RE_CHAT_WORD.sub(
        lambda m: _chat_word(m) if any(c.isdigit() for c in m.group(0)) else m.group(0), text
    )


@dataclass(frozen=True)
class SpeltOut:
    """A text with its chat shorthand spelt out, and where each spelt-out word was:
    ``pieces`` holds (start, end) in the original and (start, end) in ``text``."""

    original: str
    text: str
    pieces: tuple[tuple[int, int, int, int], ...]

    def span_in_original(self, start: int, end: int) -> tuple[int, int]:
        """Where ``text[start:end]`` was written: a piece cut in two counts whole."""
        return self._position(start, False), self._position(end, True)

    def _position(self, at: int, is_end: bool) -> int:
        shift = 0
        for old_start, old_end, new_start, new_end in self.pieces:
            if at < new_start or (at == new_start and is_end):
                return at - shift
            if at < new_end or (at == new_end and is_end):
                return old_end if is_end else old_start
            shift = new_end - old_end
        return at - shift


def spell_out(text: str) -> SpeltOut:
    """ "what's due tmrw?" -> "what's due tomorrow?", keeping where "tmrw" was; phrases
    said otherwise ("a fortnight ago" -> "2 weeks ago") likewise."""
    pieces: list[tuple[int, int, int, int]] = []
    parts: list[str] = []
    last = 0
    for found in _RE_CHAT.finditer(text):
        parts.append(text[last : found.start()])
        start = sum(map(len, parts))
        word = _spelt(found)
        parts.append(word)
        pieces.append((found.start(), found.end(), start, start + len(word)))
        last = found.end()
    parts.append(text[last:])
    return SpeltOut(text, "".join(parts), tuple(pieces))


# --- a deadline counted ahead ----------------------------------------------------------

# "from now until <phrase>" in each language, in words its lexicon reads back: a question
# about what closes "in 2 weeks" means every deadline from now until that day.
_FROM_NOW_UNTIL = {
    "en": "from now until {}",
    "es": "desde ahora hasta {}",
    "pt_BR": "desde agora até {}",
    "ru": "с этого момента до {}",
}


def from_now_until(phrase: str, language: str) -> str:
    """``phrase`` (a day counted ahead: "in 2 weeks", "через неделю") as the window from
    now until that day, written in ``language``."""
    return _FROM_NOW_UNTIL.get(language, _FROM_NOW_UNTIL["en"]).format(phrase)
