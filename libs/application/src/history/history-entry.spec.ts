import { redactSecrets } from './history-entry';

describe('redactSecrets', () => {
  it('drops every credential-like field at any depth, in arrays too, and keeps the rest in order', () => {
    const data = {
      name: 'Hook',
      secret: 'whsec_1',
      nested: { key_hash: 'h', Password: 'p', kept: 1, list: [{ token: 't', url: 'https://x' }, 2, null] },
      api_token_id: 'tok',
      empty: {},
    };
    const redacted = redactSecrets(data);
    expect(JSON.stringify(redacted)).toBe(
      '{"name":"Hook","nested":{"kept":1,"list":[{"url":"https://x"},2,null]},"empty":{}}',
    );
    expect(data.secret).toBe('whsec_1'); // the event itself is left as it was
  });

  it('keeps a parsed __proto__ field as a field, never as the prototype', () => {
    const redacted = redactSecrets(JSON.parse('{"__proto__":{"polluted":true},"a":1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect((redacted as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('passes values that are not objects through', () => {
    expect(redactSecrets('secret')).toBe('secret');
    expect(redactSecrets(null)).toBeNull();
    expect(redactSecrets([1, { secret: 1 }])).toEqual([1, {}]);
  });
});
