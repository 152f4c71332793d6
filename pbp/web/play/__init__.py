"""The player's pages: characters, sign-ups and the entry form."""
