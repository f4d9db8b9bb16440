/** Elicitation logic an embedder's UI builds on: schema → fields, validation, URL review, -32042 retry, completions. */
export * from './schema';
export * from './validate';
export * from './url';
export * from './urlRequired';
export * from './completions';
