"""Game logs: read them, replay each module, check every line, judge every decision.

:mod:`.reader` sorts a whole log into bombs and modules, :mod:`.check` replays one
module against the rules, :mod:`.judge` weighs each decision against the optimal
policy and :mod:`.analysis` puts it together for ``mittens log analyze``.
"""
