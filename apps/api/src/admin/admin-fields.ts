import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PLANS, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { CharLength, MUST_BE_STRING } from '../http/validators';

/**
 * The shapes of field the operator requests repeat, each declared once. Each decorator lists its
 * checks in the order they run (`applyDecorators` registers its arguments first to last, the
 * reverse of a written stack), its presence check first and its documentation last.
 */

/** The name the operator gives a workspace or an API key: required, `limits.min` to `limits.max` characters. */
export const Name = (limits: { min: number; max: number }, example: string) =>
  applyDecorators(
    IsDefined({ message: M.nameRequired }),
    IsString(MUST_BE_STRING),
    CharLength(limits.min, limits.max, M.nameLength),
    ApiProperty({ type: String, minLength: limits.min, maxLength: limits.max, example }),
  );

/**
 * Optional text of at most `max` characters, `lengthMessage` when longer; null leaves it unset.
 * `doc` adds to the document's entry (format, description, example); a format stands right after
 * the type, where the document has it.
 */
export const OptionalText = (max: number, lengthMessage: string, doc: ApiPropertyOptions) =>
  applyDecorators(
    IsOptional(),
    IsString(MUST_BE_STRING),
    CharLength(0, max, lengthMessage),
    ApiPropertyOptional({
      type: String,
      ...(doc.format === undefined ? {} : { format: doc.format }),
      maxLength: max,
      nullable: true,
      ...doc,
    }),
  );

/** How the document describes a workspace's plan, in the requests that take one. */
export const PLAN_DOC = { enum: [...PLANS], description: 'API access needs `enterprise`', example: 'enterprise' };

/** A plan, checked against the plans there are; each request says whether it must be given. */
export const PlanChecks = () => IsIn(PLANS, { message: M.plan });

/** A workspace's project limit: an integer in range, or null (or absent) for none. */
export const ProjectLimit = (description: string) =>
  applyDecorators(
    IsOptional(),
    IsInt({ message: M.projectLimit }),
    Min(L.projectLimit.min, { message: M.projectLimit }),
    Max(L.projectLimit.max, { message: M.projectLimit }),
    ApiPropertyOptional({
      type: 'integer',
      minimum: L.projectLimit.min,
      maximum: L.projectLimit.max,
      nullable: true,
      description,
      example: 100,
    }),
  );
