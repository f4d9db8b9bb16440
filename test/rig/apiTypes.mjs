// `npm run api`: writes api.d.ts — the exported API's types for other extensions — from
// src/vscode/api.ts (self-contained: it imports only `vscode` and the SDK's protocol types).
// The file is committed and shipped in the .vsix (.vscodeignore); the unit test "api.d.ts" fails
// when it is stale and compiles a consumer against it (test/fixtures/api-consumer).
//
//   node test/rig/apiTypes.mjs [--check]   --check: exit 1 if api.d.ts differs from a fresh generation
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SOURCE = path.join(REPO, 'src', 'vscode', 'api.ts');
export const TARGET = path.join(REPO, 'api.d.ts');

const HEADER = `// MCP Host's exported API (\`activate()\` of the extension "mcp-host.mcp-host"), for other extensions.
// Generated from src/vscode/api.ts by \`npm run api\`; do not edit. Needs @types/vscode and, for the
// MCP payload types, @modelcontextprotocol/client (types only) in the consuming project.
`;

/** The d.ts text generated from the current src/vscode/api.ts. */
export async function generateApiTypes() {
  const source = await fs.readFile(SOURCE, 'utf8');
  const { outputText, diagnostics } = ts.transpileDeclaration(source, {
    fileName: 'api.ts',
    compilerOptions: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022, removeComments: false },
    reportDiagnostics: true,
  });
  if (diagnostics?.length) throw new Error(`src/vscode/api.ts: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  const imports = [...outputText.matchAll(/from '([^']+)'/g)].map((m) => m[1]).filter((m) => m !== 'vscode' && m !== '@modelcontextprotocol/client');
  if (imports.length) throw new Error(`src/vscode/api.ts must stay self-contained (it imports ${imports.join(', ')})`);
  return HEADER + outputText;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateApiTypes();
  if (process.argv.includes('--check')) {
    const current = await fs.readFile(TARGET, 'utf8').catch(() => '');
    if (current !== text) { console.error('api.d.ts is stale: run npm run api'); process.exit(1); }
  } else {
    await fs.writeFile(TARGET, text);
    console.log(`${path.relative(REPO, TARGET)} written`);
  }
}
