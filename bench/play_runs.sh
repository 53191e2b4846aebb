#!/bin/sh
# The play runs behind the win-rate tables of docs/play.md (hours on 2 cores; every step resumes, so run it
# again after a kill, or raise a --games to extend a run).  Then:
#   python bench/play_table.py --write   (fixtures/play and the tables in docs/play.md)
cd "$(dirname "$0")/.." || exit 2
run() {  # players, games, size, output suffix, extra options; exit 1 (bad decisions found) goes on, 2 stops
  minecheck play --solvers "$1" --games "$2" --size "$3" --seed 1 --jobs 2 --out "reports/play-$3$4" \
    --no-progress --resume $5
  status=$?
  [ "$status" -le 1 ] || exit "$status"
}
CHEAP=exact,dpll@fixed,ilp@fixed,lookahead,progress,satdemo@seed,satdemo@fixed
DEAR=gibbs@fixed,mineai@fixed,mineai@seed  # the samplers: 3 to 18 s per Intermediate game each
run "$CHEAP,$DEAR" 1000 beginner ""
run "$CHEAP" 1000 intermediate ""
run "$CHEAP" 300 expert ""
run "$DEAR" 1000 intermediate ""
run "$DEAR" 300 expert ""
# the anchors' first click: JSMinesweeper opens at (3,3), and where the first click is changes the rates
run exact,lookahead,progress 1000 beginner -3-3 "--first-cell 3,3"
run exact,lookahead,progress 1000 intermediate -3-3 "--first-cell 3,3"
run exact,lookahead,progress 300 expert -3-3 "--first-cell 3,3"
