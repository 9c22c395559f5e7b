"""Documents both front ends draw: the drill stats dashboard as HTML with SVG charts, and
the drill's words both front ends say (:mod:`defuser.dashboard.drill_words`).

Nothing here reads a file or the clock: it turns the trainer's report data into text.
"""
