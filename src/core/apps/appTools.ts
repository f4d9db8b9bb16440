/**
 * What a tool's `_meta.ui` says (MCP Apps, extension `io.modelcontextprotocol/ui`): which `ui://`
 * resource renders it and who may call it. Servers are attackers: anything malformed means "no UI"
 * and the default visibility, never more access.
 */
import type { Tool } from '@modelcontextprotocol/client';

export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The client capability an embedder that renders apps declares (under `capabilities.extensions`). */
export const appsClientCapability: Record<string, { mimeTypes: string[] }> = { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };

function uiMeta(tool: Pick<Tool, '_meta'>): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return ui && typeof ui === 'object' && !Array.isArray(ui) ? ui as Record<string, unknown> : undefined;
}

/** The `ui://` resource of the tool's app, or undefined when it declares none (or something else). */
export function appResourceUri(tool: Pick<Tool, '_meta'>): string | undefined {
  // `ui/resourceUri` is the key of the spec's first drafts; servers built on them still send it.
  const uri = uiMeta(tool)?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 2048 ? uri : undefined;
}

export interface ToolVisibility {
  /** Offered to language models (and runnable by them). */
  readonly model: boolean;
  /** Callable by the server's own app. */
  readonly app: boolean;
}

/** `_meta.ui.visibility`; absent or not a list means both, as the spec says. */
export function toolVisibility(tool: Pick<Tool, '_meta'>): ToolVisibility {
  const v = uiMeta(tool)?.visibility;
  if (!Array.isArray(v)) return { model: true, app: true };
  return { model: v.includes('model'), app: v.includes('app') };
}
