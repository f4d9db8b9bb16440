/**
 * Steps 2–3 with their retries: open a transport and hand-shake over it until the server answers.
 * The retries are explicit: Streamable HTTP refused with 400/404/405 → the legacy HTTP+SSE transport;
 * a stdio server that answers the 2026 `server/discover` probe unusably → again with `initialize` (it
 * is a 2025-era server; the connection remembers it); a sign-in in progress → wait for it, then again.
 * A stdio server that *dies* on the probe is not retried: an exit is no answer, and a second spawn
 * would run its start-up (and whatever side effects it has) twice in one attempt (era.ts ProbeVerdict).
 */
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { TransportType } from '../../config/types';
import { findAuthError, findAuthorizationPending, SignInRequiredError, type OAuthSession } from '../../auth';
import { MODERN_REVISION } from '../era';
import { describeExit, describeNetworkError, errorText, formatDuration } from '../errors';
import { LaunchError, StdioTransport } from '../stdioTransport';
import { StartCancelled, type StartAttempt } from './attempt';
import type { PreparedLaunch, StartContext, StartOutcome } from './context';
import { handshake, StartTimedOut } from './handshake';
import { openTransport, type OpenedTransport } from './openTransport';
import { waitForSignIn } from './waitForSignIn';

const FALLBACK_STATUSES = new Set([400, 404, 405]);
/** Sign-in rounds one start waits for before it gives up. */
const MAX_AUTH_ROUNDS = 3;

/** A transport whose handshake succeeded, still owned by the attempt until `release()` (the connection took it). */
export interface Connected extends OpenedTransport {
  readonly session?: OAuthSession;
  release(): void;
}

export async function connect(ctx: StartContext, attempt: StartAttempt, prepared: PreparedLaunch): Promise<Connected | StartOutcome> {
  const onTrial = ctx.probeVerdict === 'diedOnProbe';
  const result = await connectOnce(ctx, attempt, prepared);
  // The start after a death on the probe decides what that death was (a cancel decides nothing).
  if (onTrial && ctx.probeVerdict === 'diedOnProbe') {
    if (isConnected(result)) {
      ctx.logger.info('It answered initialize: a 2025-era server that exits on server/discover; it starts with initialize from now on');
      ctx.probeVerdict = 'legacy';
    } else if (result.kind !== 'cancelled') ctx.probeVerdict = 'probe';
  }
  return result;
}

async function connectOnce(ctx: StartContext, attempt: StartAttempt, prepared: PreparedLaunch): Promise<Connected | StartOutcome> {
  const { launch } = prepared;
  const session = launch.type === 'stdio' ? undefined : ctx.oauthSessionFor(launch.url, launch.headers, launch.auth);
  if (session) session.interaction = ctx.signInPending ? 'signIn' : 'silent';
  const kinds: TransportType[] = launch.type === 'http' ? ['http', 'sse'] : [launch.type];
  let authRounds = 0;
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i];
    attempt.check();
    const opened = openTransport(ctx, prepared, kind, session);
    // The transport too: while the SDK is in the middle of its era probe, closing the client alone does not reach it.
    const release = attempt.own(() => closeBoth(opened));
    const timeoutMs = ctx.startTimeoutMs();
    try {
      await handshake(attempt, opened.client, opened.wire, timeoutMs, () => closeBoth(opened));
      return { ...opened, session, release };
    } catch (err) {
      release();
      await closeBoth(opened);
      if (err instanceof StartCancelled || attempt.cancelled) return { kind: 'cancelled' };
      if (err instanceof StartTimedOut) {
        return { kind: 'failed', message: `Did not start within ${formatDuration(timeoutMs)} (no answer to initialize); the server was stopped. Raise "startTimeout" if it needs longer.` };
      }
      const pending = findAuthorizationPending(err);
      if (pending && authRounds++ < MAX_AUTH_ROUNDS) {
        try { await waitForSignIn(attempt, pending.authorization, () => session?.abandonAuthorization()); } catch (e) {
          if (attempt.cancelled) return { kind: 'cancelled' };
          return { kind: 'needsSignIn', error: findAuthError(e) ?? new SignInRequiredError(undefined, { cause: e }) };
        }
        i--;
        continue;
      }
      const authError = findAuthError(err);
      if (authError) return { kind: 'needsSignIn', error: authError };
      if (kind === 'http' && err instanceof SdkHttpError && FALLBACK_STATUSES.has(err.status)) {
        ctx.logger.info(`Streamable HTTP was refused (HTTP ${err.status}); trying the legacy HTTP+SSE transport`);
        continue;
      }
      if (ctx.restarting && launch.type !== 'stdio' && describeNetworkError(err)) {
        return { kind: 'crashed', reason: `the server is still unreachable (${describeNetworkError(err, launch.url.href)})` };
      }
      const inner = opened.inner;
      // A pinned 2026-07-28 start has no fallback: its probe failure is reported as it is.
      const pinned = ctx.declaration.protocol === MODERN_REVISION;
      if (inner instanceof StdioTransport && err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && ctx.probeVerdict === 'probe') {
        if (inner.exitInfo) {
          if (!pinned) ctx.probeVerdict = 'diedOnProbe';
          ctx.logger.info(`The server exited during the 2026 server/discover probe (${describeExit(inner.exitInfo)})${pinned ? '' : '; its next start tries initialize'}`);
          return { kind: 'crashed', reason: `exited during the server/discover probe: ${describeExit(inner.exitInfo)}${pinned ? '' : ' (if it is a 2025-era server that exits on requests before initialize, "protocol": "2025-11-25" starts it with initialize)'}` };
        }
        if (!pinned) {
          // It answered the probe, though not usably: a 2025-era server. Again with `initialize` from now on.
          ctx.logger.info(`The server/discover probe failed (${err.message}); starting again with initialize`);
          ctx.probeVerdict = 'legacy';
          i--;
          continue;
        }
      }
      if (inner instanceof StdioTransport && err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) {
        return { kind: 'crashed', reason: `exited during initialization: ${describeExit(inner.exitInfo)}` };
      }
      return { kind: 'failed', message: describeStartError(err, kind, (ctx.declaration as { url?: string }).url) };
    }
  }
  // Unreachable: the last transport either connects or returns an outcome.
  return { kind: 'failed', message: 'Could not start: no transport left to try.' };
}

function describeStartError(err: unknown, kind: string, url: string | undefined): string {
  if (err instanceof LaunchError) return err.message;
  if (err instanceof SdkHttpError) return `The server answered HTTP ${err.status} to initialize (${kind}): ${err.message}`;
  const network = describeNetworkError(err, url);
  if (network) return `Could not connect: ${network}.`;
  const text = errorText(err);
  return /^Could not start\b/.test(text) ? text : `Could not start: ${text}`;
}

async function closeBoth(opened: OpenedTransport): Promise<void> {
  await Promise.all([opened.client.close().catch(() => {}), opened.inner.close().catch(() => {})]);
}

export function isConnected(c: Connected | StartOutcome): c is Connected {
  return 'client' in c;
}
