import type { AppendResult, ExpectedRevision, StreamAppend } from '@app/application/ports';

export type AppendRequest = StreamAppend;

export type Conflict = { conflict: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' } };

/** The outcome of one group of appends: every append written, or none. */
export type GroupOutcome = { ok: AppendResult[] } | Conflict;

export interface AppendWriter {
  write(groups: AppendRequest[][]): GroupOutcome[];
  close(): void;
}

export function openWriter(file: string): AppendWriter;
