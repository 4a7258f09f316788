import { JobTypeEvent, JobTypeView } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector, putCreated } from '../projections/projector';

/** Custom job types only; the predefined ones come from the catalogue in the domain. */
export const JOB_TYPES = 'job_types';

/** The events this projection writes for; a `case` for any other type does not compile. */
const HANDLES = ['job_type.created', 'job_type.deleted'] as const;
type Handled = Extract<JobTypeEvent, { type: (typeof HANDLES)[number] }>;

export const jobTypeProjector: Projector = {
  name: 'job_types',
  collections: [{ name: JOB_TYPES }],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    switch (event.type) {
      case 'job_type.created': {
        const d = event.data;
        const doc: JobTypeView = { id: d.id, name: d.name, icon: d.icon, is_predefined: false };
        return [putCreated(recorded, JOB_TYPES, d.id, d.workspace_id, { ...doc })];
      }
      case 'job_type.deleted':
        return [{ op: 'delete', collection: JOB_TYPES, id: event.data.id }];
      default:
        return [];
    }
  },
};
