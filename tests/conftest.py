"""Shared test configuration: Hypothesis profiles and a private cache/data home.

CI sets ``CI=true`` and Hypothesis then loads the ``ci`` profile by itself: derandomised
and sized for a 2-core machine. ``dev`` is the default for local runs.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, settings

# Tests never touch the user's own policy cache or training stats: both live under a
# throw-away directory for the whole run (subprocesses inherit it).
_SANDBOX = tempfile.mkdtemp(prefix="mittens-tests-")
os.environ["XDG_CACHE_HOME"] = os.path.join(_SANDBOX, "cache")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")

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
