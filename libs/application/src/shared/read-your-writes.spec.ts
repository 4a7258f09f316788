import { OPERATOR } from '@app/domain';
import { ReadScope, ReadYourWrites } from '../ports/read-your-writes.port';
import { CommandContext, ReadConsistency } from './command-context';
import { waitUntilShown } from './read-your-writes';

/** Read models that show everything but the streams named `behind`; they record what was asked. */
function readModels(behind: string[] = []) {
  const asked: [number, ReadScope | undefined][] = [];
  const models: ReadYourWrites = {
    waitFor: async (position, scope) => {
      asked.push([position, scope]);
      return !behind.includes(scope?.streamId ?? '');
    },
  };
  return { models, asked };
}

const request = (): CommandContext & { consistency: ReadConsistency } => ({
  actor: OPERATOR,
  workspaceId: 'ws_1',
  requestId: 'req_1',
  causationId: 'req_1',
  consistency: { pending: [] },
});

describe('waitUntilShown (read-your-writes)', () => {
  it('a write waits for the projections serving each stream it wrote, and is shown once they show it', async () => {
    const { models, asked } = readModels();

    const shown = await waitUntilShown(models, { position: 7, written: ['project-p1', 'workspace-w1'] }, request());

    expect(shown).toBe(true);
    expect(asked).toEqual([
      [7, { projections: ['projects'], streamId: 'project-p1' }],
      [7, { projections: ['workspaces'], streamId: 'workspace-w1' }],
    ]);
  });

  it('read models that do not show it in time: not shown, and the request says which are pending', async () => {
    const { models } = readModels(['job-type-t1', 'other-x']);
    const context = request();

    const shown = await waitUntilShown(
      models,
      { position: 7, written: ['project-p1', 'job-type-t1', 'other-x'] },
      context,
    );

    expect(shown).toBe(false);
    expect(context.consistency.pending).toEqual(['job_types', 'all']);
  });

  it('nothing written: shown, without asking the read models', async () => {
    const { models, asked } = readModels();

    expect(await waitUntilShown(models, { position: 0, written: [] }, request())).toBe(true);
    expect(asked).toEqual([]);
  });

  it('not waited for on purpose: not known to be shown, and nothing pending to report', async () => {
    const { models, asked } = readModels();
    const context = request();

    expect(await waitUntilShown(models, { position: 7, written: ['project-p1'] }, context, false)).toBe(false);
    expect(asked).toEqual([]);
    expect(context.consistency.pending).toEqual([]);
  });
});
