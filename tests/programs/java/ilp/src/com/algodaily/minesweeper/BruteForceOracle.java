package com.algodaily.minesweeper;

import java.util.Arrays;

/**
 * 暴力枚举基准：枚举 2^n 个赋值，得出每格"必雷/必安全/未知"与可行解总数。
 * 仅用于小规模组件（n <= 22）的对拍。
 */
public final class BruteForceOracle {

    /** 返回每格状态：1 必雷、0 必安全、-1 未知；out[0] 写入可行解总数 */
    public static int[] analyze(MinesweeperSolver.Component comp, long[] out) {
        int n = comp.size();
        int[] state = new int[n]; // 2 表示尚未记录
        Arrays.fill(state, 2);
        long count = 0;

        for (long mask = 0; mask < (1L << n); mask++) {
            boolean ok = true;
            for (int i = 0; i < comp.rows.size(); i++) {
                double sum = 0.0;
                double[] row = comp.rows.get(i);
                for (int j = 0; j < n; j++) {
                    if (row[j] != 0.0 && ((mask >> j) & 1L) == 1L) sum += row[j];
                }
                if (Math.abs(sum - comp.rhs.get(i)) > 1e-9) { ok = false; break; }
            }
            if (!ok) continue;

            count++;
            for (int j = 0; j < n; j++) {
                int b = (int) ((mask >> j) & 1L);
                if (state[j] == 2) state[j] = b;
                else if (state[j] != b) state[j] = -1; // 两种取值都出现过
            }
        }
        if (out != null && out.length > 0) out[0] = count;
        return state;
    }
}
