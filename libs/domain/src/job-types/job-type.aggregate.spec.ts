import { spec } from '../shared/given-when-then.spec-helper';
import { jobTypeDecider } from './job-type.aggregate';
import { JOB_TYPE_NOT_FOUND, PREDEFINED_JOB_TYPE_NOT_DELETABLE } from './job-type.values';
import { JobTypeEvent } from './job-type.events';

const { given } = spec(jobTypeDecider);

const created: JobTypeEvent = {
  type: 'job_type.created',
  data: { id: 'jbt_1', workspace_id: 'ws1', name: 'Dam survey', icon: 'settings', created: 10 },
};
const deleted: JobTypeEvent = { type: 'job_type.deleted', data: { id: 'jbt_1', workspace_id: 'ws1', deleted: 20 } };

describe('JobType aggregate', () => {
  it('creates a custom type with the icon settings unless one is given', () => {
    given()
      .when({ type: 'CreateJobType', id: 'jbt_1', workspaceId: 'ws1', name: 'Dam survey', now: 10 })
      .then([created]);
    given()
      .when({ type: 'CreateJobType', id: 'jbt_1', workspaceId: 'ws1', name: 'Dam survey', icon: 'droplet', now: 10 })
      .then([{ ...created, data: { ...created.data, icon: 'droplet' } } as JobTypeEvent]);
  });

  it('never creates a type under a predefined id, and treats a repeated create as done', () => {
    given()
      .when({ type: 'CreateJobType', id: 'wind_turbine', workspaceId: 'ws1', name: 'x', now: 1 })
      .thenFails('reserved');
    given(created)
      .when({ type: 'CreateJobType', id: 'jbt_1', workspaceId: 'ws1', name: 'Again', now: 30 })
      .thenNothing();
  });

  it('deletes a custom type once; afterwards it is not found', () => {
    given(created).when({ type: 'DeleteJobType', id: 'jbt_1', now: 20 }).then([deleted]);
    given(created, deleted).when({ type: 'DeleteJobType', id: 'jbt_1', now: 30 }).thenFails(JOB_TYPE_NOT_FOUND);
    given().when({ type: 'DeleteJobType', id: 'jbt_missing', now: 30 }).thenFails('Job Type not found');
  });

  it('refuses to delete a predefined type', () => {
    given()
      .when({ type: 'DeleteJobType', id: 'drone_inspection', now: 1 })
      .thenFails(PREDEFINED_JOB_TYPE_NOT_DELETABLE);
  });
});
