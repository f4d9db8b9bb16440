import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioTransport } from '../../src/core/connection/stdioTransport';

/** Echoes every stdin line back on stdout, as fast as it reads them. */
const ECHO = "process.stdin.pipe(process.stdout)";

describe('stdio transport under backpressure', function () {
  this.timeout(30_000);

  it('1,000 sends into a full pipe all arrive, in order, waiting on one drain (no MaxListenersExceededWarning)', async () => {
    const t = new StdioTransport({ command: process.execPath, args: ['-e', ECHO], env: { ...process.env } as Record<string, string> });
    const received: number[] = [];
    const all = new Promise<void>(resolve => {
      t.onmessage = (m: JSONRPCMessage) => {
        received.push((m as unknown as { params: { i: number } }).params.i);
        if (received.length === 1000) resolve();
      };
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      await t.start();
      // 16 KB each: the pipe and the stream's buffer are full after a few, so nearly every send waits for 'drain'.
      const pad = 'x'.repeat(16 * 1024);
      const sends = Array.from({ length: 1000 }, (_, i) => t.send({ jsonrpc: '2.0', method: 'notifications/bench', params: { i, pad } }));
      await Promise.all(sends);
      await all;
      assert.deepEqual(received, Array.from({ length: 1000 }, (_, i) => i));
      assert.deepEqual(warnings.filter(w => w.startsWith('MaxListenersExceededWarning')), []);
    } finally {
      process.off('warning', onWarning);
      await t.close();
    }
  });
});
