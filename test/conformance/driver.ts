/**
 * The client command of the official MCP conformance suite (`@modelcontextprotocol/conformance
 * client --command "node out/test/conformance/driver.js"`): it runs our host core against the
 * scenario's server the way the extension does, with the same auth code (OAuthSession,
 * McpOAuthProvider over the SDK's auth()) and a headless user agent that follows the
 * authorization redirect itself instead of a browser.
 *
 * Like a user: the server is declared and started (an automatic start never authorizes), a
 * server that needs a sign-in is signed in (as the Sign In action does), then every tool the
 * server lists is called once, and elicitation requests are accepted with the form's initial
 * values (what pressing Enter through the form sends: the schema defaults). A server's skills are
 * listed (as the Servers view lists them); in the Skills scenarios that are about using a skill
 * (`sep-2640-client-verify-*`) each one is loaded as an `@mcp` turn loads it, and a loaded skill's
 * other files are read (as a model following it would), so a host that used a tampered SKILL.md
 * would go on to read them, which the suite records as a failure. A refused skill is the right outcome.
 *
 * Input: argv[2] = the server URL; MCP_CONFORMANCE_SCENARIO; MCP_CONFORMANCE_CONTEXT (JSON, e.g.
 * the pre-registered client of auth/pre-registration). Exit code 0 when every step succeeded.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProtocolError } from '@modelcontextprotocol/client';
import {
  HeadlessUserAgent, initialValues, McpHost, MemorySecretStore, planForm, readSkillFile, SkillRefusedError, toContent,
  type AuthDeclaration, type AuthPort, type ElicitationHandler, type Logger,
} from '../../src/core';

/** The conformance suite's fixed client ID metadata document URL (its CIMD scenario expects exactly this). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** Arguments for the tools the client scenarios offer; other tools get a value for every parameter (see sampleArguments). */
const TOOL_ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 5, b: 3 } };

/**
 * A value for each required parameter (its default when it has one), as a person filling the call
 * would give; strings carry a non-ASCII letter, so header mirroring has to encode them.
 */
function sampleArguments(schema: { properties?: Record<string, { type?: unknown; default?: unknown }>; required?: string[] }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (!schema.required?.includes(name)) continue;
    if (p.default !== undefined) args[name] = p.default;
    else if (p.type === 'string') args[name] = 'conformance ü';
    else if (p.type === 'integer' || p.type === 'number') args[name] = 1;
    else if (p.type === 'boolean') args[name] = true;
  }
  return args;
}

const stderrLogger = (prefix: string): Logger => {
  const write = (level: string) => (m: string | Error) => process.stderr.write(`[${prefix}] ${level} ${String(m)}\n`);
  return { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), logLevel: 2 };
};

/** Headless form answer: accept with the initial values (schema defaults), as the extension's form does on Enter. */
const acceptDefaults: ElicitationHandler = async (_server, params) => {
  if (params.mode === 'url') return { action: 'decline' };
  const plan = planForm(params.requestedSchema);
  if (!plan.ok) return { action: 'decline' };
  return { action: 'accept', content: toContent(plan.fields, initialValues(plan.fields)) };
};

type ScenarioContext = Record<string, string | undefined>;
const scenarioContext = (): ScenarioContext => JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}') as ScenarioContext;

function preRegistered(ctx: ScenarioContext): { clientId: string; clientSecret?: string } | undefined {
  return ctx.client_id ? { clientId: ctx.client_id, clientSecret: ctx.client_secret } : undefined;
}

/**
 * The `auth` a user would declare for the scenario's server, with its secrets given as inputs (what
 * the user typed into the input box, kept in the secret store) and platform tokens in a file.
 */
function declaredAuth(scenario: string, ctx: ScenarioContext): { auth?: AuthDeclaration; inputs: Record<string, string> } {
  const secret = (id: string, value: string | undefined) => (value === undefined ? {} : { [id]: value });
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return { auth: { grant: 'client_credentials', clientId: ctx.client_id, clientSecret: '${input:client-secret}' }, inputs: secret('client-secret', ctx.client_secret) };
    case 'auth/client-credentials-jwt':
      return {
        auth: { grant: 'client_credentials', clientId: ctx.client_id, privateKey: '${input:client-key}', tokenEndpointAuthMethod: 'private_key_jwt', signingAlgorithm: ctx.signing_algorithm },
        inputs: secret('client-key', ctx.private_key_pem),
      };
    case 'auth/wif-jwt-bearer': {
      // Where a platform (Kubernetes, a CI runner) writes the workload's token.
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-wif-')), 'token');
      fs.writeFileSync(file, ctx.valid_jwt ?? '', { mode: 0o600 });
      return { auth: { grant: 'jwt_bearer', clientId: ctx.client_id, assertion: { file } }, inputs: {} };
    }
    case 'auth/enterprise-managed-authorization':
      return {
        auth: {
          grant: 'enterprise', clientId: ctx.client_id, clientSecret: '${input:client-secret}',
          enterprise: { idp: { issuer: ctx.idp_issuer!, clientId: ctx.idp_client_id!, tokenEndpoint: ctx.idp_token_endpoint }, idToken: '${input:id-token}' },
        },
        inputs: { ...secret('client-secret', ctx.client_secret), ...secret('id-token', ctx.idp_id_token) },
      };
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return { auth: { dpop: true }, inputs: {} };
    default:
      return { inputs: {} };
  }
}

/** True when the error is the server's own JSON-RPC error answer (a ProtocolError somewhere in the causes). */
function answeredWithError(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof ProtocolError) return true;
  return false;
}

/** Lists the server's skills; in the scenarios about using one, loads each and reads its other files. Returns the host's failures. */
async function useSkills(host: McpHost, server: ReturnType<McpHost['require']>, scenario: string, log: Logger): Promise<number> {
  const listing = await host.skills.list(server);
  log.info(`skills: ${listing.skills.map(s => s.name).join(', ') || 'none'}${listing.problems.length ? ` (${listing.problems.join('; ')})` : ''}`);
  if (!scenario.startsWith('sep-2640-client-verify-')) return 0;
  for (const entry of listing.skills) {
    try {
      const loaded = await host.skills.load(server, entry.name);
      log.info(`skill ${entry.name} loaded (${loaded.body.length} characters)`);
      for (const file of entry.files.filter(f => f.uri !== entry.uri)) await readSkillFile(server, entry, file.uri);
    } catch (e) {
      if (e instanceof SkillRefusedError) { log.info(e.message); continue; }
      log.error(`skill ${entry.name}: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  }
  return 0;
}

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '?';
  if (!url) throw new Error('usage: driver.js <server-url> (run by the conformance suite)');
  const log = stderrLogger('driver');
  log.info(`scenario ${scenario}, server ${url}`);

  const ctx = scenarioContext();
  const pre = preRegistered(ctx);
  const { auth: declared, inputs } = declaredAuth(scenario, ctx);
  const auth: AuthPort = {
    store: new MemorySecretStore(),
    userAgent: new HeadlessUserAgent({ redirectUri: 'http://localhost:3000/callback' }),
    clientMetadata: { client_name: 'MCP Host (conformance driver)' },
    clientMetadataUrl: () => CLIENT_METADATA_URL,
    preRegisteredClient: () => pre,
  };
  const host = new McpHost({
    ports: {
      clientInfo: { name: 'mcp-host-conformance', version: '0.1.0' },
      variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: {}, resolveInput: async r => inputs[r.id] },
      elicitation: acceptDefaults,
      auth,
      createLogger: name => stderrLogger(name),
    },
    restart: { maxRestarts: 0, windowMs: 60_000, baseDelayMs: 100, maxDelayMs: 100 },
    defaultTimeoutMs: 20_000,
  });
  let failures = 0;
  try {
    await host.apply({ server: { type: 'http', url, ...(declared ? { auth: declared } : {}) } });
    const server = host.require('server');
    if (server.needsSignIn) {
      log.info('the server needs a sign-in; signing in');
      await server.signIn();
    }
    if (server.state !== 'running') throw new Error(`the server is ${server.state}: ${server.message ?? ''}`);
    for (const tool of server.catalog.get('tools')) {
      try {
        const result = await server.callTool(tool.name, TOOL_ARGUMENTS[tool.name] ?? sampleArguments(tool.inputSchema as Parameters<typeof sampleArguments>[0]));
        log.info(`${tool.name} → ${JSON.stringify(result.content).slice(0, 300)}`);
      } catch (e) {
        // The server answering a call with a JSON-RPC error is the server's choice (e.g. a scenario with no
        // tools/call handler): surfacing it is the right client behaviour. Anything else is the host's failure.
        if (answeredWithError(e)) { log.info(`${tool.name}: the server answered with an error: ${e instanceof Error ? e.message : String(e)}`); continue; }
        failures++;
        log.error(`${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    failures += await useSkills(host, server, scenario, log);
  } finally {
    await host.shutdown();
  }
  return failures ? 1 : 0;
}

main().then(code => process.exit(code), (e: unknown) => {
  process.stderr.write(`[driver] error ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
