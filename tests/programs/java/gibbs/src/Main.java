package com.example.minesweeper;

/** 自动对局，输出胜率与平均采样耗时 */
public class Main {
    public static void main(String[] args) {
        int games = 100;
        int wins = 0;
        long totalNanos = 0;

        for (int g = 0; g < games; g++) {
            MineBoard board = new MineBoard(16, 16, 40, g);
            MineAi ai = new MineAi(g, 400, 100);

            boolean first = true;
            boolean dead = false;
            while (true) {
                if (first) {
                    dead = board.open(board.rows / 2, board.cols / 2);
                    board.layMines(board.rows / 2, board.cols / 2);
                    first = false;
                    if (dead) break;
                    continue;
                }
                if (board.hiddenCount() == 0) { wins++; break; }

                long t0 = System.nanoTime();
                int[] move = ai.decide(board);
                totalNanos += System.nanoTime() - t0;
                if (move == null) break;

                if (move[2] == 1) {
                    board.cells[move[0]][move[1]].state = Cell.State.FLAGGED;
                    board.flags++;
                } else {
                    if (board.open(move[0], move[1])) { dead = true; break; }
                }
            }
        }
        System.out.printf("对局=%d 胜利=%d 胜率=%.1f%% 平均决策耗时=%.2fms%n",
                games, wins, wins * 100.0 / games, totalNanos / 1e6 / games);
    }
}
