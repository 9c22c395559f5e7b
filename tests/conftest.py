"""Shared test configuration: Hypothesis profiles.

CI sets ``CI=true`` and Hypothesis then loads the ``ci`` profile by itself: derandomised
and sized for a 2-core machine. ``dev`` is the default for local runs.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
