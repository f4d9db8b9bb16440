/**
 * Issue 27, outside attack: a kernel file system mounted *below* a writable root. bubblewrap binds a
 * writable root with what is mounted in it, each mount keeping its own write flag, so a cgroup hierarchy
 * someone bound into a project (a container tool, the user) was writable in the sandbox: the server made
 * cgroups in the host's hierarchy and wrote cgroup.kill of a cgroup outside it. Against the real srt
 * (bubblewrap), the escapee fixture as the attacker; root is needed to make the mount (CI runs as root).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { cgroup2Mount } from '../../src/core/connection/launchCgroup';
import { kernelMountsBelow } from '../../src/core/sandbox/writable';
import { createTestHost, fixtureServer, node, text, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

describe('sandbox rules: kernel file systems mounted below a writable folder', () => {
  const info = [
    '22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw',
    '30 22 0:26 / /home/u/project/cg rw,nosuid - cgroup2 cgroup2 rw',
    '31 22 0:5 / /home/u/project/with\\040space/p rw - proc proc rw',
    '32 22 0:27 / /home/u/project/data rw - ext4 /dev/sdb1 rw',
    '33 22 0:28 / /home/u/other/cg rw - cgroup2 cgroup2 rw',
    '34 22 0:29 / /home/u/project rw - tmpfs tmpfs rw',
  ].join('\n');
  it('lists each kernel mount strictly below a folder (escapes decoded), not ordinary mounts, not the folder itself, not mounts elsewhere', () => {
    assert.deepEqual(kernelMountsBelow(['/home/u/project'], info), ['/home/u/project/cg', '/home/u/project/with space/p']);
    assert.deepEqual(kernelMountsBelow([], info), []);
  });
});

const linuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

(linuxRoot ? describe : describe.skip)('sandbox: a kernel file system mounted inside a writable root stays read-only (issue 27, outside attack)', function () {
  this.timeout(90_000);
  let dir: string;
  let home: string;
  let project: string;
  let storage: string;
  let cgMount: string;
  let bystanderCg: string;
  let madeCg: string;
  let bystander: ChildProcess | undefined;
  let mounted = false;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-kernel-mount-'));
    home = path.join(dir, 'home');
    project = path.join(home, 'project');
    storage = path.join(dir, 'storage');
    for (const d of [home, project, storage]) mkdirSync(d, { recursive: true });
    const m = cgroup2Mount(readFileSync('/proc/self/mountinfo', 'utf8'));
    assert.ok(m, 'this Linux has a cgroup2 hierarchy (the test needs one to bind)');
    cgMount = m.point;
    // Someone bound the cgroup2 hierarchy into the project: a kernel file system mounted below a root.
    mkdirSync(path.join(project, 'cg'));
    execFileSync('mount', ['--bind', cgMount, path.join(project, 'cg')], { stdio: 'ignore' });
    mounted = true;
    const id = `mcp-kernel-mount-${process.pid}-${Date.now()}`;
    bystanderCg = path.join(cgMount, `${id}-bystander`);
    madeCg = path.join(cgMount, `${id}-made-in-sandbox`);
    mkdirSync(bystanderCg);
    bystander = spawn('sleep', ['120'], { stdio: 'ignore' });
    writeFileSync(path.join(bystanderCg, 'cgroup.procs'), String(bystander.pid));
  });
  const sandboxPort = (): SandboxPort => ({
    runtime: process.execPath, cli: srtCli, storageDir: storage, protectedPaths: [storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
  });
  afterEach(() => {
    bystander?.kill('SIGKILL');
    if (mounted) try { execFileSync('umount', ['-l', path.join(project, 'cg')]); } catch { /* gone */ }
    mounted = false;
    for (const d of [madeCg, bystanderCg]) try { rmdirSync(d); } catch { /* not made, or busy until the bystander is reaped */ }
    rmSync(dir, { recursive: true, force: true });
  });

  it('ATTACKER: below the server\'s own data folder too (sandbox-data/<server>/cg): no cgroup is made through it', async () => {
    const dataDir = path.join(storage, 'sandbox-data', `e-${createHash('sha256').update('e').digest('hex').slice(0, 10)}`);
    mkdirSync(path.join(dataDir, 'cg'), { recursive: true });
    execFileSync('mount', ['--bind', cgMount, path.join(dataDir, 'cg')], { stdio: 'ignore' });
    try {
      const t = createTestHost({ variables: { workspaceFolders: [{ name: 'project', path: project }], trusted: true, userHome: home, env: process.env }, sandbox: sandboxPort() });
      t.roots.set(project);
      try {
        await t.host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true } });
        const c = t.host.require('e');
        await waitForState(c, 'running', 30_000);
        const r = await c.callTool('make-dir', { path: path.join(dataDir, 'cg', path.basename(madeCg)) });
        assert.equal(existsSync(madeCg), false, `the sandboxed server made the cgroup ${madeCg} through ${dataDir}/cg: ${text(r)}`);
      } finally { await t.host.shutdown(); }
    } finally { try { execFileSync('umount', ['-l', path.join(dataDir, 'cg')]); } catch { /* gone */ } }
  });

  it('ATTACKER: sandboxed, the server can neither make a cgroup nor write cgroup.kill of a cgroup outside it through <root>/cg', async () => {
    const port: SandboxPort = {
      runtime: process.execPath, cli: srtCli, storageDir: storage, protectedPaths: [storage], ripgrep: findRipgrep(),
      sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
    };
    const t = createTestHost({ variables: { workspaceFolders: [{ name: 'project', path: project }], trusted: true, userHome: home, env: process.env }, sandbox: port });
    t.roots.set(project);
    const inRoot = (p: string) => path.join(project, 'cg', path.relative(cgMount, p));
    const alive = () => bystander!.exitCode === null && bystander!.signalCode === null;
    try {
      await t.host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true } });
      const c = t.host.require('e');
      await waitForState(c, 'running', 30_000);
      assert.match(t.loggers.get('e')!.text(), /Sandboxed: writes only to/);
      const call = async (tool: string, args: Record<string, unknown>) => { const r = await c.callTool(tool, args); return { isError: r.isError === true, text: text(r) }; };
      // Control: the root itself is writable (the refusal below is the mount's, not the root's).
      const ok = await call('write-file', { path: path.join(project, 'note.txt'), text: 'x' });
      assert.equal(ok.isError, false, ok.text);
      const mk = await call('make-dir', { path: inRoot(madeCg) });
      const kill = await call('write-file', { path: path.join(inRoot(bystanderCg), 'cgroup.kill'), text: '1' });
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual({ madeCgroup: !mk.isError, wroteCgroupKill: !kill.isError, bystanderKilled: !alive() },
        { madeCgroup: false, wroteCgroupKill: false, bystanderKilled: false },
        `through ${path.join(project, 'cg')} (cgroup2, below a writable root) the sandboxed server: ${mk.text}; ${kill.text}`);
    } finally { await t.host.shutdown(); }
  });
});
