import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { schemaOf } from './schema-table';

@Module({})
class EmptyModule {}

type Schemas = Record<string, { description?: string; required?: string[]; properties: Record<string, unknown> }>;

/** The schemas the document holds for `type`, as SwaggerModule builds them. */
async function explore(type: new () => unknown): Promise<Schemas> {
  const app = await NestFactory.create(EmptyModule, new FastifyAdapter(), { logger: false });
  try {
    await app.init();
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { extraModels: [type] });
    return (document.components?.schemas ?? {}) as Schemas;
  } finally {
    await app.close();
  }
}

interface Sample {
  id: string;
  count: number;
  done: boolean;
  tags: string[];
  kind: 'a' | 'b';
  note: string | null;
  extra?: unknown;
}

describe('schemaOf: a response schema from one field table', () => {
  const Child = schemaOf({ name: 'Child' }, { id: { example: 'c1' } });
  const Sample = schemaOf<Sample & { child: unknown }>(
    { name: 'Sample', description: 'A sample.' },
    {
      id: { example: 'x1' },
      count: { example: 3 },
      done: { description: 'Finished', example: false },
      tags: { enum: ['red', 'blue'], isArray: true, example: ['red'] },
      kind: { enum: ['a', 'b'], example: 'a' },
      note: { type: String, nullable: true, example: null },
      extra: { required: false, description: 'Anything' },
      child: { type: () => Child },
    },
  );

  it('names the schema and keeps its description and the table order', async () => {
    const schemas = await explore(Sample);
    expect(Object.keys(schemas).sort()).toEqual(['Child', 'Sample']);
    expect(schemas.Sample.description).toBe('A sample.');
    expect(Object.keys(schemas.Sample.properties)).toEqual([
      'id',
      'count',
      'done',
      'tags',
      'kind',
      'note',
      'extra',
      'child',
    ]);
    expect(schemas.Sample.required).toEqual(['id', 'count', 'done', 'tags', 'kind', 'note', 'child']);
  });

  it('gives each field the type a decorated class property would have had', async () => {
    const { properties } = (await explore(Sample)).Sample;
    expect(properties.id).toEqual({ type: 'string', example: 'x1' });
    expect(properties.count).toEqual({ type: 'number', example: 3 });
    expect(properties.done).toEqual({ type: 'boolean', description: 'Finished', example: false });
    expect(properties.tags).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['red', 'blue'] },
      example: ['red'],
    });
    expect(properties.kind).toEqual({ type: 'string', enum: ['a', 'b'], example: 'a' });
    expect(properties.note).toEqual({ type: 'string', nullable: true, example: null });
    expect(properties.extra).toEqual({ type: 'object', description: 'Anything' });
    expect(properties.child).toEqual({ $ref: '#/components/schemas/Child' });
  });
});
