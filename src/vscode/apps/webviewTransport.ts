/**
 * The MCP SDK `Transport` between an `AppBridge` in the extension host and the app in a webview. The
 * webview's relay (appHtml.ts) wraps what the app posts as `{ kind: 'rpc', message }` and unwraps
 * ours; anything else from the webview (its theme and size reports) goes to `onHostReport`.
 */
import type * as vscode from 'vscode';
import type { Transport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export interface HostReport {
  readonly kind: 'host';
  readonly variables?: Record<string, unknown>;
  readonly width?: number;
  readonly height?: number;
}

export class WebviewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** One line per message each way (method or id), for the server's log. */
  onTrace?: (line: string) => void;
  private listener?: vscode.Disposable;
  private closed = false;

  constructor(private readonly webview: vscode.Webview, private readonly onHostReport: (report: HostReport) => void) {}

  async start(): Promise<void> {
    this.listener = this.webview.onDidReceiveMessage((data: unknown) => {
      if (!data || typeof data !== 'object') return;
      const d = data as { kind?: unknown; message?: unknown };
      if (d.kind === 'rpc') {
        // The bridge validates the JSON-RPC shape and the method's params (zod) before any handler runs.
        if (d.message && typeof d.message === 'object') { this.onTrace?.(`→ ${describe(d.message)}`); this.onmessage?.(d.message as JSONRPCMessage); }
        else this.onerror?.(new Error('the app posted something that is not a JSON-RPC message'));
      } else if (d.kind === 'host') this.onHostReport(d as HostReport);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.onTrace?.(`← ${describe(message)}`);
    await this.webview.postMessage({ kind: 'rpc', message });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listener?.dispose();
    this.onclose?.();
  }
}

function describe(m: object): string {
  const { method, id, error } = m as { method?: unknown; id?: unknown; error?: { message?: unknown } };
  const what = typeof method === 'string' ? method.slice(0, 100) : error ? `error "${String(error.message).slice(0, 200)}"` : 'response';
  return `${what}${typeof id === 'string' || typeof id === 'number' ? ` #${String(id).slice(0, 20)}` : ''}`;
}
