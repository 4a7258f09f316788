import { BadRequestException } from '@nestjs/common';
import { DtoValidationPipe } from './validation';

const pipe = new DtoValidationPipe();

/** The 400 message the validation pipe gives `body` as a `dto`; undefined when it passes. */
export function refusal(dto: new () => object, body: unknown): string | undefined {
  try {
    pipe.transform(body, { type: 'body', metatype: dto });
  } catch (error) {
    if (error instanceof BadRequestException) return (error.getResponse() as { message: string }).message;
    throw error;
  }
  return undefined;
}

/** The fields a resource's field table gives one request (create or update), sorted. */
export const fieldsTakenBy = (table: Record<string, object>, request: 'create' | 'update') =>
  Object.entries(table)
    .filter(([, rule]) => request in rule)
    .map(([field]) => field)
    .sort();
