#!/usr/bin/env node
// solver.js: an exact Minesweeper solver speaking minecheck's protocol (schema 1), in plain Node (18+), no packages.
// An example for solver authors (README.md beside it): verdicts, exact probabilities and the layout count, both modes.
//
// Input:  one board in the .mine text on standard input, the mode in MINECHECK_MODE ("local" or "global");
//         or, when MINECHECK_PERSISTENT is set (minecheck --persistent), one JSON request per line
//         {"schema": 1, "board": "...", "mode": "...", "seed": N} until standard input closes.
// Output: {"schema": 1, "consistent": true, "layouts": "12", "cells": [{"row", "col", "verdict", "probability"}]}
//         layouts as a decimal string and probabilities as "p/q": counts pass 2^53, past which a Number is inexact.
//
// Method: the frontier (covered cells next to a digit) splits into components, cells linked through digits; each
// component's layouts are enumerated by backtracking, counted by their number of mines (BigInt).  The local mode
// takes the product over components; the global mode combines them by their mine counts with the cells off the
// frontier, which hold the rest of the total: C(off-frontier cells, mines left) ways.

"use strict";

const COVERED = -1, FLAG = -2;

function parseBoard(text) {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const head = /^(\d+)x(\d+)(?:x(\d+))?$/.exec(lines[0] || "");
  if (!head) throw new Error(`expected a header WxH or WxHxM, got ${JSON.stringify(lines[0])}`);
  const [width, height] = [Number(head[1]), Number(head[2])];
  const total = head[3] === undefined ? null : Number(head[3]);
  const cells = [];
  for (const row of lines.slice(1)) {
    for (const ch of row) cells.push(ch === "F" ? FLAG : ch === "H" || ch === "." ? COVERED : Number(ch));
  }
  if (cells.length !== width * height || cells.some(Number.isNaN)) throw new Error("rows do not match the header");
  return { width, height, total, cells };
}

function neighbours(b, cell) {
  const [r, c] = [Math.floor(cell / b.width), cell % b.width], out = [];
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const [nr, nc] = [r + dr, c + dc];
      if ((dr || dc) && nr >= 0 && nr < b.height && nc >= 0 && nc < b.width) out.push(nr * b.width + nc);
    }
  }
  return out;
}

function choose(n, k) {  // C(n, k) as a BigInt
  if (k < 0 || k > n) return 0n;
  let out = 1n;
  for (let i = 0; i < k; i++) out = (out * BigInt(n - i)) / BigInt(i + 1);
  return out;
}

// Every layout of one component: count[k] layouts with k mines, mines[i][k] of them with cell i a mine.
function enumerate(b, cells, digits, need) {
  const size = cells.length, count = new Array(size + 1).fill(0n);
  const mines = cells.map(() => new Array(size + 1).fill(0n));
  const index = new Map(cells.map((c, i) => [c, i]));
  const watch = cells.map((c) => neighbours(b, c).filter((d) => digits.has(d)));  // the digits each cell touches
  const left = new Map([...digits].map((d) => [d, neighbours(b, d).filter((n) => index.has(n)).length]));
  const owed = new Map(need), chosen = new Array(size).fill(false);
  const fits = () => [...digits].every((d) => owed.get(d) >= 0 && owed.get(d) <= left.get(d));
  function place(i, k) {
    if (i === size) {
      count[k] += 1n;
      chosen.forEach((m, j) => { if (m) mines[j][k] += 1n; });
      return;
    }
    for (const mine of [false, true]) {
      chosen[i] = mine;
      for (const d of watch[i]) { left.set(d, left.get(d) - 1); if (mine) owed.set(d, owed.get(d) - 1); }
      if (watch[i].every((d) => owed.get(d) >= 0 && owed.get(d) <= left.get(d))) place(i + 1, k + (mine ? 1 : 0));
      for (const d of watch[i]) { left.set(d, left.get(d) + 1); if (mine) owed.set(d, owed.get(d) + 1); }
    }
    chosen[i] = false;
  }
  if (fits()) place(0, 0);
  return { count, mines };
}

function solve(text, mode) {
  const b = parseBoard(text);
  const covered = b.cells.map((v, i) => i).filter((i) => b.cells[i] === COVERED);
  const flags = b.cells.filter((v) => v === FLAG).length;
  const need = new Map();  // each digit: the mines it still owes to its covered neighbours
  for (let i = 0; i < b.cells.length; i++) {
    if (b.cells[i] < 0) continue;
    const around = neighbours(b, i);
    const owed = b.cells[i] - around.filter((n) => b.cells[n] === FLAG).length;
    const room = around.filter((n) => b.cells[n] === COVERED).length;
    if (owed < 0 || owed > room) return inconsistent(`the ${b.cells[i]} at r${Math.floor(i / b.width)}c${i % b.width} cannot be met`);
    if (room) need.set(i, owed);
  }
  // components: covered cells linked through the digits they share
  const seen = new Set(), components = [];
  for (const start of covered) {
    if (seen.has(start) || !neighbours(b, start).some((n) => need.has(n))) continue;
    const cells = [], digits = new Set(), todo = [start];
    seen.add(start);
    while (todo.length) {
      const cell = todo.pop();
      cells.push(cell);
      for (const d of neighbours(b, cell).filter((n) => need.has(n))) {
        digits.add(d);
        for (const n of neighbours(b, d)) if (b.cells[n] === COVERED && !seen.has(n)) { seen.add(n); todo.push(n); }
      }
    }
    cells.sort((x, y) => x - y);
    components.push({ cells, ...enumerate(b, cells, digits, need) });
  }
  const off = covered.filter((c) => !seen.has(c));
  const answers = new Map();  // cell -> [numerator, denominator]
  let layouts;
  if (mode === "local") {
    layouts = 1n;
    for (const comp of components) {
      const all = comp.count.reduce((s, v) => s + v, 0n);
      layouts *= all;
      comp.cells.forEach((c, i) => answers.set(c, [comp.mines[i].reduce((s, v) => s + v, 0n), all]));
    }
  } else {
    if (b.total === null) throw new Error("the global mode needs the total: a header WxHxM");
    const left = b.total - flags;
    const combined = (skip) => components.reduce((acc, comp, j) => (j === skip ? acc : convolve(acc, comp.count)), [1n]);
    const weight = (k) => choose(off.length, left - k);  // ways to put the other mines off the frontier
    const all = combined(-1);
    layouts = all.reduce((s, v, k) => s + v * weight(k), 0n);
    components.forEach((comp, j) => {
      const rest = combined(j);
      comp.cells.forEach((c, i) => {
        let m = 0n;
        comp.mines[i].forEach((v, k) => { if (v) rest.forEach((w, r) => { m += v * w * weight(k + r); }); });
        answers.set(c, [m, layouts]);
      });
    });
    const offMines = all.reduce((s, v, k) => s + v * choose(off.length - 1, left - k - 1), 0n);
    off.forEach((c) => answers.set(c, [offMines, layouts]));
  }
  if (layouts === 0n) return inconsistent(mode === "global" ? "no layout meets every digit and the total" : "no layout meets every digit");
  const cells = [...answers].sort((x, y) => x[0] - y[0]).map(([c, [m, all]]) => ({
    row: Math.floor(c / b.width), col: c % b.width,
    verdict: m === 0n ? "safe" : m === all ? "mine" : "unknown", probability: fraction(m, all),
  }));
  return { schema: 1, consistent: true, layouts: layouts.toString(), cells };
}

function convolve(a, b) {
  const out = new Array(a.length + b.length - 1).fill(0n);
  a.forEach((x, i) => b.forEach((y, j) => { out[i + j] += x * y; }));
  return out;
}

function fraction(p, q) {
  let [x, y] = [p, q];
  while (y) [x, y] = [y, x % y];
  return `${p / x}/${q / x}`;
}

function inconsistent(reason) {
  return { schema: 1, consistent: false, reason, layouts: "0", cells: [] };
}

function main() {
  const fail = (err) => {
    process.stderr.write(`solver.js: ${err.message}\n`);  // anything but the answer goes to standard error
    process.exit(2);
  };
  if (process.env.MINECHECK_PERSISTENT) {  // minecheck --persistent: a request per line, an answer per line
    const lines = require("readline").createInterface({ input: process.stdin });
    lines.on("line", (line) => {
      if (!line.trim()) return;
      try {
        const request = JSON.parse(line);
        process.stdout.write(JSON.stringify(solve(request.board, request.mode)) + "\n");
      } catch (err) {
        fail(err);
      }
    });
    return;
  }
  try {
    const board = require("fs").readFileSync(0, "utf8");
    process.stdout.write(JSON.stringify(solve(board, process.env.MINECHECK_MODE || "global")) + "\n");
  } catch (err) {
    fail(err);
  }
}

main();
