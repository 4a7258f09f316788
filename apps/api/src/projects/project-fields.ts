import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import {
  OTHER_STATUS_REASON_LENGTH,
  OTHER_STATUS_REASON_LIMITS as REASON,
  OTHER_STATUS_REASON_REQUIRED,
  PROJECT_LIMITS as L,
  PROJECT_MESSAGES as M,
} from '@app/domain';
import { CharLength, IfStatusIsOtherOrGiven, IsIsoDate, MUST_BE_STRING } from '../http/validators';
import { orNull } from '../openapi/schemas/common.schema';
import { PROJECT_FIELD as F } from '../openapi/schemas/projects.schema';

/**
 * The fields that more than one project request takes, each declared once. Each decorator lists
 * its checks in the order they run (`applyDecorators` registers its arguments first to last, the
 * reverse of a written stack), its presence check first and its documentation last. Where the
 * requests differ only in what the document says, the description is the parameter; where they
 * differ in presence (required on create, omittable on update), the decorator holds the value's
 * checks only and each DTO writes its own presence check below it and its documentation above it.
 */

/** The document's entry `doc`, with its description replaced when one is given (jobs' fields use it too). */
export const withDescription = <T extends { description?: string }>(doc: T, description?: string): T =>
  description === undefined ? doc : { ...doc, description };

/** name's checks: a string of the documented length. */
export const NameChecks = () =>
  applyDecorators(IsString(MUST_BE_STRING), CharLength(L.name.min, L.name.max, M.nameLength));

/** end_date: optional; null means not given on create and clears it on update. */
export const EndDate = (description?: string) =>
  applyDecorators(
    IsOptional(),
    IsIsoDate(M.endDateFormat),
    ApiPropertyOptional(withDescription(orNull(F.end_date), description)),
  );

/** external_id: optional text; null means not given on create and clears it on update. */
export const ExternalId = (description?: string) =>
  applyDecorators(
    IsOptional(),
    IsString(MUST_BE_STRING),
    CharLength(0, L.externalId, M.externalIdLength),
    ApiPropertyOptional(withDescription(orNull(F.external_id), description)),
  );

/**
 * other_status_reason of projects and jobs alike: required when status is `other`, checked
 * whenever given (http/validators.ts, IfStatusIsOtherOrGiven).
 */
export const OtherStatusReason = () =>
  applyDecorators(
    IfStatusIsOtherOrGiven(),
    IsDefined({ message: OTHER_STATUS_REASON_REQUIRED }),
    IsString(MUST_BE_STRING),
    CharLength(REASON.min, REASON.max, OTHER_STATUS_REASON_LENGTH),
    ApiPropertyOptional(F.other_status_reason),
  );
