"""Spanish cues for reading /ask questions."""

from app.core.ask.cues import NAME, Cues

_PROPOSAL_NOUNS = r"(?:propuestas?|encuestas?|ideas?|votaci(?:ón|ones)|iniciativas?|sugerencias?)"
_MADE = r"(?:propuest[oa]s?|cread[oa]s?|hech[oa]s?|presentad[oa]s?|iniciad[oa]s?|publicad[oa]s?)"

CUES = Cues(
    language="es",
    markers="ñ¿¡",
    stopwords=frozenset(
        """
        el la los las lo un una unos unas de del al a ante con contra en entre hacia hasta
        para por según sin sobre tras y ni que qué quien quién quienes quiénes cual
        cuál cuales cuáles cuando cuándo donde dónde como cómo cuanto cuánto cuanta cuánta
        cuantos cuántos cuantas cuántas es son fue fueron ser está están estaba estaban
        estar hay había ha han he has se me te le les nos mi mis tu tus su sus yo tú él ella
        ellos ellas nosotros este esta estos estas ese esa esos esas eso esto aquel algo
        alguna alguno algunas algunos alguien todo toda todos todas muy más menos ya aún
        todavía también no sí si pero porque puedo puede pueden podemos dime dame muestra
        muéstrame mostrar lista listar enumera busca buscar encuentra ver quiero saber hay
        acerca tema temas respecto relacionado relacionadas relacionados cosa cosas sobre
        tiene tienen tenemos cuáles qué
        """.split()
    ),
    proposal_words=(
        r"propuestas?|propon\w*|propus\w*|propuso|votaci(?:ón|ones)|votos?|votar|votad[oa]s?|"
        r"encuestas?|sondeos?|iniciativas?|sugerencias?|ideas?|decisi(?:ón|ones)|plazos?|"
        r"fechas? l[ií]mite|decidi\w*|decid[eo]n?"
    ),
    doc_words=(
        r"pol[ií]ticas?|reglas?|normas?|reglamentos?|gu[ií]as?|manual(?:es)?|documentos?|"
        r"procedimientos?|instrucciones|preguntas frecuentes|c[oó]mo (?:se|puedo|podemos|debo|"
        r"funciona\w*|hago)|cu[aá]l es el proceso"
    ),
    how_to=r"^\W*c[oó]mo (?:se|puedo|podemos|debo|debemos|hago|hacemos|funciona\w*)\b",
    question_openers=(
        r"^\W*(?:qui[eé]n(?:es)?|qu[eé]|d[oó]nde|cu[aá]ndo|cu[aá]l(?:es)?|cu[aá]nt[oa]s?)\b"
    ),
    who=r"^\W*qui[eé]n(?:es)?\b",
    cancelled=r"cancelad[oa]s?|anulad[oa]s?|retirad[oa]s?|suspendid[oa]s?",
    open=(
        r"abiert[oa]s?|activ[oa]s?|en curso|vigentes?|pendientes?|sin cerrar|"
        r"(?:todav[ií]a |a[uú]n )?(?:puedo|podemos|se puede) votar|ahora mismo|en este momento"
    ),
    closed=(
        r"cerrad[oa]s?|terminad[oa]s?|finalizad[oa]s?|conclu[ií]d[oa]s?|acabad[oa]s?|"
        r"decidid[oa]s?|resultados?|aprobad[oa]s?|rechazad[oa]s?|vencid[oa]s?|expirad[oa]s?|"
        # the verbs of closing, as "closed" in English: "¿qué propuestas cerraron ayer?"
        r"cerr[oó]|cerraron|termin[oó]|terminaron|finaliz[oó]|finalizaron|conclu(?:y[oó]|yeron)|"
        r"(?:acab[oó]|acabaron)(?!\s+de\b)|venci[oó]|vencieron|expir[oó]|expiraron"
    ),
    free_form=(
        r"respuesta (?:libre|abierta)|texto libre|formato libre|forma libre|lluvia de ideas|"
        r"ideas|sugerencias"
    ),
    multiple_choice=(
        r"opci[oó]n m[uú]ltiple|selecci[oó]n m[uú]ltiple|varias opciones|encuestas?|opciones|"
        r"s[ií]/no"
    ),
    creation_words=(
        r"cread[oa]s?|cre[oó]|crearon|propus\w*|propuso|hech[oa]s?|iniciad[oa]s?|"
        r"publicad[oa]s?|lanzad[oa]s?|nuev[oa]s?|a[nñ]adid[oa]s?|presentad[oa]s?|subid[oa]s?"
    ),
    deadline_words=(
        r"cierra\w*|cerrar\w*|cierre|cerrad[oa]s?|cerr[oó]|cerraron|vence\w*|vencimiento|"
        r"vencid[oa]s?|venci[oó]|termina\w*|termin[oó]|acaba\w*|acab[oó]|finaliza\w*|"
        r"expira\w*|plazos?|fechas? l[ií]mite|hasta cu[aá]ndo"
    ),
    future_words=(
        r"cierra[n]?|cerrar[aá]n?|vencen?|vencer[aá]n?|terminan?|terminar[aá]n?|acaban?|"
        r"finalizan?|expiran?|va a|van a|pr[oó]xim[oa]s"
    ),
    past_words=(
        r"cerrad[oa]s?|cerr[oó]|cerraron|terminad[oa]s?|termin[oó]|terminaron|venci[oó]|"
        r"vencieron|vencid[oa]s?|finalizad[oa]s?|expirad[oa]s?|acab[oó]|acabaron"
    ),
    proposer=(
        rf"{_MADE} por {NAME}",
        rf"{_PROPOSAL_NOUNS} de {NAME}",
        rf"(?:propuso|ha propuesto|cre[oó]|ha creado|sugiri[oó]) {NAME}",
        rf"{NAME} (?:propuso|ha propuesto|cre[oó]|ha creado|sugiri[oó])",
    ),
    self_proposer=(
        r"\bmis (?:propias )?(?:propuestas|encuestas|ideas|votaciones)\b|"
        r"\b(?:yo )?(?:propuse|he propuesto|cre[eé]|he creado)\b|\bpor m[ií]\b"
    ),
    not_names=frozenset("el la los las un una mí mi nosotros todos alguien nadie".split()),
    filler=frozenset(
        """
        propuesta propuestas encuesta encuestas votación votaciones voto votos iniciativa
        iniciativas sugerencia sugerencias idea ideas decisión decisiones plazo plazos
        estado estados comunidad miembros gente alguien menciona mencionan mencione
        mencionen habla hablan trata tratan contiene contienen incluye incluyen
        """.split()
    ),
)
