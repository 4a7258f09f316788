import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useProvisionedApp } from '../support/test-app';

describe('Erasure without rewriting history (crypto-shredding of member personal data)', () => {
  const { t, keys } = useProvisionedApp();
  const email = 'ana.pilot@example.com';

  it('records personal data only sealed, shows it to readers, and erases it everywhere on request', async () => {
    const member = await t.admin('POST', `/workspaces/${keys.workspaceId}/members`, {
      email,
      role: 'pilot',
      first_name: 'Ana',
      last_name: 'Lopes',
      title: 'Chief pilot',
      phone_number: '+351 555 0100',
      profile_picture: 'https://img.example.com/ana.png',
    });
    expect(member.status).toBe(201);
    const id = member.body.id;

    // Readers see the person.
    const before = await t.request('GET', `/v1/team/${id}`, { token: keys.readKey });
    expect(before.body).toMatchObject({
      id,
      email,
      first_name: 'Ana',
      last_name: 'Lopes',
      title: 'Chief pilot',
      role: 'pilot',
    });
    const feed = await t.request('GET', '/v1/events?type=workspace.member_added', { token: keys.readKey });
    expect(feed.body.events[0].change.profile).toMatchObject({ email, first_name: 'Ana' });

    // Nothing personal is in the event store or the read models in clear.
    const files = ['events.db', 'events.db-wal', 'read-models.db', 'read-models.db-wal'].map((f) => {
      try {
        return readFileSync(join(t.dataDir, f));
      } catch {
        return Buffer.alloc(0);
      }
    });
    for (const bytes of files) {
      expect(bytes.includes(Buffer.from(email))).toBe(false);
      expect(bytes.includes(Buffer.from('Lopes'))).toBe(false);
    }

    // A second member with the same email is refused (the keyed hash sees it).
    expect(
      (await t.admin('POST', `/workspaces/${keys.workspaceId}/members`, { email: email.toUpperCase(), role: 'client' }))
        .status,
    ).toBe(409);

    const erased = await t.admin('POST', `/members/${id}/erase`);
    expect(erased).toMatchObject({ status: 200, body: { message: 'Member personal data erased' } });

    const after = await t.request('GET', `/v1/team/${id}`, { token: keys.readKey });
    expect(after.body).toEqual({
      id,
      email: '[erased]',
      first_name: '[erased]',
      last_name: '[erased]',
      role: 'pilot',
      title: 'Chief pilot',
      phone_number: '[erased]',
      profile_picture: '[erased]',
      created: before.body.created,
      updated: expect.any(Number),
    });
    const listed = await t.request('GET', '/v1/team?role=pilot', { token: keys.readKey });
    expect(listed.body.team.find((m: { id: string }) => m.id === id)).toMatchObject({
      email: '[erased]',
      status: 'active',
    });

    // History stays whole: the member_added event is still there, its personal data erased,
    // and the erasure itself is recorded.
    const history = await t.request('GET', '/v1/events?type=workspace.member_added,workspace.member_erased', {
      token: keys.readKey,
    });
    expect(history.body.events.map((e: { type: string }) => e.type)).toEqual([
      'workspace.member_added',
      'workspace.member_erased',
    ]);
    expect(history.body.events[0].change.profile).toBe('[erased]');
    expect(history.body.events[0].change.role).toBe('pilot');
    const exported = await t.admin('GET', `/events/export?workspace_id=${keys.workspaceId}`);
    expect(exported.text).not.toContain(email);
    expect(exported.text).toContain('"profile":"[erased]"');

    // The read models still match a replay of the store, and the email may join again.
    expect((await t.admin('POST', '/events/verify')).body.differences).toEqual([]);
    expect((await t.admin('POST', `/workspaces/${keys.workspaceId}/members`, { email, role: 'client' })).status).toBe(
      201,
    );
    expect((await t.admin('POST', `/members/${id}/erase`)).status).toBe(200);
    expect(await t.admin('POST', '/members/usr_missing/erase')).toMatchObject({
      status: 404,
      body: { message: 'User not found' },
    });
  });
});
