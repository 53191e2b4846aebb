package com.example.minesweeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * Test driver (not part of the article): plays games with the article's MineBoard and MineAi
 * (tests/java/gibbs/src) and prints every move, for tests/test_players_java.py to compare with
 * minecheck's ports.  Input, one line per game:
 *
 *   G ROWS COLS MINES LOOP      LOOP: "article" (Main's loop as printed: open, then layMines)
 *                                     or "fixed" (layMines, then open)
 *
 * The loop is Main's, line for line, with ``g`` and the board's size read from the line.
 * Output per game: "move flag R C" / "move open R C" for each decision, then
 * "end OUTCOME HIDDEN" (OUTCOME: win, dead or null, as Main's loop ends) and "mines R C ..." (the
 * mines laid, row-major).
 */
public class MineAiGames {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].isEmpty()) continue;
            play(Long.parseLong(w[0]), Integer.parseInt(w[1]), Integer.parseInt(w[2]), Integer.parseInt(w[3]),
                 w[4].equals("article"), out);
        }
        System.out.print(out);
    }

    static void play(long g, int rows, int cols, int mines, boolean article, StringBuilder out) {
        MineBoard board = new MineBoard(rows, cols, mines, g);
        MineAi ai = new MineAi(g, 400, 100);
        String outcome;
        boolean first = true;
        while (true) {
            if (first) {
                boolean dead;
                if (article) {
                    dead = board.open(board.rows / 2, board.cols / 2);
                    board.layMines(board.rows / 2, board.cols / 2);
                } else {
                    board.layMines(board.rows / 2, board.cols / 2);
                    dead = board.open(board.rows / 2, board.cols / 2);
                }
                first = false;
                if (dead) { outcome = "dead"; break; }
                continue;
            }
            if (board.hiddenCount() == 0) { outcome = "win"; break; }
            int[] move = ai.decide(board);
            if (move == null) { outcome = "null"; break; }
            out.append("move ").append(move[2] == 1 ? "flag " : "open ").append(move[0]).append(' ')
               .append(move[1]).append('\n');
            if (move[2] == 1) {
                board.cells[move[0]][move[1]].state = Cell.State.FLAGGED;
                board.flags++;
            } else {
                if (board.open(move[0], move[1])) { outcome = "dead"; break; }
            }
        }
        out.append("end ").append(outcome).append(' ').append(board.hiddenCount()).append('\n');
        out.append("mines");
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                if (board.cells[r][c].adjacentMines == -1) out.append(' ').append(r).append(' ').append(c);
        out.append('\n');
    }
}
