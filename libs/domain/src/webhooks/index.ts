export * from './webhook.events';
export * from './webhook.values';
export * from './webhook.aggregate';
export * from './target-address';
