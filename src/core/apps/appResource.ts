/**
 * Turns a server's `resources/read` answer for an app's `ui://` resource into the document the host
 * renders: the HTML (text, or base64 blob decoded as UTF-8), the policy built from its own
 * `_meta.ui.csp`, and what else its `_meta.ui` asks for. Anything that is not an app resource is refused
 * with a reason the user can read.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { APP_MIME_TYPE } from './appTools';
import { buildAppCsp, type AppCsp, type AppCspOptions } from './csp';

/** Bigger documents are refused: the whole HTML travels through postMessage and sits in a srcdoc. */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

export interface AppDocument {
  readonly uri: string;
  readonly html: string;
  readonly csp: AppCsp;
  /** `_meta.ui.prefersBorder` when it is a boolean. */
  readonly prefersBorder?: boolean;
}

export class AppResourceError extends Error {}

/** `text/html;profile=mcp-app` however the server spaces or cases it. */
export function isAppMimeType(mime: unknown): boolean {
  return typeof mime === 'string' && mime.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;
}

export function appDocumentFrom(uri: string, result: ReadResourceResult, cspOptions: AppCspOptions = {}): AppDocument {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const item = contents.find(c => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) throw new AppResourceError(`the server returned no content for ${uri}`);
  if (!isAppMimeType(item.mimeType)) throw new AppResourceError(`${uri} is ${JSON.stringify(item.mimeType ?? 'untyped')}, not ${APP_MIME_TYPE}`);
  let html: string;
  if ('text' in item && typeof item.text === 'string') html = item.text;
  else if ('blob' in item && typeof item.blob === 'string') html = Buffer.from(item.blob, 'base64').toString('utf8');
  else throw new AppResourceError(`${uri} has neither text nor blob content`);
  if (Buffer.byteLength(html, 'utf8') > MAX_APP_HTML_BYTES) throw new AppResourceError(`${uri} is larger than ${MAX_APP_HTML_BYTES / 1024 / 1024} MB`);
  const ui = item._meta?.ui && typeof item._meta.ui === 'object' ? item._meta.ui as Record<string, unknown> : {};
  return {
    uri,
    html,
    csp: buildAppCsp(ui.csp, cspOptions),
    prefersBorder: typeof ui.prefersBorder === 'boolean' ? ui.prefersBorder : undefined,
  };
}
