package com.algodaily.minesweeper.ilp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * 0-1 整数规划求解器：LP 松弛 + 深度优先分支定界。
 * 支持两种模式：最优化（solve）与纯可行性判定（isFeasible）。
 */
public final class BranchAndBound {

    /** 模型：min c^T x，s.t. A x = b，x ∈ {0,1}^n */
    public static final class Model {
        public final int n;
        public final List<double[]> rows = new ArrayList<>();
        public final List<Double> rhs = new ArrayList<>();
        public final double[] cost;

        public Model(int n, double[] cost) {
            this.n = n;
            this.cost = cost;
        }

        public void addRow(double[] coef, double r) {
            if (coef.length != n) throw new IllegalArgumentException("系数维度不匹配");
            rows.add(coef);
            rhs.add(r);
        }
    }

    public static final class Answer {
        public final boolean feasible;
        public final double objective;
        public final double[] x;

        Answer(boolean feasible, double objective, double[] x) {
            this.feasible = feasible;
            this.objective = objective;
            this.x = x;
        }
    }

    private static final double INF = Double.POSITIVE_INFINITY;

    private final Model model;
    private Answer incumbent = new Answer(false, INF, null);

    public BranchAndBound(Model model) { this.model = model; }

    /** 最优化：返回最优整数解 */
    public Answer solve() {
        double[] fixed = new double[model.n];
        Arrays.fill(fixed, Double.NaN); // NaN 表示未固定
        dfsOpt(fixed);
        return incumbent;
    }

    /** 纯可行性：在给定固定条件下是否存在整数解 */
    public boolean isFeasible(double[] fixed) {
        return dfsFeasible(fixed.clone());
    }

    // ---------- LP 松弛 ----------

    /**
     * 构造并求解一次 LP 松弛。上界 x_j <= 1 通过 x_j + s_j = 1 转成等式，
     * 因此列数为 2n（原始变量 + 上界松弛变量）。
     */
    private Answer relax(double[] fixed) {
        int n = model.n;
        int rowCount = model.rows.size() + n;
        double[][] a = new double[rowCount][2 * n];
        double[] b = new double[rowCount];
        double[] cost = new double[2 * n];

        System.arraycopy(model.cost, 0, cost, 0, n);

        // 1) 数字格等式约束；已固定变量移到右端
        for (int i = 0; i < model.rows.size(); i++) {
            double[] coef = model.rows.get(i);
            double r = model.rhs.get(i);
            for (int j = 0; j < n; j++) {
                if (Double.isNaN(fixed[j])) {
                    a[i][j] = coef[j];
                } else {
                    r -= coef[j] * fixed[j];
                }
            }
            b[i] = r;
        }

        // 2) 上界约束 x_j + s_j = 1
        for (int j = 0; j < n; j++) {
            int r = model.rows.size() + j;
            if (Double.isNaN(fixed[j])) {
                a[r][j] = 1.0;
                a[r][n + j] = 1.0;
                b[r] = 1.0;
            } else {
                if (fixed[j] < -1e-9 || fixed[j] > 1 + 1e-9) {
                    return new Answer(false, INF, null);
                }
                b[r] = 1.0 - fixed[j]; // 相当于 0 = 1 - fixed_j，即 0 <= x <= 1 已满足
            }
        }

        Simplex.Result lp = new Simplex(a, b, cost).solve();
        if (!lp.feasible) return new Answer(false, INF, null);
        return new Answer(true, lp.objective, lp.x);
    }

    // ---------- 可行性分支定界 ----------

    private boolean dfsFeasible(double[] fixed) {
        Answer lp = relax(fixed);
        if (!lp.feasible) return false;                 // 松弛不可行 => 整数不可行
        int col = pickFractional(lp.x, fixed);
        if (col < 0) return true;                       // 松弛解全整数 => 可行

        fixed[col] = 0.0;                               // 先试"安全"
        if (dfsFeasible(fixed)) { fixed[col] = Double.NaN; return true; }
        fixed[col] = 1.0;
        boolean ok = dfsFeasible(fixed);
        fixed[col] = Double.NaN;
        return ok;
    }

    // ---------- 最优化分支定界 ----------

    private void dfsOpt(double[] fixed) {
        Answer lp = relax(fixed);
        if (!lp.feasible) return;
        if (incumbent.feasible && lp.objective > incumbent.objective - 1e-9) return; // 剪枝

        int col = pickFractional(lp.x, fixed);
        if (col < 0) {
            double obj = 0.0;
            for (int j = 0; j < model.n; j++) obj += model.cost[j] * lp.x[j];
            if (!incumbent.feasible || obj < incumbent.objective) {
                incumbent = new Answer(true, obj, lp.x.clone());
            }
            return;
        }
        fixed[col] = 0.0;
        dfsOpt(fixed);
        fixed[col] = 1.0;
        dfsOpt(fixed);
        fixed[col] = Double.NaN;
    }

    /** 返回第一个分数变量的下标；全整数时返回 -1 */
    private int pickFractional(double[] x, double[] fixed) {
        for (int j = 0; j < model.n; j++) {
            if (Double.isNaN(fixed[j]) && x[j] > 1e-6 && x[j] < 1.0 - 1e-6) return j;
        }
        return -1;
    }
}
