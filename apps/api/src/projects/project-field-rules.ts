import { applyDecorators } from '@nestjs/common';
import { PROJECT_LIMITS as L, PROJECT_MESSAGES as M, STATUS_MESSAGE, STATUS_VALUES } from '@app/domain';
import {
  IsIsoDate,
  IsStringField,
  LengthBetween,
  OneOf,
  OtherStatusReason,
  RequestField,
  requestFields,
} from '../http/field-rules';
import { orNull } from '../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../openapi/schemas/projects.schema';

const text = (field: string, min: number, max: number, message: string) => () =>
  applyDecorators(IsStringField(field), LengthBetween(min, max, message));

/**
 * Every project field declared once (see RequestField in ../http/field-rules.ts): its checks, and
 * how create and update each treat its absence (docs/api.md, Projects). null clears `end_date`,
 * `external_id` and `laanc_number` on update; `laanc_number` is written only by an update.
 */
export const PROJECT_FIELDS = {
  name: {
    check: text('name', L.name.min, L.name.max, M.nameLength),
    create: { when: { required: M.nameRequired }, doc: F.name },
    update: { when: 'present', doc: F.name },
  },
  start_date: {
    check: () => IsIsoDate(M.startDateFormat),
    create: { when: { required: M.startDateRequired }, doc: F.start_date },
    update: { when: 'present', doc: F.start_date },
  },
  end_date: {
    check: () => IsIsoDate(M.endDateFormat),
    create: { when: 'set', doc: orNull(F.end_date) },
    update: {
      when: 'set',
      doc: { ...orNull(F.end_date), description: 'ISO 8601 date, after start_date; null clears it' },
    },
  },
  /** Required, but may be empty on create: the API reference bounds it to 1..1000 only on update. */
  description: {
    create: {
      when: { required: M.descriptionRequired },
      doc: { ...F.description, description: 'Required; may be empty on create' },
      check: text('description', L.description.createMin, L.description.max, M.descriptionLength),
    },
    update: {
      when: 'present',
      doc: { ...F.description, minLength: L.description.min },
      check: text('description', L.description.min, L.description.max, M.descriptionLength),
    },
  },
  status: {
    check: () => OneOf(STATUS_VALUES, STATUS_MESSAGE),
    create: { when: 'always', doc: STATUS_FIELD },
    update: { when: 'present', doc: STATUS_FIELD },
  },
  other_status_reason: {
    check: OtherStatusReason,
    create: { when: 'own', doc: F.other_status_reason },
    update: { when: 'own', doc: F.other_status_reason },
  },
  external_id: {
    check: text('external_id', 0, L.externalId, M.externalIdLength),
    create: { when: 'set', doc: orNull(F.external_id) },
    update: {
      when: 'set',
      doc: { ...orNull(F.external_id), description: "The caller's own identifier; null clears it" },
    },
  },
  laanc_number: {
    check: text('laanc_number', 0, L.laancNumber, M.laancNumberLength),
    update: {
      when: 'set',
      doc: {
        ...orNull(F.laanc_number),
        description: 'Airspace authorization number (writable only on update); null clears it',
      },
    },
  },
} satisfies Record<string, RequestField>;

/** The project fields as POST /projects and PATCH /projects/{id} take them. */
export const { OnCreate, OnUpdate } = requestFields(PROJECT_FIELDS);
