"""What changes during a game of Exploding Mittens.

Legal plays, the mitten cycle and the belief about it, the policies, the simulator, the
trainer, the log reader and the ``mittens`` command line.
"""

__version__ = "0.1.0"
