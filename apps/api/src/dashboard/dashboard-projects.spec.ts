import { HistoryEntry, HistoryPage } from '@app/application';
import { DomainError } from '@app/domain';
import {
  changeLines,
  createdByText,
  membersNamed,
  pageUrl,
  searchOf,
  statusFilterOf,
  statusOptions,
  statusView,
  timelineEntry,
  timelineView,
} from './dashboard-projects';

const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  event_id: 'evt_1',
  type: 'project.updated',
  stream: 'project-prj_1',
  revision: 1,
  position: 7,
  recorded_at: Date.UTC(2026, 2, 1, 10, 15),
  actor: { type: 'member', id: 'usr_1' },
  request_id: 'req_1',
  change: { id: 'prj_1', workspace_id: 'ws_1', changes: { status: 'on_hold' }, updated: 1 },
  ...over,
});

describe('the dashboard’s projects and jobs pages', () => {
  const names = new Map([
    ['usr_1', 'Rita Root'],
    ['usr_2', 'Pat Pilot'],
  ]);

  it('shows a status under the workspace’s label, the default one otherwise', () => {
    expect(statusView({ on_hold: 'Grounded' }, 'on_hold')).toEqual({ value: 'on_hold', label: 'Grounded' });
    expect(statusView({}, 'on_hold')).toEqual({ value: 'on_hold', label: 'On hold' });
    const options = statusOptions({ draft: 'Idea' }, 'draft');
    expect(options).toHaveLength(11);
    expect(options[0]).toEqual({ value: 'draft', label: 'Idea', selected: true });
    expect(options.filter((o) => o.selected)).toHaveLength(1);
  });

  it('takes a status filter among the 11 or none, and refuses anything else naming the field', () => {
    expect(statusFilterOf(undefined)).toBeUndefined();
    expect(statusFilterOf('')).toBeUndefined();
    expect(statusFilterOf('in_progress')).toBe('in_progress');
    for (const raw of ['In progress', 'finished', ['draft', 'planned']]) {
      expect(() => statusFilterOf(raw)).toThrow(DomainError);
      expect(() => statusFilterOf(raw)).toThrow(/^status must be one of: draft, /);
    }
  });

  it('trims the search, drops an empty one and refuses one longer than a name can be', () => {
    expect(searchOf(undefined)).toBeUndefined();
    expect(searchOf('   ')).toBeUndefined();
    expect(searchOf('  tower ')).toBe('tower');
    expect(searchOf('é'.repeat(100))).toBe('é'.repeat(100));
    expect(() => searchOf('x'.repeat(101))).toThrow('q must be at most 100 characters');
    expect(() => searchOf(['a', 'b'])).toThrow('q must be given once');
  });

  it('builds links keeping the filters, leaving empty ones out and encoding the rest', () => {
    expect(pageUrl('/dashboard/projects', {})).toBe('/dashboard/projects');
    expect(
      pageUrl('/dashboard/projects', { status: 'on_hold', q: 'a&b c', archived: undefined, cursor: 'YzE6Nw' }),
    ).toBe('/dashboard/projects?status=on_hold&q=a%26b+c&cursor=YzE6Nw');
  });

  describe('timelines', () => {
    it('shows an update’s changed fields, the status under its label', () => {
      expect(changeLines(entry({}).change, { on_hold: 'Grounded' }, names)).toEqual([
        { field: 'status', value: 'Grounded' },
      ]);
      expect(
        changeLines({ changes: { end_date: null, capture_types: ['photo', 'video'], name: 'New' } }, {}, names),
      ).toEqual([
        { field: 'end_date', value: '(none)' },
        { field: 'capture_types', value: 'photo, video' },
        { field: 'name', value: 'New' },
      ]);
    });

    it('shows what a creation recorded, without the ids and times the page already shows', () => {
      const created = {
        id: 'prj_1',
        workspace_id: 'ws_1',
        name: 'Tower',
        status: 'planned',
        created_by: { id: 'usr_1', email: null, first_name: null, last_name: null, profile_picture: null },
        created: 5,
      };
      expect(changeLines(created, {}, names)).toEqual([
        { field: 'name', value: 'Tower' },
        { field: 'status', value: 'Planned' },
        { field: 'created_by', value: 'Rita Root' },
      ]);
    });

    it('names assigned pilots and the members behind changes, and cuts long values short', () => {
      const assigned = entry({
        type: 'job.pilots_assigned',
        actor: { type: 'member', id: 'usr_1' },
        change: { id: 'job_1', pilot_ids: ['usr_2', 'usr_9'], occurrences_per_pilot: 1, assigned: 3 },
      });
      expect(membersNamed([assigned])).toEqual(['usr_1', 'usr_2', 'usr_9']);
      expect(timelineEntry(assigned, {}, names)).toEqual({
        at: { iso: '2026-03-01T10:15:00.000Z', text: '2026-03-01 10:15 UTC' },
        actor: 'Rita Root',
        title: 'Pilots assigned',
        type: 'job.pilots_assigned',
        lines: [
          { field: 'pilot_ids', value: 'Pat Pilot, usr_9' },
          { field: 'occurrences_per_pilot', value: '1' },
        ],
      });
      const long = changeLines({ changes: { description: 'x'.repeat(300) } }, {}, names)[0].value;
      expect([...long]).toHaveLength(201);
      expect(long.endsWith('…')).toBe(true);
    });

    it('links the next part of a timeline to its heading, keeping the page’s other parameters, and none at the end', () => {
      const page: HistoryPage = { count: 1, history: [entry({})], cursor: 'YzE6Nw' };
      const view = timelineView(page, { on_hold: 'Grounded' }, names, '/dashboard/projects/prj_1', {
        status: 'on_hold',
      });
      expect(view.timeline).toEqual([timelineEntry(page.history[0], { on_hold: 'Grounded' }, names)]);
      expect(view.timelineNext).toBe('/dashboard/projects/prj_1?status=on_hold&history_cursor=YzE6Nw#timeline-title');
      expect(timelineView(page, {}, names, '/p').timelineNext).toBe('/p?history_cursor=YzE6Nw#timeline-title');
      expect(timelineView({ ...page, cursor: null }, {}, names, '/p').timelineNext).toBeNull();
    });

    it('says who created a project: a member by name, an API key by its name, else the email or id', () => {
      expect(createdByText({ id: 'usr_1', first_name: null, last_name: null }, names)).toBe('Rita Root');
      expect(createdByText({ id: 'key_1', first_name: 'Deploy bot', last_name: null }, names)).toBe('Deploy bot');
      expect(createdByText({ id: 'usr_7', email: 'a@example.com' }, names)).toBe('a@example.com');
      expect(createdByText(null, names)).toBe('Unknown');
    });
  });
});
