// Validates an OpenAPI document, and sample HTTP exchanges against it, in a plain Node process:
// @seriousme/openapi-schema-validator is ESM-only, which jest (CommonJS here) cannot load.
//
// stdin:  { "document": {...}, "samples": [{ "method", "path" (template), "status", "body" }] }
// stdout: { "valid", "version", "errors", "schemaErrors", "exampleErrors", "sampleErrors" }
//
// 1. the document against the OpenAPI JSON schema of its version (the validator);
// 2. every schema of it against the JSON Schema 2020-12 meta-schema (the OpenAPI 3.1 JSON schema
//    accepts any object as a schema, so this catches what it lets through);
// 3. every example (of a schema, a property, a request or a response) against its schema;
// 4. each sample body against the schema the document gives for its operation and status.
import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';

// Ajv and ajv-formats as the validator itself has them.
const require = createRequire(createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'));
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { document, samples = [] } = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const validator = new Validator();
const result = await validator.validate(structuredClone(document));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const schemaErrors = [];
const checkSchema = (where, schema) => {
  if (!ajv.validateSchema(schema)) schemaErrors.push({ where, errors: ajv.errors });
};
for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
  checkSchema(`components.schemas.${name}`, schema);
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const [method, operation] of Object.entries(item)) {
    for (const parameter of operation.parameters ?? [])
      if (parameter.schema) checkSchema(`${method} ${path} parameter ${parameter.name}`, parameter.schema);
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
      if (media.schema) checkSchema(`${method} ${path} body ${type}`, media.schema);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      for (const [type, media] of Object.entries(response.content ?? {}))
        if (media.schema) checkSchema(`${method} ${path} ${status} ${type}`, media.schema);
    }
  }
}

// The component schemas as one JSON Schema, so `#/components/schemas/X` references resolve.
const rewrite = (value) =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"openapi-components#/$defs/'));
ajv.addSchema({ $id: 'openapi-components', $defs: rewrite(document.components?.schemas ?? {}) });

const exampleErrors = [];
const checkExample = (where, schema, value) => {
  const validate = ajv.compile(rewrite(schema));
  if (!validate(value)) exampleErrors.push({ where, value, errors: validate.errors });
};
const SUBSCHEMAS = ['items', 'additionalProperties', 'not'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const checkSchemaExamples = (where, schema) => {
  if (!schema || typeof schema !== 'object') return;
  if ('example' in schema) checkExample(`${where} example`, schema, schema.example);
  for (const [name, inner] of Object.entries(schema.properties ?? {})) checkSchemaExamples(`${where}.${name}`, inner);
  for (const key of SUBSCHEMAS) checkSchemaExamples(`${where}/${key}`, schema[key]);
  for (const key of SUBSCHEMA_LISTS)
    (schema[key] ?? []).forEach((inner, i) => checkSchemaExamples(`${where}/${key}/${i}`, inner));
};
const checkMediaExamples = (where, media) => {
  if (!media.schema) return;
  checkSchemaExamples(`${where} schema`, media.schema);
  if ('example' in media) checkExample(`${where} example`, media.schema, media.example);
  for (const [name, example] of Object.entries(media.examples ?? {}))
    checkExample(`${where} examples.${name}`, media.schema, example.value);
};
for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) checkSchemaExamples(name, schema);
for (const [name, response] of Object.entries(document.components?.responses ?? {})) {
  for (const [type, media] of Object.entries(response.content ?? {}))
    checkMediaExamples(`responses.${name} ${type}`, media);
}
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const [method, operation] of Object.entries(item)) {
    for (const parameter of operation.parameters ?? [])
      if (parameter.schema) checkSchemaExamples(`${method} ${path} ${parameter.name}`, parameter.schema);
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
      checkMediaExamples(`${method} ${path} body ${type}`, media);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      for (const [type, media] of Object.entries(response.content ?? {}))
        checkMediaExamples(`${method} ${path} ${status} ${type}`, media);
    }
  }
}

const resolve = (object) => {
  let current = object;
  while (current?.$ref?.startsWith('#/'))
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node, key) => node?.[key], document);
  return current;
};

const sampleErrors = [];
for (const sample of samples) {
  const label = `${sample.method} ${sample.path} ${sample.status}`;
  const operation = document.paths?.[sample.path]?.[sample.method.toLowerCase()];
  if (!operation) {
    sampleErrors.push({ sample: label, error: 'operation not in the document' });
    continue;
  }
  const response = resolve(operation.responses?.[String(sample.status)]);
  if (!response) {
    sampleErrors.push({
      sample: label,
      error: `status ${sample.status} not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`,
    });
    continue;
  }
  const schema = response.content?.['application/json']?.schema;
  if (sample.body === undefined || sample.body === null) {
    if (schema) sampleErrors.push({ sample: label, error: 'the document promises a JSON body; none came' });
    continue;
  }
  if (!schema) {
    sampleErrors.push({ sample: label, error: 'a body came; the document describes none' });
    continue;
  }
  const validate = ajv.compile(rewrite(schema));
  if (!validate(sample.body)) sampleErrors.push({ sample: label, errors: validate.errors, body: sample.body });
}

process.stdout.write(
  JSON.stringify({
    valid: result.valid,
    version: validator.version,
    errors: result.errors ?? null,
    schemaErrors,
    exampleErrors,
    sampleErrors,
  }),
);
