"""Brazilian Portuguese cues for reading /ask questions."""

from app.core.ask.cues import NAME, Cues

_PROPOSAL_NOUNS = (
    r"(?:propostas?|enquetes?|ideias?|vota[çc](?:ão|ões)|iniciativas?|sugest(?:ão|ões))"
)
_MADE = r"(?:propost[oa]s?|criad[oa]s?|feit[oa]s?|apresentad[oa]s?|iniciad[oa]s?|publicad[oa]s?)"

CUES = Cues(
    language="pt_BR",
    markers="ãõçêôà",
    stopwords=frozenset(
        """
        o a os as um uma uns umas de do da dos das em no na nos nas ao aos à às por pelo pela
        pelos pelas para com sem sobre entre até desde e ou nem que quê quem qual quais
        quando onde como quanto quanta quantos quantas é são foi foram ser está estão estava
        estar há tem têm tinha temos se me te lhe nos meu minha meus minhas seu sua seus
        suas eu você vocês ele ela eles elas nós este esta estes estas esse essa esses essas
        isso isto aquele algo algum alguma alguns algumas alguém todo toda todos todas muito
        mais menos já ainda também não sim mas porque posso pode podem podemos mostre mostra
        mostrar me diga diga liste listar lista busque buscar encontre ver quero saber
        assunto tema temas respeito relacionado relacionadas relacionados coisa coisas
        existe existem tem
        """.split()
    ),
    proposal_words=(
        r"propostas?|propor|propus\w*|propôs|propuseram|vota[çc](?:ão|ões)|votos?|votar|"
        r"enquetes?|pesquisas?|iniciativas?|sugest(?:ão|ões)|ideias?|decis(?:ão|ões)|prazos?|"
        r"decidi\w*|decid[eo]m?"
    ),
    doc_words=(
        r"pol[ií]ticas?|regras?|normas?|regulamentos?|guias?|manua(?:l|is)|documentos?|"
        r"procedimentos?|instru[çc](?:ão|ões)|perguntas frequentes|como (?:fa[çc]o|posso|"
        r"podemos|devo|funciona\w*|se)|qual [ée] o processo"
    ),
    how_to=(r"^\W*como (?:fa[çc]o|fazemos|posso|podemos|devo|devemos|funciona\w*|se|eu)\b"),
    question_openers=r"^\W*(?:quem|o que|que|onde|quando|qual|quais|quant[oa]s?)\b",
    who=r"^\W*quem\b",
    cancelled=r"cancelad[oa]s?|anulad[oa]s?|retirad[oa]s?|suspens[oa]s?",
    open=(
        r"abert[oa]s?|ativ[oa]s?|em andamento|em curso|vigentes?|pendentes?|em aberto|"
        r"(?:ainda )?(?:d[aá] para|posso|podemos) votar|no momento|agora"
    ),
    closed=(
        r"fechad[oa]s?|encerrad[oa]s?|terminad[oa]s?|finalizad[oa]s?|conclu[ií]d[oa]s?|"
        r"decidid[oa]s?|resultados?|aprovad[oa]s?|rejeitad[oa]s?|vencid[oa]s?|expirad[oa]s?|"
        # the verbs of closing, as "closed" in English: "propostas que fecharam ontem"
        r"fechou|fecharam|encerrou|encerraram|terminou|terminaram|finalizou|finalizaram|"
        r"conclu[ií]u|conclu[ií]ram|(?:acabou|acabaram)(?!\s+de\b)|venceu|venceram|expirou|"
        r"expiraram"
    ),
    free_form=(
        r"resposta (?:livre|aberta)|texto livre|formato livre|forma livre|chuva de ideias|"
        r"brainstorm\w*|ideias|sugest(?:ão|ões)"
    ),
    multiple_choice=(
        r"m[uú]ltipla escolha|escolha m[uú]ltipla|v[aá]rias op[çc][õo]es|op[çc](?:ão|ões)|"
        r"enquetes?|sim/n[ãa]o"
    ),
    creation_words=(
        r"criad[oa]s?|cri(?:ou|aram)|propôs|propuseram|feit[oa]s?|iniciad[oa]s?|"
        r"publicad[oa]s?|lan[çc]ad[oa]s?|nov[oa]s|adicionad[oa]s?|apresentad[oa]s?|"
        r"enviad[oa]s?"
    ),
    deadline_words=(
        r"fecha[mr]?|fechar(?:ão|á)|fechad[oa]s?|fechou|fecharam|encerra\w*|encerrou|vence\w*|"
        r"venceu|vencid[oa]s?|termina\w*|terminou|acaba\w*|acabou|expira\w*|prazos?|"
        r"data limite|at[eé] quando"
    ),
    future_words=(
        r"fecham?|fechar(?:ão|á)?|encerram?|encerrar(?:ão|á)?|vencem?|vencer(?:ão|á)?|"
        r"terminam?|acabam?|expiram?|vai|v[ãa]o|pr[oó]xim[oa]s"
    ),
    past_words=(
        r"fechad[oa]s?|fechou|fecharam|encerrad[oa]s?|encerrou|encerraram|terminad[oa]s?|"
        r"terminou|terminaram|venceu|venceram|vencid[oa]s?|expirad[oa]s?|acabou|acabaram"
    ),
    proposer=(
        rf"{_MADE} (?:por|pel[oa]) {NAME}",
        rf"{_PROPOSAL_NOUNS} d[eoa] {NAME}",
        rf"(?:propôs|criou|sugeriu) {NAME}",
        rf"{NAME} (?:propôs|criou|sugeriu)",
    ),
    self_proposer=(
        r"\bminhas? (?:pr[oó]prias? )?(?:propostas?|enquetes?|ideias?|vota[çc](?:ão|ões))\b|"
        r"\b(?:eu )?(?:propus|criei)\b|\bpor mim\b"
    ),
    not_names=frozenset("o a os as um uma eu nós todos alguém ninguém".split()),
    filler=frozenset(
        """
        proposta propostas enquete enquetes votação votações voto votos iniciativa
        iniciativas sugestão sugestões ideia ideias decisão decisões prazo prazos status
        estado comunidade membros pessoas menciona mencionam mencione falam fala trata
        tratam contém contêm inclui incluem
        """.split()
    ),
)
