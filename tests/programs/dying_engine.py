"""A persistent program that dies on its first request: a long traceback on stderr, then the process ends at once.

Its end (stdout closed) can be seen before the traceback in its stderr pipe is read: the crash finding must carry
the traceback's tail all the same.
"""

import os
import sys

sys.stdin.readline()
sys.stderr.write("Traceback (most recent call last):\n"
                 + "".join(f'  File "engine.py", line {n}, in weigh\n' for n in range(200))
                 + "ZeroDivisionError: division by zero\n")
sys.stderr.flush()
os._exit(1)  # no clean-up: gone as soon as its stderr is written
