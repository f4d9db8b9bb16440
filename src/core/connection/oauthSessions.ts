/**
 * A connection's OAuth session: one per server URL, kept across reconnects (it coalesces
 * authorizations); none where the declaration brings its own Authorization header.
 */
import { MemorySecretStore, normalizeServerUrl, OAuthSession, SignInRequiredError, type AuthorizationError, type AuthPort, type InsufficientScopeError } from '../auth';
import type { AuthDeclaration } from '../config/authDecl';
import { isSocketUrl } from '../config/socketUrl';
import type { Logger } from '../logger';
import type { HostPorts } from '../ports';

export class ServerOAuth {
  private _session?: OAuthSession;
  private authKey = 'null';

  /** `onSignInLost`: the tokens of `session` are gone for good (refresh refused, sign-in declined). */
  constructor(private readonly name: string, private readonly port: HostPorts['auth'], private readonly logger: Logger,
    private readonly onSignInLost: (session: OAuthSession) => void) {}

  get session(): OAuthSession | undefined { return this._session; }

  sessionFor(url: URL, headers: Readonly<Record<string, string>>, auth?: AuthDeclaration): OAuthSession | undefined {
    // A declared Authorization header is the user's own credential: no OAuth on top of it.
    if (Object.keys(headers).some(h => h.toLowerCase() === 'authorization')) return undefined;
    // A socket server is not on the network: its session's requests (metadata, the token's own
    // requests) would go to http://localhost over TCP, to whatever listens there.
    if (isSocketUrl(url)) return undefined;
    // A declared grant needs no sign-in UI: an embedder without an auth port (the CLI) gets tokens in memory.
    const port = this.port ?? (auth?.grant ? unattendedPort() : undefined);
    if (!port) return undefined;
    const key = normalizeServerUrl(url);
    // The declared auth (its resolved secrets included) is part of what the session is: a change makes a new one.
    const authKey = JSON.stringify(auth ?? null);
    if (this._session?.target.url === key && this.authKey === authKey) return this._session;
    this._session?.dispose();
    this.authKey = authKey;
    const session = this._session = new OAuthSession({ name: this.name, url: key }, port, { logger: this.logger, auth });
    session.deferInteraction = true;
    void session.refreshStatus().catch(() => {});
    session.onDidChangeStatus(status => {
      if (status === 'needsSignIn' && this._session === session) this.onSignInLost(session);
    });
    return session;
  }

  /** Deletes the tokens of `url`'s server; false if there are none to delete. */
  async signOut(url: string | undefined): Promise<boolean> {
    // Never connected yet: a literal URL is enough to find the tokens (resolving could prompt for inputs).
    const session = this._session ?? (url && !url.includes('${') ? this.sessionFor(new URL(url), {}) : undefined);
    if (!session) return false;
    await session.signOut();
    return true;
  }

  /** The server needs a new sign-in because of `err`: the session says so; returns what to tell the user. */
  signInNeeded(err: SignInRequiredError | AuthorizationError | InsufficientScopeError): string {
    this._session?.markNeedsSignIn();
    return err instanceof SignInRequiredError && err.message === new SignInRequiredError().message ? 'needs sign-in'
      : err instanceof SignInRequiredError ? `needs sign-in (${err.message})` : `needs sign-in: ${err.message}`;
  }

  dispose(): void { this._session?.dispose(); }
}

/** Tokens kept for this process only, and no browser: what a declared grant needs and nothing more. */
function unattendedPort(): AuthPort {
  return { store: new MemorySecretStore(), userAgent: { openChannel: () => Promise.reject(new SignInRequiredError('this host has no sign-in; the server\'s declared grant did not get a token')) } };
}
