package com.example.minesweeper;

import java.util.List;

/** 一条约束：variables 中的格子恰好有 required 个雷 */
public class Constraint {
    public final List<int[]> variables;
    public final int required;

    public Constraint(List<int[]> variables, int required) {
        this.variables = variables;
        this.required = required;
    }
}
