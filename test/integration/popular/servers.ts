/**
 * The real-server suite (issue 30): popular servers from npm, pinned in devDependencies, declared as a
 * user would (the commands and options of their READMEs); Chromium is Debian's, as CI installs it.
 */
import * as path from 'node:path';
import * as zlib from 'node:zlib';

const modules = path.resolve(__dirname, '../../../../node_modules');
/** Debian's Chromium (the rig's MCP_HOST_TEST_CHROMIUM, as for the workbench's own browser). */
const chromium = process.env.MCP_HOST_TEST_CHROMIUM || '/usr/bin/chromium';

/** `npx @playwright/mcp` with the system Chromium, headless; without its sandbox when run as root (CI): Chromium refuses to start sandboxed as root. */
export function playwrightServer(outputDir: string) {
  const asRoot = process.getuid?.() === 0;
  return {
    command: process.execPath,
    args: [path.join(modules, '@playwright/mcp/cli.js'), '--headless', '--isolated', '--executable-path', chromium,
      '--output-dir', outputDir, '--viewport-size', '800,600', ...(asRoot ? ['--no-sandbox'] : [])],
  };
}

/**
 * `npx @cyanheads/git-mcp-server`: confined to `baseDir`, with an identity of its own and no signing (no key
 * in CI). The server sets only the author; git's own GIT_COMMITTER_* variables name the committer, as on a
 * machine with no global git identity (CI).
 */
export function gitServer(baseDir: string) {
  return {
    command: process.execPath,
    args: [path.join(modules, '@cyanheads/git-mcp-server/dist/index.js')],
    env: { GIT_BASE_DIR: baseDir, GIT_AUTHOR_NAME: 'MCP Host Test', GIT_AUTHOR_EMAIL: 'mcp-host-test@example.invalid',
      GIT_COMMITTER_NAME: 'MCP Host Test', GIT_COMMITTER_EMAIL: 'mcp-host-test@example.invalid', GIT_SIGN_COMMITS: 'false' },
  };
}

/** `npx @modelcontextprotocol/server-system-monitor --stdio`: an MCP Apps server (a live chart of this machine). */
export function systemMonitorServer() {
  return { command: process.execPath, args: [path.join(modules, '@modelcontextprotocol/server-system-monitor/dist/index.js'), '--stdio'] };
}

/** The RGB of a PNG's top-left pixel (8-bit RGB or RGBA, what browsers write): enough to tell which page a screenshot shows. */
export function topLeftPixel(png: Buffer): [number, number, number] {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  const idat: Buffer[] = [];
  let depth = 0, colorType = -1;
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') { depth = data[8]; colorType = data[9]; }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  if (depth !== 8 || (colorType !== 2 && colorType !== 6)) throw new Error(`PNG of bit depth ${depth}, colour type ${colorType}`);
  // Row 0 starts with its filter byte; for the first pixel of the first row every filter adds 0.
  const raw = zlib.inflateSync(Buffer.concat(idat));
  return [raw[1], raw[2], raw[3]];
}
