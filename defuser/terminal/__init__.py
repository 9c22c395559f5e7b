"""What the ``mittens`` commands share, below them: the terminal front end's support.

Contract: :mod:`~defuser.terminal.app` is the application object (consoles, the error
boundary, Ctrl-C); :mod:`~defuser.terminal.params` the shared options and parameter
types; :mod:`~defuser.terminal.words` how library errors are worded;
:mod:`~defuser.terminal.style` how cards look; :mod:`~defuser.terminal.wrap` the one
wrapping routine for text on a terminal; :mod:`~defuser.terminal.safeio` every
user path; :mod:`~defuser.terminal.screen` the expert's screen;
:mod:`~defuser.terminal.game_view` how a game is worded;
:mod:`~defuser.terminal.drill_clock` the drill's answer clock on a terminal;
:mod:`~defuser.terminal.stats_view` the stats report as rich renderables. The commands
(:mod:`defuser.commands`) import these and never each other; nothing here imports a
command or :mod:`defuser.cli`. This package may use click and rich, the libraries below
it may not.
"""
