"""`python -m adjudicate`: the same as the `adjudicate` command."""

from adjudicate.cli import main

main()
