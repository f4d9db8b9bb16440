/**
 * Step 1 of a start: resolve the declaration's variables, then wrap a local server's launch for the
 * Node inspector or debugpy (`dev.debug`) and the OS sandbox. Nothing runs yet; a failure here is the user's to
 * fix (a missing input, a platform that cannot sandbox, a workspace that is not trusted).
 */
import { inheritedEnvironment } from '../../config/inheritedEnv';
import { resolveDeclaration, ResolveError } from '../../config/resolve';
import type { ResolvedLaunch } from '../../config/types';
import { WorkspaceTrustRequiredError } from '../../config/trust';
import { checkSocket, isSocketUrl, socketEndpoint, SocketUrlError } from '../../config/socketUrl';
import { DebugpyLaunchError, freeLoopbackPort, withDebugpy } from '../../dev/debugpy';
import { withInspector, type InspectorPick } from '../../dev/inspector';
import { sandboxLaunch, SandboxUnavailableError } from '../../sandbox';
import { errorText } from '../errors';
import { launchRefusal } from '../../policy/enforce';
import type { StartAttempt } from './attempt';
import type { PreparedLaunch, StartContext, StartOutcome } from './context';

export async function prepareLaunch(ctx: StartContext, attempt: StartAttempt): Promise<PreparedLaunch | StartOutcome> {
  try {
    const decl = ctx.declaration;
    const resolved = await resolveDeclaration(decl, ctx.ports.variables);
    attempt.check();
    // The policy decides on what will really run: variables substituted, the command found on disk.
    const policy = ctx.ports.policy?.();
    const refused = await launchRefusal(decl, resolved.launch, policy, ctx.ports.registryInstall);
    attempt.check();
    if (refused) return { kind: 'failed', message: refused };
    let launch = resolved.launch;
    if (launch.type !== 'stdio' && isSocketUrl(launch.url)) {
      await checkSocket(socketEndpoint(launch.url.href));
      attempt.check();
    }
    let inspectorPick: InspectorPick | undefined;
    let debugpyPort: number | undefined;
    let sandboxRoots: readonly string[] | undefined;
    let sandboxRun: PreparedLaunch['sandboxRun'];
    if (launch.type === 'stdio' && decl.type === 'stdio') {
      const debug = debugToAttach(ctx, decl.dev?.debug);
      if (debug?.type === 'python') {
        debugpyPort = await freeLoopbackPort();
        attempt.check();
        launch = withDebugpy(launch, debugpyPort);
      } else if (debug) ({ launch, pick: inspectorPick } = withInspector(launch));
      const boxed = await sandboxLaunch({
        // Required by policy: sandboxed whatever the settings say, and never unsandboxed as a fallback.
        port: policy?.requireSandbox && ctx.ports.sandbox ? { ...ctx.ports.sandbox, sandboxAll: () => true, allowUnsandboxed: () => false } : ctx.ports.sandbox,
        declaration: decl, launch,
        userHome: ctx.ports.variables.userHome, roots: await ctx.rootUris(), logger: ctx.logger,
      });
      attempt.check();
      // A sandbox has a network of its own (Linux: its own loopback): the debug port inside is not the one the
      // debugger reaches on this computer, where any local process could take it and receive the attach.
      if (debug && boxed.roots !== undefined) throw new DebugpyLaunchError(`dev.debug cannot debug a sandboxed server: the sandbox gives it a loopback of its own, so the debugger would attach to whatever holds the port outside it. Debug it unsandboxed ("sandbox" removed, and not in mcpHost.sandbox.all), or remove "dev.debug".`);
      launch = boxed.launch;
      sandboxRoots = boxed.roots;
      sandboxRun = boxed.run;
    }
    return { launch, secrets: resolved.secrets, inspectorPick, debugpyPort, sandboxRoots, sandboxRun };
  } catch (e) {
    if (attempt.cancelled) return { kind: 'cancelled' };
    if (e instanceof SandboxUnavailableError) return { kind: 'failed', message: e.message };
    if (e instanceof SocketUrlError) return { kind: 'failed', message: `url: ${e.message}` };
    if (e instanceof DebugpyLaunchError) return { kind: 'failed', message: e.message };
    if (e instanceof WorkspaceTrustRequiredError) return { kind: 'needsTrust', error: e };
    return { kind: 'failed', message: e instanceof ResolveError ? e.message : `Could not prepare the server: ${errorText(e)}` };
  }
}

/** `dev.debug` when the embedder attaches that debugger; otherwise undefined, and the log says why it is ignored. */
function debugToAttach(ctx: StartContext, debug: { readonly type: 'node' | 'python' } | undefined): { readonly type: 'node' | 'python' } | undefined {
  if (!debug) return undefined;
  const attaches = ctx.ports.debuggers?.(debug.type) ?? 'this application attaches no debugger';
  if (attaches === true) return debug;
  ctx.logger.warn(`dev.debug "${debug.type}" is ignored: ${attaches}. The server runs without a debug port (one no debugger attaches to is open to every local process).`);
  return undefined;
}

export function isPrepared(p: PreparedLaunch | StartOutcome): p is PreparedLaunch {
  return 'launch' in p;
}

/** What `ServerConnection.launchValues` holds for `launch`. */
export function launchValues(launch: ResolvedLaunch): string[] {
  // `Authorization: Bearer <token>`: the token alone is the secret a server could repeat.
  if (launch.type !== 'stdio') return Object.values(launch.headers).flatMap(v => [v, ...v.split(/\s+/).slice(1)]);
  const inherited = inheritedEnvironment();
  return Object.entries(launch.env).filter(([k, v]) => inherited[k] !== v).map(([, v]) => v);
}
