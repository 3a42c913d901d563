"""Languages: gettext catalogs (app/locales) and the per-member translator."""

from app.i18n.catalogs import PSEUDO, SOURCE_LANGUAGE, available_languages, normalize
from app.i18n.translator import Translator, translator

__all__ = [
    "PSEUDO",
    "SOURCE_LANGUAGE",
    "Translator",
    "available_languages",
    "normalize",
    "translator",
]
