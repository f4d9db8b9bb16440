/**
 * The policy applied to declarations (apply(), the early start) and to a resolved launch (each start's
 * prepareLaunch step). A refusal is a problem of that server, so it is shown next to it and nothing
 * else about the server happens: no process, no connection, no input asked for.
 */
import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { parseSandbox } from '../config/sandboxDecl';
import type { ConfigProblem, ResolvedLaunch, ServerDeclaration } from '../config/types';
import { declarationFacts, launchFacts } from './facts';
import { hasRegistryRules, policyRuleErrors, policyVerdict } from './gate';
import { declarationStanding, launchStanding, type RegistryInstall } from './registryInstalls';
import type { ServerPolicy } from './types';

/** The embedder's record of installing `server` from the registry, for the place it is declared now (HostPorts.registryInstall). */
export type RegistryInstallLookup = (server: string) => RegistryInstall | undefined;

/** The sandbox rules of a declaration that says only `"sandbox": true`, as the parser reads it. */
const DEFAULT_SANDBOX = parseSandbox(true, () => undefined)!;

export interface PolicyFilterResult {
  /** Admitted declarations (and those decided at launch), a local one sandboxed when the policy requires it. */
  readonly servers: readonly ServerDeclaration[];
  readonly problems: readonly ConfigProblem[];
}

export function applyPolicy(servers: readonly ServerDeclaration[], policy: ServerPolicy | undefined, installs?: RegistryInstallLookup): PolicyFilterResult {
  if (!policy) return { servers, problems: [] };
  const problems: ConfigProblem[] = policyRuleErrors(policy).map(message => ({ server: '', field: 'policy', severity: 'warning', message: `A policy rule is not understood and is ignored: ${message}.` }));
  const out: ServerDeclaration[] = [];
  for (const decl of servers) {
    const registry = needsStanding(policy) ? declarationStanding(decl, installs?.(decl.name), policy) : undefined;
    const verdict = policyVerdict(declarationFacts(decl), policy, registry);
    if (verdict.kind === 'refused') { problems.push({ server: decl.name, severity: 'error', message: verdict.message }); continue; }
    out.push(policy.requireSandbox && decl.type === 'stdio' && decl.sandbox === undefined ? { ...decl, sandbox: DEFAULT_SANDBOX } : decl);
  }
  return { servers: out, problems };
}

/** registryOnly and `registry:` rules are decided by the host's install records. */
const needsStanding = (policy: ServerPolicy) => policy.access === 'registryOnly' || hasRegistryRules(policy);

/** Whether the early start may spawn `decl` before the host exists: only what the policy admits as written. */
export function admittedAsWritten(decl: ServerDeclaration, policy: ServerPolicy | undefined): boolean {
  if (!policy) return true;
  if (policy.requireSandbox && decl.type === 'stdio') return false; // the host sandboxes it; the early start does not
  if (needsStanding(policy)) return false; // the host's install records decide; the early start does not read them
  return policyVerdict(declarationFacts(decl), policy).kind === 'admitted';
}

/** The refusal message for a resolved launch of `decl`, or undefined when the policy admits it. */
export async function launchRefusal(decl: ServerDeclaration, launch: ResolvedLaunch, policy: ServerPolicy | undefined, installs?: RegistryInstallLookup): Promise<string | undefined> {
  if (!policy) return undefined;
  const file = launch.type === 'stdio' ? await commandFile(launch.command, launch.env, launch.cwd) : undefined;
  const registry = needsStanding(policy) ? launchStanding(decl, installs?.(decl.name), launch, policy) : undefined;
  const verdict = policyVerdict(launchFacts(decl.name, launch, file), policy, registry);
  return verdict.kind === 'refused' ? verdict.message : verdict.kind === 'atLaunch' ? 'Refused by policy: what this server runs could not be decided.' : undefined;
}

/** Where `command` is on disk, links followed, as the spawn will find it (PATH of the launch's environment). */
async function commandFile(command: string, env: Readonly<Record<string, string>>, cwd: string | undefined): Promise<string | undefined> {
  const candidates: string[] = [];
  if (command.includes('/') || command.includes('\\')) candidates.push(path.resolve(cwd ?? process.cwd(), command));
  else {
    const pathValue = Object.entries(env).find(([k]) => k.toUpperCase() === 'PATH')?.[1] ?? '';
    const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
    for (const dir of pathValue.split(path.delimiter).filter(Boolean)) for (const ext of exts) candidates.push(path.join(dir, command + ext));
  }
  for (const c of candidates) {
    try {
      await access(c, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return await realpath(c);
    } catch { /* next */ }
  }
  return undefined;
}
