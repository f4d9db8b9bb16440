/**
 * A connection's tool calls: the listed tools by name, their output validators, and how a call is
 * sent — through the SDK's callTool, as a task when the tool or the 2026 tasks extension says so.
 */
import type { CallToolResult, Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { OutputValidators } from '../catalog/outputValidators';
import { ServerError } from './errors';
import type { TaskFollower } from './extensionTasks';
import { callToolAsTask, callToolOrTask, sendWith, type RequestTarget, type ToolCallOptions } from './requestPath';
import type { TracingTransport } from './tracingTransport';

export interface ToolCallTarget {
  readonly requests: RequestTarget & TaskFollower;
  transport(): TracingTransport | undefined;
  supportsToolTasks(): boolean;
}

export class ToolCalls {
  private byName = new Map<string, Tool>();
  private readonly validators: OutputValidators;
  /** Listed tool → the options handed to the SDK's callTool with its definition (see {@link toolCallOptions}). */
  private sdkDefinitions = new WeakMap<Tool, { readonly ro: RequestOptions; readonly options: RequestOptions & { toolDefinition?: Tool } }>();

  constructor(private readonly name: string, logger: Logger, private readonly target: ToolCallTarget) {
    this.validators = new OutputValidators(logger);
  }

  /** The catalogue listed `tools` (again). */
  listed(tools: readonly Tool[]): void {
    this.byName = new Map(tools.map(t => [t.name, t]));
    this.validators.retain(tools);
  }

  get(name: string): Tool | undefined { return this.byName.get(name); }

  send(name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    const support = tool?.execution?.taskSupport;
    const requests = this.target.requests;
    // Through the SDK's callTool, which mirrors `x-mcp-header` parameters into Mcp-Param-* headers
    // (2026-07-28 over HTTP) and validates the result against the era's schema; the output schema
    // is checked below, by our validators only (the definition we hand the SDK has none).
    const send = (client: Client, ro: RequestOptions) => client.callTool({ name, arguments: args }, tool ? this.toolCallOptions(tool, ro) : ro);
    const call = this.target.transport()?.tasks.active
      // 2026-07-28: the server decides whether a call becomes a task (tasks extension), for any tool.
      ? callToolOrTask(requests, e => this.target.transport()?.tasks.take(e), opts, send)
      : this.target.supportsToolTasks() && (support === 'required' || (support === 'optional' && opts.preferTask))
        ? callToolAsTask(requests, name, args, opts)
        : sendWith(requests, 'tools/call', opts, send);
    if (!tool?.outputSchema) return call;
    return call.then(result => {
      const problem = result.isError ? undefined : this.validators.check(tool, result.structuredContent);
      if (problem) throw new ServerError(this.name, problem, ProtocolErrorCode.InvalidParams);
      return result;
    });
  }

  /**
   * The SDK's options for a call of `tool`: `ro` with the tool's definition without `outputSchema`, made once
   * per listed tool and request options (shared while the call brings no signal or progress), not per call.
   */
  private toolCallOptions(tool: Tool, ro: RequestOptions): RequestOptions {
    const made = this.sdkDefinitions.get(tool);
    if (made?.ro === ro) return made.options;
    const options = { ...ro, toolDefinition: made?.options.toolDefinition ?? { ...tool, outputSchema: undefined } };
    this.sdkDefinitions.set(tool, { ro, options });
    return options;
  }
}
