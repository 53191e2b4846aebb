package com.algodaily.minesweeper;

import java.util.List;
import java.util.Random;

/** 入口：先演示一个 1-2-1 局面，再随机对拍 200 个局面 */
public final class MinesweeperApp {

    public static void main(String[] args) {
        demo121();
        stressTest();
    }

    /** 经典 1-2-1 模式：中间数字 2 的两侧各一个 1，下方三格中必有中间的雷 */
    private static void demo121() {
        Board b = new Board(3, 5);
        // 第二行开出数字：1, 2, 1, 0, 0
        b.cell[1][0] = 1;
        b.cell[1][1] = 2;
        b.cell[1][2] = 1;
        b.cell[1][3] = 0;
        b.cell[1][4] = 0;

        MinesweeperSolver solver = new MinesweeperSolver(b);
        System.out.println("组件数 = " + solver.components.size());
        for (MinesweeperSolver.Component comp : solver.components) {
            System.out.println("  组件规模 = " + comp.size() + "，约束数 = " + comp.rows.size());
            solver.analyze(comp);
        }
        System.out.println("必安全格 = " + fmt(solver.safeCells()));
        System.out.println("必雷格   = " + fmt(solver.mineCells()));
        System.out.println("建议猜测 = " + fmtOne(solver.bestGuess()));
        new BoardView(b).printRisk(solver.risk);
    }

    private static String fmt(List<int[]> list) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            sb.append("(").append(list.get(i)[0]).append(",").append(list.get(i)[1]).append(")");
            if (i + 1 < list.size()) sb.append(" ");
        }
        return sb.append("]").toString();
    }

    private static String fmtOne(int[] p) {
        return p == null ? "null" : "(" + p[0] + "," + p[1] + ")";
    }

    /** 随机局面：ILP 结论与暴力枚举逐格比对 */
    private static void stressTest() {
        Random rnd = new Random(20261101L);
        int mismatch = 0, compared = 0;

        for (int iter = 0; iter < 200; iter++) {
            int rows = 3 + rnd.nextInt(2), cols = 3 + rnd.nextInt(3);
            Board b = new Board(rows, cols);

            boolean[][] mine = new boolean[rows][cols];
            int mineCount = 0;
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    if (rnd.nextInt(100) < 18) { mine[r][c] = true; mineCount++; }
                }
            }
            if (mineCount == 0) continue;

            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    if (!mine[r][c] && rnd.nextInt(100) < 45) { // 开出约 45% 的非雷格
                        b.cell[r][c] = countNeighborMines(b, mine, r, c);
                    }
                }
            }

            MinesweeperSolver solver;
            try {
                solver = new MinesweeperSolver(b);
            } catch (RuntimeException ex) {
                continue; // 局面本身矛盾，跳过
            }

            for (MinesweeperSolver.Component comp : solver.components) {
                if (comp.size() == 0 || comp.size() > 20) continue; // 控制枚举规模
                solver.analyze(comp);
                long[] cnt = new long[1];
                int[] oracle = BruteForceOracle.analyze(comp, cnt);

                for (int k = 0; k < comp.size(); k++) {
                    int[] pos = comp.cells.get(k);
                    int expected = oracle[k];
                    if (expected == -1) continue; // 枚举也判定未知，不做比较
                    compared++;
                    if (solver.verdict[pos[0]][pos[1]] != expected) {
                        mismatch++;
                        System.out.println("不一致 cell=(" + pos[0] + "," + pos[1] + ")"
                                + " ilp=" + solver.verdict[pos[0]][pos[1]]
                                + " oracle=" + expected + " 解数=" + cnt[0]);
                    }
                }
            }
        }
        System.out.println("对拍格数 = " + compared + "，不一致 = " + mismatch);
    }

    private static int countNeighborMines(Board b, boolean[][] mine, int r, int c) {
        int cnt = 0;
        for (int[] d : Board.DIRS) {
            int nr = r + d[0], nc = c + d[1];
            if (b.inBounds(nr, nc) && mine[nr][nc]) cnt++;
        }
        return cnt;
    }
}
