import { BODY_NOT_OBJECT } from '../../apps/api/src/http/validation';
import { useProvisionedApp } from '../support/test-app';

/**
 * Every route that takes a body takes a JSON object: any other JSON value is a 400 naming the
 * problem, and changes nothing (a `null` PATCH body too: it is not an empty change).
 */
describe('Request bodies that are not JSON objects', () => {
  const { t, keys } = useProvisionedApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  let projectId: string;
  let jobId: string;
  let webhookId: string;

  beforeAll(async () => {
    const as = (method: string, path: string, body: unknown) => t.request(method, path, { token: keys.fullKey, body });
    projectId = (
      await as('POST', '/v1/projects', { name: 'P', description: 'd', status: 'planned', start_date: '2030-01-01' })
    ).body.id;
    jobId = (
      await as('POST', `/v1/projects/${projectId}/jobs`, {
        name: 'J',
        type: 'wind_turbine',
        job_pattern: 'one_time',
        start_date: '2030-01-02',
      })
    ).body.id;
    webhookId = (
      await as('POST', '/v1/webhooks', { name: 'W', url: 'https://127.0.0.1:9/hook', event_types: ['project.created'] })
    ).body.id;
  });

  const NOT_OBJECTS = ['null', '"text"', '42', 'true', '[]', '[{"name":"x"}]'];
  const routes = () => [
    { method: 'POST', path: '/v1/projects', token: keys.fullKey },
    { method: 'PATCH', path: `/v1/projects/${projectId}`, token: keys.fullKey },
    { method: 'POST', path: `/v1/projects/${projectId}/jobs`, token: keys.fullKey },
    { method: 'PATCH', path: `/v1/projects/${projectId}/jobs/${jobId}`, token: keys.fullKey },
    { method: 'POST', path: `/v1/projects/${projectId}/jobs/${jobId}/assign`, token: keys.fullKey },
    { method: 'POST', path: '/v1/job-types', token: keys.fullKey },
    { method: 'POST', path: '/v1/webhooks', token: keys.fullKey },
    { method: 'PATCH', path: `/v1/webhooks/${webhookId}`, token: keys.fullKey },
    { method: 'POST', path: '/v1/admin/workspaces', token: 'adm_test_token_for_e2e' },
    { method: 'PATCH', path: `/v1/admin/workspaces/${keys.workspaceId}`, token: 'adm_test_token_for_e2e' },
  ];

  it('answers 400 with the message on every route that takes a body, for every JSON value that is not an object', async () => {
    const answers: string[] = [];
    for (const route of routes()) {
      for (const rawBody of NOT_OBJECTS) {
        const res = await t.request(route.method, route.path, {
          token: route.token,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        answers.push(`${route.method} ${route.path} ${rawBody} -> ${res.status} ${res.body?.message}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(`-> 400 ${BODY_NOT_OBJECT}`))).toEqual([]);
  });

  it('changed nothing: the project and the job read as created', async () => {
    const project = await t.request('GET', `/v1/projects/${projectId}`, { token: keys.fullKey });
    expect(project.body).toMatchObject({ name: 'P', status: 'planned' });
    const history = await t.request('GET', `/v1/projects/${projectId}/history`, { token: keys.fullKey });
    expect(history.status).toBe(200);
  });
});
