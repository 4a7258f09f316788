/**
 * @nestjs/swagger writes OpenAPI 3.0 schema objects whatever version the document names. This turns
 * them into OpenAPI 3.1 ones (JSON Schema 2020-12):
 *
 * - `nullable: true` becomes a `"null"` type: `type: ['string', 'null']`, with `null` added to an
 *   `enum`; a reference (or a composition) becomes `anyOf: [<it>, { type: 'null' }]`;
 * - boolean `exclusiveMinimum` / `exclusiveMaximum` become the numeric bounds of 3.1.
 *
 * It walks every place a schema can sit (components, parameters, headers, request and response
 * bodies) and every subschema, and changes the document in place.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames'] as const;

export function toJsonSchema2020(schema: Json): Json {
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map))
      for (const [name, inner] of Object.entries(map)) if (isObject(inner)) map[name] = toJsonSchema2020(inner);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) schema[key] = list.map((inner) => (isObject(inner) ? toJsonSchema2020(inner) : inner));
  }
  for (const key of SUBSCHEMAS) {
    const inner = schema[key];
    if (isObject(inner)) schema[key] = toJsonSchema2020(inner);
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[bound] === 'boolean') {
      if (schema[bound] === true && typeof schema[limit] === 'number') {
        schema[bound] = schema[limit];
        delete schema[limit];
      } else {
        delete schema[bound];
      }
    }
  }
  if (!('nullable' in schema)) return schema;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return schema;
  return withNull(schema);
}

/** What describes a schema without constraining it: it stays on the outside of an `anyOf`. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'default',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

function withNull(schema: Json): Json {
  const { type } = schema;
  if (
    typeof type === 'string' &&
    !('$ref' in schema) &&
    !('allOf' in schema) &&
    !('oneOf' in schema) &&
    !('anyOf' in schema)
  ) {
    schema.type = [type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return schema;
  }
  if (Array.isArray(type)) {
    if (!type.includes('null')) schema.type = [...type, 'null'];
    return schema;
  }
  // A reference or a composition: keep the annotations beside the alternatives.
  const annotations: Json = {};
  const rest: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!ANNOTATIONS.has(key)) rest[key] = value;
    else if (value !== undefined) annotations[key] = value;
  }
  const alternatives =
    Array.isArray(rest.allOf) && rest.allOf.length === 1 && Object.keys(rest).length === 1 ? rest.allOf : [rest];
  return { anyOf: [...alternatives, { type: 'null' }], ...annotations };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function convertContent(content: unknown) {
  if (!isObject(content)) return;
  for (const media of Object.values(content))
    if (isObject(media) && isObject(media.schema)) media.schema = toJsonSchema2020(media.schema);
}

function convertHeaders(headers: unknown) {
  if (!isObject(headers)) return;
  for (const header of Object.values(headers))
    if (isObject(header) && isObject(header.schema)) header.schema = toJsonSchema2020(header.schema);
}

function convertParameters(parameters: unknown) {
  if (!Array.isArray(parameters)) return;
  for (const parameter of parameters)
    if (isObject(parameter) && isObject(parameter.schema)) parameter.schema = toJsonSchema2020(parameter.schema);
}

/** Makes every schema of an OpenAPI document a 3.1 one and names the version; returns the document. */
export function toOpenApi31<T extends object>(document: T, version = '3.1.0'): T {
  const doc = document as Json;
  doc.openapi = version;
  const components = isObject(doc.components) ? doc.components : {};
  if (isObject(components.schemas)) {
    for (const [name, schema] of Object.entries(components.schemas))
      if (isObject(schema)) components.schemas[name] = toJsonSchema2020(schema);
  }
  if (isObject(components.responses)) {
    for (const response of Object.values(components.responses))
      if (isObject(response)) {
        convertContent(response.content);
        convertHeaders(response.headers);
      }
  }
  convertHeaders(components.headers);
  if (isObject(components.parameters)) convertParameters(Object.values(components.parameters));
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    convertParameters(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      convertParameters(operation.parameters);
      if (isObject(operation.requestBody)) convertContent(operation.requestBody.content);
      for (const response of Object.values(isObject(operation.responses) ? operation.responses : {})) {
        if (isObject(response)) {
          convertContent(response.content);
          convertHeaders(response.headers);
        }
      }
    }
  }
  return document;
}
