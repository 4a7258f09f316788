export * from './memory-rate-limit-store';
