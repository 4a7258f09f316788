import { spec } from '../shared/given-when-then.spec-helper';
import { projectDecider, ProjectCommand } from './project.aggregate';
import { END_DATE_AFTER_START, PROJECT_NOT_FOUND } from './project.values';
import { ProjectEvent } from './project.events';

const { given } = spec(projectDecider);
const createdBy = { id: 'key1', email: null, first_name: 'Bot', last_name: null, profile_picture: null };
const create: ProjectCommand = {
  type: 'CreateProject',
  id: 'p1',
  workspaceId: 'ws1',
  name: 'Bridge survey',
  description: 'Quarterly',
  status: 'planned',
  startDate: '2026-03-01',
  endDate: '2026-04-01',
  createdBy,
  now: 10,
};
const created: ProjectEvent = {
  type: 'project.created',
  data: {
    id: 'p1',
    workspace_id: 'ws1',
    name: 'Bridge survey',
    description: 'Quarterly',
    status: 'planned',
    other_status_reason: null,
    start_date: '2026-03-01',
    end_date: '2026-04-01',
    external_id: null,
    created_by: createdBy,
    created: 10,
  },
};
const update = (changes: Extract<ProjectCommand, { type: 'UpdateProject' }>['changes']): ProjectCommand => ({
  type: 'UpdateProject',
  changes,
  now: 20,
});
const updated = (changes: object): ProjectEvent => ({
  type: 'project.updated',
  data: { id: 'p1', workspace_id: 'ws1', changes, updated: 20 },
});

describe('Project aggregate', () => {
  describe('create', () => {
    it('records the project with defaults for what was not given', () => {
      given().when(create).then([created]);
    });

    it('needs a reason for status other, and an end after the start', () => {
      given()
        .when({ ...create, status: 'other' })
        .thenFails('other_status_reason is required when status is "other"');
      given()
        .when({ ...create, endDate: '2026-03-01' })
        .thenFails(END_DATE_AFTER_START);
      given()
        .when({ ...create, endDate: '2026-02-28' })
        .thenFails(END_DATE_AFTER_START);
    });

    it('keeps the reason for status other', () => {
      given()
        .when({ ...create, status: 'other', otherStatusReason: 'Client request' })
        .then([
          {
            ...created,
            data: { ...created.data, status: 'other', other_status_reason: 'Client request' },
          } as ProjectEvent,
        ]);
    });
  });

  describe('update', () => {
    it('records only the supplied fields that change', () => {
      given(created)
        .when(update({ name: 'Renamed', description: 'Quarterly' }))
        .then([updated({ name: 'Renamed' })]);
      given(created)
        .when(update({ name: 'Bridge survey' }))
        .thenNothing();
    });

    it('clears nullable fields with null', () => {
      given(created)
        .when(update({ end_date: null, external_id: null }))
        .then([updated({ end_date: null })]);
    });

    it('checks the dates against the stored ones when only one changes', () => {
      given(created)
        .when(update({ start_date: '2026-04-01' }))
        .thenFails(END_DATE_AFTER_START);
      given(created)
        .when(update({ end_date: '2026-02-01' }))
        .thenFails(END_DATE_AFTER_START);
      given(created)
        .when(update({ start_date: '2026-05-01', end_date: null }))
        .then([updated({ start_date: '2026-05-01', end_date: null })]);
    });

    it('needs a reason in the same request for status other; leaving other clears the reason', () => {
      given(created)
        .when(update({ status: 'other' }))
        .thenFails('other_status_reason is required when status is "other"');
      given(created)
        .when(update({ status: 'other', other_status_reason: 'Permit pending' }))
        .then([updated({ status: 'other', other_status_reason: 'Permit pending' })]);
      const inOther = updated({ status: 'other', other_status_reason: 'Permit pending' });
      given(created, inOther)
        .when(update({ status: 'planned' }))
        .then([updated({ status: 'planned', other_status_reason: null })]);
    });
  });

  describe('archive', () => {
    it('records a change of the flag, and nothing when it is already so', () => {
      given(created)
        .when({ type: 'ArchiveProject', archived: true, now: 20 })
        .then([updated({ archived: true })]);
      given(created, updated({ archived: true }))
        .when({ type: 'ArchiveProject', archived: true, now: 30 })
        .thenNothing();
      given(created, updated({ archived: true }))
        .when({ type: 'ArchiveProject', archived: false, now: 20 })
        .then([updated({ archived: false })]);
    });
  });

  describe('delete', () => {
    const deleted: ProjectEvent = { type: 'project.deleted', data: { id: 'p1', workspace_id: 'ws1', deleted: 20 } };

    it('deletes a live project; afterwards it is not found', () => {
      given(created).when({ type: 'DeleteProject', now: 20 }).then([deleted]);
      given(created, deleted).when({ type: 'DeleteProject', now: 30 }).thenFails(PROJECT_NOT_FOUND);
      given(created, deleted)
        .when(update({ name: 'x' }))
        .thenFails(PROJECT_NOT_FOUND);
      given().when({ type: 'ArchiveProject', archived: true, now: 1 }).thenFails(PROJECT_NOT_FOUND);
    });
  });
});
