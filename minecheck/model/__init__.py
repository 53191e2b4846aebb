"""The data model: a board and its text format, the position behind a generated board, the answers
every solver gives, and the Solver contract.  Imports nothing else of minecheck: everything else
builds on it."""
