"""The maintainers' command lines, beside ``mittens`` and outside the libraries.

Contract: each module here is one ``python -m defuser.devtools.NAME`` command that parses
its arguments, calls one library function and prints or writes the result; the work
itself lives in the library (the DP, the shipped-solutions builder, the simulated learner,
the web front end's timings). Players never need them:

- :mod:`~defuser.devtools.build_solutions`: write the shipped solutions and later-cycle files;
- :mod:`~defuser.devtools.dpstats`: the DP's sweeps and solve times on every configuration;
- :mod:`~defuser.devtools.simulate_learner`: the simulated learner's scheduler figures;
- :mod:`~defuser.devtools.bench_web`: ``mittens serve`` timed from outside;
- :mod:`~defuser.devtools.bench_dashboard`: the stats dashboard timed at the server.
"""
