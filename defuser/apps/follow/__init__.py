"""Following a KTaNE game log while it is written, advising every Exploding Mittens module.

Contract: the package's modules each do one job and are imported by their own names
(nothing is re-exported here). :mod:`~defuser.apps.follow.tail` reads the growing file;
:mod:`~defuser.apps.follow.advice` holds the typed values a follower reports (an
:class:`~defuser.apps.follow.advice.Advice` with its typed event);
:mod:`~defuser.apps.follow.follower` is the sans-I/O log-follow session;
:mod:`~defuser.apps.follow.following` applies each look at the file to a follower and
is the polling loop of ``mittens live --follow``; :mod:`~defuser.apps.follow.saved` is
the error of a saved state that cannot be rebuilt. The words for all of it belong to
the front ends (:mod:`defuser.dashboard.follow_words` for what both say).
"""
