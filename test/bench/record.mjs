// What the benchmarks written as .mjs (extension.mjs, builtin.mjs, earlyStart.mjs) share with the
// TypeScript ones (figures.ts): recording a figure for test/bench/all.mjs, and the median.
import * as fs from 'node:fs/promises';

/** Appends a figure (the shape of test/bench/figures.ts) to MCP_HOST_BENCH_FIGURES; `ratio` is value / baseline. */
export async function record(figure) {
  const full = { ...figure, ...(figure.baseline ? { ratio: figure.value / figure.baseline } : {}) };
  if (process.env.MCP_HOST_BENCH_FIGURES) await fs.appendFile(process.env.MCP_HOST_BENCH_FIGURES, JSON.stringify(full) + '\n');
}

/** The value at fraction `p` of the sorted samples. */
export const percentile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
export const median = (xs) => percentile(xs, 0.5);
