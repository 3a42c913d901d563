"""/ask: where a member's question goes.

- ``analysis``: the rule-based reading (intent cues, filters, keywords, date direction).
- ``context_service``: ``ContextService.handle_intelligent_ask``, the one entry point.
- ``routing``: which source answers, decided from cues and how strongly each matched.
- ``proposal_search``: proposals inside the filters, words and meaning fused; with
  ``proposal_cut``, the fitted cut that decides how many of them a question asks for.
- ``mentions``: a member named without "@" after "from" or "by" read as a proposer.
- ``answers`` / ``knowledge_answers``: the text of proposal, document and fact answers.
- ``answer_checks``: whether what was found answers, with ``coverage`` (what the question
  names), ``answer_kinds`` (the kind of answer), ``things_asked`` and ``fact_gaps``.
- ``models``: the filters and response every front door shares.

Kept free of imports so that ``app.services.llm`` can use ``analysis`` without a cycle.
"""
