"""One module per ``mittens`` command; each parses, makes one library call and renders."""
