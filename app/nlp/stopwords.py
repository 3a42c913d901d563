"""Function words the lexical index leaves out, per language.

Short on purpose: only words that carry no topic (articles, prepositions, pronouns,
auxiliaries, conjunctions, question words). Anything that can name a thing stays
("may" is a month, "id" a number, "over"/"under" carry age limits). Written as members
type them; ``app.nlp.lexical`` folds them the way it folds text, so accents and case do
not matter here. English contractions appear joined, as the normaliser joins them
("don't" -> "dont").
"""

from __future__ import annotations

STOPWORDS: dict[str, str] = {
    "en": """
        a an the and or but nor if of to in on at by for with about from into onto as
        is are was were be been being am do does did doing done have has had having
        can could will would shall should must might
        i me my mine myself we us our ours you your yours he him his she her hers it its
        they them their theirs this that these those there here
        what which who whom whose where when why how
        not no so than then too very just also only any some all each both such
        dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent
        havent hasnt hadnt im ive youre youve theyre theyve weve thats whats
    """,
    "es": """
        el la los las lo un una unos unas de del al a ante con contra en entre hacia hasta
        para por según sin sobre tras y e o u ni que quien quienes cual cuales cuando donde
        como cuanto cuanta cuantos cuantas es son fue fueron ser era eran está están estaba
        estar ha han he has hay había se me te le les nos os mi mis tu tus su sus yo tú él
        ella ellos ellas nosotros vosotros usted ustedes este esta estos estas ese esa esos
        esas eso esto aquel aquella muy más menos ya no sí si pero porque también
    """,
    "pt_BR": """
        o a os as um uma uns umas de do da dos das no na nos nas em ao aos à às por pelo
        pela pelos pelas para com sem sobre entre até e ou nem que quem qual quais quando
        onde como quanto quanta quantos quantas é são foi foram ser era eram está estão
        estava ter tem tinha há se me te lhe lhes vos meu minha meus minhas teu tua seu sua
        seus suas eu tu ele ela eles elas você vocês este esta estes estas esse essa esses
        essas isso isto aquele aquela muito mais menos já não sim mas porque também
    """,
    "ru": """
        и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по
        только её мне было от меня ещё нет о из ему когда даже ли если уже или ни быть был
        него до вас там себя ей может они тут где есть ней для мы тебя их чем была сам
        чтоб без чего тоже себе под будет ж тогда кто этот того потому этого какой ним
        здесь этом мой тем чтобы неё были куда зачем всех при об хоть над тот через эти
        нас про всего них какая эту моя свою этой перед им
    """,
}
