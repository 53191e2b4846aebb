package com.algodaily.minesweeper;

import com.algodaily.minesweeper.ilp.Simplex;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Test driver (not from the article): runs the article's classes, unchanged, on inputs from stdin
 * and prints what they answer, doubles as exact hex, so that minecheck's Python port can be compared.
 *
 * Input: blocks separated by blank lines.  A block starting with "LP m n" is a linear programme
 * (m rows of n coefficients, then b, then c; numbers as Java reads them); any other block is a
 * board, one row per line, H covered, F flag, 0-8 digits.
 */
public final class CheckMain {

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> block = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                run(block);
                block.clear();
            } else {
                block.add(line.trim());
            }
        }
        run(block);
        System.out.flush();
    }

    private static void run(List<String> block) throws Exception {
        if (block.isEmpty()) return;
        if (block.get(0).startsWith("LP")) runLp(block);
        else runBoard(block);
        System.out.println("END");
    }

    private static void runLp(List<String> block) {
        String[] head = block.get(0).split("\\s+");
        int m = Integer.parseInt(head[1]), n = Integer.parseInt(head[2]);
        double[][] a = new double[m][];
        for (int i = 0; i < m; i++) a[i] = numbers(block.get(1 + i), n);
        double[] b = numbers(block.get(1 + m), m);
        double[] c = numbers(block.get(2 + m), n);
        try {
            Simplex.Result r = new Simplex(a, b, c).solve();
            StringBuilder sb = new StringBuilder(r.feasible ? "OPTIMAL" : "INFEASIBLE");
            if (r.feasible) {
                sb.append(' ').append(Double.toHexString(r.objective));
                for (double v : r.x) sb.append(' ').append(Double.toHexString(v));
            }
            System.out.println(sb);
        } catch (RuntimeException ex) {
            System.out.println("ERROR " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
        }
    }

    private static double[] numbers(String text, int count) {
        double[] out = new double[count];
        if (count == 0) return out;
        String[] parts = text.trim().split("\\s+");
        for (int i = 0; i < count; i++) out[i] = Double.parseDouble(parts[i]);
        return out;
    }

    private static void runBoard(List<String> rows) throws Exception {
        Board b = new Board(rows.size(), rows.get(0).length());
        for (int r = 0; r < b.rows; r++) {
            for (int c = 0; c < b.cols; c++) {
                char ch = rows.get(r).charAt(c);
                b.cell[r][c] = ch == 'H' ? Board.COVERED : ch == 'F' ? Board.FLAG : ch - '0';
            }
        }
        Method relax = MinesweeperSolver.class.getDeclaredMethod(
                "relaxProbability", MinesweeperSolver.Component.class);
        relax.setAccessible(true);
        List<String> out = new ArrayList<>();
        try {
            MinesweeperSolver solver = new MinesweeperSolver(b);
            for (MinesweeperSolver.Component comp : solver.components) {
                solver.analyze(comp);
                double[] lp = (double[]) relax.invoke(solver, comp);
                StringBuilder sb = new StringBuilder("COMP ").append(comp.size()).append(' ').append(comp.rows.size());
                out.add(sb.toString());
                for (int k = 0; k < comp.size(); k++) {
                    int[] p = comp.cells.get(k);
                    out.add("LP " + p[0] + " " + p[1] + " " + Double.toHexString(lp[k]));
                }
            }
            for (int r = 0; r < b.rows; r++) {
                for (int c = 0; c < b.cols; c++) {
                    if (b.isCovered(r, c) && solver.risk[r][c] >= 0) {
                        out.add("CELL " + r + " " + c + " " + solver.verdict[r][c] + " "
                                + Double.toHexString(solver.risk[r][c]));
                    }
                }
            }
        } catch (InvocationTargetException ex) {
            Throwable cause = ex.getCause();
            out.clear();
            out.add("ERROR " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (RuntimeException ex) {
            out.clear();
            out.add("ERROR " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
        }
        for (String s : out) System.out.println(s);
    }
}
