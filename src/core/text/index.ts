export * from './plainText';
export * from './modelBlock';
