export * from './mongodb-read-model-store';
export * from './mongodb-idempotency-store';
export * from './mongodb-webhook-queue';
export * from './mongodb-subject-key-store';
export * from './mongodb-snapshot-store';
export * from './mongodb-connection';
export * from './mongodb-projector-lease';
export * from './mongodb-ledger-store';
