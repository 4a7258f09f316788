import { Actor, actorFields } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { PersonalDataVault } from '../privacy/personal-data-vault';
import { setOwnField } from '../shared/own-field';

/** One recorded change as auditors see it (history endpoints, the audit feed, exports). */
export interface HistoryEntry {
  event_id: string;
  type: string;
  stream: string;
  revision: number;
  position: number;
  recorded_at: number;
  actor: Actor;
  request_id: string | null;
  change: unknown;
}

/**
 * Anything that looks like a credential never leaves through history, whatever an event holds:
 * events are designed without clear-text secrets, and this is the second line of defence.
 */
const SECRET_FIELD = /secret|key_hash|password|token/i;

export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  // A loop, not entries/filter/map/fromEntries: this runs for every event the audit feed projects
  // and every entry a history page shows, and the chain of arrays cost three times as much.
  const source = value as Record<string, unknown>;
  const redacted: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (SECRET_FIELD.test(key)) continue;
    setOwnField(redacted, key, redactSecrets(source[key]));
  }
  return redacted;
}

export function toHistoryEntry(event: RecordedEvent): HistoryEntry {
  const { actor } = event.metadata;
  return {
    event_id: event.id,
    type: event.type,
    stream: event.streamId,
    revision: event.revision,
    position: event.position,
    recorded_at: event.metadata.recordedAt,
    actor: actorFields(actor),
    request_id: event.metadata.requestId,
    change: redactSecrets(event.data),
  };
}

/** Sealed personal data in a change is shown opened, or as erased. */
export async function revealedEntry(vault: PersonalDataVault, entry: HistoryEntry): Promise<HistoryEntry> {
  return { ...entry, change: await vault.reveal(entry.change) };
}
