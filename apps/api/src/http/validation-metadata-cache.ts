import { getMetadataStorage, ValidationTypes, ValidatorOptions, ValidationError, validateSync } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;

const cached = new WeakSet<Storage>();

/**
 * The object `validatePresent` is validating now (validation is synchronous): the one grouping of
 * rules asked for while it runs is narrowed to it. Null at any other time.
 */
let narrowingFor: object | null = null;

/** Per grouping of a class's rules: each property's conditions (ValidateIf, applied by the decorators), once. */
const conditionsOf = new WeakMap<Record<string, Metadatas>, [property: string, conditions: Metadatas][]>();

/**
 * Makes class-validator look up a class's rules once instead of on every validation.
 *
 * Each `validateSync` asks the metadata storage for the DTO's rules
 * (`getTargetValidationMetadatas`), which scans every decorated class for ancestors and filters
 * the rules anew, then groups them by property (`groupByPropertyName`). The answer only changes
 * when a rule or a constraint is registered (a decorator runs as its class is loaded). Measured
 * on a PATCH of a job: 6.4 µs of validation, of which these two lookups were 2.8 µs, and 12% of the
 * main thread under load (docs/performance.md). Upstream this is typestack/class-validator#2686.
 *
 * The answers are kept per storage, class and options (lookups with groups are not cached: no
 * DTO uses them) and forgotten whenever the storage registers anything. The validator reads
 * both answers and changes neither. Idempotent: a storage is wrapped once.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (cached.has(storage)) return;
  cached.add(storage);

  let byTarget = new Map<unknown, Map<string, Metadatas>>();
  let grouped = new WeakMap<Metadatas, Record<string, Metadatas>>();
  const forget = () => {
    byTarget = new Map();
    grouped = new WeakMap();
  };

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookUp(target, schema, always, strictGroups, groups);
    const key = `${always}|${strictGroups}|${schema}`;
    let answers = byTarget.get(target);
    if (!answers) byTarget.set(target, (answers = new Map()));
    let metadatas = answers.get(key);
    if (!metadatas) answers.set(key, (metadatas = lookUp(target, schema, always, strictGroups, groups)));
    return metadatas;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadatas) => {
    let byProperty = grouped.get(metadatas);
    if (!byProperty) grouped.set(metadatas, (byProperty = group(metadatas)));
    if (narrowingFor === null) return byProperty;
    const object = narrowingFor;
    narrowingFor = null;
    return narrowed(byProperty, object);
  };

  for (const register of ['addValidationSchema', 'addValidationMetadata', 'addConstraintMetadata'] as const) {
    const original = storage[register].bind(storage) as (arg: never) => void;
    storage[register] = ((arg: never) => {
      forget();
      original(arg);
    }) as never;
  }
}

/**
 * `validateSync` over the properties it could report on, and no others: those the object has, and
 * those it lacks whose conditions (`ValidateIf`) let them be checked while absent (a required
 * field; `other_status_reason` when the status is `other`). The validator walks every property of
 * the class, and for one that is absent and optional it builds an error, finds its condition false
 * and strips the empty error again: for a PATCH of one field of a job's twenty, 7 µs of the
 * validation's 9 (docs/performance.md). The outcome is the validator's own, error for error.
 *
 * `object` must hold only what was given (an instance of the DTO class without the class's own
 * `= undefined` fields), so that the whitelist checks its own keys against the narrowed rules.
 * Without the metadata cache (`cacheValidationMetadata` on the global storage) this is plain
 * `validateSync`.
 */
export function validatePresent(object: object, options: ValidatorOptions): ValidationError[] {
  narrowingFor = object;
  try {
    return validateSync(object, options);
  } finally {
    narrowingFor = null;
  }
}

function narrowed(byProperty: Record<string, Metadatas>, object: object): Record<string, Metadatas> {
  let conditions = conditionsOf.get(byProperty);
  if (!conditions) {
    conditions = Object.entries(byProperty).map(([property, rules]) => [
      property,
      rules.filter((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION),
    ]);
    conditionsOf.set(byProperty, conditions);
  }
  const values = object as Record<string, unknown>;
  const out: Record<string, Metadatas> = {};
  for (const [property, when] of conditions) {
    // As the validator decides (every condition true), for the value it would read: undefined.
    if (
      Object.prototype.hasOwnProperty.call(values, property) ||
      when.every((rule) => (rule.constraints[0] as (o: object, v: unknown) => boolean)(object, values[property]))
    )
      out[property] = byProperty[property];
  }
  return out;
}
