export * from './dns-host-resolver';
export * from './https-webhook-transport';
export * from './cached-host-resolver';
