/**
 * Schema evolution of events. The history is never rewritten: an event keeps the shape it was
 * recorded with, and its `schemaVersion` says which one that is. Each event type has a current
 * version (1 unless it changed); an upcaster turns the data of version n into version n + 1, and
 * reads chain them up to the current version, so aggregates and projectors only ever see the
 * current shape. Pure functions only: the same mechanism serves the store's reads and the tests.
 */

/** Data of version n -> data of version n + 1. Total: it must accept any event ever recorded at n. */
// `any`: each upcaster declares the exact shape of version n it reads (a parameter typed `unknown`
// would reject them); the registry only chains them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Upcaster = (data: any) => unknown;

export interface EventSchema {
  /** The version this release writes (and reads into). */
  readonly version: number;
  /** By the version they read: `upcasters[1]` turns v1 data into v2. One for each older version. */
  readonly upcasters?: Readonly<Record<number, Upcaster>>;
  /**
   * No longer written by this release, still read (older histories hold it). Golden fixtures
   * recorded from now on do not contain it; the older folders keep replaying it.
   */
  readonly retired?: true;
}

/** Every known event type and its schema. Types not in it are unknown (e.g. written by a newer release). */
export type EventSchemas = Readonly<Record<string, EventSchema>>;

/** What the registry needs of a stored event; the store's record type passes through whole. */
export interface VersionedEvent {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
}

export class EventSchemaRegistry {
  constructor(private readonly schemas: EventSchemas) {
    for (const [type, schema] of Object.entries(schemas)) {
      if (!Number.isInteger(schema.version) || schema.version < 1)
        throw new Error(`Event ${type}: version must be an integer >= 1`);
      for (let from = 1; from < schema.version; from++) {
        if (typeof schema.upcasters?.[from] !== 'function')
          throw new Error(`Event ${type}: no upcaster from version ${from}`);
      }
    }
  }

  isKnown(type: string): boolean {
    return Object.hasOwn(this.schemas, type);
  }

  /** The version writers stamp on a new event of this type (1 for a type the registry does not know). */
  currentVersion(type: string): number {
    return this.isKnown(type) ? this.schemas[type].version : 1;
  }

  /**
   * The event in the current shape of its type: the same object when it already is (or when the
   * type is unknown, or the version is newer than this release knows: there is nothing to upcast
   * to, and the event is passed on as recorded), otherwise a copy with the upcast data and version.
   */
  upcast<E extends VersionedEvent>(event: E): E {
    if (!this.isKnown(event.type)) return event;
    const schema = this.schemas[event.type];
    // Events recorded before versions were read carry 1; anything missing or odd is read as 1 too.
    let version = Number.isInteger(event.schemaVersion) && event.schemaVersion >= 1 ? event.schemaVersion : 1;
    if (version >= schema.version) return event;
    let data = event.data;
    for (; version < schema.version; version++) data = schema.upcasters![version](data);
    return { ...event, schemaVersion: version, data };
  }
}

/**
 * The default case of every `evolve`: an event of a type this release does not know (written by
 * a newer release that was rolled back, say) leaves the state as it is. Its parameter is `never`,
 * so a switch that forgets one of its own known types still fails to compile.
 */
export function ignoreUnknownEvent<State>(state: State, _event: never): State {
  return state;
}
