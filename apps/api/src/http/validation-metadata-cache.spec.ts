import { IsInt, IsOptional, IsString, MetadataStorage, ValidateBy, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

/** A storage of its own, so that these classes' rules are not looked up through the global one. */
function storageWith(register: (storage: MetadataStorage) => void) {
  const storage = new MetadataStorage();
  register(storage);
  return storage;
}

class Base {
  @IsString() name?: unknown;
}
class Child extends Base {
  @IsOptional() @IsInt() count?: unknown;
}

describe('cacheValidationMetadata', () => {
  const global = () =>
    (globalThis as { classValidatorMetadataStorage?: MetadataStorage }).classValidatorMetadataStorage!;

  it('answers as the storage does, own and inherited rules, from the second lookup on without scanning', () => {
    const reference = global().getTargetValidationMetadatas(Child, '', false, false);
    const storage = storageWith((s) => reference.forEach((m) => s.addValidationMetadata(m)));
    const uncached = storage.getTargetValidationMetadatas(Child, '', false, false);
    cacheValidationMetadata(storage);
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(first).toEqual(uncached);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'name']);

    const scan = jest.spyOn(storage['validationMetadatas'] as Map<unknown, unknown>, 'entries');
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(scan).not.toHaveBeenCalled();
  });

  it('keeps options apart and does not cache lookups with groups', () => {
    const storage = storageWith((s) =>
      global()
        .getTargetValidationMetadatas(Child, '', false, false)
        .forEach((m) => s.addValidationMetadata(m)),
    );
    cacheValidationMetadata(storage);
    const plain = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(storage.getTargetValidationMetadatas(Child, '', true, false)).not.toBe(plain);
    const withGroups = storage.getTargetValidationMetadatas(Child, '', false, false, ['a']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['a'])).not.toBe(withGroups);
  });

  it('forgets its answers when a rule is registered afterwards', () => {
    cacheValidationMetadata();
    class Late {
      @IsString() first?: unknown;
    }
    const late = new Late();
    late.first = 1;
    expect(validateSync(late).map((e) => e.property)).toEqual(['first']);
    // A rule added to the class after it was validated once (as a decorator of a class loaded
    // later does for that class): the next validation sees it.
    ValidateBy({ name: 'never', validator: { validate: () => false, defaultMessage: () => 'second is wrong' } })(
      Late.prototype,
      'second',
    );
    late.first = 'ok';
    expect(validateSync(late).map((e) => e.constraints)).toEqual([{ never: 'second is wrong' }]);
  });

  it('wraps a storage once', () => {
    const storage = new MetadataStorage();
    cacheValidationMetadata(storage);
    const wrapped = storage.getTargetValidationMetadatas;
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});
