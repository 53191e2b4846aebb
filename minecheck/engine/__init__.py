"""The constraint engine: a board's digit equations split into components, the exact solution
counter and its sweep, and the plain brute enumeration.  May import: model."""
