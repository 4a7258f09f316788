import { DomainError } from '@app/domain';
import { HttpProblem } from './errors';
import Fastify from 'fastify';
import { conditionalResponses, parseIfMatch, tagged } from './conditional';

describe('parseIfMatch', () => {
  it('reads the revision of a strong entity tag, and nothing from an absent header or *', () => {
    expect(parseIfMatch('"0"')).toBe(0);
    expect(parseIfMatch(' "42" ')).toBe(42);
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBeUndefined();
  });

  it('answers 412 for tags that can never match, 400 for values that are not entity tags', () => {
    const kind = (value: string) => {
      try {
        parseIfMatch(value);
        return 'ok';
      } catch (error) {
        if (error instanceof DomainError) return error.kind;
        if (error instanceof HttpProblem) return error.status;
        throw error;
      }
    };
    expect(kind('W/"3"')).toBe('precondition_failed');
    expect(kind('"abc"')).toBe('precondition_failed');
    expect(kind('"01"')).toBe('precondition_failed');
    expect(kind('3')).toBe(400);
    expect(kind('"1", "2"')).toBe(400);
    expect(kind('')).toBe(400);
  });
});

describe('conditionalResponses', () => {
  const app = Fastify();
  const hooks = conditionalResponses();
  app.addHook('preSerialization', hooks.preSerialization);
  app.addHook('onSend', hooks.onSend);
  app.get('/tagged', async () => tagged({ id: 'p1', name: 'quote " é', n: 1.5 }, 3));
  app.get('/plain', async () => ({ id: 'p1' }));
  afterAll(() => app.close());

  it('sends the body of a tagged answer as JSON, with its revision as the ETag', async () => {
    const res = await app.inject({ method: 'GET', url: '/tagged' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.etag).toBe('"3"');
    expect(res.json()).toEqual({ id: 'p1', name: 'quote " é', n: 1.5 });
  });

  it('answers 304 without a body when If-None-Match names the tag', async () => {
    const res = await app.inject({ method: 'GET', url: '/tagged', headers: { 'if-none-match': 'W/"3"' } });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe('"3"');
    expect(res.headers['content-type']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/tagged', headers: { 'if-none-match': '"2"' } })).statusCode).toBe(
      200,
    );
  });

  it('leaves untagged answers alone', async () => {
    const plain = await app.inject({ method: 'GET', url: '/plain' });
    expect(plain.json()).toEqual({ id: 'p1' });
    expect(plain.headers.etag).toBeUndefined();
  });
});
