import { definedOnly } from './defined-only';

describe('definedOnly: the fields a client sent', () => {
  class Dto {
    name: string | undefined = undefined;
    description: string | null | undefined = undefined;
    status: string | undefined = undefined;
  }

  it('keeps the defined fields (null included) in their order, and drops the undefined ones', () => {
    const dto = Object.assign(new Dto(), { status: 'planned', description: null });
    const sent = definedOnly(dto);
    expect(sent).toEqual({ description: null, status: 'planned' });
    expect(Object.keys(sent)).toEqual(['description', 'status']);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
  });

  it('keeps a `__proto__` field a plain field, never the prototype', () => {
    const dto = JSON.parse('{"__proto__":{"polluted":true},"name":"x"}') as Dto;
    const sent = definedOnly(dto);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toEqual({ polluted: true });
    expect((sent as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
