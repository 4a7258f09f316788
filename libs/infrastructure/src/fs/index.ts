export * from './shared-file';
