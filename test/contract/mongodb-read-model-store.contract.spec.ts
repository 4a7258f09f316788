import { randomUUID } from 'node:crypto';
import { CommandStartedEvent, Document, MongoClient } from 'mongodb';
import { MongoConnection, MongoReadModelStore } from '@app/infrastructure/mongodb';
import { onMongoDb } from './mongodb-server';
import { readModelContract } from './read-model.contract';

onMongoDb('ReadModelStore contract', (url, dbName) => {
  readModelContract(
    'mongodb',
    async () => {
      const store = await MongoReadModelStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
      return { store, close: () => store.close() };
    },
    { guardsStaleWrites: true },
  );

  describe('MongoReadModelStore: lists read off the indexes', () => {
    let client: MongoClient;
    let store: MongoReadModelStore;
    const finds: Document[] = [];
    const ws = `ws_${randomUUID().replace(/-/g, '')}`;

    beforeAll(async () => {
      client = new MongoClient(url, { monitorCommands: true, ignoreUndefined: true });
      client.on('commandStarted', (event: CommandStartedEvent) => {
        if (event.commandName === 'find') finds.push(event.command);
      });
      await client.connect();
      store = new MongoReadModelStore(MongoConnection.over(client, dbName), false);
      await store.init([{ name: 'indexed', indexes: ['status', 'type'] }]);
      // 300 documents in this workspace, only every 30th a draft (and of type t1 or t2); another
      // workspace all drafts: a plan on the field alone or on (workspace, seq) alone has to examine
      // far more than a page, so only the compound indexes pass.
      const ops = [];
      for (let i = 1; i <= 300; i++) {
        const doc = {
          status: i % 30 === 0 ? 'draft' : 'planned',
          type: i % 30 === 5 ? 't1' : i % 30 === 17 ? 't2' : 't0',
        };
        ops.push({ op: 'put' as const, collection: 'indexed', id: `d${i}`, workspaceId: ws, seq: i, doc });
        const elsewhere = { status: 'draft', type: 't0' };
        ops.push({
          op: 'put' as const,
          collection: 'indexed',
          id: `o${i}`,
          workspaceId: `other_${ws}`,
          seq: i,
          doc: elsewhere,
        });
      }
      await store.apply(ops, {});
    });
    afterAll(async () => {
      await client.close();
    });

    it('keeps (workspace, seq, id) and (workspace, field, seq, id) indexes for each declared field', async () => {
      const indexes = await client.db(dbName).collection('rm_indexed').indexes();
      const keys = Object.fromEntries(indexes.map((index) => [index.name, Object.entries(index.key)]));
      expect(keys.ws_seq_id).toEqual([
        ['_ws', 1],
        ['_seq', 1],
        ['_id', 1],
      ]);
      expect(keys.ws_status_seq_id).toEqual([
        ['_ws', 1],
        ['status', 1],
        ['_seq', 1],
        ['_id', 1],
      ]);
      expect(keys.ws_type_seq_id).toEqual([
        ['_ws', 1],
        ['type', 1],
        ['_seq', 1],
        ['_id', 1],
      ]);
      expect(keys.field_status).toEqual([['status', 1]]);
      expect(keys.ws_seq).toBeUndefined(); // the older list index, superseded
    });

    it('indexes a field declared within a workspace after the workspace only, dropping an older index on it alone', async () => {
      await store.init([{ name: 'scoped_indexed', indexes: ['status'] }]);
      await store.init([{ name: 'scoped_indexed', workspaceIndexes: ['status'] }]);
      const indexes = await client.db(dbName).collection('rm_scoped_indexed').indexes();
      expect(indexes.map((index) => index.name).sort()).toEqual(['_id_', 'ws_seq_id', 'ws_status_seq_id']);
    });

    it.each([
      ['a plain list', { workspaceId: ws, limit: 5 }, 'ws_seq_id'],
      [
        'a list filtered on a declared field',
        { workspaceId: ws, where: { status: 'draft' }, limit: 3 },
        'ws_status_seq_id',
      ],
      [
        'a page after a cursor',
        { workspaceId: ws, where: { status: 'draft' }, afterSeq: 100, limit: 3 },
        'ws_status_seq_id',
      ],
      [
        'a membership filter (the audit feed by type)',
        { workspaceId: ws, where: { type: { in: ['t1', 't2'] } }, limit: 4 },
        'ws_type_seq_id',
      ],
    ])('serves %s from its index in order, without sorting in memory', async (_label, query, index) => {
      finds.length = 0;
      const found = await store.find('indexed', query);
      expect(found).toHaveLength(query.limit);
      expect(finds).toHaveLength(1);
      const command = Object.fromEntries(
        Object.entries(finds[0]).filter(([key]) => !key.startsWith('$') && key !== 'lsid'),
      );
      const explained = await client.db(dbName).command({ explain: command, verbosity: 'executionStats' });
      const stages = planStages(explained.queryPlanner.winningPlan);
      expect(stages.map((stage) => stage.stage)).not.toContain('SORT');
      expect(stages.filter((stage) => stage.stage === 'IXSCAN').map((stage) => stage.indexName)).toContain(index);
      // A page costs about a page: one document per result, plus one per $in branch at most.
      expect(explained.executionStats.totalDocsExamined).toBeLessThanOrEqual(query.limit + 2);
    });
  });
});

/** Every stage of a winning plan (classic `inputStage(s)`, or nested under `queryPlan` on SBE). */
function planStages(plan: unknown): { stage: string; indexName?: string }[] {
  if (plan === null || typeof plan !== 'object') return [];
  const node = plan as Record<string, unknown>;
  const own =
    typeof node.stage === 'string' ? [{ stage: node.stage, indexName: node.indexName as string | undefined }] : [];
  return [
    ...own,
    ...Object.values(node).flatMap((value) => (Array.isArray(value) ? value.flatMap(planStages) : planStages(value))),
  ];
}
