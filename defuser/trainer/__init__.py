"""The trainer behind ``mittens drill`` and ``mittens stats``.

Contract: no click or rich here (the CLI layer renders). Questions are generated from
random vanilla edgework and simulated games, and every expected answer is computed by
the project's engine: the tables and rules (:mod:`edgework`, :mod:`defuser.engine.rules`), the
exact belief about the deck (:mod:`defuser.strategy.belief`) and the optimal zero-strike policy
(:mod:`defuser.strategy.policy`). Modules:

- :mod:`~defuser.trainer.model`: kinds, questions, grades;
- :mod:`~defuser.trainer.kinds`: every drill kind declared once (notation, target,
  skills, generator, judge);
- :mod:`~defuser.trainer.lookups` and :mod:`~defuser.trainer.situations`: generators;
- :mod:`~defuser.trainer.answers`, :mod:`~defuser.trainer.judges` and
  :mod:`~defuser.trainer.grading`: the typed answers and their readers, each kind's
  judge, and grading within the time limit;
- :mod:`~defuser.trainer.skills`: the typed skills and their stored keys;
- :mod:`~defuser.trainer.scheduler`, :mod:`~defuser.trainer.ratings`,
  :mod:`~defuser.trainer.teaching` and :mod:`~defuser.trainer.settings`: FSRS spaced
  repetition per skill by the learner's day, how an answer is rated, the order new
  skills are taught in, and the learner's settings;
- :mod:`~defuser.trainer.simulate`: a simulated learner that checks the scheduler;
- :mod:`~defuser.trainer.store`, :mod:`~defuser.trainer.location`,
  :mod:`~defuser.trainer.export` and :mod:`~defuser.trainer.report`: the SQLite answer
  log, where it lives by default, its CSV export and its statistics;
- :mod:`~defuser.trainer.drill_session`: the drill's loop and answer clock as a
  sans-I/O session under every front end (typed events out, state as JSON);
- :mod:`~defuser.trainer.session` and :mod:`~defuser.trainer.game`: choosing, storing
  and scheduling the questions of a drill, and a graded game.
"""
