/**
 * One figure of `npm run bench` (test/bench/all.mjs): every benchmark records what it measured here,
 * and the driver prints the table and writes them all with `--json FILE`, so a figure can be compared
 * across commits. Records go to the JSON-lines file named by MCP_HOST_BENCH_FIGURES (nothing when
 * a benchmark runs on its own). Never asserted: the machines are noisy.
 */
import * as fs from 'node:fs';

export interface Figure {
  /** Stable across commits: the key a comparison joins on. */
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same measured on the baseline (raw SDK, …) in the same run, when there is one. */
  readonly baseline?: number;
  /** value / baseline. */
  readonly ratio?: number;
  /** What the issue asks for, e.g. "≤ 1.05" (of the ratio when there is a baseline, else of the value). */
  readonly target?: string;
  /** How many samples the value (a median unless the name says otherwise) was taken over. */
  readonly samples: number;
  /** Samples that failed and are not in the value. */
  readonly failures: number;
  /** Spread or context, shown in the table. */
  readonly note?: string;
}

export function record(figure: Omit<Figure, 'ratio'>): Figure {
  const full: Figure = { ...figure, ...(figure.baseline ? { ratio: figure.value / figure.baseline } : {}) };
  const file = process.env.MCP_HOST_BENCH_FIGURES;
  if (file) fs.appendFileSync(file, JSON.stringify(full) + '\n');
  return full;
}

export const median = (xs: readonly number[]) => percentile(xs, 0.5);

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
}

/** "min–max" of the samples, for the note of a median. */
export function spread(xs: readonly number[], digits = 1): string {
  return xs.length ? `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}` : '';
}
