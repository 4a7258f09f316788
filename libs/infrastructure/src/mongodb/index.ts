export * from './mongodb-read-model-store';
