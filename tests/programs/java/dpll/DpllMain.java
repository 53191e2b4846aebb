import java.io.*;
import java.lang.invoke.*;
import java.util.*;

/**
 * Runs the article's MinesweeperSolver.analyze and ProbabilityEngine on boards read from stdin.
 * Input: boards of rows (0-8 opened, H covered, F flag), each board ended by a line "---".
 * Output per board: "safe r c" / "mine r c" lines, "prob r c p" per variable in variable order,
 * "models n", or "error ExceptionName: message" (after a StackOverflowError also "overflow n":
 * the models counted, one nested collectModels call each, when the stack ran out); then
 * "ms t" (the board's wall-clock milliseconds) and "end".
 *
 * The models are enumerated once, by the article's private collectModels reached through a
 * method handle (no reflective native frames under it), and the probabilities are computed from
 * its counts exactly as computeProbabilities does: calling computeProbabilities as well would
 * enumerate twice and would not tell the number of models.
 */
public class DpllMain {
    static final MethodHandle COLLECT;
    static final MethodHandle BUILD;
    static final VarHandle VAR_MAP;

    static {
        try {
            MethodHandles.Lookup engine = MethodHandles.privateLookupIn(ProbabilityEngine.class, MethodHandles.lookup());
            COLLECT = engine.findVirtual(ProbabilityEngine.class, "collectModels", MethodType.methodType(void.class,
                    CNF.class, Map.class, List.class, Map.class, int[].class));
            MethodHandles.Lookup solver = MethodHandles.privateLookupIn(MinesweeperSolver.class, MethodHandles.lookup());
            BUILD = solver.findVirtual(MinesweeperSolver.class, "buildCNF", MethodType.methodType(CNF.class));
            VAR_MAP = solver.findVarHandle(MinesweeperSolver.class, "varMap", VariableMap.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) throws Throwable {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        List<String> rows = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("---")) {
                run(rows, out);
                rows.clear();
                out.flush();  // a board's answer is out before the next board starts
            } else if (!line.isEmpty()) {
                rows.add(line);
            }
        }
        out.flush();
    }

    static void run(List<String> rows, PrintStream out) throws Throwable {
        long start = System.nanoTime();
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
        int[] total = new int[]{0};
        try {
            MinesweeperSolver solver = new MinesweeperSolver(board);
            MinesweeperSolver.Result result = solver.analyze();
            for (int[] s : result.safeCells) out.println("safe " + s[0] + " " + s[1]);
            for (int[] m : result.mineCells) out.println("mine " + m[0] + " " + m[1]);
            CNF cnf = (CNF) BUILD.invoke(solver);  // the same CNF again: the variable map is kept
            VariableMap map = (VariableMap) VAR_MAP.get(solver);
            List<Integer> variables = new ArrayList<>();
            for (int v = 1; v <= cnf.numVars; v++) variables.add(v);
            // computeProbabilities, line for line, keeping its count of models
            Map<Integer, Integer> mineCount = new HashMap<>();
            for (int v : variables) mineCount.put(v, 0);
            COLLECT.invoke(new ProbabilityEngine(), cnf, new HashMap<Integer, Boolean>(), variables, mineCount, total);
            Map<Integer, Double> probs = new HashMap<>();
            for (int v : variables) {
                probs.put(v, total[0] == 0 ? 0.5 : (double) mineCount.get(v) / total[0]);
            }
            for (int v : variables) {
                int[] rc = map.getCoord(v);
                out.println("prob " + rc[0] + " " + rc[1] + " " + probs.get(v));
            }
            out.println("models " + total[0]);
        } catch (StackOverflowError e) {
            out.println("error StackOverflowError: " + e.getMessage());
            out.println("overflow " + total[0]);
        } catch (Throwable e) {
            out.println("error " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        out.println("ms " + (System.nanoTime() - start) / 1000000);
        out.println("end");
    }
}
