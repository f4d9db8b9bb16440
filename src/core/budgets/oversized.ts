import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { formatBytes } from './limits';
import type { OversizedLine } from './lineSplitter';

/** Error code of the answer we make up for a response that was too large to read. */
export const MESSAGE_TOO_LARGE = -32010;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const REQUEST_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/;
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * A message too large to read is dropped unparsed. When its first or last bytes show it is the
 * response to one of our requests, this is an error response for that id, so the request fails
 * at once with the reason instead of waiting for its timeout.
 */
export function oversizedReply(line: OversizedLine, maxBytes: number): JSONRPCMessage | undefined {
  if (REQUEST_START.test(line.head)) return undefined;
  const m = ID_FIRST.exec(line.head) ?? ID_LAST.exec(line.tail);
  if (!m) return undefined;
  let id: string | number;
  try { id = JSON.parse(m[1]) as string | number; } catch { return undefined; }
  return { jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE, message: describeOversized(line.bytes, maxBytes) } };
}

/** `bytes` undefined: the message was cut while still arriving, its size is unknown. */
export function describeOversized(bytes: number | undefined, maxBytes: number): string {
  return bytes === undefined
    ? `the server sent a message larger than the ${formatBytes(maxBytes)} allowed for one message`
    : `the server sent a message of ${formatBytes(bytes)}, more than the ${formatBytes(maxBytes)} allowed for one message`;
}
