export * from './redis-rate-limit-store';
