import { receiver, service, useReceiver, useDeliveryService, verify, sleep, eventually, api } from './delivery-fixture';

describe('Webhook deliveries to a real HTTPS receiver', () => {
  useReceiver();

  describe('one service, short retry delays, pause after 3 failures', () => {
    useDeliveryService();

    it('sends a signed test delivery on request', async () => {
      const key = await api.provision('Tester');
      const hook = await api.subscribe(key, '/test-endpoint', ['job.created']);
      const res = await api.call('POST', `/v1/webhooks/${hook.id}/test`, key);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: 'Test delivery succeeded',
        delivery: { event_type: 'webhook.test', succeeded: true, response_status: 204 },
      });
      const [request] = receiver.received('/test-endpoint');
      expect(verify(request, hook.secret)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    });

    it('signs with both the new and the previous secret after a rotation', async () => {
      const key = await api.provision('Rotation');
      const hook = await api.subscribe(key, '/rotation', ['project.created']);
      const rotated = await api.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, key);
      expect(rotated.status).toBe(200);
      await api.createProject(key);
      const [request] = await receiver.waitFor('/rotation', 1);
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verify(request, rotated.body.secret).type).toBe('project.created');
      expect(verify(request, hook.secret).type).toBe('project.created');
    });

    it('as a new user: subscribe, create a project, receive the signed delivery, read the attempt log', async () => {
      const key = await api.provision('First user');
      const hook = await api.subscribe(key, '/first');
      const projectId = await api.createProject(key);
      const [request] = await receiver.waitFor('/first', 1);

      const payload = verify(request, hook.secret);
      const project = await api.call('GET', `/v1/projects/${projectId}`, key);
      expect(payload).toEqual({ type: 'project.created', timestamp: expect.any(String), data: project.body });
      expect(Math.abs(Date.parse(payload.timestamp) - project.body.created)).toBeLessThan(1000);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

      const log = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key);
        expect(res.body.count).toBe(1);
        return res.body;
      });
      expect(log.deliveries[0]).toEqual({
        delivery_id: request.headers['webhook-id'],
        event_type: 'project.created',
        attempt: 1,
        attempted_at: expect.any(Number),
        succeeded: true,
        response_status: 204,
        response_body: '',
        duration_ms: expect.any(Number),
        error: null,
        next_retry_at: null,
      });
      const webhook = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}`, key);
        expect(res.body.last_triggered_at).toBe(log.deliveries[0].attempted_at);
        return res.body;
      });
      expect(webhook).toMatchObject({ status: 'active', failure_count: 0 });

      // Operators see it in /metrics.
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    });

    it('sends each change with the resource exactly as of its event; a deletion carries the id', async () => {
      const key = await api.provision('Changes');
      const hook = await api.subscribe(key, '/changes');
      const projectId = await api.createProject(key);
      await api.call('PATCH', `/v1/projects/${projectId}`, key, { name: 'First name' });
      await api.call('PATCH', `/v1/projects/${projectId}`, key, { name: 'Second name', laanc_number: 'L-9' });
      await api.call('POST', `/v1/projects/${projectId}/archive`, key, { archived: true });
      await api.call('DELETE', `/v1/projects/${projectId}`, key);
      const payloads = (await receiver.waitFor('/changes', 5)).map((r) => verify(r, hook.secret));
      const byType = (type: string) => payloads.filter((p) => p.type === type).map((p) => p.data);
      expect(byType('project.created')).toEqual([
        expect.objectContaining({ id: projectId, name: 'Dam inspection', archived: false }),
      ]);
      const updates = byType('project.updated').map((d) => [d.name, d.laanc_number, d.archived]);
      expect(updates).toHaveLength(3);
      expect(updates).toEqual(
        expect.arrayContaining([
          ['First name', null, false],
          ['Second name', 'L-9', false],
          ['Second name', 'L-9', true],
        ]),
      );
      expect(byType('project.deleted')).toEqual([{ id: projectId }]);
      expect(new Set(receiver.received('/changes').map((r) => r.headers['webhook-id'])).size).toBe(5);
    });

    it('gives nothing to a subscription without the type, a paused one, or another workspace’s', async () => {
      const key = await api.provision('Filters');
      const otherKey = await api.provision('Elsewhere');
      await api.subscribe(key, '/without-type', ['project.deleted', 'job.created']);
      const paused = await api.subscribe(key, '/paused', ['project.created']);
      expect((await api.call('PATCH', `/v1/webhooks/${paused.id}`, key, { status: 'paused' })).status).toBe(200);
      await api.subscribe(otherKey, '/other-workspace', ['project.created']);
      await api.subscribe(key, '/control', ['project.created']);
      await api.createProject(key);
      await receiver.waitFor('/control', 1);
      await sleep(500);
      expect(receiver.received('/without-type')).toEqual([]);
      expect(receiver.received('/paused')).toEqual([]);
      expect(receiver.received('/other-workspace')).toEqual([]);
    });

    it('delivers jobs and job types as GET shows them, and their deletions by id (and project_id)', async () => {
      const key = await api.provision('Jobs');
      const hook = await api.subscribe(key, '/jobs', [
        'job.created',
        'job.updated',
        'job.deleted',
        'job_type.created',
        'job_type.deleted',
      ]);
      const projectId = await api.createProject(key);
      const jobType = await api.call('POST', '/v1/job-types', key, { name: 'Bridge deck', icon: 'hammer' });
      expect(jobType.status).toBe(201);
      const today = new Date().toISOString().slice(0, 10);
      const job = await api.call('POST', `/v1/projects/${projectId}/jobs`, key, {
        name: 'Deck scan',
        type: jobType.body.id,
        job_pattern: 'one_time',
        start_date: today,
      });
      expect(job.status).toBe(201);
      const shown = await api.call('GET', `/v1/projects/${projectId}/jobs/${job.body.id}`, key);
      expect(
        (await api.call('PATCH', `/v1/projects/${projectId}/jobs/${job.body.id}`, key, { priority: 'high' })).status,
      ).toBe(200);
      expect((await api.call('DELETE', `/v1/projects/${projectId}/jobs/${job.body.id}`, key)).status).toBe(204);
      expect((await api.call('DELETE', `/v1/job-types/${jobType.body.id}`, key)).status).toBe(204);

      const payloads = (await receiver.waitFor('/jobs', 5)).map((r) => verify(r, hook.secret));
      const of = (type: string) => payloads.filter((p) => p.type === type).map((p) => p.data);
      expect(of('job_type.created')).toEqual([
        { id: jobType.body.id, name: 'Bridge deck', icon: 'hammer', is_predefined: false },
      ]);
      expect(of('job.created')).toEqual([shown.body]);
      expect(of('job.updated')).toEqual([{ ...shown.body, priority: 'high', updated: expect.any(Number) }]);
      expect(of('job.deleted')).toEqual([{ id: job.body.id, project_id: projectId }]);
      expect(of('job_type.deleted')).toEqual([{ id: jobType.body.id }]);
    });
  });
});
