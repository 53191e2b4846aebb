"""Running untrusted solvers, and the boundary between them and minecheck.  May import: model (solvers are found
by name, never imported here).

The boundary, from minecheck's side to theirs:

* what goes down to a sandbox (a call; to a jail, the object it serves) is minecheck's own pickle, read only by
  the solver's own process; what comes back - an answer, a batch's answers, a description, an error, what
  stopped the call - is data: JSON of schema/answer-v1.json's ``outcome``, bounded by the output budget, read
  field by field (``messages``; a ``cmd:`` program's answer: ``protocol``, the same schema file);
* a solver runs in one of two ways of isolating: ``forked`` (minecheck's own solvers and references: a fork,
  PID/mount/network namespaces made by hand in ``namespace``) or ``jailed`` (a Python solver not minecheck's
  own: bubblewrap, ``jail``), a ``cmd:`` program in the same jail under its ``guardian`` (``spawning``,
  ``external``); every call runs under one ``Budget`` (``serving`` inside, ``watchdog`` and ``proctree``
  outside), its stops in ``stops``;
* in the jail it gets nothing of minecheck's: not its user where minecheck runs as root (``access``), not its
  environment (``jail.environment``), not its descriptors (its output is a pipe: ``output``), not more RAM
  than its budget (its /tmp counted); it writes only the ``writable`` paths its table grants, checked when the
  table is read (``tables``);
* on minecheck's side, every file is written by one primitive and read back by one (``files``, the run
  folder's ``manifest``), never through a link.

Also here: the catalogue of shipped solvers, discovery that names and makes them (``discovery``, ``hosted``),
the registry that runs them (``registry``, ``batch``), the work queue, a run's folder (``runfolder``,
``rundata``).  docs/sandbox.md lists each attack on this boundary, what stops it and its test.
"""
