/**
 * A declaration's own `roots`: folders offered to that server only, on top of the embedder's roots
 * (VS Code: the workspace folders and `mcpHost.roots`). Resolved each time the server lists its roots,
 * so a folder created later, a workspace folder added or trust granted shows on the next
 * `roots/list`. A root is an offer, never a reason to refuse a start: one that cannot be resolved,
 * is not an existing folder or is relative while the workspace is untrusted (a relative path means
 * "inside the workspace folder", which must not be shaped by an untrusted workspace) is reported
 * and left out.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import type { ServerDeclaration, VariableContext } from './types';
import { substitute, VariableError } from './variables';
import { workspaceVariableIn } from './trust';

export interface DeclaredRoots {
  readonly roots: readonly Root[];
  /** One sentence per root left out, naming the field (`roots[1]`) and the declared text. */
  readonly problems: readonly string[];
}

export async function resolveDeclaredRoots(decl: ServerDeclaration, ctx: VariableContext): Promise<DeclaredRoots> {
  const roots: Root[] = [];
  const problems: string[] = [];
  const declared = decl.roots ?? [];
  for (const [i, raw] of declared.entries()) {
    const field = `roots[${i}]`;
    if (!ctx.trusted && workspaceVariableIn(raw)) { problems.push(`${field} "${raw}" names the workspace folder, which is not trusted; it is not sent.`); continue; }
    let resolved: string;
    // Inputs are refused by the parser: a root is a path the server sees, not a secret to ask for.
    try { resolved = await substitute(raw, ctx, { server: decl.name, field }, new Map()); }
    catch (e) {
      if (!(e instanceof VariableError)) throw e;
      problems.push(`${field}: ${e.message}; it is not sent.`);
      continue;
    }
    resolved = resolved.replace(/^~(?=$|[\\/])/, ctx.userHome);
    if (!path.isAbsolute(resolved)) {
      const base = ctx.trusted ? ctx.workspaceFolders[0]?.path : undefined;
      if (base === undefined) {
        problems.push(`${field} "${raw}" is a relative path, and ${ctx.trusted ? 'no folder is open' : 'the workspace is not trusted'}; it is not sent.`);
        continue;
      }
      resolved = path.resolve(base, resolved);
    }
    resolved = path.resolve(resolved);
    let isDir = false;
    try { isDir = statSync(resolved).isDirectory(); } catch { /* reported below */ }
    if (!isDir) { problems.push(`${field} "${raw}" is not an existing folder; it is not sent.`); continue; }
    roots.push({ uri: pathToFileURL(resolved).href, name: path.basename(resolved) });
  }
  return { roots, problems };
}

/** The embedder's roots, then the declaration's, each folder once (the first entry's name wins). */
export function mergeRoots(shared: readonly Root[], own: readonly Root[]): Root[] {
  const out = [...shared];
  for (const r of own) if (!out.some(o => sameUri(o.uri, r.uri))) out.push(r);
  return out;
}

// VS Code writes `file:///c%3A/x` for a Windows drive, Node `file:///C:/x`: compare the paths they name.
function sameUri(a: string, b: string): boolean {
  const norm = (u: string) => {
    let s = u;
    try { s = decodeURIComponent(u); } catch { /* compare as written */ }
    s = s.replace(/\/$/, '');
    return process.platform === 'win32' ? s.toLowerCase() : s;
  };
  return norm(a) === norm(b);
}
