/**
 * Validates `structuredContent` against a tool's `outputSchema`. Kept apart from the SDK's client
 * cache because the SDK drops its validators on every `listTools` and throws for the whole list when
 * one schema is bad; here a bad schema disables validation for that tool only, with a warning.
 * Compiled validators are cached by schema text and compiled lazily on the first call; each listed
 * tool remembers its own, so a call does not serialize the schema again to find it.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';

type Compiled = JsonSchemaValidator<unknown> | { invalid: string };

export class OutputValidators {
  private readonly provider = new AjvJsonSchemaValidator();
  private readonly bySchema = new Map<string, Compiled>();
  private byTool = new WeakMap<Tool, Compiled>();

  constructor(private readonly logger: Logger) {}

  /** `undefined` when the content is valid or cannot be checked; otherwise the reason it is invalid. */
  check(tool: Tool, structuredContent: unknown): string | undefined {
    if (!tool.outputSchema) return undefined;
    let compiled = this.byTool.get(tool);
    if (!compiled) compiled = this.compiled(tool);
    if (typeof compiled !== 'function') return undefined;
    if (structuredContent === undefined) return `tool "${tool.name}" declares an outputSchema but returned no structuredContent`;
    const r = compiled(structuredContent);
    return r.valid ? undefined : `structuredContent of tool "${tool.name}" does not match its outputSchema: ${r.errorMessage}`;
  }

  private compiled(tool: Tool): Compiled {
    const key = JSON.stringify(tool.outputSchema);
    let compiled = this.bySchema.get(key);
    if (!compiled) {
      try {
        compiled = this.provider.getValidator(tool.outputSchema as JsonSchemaType);
      } catch (e) {
        compiled = { invalid: e instanceof Error ? e.message : String(e) };
        this.logger.warn(`Tool "${tool.name}" has an invalid outputSchema (${compiled.invalid}); its structured output is not validated.`);
      }
      this.bySchema.set(key, compiled);
    }
    this.byTool.set(tool, compiled);
    return compiled;
  }

  /** Forget schemas no tool uses any more (after a tools refresh). */
  retain(tools: readonly Tool[]): void {
    const live = new Set(tools.filter(t => t.outputSchema).map(t => JSON.stringify(t.outputSchema)));
    for (const k of this.bySchema.keys()) if (!live.has(k)) this.bySchema.delete(k);
    this.byTool = new WeakMap();
  }
}
