import {
  jobStream,
  jobTypeStream,
  projectJobsStream,
  projectStream,
  webhookStream,
  workspaceStream,
} from '@app/domain';

/**
 * Stream names the store's way. EventStoreDB's `$by_category` projection files a stream under the
 * part of its name before the first `-` (`$ce-<category>`), and so do the tools built on it. The
 * domain names its streams `<kind>-<id>`, and two kinds have two words: `job-type-<id>` and
 * `project-jobs-<id>` would land in `$ce-job` and `$ce-project`, among the jobs and the projects.
 * In EventStoreDB the words of a kind are joined (`jobType-<id>`, `projectJobs-<id>`), so each kind
 * is one category; every read gives the domain's name back. The domain's names stay as they are:
 * the embedded store, and the data already in it, keep them.
 */
const DOMAIN_STREAM_KINDS: ((id: string) => string)[] = [
  workspaceStream,
  projectStream,
  projectJobsStream,
  jobStream,
  jobTypeStream,
  webhookStream,
];

/** A kind whose store name differs: its prefix, `-` included, in the domain and in the store. */
interface RenamedKind {
  domain: string;
  store: string;
}

const camelCase = (words: string) => words.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** Longest domain prefix first: `project-jobs-` is tried before a `project-` that is not renamed. */
export const RENAMED_KINDS: readonly RenamedKind[] = DOMAIN_STREAM_KINDS.map((kind) => kind(''))
  .filter((prefix) => prefix.slice(0, -1).includes('-'))
  .map((prefix) => ({ domain: prefix, store: `${camelCase(prefix.slice(0, -1))}-` }))
  .sort((a, b) => b.domain.length - a.domain.length);

/** The adapter's own stream: the store's identity (EventStoreDbEventStore.identity). */
export const STORE_IDENTITY_STREAM = 'storeIdentity-workspaceOperations';
export const STORE_IDENTITY_TYPE = 'store.identified';

/**
 * The store's name of a domain stream, or null for a name the store cannot hold apart: one that
 * starts like a renamed kind's store name (`jobType-x` would read back as `job-type-x`), or the
 * adapter's own stream. The domain makes no such name.
 */
export function toStoreStreamName(streamId: string): string | null {
  for (const kind of RENAMED_KINDS) {
    if (streamId.startsWith(kind.domain)) return kind.store + streamId.slice(kind.domain.length);
  }
  for (const kind of RENAMED_KINDS) if (streamId.startsWith(kind.store)) return null;
  return streamId === STORE_IDENTITY_STREAM ? null : streamId;
}

/** The domain's name of a stream as the store names it (names of other kinds pass unchanged). */
export function fromStoreStreamName(name: string): string {
  for (const kind of RENAMED_KINDS) {
    if (name.startsWith(kind.store)) return kind.domain + name.slice(kind.store.length);
  }
  return name;
}

/**
 * Where a stream of a renamed kind written by an earlier release lives: under the domain's name
 * itself. Null for a stream whose kind was never renamed.
 */
export function legacyStreamName(streamId: string): string | null {
  return RENAMED_KINDS.some((kind) => streamId.startsWith(kind.domain)) ? streamId : null;
}
