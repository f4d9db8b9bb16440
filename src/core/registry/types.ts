/**
 * The MCP Registry's shapes (`/v0.1/servers`, server.json) as far as a host reads them. Every field
 * comes from a registry the user may not control, so readers treat them as unknown until checked
 * (see `readServerList`).
 */

/** An input a registry entry asks for: a value, a default, or something the user must give. */
export interface RegistryInput {
  readonly description?: string;
  readonly isRequired?: boolean;
  readonly isSecret?: boolean;
  readonly format?: string;
  readonly value?: string;
  readonly default?: string;
  readonly choices?: readonly string[];
  /** `{name}` placeholders in `value`, each an input of its own. */
  readonly variables?: Readonly<Record<string, RegistryInput>>;
}

/** An environment variable or header. */
export interface RegistryKeyValue extends RegistryInput {
  readonly name: string;
}

export interface RegistryArgument extends RegistryInput {
  readonly type: 'positional' | 'named';
  /** The flag of a named argument (`--port`). */
  readonly name?: string;
  readonly valueHint?: string;
  readonly isRepeated?: boolean;
}

export interface RegistryTransport {
  readonly type: 'stdio' | 'streamable-http' | 'sse' | string;
  readonly url?: string;
  readonly headers?: readonly RegistryKeyValue[];
}

export interface RegistryPackage {
  readonly registryType: 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb' | string;
  readonly registryBaseUrl?: string;
  readonly identifier: string;
  readonly version?: string;
  readonly fileSha256?: string;
  readonly runtimeHint?: string;
  readonly transport?: RegistryTransport;
  readonly runtimeArguments?: readonly RegistryArgument[];
  readonly packageArguments?: readonly RegistryArgument[];
  readonly environmentVariables?: readonly RegistryKeyValue[];
}

export interface RegistryRemote {
  readonly type: 'streamable-http' | 'sse' | string;
  readonly url: string;
  readonly headers?: readonly RegistryKeyValue[];
}

/** server.json */
export interface RegistryServer {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly version?: string;
  readonly websiteUrl?: string;
  readonly repository?: { readonly url?: string; readonly source?: string; readonly subfolder?: string };
  readonly packages?: readonly RegistryPackage[];
  readonly remotes?: readonly RegistryRemote[];
}

export interface RegistryOfficialMeta {
  readonly status?: string;
  readonly publishedAt?: string;
  readonly updatedAt?: string;
  readonly isLatest?: boolean;
}

/** One item of a listing: the server.json and the registry's own metadata. */
export interface RegistryEntry {
  readonly server: RegistryServer;
  readonly official?: RegistryOfficialMeta;
}

export interface RegistryPage {
  readonly entries: readonly RegistryEntry[];
  readonly nextCursor?: string;
}
