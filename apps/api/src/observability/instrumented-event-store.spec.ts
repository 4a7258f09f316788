import { EventStore, StreamAppend, WrongExpectedRevisionError } from '@app/application';
import { instrumentEventStore } from './instrumented-event-store';
import { ServiceMetrics } from './metrics';

describe('instrumentEventStore: append outcomes', () => {
  const append: StreamAppend = { streamId: 'thing-1', events: [], expectedRevision: 0 };

  /** A store whose appends fail with `failure`, or succeed when it is undefined. */
  const store = (failure?: Error) =>
    ({
      appendToStreams: async () => {
        if (failure) throw failure;
        return [{ nextRevision: 0, position: 1 }];
      },
    }) as unknown as EventStore;

  const counts = async (metrics: ServiceMetrics) => {
    const { values } = await metrics.appendDuration.get();
    return Object.fromEntries(
      values
        .filter((v) => v.metricName === 'event_store_append_duration_seconds_count')
        .map((v) => [v.labels.outcome, v.value]),
    );
  };

  it('counts an accepted append as ok, a moved expected revision as a conflict, anything else as an error', async () => {
    const metrics = new ServiceMetrics();
    await instrumentEventStore(store(), metrics).appendToStreams([append]);
    const conflict = new WrongExpectedRevisionError('thing-1', 0, 1);
    await expect(instrumentEventStore(store(conflict), metrics).appendToStreams([append])).rejects.toBe(conflict);
    await expect(instrumentEventStore(store(conflict), metrics).appendToStreams([append])).rejects.toBe(conflict);
    await expect(
      instrumentEventStore(store(new Error('disk full')), metrics).appendToStreams([append]),
    ).rejects.toThrow('disk full');
    expect(await counts(metrics)).toEqual({ ok: 1, conflict: 2, error: 1 });
  });
});
