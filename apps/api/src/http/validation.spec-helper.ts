import { BadRequestException } from '@nestjs/common';
import { RequestValidationPipe } from './validation';

const pipe = new RequestValidationPipe();

/** What the validation pipe hands the handler for `body` as a `dto`. */
export const accepted = (dto: new () => object, body: unknown) => pipe.transform(body, { type: 'body', metatype: dto });

/** The 400 message the validation pipe gives `body` as a `dto`; undefined when it passes. */
export async function refusal(dto: new () => object, body: unknown): Promise<string | undefined> {
  try {
    await accepted(dto, body);
  } catch (error) {
    if (error instanceof BadRequestException) return (error.getResponse() as { message: string }).message;
    throw error;
  }
  return undefined;
}
