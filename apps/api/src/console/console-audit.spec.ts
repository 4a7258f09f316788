import {
  actorView,
  afterOf,
  exportOf,
  FEED_MESSAGES,
  feedFormOf,
  parseFeedForm,
  stateLines,
  streamOf,
  timelineHref,
  valueText,
} from './console-audit';

describe('The console feed form', () => {
  const form = (values: Record<string, string>) => feedFormOf(values).form;

  it('turns each filled field into its filter, `to` including its whole minute', () => {
    expect(
      parseFeedForm(
        form({
          workspace: 'ws_1',
          type: 'project.created',
          actor: 'key_2',
          request_id: 'req-1',
          from: '2026-01-01T10:00',
          to: '2026-01-01T10:05',
        }),
      ),
    ).toEqual({
      filter: {
        workspaceId: 'ws_1',
        types: ['project.created'],
        actor: 'key_2',
        requestId: 'req-1',
        from: Date.UTC(2026, 0, 1, 10, 0),
        to: Date.UTC(2026, 0, 1, 10, 5) + 59_999,
      },
      errors: {},
    });
    expect(parseFeedForm(form({}))).toEqual({ filter: {}, errors: {} });
  });

  it('names each bad field', () => {
    const { errors } = parseFeedForm(
      form({ workspace: 'acme', type: 'nope', actor: 'bob', request_id: 'a b', from: '2026-02-30T00:00' }),
    );
    expect(errors).toEqual({
      workspace: FEED_MESSAGES.workspace,
      type: FEED_MESSAGES.type,
      actor: FEED_MESSAGES.actor,
      request_id: FEED_MESSAGES.request_id,
      from: `From (from) ${FEED_MESSAGES.time}`,
    });
    expect(parseFeedForm(form({ from: '2026-01-02T00:00', to: '2026-01-01T00:00' })).errors).toEqual({
      to: FEED_MESSAGES.order,
    });
  });

  it('refuses a field given twice, naming it, rather than reading either value', () => {
    const { form: typed, errors } = feedFormOf({ actor: ['operator', 'key_1'] });
    expect(parseFeedForm(typed, errors)).toEqual({ filter: {}, errors: { actor: 'Who (actor) must be given once' } });
  });
});

describe('The console export', () => {
  it('exports a stream, a workspace or every workspace, with the other filters and the resume position', () => {
    expect(exportOf({ workspaceId: 'ws_1', actor: 'operator' }, 'project-prj_1', 7)).toEqual({
      source: { stream: 'project-prj_1' },
      filter: { actor: 'operator', after: 7 },
    });
    expect(exportOf({ workspaceId: 'ws_1' }, undefined, undefined).source).toEqual({ workspaceId: 'ws_1' });
    expect(exportOf({ types: ['job.created'] }, undefined, undefined).source).toEqual({ allWorkspaces: true });
  });

  it('takes a position and a stream id of the right shape only', () => {
    expect(afterOf('12')).toEqual({ after: 12 });
    expect(afterOf('-1').error).toMatch(/^after must be/);
    expect(afterOf(undefined)).toEqual({});
    expect(streamOf('project-prj_1')).toEqual({ stream: 'project-prj_1' });
    expect(streamOf('../x').error).toMatch(/^stream must be/);
  });
});

describe('The console audit views', () => {
  it('links a resource stream to its timeline, and not a project’s job bookkeeping', () => {
    expect(timelineHref('project-prj_1', 3)).toBe('/console/streams/project-prj_1?revision=3');
    expect(timelineHref('job-type-jt_1')).toBe('/console/streams/job-type-jt_1');
    expect(timelineHref('project-jobs-prj_1', 0)).toBeNull();
    expect(timelineHref('ledger-1', 0)).toBeNull();
  });

  it('says who acted, with the value of the actor filter', () => {
    expect(actorView({ type: 'operator', id: 'opc_1' })).toEqual({ text: 'Operator (opc_1)', filter: 'operator' });
    expect(actorView({ type: 'operator' })).toEqual({ text: 'Operator (admin token)', filter: 'operator' });
    expect(actorView({ type: 'api_key', id: 'key_1', name: 'Bot' })).toEqual({
      text: 'API key “Bot” (key_1)',
      filter: 'key_1',
    });
    expect(actorView({ type: 'member', id: 'usr_1' })).toEqual({ text: 'Member usr_1', filter: 'usr_1' });
  });

  it('shows values in words, cut short, and a state one level down', () => {
    expect(valueText(undefined)).toBe('(absent)');
    expect(valueText(null)).toBe('(none)');
    expect(valueText(['a', 1])).toBe('["a",1]');
    expect(valueText('x'.repeat(400))).toHaveLength(301);
    expect(stateLines({ status: 'live', fields: { name: 'Dam', tags: ['a'] } })).toEqual([
      { field: 'status', value: 'live' },
      { field: 'fields.name', value: 'Dam' },
      { field: 'fields.tags', value: '["a"]' },
    ]);
    expect(stateLines({ fields: { updated: Date.UTC(2026, 0, 2, 3, 4) } })).toEqual([
      { field: 'fields.updated', value: `2026-01-02 03:04 UTC (${Date.UTC(2026, 0, 2, 3, 4)})` },
    ]);
  });
});
