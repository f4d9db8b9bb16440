/**
 * The MCP SDK `Transport` between an `AppBridge` in the extension host and the app in a webview. The
 * webview's relay (appHtml.ts) wraps what the app posts as `{ kind: 'rpc', message, active }` and
 * unwraps ours; `active` is the browser's user activation when the app posted it, which only a real
 * click or key press of the user sets. Anything else from the webview (its theme and size reports,
 * the Content-Security-Policy violations of the app's frame) goes to `onHostReport`/`onViolation`.
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

/** A load the app's policy refused, as the frame reported it (the app's own script can report one too). */
export interface ViolationReport {
  readonly kind: 'violation';
  readonly directive?: unknown;
  readonly blocked?: unknown;
}

/** Requests whose user activation is kept until their handler asks for it. */
const ACTIVATION_METHODS = new Set(['ui/request-display-mode']);
const MAX_PENDING_ACTIVATIONS = 16;

export class WebviewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** One line per message each way (method or id), for the server's log. */
  onTrace?: (line: string) => void;
  /** A refused load reported from the app's frame. */
  onViolation?: (report: ViolationReport) => void;
  private listener?: vscode.Disposable;
  private closed = false;
  private readonly activations = new Map<unknown, boolean>();

  constructor(private readonly webview: vscode.Webview, private readonly onHostReport: (report: HostReport) => void) {}

  /** Whether the request `id` came right after a click or key press of the user in the app (asked once per request). */
  userActivation(id: unknown): boolean {
    const active = this.activations.get(id) === true;
    this.activations.delete(id);
    return active;
  }

  async start(): Promise<void> {
    this.listener = this.webview.onDidReceiveMessage((data: unknown) => {
      if (!data || typeof data !== 'object') return;
      const d = data as { kind?: unknown; message?: unknown; active?: unknown };
      if (d.kind === 'rpc') {
        // The bridge validates the JSON-RPC shape and the method's params (zod) before any handler runs.
        if (d.message && typeof d.message === 'object') {
          const { method, id } = d.message as { method?: unknown; id?: unknown };
          if (typeof method === 'string' && ACTIVATION_METHODS.has(method) && id !== undefined) {
            if (this.activations.size >= MAX_PENDING_ACTIVATIONS) this.activations.delete(this.activations.keys().next().value);
            this.activations.set(id, d.active === true);
          }
          this.onTrace?.(`→ ${describe(d.message)}`);
          this.onmessage?.(d.message as JSONRPCMessage);
        } else this.onerror?.(new Error('the app posted something that is not a JSON-RPC message'));
      } else if (d.kind === 'host') this.onHostReport(d as HostReport);
      else if (d.kind === 'violation') this.onViolation?.(d as ViolationReport);
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
