/**
 * Reads a registry response into our types, keeping only fields of the right type: a registry (a
 * private one, a proxy, a compromised one) is not trusted to send well-formed data, and a malformed
 * field must not reach a declaration or a label as something else.
 */
import type { RegistryArgument, RegistryEntry, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryPage, RegistryRemote, RegistryServer } from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => typeof v === 'string' ? v : undefined;
const bool = (v: unknown): boolean | undefined => typeof v === 'boolean' ? v : undefined;
const list = <T>(v: unknown, read: (x: unknown) => T | undefined): T[] | undefined =>
  Array.isArray(v) ? v.map(read).filter((x): x is T => x !== undefined) : undefined;
/** Drops undefined fields so entries compare and serialise cleanly. */
const defined = <T extends Obj>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function readInput(v: Obj): RegistryInput {
  const variables = isObj(v.variables)
    ? Object.fromEntries(Object.entries(v.variables).filter(([, x]) => isObj(x)).map(([k, x]) => [k, readInput(x as Obj)]))
    : undefined;
  return defined({
    description: str(v.description), isRequired: bool(v.isRequired), isSecret: bool(v.isSecret), format: str(v.format),
    value: str(v.value), default: str(v.default), choices: list(v.choices, str), variables,
  });
}

function readKeyValue(v: unknown): RegistryKeyValue | undefined {
  if (!isObj(v) || typeof v.name !== 'string') return undefined;
  return { ...readInput(v), name: v.name };
}

function readArgument(v: unknown): RegistryArgument | undefined {
  if (!isObj(v) || (v.type !== 'positional' && v.type !== 'named')) return undefined;
  if (v.type === 'named' && typeof v.name !== 'string') return undefined;
  return defined({ ...readInput(v), type: v.type as RegistryArgument['type'], name: str(v.name), valueHint: str(v.valueHint), isRepeated: bool(v.isRepeated) });
}

function readPackage(v: unknown): RegistryPackage | undefined {
  if (!isObj(v) || typeof v.registryType !== 'string' || typeof v.identifier !== 'string') return undefined;
  const t = isObj(v.transport) && typeof v.transport.type === 'string'
    ? defined({ type: v.transport.type, url: str(v.transport.url), headers: list(v.transport.headers, readKeyValue) })
    : undefined;
  return defined({
    registryType: v.registryType, identifier: v.identifier, registryBaseUrl: str(v.registryBaseUrl), version: str(v.version),
    fileSha256: str(v.fileSha256), runtimeHint: str(v.runtimeHint), transport: t,
    runtimeArguments: list(v.runtimeArguments, readArgument), packageArguments: list(v.packageArguments, readArgument),
    environmentVariables: list(v.environmentVariables, readKeyValue),
  });
}

function readRemote(v: unknown): RegistryRemote | undefined {
  if (!isObj(v) || typeof v.type !== 'string' || typeof v.url !== 'string') return undefined;
  return defined({ type: v.type, url: v.url, headers: list(v.headers, readKeyValue) });
}

export function readServer(v: unknown): RegistryServer | undefined {
  if (!isObj(v) || typeof v.name !== 'string' || !v.name) return undefined;
  const repo = isObj(v.repository) ? defined({ url: str(v.repository.url), source: str(v.repository.source), subfolder: str(v.repository.subfolder) }) : undefined;
  return defined({
    name: v.name, title: str(v.title), description: str(v.description), version: str(v.version), websiteUrl: str(v.websiteUrl),
    repository: repo, packages: list(v.packages, readPackage), remotes: list(v.remotes, readRemote),
  });
}

/** One `ServerResponse` (`{ server, _meta }`); also accepts a bare server.json. */
export function readEntry(v: unknown): RegistryEntry | undefined {
  if (!isObj(v)) return undefined;
  const server = readServer(isObj(v.server) ? v.server : v);
  if (!server) return undefined;
  const meta = isObj(v._meta) ? v._meta['io.modelcontextprotocol.registry/official'] : undefined;
  const official = isObj(meta)
    ? defined({ status: str(meta.status), publishedAt: str(meta.publishedAt), updatedAt: str(meta.updatedAt), isLatest: bool(meta.isLatest) })
    : undefined;
  return official ? { server, official } : { server };
}

/** `ServerListResponse`: `{ servers: [...], metadata: { nextCursor } }`. Undefined when it is not one. */
export function readServerList(v: unknown): RegistryPage | undefined {
  if (!isObj(v) || !Array.isArray(v.servers)) return undefined;
  const entries = v.servers.map(readEntry).filter((e): e is RegistryEntry => !!e);
  const next = isObj(v.metadata) ? str(v.metadata.nextCursor) : undefined;
  return next ? { entries, nextCursor: next } : { entries };
}
