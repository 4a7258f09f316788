import { toJsonSchema2020, toOpenApi31 } from './openapi-31';

describe('OpenAPI 3.0 schemas made 3.1 (JSON Schema 2020-12)', () => {
  it('writes nullable types as a "null" type, and adds null to an enum', () => {
    expect(toJsonSchema2020({ type: 'string', nullable: true, maxLength: 5 })).toEqual({
      type: ['string', 'null'],
      maxLength: 5,
    });
    expect(toJsonSchema2020({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(toJsonSchema2020({ type: 'array', items: { type: 'integer' }, nullable: true })).toEqual({
      type: ['array', 'null'],
      items: { type: 'integer' },
    });
    expect(toJsonSchema2020({ type: 'string', nullable: false })).toEqual({ type: 'string' });
  });

  it('turns a nullable reference or composition into anyOf with null, keeping its annotations', () => {
    expect(toJsonSchema2020({ $ref: '#/components/schemas/A', nullable: true, description: 'd' })).toEqual({
      anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }],
      description: 'd',
    });
    expect(toJsonSchema2020({ allOf: [{ $ref: '#/components/schemas/A' }], nullable: true, example: 'x' })).toEqual({
      anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }],
      example: 'x',
    });
    expect(toJsonSchema2020({ oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true })).toEqual({
      anyOf: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }],
    });
  });

  it('makes boolean exclusive bounds numeric', () => {
    expect(
      toJsonSchema2020({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }),
    ).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 9,
    });
  });

  it('reaches every subschema and every place of a document that holds one', () => {
    const nullableString = () => ({ type: 'string', nullable: true });
    const converted = { type: ['string', 'null'] };
    const document = toOpenApi31({
      openapi: '3.0.0',
      paths: {
        '/x/{id}': {
          parameters: [{ name: 'id', in: 'path', schema: nullableString() }],
          post: {
            parameters: [{ name: 'q', in: 'query', schema: nullableString() }],
            requestBody: {
              content: { 'application/json': { schema: { type: 'object', properties: { a: nullableString() } } } },
            },
            responses: {
              '200': {
                description: 'OK',
                headers: { H: { schema: nullableString() } },
                content: { 'application/json': { schema: { type: 'array', items: { allOf: [nullableString()] } } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          S: { type: 'object', properties: { m: { type: 'object', additionalProperties: nullableString() } } },
        },
        responses: { R: { description: 'r', content: { 'application/json': { schema: nullableString() } } } },
      },
    }) as any;
    expect(document.openapi).toBe('3.1.0');
    const item = document.paths['/x/{id}'];
    expect(item.parameters[0].schema).toEqual(converted);
    expect(item.post.parameters[0].schema).toEqual(converted);
    expect(item.post.requestBody.content['application/json'].schema.properties.a).toEqual(converted);
    expect(item.post.responses['200'].headers.H.schema).toEqual(converted);
    expect(item.post.responses['200'].content['application/json'].schema.items.allOf[0]).toEqual(converted);
    expect(document.components.schemas.S.properties.m.additionalProperties).toEqual(converted);
    expect(document.components.responses.R.content['application/json'].schema).toEqual(converted);
  });
});
