import { EVENT_SCHEMAS, eventSchemas } from '../event-schemas';
import { jobDecider } from '../jobs/job.aggregate';
import { jobTypeDecider } from '../job-types/job-type.aggregate';
import { projectDecider } from '../projects/project.aggregate';
import { webhookDecider } from '../webhooks/webhook.aggregate';
import { workspaceDecider } from '../workspaces/workspace.aggregate';
import { EventSchemaRegistry } from './event-schema';

describe('EventSchemaRegistry', () => {
  const registry = new EventSchemaRegistry({
    'thing.renamed': {
      version: 3,
      upcasters: {
        1: (d: { name: string }) => ({ title: d.name }),
        2: (d: { title: string }) => ({ title: d.title, locale: 'en' }),
      },
    },
    'thing.created': { version: 1 },
  });

  it('chains the upcasters from the recorded version to the current one', () => {
    const v1 = { id: 'e1', type: 'thing.renamed', schemaVersion: 1, data: { name: 'A' }, position: 7 };
    expect(registry.upcast(v1)).toEqual({
      id: 'e1',
      type: 'thing.renamed',
      schemaVersion: 3,
      data: { title: 'A', locale: 'en' },
      position: 7,
    });
    expect(v1.data).toEqual({ name: 'A' }); // the recorded event is not touched
    const v2 = { type: 'thing.renamed', schemaVersion: 2, data: { title: 'B' } };
    expect(registry.upcast(v2)).toEqual({
      type: 'thing.renamed',
      schemaVersion: 3,
      data: { title: 'B', locale: 'en' },
    });
  });

  it('passes current, newer and unknown events through as the same object', () => {
    const current = { type: 'thing.renamed', schemaVersion: 3, data: { title: 'C', locale: 'fr' } };
    const newer = { type: 'thing.renamed', schemaVersion: 4, data: { anything: true } };
    const unknown = { type: 'gadget.made', schemaVersion: 1, data: {} };
    expect(registry.upcast(current)).toBe(current);
    expect(registry.upcast(newer)).toBe(newer);
    expect(registry.upcast(unknown)).toBe(unknown);
  });

  it('reads a missing or odd version as 1', () => {
    const odd = { type: 'thing.renamed', schemaVersion: undefined as unknown as number, data: { name: 'D' } };
    expect(registry.upcast(odd).data).toEqual({ title: 'D', locale: 'en' });
  });

  it('knows its types and the version writers stamp (1 for types it does not know)', () => {
    expect(registry.isKnown('thing.created')).toBe(true);
    expect(registry.isKnown('gadget.made')).toBe(false);
    expect(registry.isKnown('toString')).toBe(false);
    expect(registry.currentVersion('thing.renamed')).toBe(3);
    expect(registry.currentVersion('thing.created')).toBe(1);
    expect(registry.currentVersion('gadget.made')).toBe(1);
  });

  it('refuses a schema whose chain has a gap or whose version is not a positive integer', () => {
    expect(() => new EventSchemaRegistry({ 'a.b': { version: 3, upcasters: { 1: (d) => d } } })).toThrow(
      'Event a.b: no upcaster from version 2',
    );
    expect(() => new EventSchemaRegistry({ 'a.b': { version: 2 } })).toThrow('Event a.b: no upcaster from version 1');
    expect(() => new EventSchemaRegistry({ 'a.b': { version: 0 } })).toThrow('version must be an integer >= 1');
  });
});

describe('EVENT_SCHEMAS of this release', () => {
  it('builds (every versioned type has its full chain of upcasters)', () => {
    expect(() => new EventSchemaRegistry(EVENT_SCHEMAS)).not.toThrow();
    expect(Object.keys(EVENT_SCHEMAS).length).toBeGreaterThanOrEqual(25);
    for (const type of Object.keys(EVENT_SCHEMAS)) expect(eventSchemas.isKnown(type)).toBe(true);
  });

  it.each([
    ['workspace', workspaceDecider],
    ['project', projectDecider],
    ['job', jobDecider],
    ['job type', jobTypeDecider],
    ['webhook', webhookDecider],
  ] as const)('%s: evolve leaves the state unchanged for an event of an unknown type', (_name, decider) => {
    const state = decider.initialState();
    const unknown = { type: 'future.thing_happened', data: { id: 'x' } } as never;
    expect(decider.evolve(state as never, unknown)).toBe(state);
  });
});
