import { AUDIT_FORM_MESSAGES, auditQuery, parseAuditForm, resourceLink } from './dashboard-audit';

describe('dashboard audit trail helpers', () => {
  const actors = new Set(['operator', 'usr_1', 'key_1']);
  const blank = { type: '', actor: '', from: '', to: '' };

  it('reads the filter form: offered values only, UTC minutes with an inclusive end', () => {
    expect(parseAuditForm(blank, actors)).toEqual({ filter: {}, errors: {} });
    const { filter, errors } = parseAuditForm(
      { type: 'project.created', actor: 'key_1', from: '2026-01-01T10:00', to: '2026-01-01T10:00' },
      actors,
    );
    expect(errors).toEqual({});
    expect(filter).toEqual({
      types: ['project.created'],
      actor: 'key_1',
      from: Date.UTC(2026, 0, 1, 10, 0),
      to: Date.UTC(2026, 0, 1, 10, 0) + 59_999,
    });
  });

  it('names each bad field: an unknown type or actor, a time that is not one, an end before the start', () => {
    expect(parseAuditForm({ type: 'x.y', actor: 'key_other', from: 'soon', to: '' }, actors).errors).toEqual({
      type: AUDIT_FORM_MESSAGES.type,
      actor: AUDIT_FORM_MESSAGES.actor,
      from: AUDIT_FORM_MESSAGES.time,
    });
    expect(parseAuditForm({ ...blank, from: '2026-01-02T00:00', to: '2026-01-01T00:00' }, actors).errors).toEqual({
      to: AUDIT_FORM_MESSAGES.order,
    });
  });

  it("links each entry to its resource's page, or to none", () => {
    expect(resourceLink({ type: 'project.updated', stream: 'project-prj_1', change: {} })).toEqual({
      href: '/dashboard/projects/prj_1',
      text: 'Project prj_1',
    });
    expect(resourceLink({ type: 'job.updated', stream: 'job-job_1', change: { project_id: 'prj_1' } })).toEqual({
      href: '/dashboard/projects/prj_1/jobs/job_1',
      text: 'Job job_1',
    });
    expect(resourceLink({ type: 'webhook.paused', stream: 'webhook-whk_1', change: {} })?.href).toBe(
      '/dashboard/webhooks/whk_1',
    );
    expect(resourceLink({ type: 'workspace.api_key_created', stream: 'workspace-ws_1', change: {} })?.href).toBe(
      '/dashboard/api-keys',
    );
    expect(resourceLink({ type: 'workspace.member_added', stream: 'workspace-ws_1', change: {} })).toBeNull();
    expect(resourceLink({ type: 'job_type.created', stream: 'job-type-jbt_1', change: {} })).toBeNull();
    expect(resourceLink({ type: 'project.job_added', stream: 'project-jobs-prj_1', change: {} })?.href).toBe(
      '/dashboard/projects/prj_1',
    );
  });

  it('keeps the filters in the links it makes (next page, export)', () => {
    expect(auditQuery(blank)).toBe('');
    expect(auditQuery({ ...blank, type: 'project.created', actor: 'key_1' }, { cursor: 'abc' })).toBe(
      '?type=project.created&actor=key_1&cursor=abc',
    );
  });
});
