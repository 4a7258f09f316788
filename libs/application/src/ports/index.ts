export * from './event-store.port';
export * from './read-model.port';
export * from './clock.port';
export * from './id-generator.port';
export * from './read-your-writes.port';
export * from './subject-key-store.port';
