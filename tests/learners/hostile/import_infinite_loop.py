"""An infinite loop at import: bounded by --timeout."""

while True:
    pass
