"""How big the slow property tests are, relative to the loaded Hypothesis profile.

A test that needs more (or fewer) examples than the profile's default states its size
for the ``dev`` profile (100 examples by default) through :func:`examples`; other
profiles scale it, so the ``ci`` profile sizes every test for a 2-core machine at once.
"""

from __future__ import annotations

from hypothesis import settings

#: The ``dev`` profile's examples per test, the unit the sizes below are given in.
DEV_EXAMPLES = 100


def examples(dev: int) -> int:
    """``dev`` examples under the ``dev`` profile, scaled to the loaded profile."""
    loaded = settings.default
    profile: int = DEV_EXAMPLES if loaded is None else loaded.max_examples
    return max(1, round(dev * profile / DEV_EXAMPLES))
