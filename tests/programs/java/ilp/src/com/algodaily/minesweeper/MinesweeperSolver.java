package com.algodaily.minesweeper;

import com.algodaily.minesweeper.ilp.BranchAndBound;
import com.algodaily.minesweeper.ilp.Simplex;

import java.util.*;

/**
 * 扫雷求解器：
 *  1) 抽取边界变量与数字约束
 *  2) 按约束图连通性拆成独立组件（并查集）
 *  3) 每组件用 ILP 判定"必雷 / 必安全"
 *  4) 用 LP 松弛解作为每格是雷的概率近似，挑最低风险格
 */
public final class MinesweeperSolver {

    /** 组件：局部变量表 + 局部等式约束 */
    public static final class Component {
        public final List<int[]> cells = new ArrayList<>();      // {r, c}
        public final List<double[]> rows = new ArrayList<>();    // 系数行
        public final List<Double> rhs = new ArrayList<>();       // 右端项

        public int size() { return cells.size(); }

        public int indexOf(int r, int c) {
            for (int k = 0; k < cells.size(); k++) {
                int[] p = cells.get(k);
                if (p[0] == r && p[1] == c) return k;
            }
            return -1;
        }
    }

    private final Board board;
    public final List<Component> components = new ArrayList<>();

    /** 每格的雷概率：-1 表示未参与建模 */
    public final double[][] risk;
    /** 每格判定结论：1 必雷、0 必安全、-1 未知 */
    public final int[][] verdict;

    public MinesweeperSolver(Board board) {
        this.board = board;
        this.risk = new double[board.rows][board.cols];
        this.verdict = new int[board.rows][board.cols];
        for (int r = 0; r < board.rows; r++) {
            Arrays.fill(risk[r], -1.0);
            Arrays.fill(verdict[r], -1);
        }
        buildConstraints();
    }

    // ---------- 步骤 1：约束抽取 + 并查集分组 ----------

    private void buildConstraints() {
        // 每条约束先以 (unknownCells, remain) 形式收集
        List<List<int[]>> consCells = new ArrayList<>();
        List<Double> consRhs = new ArrayList<>();

        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (!board.isOpened(r, c)) continue;
                int remain = board.cell[r][c];
                List<int[]> unknown = new ArrayList<>();
                for (int[] nb : board.neighbors(r, c)) {
                    if (board.isFlagged(nb[0], nb[1])) remain--;
                    else if (board.isCovered(nb[0], nb[1])) unknown.add(nb);
                }
                if (remain < 0) throw new IllegalStateException("标记矛盾 @ (" + r + "," + c + ")");
                if (unknown.isEmpty()) {
                    if (remain > 0) throw new IllegalStateException("约束矛盾 @ (" + r + "," + c + ")");
                    continue;
                }
                consCells.add(unknown);
                consRhs.add((double) remain);
            }
        }

        // 用并查集把出现在同一约束里的格子连起来
        Map<Long, Integer> idOf = new HashMap<>();
        for (List<int[]> cons : consCells) {
            for (int[] p : cons) idOf.computeIfAbsent(key(p[0], p[1]), k -> idOf.size());
        }
        int total = idOf.size();
        int[] uf = new int[total];
        for (int i = 0; i < total; i++) uf[i] = i;
        for (List<int[]> cons : consCells) {
            int first = find(uf, idOf.get(key(cons.get(0)[0], cons.get(0)[1])));
            for (int i = 1; i < cons.size(); i++) {
                union(uf, first, find(uf, idOf.get(key(cons.get(i)[0], cons.get(i)[1]))));
            }
        }

        // 按根分组，建立 Component
        Map<Integer, Component> byRoot = new LinkedHashMap<>();
        Map<Long, Component> compOfCell = new HashMap<>();
        for (Map.Entry<Long, Integer> e : idOf.entrySet()) {
            int root = find(uf, e.getValue());
            Component comp = byRoot.computeIfAbsent(root, k -> new Component());
            int r = (int) (e.getKey() / 1000L);
            int c = (int) (e.getKey() % 1000L);
            comp.cells.add(new int[]{r, c});
            compOfCell.put(e.getKey(), comp);
        }
        for (Component comp : byRoot.values()) components.add(comp);

        // 把约束翻译成局部系数行
        for (int i = 0; i < consCells.size(); i++) {
            List<int[]> cons = consCells.get(i);
            Component comp = compOfCell.get(key(cons.get(0)[0], cons.get(0)[1]));
            double[] row = new double[comp.size()];
            for (int[] p : cons) row[comp.indexOf(p[0], p[1])] = 1.0;
            comp.rows.add(row);
            comp.rhs.add(consRhs.get(i));
        }
    }

    private static long key(int r, int c) { return r * 1000L + c; }

    private static int find(int[] uf, int x) {
        while (uf[x] != x) { uf[x] = uf[uf[x]]; x = uf[x]; }
        return x;
    }

    private static void union(int[] uf, int a, int b) {
        if (a != b) uf[a] = b;
    }

    // ---------- 步骤 2：单组件判定 ----------

    /** 判定该组件中每格的状态，并把概率写入 risk */
    public void analyze(Component comp) {
        int n = comp.size();
        BranchAndBound.Model model = new BranchAndBound.Model(n, new double[n]);
        for (int i = 0; i < comp.rows.size(); i++) model.addRow(comp.rows.get(i), comp.rhs.get(i));

        BranchAndBound solver = new BranchAndBound(model);
        double[] fixed = new double[n];

        // ① 可行性分支定界：逐格判定能否取 0 / 能否取 1
        for (int k = 0; k < n; k++) {
            int[] pos = comp.cells.get(k);

            Arrays.fill(fixed, Double.NaN);
            fixed[k] = 0.0;
            if (!solver.isFeasible(fixed)) {
                verdict[pos[0]][pos[1]] = 1;    // 不能取 0 => 必是雷
                risk[pos[0]][pos[1]] = 1.0;
                continue;
            }

            Arrays.fill(fixed, Double.NaN);
            fixed[k] = 1.0;
            if (!solver.isFeasible(fixed)) {
                verdict[pos[0]][pos[1]] = 0;    // 不能取 1 => 必安全
                risk[pos[0]][pos[1]] = 0.0;
                continue;
            }

            verdict[pos[0]][pos[1]] = -1;       // 两种取值都可行 => 无法确定
        }

        // ② LP 松弛解作为未定格的概率近似
        double[] approx = relaxProbability(comp);
        for (int k = 0; k < n; k++) {
            int[] pos = comp.cells.get(k);
            if (verdict[pos[0]][pos[1]] == -1) {
                risk[pos[0]][pos[1]] = approx[k];
            }
        }
    }

    /** 解 LP 松弛（目标全 0），返回各变量取值作为概率近似 */
    private double[] relaxProbability(Component comp) {
        int n = comp.size();
        int rowCount = comp.rows.size() + n;
        double[][] a = new double[rowCount][2 * n];
        double[] b = new double[rowCount];

        for (int i = 0; i < comp.rows.size(); i++) {
            System.arraycopy(comp.rows.get(i), 0, a[i], 0, n);
            b[i] = comp.rhs.get(i);
        }
        for (int j = 0; j < n; j++) {
            int r = comp.rows.size() + j;
            a[r][j] = 1.0;
            a[r][n + j] = 1.0;
            b[r] = 1.0;
        }

        Simplex.Result lp = new Simplex(a, b, new double[2 * n]).solve();
        double[] x = new double[n];
        if (lp.feasible) {
            for (int j = 0; j < n; j++) x[j] = Math.min(1.0, Math.max(0.0, lp.x[j]));
        }
        return x;
    }

    // ---------- 步骤 3：对外结论 ----------

    public List<int[]> safeCells() { return filter(0); }
    public List<int[]> mineCells() { return filter(1); }

    private List<int[]> filter(int v) {
        List<int[]> res = new ArrayList<>();
        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (board.isCovered(r, c) && verdict[r][c] == v) res.add(new int[]{r, c});
            }
        }
        return res;
    }

    /**
     * 推荐猜测：在所有未开格中取"雷概率最小"的那个。
     * 未参与建模的格子直接按全局雷密度估计（用已开数字反推的上界）。
     */
    public int[] bestGuess() {
        int[] best = null;
        double bestP = 2.0;
        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (!board.isCovered(r, c)) continue;
                double p = risk[r][c];
                if (p < 0) p = globalMineDensity(); // 视野外的格子按全局密度估计
                if (p < bestP) { bestP = p; best = new int[]{r, c}; }
            }
        }
        return best;
    }

    /** 由已知数字反推的雷密度下界（用于估计视野外格子） */
    public double globalMineDensity() {
        double known = 0, cells = 0;
        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (board.isOpened(r, c)) {
                    known += board.cell[r][c];
                    cells++;
                }
            }
        }
        return cells == 0 ? 0.2 : Math.min(1.0, known / (cells * 8.0));
    }
}
