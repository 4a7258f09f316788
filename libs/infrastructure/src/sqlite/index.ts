export * from './sqlite-event-store';
export * from './sqlite-read-model-store';
