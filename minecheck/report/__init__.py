"""Showing findings to people: HTML pages and their templates, plots, the terminal view and the
progress bar.  Knows findings and answers, never how a solver works.  May import: model, running, certify (the
kinds of claim a certificate proves), check."""
