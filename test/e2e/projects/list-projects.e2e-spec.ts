import { Keys, STATUS_MESSAGE, t, keys, useProjectsApp, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

  describe('GET /projects', () => {
    let ws: Keys;
    const ids: string[] = [];

    beforeAll(async () => {
      ws = await t.provision({ name: 'Lister' });
      const statuses = ['draft', 'planned', 'completed'];
      for (let i = 0; i < 120; i++) {
        ids.push(await create({ name: `P${i}`, status: statuses[i % 3] }, ws.fullKey));
      }
    });

    const list = (query = '') => t.request('GET', `/v1/projects${query}`, { token: ws.readKey });

    it('pages 50 at a time with an opaque cursor, in creation order, with no repeats or gaps', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      const counts: number[] = [];
      do {
        const res = await list(cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(res.body.projects.length);
        counts.push(res.body.count);
        seen.push(...res.body.projects.map((p: { id: string }) => p.id));
        cursor = res.body.cursor;
      } while (cursor);
      expect(counts).toEqual([50, 50, 20]);
      expect(seen).toEqual(ids);
    });

    it('keeps pages stable while projects are added', async () => {
      const first = await list();
      const extra = await create({ name: 'Late' }, ws.fullKey);
      const second = await list(`?cursor=${first.body.cursor}`);
      expect(second.body.projects.map((p: { id: string }) => p.id)).toEqual(ids.slice(50, 100));
      await t.request('DELETE', `/v1/projects/${extra}`, { token: ws.fullKey });
    });

    it('filters by comma-separated statuses', async () => {
      const res = await list('?status=draft,completed');
      expect(res.body.projects.every((p: { status: string }) => ['draft', 'completed'].includes(p.status))).toBe(true);
      let total = res.body.count;
      let cursor = res.body.cursor;
      while (cursor) {
        const next = await list(`?status=draft,completed&cursor=${cursor}`);
        total += next.body.count;
        cursor = next.body.cursor;
      }
      expect(total).toBe(80);
      expect((await list('?status=done')).body).toEqual({ message: STATUS_MESSAGE });
    });

    it('lists non-archived by default and only archived with archived=true', async () => {
      await t.request('POST', `/v1/projects/${ids[0]}/archive`, { token: ws.fullKey, body: { archived: true } });
      const active = await list();
      expect(active.body.projects.map((p: { id: string }) => p.id)).not.toContain(ids[0]);
      const archived = await list('?archived=true');
      expect(archived.body).toMatchObject({ count: 1, cursor: null });
      expect(archived.body.projects[0]).toMatchObject({ id: ids[0], archived: true });
      expect((await list('?archived=maybe')).body).toEqual({ message: 'archived must be true or false' });
      await t.request('POST', `/v1/projects/${ids[0]}/archive`, { token: ws.fullKey, body: { archived: false } });
      expect((await list()).body.projects[0].id).toBe(ids[0]);
    });

    it('refuses a malformed cursor with 400', async () => {
      for (const cursor of ['garbage!', 'Zm9v', '', 'a'.repeat(100)]) {
        const res = await list(`?cursor=${cursor}`);
        if (cursor === '') continue; // an empty cursor is "first page"
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
      }
    });

    it('shows only the key’s own workspace', async () => {
      const res = await t.request('GET', '/v1/projects', { token: keys.fullKey });
      const mine = res.body.projects.map((p: { id: string }) => p.id);
      expect(mine.some((id: string) => ids.includes(id))).toBe(false);
    });
  });
});
