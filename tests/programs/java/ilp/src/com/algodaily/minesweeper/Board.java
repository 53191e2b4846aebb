package com.algodaily.minesweeper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * 棋盘视图。取值约定：
 *  -3 未开且未标记（covered）
 *  -2 已标记为雷（flag）
 *   0..8 已开且显示该数字
 */
public final class Board {
    public static final int COVERED = -3;
    public static final int FLAG = -2;

    public final int rows, cols;
    public final int[][] cell;

    /** 8 邻域偏移 */
    public static final int[][] DIRS = {
            {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}
    };

    public Board(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
        this.cell = new int[rows][cols];
        for (int i = 0; i < rows; i++) Arrays.fill(cell[i], COVERED);
    }

    public boolean inBounds(int r, int c) { return r >= 0 && r < rows && c >= 0 && c < cols; }
    public boolean isCovered(int r, int c) { return cell[r][c] == COVERED; }
    public boolean isFlagged(int r, int c) { return cell[r][c] == FLAG; }
    public boolean isOpened(int r, int c) { return cell[r][c] >= 0; }

    public List<int[]> neighbors(int r, int c) {
        List<int[]> res = new ArrayList<>(8);
        for (int[] d : DIRS) {
            int nr = r + d[0], nc = c + d[1];
            if (inBounds(nr, nc)) res.add(new int[]{nr, nc});
        }
        return res;
    }
}
