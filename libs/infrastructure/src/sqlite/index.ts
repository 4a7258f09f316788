export * from './sqlite-event-store';
export * from './sqlite-read-model-store';
export { DEFAULT_READ_CACHE, ReadCacheOptions } from './sqlite-read-cache';
export * from './sqlite-idempotency-store';
export * from './sqlite-webhook-queue';
export * from './sqlite-subject-key-store';
export * from './sqlite-snapshot-store';
export * from './sqlite-process-lock';
export * from './sqlite-backup';
