import { ValidateBy, ValidateIf, ValidationArguments } from 'class-validator';
import { isIsoDate, mustBeString } from '@app/domain';

/**
 * The few checks the DTOs share that class-validator has no decorator for. Every other check is
 * class-validator's own, with the API reference's message from the domain's values.
 *
 * Order: with `stopAtFirstError` a property's checks run in the order they are registered, and
 * stacked decorators register bottom-up, so the decorator nearest the property runs first (the
 * presence check, then the type, then the bounds). `IsDefined` always runs before the others.
 */

/** `<field> must be a string`, for class-validator's `IsString` and others. */
export const MUST_BE_STRING = { message: ({ property }: ValidationArguments) => mustBeString(property) };

/** May be left out; given, it is checked, and `null` is refused like any other wrong value. */
export const IsOmittable = () => ValidateIf((_object, value) => value !== undefined);

/**
 * A string of `min` to `max` characters, counted as people count them (code points): class-validator's
 * `Length` counts a surrogate pair as one but not a variation selector, and UTF-16 units otherwise.
 */
export const CharLength = (min: number, max: number, message: string) =>
  ValidateBy(
    {
      name: 'charLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const length = [...value].length;
          return length >= min && length <= max;
        },
      },
    },
    { message },
  );

/** A calendar date written `YYYY-MM-DD` (class-validator's `IsISO8601` also takes times and week dates). */
export const IsIsoDate = (message: string) =>
  ValidateBy({ name: 'isIsoDate', validator: { validate: (value: unknown) => isIsoDate(value) } }, { message });

/**
 * `other_status_reason` of projects and jobs is checked when the request sets `status` to `other`
 * (where it is required) and whenever it is given.
 */
export const IfStatusIsOtherOrGiven = () =>
  ValidateIf(
    (o: { status?: unknown; other_status_reason?: unknown }) =>
      o.status === 'other' || (o.other_status_reason !== undefined && o.other_status_reason !== null),
  );
