package com.example.minesweeper;

import java.util.List;
import java.util.Map;

/** 基于采样的扫雷决策器：必安全则点，必是雷则插旗，否则点概率最低处 */
public class MineAi {

    private final GibbsSampler sampler;
    private final int samples;
    private final int burnIn;

    public MineAi(long seed, int samples, int burnIn) {
        this.sampler = new GibbsSampler(seed);
        this.samples = samples;
        this.burnIn = burnIn;
    }

    /** 返回下一步动作：{row, col, action}，action: 0=点开 1=插旗 */
    public int[] decide(MineBoard board) {
        List<Constraint> cons = board.constraints();
        Map<String, Double> prob = sampler.estimate(cons, samples, burnIn);

        // 剩余雷数用于计算非边界格的先验概率
        int flaggedMines = 0;
        for (int r = 0; r < board.rows; r++)
            for (int c = 0; c < board.cols; c++)
                if (board.cells[r][c].state == Cell.State.FLAGGED) flaggedMines++;

        double acc = 0;
        int counted = 0;
        for (double p : prob.values()) { acc += p; counted++; }
        double estMinesOnBoundary = acc;
        int unknownTotal = board.hiddenCount();
        double farProb = unknownTotal > counted
                ? Math.max(0, (board.totalMines - flaggedMines - estMinesOnBoundary))
                  / (unknownTotal - counted)
                : 0.0;

        int[] best = null;
        double bestProb = 2.0;
        int[] sureMine = null;

        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                Cell cell = board.cells[r][c];
                if (cell.state != Cell.State.HIDDEN) continue;

                String k = r + "," + c;
                double p = prob.containsKey(k) ? prob.get(k) : farProb;

                if (p >= 0.999 && board.flags < board.totalMines) {
                    sureMine = new int[]{r, c, 1};
                }
                if (p < bestProb) {
                    bestProb = p;
                    best = new int[]{r, c, 0};
                }
            }
        }
        if (sureMine != null) return sureMine;
        return best;
    }
}
