"""Applications built on the engine and the strategy, each behind one command.

The expert's live session (:mod:`.live_session`), the benchmark and its outside timing
harness (:mod:`.benchmark`, :mod:`.benchmark_live`), and the tables' checks and
renderings (:mod:`.table_checks`, :mod:`.table_io`). The command modules in
:mod:`defuser.commands` parse options, call one of these and print.
"""
