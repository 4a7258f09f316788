import { DomainError } from '../shared/domain-error';
import { spec } from '../shared/given-when-then.spec-helper';
import { PROJECT_LIMIT_REACHED, workspaceDecider } from './workspace.aggregate';
import { WorkspaceEvent } from './workspace.events';

const { given } = spec(workspaceDecider);
const created = (limit: number | null = 2, plan: 'free' | 'pro' | 'enterprise' = 'enterprise'): WorkspaceEvent => ({
  type: 'workspace.created',
  data: { id: 'ws1', name: 'Acme', plan, project_limit: limit, created: 1 },
});
const reserved = (projectId: string): WorkspaceEvent => ({
  type: 'workspace.project_slot_reserved',
  data: { workspace_id: 'ws1', project_id: projectId },
});
const released = (projectId: string): WorkspaceEvent => ({
  type: 'workspace.project_slot_released',
  data: { workspace_id: 'ws1', project_id: projectId },
});

describe('Workspace aggregate', () => {
  it('is created once', () => {
    given()
      .when({ type: 'CreateWorkspace', id: 'ws1', name: 'Acme', plan: 'enterprise', projectLimit: 2, now: 1 })
      .then([created()]);
    given(created())
      .when({ type: 'CreateWorkspace', id: 'ws1', name: 'Acme', plan: 'pro', projectLimit: null, now: 2 })
      .thenFails('Workspace already exists');
  });

  it('refuses commands on a workspace that does not exist', () => {
    given().when({ type: 'ReserveProjectSlot', projectId: 'p1' }).thenFails('Workspace not found');
    given()
      .when({ type: 'CreateApiKey', keyId: 'k', name: 'n', scope: 'read_only', keyHash: 'h', now: 1 })
      .thenFails('Workspace not found');
  });

  it('records only the fields an update really changes', () => {
    given(created(2, 'pro'))
      .when({ type: 'UpdateWorkspace', plan: 'enterprise', projectLimit: 2, now: 5 })
      .then([{ type: 'workspace.updated', data: { id: 'ws1', changes: { plan: 'enterprise' }, updated: 5 } }]);
    given(created(2)).when({ type: 'UpdateWorkspace', plan: 'enterprise', now: 5 }).thenNothing();
  });

  describe('project slots enforce the plan limit', () => {
    it('reserves while under the limit', () => {
      given(created(2), reserved('p1'))
        .when({ type: 'ReserveProjectSlot', projectId: 'p2' })
        .then([reserved('p2')]);
    });

    it('refuses at the limit with a limit_reached error', () => {
      const decide = () =>
        workspaceDecider.decide(
          { type: 'ReserveProjectSlot', projectId: 'p3' },
          [created(2), reserved('p1'), reserved('p2')].reduce(workspaceDecider.evolve, workspaceDecider.initialState()),
        );
      expect(decide).toThrow(PROJECT_LIMIT_REACHED);
      try {
        decide();
      } catch (error) {
        expect((error as DomainError).kind).toBe('limit_reached');
      }
    });

    it('frees a slot when a project is released, and never limits an unlimited workspace', () => {
      given(created(1), reserved('p1'), released('p1'))
        .when({ type: 'ReserveProjectSlot', projectId: 'p2' })
        .then([reserved('p2')]);
      given(created(null), reserved('a'), reserved('b'), reserved('c'))
        .when({ type: 'ReserveProjectSlot', projectId: 'd' })
        .then([reserved('d')]);
    });

    it('a lowered limit applies to the next reservation', () => {
      given(created(5), reserved('p1'), {
        type: 'workspace.updated',
        data: { id: 'ws1', changes: { project_limit: 1 }, updated: 2 },
      })
        .when({ type: 'ReserveProjectSlot', projectId: 'p2' })
        .thenFails(PROJECT_LIMIT_REACHED);
    });

    it('releases only a project holding a slot', () => {
      given(created(1)).when({ type: 'ReleaseProjectSlot', projectId: 'p1' }).thenNothing();
      given(created(2), reserved('p1')).when({ type: 'ReleaseProjectSlot', projectId: 'p2' }).thenNothing();
      given(created(2), reserved('p1'), released('p1'))
        .when({ type: 'ReleaseProjectSlot', projectId: 'p1' })
        .thenNothing();
      given(created(2), reserved('p1'), reserved('p2'))
        .when({ type: 'ReleaseProjectSlot', projectId: 'p2' })
        .then([released('p2')]);
    });

    it('a project holding a slot takes no second one (a retried create), even at the limit', () => {
      given(created(2), reserved('p1')).when({ type: 'ReserveProjectSlot', projectId: 'p1' }).thenNothing();
      given(created(1), reserved('p1')).when({ type: 'ReserveProjectSlot', projectId: 'p1' }).thenNothing();
      given(created(null), reserved('p1')).when({ type: 'ReserveProjectSlot', projectId: 'p1' }).thenNothing();
    });

    it('counts each project once in a history that reserved or released it twice', () => {
      given(created(2), reserved('p1'), reserved('p1'), reserved('p2'))
        .when({ type: 'ReserveProjectSlot', projectId: 'p3' })
        .thenFails(PROJECT_LIMIT_REACHED);
      given(created(2), reserved('p1'), reserved('p1'), reserved('p2'), released('p2'))
        .when({ type: 'ReserveProjectSlot', projectId: 'p3' })
        .then([reserved('p3')]);
      given(created(2), reserved('p1'), released('p1'), released('p1'), reserved('p2'), reserved('p3'))
        .when({ type: 'ReserveProjectSlot', projectId: 'p4' })
        .thenFails(PROJECT_LIMIT_REACHED);
    });

    it('round-trips its state through a snapshot', () => {
      const history = [created(3), reserved('p1'), reserved('p2'), reserved('p3'), released('p2')];
      const state = history.reduce(workspaceDecider.evolve, workspaceDecider.initialState());
      const { toSnapshot, fromSnapshot } = workspaceDecider.snapshot!;
      const restored = fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(state))));
      expect(restored).toEqual(state);
      expect(state.projectSlots).toBe(2);
      expect(workspaceDecider.decide({ type: 'ReserveProjectSlot', projectId: 'p3' }, restored)).toEqual([]);
    });

    it('is the same state however its slot holders came and went: folded, or restored from a snapshot', () => {
      const ids = Array.from({ length: 40 }, (_, i) => `p${i}`);
      const fold = (history: WorkspaceEvent[]) =>
        history.reduce(workspaceDecider.evolve, workspaceDecider.initialState());
      const churned = fold([created(null), ...ids.map(reserved), ...ids.slice(10).reverse().map(released)]);
      const direct = fold([created(null), ...ids.slice(0, 10).reverse().map(reserved)]);
      const { toSnapshot, fromSnapshot } = workspaceDecider.snapshot!;
      expect(churned).toEqual(direct);
      expect(fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(churned))))).toEqual(direct);
      expect((toSnapshot(churned) as { slotHolders: string[] }).slotHolders.sort()).toEqual(ids.slice(0, 10).sort());
    });

    it('leaves the states it was folded from untouched, and folds an event that changes nothing to the same state', () => {
      const before = [created(null), reserved('p1'), reserved('p2')].reduce(
        workspaceDecider.evolve,
        workspaceDecider.initialState(),
      );
      const after = workspaceDecider.evolve(workspaceDecider.evolve(before, reserved('p3')), released('p1'));
      expect([before.slotHolders.has('p1'), before.slotHolders.has('p3'), before.projectSlots]).toEqual([
        true,
        false,
        2,
      ]);
      expect([after.slotHolders.has('p1'), after.slotHolders.has('p3'), after.projectSlots]).toEqual([false, true, 2]);
      expect(workspaceDecider.evolve(before, reserved('p1'))).toBe(before);
      expect(workspaceDecider.evolve(before, released('p9'))).toBe(before);
    });
  });

  describe('API keys', () => {
    const keyCreated: WorkspaceEvent = {
      type: 'workspace.api_key_created',
      data: { workspace_id: 'ws1', key_id: 'k1', name: 'Bot', scope: 'full_access', key_hash: 'abc', created: 3 },
    };

    it('records the hash, never the key', () => {
      given(created())
        .when({ type: 'CreateApiKey', keyId: 'k1', name: 'Bot', scope: 'full_access', keyHash: 'abc', now: 3 })
        .then([keyCreated]);
    });

    it('deactivates once; an unknown key is not found', () => {
      given(created(), keyCreated)
        .when({ type: 'DeactivateApiKey', keyId: 'k1', now: 4 })
        .then([{ type: 'workspace.api_key_deactivated', data: { workspace_id: 'ws1', key_id: 'k1', deactivated: 4 } }]);
      given(created(), keyCreated, {
        type: 'workspace.api_key_deactivated',
        data: { workspace_id: 'ws1', key_id: 'k1', deactivated: 4 },
      })
        .when({ type: 'DeactivateApiKey', keyId: 'k1', now: 5 })
        .thenNothing();
      given(created()).when({ type: 'DeactivateApiKey', keyId: 'nope', now: 4 }).thenFails('API key not found');
    });
  });

  describe('members', () => {
    const add = (memberId: string, emailHash: string) => ({
      type: 'AddMember' as const,
      memberId,
      role: 'pilot' as const,
      status: 'active',
      title: null,
      emailHash,
      profileSealed: `sealed-${memberId}`,
      now: 2,
    });
    const added = (memberId: string, emailHash: string): WorkspaceEvent => ({
      type: 'workspace.member_added',
      data: {
        workspace_id: 'ws1',
        member_id: memberId,
        role: 'pilot',
        status: 'active',
        title: null,
        email_hash: emailHash,
        profile_sealed: `sealed-${memberId}`,
        created: 2,
      },
    });
    const erased = (memberId: string): WorkspaceEvent => ({
      type: 'workspace.member_erased',
      data: { workspace_id: 'ws1', member_id: memberId, erased: 3 },
    });

    it('records only sealed personal data and a keyed email hash', () => {
      given(created())
        .when(add('u1', 'h1'))
        .then([added('u1', 'h1')]);
    });

    it('keeps emails unique by their hash, until the holder is erased', () => {
      given(created(), added('u1', 'h1')).when(add('u2', 'h1')).thenFails('A member with this email already exists');
      given(created(), added('u1', 'h1'), erased('u1'))
        .when(add('u2', 'h1'))
        .then([added('u2', 'h1')]);
    });

    it('erases once; an unknown member is not found', () => {
      given(created(), added('u1', 'h1'))
        .when({ type: 'EraseMember', memberId: 'u1', now: 3 })
        .then([erased('u1')]);
      given(created(), added('u1', 'h1'), erased('u1'))
        .when({ type: 'EraseMember', memberId: 'u1', now: 4 })
        .thenNothing();
      given(created()).when({ type: 'EraseMember', memberId: 'nobody', now: 3 }).thenFails('User not found');
    });
  });
});
