import { DomainError } from '@app/domain';
import { HttpProblem } from './errors';
import { parseIfMatch } from './conditional';

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
