package com.example.minesweeper;

/** 单格状态 */
public class Cell {
    public enum State { HIDDEN, OPENED, FLAGGED }

    public State state = State.HIDDEN;
    public int adjacentMines = 0;

    public boolean isKnown() {
        return state == State.OPENED;
    }
}
