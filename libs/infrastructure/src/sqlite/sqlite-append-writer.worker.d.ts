import type { AppendResult, ExpectedRevision, StreamAppend } from '@app/application/ports';

export type AppendRequest = StreamAppend;

export type Conflict = { conflict: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' } };

/** The outcome of one group of appends: every append written, or none. */
export type GroupOutcome = { ok: AppendResult[] } | Conflict;

/** An event row as stored and read: position, stream, revision, id, type, schema version, data and metadata JSON. */
export type EventRow = [
  position: number,
  streamId: string,
  revision: number,
  eventId: string,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
];

/** What one batch did: an outcome per group, and the rows it inserted (none of a group in conflict). */
export interface BatchOutcome {
  outcomes: GroupOutcome[];
  rows: EventRow[];
}

export interface AppendWriter {
  write(groups: AppendRequest[][]): BatchOutcome;
  close(): void;
}

export function openWriter(file: string): AppendWriter;
