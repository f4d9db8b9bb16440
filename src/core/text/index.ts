export * from './plainText';
