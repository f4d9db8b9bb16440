// The end of a benchmark's extensionTestsPath entry (activationEntry.ts, builtinEntry.ts): the sample
// goes to MCP_HOST_BENCH_OUT for the driver, and a results file in the shape test/rig/runIntegration.mjs
// expects, so the rig treats the benchmark like a test run of one test.
import * as fs from 'node:fs';

export function finishEntry(title: string, started: number, sample: unknown, error: string | undefined): void {
  if (process.env.MCP_HOST_BENCH_OUT) fs.writeFileSync(process.env.MCP_HOST_BENCH_OUT, JSON.stringify(sample ?? { error }));
  const ok = !error;
  if (process.env.MCP_HOST_TEST_RESULTS) {
    fs.writeFileSync(process.env.MCP_HOST_TEST_RESULTS, JSON.stringify({
      finished: true, passed: ok ? 1 : 0, failed: ok ? 0 : 1, pending: 0, durationMs: Date.now() - started,
      tests: [{ title, state: ok ? 'passed' : 'failed' }],
      failures: ok ? [] : [{ title, error: error ?? '' }],
    }));
  }
  if (!ok) throw new Error(error);
}
