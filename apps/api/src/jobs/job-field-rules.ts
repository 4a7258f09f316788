import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Field rules the job and assignment DTOs need beyond ../http/field-rules.ts: numbers in a range
 * and lists checked step by step (type, length, values, duplicates), each step with its own
 * message, so a client learns exactly what is wrong with which field.
 */

const check = (name: string, validate: (value: unknown) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate, defaultMessage: () => message } }, { message } as ValidationOptions);

/** A JSON number (never a numeric string) within [min, max]. */
export const NumberBetween = (min: number, max: number, typeMessage: string, rangeMessage: string) =>
  applyDecorators(
    check('isNumber', (v) => typeof v === 'number' && Number.isFinite(v), typeMessage),
    check('numberRange', (v) => typeof v === 'number' && v >= min && v <= max, rangeMessage),
  );

export interface ListRule {
  /** Whether a value may appear in the list. */
  allows: (value: unknown) => boolean;
  maxItems: number;
  messages: { array: string; count: string; values: string; unique: string };
}

/** A list: an array, of at most `maxItems`, of allowed values, without duplicates — checked in that order. */
export const ListOf = ({ allows, maxItems, messages }: ListRule) =>
  applyDecorators(
    check('isArray', (v) => Array.isArray(v), messages.array),
    check('maxItems', (v) => Array.isArray(v) && v.length <= maxItems, messages.count),
    check('listValues', (v) => Array.isArray(v) && v.every(allows), messages.values),
    check('uniqueItems', (v) => Array.isArray(v) && new Set(v).size === v.length, messages.unique),
  );

/**
 * The `pilots` list of assign / unassign: a non-empty array (the API reference's message covers missing,
 * null, not an array and empty alike), of at most `maxItems` ids, each a non-empty string.
 * Repeated ids are allowed and count once.
 */
export const PilotIdList = (requiredMessage: string, maxItems: number, countMessage: string, idMessage: string) =>
  applyDecorators(
    check('pilotsRequired', (v) => Array.isArray(v) && v.length > 0, requiredMessage),
    check('pilotsCount', (v) => Array.isArray(v) && v.length <= maxItems, countMessage),
    check('pilotIds', (v) => Array.isArray(v) && v.every((id) => typeof id === 'string' && id.length > 0), idMessage),
  );
