package com.algodaily.minesweeper;

/** 棋盘的轻量访问器：只读暴露，避免演示代码直接触碰内部字段 */
public final class BoardView {

    private final Board board;

    public BoardView(Board board) { this.board = board; }

    public boolean isCovered(int r, int c) { return board.isCovered(r, c); }
    public boolean isFlagged(int r, int c) { return board.isFlagged(r, c); }
    public boolean isOpened(int r, int c) { return board.isOpened(r, c); }
    public int digit(int r, int c) { return board.cell[r][c]; }

    /** 打印雷概率矩阵（仅未开格） */
    public void printRisk(double[][] risk) {
        for (int r = 0; r < risk.length; r++) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < risk[0].length; c++) {
                if (!isCovered(r, c)) { sb.append("   -   "); continue; }
                double p = risk[r][c];
                sb.append(p < 0 ? "   -   " : String.format(" %.3f ", p));
            }
            System.out.println(sb);
        }
    }
}
