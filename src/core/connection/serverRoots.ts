/**
 * The roots one server sees: the embedder's (VS Code: workspace folders + `mcpHost.roots`) plus its
 * declaration's own `roots`. Remembers what it last answered so that a change of the declaration's
 * roots (or of trust, or of a folder they name) is announced with `roots/list_changed` only when the
 * answer would differ, and only to a server that asked before.
 */
import type { Root } from '@modelcontextprotocol/client';
import type { ServerDeclaration } from '../config/types';
import { mergeRoots, resolveDeclaredRoots } from '../config/declaredRoots';
import type { Logger } from '../logger';
import type { HostPorts, ServerRef } from '../ports';

export class ServerRoots {
  private lastOwn: string | undefined;
  private lastProblems = '';

  constructor(private readonly declaration: () => ServerDeclaration, private readonly ports: HostPorts, private readonly logger: Logger) {}

  /** Whether the client offers roots at all: the embedder has them or the declaration names some. */
  get offered(): boolean { return !!this.ports.roots || !!this.declaration().roots?.length; }

  /** Answers `roots/list`. */
  async list(ref: ServerRef): Promise<Root[]> {
    const shared = this.ports.roots ? await this.ports.roots.getRoots(ref) : [];
    return mergeRoots(shared, await this.own());
  }

  /** True when the declaration's roots now resolve differently from the last answer (the caller notifies). */
  async changed(): Promise<boolean> {
    if (this.lastOwn === undefined) return false;
    const before = this.lastOwn;
    await this.own();
    return this.lastOwn !== before;
  }

  /** A new connection: the server has not asked yet. */
  reset(): void { this.lastOwn = undefined; }

  private async own(): Promise<readonly Root[]> {
    const { roots, problems } = await resolveDeclaredRoots(this.declaration(), this.ports.variables);
    this.lastOwn = JSON.stringify(roots);
    const joined = problems.join('\n');
    if (joined !== this.lastProblems) for (const p of problems) this.logger.warn(`Root not sent: ${p}`);
    this.lastProblems = joined;
    return roots;
  }
}
