import { EventStoreDbEventStore } from '@app/infrastructure/eventstoredb';
import { eventStoreContract } from './event-store.contract';

/**
 * Runs the EventStore contract against a real EventStoreDB / KurrentDB when EVENTSTOREDB_URL is
 * set (e.g. `docker compose -f docker-compose.test.yml up -d eventstoredb` then
 * `EVENTSTOREDB_URL='esdb://localhost:2113?tls=false' npx jest test/contract`). Streams are
 * random per test, so the suite can share a server with anything else.
 */
const url = process.env.EVENTSTOREDB_URL;

if (url) {
  eventStoreContract('eventstoredb', async () => {
    const store = await EventStoreDbEventStore.connect(url);
    return { store, close: () => store.close() };
  });
} else {
  describe('EventStore contract: eventstoredb', () => {
    it.skip('needs a server: set EVENTSTOREDB_URL (docker compose -f docker-compose.test.yml up -d eventstoredb) to run it', () =>
      undefined);
  });
}
