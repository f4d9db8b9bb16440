/**
 * An HTTP declaration's `auth` field: how MCP Host gets tokens for the server when no person signs in
 * (client credentials, workload identity federation, Enterprise-Managed Authorization), and whether the
 * tokens are bound to a key of this host (DPoP). Secrets (`clientSecret`, `privateKey`, the enterprise
 * `idToken`, the IdP's `clientSecret`) are accepted only as `${input:…}` references: the value then lives
 * in the embedder's secret store, never in settings, and logs of the server redact it.
 */
import { inputIds } from './variables';

type ErrorSink = (message: string, field?: string) => void;

import type { AuthDeclaration, AuthGrant, EnterpriseDeclaration, TokenEndpointAuthMethod, TokenSource } from './authTypes';

export type { AuthDeclaration, AuthGrant, EnterpriseDeclaration, TokenEndpointAuthMethod, TokenSource } from './authTypes';

const FIELDS = ['grant', 'clientId', 'clientSecret', 'privateKey', 'tokenEndpointAuthMethod', 'signingAlgorithm', 'scope', 'issuer', 'assertion', 'enterprise', 'dpop'];
const GRANTS: readonly AuthGrant[] = ['client_credentials', 'jwt_bearer', 'enterprise'];
const METHODS: readonly TokenEndpointAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];
const ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];
/** The whole value is one `${input:…}` reference. */
const INPUT_ONLY = /^\$\{input:[^}]+\}$/;

export function parseAuth(value: unknown, error: ErrorSink): AuthDeclaration | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error('"auth" must be an object, e.g. { "grant": "client_credentials", "clientId": "…", "clientSecret": "${input:secret}" }.', 'auth');
    return undefined;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!FIELDS.includes(key)) error(`auth: unknown field "${key}"; use ${FIELDS.map(f => `"${f}"`).join(', ')}.`, `auth.${key}`);
  const text = (key: string, { secret = false } = {}): string | undefined => {
    const s = v[key];
    if (s === undefined) return undefined;
    if (typeof s !== 'string' || !s.trim()) { error(`auth.${key} must be a non-empty string.`, `auth.${key}`); return undefined; }
    if (secret && !INPUT_ONLY.test(s)) { error(`auth.${key} is a secret: write it as "\${input:<id>}" so it is kept in the secret store, not in settings.`, `auth.${key}`); return undefined; }
    if (!secret && inputIds(s).length && key !== 'clientId') { error(`auth.${key}: \${input:…} is not allowed here.`, `auth.${key}`); return undefined; }
    return s;
  };
  const grant = v.grant === undefined ? undefined : GRANTS.includes(v.grant as AuthGrant) ? v.grant as AuthGrant : (error(`auth.grant must be one of ${GRANTS.map(g => `"${g}"`).join(', ')}.`, 'auth.grant'), undefined);
  const method = v.tokenEndpointAuthMethod === undefined ? undefined : METHODS.includes(v.tokenEndpointAuthMethod as TokenEndpointAuthMethod) ? v.tokenEndpointAuthMethod as TokenEndpointAuthMethod : (error(`auth.tokenEndpointAuthMethod must be one of ${METHODS.map(m => `"${m}"`).join(', ')}.`, 'auth.tokenEndpointAuthMethod'), undefined);
  const signingAlgorithm = text('signingAlgorithm');
  if (signingAlgorithm && !ALGS.includes(signingAlgorithm)) error(`auth.signingAlgorithm must be an asymmetric JWS algorithm (${ALGS.join(', ')}).`, 'auth.signingAlgorithm');
  if (v.dpop !== undefined && typeof v.dpop !== 'boolean') error('auth.dpop must be true or false.', 'auth.dpop');
  const issuer = text('issuer');
  if (issuer) checkHttpUrl(issuer, 'auth.issuer', error);
  const decl: AuthDeclaration = {
    ...(grant ? { grant } : {}),
    ...opt('clientId', text('clientId')), ...opt('clientSecret', text('clientSecret', { secret: true })), ...opt('privateKey', text('privateKey', { secret: true })),
    ...(method ? { tokenEndpointAuthMethod: method } : {}), ...opt('signingAlgorithm', signingAlgorithm), ...opt('scope', text('scope')), ...opt('issuer', issuer),
    ...(v.assertion !== undefined ? opt('assertion', tokenSource(v.assertion, 'auth.assertion', error)) : {}),
    ...(v.enterprise !== undefined ? opt('enterprise', parseEnterprise(v.enterprise, error)) : {}),
    ...(v.dpop === true ? { dpop: true } : {}),
  };
  checkGrant(decl, error);
  return decl;
}

function checkGrant(d: AuthDeclaration, error: ErrorSink): void {
  const method = d.tokenEndpointAuthMethod ?? (d.privateKey ? 'private_key_jwt' : undefined);
  if (d.grant === 'client_credentials') {
    if (!d.clientId) error('auth.clientId is required for the client_credentials grant.', 'auth.clientId');
    if (method === 'private_key_jwt' ? !d.privateKey : !d.clientSecret) {
      error(`auth: the client_credentials grant needs ${method === 'private_key_jwt' ? '"privateKey"' : '"clientSecret" (or "privateKey" with "tokenEndpointAuthMethod": "private_key_jwt")'} as "\${input:<id>}".`, method === 'private_key_jwt' ? 'auth.privateKey' : 'auth.clientSecret');
    }
  } else if (d.grant === 'jwt_bearer') {
    if (!d.assertion) error('auth.assertion is required for the jwt_bearer grant: { "file": "/var/run/secrets/token" } or { "env": "PLATFORM_TOKEN" }.', 'auth.assertion');
  } else if (d.grant === 'enterprise' || d.enterprise) {
    if (!d.enterprise) error('auth.enterprise is required for the enterprise grant: { "idp": { "issuer", "clientId" }, "idToken" }.', 'auth.enterprise');
    if (!d.clientId) error('auth.clientId (the client registered with the MCP server\'s authorization server) is required for Enterprise-Managed Authorization.', 'auth.clientId');
  } else {
    for (const key of ['assertion', 'privateKey'] as const) if (d[key] !== undefined) error(`auth.${key} needs "grant" (client_credentials or jwt_bearer).`, `auth.${key}`);
  }
  if (method === 'private_key_jwt' && !d.privateKey) error('auth.privateKey is required with "tokenEndpointAuthMethod": "private_key_jwt".', 'auth.privateKey');
}

function parseEnterprise(value: unknown, error: ErrorSink): EnterpriseDeclaration | undefined {
  const field = 'auth.enterprise';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) { error(`${field} must be an object: { "idp": { "issuer", "clientId" }, "idToken" }.`, field); return undefined; }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (key !== 'idp' && key !== 'idToken') error(`${field}: unknown field "${key}"; use "idp" or "idToken".`, `${field}.${key}`);
  const idp = v.idp as Record<string, unknown> | undefined;
  if (typeof idp !== 'object' || idp === null || Array.isArray(idp)) { error(`${field}.idp must be an object: { "issuer", "clientId", "clientSecret"?, "tokenEndpoint"? }.`, `${field}.idp`); return undefined; }
  for (const key of Object.keys(idp)) if (!['issuer', 'clientId', 'clientSecret', 'tokenEndpoint'].includes(key)) error(`${field}.idp: unknown field "${key}".`, `${field}.idp.${key}`);
  if (typeof idp.issuer !== 'string' || !checkHttpUrl(idp.issuer, `${field}.idp.issuer`, error)) { if (typeof idp.issuer !== 'string') error(`${field}.idp.issuer must be the IdP's issuer URL.`, `${field}.idp.issuer`); return undefined; }
  if (typeof idp.clientId !== 'string' || !idp.clientId) { error(`${field}.idp.clientId must be the client ID registered with the IdP.`, `${field}.idp.clientId`); return undefined; }
  if (idp.clientSecret !== undefined && (typeof idp.clientSecret !== 'string' || !INPUT_ONLY.test(idp.clientSecret))) { error(`${field}.idp.clientSecret is a secret: write it as "\${input:<id>}".`, `${field}.idp.clientSecret`); return undefined; }
  if (idp.tokenEndpoint !== undefined && (typeof idp.tokenEndpoint !== 'string' || !checkHttpUrl(idp.tokenEndpoint, `${field}.idp.tokenEndpoint`, error))) return undefined;
  const idToken = typeof v.idToken === 'string'
    ? (INPUT_ONLY.test(v.idToken) ? v.idToken : (error(`${field}.idToken is a secret: "\${input:<id>}", or { "file" } / { "env" } where the platform writes it.`, `${field}.idToken`), undefined))
    : tokenSource(v.idToken, `${field}.idToken`, error);
  if (!idToken) return undefined;
  return {
    idp: { issuer: idp.issuer, clientId: idp.clientId, ...(typeof idp.clientSecret === 'string' ? { clientSecret: idp.clientSecret } : {}), ...(typeof idp.tokenEndpoint === 'string' ? { tokenEndpoint: idp.tokenEndpoint } : {}) },
    idToken,
  };
}

function tokenSource(value: unknown, field: string, error: ErrorSink): TokenSource | undefined {
  const v = value as Record<string, unknown> | undefined;
  const keys = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  if (keys.length !== 1 || (keys[0] !== 'file' && keys[0] !== 'env') || typeof v![keys[0]] !== 'string' || !(v![keys[0]] as string).trim()) {
    error(`${field} must be { "file": "<path>" } or { "env": "<VARIABLE>" }: where the platform writes the token.`, field);
    return undefined;
  }
  return keys[0] === 'file' ? { file: v!.file as string } : { env: v!.env as string };
}

function checkHttpUrl(s: string, field: string, error: ErrorSink): boolean {
  let u: URL;
  try { u = new URL(s); } catch { error(`${field} is not a valid URL: ${s}`, field); return false; }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') { error(`${field} must be an https:// URL.`, field); return false; }
  return true;
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
