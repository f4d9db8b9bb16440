/**
 * The part of ext-apps' `AppBridge` MCP Host uses, typed here: the package's declaration files import
 * their siblings without extensions (`./types`, `./events`), which TypeScript's node16 resolution
 * cannot follow, so the inherited `Protocol` members and the spec types would be `any` otherwise.
 * Shapes follow @modelcontextprotocol/ext-apps 2.0.4 (`dist/src/spec.types.d.ts`), the app bridge of the SDK 2.x line.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { CallToolResult, ContentBlock, EmbeddedResource, ListResourcesResult, ReadResourceResult, ResourceLink, Tool } from '@modelcontextprotocol/client';

export type McpUiDisplayMode = 'inline' | 'fullscreen' | 'pip';

export interface McpUiHostContext {
  toolInfo?: { tool: Tool };
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string> };
  displayMode?: McpUiDisplayMode;
  availableDisplayModes?: McpUiDisplayMode[];
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  locale?: string;
  timeZone?: string;
  platform?: 'web' | 'desktop' | 'mobile';
}

/** `ctx` is the SDK's request context (`mcpReq.id` is the request's id). */
type Handler<P, R> = ((params: P, ctx?: unknown) => Promise<R>) | undefined;

export interface AppBridgeLike {
  oninitialized: (() => void) | undefined;
  oncalltool: Handler<{ name: string; arguments?: Record<string, unknown> }, CallToolResult>;
  onreadresource: Handler<{ uri: string }, ReadResourceResult>;
  onlistresources: Handler<unknown, ListResourcesResult>;
  onopenlink: Handler<{ url: string }, { isError?: boolean }>;
  ondownloadfile: Handler<{ contents: (EmbeddedResource | ResourceLink)[] }, { isError?: boolean }>;
  onmessage: Handler<{ role: 'user'; content: ContentBlock[] }, { isError?: boolean }>;
  onupdatemodelcontext: Handler<{ content?: ContentBlock[]; structuredContent?: Record<string, unknown> }, Record<string, never>>;
  onrequestdisplaymode: Handler<{ mode: McpUiDisplayMode }, { mode: McpUiDisplayMode }>;
  onloggingmessage: ((params: { level: string; logger?: unknown; data: unknown }) => void) | undefined;
  onrequestteardown: (() => void) | undefined;
  onerror?: (error: Error) => void;
  fallbackRequestHandler?: (request: { method: string }) => Promise<never>;
  fallbackNotificationHandler?: (notification: { method: string }) => Promise<void>;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  setHostContext(context: McpUiHostContext): void;
  sendToolInput(params: { arguments?: Record<string, unknown> }): Promise<void>;
  sendToolResult(params: CallToolResult): Promise<void>;
}
