import type { AppendResult, ExpectedRevision, NewEvent } from '@app/application/ports';

export interface AppendRequest {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export type AppendOutcome =
  | { ok: AppendResult }
  | { conflict: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' } };

export interface AppendWriter {
  write(appends: AppendRequest[]): AppendOutcome[];
  close(): void;
}

export function openWriter(file: string): AppendWriter;
