import type { AuditEntry, AuditEventsPage } from '@app/application';
import { ApiExtraModels } from '@nestjs/swagger';
import { EXAMPLE, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { ApiKeyActorSchema, HISTORY_ENTRY_FIELDS, MemberActorSchema, OperatorActorSchema } from './history.schema';
import { schemaOf } from './schema-table';

export const AuditEntrySchema = schemaOf<AuditEntry>(
  { name: 'AuditEntry', description: 'One recorded change of the audit feed, with the workspace it belongs to.' },
  {
    workspace_id: { description: 'The workspace the event belongs to', example: EXAMPLE.workspaceId },
    ...HISTORY_ENTRY_FIELDS,
  },
);
ApiExtraModels(ApiKeyActorSchema, MemberActorSchema, OperatorActorSchema)(AuditEntrySchema);

export const AuditEventsPageSchema = schemaOf<AuditEventsPage>(
  {
    name: 'AuditEventsPage',
    description: 'A page of the audit feed, in store order or newest first.',
  },
  { events: { type: () => [AuditEntrySchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

export const RequestEventsSchema = schemaOf<{ events: AuditEntry[]; count: number }>(
  {
    name: 'RequestEvents',
    description: 'Every event one request wrote, across the streams it touched, in store order.',
  },
  { events: { type: () => [AuditEntrySchema] }, count: PAGE_COUNT },
);
