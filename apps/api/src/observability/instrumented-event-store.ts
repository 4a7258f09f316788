import type { AppendResult, EventStore, ExpectedRevision, NewEvent } from '@app/application';
import { ServiceMetrics } from './metrics';

/** The configured event store, with append latency recorded (a decorator: same port, same behaviour). */
export function instrumentEventStore(store: EventStore, metrics: ServiceMetrics): EventStore {
  return {
    async appendToStream(
      streamId: string,
      events: NewEvent[],
      options: { expectedRevision: ExpectedRevision },
    ): Promise<AppendResult> {
      const stop = metrics.appendDuration.startTimer();
      try {
        const result = await store.appendToStream(streamId, events, options);
        stop({ outcome: 'ok' });
        return result;
      } catch (error) {
        stop({ outcome: 'error' });
        throw error;
      }
    },
    async appendToStreams(appends) {
      const stop = metrics.appendDuration.startTimer();
      try {
        const result = await store.appendToStreams(appends);
        stop({ outcome: 'ok' });
        return result;
      } catch (error) {
        stop({ outcome: 'error' });
        throw error;
      }
    },
    atomicMultiStream: store.atomicMultiStream,
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
