import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Test driver (not part of the article): plays games with the article's Board and
 * MinesweeperSolver (tests/java/dpll/MinesweeperDemo.java) by MinesweeperDemo.main's loop, and
 * prints every move, for tests/test_players_java.py to compare with minecheck's port.  Input, one
 * line per game:
 *
 *   SEED ROWS COLS R C R C ...      the mines (row, column pairs)
 *
 * Two changes to main, both needed to replay a game: the mines are the given ones instead of
 * Board.placeMines' unseeded ones, and the guesses come from new Random(SEED) instead of
 * new Random().  The rest of the loop is main's, line for line, without its printing.
 * Output per game: "move flag R C" / "move open R C" per step, then "end WIN STEPS HOW"
 * (WIN: board.win; HOW: over, cap or nothing - how the loop ended).
 */
public class SatDemoGames {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].isEmpty()) continue;
            int rows = Integer.parseInt(w[1]), cols = Integer.parseInt(w[2]);
            List<int[]> mines = new ArrayList<>();
            for (int i = 3; i + 1 < w.length; i += 2) mines.add(new int[]{Integer.parseInt(w[i]), Integer.parseInt(w[i + 1])});
            play(Long.parseLong(w[0]), rows, cols, mines, out);
        }
        System.out.print(out);
    }

    static void play(long seed, int rows, int cols, List<int[]> mines, StringBuilder out) throws Exception {
        Board board = new Board(rows, cols, mines.size());
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) board.grid[r][c].isMine = false;
        for (int[] m : mines) board.grid[m[0]][m[1]].isMine = true;
        Method numbers = Board.class.getDeclaredMethod("computeNumbers");
        numbers.setAccessible(true);
        numbers.invoke(board);

        MinesweeperSolver solver = new MinesweeperSolver(board);
        Random rand = new Random(seed);
        int firstR = rows / 2, firstC = cols / 2;
        board.reveal(firstR, firstC);
        String how = "over";
        int step = 1;
        while (!board.gameOver) {
            MinesweeperSolver.Result result = solver.analyze();
            boolean moved = false;
            for (int[] m : result.mineCells) {
                if (board.grid[m[0]][m[1]].state == CellState.COVERED) {
                    board.toggleFlag(m[0], m[1]);
                    out.append("move flag ").append(m[0]).append(' ').append(m[1]).append('\n');
                    moved = true;
                    break;
                }
            }
            if (!moved) {
                for (int[] s : result.safeCells) {
                    if (board.grid[s[0]][s[1]].state == CellState.COVERED) {
                        out.append("move open ").append(s[0]).append(' ').append(s[1]).append('\n');
                        board.reveal(s[0], s[1]);
                        moved = true;
                        break;
                    }
                }
            }
            if (!moved) {
                List<int[]> unknown = new ArrayList<>();
                for (int r = 0; r < rows; r++)
                    for (int c = 0; c < cols; c++)
                        if (board.grid[r][c].state == CellState.COVERED)
                            unknown.add(new int[]{r, c});
                if (unknown.isEmpty()) { how = "nothing"; break; }
                int[] pick = unknown.get(rand.nextInt(unknown.size()));
                out.append("move open ").append(pick[0]).append(' ').append(pick[1]).append('\n');
                board.reveal(pick[0], pick[1]);
            }
            step++;
            if (step > 100) { how = "cap"; break; }
        }
        out.append("end ").append(board.win).append(' ').append(step - 1).append(' ').append(how).append('\n');
    }
}
