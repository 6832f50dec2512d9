"""The replay: a received log stepped through in the browser, every ruling verified where it happened.

Modules, by what they hold:

* :mod:`adjudicator.logs.replay.board` — the pieces, stacks and piles of a game, command by command;
* :mod:`adjudicator.logs.replay.views` — what a viewer may see of a piece (fog of war), and where it stands;
* :mod:`adjudicator.logs.replay.timeline` — files in order as steps: the changes, the moves, the words;
* :mod:`adjudicator.logs.replay.verdicts` — each ruling at its step with its verdict against the ledger;
* :mod:`adjudicator.logs.replay.build` — all of it together (`build_replay`), the summary, the maps; the
  page's part and the steps in pieces, bounded;
* :mod:`adjudicator.logs.replay.report` — the after-action report (Markdown and HTML);
* :mod:`adjudicator.logs.replay.kept` — a replay built once and kept beside its files, served in parts;
* :mod:`adjudicator.web.replay_pages` — the pages: upload, the replay, the report, the dice record.
"""
