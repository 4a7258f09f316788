import { DomainError } from '../shared/domain-error';
import { spec } from '../shared/given-when-then.spec-helper';
import { STATUS_VALUES } from '../shared/status';
import { DEFAULT_STATUS_LABELS, statusLabelInput, statusLabelOf } from './status-labels';
import { workspaceDecider } from './workspace.aggregate';
import { WorkspaceEvent } from './workspace.events';

const { given } = spec(workspaceDecider);
const created: WorkspaceEvent = {
  type: 'workspace.created',
  data: { id: 'ws1', name: 'Acme', plan: 'pro', project_limit: null, created: 1 },
};
const changed = (changes: Record<string, string | null>, labels: Record<string, string>, now = 5): WorkspaceEvent => ({
  type: 'workspace.status_labels_changed',
  data: { workspace_id: 'ws1', changes, labels, changed: now },
});

describe('Status display names (workspace aggregate)', () => {
  it('has a default label for each of the 11 statuses', () => {
    expect(Object.keys(DEFAULT_STATUS_LABELS).sort()).toEqual([...STATUS_VALUES].sort());
  });

  it('records the labels given, trimmed, with every label of the workspace after the change', () => {
    given(created)
      .when({ type: 'ChangeStatusLabels', labels: { in_progress: '  Flying  ', planned: 'Booked' }, now: 5 })
      .then([changed({ in_progress: 'Flying', planned: 'Booked' }, { in_progress: 'Flying', planned: 'Booked' })]);
  });

  it('records only what changes: a label kept as it is, or a default left as default, records nothing', () => {
    given(created, changed({ in_progress: 'Flying' }, { in_progress: 'Flying' }))
      .when({ type: 'ChangeStatusLabels', labels: { in_progress: 'Flying', draft: '', planned: 'Planned' }, now: 6 })
      .thenNothing();
    given(created, changed({ in_progress: 'Flying' }, { in_progress: 'Flying' }))
      .when({ type: 'ChangeStatusLabels', labels: { in_progress: 'Flying', draft: 'Idea' }, now: 6 })
      .then([changed({ draft: 'Idea' }, { in_progress: 'Flying', draft: 'Idea' }, 6)]);
  });

  it('an empty label, or the default one, gives the status its default label back', () => {
    const renamed = changed({ in_progress: 'Flying', on_hold: 'Paused' }, { in_progress: 'Flying', on_hold: 'Paused' });
    given(created, renamed)
      .when({ type: 'ChangeStatusLabels', labels: { in_progress: '   ', on_hold: 'On hold' }, now: 6 })
      .then([changed({ in_progress: null, on_hold: null }, {}, 6)]);
  });

  it('refuses a label too long or with control characters, naming the status, and an unknown status', () => {
    given(created)
      .when({ type: 'ChangeStatusLabels', labels: { completed: 'x'.repeat(41) }, now: 5 })
      .thenFails('label for completed must be between 1 and 40 characters');
    given(created)
      .when({ type: 'ChangeStatusLabels', labels: { on_hold: 'On\nhold' }, now: 5 })
      .thenFails('label for on_hold must not contain control characters');
    given(created)
      .when({ type: 'ChangeStatusLabels', labels: { finished: 'Done' }, now: 5 })
      .thenFails('status must be one of: draft');
    given(created)
      .when({ type: 'ChangeStatusLabels', labels: { draft: 3 }, now: 5 })
      .thenFails('label for draft must be a string');
    expect(() =>
      workspaceDecider.decide(
        { type: 'ChangeStatusLabels', labels: { draft: '\u0007' }, now: 5 },
        workspaceDecider.evolve(workspaceDecider.initialState(), created),
      ),
    ).toThrow(DomainError);
  });

  it('counts characters, not UTF-16 units: 40 emoji are a label', () => {
    expect(statusLabelInput('completed', '✅'.repeat(40))).toEqual({ label: '✅'.repeat(40) });
    expect(statusLabelInput('completed', '🛩'.repeat(40))).toEqual({ label: '🛩'.repeat(40) });
    expect(statusLabelInput('completed', '🛩'.repeat(41)).problem).toBe(
      'label for completed must be between 1 and 40 characters',
    );
  });

  it('refuses changes to a workspace that does not exist', () => {
    given()
      .when({ type: 'ChangeStatusLabels', labels: { draft: 'Idea' }, now: 5 })
      .thenFails('Workspace not found');
  });

  it('keeps the labels through a snapshot', () => {
    const state = [created, changed({ draft: 'Idea' }, { draft: 'Idea' })].reduce(
      workspaceDecider.evolve,
      workspaceDecider.initialState(),
    );
    const snapshot = workspaceDecider.snapshot!;
    expect(snapshot.version).toBe(4);
    const stored: unknown = JSON.parse(JSON.stringify(snapshot.toSnapshot(state)));
    expect(snapshot.fromSnapshot(stored).statusLabels).toEqual({ draft: 'Idea' });
  });

  it('shows the workspace’s own label, else the default, else the value itself', () => {
    expect(statusLabelOf({ draft: 'Idea' }, 'draft')).toBe('Idea');
    expect(statusLabelOf({ draft: 'Idea' }, 'in_progress')).toBe('In progress');
    expect(statusLabelOf(null, 'something_else')).toBe('something_else');
  });
});
