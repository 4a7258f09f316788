import type { AppendResult, ExpectedRevision, StreamAppend } from '@app/application/ports';

/** An event as the writer takes it: its data and metadata already JSON text (made where the append is asked for). */
export interface EventText {
  id: string;
  type: string;
  schemaVersion: number;
  data: string;
  metadata: string;
}

export interface AppendRequest {
  streamId: StreamAppend['streamId'];
  events: EventText[];
  expectedRevision: StreamAppend['expectedRevision'];
}

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

/**
 * What one batch did: an outcome per group, and what it inserted (nothing of a group in conflict,
 * nothing of an append that was already written), as numbers: for each append written, in
 * position order, `group, append, firstRevision, count`, then the `count` positions of its events.
 */
export interface BatchOutcome {
  outcomes: GroupOutcome[];
  written: number[];
}

export interface AppendWriter {
  write(groups: AppendRequest[][]): BatchOutcome;
  close(): void;
}

export function openWriter(file: string): AppendWriter;
