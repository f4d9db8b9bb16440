/**
 * The "URL elicitation required" error (-32042): a request fails because the user must first visit one
 * or more URLs (sign in, pay, grant access). Callers wrap the request in
 * {@link retryAfterUrlElicitation}: the elicitations are handed to a resolver (the UI), and the request
 * is sent again if the resolver says so.
 */
import { ProtocolErrorCode, specTypeSchemas, type ElicitRequestURLParams } from '@modelcontextprotocol/client';

export const URL_ELICITATION_REQUIRED: number = ProtocolErrorCode.UrlElicitationRequired;

/** The error and its `cause` chain (a core `ServerError` wraps the SDK's `ProtocolError`, which has `data`). */
function causeChain(err: unknown): { code?: unknown; data?: unknown }[] {
  const chain: { code?: unknown; data?: unknown }[] = [];
  for (let e = err; chain.length < 5 && typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) chain.push(e as { code?: unknown; data?: unknown });
  return chain;
}

/**
 * The URL elicitations carried by a -32042 error (`error.data.elicitations`), or undefined when `err` is
 * not one. Malformed entries are dropped; an empty list means the server sent nothing usable.
 */
export function urlElicitationsOf(err: unknown): ElicitRequestURLParams[] | undefined {
  const chain = causeChain(err).filter(e => e.code === URL_ELICITATION_REQUIRED);
  if (!chain.length) return undefined;
  const list = (chain.find(e => e.data !== undefined)?.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list)) return [];
  const out: ElicitRequestURLParams[] = [];
  for (const item of list) {
    const parsed = specTypeSchemas.ElicitRequestURLParams['~standard'].validate(item);
    if (!parsed.issues) out.push(parsed.value);
  }
  return out;
}

export interface UrlElicitationContext {
  /** The error that carried the elicitations (a `ServerError` naming the server, when it came from the core). */
  readonly error: unknown;
  /** 1 for the first failure, 2 after one retry, … */
  readonly attempt: number;
}

/**
 * Presents the elicitations of a -32042 error and decides what happens next: `'retry'` sends the
 * original request again, `'stop'` rethrows the error to the caller.
 */
export type UrlElicitationResolver = (elicitations: readonly ElicitRequestURLParams[], context: UrlElicitationContext) => Promise<'retry' | 'stop'>;

/**
 * Runs `call`; when it fails with -32042, asks `resolve` to present the URLs and retries if it says so,
 * at most `maxAttempts` times in total (a server that keeps asking is not retried forever). Other
 * errors, and a -32042 without usable URLs, are rethrown unchanged.
 */
export async function retryAfterUrlElicitation<T>(call: () => Promise<T>, resolve: UrlElicitationResolver, options: { maxAttempts?: number } = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const elicitations = urlElicitationsOf(error);
      if (!elicitations?.length || attempt >= maxAttempts) throw error;
      if (await resolve(elicitations, { error, attempt }) !== 'retry') throw error;
    }
  }
}
