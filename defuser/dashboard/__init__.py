"""Documents both front ends draw: the drill stats dashboard as HTML with SVG charts.

Nothing here reads a file or the clock: it turns the trainer's report data into text.
"""
