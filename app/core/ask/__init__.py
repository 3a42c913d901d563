"""/ask: where a member's question goes.

- ``analysis``: the rule-based reading (intent cues, filters, keywords, date direction).
- ``context_service``: ``ContextService.handle_intelligent_ask``, the one entry point.
- ``passages``: document passages, words and meaning fused; ``sentences``: the fitted
  scorer that picks the sentence to quote.
- ``fact_search`` / ``fact_names``: graph paths of one or two hops from the entities a
  question names (by words or initials); ``fact_paths`` scores them by a fitted model of
  whether a path's far end answers (fact_paths.json).
- ``decision``: the fitted model choosing proposals, documents, facts or nothing.
- ``proposal_search``: proposals inside the filters, words and meaning fused; with
  ``proposal_cut``, the fitted cut that decides how many of them a question asks for.
- ``mentions``: a member named without "@" after "from" or "by" read as a proposer.
- ``answers`` / ``knowledge_answers``: the text of proposal, document and fact answers.
- ``models``: the filters and response every front door shares.
"""
