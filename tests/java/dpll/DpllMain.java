import java.io.*;
import java.lang.reflect.*;
import java.util.*;

/**
 * Runs the article's MinesweeperSolver.analyze and ProbabilityEngine on boards read from stdin.
 * Input: boards of rows (0-8 opened, H covered, F flag), each board ended by a line "---".
 * Output per board: "safe r c" / "mine r c" lines, "prob r c p" per variable in variable order,
 * "models n", or "error ExceptionName: message"; then "end".
 */
public class DpllMain {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        List<String> rows = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("---")) {
                run(rows, out);
                rows.clear();
            } else if (!line.isEmpty()) {
                rows.add(line);
            }
        }
        out.flush();
    }

    static void run(List<String> rows, PrintStream out) throws Exception {
        int h = rows.size(), w = rows.get(0).length();
        Board board = new Board(h, w, 0);  // no mines placed; the cells are set from the text below
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                char ch = rows.get(r).charAt(c);
                Cell cell = board.grid[r][c];
                if (ch >= '0' && ch <= '8') { cell.state = CellState.REVEALED; cell.value = ch - '0'; }
                else if (ch == 'F') cell.state = CellState.FLAGGED;
                else cell.state = CellState.COVERED;
            }
        }
        try {
            MinesweeperSolver solver = new MinesweeperSolver(board);
            MinesweeperSolver.Result result = solver.analyze();
            for (int[] s : result.safeCells) out.println("safe " + s[0] + " " + s[1]);
            for (int[] m : result.mineCells) out.println("mine " + m[0] + " " + m[1]);
            Method build = MinesweeperSolver.class.getDeclaredMethod("buildCNF");
            build.setAccessible(true);
            CNF cnf = (CNF) build.invoke(solver);  // the same CNF again: the variable map is kept
            Field mapField = MinesweeperSolver.class.getDeclaredField("varMap");
            mapField.setAccessible(true);
            VariableMap map = (VariableMap) mapField.get(solver);
            List<Integer> variables = new ArrayList<>();
            for (int v = 1; v <= cnf.numVars; v++) variables.add(v);
            Map<Integer, Double> probs = new ProbabilityEngine().computeProbabilities(cnf, variables);
            for (int v : variables) {
                int[] rc = map.getCoord(v);
                out.println("prob " + rc[0] + " " + rc[1] + " " + probs.get(v));
            }
            out.println("models " + countModels(cnf, variables));
        } catch (InvocationTargetException e) {
            out.println("error " + e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
        } catch (Throwable e) {
            out.println("error " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        out.println("end");
    }

    /** totalModels of computeProbabilities, which it does not return: the same enumeration, counted. */
    static int countModels(CNF cnf, List<Integer> variables) {
        Map<Integer, Integer> mineCount = new HashMap<>();
        for (int v : variables) mineCount.put(v, 0);
        int[] total = new int[]{0};
        try {
            Method collect = ProbabilityEngine.class.getDeclaredMethod("collectModels", CNF.class, Map.class,
                    List.class, Map.class, int[].class);
            collect.setAccessible(true);
            collect.invoke(new ProbabilityEngine(), cnf, new HashMap<Integer, Boolean>(), variables, mineCount, total);
        } catch (ReflectiveOperationException e) {
            throw new RuntimeException(e);
        }
        return total[0];
    }
}
