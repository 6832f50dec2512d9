"""The replay: a received log stepped through in the browser, every ruling verified where it happened.

Modules, by what they hold:

* :mod:`adjudicator.replay.board` — the pieces, stacks and piles of a game, command by command;
* :mod:`adjudicator.replay.views` — what a viewer may see of a piece (fog of war), and where it stands;
* :mod:`adjudicator.replay.timeline` — files in order as steps: the changes, the moves, the words;
* :mod:`adjudicator.replay.verdicts` — each ruling at its step with its verdict against the ledger;
* :mod:`adjudicator.replay.build` — all of it together (`build_replay`), the summary, the maps; the
  page's part and the steps in pieces, bounded;
* :mod:`adjudicator.replay.report` — the after-action report (Markdown and HTML);
* :mod:`adjudicator.replay.kept` — a replay built once and kept beside its files, served in parts;
* :mod:`adjudicator.replay.pages` — the pages: upload, the replay, the report, the dice record.
"""
