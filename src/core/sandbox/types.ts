/** What the core needs from its embedder to run local servers under `srt` (sandbox-runtime). */

export interface SandboxPort {
  /** The program that runs srt's CLI script (Node; in VS Code the extension host's own executable). */
  readonly runtime: string;
  /** Extra environment for `runtime` (Electron needs `ELECTRON_RUN_AS_NODE=1`); the server never gets it. */
  readonly runtimeEnv?: Readonly<Record<string, string>>;
  /** Absolute path of srt's `dist/cli.js`. */
  readonly cli: string;
  /** Where rules files and each server's data folder live (the embedder's global storage). */
  readonly storageDir: string;
  /** Neither readable nor writable for any sandboxed server: the embedder's storage and the editor's user data. */
  readonly protectedPaths: readonly string[];
  /** ripgrep for srt's scan of dangerous files (VS Code ships one); default `rg` on PATH. */
  readonly ripgrep?: string;
  /** Sandbox every local server, whether or not its declaration asks (a user setting). */
  sandboxAll(): boolean;
  /** The network allow list for declarations that give none. */
  defaultAllowedDomains(): readonly string[];
  /**
   * Whether `server`'s declaration may widen the sandbox (`allowWrite`, `allowedDomains`). VS Code: user
   * servers only, so a workspace cannot loosen the sandbox the user asked for; its denies always apply.
   */
  mayWiden(server: string): boolean;
  /**
   * Whether `folder`, one of `server`'s roots, may be writable for it (VS Code: a workspace folder inside
   * what the user opened, or a root from user settings). Other roots are read-only. Whatever this says,
   * home, its ancestors, hidden folders of home and protected paths are never writable (writable.ts).
   * Absent: every root may be writable.
   */
  mayWrite?(server: string, folder: string): boolean;
  /**
   * Who declared `server`, as a stable string (`user`, or the workspace's identity): each (declarer, name)
   * has its own data folder, so a workspace server that takes a user server's name, or the same name in
   * another workspace, shares nothing with it. Absent: `user` for servers that may widen, else `workspace`.
   */
  storageScope?(server: string): string;
  /** The user allowed `server` to run unsandboxed where this platform cannot sandbox. */
  allowUnsandboxed(server: string): boolean;
}

/** The settings file srt reads (`srt --settings`); only the fields we write. */
export interface SrtSettings {
  readonly filesystem: { readonly denyRead: string[]; readonly allowRead: string[]; readonly allowWrite: string[]; readonly denyWrite: string[] };
  readonly network: { readonly allowedDomains: string[]; readonly deniedDomains: string[] };
  /** Used only to withhold variables of srt's own environment from the server (`mode: 'deny'`). */
  readonly credentials?: { readonly envVars: ReadonlyArray<{ readonly name: string; readonly mode: 'deny' }> };
  readonly ripgrep?: { readonly command: string };
  /** Absolute, so that srt (which runs in the server's folder) never looks bubblewrap and socat up by name. */
  readonly bwrapPath?: string;
  readonly socatPath?: string;
}
