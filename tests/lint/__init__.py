"""Architecture checks run by import-linter (see .importlinter at the repository's root)."""
