/**
 * The shape of an HTTP declaration's `auth` field (parsed and checked in `authDecl.ts`). Kept apart so
 * `types.ts` can name it without importing the parser (which needs `variables.ts`, which needs `types.ts`).
 */

/** Where a platform-issued JWT (workload identity, an ID token) is read at each token request: it rotates. */
export type TokenSource = { readonly file: string } | { readonly env: string };

export interface EnterpriseDeclaration {
  /** The enterprise IdP that exchanges the ID token for an ID-JAG (RFC 8693). */
  readonly idp: { readonly issuer: string; readonly clientId: string; readonly clientSecret?: string; readonly tokenEndpoint?: string };
  /** The user's ID token from the IdP: `${input:…}`, or a file / environment variable the platform fills. */
  readonly idToken: string | TokenSource;
}

export type AuthGrant = 'client_credentials' | 'jwt_bearer' | 'enterprise';
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export interface AuthDeclaration {
  /** Absent: the usual sign-in of a person (authorization code + PKCE). */
  readonly grant?: AuthGrant;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** PEM (PKCS #8) or JWK JSON of the key that signs `private_key_jwt` client assertions. */
  readonly privateKey?: string;
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** JWS algorithm of the client assertion (default ES256). */
  readonly signingAlgorithm?: string;
  readonly scope?: string;
  /** The authorization server the credentials belong to: they are sent to no other (SEP-2352 issuer stamp). */
  readonly issuer?: string;
  /** `jwt_bearer`: the workload's JWT, read from a file or environment variable at each token request. */
  readonly assertion?: TokenSource;
  readonly enterprise?: EnterpriseDeclaration;
  /** Sender-constrained tokens (RFC 9449): proofs signed with a key kept for this server only. */
  readonly dpop?: boolean;
}
