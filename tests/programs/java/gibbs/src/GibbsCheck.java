package com.example.minesweeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Test harness (not part of the article): reads commands on stdin and prints what the article's
 * classes and the JDK answer, for tests/test_gibbs.py to compare with the Python port.
 *
 *   random SEED KIND COUNT      KIND: int | long | double | bound:N  -> one value per line
 *   hashset KEY...                                                    -> the keys in iteration order
 *   board SEED TOTAL ROWS COLS  (TOTAL -1: unknown), then ROWS lines of 0-8, H, F
 *       -> "prob KEY HEX" per entry of GibbsSampler.estimate's map (in its iteration order),
 *          "far HEX" (MineAi.decide's off-frontier probability) and "decide R C ACTION" when TOTAL >= 0
 * Every answer ends with a line "end".  Doubles are printed with Double.toHexString (exact).
 */
public class GibbsCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].isEmpty()) continue;
            switch (w[0]) {
                case "random": random(w, out); break;
                case "hashset": hashset(w, out); break;
                case "board": board(w, in, out); break;
                default: throw new IllegalArgumentException("unknown command " + w[0]);
            }
            out.append("end\n");
        }
        System.out.print(out);
    }

    static void random(String[] w, StringBuilder out) {
        Random rnd = new Random(Long.parseLong(w[1]));
        int count = Integer.parseInt(w[3]);
        for (int i = 0; i < count; i++) {
            if (w[2].equals("int")) out.append(rnd.nextInt());
            else if (w[2].equals("long")) out.append(rnd.nextLong());
            else if (w[2].equals("double")) out.append(Double.toHexString(rnd.nextDouble()));
            else out.append(rnd.nextInt(Integer.parseInt(w[2].substring("bound:".length()))));
            out.append('\n');
        }
    }

    static void hashset(String[] w, StringBuilder out) {
        Set<String> set = new HashSet<>();
        for (int i = 1; i < w.length; i++) set.add(w[i]);
        out.append(String.join(" ", new ArrayList<>(set))).append('\n');
    }

    static void board(String[] w, BufferedReader in, StringBuilder out) throws Exception {
        long seed = Long.parseLong(w[1]);
        int total = Integer.parseInt(w[2]);
        int rows = Integer.parseInt(w[3]), cols = Integer.parseInt(w[4]);
        MineBoard board = new MineBoard(rows, cols, Math.max(total, 0), 0);
        for (int r = 0; r < rows; r++) {
            String row = in.readLine().trim();
            for (int c = 0; c < cols; c++) {
                char ch = row.charAt(c);
                Cell cell = board.cells[r][c];
                if (ch == 'F') { cell.state = Cell.State.FLAGGED; board.flags++; }
                else if (ch >= '0' && ch <= '8') { cell.state = Cell.State.OPENED; cell.adjacentMines = ch - '0'; }
            }
        }
        Map<String, Double> prob = new GibbsSampler(seed).estimate(board.constraints(), 400, 100);
        for (Map.Entry<String, Double> e : prob.entrySet()) {
            out.append("prob ").append(e.getKey()).append(' ').append(Double.toHexString(e.getValue())).append('\n');
        }
        if (total < 0) return;
        // MineAi.decide's off-frontier probability, line for line
        int flaggedMines = 0;
        for (int r = 0; r < board.rows; r++)
            for (int c = 0; c < board.cols; c++)
                if (board.cells[r][c].state == Cell.State.FLAGGED) flaggedMines++;
        double acc = 0;
        int counted = 0;
        for (double p : prob.values()) { acc += p; counted++; }
        int unknownTotal = board.hiddenCount();
        double farProb = unknownTotal > counted
                ? Math.max(0, (board.totalMines - flaggedMines - acc)) / (unknownTotal - counted)
                : 0.0;
        out.append("far ").append(Double.toHexString(farProb)).append('\n');
        int[] move = new MineAi(seed, 400, 100).decide(board);
        if (move == null) out.append("decide none\n");
        else out.append("decide ").append(move[0]).append(' ').append(move[1]).append(' ').append(move[2]).append('\n');
    }
}
