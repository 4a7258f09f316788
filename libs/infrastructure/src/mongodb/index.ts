export * from './mongodb-read-model-store';
export * from './mongodb-subject-key-store';
