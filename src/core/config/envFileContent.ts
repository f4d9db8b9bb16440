/**
 * What a declaration's env file holds now, for its program identity (tools/programIdentity.ts): the
 * file changes what runs (`NODE_OPTIONS=--require …`) with no change to the declaration. Its path is
 * resolved as a start resolves it (resolve.ts), but no input is asked for: a path that needs one, and
 * a file that cannot be read, are identified by why.
 */
import * as path from 'node:path';
import { readEnvFileText } from './envFile';
import type { VariableContext } from './types';
import { substitute, VariableError } from './variables';

/** Where a relative `envFile` (and `cwd`) starts: the first folder when trusted, else the user's home. */
export function launchBase(ctx: Pick<VariableContext, 'trusted' | 'workspaceFolders' | 'userHome'>): string {
  return (ctx.trusted ? ctx.workspaceFolders[0]?.path : undefined) ?? ctx.userHome;
}

/** The env file's text (tagged), why it has none, or undefined when the declaration names no env file. */
export async function envFileContent(declaration: unknown, ctx: VariableContext): Promise<string | undefined> {
  const envFile = declaration && typeof declaration === 'object' ? (declaration as { envFile?: unknown }).envFile : undefined;
  if (typeof envFile !== 'string') return undefined;
  let declared: string;
  try {
    declared = await substitute(envFile, { ...ctx, resolveInput: undefined }, { server: '', field: 'envFile' }, new Map());
  } catch (e) {
    if (e instanceof VariableError) return `unresolved: ${e.message}`;
    throw e;
  }
  try {
    // Read as a start reads it (non-blocking, a regular file only, bounded): a FIFO (or a device) in a
    // cloned repository would otherwise hang whoever asks what the declaration runs, before anything is asked.
    return `text: ${await readEnvFileText(path.resolve(launchBase(ctx), declared))}`;
  } catch (e) {
    return `unreadable: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
}
