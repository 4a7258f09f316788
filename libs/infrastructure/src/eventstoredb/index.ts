export * from './eventstoredb-event-store';
