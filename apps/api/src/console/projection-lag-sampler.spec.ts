import type { QueryBus } from '@nestjs/cqrs';
import { ProjectionLagSampler } from './projection-lag-sampler';

describe('ProjectionLagSampler', () => {
  it('keeps the latest samples of each projection’s lag, and skips a sample the store could not answer', async () => {
    let lag = 0;
    let failing = false;
    const queries = {
      execute: async () => {
        if (failing) throw new Error('store unreachable');
        return { role: 'projector', projections: [{ name: 'projects', lag: lag++ }] };
      },
    } as unknown as QueryBus;
    const sampler = new ProjectionLagSampler(queries, 60_000, 3);
    for (let i = 0; i < 4; i++) await sampler.sample();
    failing = true;
    await sampler.sample();
    expect(sampler.history().map((s) => s.lag)).toEqual([{ projects: 1 }, { projects: 2 }, { projects: 3 }]);
  });

  it('samples at start and stops its timer at shutdown', async () => {
    const execute = jest.fn(async () => ({ role: 'projector', projections: [] }));
    const sampler = new ProjectionLagSampler({ execute } as unknown as QueryBus, 60_000, 3);
    sampler.onApplicationBootstrap();
    sampler.onApplicationShutdown();
    await new Promise((r) => setImmediate(r));
    expect(execute).toHaveBeenCalledTimes(1);
    expect(sampler.history()).toHaveLength(1);
  });
});
