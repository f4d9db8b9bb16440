/** The nodes of the Servers view; `contextValue`s are composite (`server:running`). */
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import type { ConfigProblem, DiscoverySource, ServerConnection, SkillEntry, WithheldReason } from '../../core';

export type ServerNode =
  | { readonly kind: 'server'; readonly name: string; readonly conn: ServerConnection }
  | { readonly kind: 'problem'; readonly name: string; readonly problems: readonly ConfigProblem[] }
  | { readonly kind: 'untrusted'; readonly name: string }
  | { readonly kind: 'prompt'; readonly name: string; readonly server: string; readonly prompt: Prompt; readonly cached?: true }
  | { readonly kind: 'tool'; readonly name: string; readonly server: string; readonly tool: Tool; readonly cached?: true }
  /** A skill the server lists (Skills extension): only its listing entry; nothing of it is read until it is loaded. */
  | { readonly kind: 'skill'; readonly name: string; readonly server: string; readonly skill: SkillEntry }
  /** One enabled `mcpHost.discovery` source; `name` is its label. */
  | { readonly kind: 'source'; readonly name: string; readonly source: DiscoverySource }
  /** A discovered server that does not run here, and why; `name` is its host name (`<name>@<source>`). */
  | { readonly kind: 'withheld'; readonly name: string; readonly label: string; readonly why: WithheldReason }
  /** A discovered file that could not be used (or a server in it that was skipped): `name` is the file. */
  | { readonly kind: 'sourceFile'; readonly name: string; readonly message: string; readonly server?: string };
