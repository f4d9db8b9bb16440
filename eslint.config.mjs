import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { project: './tsconfig.json' } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must stay free of VS Code (embeddable core).' }] }],
      'no-console': 'error',
    },
  },
  {
    // The CLI is an embedder: the core's public entries only, its index and its SDK-free part (test/unit/cliBoundary.test.ts checks it too).
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'the CLI runs without VS Code.' }],
        patterns: [{ group: ['../core/*', '!../core/light', '../vscode', '../vscode/*', '../*.js', '../host', '../early', '../extension'], message: 'src/cli imports only the core\'s public entries (../core, ../core/light).' }],
      }],
      'no-console': 'error',
    },
  },
);
