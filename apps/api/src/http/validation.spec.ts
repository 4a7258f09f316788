import { CreateProjectDto } from '../projects/create-project/create-project.dto';
import { DtoValidationPipe } from './validation';
import { refusal } from './validation.spec-helper';

const metadata = { type: 'body' as const, metatype: CreateProjectDto };
const valid = { name: 'Roof survey', description: 'North wing', status: 'planned', start_date: '2026-06-01' };

describe('DtoValidationPipe: the body as the handler gets it', () => {
  it('given a valid body, hands over an instance of the DTO with exactly its fields as own data properties', () => {
    const dto = new DtoValidationPipe().transform({ ...valid }, metadata) as CreateProjectDto;
    expect(dto).toBeInstanceOf(CreateProjectDto);
    expect(dto).toMatchObject(valid);
    for (const key of Object.keys(valid))
      expect(Object.getOwnPropertyDescriptor(dto, key)).toMatchObject({ writable: true, enumerable: true });
    // The fields it was not given are the class's own, undefined.
    expect(dto.end_date).toBeUndefined();
  });

  it('given a `__proto__` field (as JSON.parse makes it: an own property), refuses it by name and changes no prototype', () => {
    // The HTTP layer refuses such a body before the pipe (onProtoPoisoning, bootstrap.ts); this is the second line.
    const body = JSON.parse(
      `{"name":"Roof","description":"d","status":"planned","start_date":"2026-06-01","__proto__":{"polluted":true}}`,
    ) as object;
    expect(Object.prototype.hasOwnProperty.call(body, '__proto__')).toBe(true);
    expect(refusal(CreateProjectDto, body)).toBe('__proto__ is not an allowed field');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(CreateProjectDto.prototype)).toBe(Object.prototype);
  });

  it('given a `constructor` field, refuses it by name', () => {
    expect(refusal(CreateProjectDto, { ...valid, constructor: 'x' })).toBe('constructor is not an allowed field');
  });
});
