"""Words of conversation, not of the topic: "hi! could you tell me whether ...".

Members write to the bot as to a person. Greetings, hedges and asides around the
question are no search words: left in, "hi ... whether ... garden" asks every proposal
to contain "hi" and "whether" too, and a chatty question finds nothing. The analysis'
stop words cover the question words; these are the conversation around them.
"""

from __future__ import annotations

CHATTER = frozenset(
    """
    hi hello hey hiya howdy greetings morning evening thanks thank thx cheers pls plz
    please sorry excuse quick quickly question questions wondering wonder wondered curious
    whether tell telling told know knows knew knowing think thinking thought guess guys
    folks everybody somebody anybody im i'm ive i've id i'd youre you're dont don't didnt
    didn't isnt isn't arent aren't wasnt wasn't cant can't couldnt couldn't wouldnt
    wouldn't theres there's whats what's whos who's hows how's wanna gonna gotta kinda
    sorta maybe perhaps actually basically honestly literally probably possibly
    remember reminded recall heard hear hearing saw seen noticed mentioned lol btw fyi
    oh ok okay yeah yep nope well anyway anyways though although like exactly ppl pple
    isn aren wasn weren doesn didn couldn wouldn shouldn hasn haven hadn
    """.split()
)  # the last line: what is left of "isn't" when words are read as letters only
