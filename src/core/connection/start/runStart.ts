/**
 * A start, step by step: prepare the launch → open a transport and hand-shake (with its retries) →
 * wire the running client → load the catalogues. Each step checks the attempt's one cancellation;
 * what a step opened is closed by the attempt until the connection has taken it over (step 4).
 */
import type { SignInRequiredError } from '../../auth';
import type { StartAttempt } from './attempt';
import { connect, isConnected } from './connect';
import type { PreparedLaunch, StartContext, StartOutcome } from './context';
import { isPrepared, prepareLaunch } from './prepareLaunch';
import { wireClient, type RunningClient, type WireCallbacks } from './wireClient';

export interface StartHooks extends WireCallbacks {
  /** What resolving gave: the secrets to redact, the sandbox's roots. */
  prepared(prepared: PreparedLaunch): void;
  /** The connection takes the running client over (and from now on owns its transport). */
  adopt(running: RunningClient): void;
  /** Step 5: lists what the server offers; a sign-in error found on the way is returned. */
  loadCatalogs(running: RunningClient): Promise<SignInRequiredError | undefined>;
}

export async function runStart(ctx: StartContext, attempt: StartAttempt, hooks: StartHooks): Promise<StartOutcome> {
  const prepared = await prepareLaunch(ctx, attempt);
  if (!isPrepared(prepared)) return prepared;
  hooks.prepared(prepared);
  const connected = await connect(ctx, attempt, prepared);
  if (!isConnected(connected)) return connected;
  const running = wireClient(connected, ctx.logger, hooks);
  hooks.adopt(running);
  connected.release();
  const info = running.client.getServerVersion();
  ctx.logger.info(`Connected to ${info?.title ?? info?.name ?? ctx.name} ${info?.version ?? ''} (protocol ${running.protocolVersion ?? '?'})`);
  const catalogAuthError = await hooks.loadCatalogs(running);
  if (attempt.cancelled) return { kind: 'cancelled' };
  if (catalogAuthError) return { kind: 'needsSignIn', error: catalogAuthError };
  if (connected.session) connected.session.interaction = 'running';
  return { kind: 'running' };
}
