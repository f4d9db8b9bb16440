/**
 * Which values of a server declaration are secrets: names (env variables, headers, flags, query
 * parameters) that say so, and values shaped like well-known credentials. Used when a declaration is
 * imported or added, so a secret becomes a `${input:id}` reference (its value goes to the embedder's
 * secret store) and is never written to settings. Errs on the side of "secret": a false positive only
 * moves a value into secret storage, a false negative would leave a credential in plain text.
 */

/** Words that mark a name as holding a credential (matched against the name's words, case-insensitive). */
const SECRET_WORDS = new Set([
  'key', 'apikey', 'token', 'accesstoken', 'secret', 'password', 'passwd', 'pwd', 'pass', 'passphrase',
  'auth', 'authorization', 'credential', 'credentials', 'cookie', 'bearer', 'jwt', 'pat', 'private', 'privatekey',
  'signature', 'sessionid', 'session', 'dsn', 'connectionstring',
]);

/** Names that contain a secret word but never hold one. */
const NOT_SECRET = /^(?:keyboard.*|.*_?key_?(?:id|file|path|name|prefix)|.*token_?(?:url|endpoint|path|file|type)|auth_?(?:url|type|mode|method|endpoint|domain|provider)|.*_(?:file|path|dir|url))$/i;

/** Credential shapes with a distinctive prefix or structure. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /^(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}$/,
  /^github_pat_[A-Za-z0-9_]{20,}$/,
  /^sk-(?:ant-|proj-|or-)?[A-Za-z0-9_-]{16,}$/,
  /^(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}$/,
  /^xox[abprs]-[A-Za-z0-9-]{10,}$/,
  /^AKIA[0-9A-Z]{16}$/,
  /^AIza[0-9A-Za-z_-]{35}$/,
  /^glpat-[A-Za-z0-9_-]{16,}$/,
  /^(?:npm_|pypi-|hf_|lin_api_|ntn_|secret_|shpat_|figd_)[A-Za-z0-9_-]{16,}$/,
  /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/,
];

/** Splits `GITHUB_PERSONAL_ACCESS_TOKEN`, `apiKey`, `x-api-key`, `--auth-token` into lower-case words (and joined pairs). */
export function nameWords(name: string): string[] {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(w => w.toLowerCase());
  const pairs = words.slice(1).map((w, i) => words[i] + w);
  return [...words, ...pairs];
}

/** True when a name (env variable, header, flag, query parameter) says its value is a credential. */
export function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, '');
  if (NOT_SECRET.test(bare)) return false;
  return nameWords(bare).some(w => SECRET_WORDS.has(w));
}

/** True when a value has the shape of a well-known credential (whatever its name). */
export function looksLikeToken(value: string): boolean {
  const v = value.trim();
  return TOKEN_SHAPES.some(re => re.test(v));
}

/** True for values that are not worth hiding: empty, numbers, booleans, or nothing but `${…}` variables. */
export function isHarmlessValue(value: string): boolean {
  const v = value.trim();
  if (!v) return true;
  if (/^(?:true|false|yes|no|on|off|null|none|\d+(?:\.\d+)?)$/i.test(v)) return true;
  return v.replace(/\$\{[^}]*\}/g, '').trim() === '';
}

/** Whether the value of `name` must not be stored in plain text. */
export function isSecretEntry(name: string, value: string): boolean {
  if (isHarmlessValue(value)) return false;
  return isSecretName(name) || looksLikeToken(value);
}

/**
 * Splits an `Authorization`-style value into the scheme to keep in plain text and the credential:
 * `Bearer abc` → { prefix: 'Bearer ', secret: 'abc' }; other values are secret whole.
 */
export function splitCredential(value: string): { prefix: string; secret: string } {
  const m = /^(Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key)(\s+)(\S.*)$/i.exec(value.trim());
  return m ? { prefix: `${m[1]}${m[2]}`, secret: m[3] } : { prefix: '', secret: value.trim() };
}

/** An `mcpHost.inputs` id (`^[A-Za-z0-9_.-]+$`) made from parts such as a server and a variable name. */
export function inputIdFor(...parts: string[]): string {
  const id = parts.join('.').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return id || 'secret';
}

/** `base`, or `base-2`, `base-3`… whichever is not taken; adds the result to `taken`. */
export function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
  taken.add(id);
  return id;
}
