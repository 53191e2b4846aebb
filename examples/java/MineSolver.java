/*
 * MineSolver: an exact Minesweeper solver speaking minecheck's external-solver protocol (schema 1).
 * An example for solver authors: one file, no dependencies (see README.md beside it).
 *
 * Input, told apart by the first line:
 *   - a board in the .mine text (header WxHxM or WxH, then rows of 0-8, F, H): one answer, then exit;
 *     the mode comes from the environment variable MINECHECK_MODE ("local" or "global");
 *   - a JSON object: persistent mode, one request per line
 *     {"schema": 1, "board": "...", "mode": "local"|"global", "seed": N}, one answer line for each,
 *     until standard input closes.
 * Output: {"schema": 1, "consistent": true|false, "cells": [{"row": R, "col": C, "verdict": V}, ...]}
 * with a verdict ("safe", "mine" or "unknown") for every frontier cell in the local mode and for
 * every covered cell in the global mode; an impossible board gets "consistent": false and no cells.
 *
 * Glossary
 *   covered   a cell neither opened nor flagged: the solver's unknowns
 *   digit     an opened cell; it owes its value, less the flags around it, to its covered neighbours
 *   frontier  the covered cells next to a digit (the local mode speaks only for these)
 *   remaining the total mine count less the flags: the mines the covered cells hold (global mode)
 *   sweep     the covered cells in a line, column by column (row by row on a board taller than wide),
 *             so that each digit's covered neighbours come close together in it
 *   open      a digit part of whose covered neighbours the sweep has passed
 *   state     what each open digit still owes; partial layouts with the same state can be finished
 *             in exactly the same ways
 *
 * Method.  The solver never lists layouts one by one (a board can have 10^19 of them).  It sweeps
 * the covered cells forwards, keeping for each state the set of mine counts that reach it, then
 * backwards, keeping for each state the mine counts so far that can still be finished: with exactly
 * `remaining` mines in all in the global mode, with any number in the local mode.  A cell can be a
 * mine (can be safe) when some state before it is reached with k mines and the state after it,
 * with k + 1 (k) mines, can still be finished.  A cell that can only be safe is safe, one that can
 * only be a mine is a mine, and if no layout finishes at all the board is inconsistent.  This is
 * exact - dynamic programming over all layouts - and fast, because few states are open at a time.
 */

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class MineSolver {

    // -- the protocol -----------------------------------------------------------------------------

    public static void main(String[] args) throws IOException {
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            String first = in.readLine();
            if (first == null) {
                throw new IllegalArgumentException("no input: expected a board, or JSON requests one per line");
            }
            if (first.strip().startsWith("{")) {
                for (String line = first; line != null; line = in.readLine()) {
                    if (!line.isBlank()) {
                        System.out.println(answerRequest(line));
                        System.out.flush(); // minecheck waits for this line before it sends the next request
                    }
                }
            } else {
                var text = new StringBuilder(first).append('\n');
                for (String line; (line = in.readLine()) != null; ) {
                    text.append(line).append('\n');
                }
                Board board = Board.parse(text.toString());
                String mode = System.getenv().getOrDefault("MINECHECK_MODE", board.total() >= 0 ? "global" : "local");
                System.out.println(answer(board, mode.equals("global")));
            }
        } catch (RuntimeException e) { // bad input: say why on standard error; minecheck shows it with the crash
            System.err.println("MineSolver: " + e);
            System.exit(2);
        }
    }

    /** One request of the persistent mode (a JSON object on one line) and its answer. */
    static String answerRequest(String line) {
        Map<String, String> request = new JsonReader(line).object();
        if (!"1".equals(request.get("schema"))) {
            throw new IllegalArgumentException("this solver speaks schema 1, not " + request.get("schema"));
        }
        return answer(Board.parse(request.get("board")), "global".equals(request.get("mode")));
    }

    /** Reads a flat JSON object (string, number, true/false/null values): all a request holds. */
    static final class JsonReader {
        private final String text;
        private int at;

        JsonReader(String text) {
            this.text = text;
        }

        Map<String, String> object() {
            var fields = new HashMap<String, String>();
            expect('{');
            while (skipSpace() != '}') {
                if (!fields.isEmpty()) {
                    expect(',');
                }
                String key = string();
                expect(':');
                fields.put(key, skipSpace() == '"' ? string() : bare());
            }
            return fields;
        }

        private String string() {
            expect('"');
            var out = new StringBuilder();
            for (char c = text.charAt(at++); c != '"'; c = text.charAt(at++)) {
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = text.charAt(at++);
                switch (escaped) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(escaped); // \" \\ \/
                }
            }
            return out.toString();
        }

        private String bare() { // a number, true, false or null, as its text
            int start = at;
            while (at < text.length() && ",} \t\r\n".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            return text.substring(start, at);
        }

        private char skipSpace() {
            while (Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            return text.charAt(at);
        }

        private void expect(char c) {
            if (skipSpace() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at character " + at + " of the request");
            }
            at++;
        }
    }

    // -- the board --------------------------------------------------------------------------------

    static final char COVERED = 'H';
    static final char FLAG = 'F';

    /** A position: cells row by row ('0'-'8', FLAG, COVERED), and the total mine count, or -1 if unknown. */
    record Board(int width, int height, char[] cells, int total) {

        static Board parse(String text) {
            var rows = new ArrayList<String>();
            int width = -1, height = -1, total = -1;
            for (String line : text.split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (rows.isEmpty() && height < 0 && line.matches("\\d+x\\d+(x\\d+)?")) {
                    String[] parts = line.split("x");
                    width = Integer.parseInt(parts[0]);
                    height = Integer.parseInt(parts[1]);
                    total = parts.length == 3 ? Integer.parseInt(parts[2]) : -1;
                } else {
                    rows.add(line.replace('.', COVERED));
                }
            }
            if (rows.isEmpty()) {
                throw new IllegalArgumentException("the board has no rows");
            }
            width = width < 0 ? rows.get(0).length() : width;
            height = height < 0 ? rows.size() : height;
            if (rows.size() != height) {
                throw new IllegalArgumentException(rows.size() + " rows, expected " + height);
            }
            var cells = new StringBuilder();
            for (String row : rows) {
                if (row.length() != width || !row.matches("[0-8FH]*")) {
                    throw new IllegalArgumentException("bad row '" + row + "': expected " + width + " of 0-8, F, H");
                }
                cells.append(row);
            }
            return new Board(width, height, cells.toString().toCharArray(), total);
        }

        boolean isCovered(int cell) {
            return cells[cell] == COVERED;
        }

        boolean isDigit(int cell) {
            return Character.isDigit(cells[cell]);
        }

        int flags() {
            int n = 0;
            for (char c : cells) {
                n += c == FLAG ? 1 : 0;
            }
            return n;
        }

        /** The up to eight cells around a cell, as indices row * width + col. */
        List<Integer> neighbours(int cell) {
            int row = cell / width, col = cell % width;
            var out = new ArrayList<Integer>(8);
            for (int r = row - 1; r <= row + 1; r++) {
                for (int c = col - 1; c <= col + 1; c++) {
                    if (r >= 0 && r < height && c >= 0 && c < width && (r != row || c != col)) {
                        out.add(r * width + c);
                    }
                }
            }
            return out;
        }

        /** What a digit still owes: its value less the flags around it. */
        int owed(int digit) {
            int flags = 0;
            for (int n : neighbours(digit)) {
                flags += cells[n] == FLAG ? 1 : 0;
            }
            return cells[digit] - '0' - flags;
        }

        String label(int cell) {
            return "r" + cell / width + "c" + cell % width;
        }
    }

    // -- the sweep --------------------------------------------------------------------------------

    /**
     * One covered cell of the sweep and the digits around it: for each digit, the slot of the state
     * that holds what it owes, what it owes when the sweep opens it here (-1 if it is open already),
     * and how many of its covered neighbours come later in the sweep.
     */
    record Step(int cell, boolean frontier, int[] slot, int[] opens, int[] later) {}

    /** The steps of the sweep, and the length of a state (the most digits open at once). */
    record Plan(List<Step> steps, int slots) {}

    static Plan plan(Board board) {
        // the covered cells column by column on a wide board, row by row on a tall one: short lines,
        // so that a digit's covered neighbours (in three lines) come close together
        var order = new ArrayList<Integer>();
        int lines = Math.max(board.width(), board.height()), along = Math.min(board.width(), board.height());
        for (int line = 0; line < lines; line++) {
            for (int k = 0; k < along; k++) {
                int cell = board.width() >= board.height() ? k * board.width() + line : line * board.width() + k;
                if (board.isCovered(cell)) {
                    order.add(cell);
                }
            }
        }
        int[] position = new int[board.cells().length];
        for (int i = 0; i < order.size(); i++) {
            position[order.get(i)] = i;
        }
        int[] first = new int[position.length], last = new int[position.length];
        Arrays.fill(first, Integer.MAX_VALUE);
        for (int d = 0; d < position.length; d++) { // where the sweep opens and closes each digit
            for (int n : board.isDigit(d) ? board.neighbours(d) : List.<Integer>of()) {
                if (board.isCovered(n)) {
                    first[d] = Math.min(first[d], position[n]);
                    last[d] = Math.max(last[d], position[n]);
                }
            }
        }
        var steps = new ArrayList<Step>();
        int[] slotOf = new int[position.length];
        Deque<Integer> free = new ArrayDeque<>(); // slots of closed digits: they hold 0, ready for reuse
        int slots = 0;
        for (int i = 0; i < order.size(); i++) {
            int cell = order.get(i);
            List<Integer> digits = board.neighbours(cell).stream().filter(board::isDigit).toList();
            int[] slot = new int[digits.size()], opens = new int[digits.size()], later = new int[digits.size()];
            for (int k = 0; k < digits.size(); k++) {
                int d = digits.get(k);
                opens[k] = -1;
                if (first[d] == i) {
                    slotOf[d] = free.isEmpty() ? slots++ : free.pop();
                    opens[k] = board.owed(d);
                }
                slot[k] = slotOf[d];
                for (int n : board.neighbours(d)) {
                    later[k] += board.isCovered(n) && position[n] > i ? 1 : 0;
                }
            }
            for (int d : digits) {
                if (last[d] == i) {
                    free.push(slotOf[d]);
                }
            }
            steps.add(new Step(cell, !digits.isEmpty(), slot, opens, later));
        }
        return new Plan(steps, slots);
    }

    /** The state after the step's cell takes `mine` (1 or 0) mines, or null if a digit around it cannot be met. */
    static String take(String state, Step step, int mine) {
        char[] owed = state.toCharArray();
        for (int k = 0; k < step.slot().length; k++) {
            int s = step.slot()[k];
            int left = (step.opens()[k] >= 0 ? step.opens()[k] : owed[s]) - mine;
            if (left < 0 || left > step.later()[k]) { // overpaid, or more owed than cells left to pay it
                return null;
            }
            owed[s] = (char) left;
        }
        return new String(owed);
    }

    /** A set of mine counts, each moved by `mines` (down when negative). */
    static BitSet plus(BitSet counts, int mines) {
        var out = new BitSet();
        for (int k = counts.nextSetBit(0); k >= 0; k = counts.nextSetBit(k + 1)) {
            if (k + mines >= 0) {
                out.set(k + mines);
            }
        }
        return out;
    }

    /** The answer for one board in one mode, as a JSON object on one line. */
    static String answer(Board board, boolean global) {
        global &= board.total() >= 0; // without a total there is nothing more to use
        for (int cell = 0; cell < board.cells().length; cell++) {
            if (board.isDigit(cell)) {
                long covered = board.neighbours(cell).stream().filter(board::isCovered).count();
                if (board.owed(cell) < 0 || board.owed(cell) > covered) {
                    return inconsistent(board.label(cell) + " shows " + board.cells()[cell] + " but has "
                            + (board.owed(cell) < 0 ? "more flags" : "fewer covered cells and flags") + " around it");
                }
            }
        }
        Plan plan = plan(board);
        List<Step> steps = plan.steps();
        String empty = "\0".repeat(plan.slots()); // no digit open, or every open digit paid

        // forwards: before.get(i) maps each state before step i to the mine counts that reach it
        var before = new ArrayList<Map<String, BitSet>>();
        var start = new BitSet();
        start.set(0); // nothing swept yet: no mines
        Map<String, BitSet> layer = Map.of(empty, start);
        for (Step step : steps) {
            before.add(layer);
            var next = new HashMap<String, BitSet>();
            for (var entry : layer.entrySet()) {
                for (int mine = 0; mine <= 1; mine++) {
                    String state = take(entry.getKey(), step, mine);
                    if (state != null) {
                        next.computeIfAbsent(state, s -> new BitSet()).or(plus(entry.getValue(), mine));
                    }
                }
            }
            layer = next;
        }

        // the mine counts a whole layout may have: exactly `remaining` in the global mode, any in the local
        var goal = new BitSet();
        int remaining = board.total() - board.flags();
        if (!global) {
            goal.set(0, steps.size() + 1);
        } else if (remaining >= 0) {
            goal.set(remaining);
        }
        if (!layer.containsKey(empty) || !layer.get(empty).intersects(goal)) {
            return inconsistent("no layout meets every digit" + (global ? " with exactly " + remaining + " mines under the covered cells" : ""));
        }

        // backwards: `finishable` maps each state after step i to the mine counts so far that can still be
        // finished; cell i can take `mine` when a count reaching a state before it is finishable after it
        boolean[][] can = new boolean[steps.size()][2];
        Map<String, BitSet> finishable = Map.of(empty, goal);
        for (int i = steps.size() - 1; i >= 0; i--) {
            var here = new HashMap<String, BitSet>();
            for (var entry : before.get(i).entrySet()) {
                for (int mine = 0; mine <= 1; mine++) {
                    String state = take(entry.getKey(), steps.get(i), mine);
                    BitSet after = state == null ? null : finishable.get(state);
                    if (after != null) {
                        BitSet needed = plus(after, -mine); // the counts before this cell that finish
                        can[i][mine] |= needed.intersects(entry.getValue());
                        here.computeIfAbsent(entry.getKey(), s -> new BitSet()).or(needed);
                    }
                }
            }
            finishable = here;
        }

        var out = new StringBuilder("{\"schema\": 1, \"consistent\": true, \"cells\": [");
        String sep = "";
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            if (!global && !step.frontier()) {
                continue; // the local mode uses only the digits: nothing to say off the frontier
            }
            String verdict = !can[i][1] ? "safe" : !can[i][0] ? "mine" : "unknown";
            out.append(sep).append("{\"row\": ").append(step.cell() / board.width())
                    .append(", \"col\": ").append(step.cell() % board.width())
                    .append(", \"verdict\": \"").append(verdict).append("\"}");
            sep = ", ";
        }
        return out.append("]}").toString();
    }

    static String inconsistent(String reason) { // reasons hold no quotes or backslashes: no escaping needed
        return "{\"schema\": 1, \"consistent\": false, \"reason\": \"" + reason + "\", \"cells\": []}";
    }
}
