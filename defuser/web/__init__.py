"""The web front end: ``mittens serve`` and the pages it serves, beside the terminal's.

Contract: :mod:`~defuser.web.app` builds the application, :mod:`~defuser.web.server`
runs it, :mod:`~defuser.web.command` is the ``serve`` command. It drives the same
sessions and applications as the terminal commands and imports nothing of theirs
(:mod:`defuser.commands`, :mod:`defuser.terminal`, :mod:`defuser.cli`); the import
contracts in ``pyproject.toml`` check both. (A regular package, so that the import
linter sees it.)
"""
