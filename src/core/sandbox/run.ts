/**
 * What lives exactly as long as one sandboxed process — made right before the spawn, finished once
 * the process has exited: the plant guard (Linux, plantGuard.ts) and the server's own temp folder.
 * srt and the server get that folder as TMPDIR (srt keeps its bridge sockets there too) while the
 * rest of the temp folders is hidden from the server, so sandboxed servers share no temp files with
 * each other or with other programs.
 */
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { Event } from '../events';
import type { Plant, PlantGuard } from './plantGuard';

export class SandboxRun {
  private constructor(private readonly guard: PlantGuard | undefined, private readonly tempDir: string) {}

  static start(tempDir: string, guard: (() => PlantGuard) | undefined): SandboxRun {
    try { mkdirSync(tempDir, { mode: 0o700 }); } catch (e) {
      // Another transport of the same start made it; anything else there (a link, someone else's) is not the server's.
      const st = (e as NodeJS.ErrnoException).code === 'EEXIST' ? lstatSync(tempDir) : undefined;
      if (!st?.isDirectory() || st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) throw e;
    }
    return new SandboxRun(guard?.(), tempDir);
  }

  get onPlant(): Event<Plant> { return this.guard?.onPlant ?? Event.None; }

  attach(kill: () => void): void { this.guard?.attach(kill); }

  finish(): void {
    this.guard?.finish();
    rmSync(this.tempDir, { recursive: true, force: true });
  }
}
