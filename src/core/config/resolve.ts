/** Turns a declaration into what a transport needs: variables substituted, environment built. */
import * as path from 'node:path';
import type { InputTarget, ResolvedLaunch, ServerDeclaration, VariableContext } from './types';
import type { AuthDeclaration } from './authDecl';
import { commandTarget, urlTarget } from './inputBindings';
import { substitute, VariableError } from './variables';
import { envFileReadError, parseEnvFile, readEnvFileText } from './envFile';
import { launchBase } from './envFileContent';
import { inheritedEnvironment } from './inheritedEnv';
import { relativePathUse, workspaceVariableUses, WorkspaceTrustRequiredError } from './trust';
import { isSocketUrl, socketEndpoint, SocketUrlError } from './socketUrl';

export class ResolveError extends Error {
  constructor(readonly field: string | undefined, message: string) { super(message); }
}

export interface Resolved {
  readonly launch: ResolvedLaunch;
  /** Values that came from `${input:…}`: logs and traces of this server redact them. */
  readonly secrets: readonly string[];
}

/**
 * Resolves a declaration for a start. Throws {@link WorkspaceTrustRequiredError} (before asking for
 * any `${input:…}`) when the workspace is not trusted and the declaration depends on its folders.
 */
export async function resolveDeclaration(decl: ServerDeclaration, ctx: VariableContext): Promise<Resolved> {
  if (!ctx.trusted) {
    const uses = workspaceVariableUses(decl);
    if (uses.length) throw new WorkspaceTrustRequiredError(uses);
  }
  const inputs = new Map<string, string>();
  const launch = await resolveLaunch(decl, ctx, inputs);
  return { launch, secrets: [...inputs.values()] };
}

/** The secrets of `auth` (inputs, bound to the server's origin like its headers); the rest is used as written. */
async function resolveAuth(auth: AuthDeclaration, sub: (field: string, value: string) => Promise<string>): Promise<AuthDeclaration> {
  const e = auth.enterprise;
  return {
    ...auth,
    ...(auth.clientId !== undefined ? { clientId: await sub('auth.clientId', auth.clientId) } : {}),
    ...(auth.clientSecret !== undefined ? { clientSecret: await sub('auth.clientSecret', auth.clientSecret) } : {}),
    ...(auth.privateKey !== undefined ? { privateKey: await sub('auth.privateKey', auth.privateKey) } : {}),
    ...(e ? {
      enterprise: {
        idp: { ...e.idp, ...(e.idp.clientSecret !== undefined ? { clientSecret: await sub('auth.enterprise.idp.clientSecret', e.idp.clientSecret) } : {}) },
        idToken: typeof e.idToken === 'string' ? await sub('auth.enterprise.idToken', e.idToken) : e.idToken,
      },
    } : {}),
  };
}

async function resolveLaunch(decl: ServerDeclaration, ctx: VariableContext, inputs: Map<string, string>): Promise<ResolvedLaunch> {
  // Each field is resolved knowing where its values will go: the URL's origin (known before the
  // headers are) or the command, so an input given for one target is not sent to another.
  let target: InputTarget | undefined;
  const sub = async (field: string, value: string) => {
    try { return await substitute(value, ctx, { server: decl.name, field, target }, inputs); }
    catch (e) { throw e instanceof VariableError ? new ResolveError(field, `${field}: ${e.message}`) : e; }
  };

  if (decl.type !== 'stdio') {
    target = urlTarget(decl.url);
    const raw = await sub('url', decl.url);
    // A socket URL is checked as written: URL would resolve its "..", and every socket's origin is "null".
    let socket: string | undefined;
    try { socket = isSocketUrl(raw) ? socketEndpoint(raw).identity : undefined; }
    catch (e) { throw e instanceof SocketUrlError ? new ResolveError('url', `url: ${e.message}`) : e; }
    let url: URL;
    try { url = new URL(raw); } catch { throw new ResolveError('url', `"url" is not a valid URL after substitution`); }
    target = { kind: 'origin', value: socket ?? url.origin };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(decl.headers)) headers[k] = await sub(`headers.${k}`, v);
    return { type: decl.type, url, headers, ...(decl.auth ? { auth: await resolveAuth(decl.auth, sub) } : {}) };
  }

  target = commandTarget(decl.command, decl.cwd);
  const command = await sub('command', decl.command);
  target = decl.cwd === undefined ? { kind: 'command', value: command } : { kind: 'command', value: command, folder: decl.cwd };
  const declaredCwd = decl.cwd === undefined ? undefined : await sub('cwd', decl.cwd);
  const envFile = decl.envFile === undefined ? undefined : await sub('envFile', decl.envFile);
  if (!ctx.trusted) {
    const uses = [
      relativePathUse('command', decl.command, command),
      declaredCwd === undefined ? undefined : relativePathUse('cwd', decl.cwd!, declaredCwd),
      envFile === undefined ? undefined : relativePathUse('envFile', decl.envFile!, envFile),
    ].filter(u => u !== undefined);
    if (uses.length) throw new WorkspaceTrustRequiredError(uses);
  }
  const args: string[] = [];
  for (const [i, a] of decl.args.entries()) args.push(await sub(`args[${i}]`, a));

  // Trusted: the first workspace folder (where `npx`/`uvx` users expect their project's tools).
  // Untrusted, or no folder open: the user's home, never the folder nor the editor's own directory.
  const base = launchBase(ctx);
  const cwd = declaredCwd === undefined ? base : path.resolve(base, declaredCwd);

  // Minimal inherited environment (the SDK's safe list), then envFile, then env: secrets of the
  // editor's own environment never reach servers that did not ask for them.
  const env: Record<string, string> = inheritedEnvironment();
  if (envFile !== undefined) {
    const abs = path.resolve(base, envFile);
    let text: string;
    try { text = await readEnvFileText(abs); }
    catch (e) { throw new ResolveError('envFile', envFileReadError(envFile, abs, base, e)); }
    Object.assign(env, parseEnvFile(text));
  }
  const pathKey = Object.keys(env).find(k => k.toUpperCase() === 'PATH') ?? 'PATH';
  for (const [k, v] of Object.entries(decl.env)) {
    if (v === null) { delete env[k]; continue; }
    const value = await sub(`env.${k}`, v);
    if (k.toUpperCase() === 'PATH' && env[pathKey]) {
      // A PATH in the declaration extends the inherited one (replacing it would lose node/npx).
      env[pathKey] = `${env[pathKey]}${path.delimiter}${value}`;
    } else {
      env[k] = value;
    }
  }
  return { type: 'stdio', command, args, env, cwd };
}
