/**
 * What an administrator (or the user, for themselves) says about which MCP servers may run. The
 * embedder builds one {@link ServerPolicy} from every source it has (VS Code's locked settings,
 * policy files) with {@link mergePolicies}: each source can only narrow what another allows.
 */

/**
 * `none`: no server runs; `registryOnly`: only servers the host installed from the (pinned) registry,
 * unchanged since (registryInstalls.ts); `all`: any declared server the lists admit. Ordered from the
 * widest: a merge keeps the stricter.
 */
export type PolicyAccess = 'all' | 'registryOnly' | 'none';
export const POLICY_ACCESS: readonly PolicyAccess[] = ['all', 'registryOnly', 'none'];

export interface ServerPolicy {
  readonly access: PolicyAccess;
  /**
   * Allow lists, one per source that has one: a server runs only if a rule of EVERY list admits it
   * (`[]` admits nothing). No list: no allow restriction.
   */
  readonly allow: readonly (readonly string[])[];
  /** A server any rule here matches never runs, whatever `allow` says. */
  readonly deny: readonly string[];
  /** Every local (stdio) server runs in the OS sandbox; none runs unsandboxed, whatever the user allowed. */
  readonly requireSandbox: boolean;
  /** The only MCP registry the host talks to (browsing, installs, `registryOnly` checks). */
  readonly registryUrl?: string;
  /** OAuth authorization servers (origins) a sign-in may use; absent: any. */
  readonly authorizationServers?: readonly string[];
  /** Where each field was set, for messages ("set by /etc/vscode/policy.json"). */
  readonly sources: Readonly<Partial<Record<PolicyField, string>>>;
}

export type PolicyField = 'access' | 'allow' | 'deny' | 'requireSandbox' | 'registryUrl' | 'authorizationServers';

/** No restriction: what a host without any policy source uses. */
export const OPEN_POLICY: ServerPolicy = { access: 'all', allow: [], deny: [], requireSandbox: false, sources: {} };

/** One source's values as read (a file, a settings layer), each field optional. */
export type PolicyValues = Partial<Omit<ServerPolicy, 'sources' | 'allow'>> & { readonly allow?: readonly string[] };
