package com.example.minesweeper;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/** 扫雷棋盘，含布雷、翻开、扩散与约束收集 */
public class MineBoard {
    public final int rows;
    public final int cols;
    public final int totalMines;
    public final Cell[][] cells;
    public int flags = 0;
    private final Random random;

    private static final int[][] DIRS = {
        {-1,-1},{-1,0},{-1,1},{0,-1},{0,1},{1,-1},{1,0},{1,1}
    };

    public MineBoard(int rows, int cols, int totalMines, long seed) {
        this.rows = rows;
        this.cols = cols;
        this.totalMines = totalMines;
        this.cells = new Cell[rows][cols];
        this.random = new Random(seed);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) cells[r][c] = new Cell();
        }
    }

    /** 首次点击后布雷，保证首点及其邻域安全 */
    public void layMines(int safeRow, int safeCol) {
        List<int[]> candidates = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (Math.abs(r - safeRow) <= 1 && Math.abs(c - safeCol) <= 1) continue;
                candidates.add(new int[]{r, c});
            }
        }
        // 部分洗牌：只需前 totalMines 个随机
        for (int i = 0; i < totalMines; i++) {
            int j = i + random.nextInt(candidates.size() - i);
            int[] tmp = candidates.get(i);
            candidates.set(i, candidates.get(j));
            candidates.set(j, tmp);
            int[] pos = candidates.get(i);
            cells[pos[0]][pos[1]].adjacentMines = -1;   // -1 标记为雷
        }
        // 计算数字
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (cells[r][c].adjacentMines == -1) continue;
                int count = 0;
                for (int[] d : DIRS) {
                    int nr = r + d[0], nc = c + d[1];
                    if (inBounds(nr, nc) && cells[nr][nc].adjacentMines == -1) count++;
                }
                cells[r][c].adjacentMines = count;
            }
        }
    }

    public boolean inBounds(int r, int c) {
        return r >= 0 && r < rows && c >= 0 && c < cols;
    }

    /** 翻开格子；数字为 0 时 BFS 扩散；踩雷返回 true */
    public boolean open(int r, int c) {
        if (!inBounds(r, c)) return false;
        Cell cell = cells[r][c];
        if (cell.state != Cell.State.HIDDEN) return false;
        if (cell.adjacentMines == -1) {
            cell.state = Cell.State.OPENED;
            return true;
        }
        Deque<int[]> queue = new ArrayDeque<>();
        cell.state = Cell.State.OPENED;
        queue.add(new int[]{r, c});
        while (!queue.isEmpty()) {
            int[] cur = queue.poll();
            if (cells[cur[0]][cur[1]].adjacentMines != 0) continue;
            for (int[] d : DIRS) {
                int nr = cur[0] + d[0], nc = cur[1] + d[1];
                if (!inBounds(nr, nc)) continue;
                Cell nb = cells[nr][nc];
                if (nb.state != Cell.State.HIDDEN) continue;
                nb.state = Cell.State.OPENED;
                if (nb.adjacentMines == 0) queue.add(new int[]{nr, nc});
            }
        }
        return false;
    }

    /** 收集所有已翻开数字格形成的约束 */
    public List<Constraint> constraints() {
        List<Constraint> list = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                Cell cell = cells[r][c];
                if (cell.state != Cell.State.OPENED || cell.adjacentMines == 0) continue;
                List<int[]> unknown = new ArrayList<>();
                int knownMines = 0;
                for (int[] d : DIRS) {
                    int nr = r + d[0], nc = c + d[1];
                    if (!inBounds(nr, nc)) continue;
                    Cell nb = cells[nr][nc];
                    if (nb.state == Cell.State.FLAGGED) knownMines++;
                    else if (nb.state == Cell.State.HIDDEN) unknown.add(new int[]{nr, nc});
                }
                int remaining = cell.adjacentMines - knownMines;
                if (!unknown.isEmpty() || remaining > 0) {
                    list.add(new Constraint(unknown, remaining));
                }
            }
        }
        return list;
    }

    public int hiddenCount() {
        int n = 0;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                if (cells[r][c].state == Cell.State.HIDDEN) n++;
        return n;
    }
}
