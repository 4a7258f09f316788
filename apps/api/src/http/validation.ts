import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationTypes } from 'class-validator';

export const BODY_NOT_OBJECT = 'Request body must be a JSON object';

export const notAllowed = (field: string) => `${field} is not an allowed field`;

/**
 * Keys NestJS's ValidationPipe deletes from a value before transforming it: top-level ones are
 * refused by name here instead of being dropped without a word.
 */
const STRIPPED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * How deep a field's value is handed to class-transformer. No DTO field is an object and no check
 * looks below the items of a list, so deeper content cannot change an outcome; cut there, a deeply
 * nested body cannot make class-transformer (or the pipe's own walk) overflow the stack.
 */
const MAX_NESTING = 32;

/**
 * Request bodies validated against their DTO class by NestJS's ValidationPipe: class-transformer
 * makes the DTO instance, class-validator checks it (unknown fields refused, a field's first
 * failure only) and the answer is the API reference's message of the first failing field, in the
 * DTO's declaration order (class-validator groups its rules by property in the order they were
 * declared). A failing known field is reported before an unknown one.
 *
 * What the pipe adds to NestJS's: a body that is not a JSON object is refused (no body reads as
 * `{}`), and so are top-level `__proto__`, `constructor` and `prototype` keys, by name; the
 * body's values are handed over at most MAX_NESTING levels deep. Parameters, queries and custom
 * arguments pass as they are, as the controllers check them themselves.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(firstMessage(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body' || !this.toValidate(metadata)) return value;
    const body = value === undefined ? {} : value;
    if (!isJsonObject(body)) throw new BadRequestException(BODY_NOT_OBJECT);
    let stripped: string | undefined;
    const given: Record<string, unknown> = {};
    for (const key of Object.keys(body)) {
      if (STRIPPED_KEYS.has(key)) stripped ??= key;
      else given[key] = bounded(body[key], MAX_NESTING);
    }
    const dto = await super.transform(given, metadata);
    if (stripped !== undefined) throw new BadRequestException(notAllowed(stripped));
    return dto;
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy of a JSON value whose containers below `depth` levels are empty (of the same kind). */
function bounded(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return depth > 0 ? value.map((item) => bounded(item, depth - 1)) : [];
  const copy: Record<string, unknown> = {};
  if (depth > 0)
    for (const key of Object.keys(value))
      if (!STRIPPED_KEYS.has(key)) copy[key] = bounded((value as Record<string, unknown>)[key], depth - 1);
  return copy;
}

/** The message of the first field that failed its checks, else of the first unknown field. */
function firstMessage(errors: ValidationError[]): string {
  const failed = errors.find((error) => !error.constraints?.[ValidationTypes.WHITELIST]);
  if (failed) return messageOf(failed);
  return notAllowed(errors[0].property);
}

function messageOf(error: ValidationError): string {
  const messages = Object.values(error.constraints ?? {});
  if (messages.length > 0) return messages[0];
  if (error.children?.length) return messageOf(error.children[0]);
  return `${error.property} is invalid`;
}
