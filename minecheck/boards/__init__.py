"""Seeded boards: recipes, the generators (real games, random reveals, edge shapes), and the boards
that cannot be.  May import: model, engine."""
