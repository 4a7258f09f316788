import { EventStoreDbEventStore } from '@app/infrastructure/eventstoredb';
import { InMemoryEsdbClient } from '../../libs/infrastructure/src/eventstoredb/in-memory-esdb-client.spec-helper';
import { eventStoreContract } from './event-store.contract';

/**
 * The EventStoreDB adapter through the whole contract on every run, its client an in-memory
 * stand-in for the server (typed as the driver's, with the server's rules on positions, expected
 * revisions and catch-up subscriptions: in-memory-esdb-client.spec-helper.ts). It checks the
 * adapter's own mapping (stream names, metadata, positions, identity), not the server: the real
 * one runs the same suite in eventstoredb-event-store.contract.spec.ts when EVENTSTOREDB_URL is set.
 */
eventStoreContract('eventstoredb adapter on an in-memory stand-in for the server', async () => {
  const store = new EventStoreDbEventStore(new InMemoryEsdbClient().asClient(), { pageSize: 7 });
  return { store, close: () => store.close() };
});
