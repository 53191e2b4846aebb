package com.algodaily.minesweeper.ilp;

import java.util.Arrays;

/**
 * 两阶段单纯形：求解 min c^T x，s.t. A x = b，x >= 0。
 * 行数 m 即约束数，列数 n 即决策变量数；b 必须非负（调用方负责归一化）。
 */
public final class Simplex {

    private static final double EPS = 1e-9;
    private static final double INF = 1e100;

    private final int m;
    private final int n;
    private final double[][] a;
    private final double[] b;
    private final double[] c;

    public Simplex(double[][] aMat, double[] rhs, double[] cost) {
        this.m = rhs.length;
        this.n = cost.length;
        this.a = new double[m][];
        for (int i = 0; i < m; i++) this.a[i] = Arrays.copyOf(aMat[i], aMat[i].length);
        this.b = Arrays.copyOf(rhs, rhs.length);
        this.c = Arrays.copyOf(cost, cost.length);
    }

    /** 求解结果 */
    public static final class Result {
        public final boolean feasible;
        public final double objective;
        public final double[] x;

        Result(boolean feasible, double objective, double[] x) {
            this.feasible = feasible;
            this.objective = objective;
            this.x = x;
        }
    }

    public Result solve() {
        // 变量布局：[0,n) 原始变量；[n,n+m) 人工变量；最后一列存右端项
        int cols = n + m + 1;
        double[][] t = new double[m][cols];
        for (int i = 0; i < m; i++) {
            if (b[i] < -EPS) return new Result(false, 0.0, new double[n]); // 右端为负，无可行解
            for (int j = 0; j < n; j++) t[i][j] = a[i][j];
            t[i][n + i] = 1.0;             // 人工变量作初始基
            t[i][cols - 1] = b[i];
        }
        int[] basis = new int[m];
        for (int i = 0; i < m; i++) basis[i] = n + i;

        // ---------- Phase I：最小化人工变量之和 ----------
        double[] phase1 = new double[cols - 1];
        for (int i = 0; i < m; i++) phase1[n + i] = 1.0;
        iterate(t, basis, phase1, cols, true);

        double artificialSum = 0.0;
        for (int i = 0; i < m; i++) artificialSum += t[i][cols - 1] * phase1[basis[i]];
        if (artificialSum > 1e-7) return new Result(false, 0.0, new double[n]);

        // 把仍留在基里的人工变量换出去
        for (int i = 0; i < m; i++) {
            if (basis[i] >= n) {
                int pivotCol = -1;
                for (int j = 0; j < n; j++) {
                    if (Math.abs(t[i][j]) > 1e-7) { pivotCol = j; break; }
                }
                if (pivotCol == -1) {
                    for (int j = 0; j < cols; j++) t[i][j] = 0.0; // 冗余约束，整行清零
                } else {
                    pivot(t, basis, i, pivotCol, cols);
                }
            }
        }

        // ---------- Phase II：最小化真实目标 ----------
        double[] phase2 = new double[cols - 1];
        for (int j = 0; j < n; j++) phase2[j] = c[j];
        iterate(t, basis, phase2, cols, false);

        double[] x = new double[n];
        for (int i = 0; i < m; i++) {
            if (basis[i] < n) x[basis[i]] = t[i][cols - 1];
        }
        double obj = 0.0;
        for (int j = 0; j < n; j++) obj += c[j] * x[j];
        return new Result(true, obj, x);
    }

    /** 反复换基（Bland 规则）直到对偶可行 */
    private void iterate(double[][] t, int[] basis, double[] cost, int cols, boolean allowUnbounded) {
        for (int step = 0; step < 20000; step++) {
            // 检验数 reduced_j = c_j - c_B^T B^-1 A_j
            double[] reduced = new double[cols - 1];
            for (int j = 0; j < cols - 1; j++) {
                reduced[j] = cost[j];
                for (int i = 0; i < m; i++) reduced[j] -= cost[basis[i]] * t[i][j];
            }

            int enter = -1;
            for (int j = 0; j < cols - 1; j++) {
                if (reduced[j] < -EPS) { enter = j; break; }
            }
            if (enter == -1) return; // 已最优

            int leave = -1;
            double bestRatio = INF;
            for (int i = 0; i < m; i++) {
                if (t[i][enter] > EPS) {
                    double ratio = t[i][cols - 1] / t[i][enter];
                    if (ratio < bestRatio - EPS) { bestRatio = ratio; leave = i; }
                }
            }
            if (leave == -1) {
                if (allowUnbounded) return; // 第一阶段不会无界
                throw new IllegalStateException("LP 无界");
            }
            pivot(t, basis, leave, enter, cols);
        }
        throw new IllegalStateException("单纯形迭代超限，可能存在退化");
    }

    /** 以 (row, col) 为枢轴换基 */
    private void pivot(double[][] t, int[] basis, int row, int col, int cols) {
        double pv = t[row][col];
        for (int j = 0; j < cols; j++) t[row][j] /= pv;
        for (int i = 0; i < m; i++) {
            if (i == row) continue;
            double f = t[i][col];
            if (Math.abs(f) < EPS) continue;
            for (int j = 0; j < cols; j++) t[i][j] -= f * t[row][j];
        }
        basis[row] = col;
    }
}
