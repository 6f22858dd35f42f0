"""Exit codes, shared by every command."""

# 0: everything checked passed; 1: checked and found wanting; 2: misuse or invalid input.
EXIT_OK, EXIT_FOUND_WANTING, EXIT_MISUSE = 0, 1, 2
