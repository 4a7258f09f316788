import { DocumentJson } from '../../ports/read-model.port';
import { encodeCursor } from '../../shared/pagination';
import { jsonPage } from './json-page';

describe('jsonPage', () => {
  const documents = (n: number): DocumentJson[] =>
    Array.from({ length: n }, (_, i) => ({ seq: i + 1, json: JSON.stringify({ id: `p${i}`, name: `é "${i}"` }) }));

  it('is the JSON of the parsed page: the documents, their count and the cursor when more exist', () => {
    const found = documents(4);
    const page = jsonPage('projects', found, 3);
    expect(JSON.parse(page.text)).toEqual({
      projects: found.slice(0, 3).map((d) => JSON.parse(d.json)),
      count: 3,
      cursor: encodeCursor(3),
    });
    expect(JSON.parse(jsonPage('projects', documents(2), 3).text)).toMatchObject({ count: 2, cursor: null });
    expect(new TextDecoder().decode(page.bytes)).toBe(page.text);
  });

  it('builds a page once for documents handed out again unchanged (a frozen array), by page shape', () => {
    const shared = Object.freeze(documents(4).map((d) => Object.freeze(d)));
    const first = jsonPage('projects', shared, 3);
    expect(jsonPage('projects', shared, 3)).toBe(first);
    expect(first.bytes).toBe(first.bytes);
    // Another key or size is another page of the same documents.
    expect(jsonPage('items', shared, 3)).not.toBe(first);
    expect(JSON.parse(jsonPage('projects', shared, 10).text).count).toBe(4);
  });

  it('builds it anew from an array the caller may change', () => {
    const found = documents(2);
    const first = jsonPage('projects', found, 3);
    found.pop();
    const second = jsonPage('projects', found, 3);
    expect(second).not.toBe(first);
    expect(JSON.parse(second.text).count).toBe(1);
  });
});
