"""Replay one Exploding Mittens module from its log and check every line against the spec.

Contract: :func:`check_module` takes a module instance's lines (from
:mod:`defuser.logs.reader`) and what is known of its bomb (serial number, batteries, each
possibly unknown) and returns a :class:`ModuleCheck`: the replay, action by action, and
every line that contradicts the module's behaviour (docs/rules.md), each with
its 1-based line number and what was expected. It never raises on a malformed, tampered
or truncated log: a line it cannot read is reported and the replay goes on.

How it decides. The log leaves some things open: the serial's last digit and N when the
edgework is not in the log, the table when the serial is not, where the first mitten
comes before any countdown line, and which slot a played card left when the hand held
two cards of that face. The checker keeps every hypothesis the log allows (a beam of
replay states, each a full assignment of those unknowns) and scores each by the number
of lines that contradict it. A genuine log has a hypothesis with no contradiction, so it
is reported clean; a tampered line costs every hypothesis at least one contradiction, and
the cheapest explanation names the tampered line rather than the many lines a wrong
hypothesis would blame. When a line contradicts a state, the replay continues from the
most plausible repairs (the model's own value for a countdown, the log's face for a card,
both readings of a play) so that one bad line does not make every later line look bad.

The parts: a line's message is read once into its class by
:func:`defuser.engine.modlog.parse`; :mod:`~defuser.logs.check.messages` says which
click each message starts;
:mod:`~defuser.logs.check.state` is one hypothesis (:class:`ReplayState`, its
:class:`Stage`); :mod:`~defuser.logs.check.startup`, :mod:`~defuser.logs.check.cycle`
and :mod:`~defuser.logs.check.clicks` replay the start-up, the deck and the clicks;
:mod:`~defuser.logs.check.replayer` dispatches a line to them; :mod:`~defuser.logs.check.module`
runs the beam; :mod:`~defuser.logs.check.steps` groups lines into the player's clicks.
"""

