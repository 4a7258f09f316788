import { projectDecider, projectStream, workspaceStream } from '@app/domain';
import { useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { addMember } from '../../team/team-members.spec-helper';
import { recordWebhookWithSecret } from '../history.spec-helper';
import { decodeCursor } from '../../shared/pagination';
import { diffStates, GetResourceTimelineHandler, timelineKindOf } from './get-resource-timeline.handler';
import {
  GetResourceTimelineQuery,
  TIMELINE_NOT_FOUND,
  TIMELINE_REVISION,
  TIMELINE_STREAM,
} from './get-resource-timeline.query';

describe('GetResourceTimelineHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-timeline-');
  const handler = () => new GetResourceTimelineHandler(stores.events, stores.vault);

  async function projectWithRenames(renames: number) {
    const { id: ws, context } = await stores.workspace();
    const stream = projectStream('prj_1');
    await stores.repository.execute(
      projectDecider,
      stream,
      {
        type: 'CreateProject',
        id: 'prj_1',
        workspaceId: ws,
        name: 'Name 0',
        description: 'Survey',
        status: 'planned',
        startDate: '2026-01-01',
        createdBy: { id: 'key_1', email: null, first_name: 'Spec key', last_name: null, profile_picture: null },
        now: stores.clock.now(),
      },
      context,
    );
    for (let i = 1; i <= renames; i++) {
      stores.clock.at += 1000;
      await stores.repository.execute(
        projectDecider,
        stream,
        { type: 'UpdateProject', changes: { name: `Name ${i}` }, now: stores.clock.now() },
        context,
      );
    }
    return { ws, stream };
  }

  it('gives each revision its changed fields before and after, and the state as of any revision', async () => {
    const { ws, stream } = await projectWithRenames(2);

    const latest = await handler().execute(new GetResourceTimelineQuery(stream));
    expect(latest).toMatchObject({ kind: 'project', id: 'prj_1', workspace_id: ws, last_revision: 2, count: 3 });
    expect(latest.revisions.map((r) => [r.type, r.revision])).toEqual([
      ['project.created', 0],
      ['project.updated', 1],
      ['project.updated', 2],
    ]);
    expect(latest.revisions[0].diff).toEqual(
      expect.arrayContaining([
        { field: 'status', before: 'absent', after: 'live' },
        { field: 'fields.name', before: undefined, after: 'Name 0' },
      ]),
    );
    expect(latest.revisions[2].diff).toEqual(
      expect.arrayContaining([{ field: 'fields.name', before: 'Name 1', after: 'Name 2' }]),
    );
    expect(latest.revisions[2].diff.map((c) => c.field)).not.toContain('fields.description');
    expect(latest.selected).toMatchObject({ revision: 2, state: { fields: { name: 'Name 2' } } });

    const earlier = await handler().execute(new GetResourceTimelineQuery(stream, { revision: 1 }));
    expect(earlier.selected).toMatchObject({
      revision: 1,
      recorded_at: latest.revisions[1].recorded_at,
      state: { status: 'live', fields: { name: 'Name 1' } },
    });
  });

  it('pages revisions oldest first, each page diffed against the revision before it', async () => {
    const { stream } = await projectWithRenames(51);

    const first = await handler().execute(new GetResourceTimelineQuery(stream));
    expect(first.count).toBe(50);
    expect(decodeCursor(first.cursor!)).toBe(49);
    const second = await handler().execute(new GetResourceTimelineQuery(stream, { cursor: first.cursor! }));
    expect(second).toMatchObject({ count: 2, cursor: null, last_revision: 51 });
    expect(second.revisions[0].diff).toEqual([
      { field: 'fields.name', before: 'Name 49', after: 'Name 50' },
      expect.objectContaining({ field: 'fields.updated' }),
    ]);
  });

  it("shows a workspace's members without their email hashes, personal data opened", async () => {
    const { id: ws, context } = await stores.workspace();
    const { id: member } = await addMember(stores, context, 'ana@example.com', 'pilot');

    const timeline = await handler().execute(new GetResourceTimelineQuery(workspaceStream(ws)));
    expect(timeline.kind).toBe('workspace');
    expect(timeline.revisions[1]).toMatchObject({
      change: { member_id: member, profile: { email: 'ana@example.com' } },
    });
    expect(timeline.revisions[1].diff.map((c) => c.field)).toEqual(['members']);
    expect(JSON.stringify(timeline)).not.toMatch(/emailHash|_sealed/);
  });

  it("never shows a webhook's secret, in its state or in any revision's changes", async () => {
    const { id: ws, context } = await stores.workspace();
    const stream = await recordWebhookWithSecret(stores, ws, context);
    const timeline = await handler().execute(new GetResourceTimelineQuery(stream));
    expect(timeline).toMatchObject({ kind: 'webhook', selected: { revision: 0 } });
    expect(JSON.stringify(timeline.selected.state)).toContain('https://hooks.example.com/in');
    expect(JSON.stringify(timeline)).not.toMatch(/sealed-secret-material|ecret/);
  });

  it('refuses a stream that is no resource, a missing stream and a revision past the last', async () => {
    const { stream } = await projectWithRenames(0);
    await expect(handler().execute(new GetResourceTimelineQuery('project-jobs-prj_1'))).rejects.toThrow(
      TIMELINE_STREAM,
    );
    await expect(handler().execute(new GetResourceTimelineQuery('ledger-x'))).rejects.toThrow(TIMELINE_STREAM);
    await expect(handler().execute(new GetResourceTimelineQuery(projectStream('prj_none')))).rejects.toThrow(
      TIMELINE_NOT_FOUND,
    );
    await expect(handler().execute(new GetResourceTimelineQuery(stream, { revision: 1 }))).rejects.toThrow(
      TIMELINE_REVISION,
    );
  });
});

describe('timelineKindOf and diffStates', () => {
  it('tells a job type from a job and leaves out a project’s job bookkeeping', () => {
    expect(timelineKindOf('job-type-jt_1')).toMatchObject({ kind: 'job_type', id: 'jt_1' });
    expect(timelineKindOf('job-job_1')).toMatchObject({ kind: 'job', id: 'job_1' });
    expect(timelineKindOf('webhook-whk_1')).toMatchObject({ kind: 'webhook', id: 'whk_1' });
    expect(timelineKindOf('project-jobs-prj_1')).toBeNull();
    expect(timelineKindOf('project-../x')).toBeNull();
  });

  it('compares nested fields one level down and arrays whole', () => {
    expect(diffStates({ a: 1, f: { x: [1], y: 2 } }, { a: 1, f: { x: [1, 2], y: 2 }, b: true })).toEqual([
      { field: 'f.x', before: [1], after: [1, 2] },
      { field: 'b', before: undefined, after: true },
    ]);
  });
});
