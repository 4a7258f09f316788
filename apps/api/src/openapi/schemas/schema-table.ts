import { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';

/**
 * Response schemas from one table per object: field -> how the document describes it. The table is
 * typed by the application's or domain's own view type (`SchemaFields<JobView>`), so a field added
 * to or removed from the view and not to the table fails the type check, and no field is written
 * out twice (once as a class property, once in its decorator).
 *
 * The classes made here exist for the document only: nothing instantiates them.
 */

/** Every field of `T`, each with its description in the document, in the order the document lists them. */
export type SchemaFields<T> = { [K in keyof T]-?: ApiPropertyOptions };

export interface SchemaInfo {
  /** The schema's name in the document (`components.schemas`). */
  name: string;
  description?: string;
}

/**
 * A named schema class for `fields`. ApiProperty takes a field's type from TypeScript's emitted
 * `design:type` when the options give none; a class made at run time has no such metadata, so the
 * type a decorated property would have had is stated here from the options themselves.
 */
export function schemaOf<T>(info: SchemaInfo, fields: SchemaFields<T>): Type<T> {
  const named = { [`${info.name}Schema`]: class {} };
  const schema = named[`${info.name}Schema`];
  for (const [key, options] of Object.entries(fields) as [string, ApiPropertyOptions][]) {
    if (options.type === undefined) Reflect.defineMetadata('design:type', designType(options), schema.prototype, key);
    ApiProperty(options)(schema.prototype, key);
  }
  ApiSchema(info.description === undefined ? { name: info.name } : info)(schema);
  return schema as Type<T>;
}

/** What TypeScript would emit as `design:type` for a property these options describe. */
function designType(options: ApiPropertyOptions): Type<unknown> {
  const o = options as { isArray?: boolean; enum?: unknown; example?: unknown };
  if (o.isArray) return Array;
  if (Array.isArray(o.enum)) return typeof o.enum[0] === 'number' ? Number : String;
  switch (typeof o.example) {
    case 'string':
      return String;
    case 'number':
      return Number;
    case 'boolean':
      return Boolean;
    default:
      return Array.isArray(o.example) ? Array : Object;
  }
}
