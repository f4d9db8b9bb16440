/**
 * Set by esbuild's `define` (esbuild.mjs): true in the development bundle the integration tests load,
 * false in the production bundle packaged into the .vsix, where the code it guards is removed as dead
 * code. Undefined in tsc output, so guard with `typeof MCP_HOST_TEST_BUILD !== 'undefined' && …`.
 */
declare const MCP_HOST_TEST_BUILD: boolean | undefined;
