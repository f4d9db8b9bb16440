import { ProtocolError, ResourceNotFoundError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * JSON-RPC codes our errors carry for the SDK's local failures (SDK 2.x names them with strings):
 * the values SDK 1.x used, which the UI and embedders already match on.
 */
export const CONNECTION_CLOSED = -32000;
export const REQUEST_TIMEOUT = -32001;

/** An error that names the server it came from, so a user reading it knows where to look. */
export class ServerError extends Error {
  constructor(readonly server: string, message: string, readonly code?: number, options?: { cause?: unknown }) {
    super(`${server}: ${message}`, options);
    this.name = 'ServerError';
  }
}

/**
 * The server has no such resource: -32002 from servers of the 2025 revisions, -32602 with the SDK's
 * ResourceNotFoundError since 2026-07-28 (which the SDK also makes of a -32002).
 */
export function isResourceNotFound(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ResourceNotFoundError || (e as { code?: unknown }).code === -32002) return true;
  }
  return false;
}

/** "300 ms", "1.5 s", "60 s": a duration as a person reads it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Math.round(s * 10) / 10 : Math.round(s)} s`;
}

export function describeExit(exit: { code: number | null; signal: string | null } | undefined): string {
  if (!exit) return 'the connection closed';
  if (exit.signal) return `the process was killed by ${exit.signal}`;
  return `the process exited with code ${exit.code}`;
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE))/;
/**
 * The codes of {@link describeNetworkError} as they appear in a message: the legacy SSE transport passes
 * only the text of fetch's error on ("SSE error: TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:9").
 */
const CODE_IN_TEXT = /\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_[A-Z_]+|CERT_[A-Z_]+|ERR_TLS_[A-Z_]+|ERR_SSL_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+)\b/;

/**
 * Why a connection to an HTTP server failed, in words, from the error codes in the `cause` chain
 * that `fetch failed` hides (or, where only text survived, the codes in the messages); `undefined` when
 * the error is not a network failure. `url` names where: host and port.
 */
export function describeNetworkError(err: unknown, url?: string): string | undefined {
  let fetchFailed = false;
  let innermost: string | undefined;
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const message = typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : '';
    const own = (e as { code?: unknown }).code;
    const code = typeof own === 'string' ? own : CODE_IN_TEXT.exec(message)?.[1];
    // fetch refuses the ports of the Fetch standard's "bad port" list (1, 6000, 6665-6669 …) before any
    // traffic; undici says only "bad port", with no code.
    if (/\bbad port\b/.test(message)) return `port ${portOf(url) ?? '(unknown)'}${url && safeHost(url) ? ` of ${safeHost(url)}` : ''} is blocked: fetch never connects to it (it is on the Fetch standard's list of blocked ports, whatever listens there); serve the server on another port`;
    if (code) {
      const described = describeCode(code, e, message, url);
      if (described) return described;
    }
    if (/\bfetch failed\b/.test(message)) fetchFailed = true;
    if (message) innermost = message;
  }
  // fetch failed for a reason without a code we know: say where, and the innermost reason given.
  if (fetchFailed) return `the request to ${url ? originOf(url) : 'the server'} failed${innermost && !/^(TypeError: )?fetch failed$/.test(innermost) ? ` (${innermost})` : ''}`;
  return undefined;
}

function describeCode(code: string, e: unknown, message: string, url: string | undefined): string | undefined {
  const host = url ? safeHost(url) : undefined;
  const where = url ?? addressOf(e);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return `the host name ${host ? `"${host}" ` : ''}could not be resolved (DNS: ${code})`;
  if (code === 'ECONNREFUSED') return `connection refused: nothing is listening${where ? ` at ${where}` : ''}`;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return `the server dropped the connection (${code})`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `the connection timed out (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `the host is unreachable (${code})`;
  if (TLS_CODES.test(code)) return `the TLS certificate was refused (${code}: ${message})`;
  return undefined;
}

/** host:port of an error that carries them (a refused socket), for a message without the URL. */
function addressOf(e: unknown): string | undefined {
  const { address, port } = e as { address?: unknown; port?: unknown };
  return typeof address === 'string' && typeof port === 'number' ? `${address}:${port}` : undefined;
}

function portOf(url: string | undefined): string | undefined {
  try { const u = new URL(url ?? ''); return u.port || (u.protocol === 'https:' ? '443' : '80'); } catch { return undefined; }
}

function originOf(url: string): string {
  try { return new URL(url).host; } catch { return url; }
}

function safeHost(url: string): string | undefined {
  try { return new URL(url).hostname; } catch { return undefined; }
}

interface SchemaIssue { path?: (string | number)[]; message?: string; errors?: SchemaIssue[][] }

/**
 * A validation error the SDK sends as its raw JSON list of issues, as one line: the deepest field
 * that failed (`params.requestedSchema.properties.address: Invalid input`); other text shortened.
 */
export function summarizeRefusal(reason: string): string {
  // SDK 1.x prefixed "MCP error -32602: ", 2.x prefixes "Invalid elicitation request: ".
  const text = reason.replace(/^MCP error -?\d+: /, '').replace(/^Invalid [\w/ -]+ request: (?=\[)/, '');
  let issues: unknown;
  try { issues = JSON.parse(text); } catch { issues = undefined; }
  if (!Array.isArray(issues)) return oneLine(text, 300);
  // The deepest value that fits none of the shapes allowed there (a union), else the deepest issue.
  let union: { path: (string | number)[]; message: string } | undefined;
  let best: typeof union;
  const walk = (list: SchemaIssue[], prefix: (string | number)[]) => {
    for (const issue of list) {
      const path = [...prefix, ...(issue.path ?? [])];
      const found = { path, message: issue.message ?? 'invalid' };
      if (!best || path.length > best.path.length) best = found;
      if (issue.errors?.length && (!union || path.length > union.path.length)) union = found;
      for (const branch of issue.errors ?? []) walk(branch, path);
    }
  };
  walk(issues as SchemaIssue[], []);
  best = union ?? best;
  const found = best as { path: (string | number)[]; message: string } | undefined;
  return found ? oneLine(`${found.path.join('.') || '(request)'}: ${found.message}`, 300) : oneLine(text, 300);
}

function oneLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Maps SDK errors from a request into {@link ServerError}s that say what happened in user terms. */
export function toServerError(server: string, method: string, err: unknown, closedReason?: string, url?: string): ServerError {
  if (err instanceof ServerError) return err;
  if (err instanceof SdkError) {
    switch (err.code) {
      case SdkErrorCode.ConnectionClosed:
        return new ServerError(server, `${method} failed: ${closedReason ?? 'the connection closed'} before the server answered`, CONNECTION_CLOSED, { cause: err });
      case SdkErrorCode.RequestTimeout: {
        // The SDK reports an abort as RequestTimeout too; only its own timer puts the timeout in `data`.
        const timeout = (err.data as { timeout?: number } | undefined)?.timeout;
        return timeout === undefined
          ? new ServerError(server, `${method} was cancelled`, REQUEST_TIMEOUT, { cause: err })
          : new ServerError(server, `${method} timed out after ${formatDuration(timeout)}; the request was cancelled`, REQUEST_TIMEOUT, { cause: err });
      }
      default:
        return new ServerError(server, `${method} failed: ${err.message}`, undefined, { cause: err });
    }
  }
  if (err instanceof ProtocolError) {
    return new ServerError(server, `${method} failed: ${err.message.replace(/^MCP error -?\d+: /, '')}`, err.code, { cause: err });
  }
  if (err instanceof Error && err.name === 'AbortError') return new ServerError(server, `${method} was cancelled`, REQUEST_TIMEOUT, { cause: err });
  // The URL says where nothing answered (a declaration may list several servers on one host).
  const network = describeNetworkError(err, url);
  if (network) return new ServerError(server, `${method} failed: could not reach the server: ${network}`, CONNECTION_CLOSED, { cause: err });
  const msg = err instanceof Error ? err.message : String(err);
  return new ServerError(server, `${method} failed: ${msg}`, undefined, { cause: err });
}

/** An error's message, or whatever was thrown as text. */
export function errorText(e: unknown): string { return e instanceof Error ? e.message : String(e); }
