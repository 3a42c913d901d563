"""`coordbot parse-date`: the date-range parser /ask uses, on its own.

``--language`` reads the phrase as /ask reads a question's date in that language (its
lexicon rewrites it in English date words first); without it, a phrase English does
not read is tried in each language that has a lexicon ("hace 2 semanas", "через неделю").
"""

from __future__ import annotations

import argparse
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.cli.common import CliError, clock, emit, read_batch, settings


def cmd_parse_date(args: argparse.Namespace) -> int:
    from app.core.ask.multilingual import english_words
    from app.nlp.date_lexicon import LEXICONS, speaks
    from app.nlp.date_ranges import parse_date_range

    tz = args.tz or settings().bot_timezone
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise CliError(f"--tz: '{tz}' is not an IANA time zone") from exc
    known = ("en", *LEXICONS)
    if args.language is not None and args.language not in known:
        raise CliError(f"--language: '{args.language}' is not one of {', '.join(known)}")
    languages = [args.language] if args.language else known  # English first
    now = clock(args.now).now()
    if args.batch:
        phrases = read_batch(args.batch)
    elif args.phrase:
        phrases = [args.phrase]
    else:
        raise CliError("give a PHRASE or --batch FILE")
    for phrase in phrases:
        found = None
        for language in languages:
            if language != "en" and not (args.language or speaks(phrase, language)):
                continue  # tried in a language only when it has words of that language
            english = english_words(phrase, language)
            if found := parse_date_range(english, now, tz, args.direction):
                break
        start = found.start.isoformat() if found and found.start else None
        end = found.end.isoformat() if found and found.end else None
        if args.json:
            emit({"phrase": phrase, "start": start, "end": end})
        elif found is None:
            print(f"{phrase}: no date found")
        else:
            print(f"{phrase}: [{start or '-inf'}, {end or '+inf'})")
    return 0


def register(sub: Any) -> None:
    parse = sub.add_parser("parse-date", help="the date-range parser /ask uses")
    parse.add_argument("phrase", nargs="?")
    parse.add_argument("--batch", metavar="FILE")
    parse.add_argument("--now", metavar="ISO8601")
    parse.add_argument("--tz", metavar="ZONE")
    parse.add_argument("--json", action="store_true")
    parse.add_argument(
        "--language",
        metavar="LANG",
        help="read the phrase in this language (en, es, ru, pt_BR); by default English, "
        "then each language with a lexicon",
    )
    parse.add_argument(
        "--direction",
        choices=("past", "future", "nearest"),
        default="nearest",
        help="how a year-less date or a bare weekday is read (default nearest)",
    )
    parse.set_defaults(func=cmd_parse_date)
