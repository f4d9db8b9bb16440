/**
 * Token requests without a person (the declaration's `auth.grant`), as the SDK builds them:
 * `client_credentials` (RFC 6749 §4.4) with a client secret or a `private_key_jwt` assertion
 * (RFC 7523 §2.2, the SDK's createPrivateKeyJwtAuth), the JWT-bearer grant with a platform-issued
 * workload JWT (RFC 7523 §2.1, workload identity federation), and Enterprise-Managed Authorization:
 * the user's ID token exchanged at the enterprise IdP for an ID-JAG (RFC 8693, the SDK's
 * requestJwtAuthorizationGrant), then the JWT-bearer grant with it at the MCP authorization server.
 * The ID-JAG is checked before it is sent on: an IdP answer meant for another authorization server
 * or another resource is refused, not forwarded.
 */
import { readFile } from 'node:fs/promises';
import {
  createPrivateKeyJwtAuth, discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant,
  type AddClientAuthentication, type FetchLike, type OAuthClientInformationMixed,
} from '@modelcontextprotocol/client';
import type { AuthDeclaration, TokenSource } from '../config/authDecl';
import { AuthorizationError } from './types';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export class DeclaredGrant {
  /** Set by `auth()` after discovery (the SDK's saveAuthorizationServerUrl / saveResourceUrl hooks). */
  authorizationServer?: string;
  resource?: string;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(
    readonly auth: AuthDeclaration & { readonly grant: NonNullable<AuthDeclaration['grant']> },
    /** Values that must never reach a log (the assertion read, the ID token, the ID-JAG). */
    private readonly remember: (...values: (string | undefined)[]) => void,
    private readonly fetchFn: FetchLike,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    remember(auth.clientSecret, auth.privateKey, auth.enterprise?.idp.clientSecret, typeof auth.enterprise?.idToken === 'string' ? auth.enterprise.idToken : undefined);
    // client_secret_basic sends the pair base64-encoded (RFC 6749 §2.3.1, form-encoded first): that form is the secret too.
    if (auth.clientId && auth.clientSecret) {
      for (const pair of [`${auth.clientId}:${auth.clientSecret}`, `${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`]) remember(Buffer.from(pair).toString('base64'));
    }
    if (this.method === 'private_key_jwt' && auth.privateKey && auth.clientId) {
      const key = auth.privateKey.trim();
      const sign = createPrivateKeyJwtAuth({
        issuer: auth.clientId, subject: auth.clientId, alg: auth.signingAlgorithm ?? 'ES256',
        privateKey: key.startsWith('{') ? JSON.parse(key) as Record<string, unknown> : key,
      });
      // The signed assertion is a credential for its lifetime: an authorization server quoting it back must not get it logged.
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        await sign(headers, params, url, metadata);
        remember(params.get('client_assertion') ?? undefined);
      };
    }
  }

  get method(): string {
    return this.auth.tokenEndpointAuthMethod ?? (this.auth.privateKey ? 'private_key_jwt' : this.auth.clientSecret ? 'client_secret_basic' : 'none');
  }

  /** The client as the authorization server knows it, stamped with the declared issuer (sent to no other). */
  clientInformation(issuer: string | undefined): OAuthClientInformationMixed {
    const method = this.method;
    // Checked here, not left to the SDK: a mismatching stamp would make auth() register a new client there instead.
    if (this.auth.issuer && issuer && !sameUrl(this.auth.issuer, issuer)) {
      throw new AuthorizationError(`the server names the authorization server ${issuer}, but its credentials are declared for ${this.auth.issuer} ("auth.issuer"); they were not sent`);
    }
    return {
      client_id: this.auth.clientId ?? 'mcp-host',
      ...(this.auth.clientSecret && method !== 'private_key_jwt' ? { client_secret: this.auth.clientSecret } : {}),
      token_endpoint_auth_method: method,
      ...(this.auth.issuer ?? issuer ? { issuer: this.auth.issuer ?? issuer } : {}),
    };
  }

  grantTypes(): string[] { return [this.auth.grant === 'client_credentials' ? 'client_credentials' : JWT_BEARER]; }

  async prepareTokenRequest(scope: string | undefined): Promise<URLSearchParams> {
    const params = new URLSearchParams();
    if (this.auth.grant === 'client_credentials') params.set('grant_type', 'client_credentials');
    else {
      params.set('grant_type', JWT_BEARER);
      params.set('assertion', this.auth.grant === 'jwt_bearer' ? await this.readSource(this.auth.assertion!, 'auth.assertion') : await this.idJag(scope));
    }
    const requested = scope ?? this.auth.scope;
    if (requested) params.set('scope', requested);
    return params;
  }

  private async readSource(source: TokenSource, field: string): Promise<string> {
    let value: string | undefined;
    if ('file' in source) {
      try { value = (await readFile(source.file, 'utf8')).trim(); }
      catch (e) { throw new AuthorizationError(`${field}: cannot read the token file ${source.file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`); }
    } else {
      value = this.env[source.env]?.trim();
    }
    if (!value) throw new AuthorizationError(`${field}: ${'file' in source ? `the file ${source.file}` : `the environment variable ${source.env}`} holds no token`);
    this.remember(value);
    return value;
  }

  /** The ID-JAG for this server's authorization server and resource, from the enterprise IdP. */
  private async idJag(scope: string | undefined): Promise<string> {
    const e = this.auth.enterprise!;
    const audience = this.authorizationServer, resource = this.resource;
    if (!audience || !resource) throw new AuthorizationError('Enterprise-Managed Authorization needs the server\'s protected resource metadata (RFC 9728), which it does not publish');
    const idToken = typeof e.idToken === 'string' ? e.idToken : await this.readSource(e.idToken, 'auth.enterprise.idToken');
    const options = { audience, resource, idToken, clientId: e.idp.clientId, clientSecret: e.idp.clientSecret, scope: scope ?? this.auth.scope, fetchFn: this.fetchFn };
    let jag: string;
    try {
      jag = (e.idp.tokenEndpoint
        ? await requestJwtAuthorizationGrant({ ...options, tokenEndpoint: e.idp.tokenEndpoint })
        : await discoverAndRequestJwtAuthGrant({ ...options, idpUrl: e.idp.issuer })).jwtAuthGrant;
    } catch (err) {
      throw new AuthorizationError(`the enterprise IdP ${e.idp.issuer} refused the token exchange: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    this.remember(jag);
    checkIdJag(jag, { issuer: e.idp.issuer, audience, resource, clientId: this.auth.clientId });
    return jag;
  }
}

/** Header and claims of a compact JWS (not verified: the authorization server verifies; this checks what it is for). */
function decodeJwtParts(jwt: string): [{ typ?: unknown }, { iss?: unknown; aud?: unknown; resource?: unknown; client_id?: unknown }] {
  const parts = jwt.split('.');
  try {
    if (parts.length !== 3) throw new Error('not three parts');
    const json = (p: string) => { const v: unknown = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')); if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object'); return v as Record<string, unknown>; };
    return [json(parts[0]), json(parts[1])];
  } catch { throw new AuthorizationError('the enterprise IdP answered with an ID-JAG that is not a JWT; it was not sent on'); }
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * An ID-JAG names who issued it, for which authorization server and resource, and for which client
 * (SEP-990). One that does not fit this server is not forwarded: the IdP (or whoever answers in its
 * name) would otherwise make this host present a grant meant for someone else.
 */
export function checkIdJag(jag: string, expected: { issuer: string; audience: string; resource: string; clientId?: string }): void {
  const [header, claims] = decodeJwtParts(jag);
  const refuse = (what: string) => new AuthorizationError(`the enterprise IdP issued an ID-JAG ${what}; it was not sent on`);
  if (header.typ !== 'oauth-id-jag+jwt') throw refuse(`of type ${JSON.stringify(header.typ ?? null)} (expected "oauth-id-jag+jwt")`);
  if (typeof claims.iss !== 'string' || !sameUrl(claims.iss, expected.issuer)) throw refuse(`issued by ${JSON.stringify(claims.iss ?? null)}, not by ${expected.issuer}`);
  const audiences: unknown[] = Array.isArray(claims.aud) ? claims.aud : claims.aud === undefined ? [] : [claims.aud];
  if (!audiences.some(a => typeof a === 'string' && sameUrl(a, expected.audience))) throw refuse(`for the authorization server ${JSON.stringify(claims.aud ?? null)}, not for ${expected.audience}`);
  const resource = claims.resource;
  if (typeof resource !== 'string' || !sameUrl(resource, expected.resource)) throw refuse(`for the resource ${JSON.stringify(resource ?? null)}, not for ${expected.resource}`);
  const clientId = claims.client_id;
  if (expected.clientId && clientId !== undefined && clientId !== expected.clientId) throw refuse(`for the client ${JSON.stringify(clientId)}, not for ${expected.clientId}`);
}
