/**
 * Server processes and their memory, read from /proc (Linux), for the on-demand benchmark
 * (test/bench/onDemandEntry.ts). A benchmark's server carries `--mcp-host-bench=<tag>` in its arguments;
 * a process so tagged is one server, and its RSS counts with that of every process below it (a
 * wrapper's children, a sandbox's). Processes under the extension host are this window's; a tagged
 * process elsewhere outlived an earlier window.
 */
import * as fs from 'node:fs';

export const TAG_ARG = '--mcp-host-bench=';

interface Proc { pid: number; ppid: number; args: string[] }

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name (field 2) is in parentheses and may hold spaces: fields after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      procs.set(Number(name), { pid: Number(name), ppid, args });
    } catch { /* it ended meanwhile */ }
  }
  return procs;
}

function rssKiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch { return 0; }
}

export interface ServerProcess { tag: string; pid: number; rssBytes: number }

export interface ServerProcesses {
  /** Tagged servers under `root`, each with the RSS of its whole tree. */
  readonly under: ServerProcess[];
  /** Tagged servers anywhere else (left over by an earlier extension host). */
  readonly elsewhere: ServerProcess[];
}

/** The tagged servers (tag starting with `prefix`) now, split by whether `root` (the extension host) is their ancestor. */
export function serverProcesses(root: number, prefix = ''): ServerProcesses {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const p of procs.values()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const tagOf = (p: Proc) => p.args.find(a => a.startsWith(TAG_ARG))?.slice(TAG_ARG.length);
  const treeRss = (pid: number): number => rssKiB(pid) + (children.get(pid) ?? []).reduce((n, c) => n + treeRss(c), 0);
  const below = (pid: number): boolean => {
    for (let p = procs.get(pid); p && p.pid > 1; p = procs.get(p.ppid)) if (p.ppid === root) return true;
    return false;
  };
  const under: ServerProcess[] = [];
  const elsewhere: ServerProcess[] = [];
  for (const p of procs.values()) {
    const tag = tagOf(p);
    // A tagged process whose parent carries the same tag is part of that server (a wrapper's child).
    const parent = procs.get(p.ppid);
    if (tag === undefined || !tag.startsWith(prefix) || (parent && tagOf(parent) === tag)) continue;
    (below(p.pid) ? under : elsewhere).push({ tag, pid: p.pid, rssBytes: treeRss(p.pid) * 1024 });
  }
  return { under, elsewhere };
}
