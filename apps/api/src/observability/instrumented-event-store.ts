import { AppendResult, EventStore, ExpectedRevision, NewEvent, WrongExpectedRevisionError } from '@app/application';
import { ServiceMetrics } from './metrics';

/**
 * The configured event store, with append latency recorded (a decorator: same port, same
 * behaviour). A conflict (an expected revision another writer moved: the command is decided again)
 * is told apart from a failure: commands decide first on the states they hold, so conflicts are
 * how another process's writes are found, and their rate is what an operator watches.
 */
export function instrumentEventStore(store: EventStore, metrics: ServiceMetrics): EventStore {
  // The outcomes are known: one child of the histogram each, made once (a series appears when first observed).
  const outcomes = {
    ok: metrics.appendDuration.labels('ok'),
    conflict: metrics.appendDuration.labels('conflict'),
    error: metrics.appendDuration.labels('error'),
  };
  // One promise per append, not an async wrapper's two.
  const timed = <T>(append: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const observe = (outcome: keyof typeof outcomes) => outcomes[outcome].observe((performance.now() - started) / 1000);
    return append().then(
      (result) => {
        observe('ok');
        return result;
      },
      (error: unknown) => {
        observe(outcomeOf(error));
        throw error;
      },
    );
  };
  return {
    appendToStream: (streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }) =>
      timed<AppendResult>(() => store.appendToStream(streamId, events, options)),
    appendToStreams: (appends) => timed(() => store.appendToStreams(appends)),
    atomicMultiStream: store.atomicMultiStream,
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (options) => store.readAll(options),
    readAllStored: (options) => store.readAllStored(options),
    readAt: (position) => store.readAt(position),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    identity: () => store.identity(),
    close: () => store.close(),
  };
}

const outcomeOf = (error: unknown) =>
  error instanceof WrongExpectedRevisionError ? ('conflict' as const) : ('error' as const);
