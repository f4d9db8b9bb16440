/**
 * The .vsix stays within its size target (issue 16 set 400 KB; 420 KB since the sandbox, process
 * lifetime, settings, consent and app-frame rules of issues 27/28 added ~11 KB compressed): packaged exactly as `npm run package`
 * makes it (production bundles, the .vscodeignore allow-list), into a temporary folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './helpers';

// 760 KB since the gateway of issue 31: @modelcontextprotocol/server adds ~330 KB minified to host.js,
// most of it a second copy of the protocol schemas the client package already bundles. A regression
// to win back (issue 31 stays open for it), not a new normal.
const MAX_VSIX_BYTES = 760 * 1000;

describe('.vsix size', function () {
  this.timeout(180_000); // a production build and vsce on a busy machine

  it(`is at most ${MAX_VSIX_BYTES} bytes`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-vsix-'));
    try {
      const { packageExtension } = await import(path.join(repoRoot, 'test/rig/package.mjs')) as { packageExtension: (o: { out: string }) => Promise<{ bytes: number; files: string[] }> };
      const vsix = await packageExtension({ out: path.join(dir, 'mcp-host.vsix') });
      for (const f of ['dist/early.js', 'dist/host.js']) assert.ok(vsix.files.includes(f), `${f} is not in the .vsix: ${vsix.files.join(', ')}`);
      assert.ok(vsix.bytes <= MAX_VSIX_BYTES, `the .vsix is ${vsix.bytes} bytes, over the ${MAX_VSIX_BYTES} of the target: see what grew with \`node esbuild.mjs --production --metafile=meta.json\``);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
