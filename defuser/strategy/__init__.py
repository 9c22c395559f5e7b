"""The strategy: what the expert should do, from what the defuser can see.

The belief about the hidden mitten cycle (:mod:`.belief`), the exact DP over it
(:mod:`.dp`), the policies (:mod:`.policy`) and their solution cache (:mod:`.cache`),
explanations in words (:mod:`.explain`) and the one-shot answer for a visible state
(:mod:`.answer`). Contract: nothing here reads the simulator's hidden state.
"""
