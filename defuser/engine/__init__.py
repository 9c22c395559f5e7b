"""The engine: the module's own rules, with no strategy in them.

Legal plays (:mod:`.rules`), the module's log lines (:mod:`.modlog`), the faithful
simulator with its hidden deck (:mod:`.simulator`) and random vanilla edgework for
practice (:mod:`.generate`). Everything above (strategy, logs, trainer, commands) builds
on these; nothing here imports from those layers.
"""
