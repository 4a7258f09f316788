import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';

export const BODY_NOT_OBJECT = 'Request body must be a JSON object';

/**
 * Validates request bodies against their DTO class and answers with the spec's message for the
 * first failure, in the DTO's field order (a field's checks run bottom-up, so the type check is
 * the lowest decorator). Unknown fields are refused by name.
 */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    const { metatype } = metadata;
    if (metadata.type !== 'body' || !metatype || !isDto(metatype)) return value;
    const body = value === undefined || value === null ? {} : value;
    if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestException(BODY_NOT_OBJECT);
    const instance = plainToInstance(metatype, body, { excludeExtraneousValues: false });
    const errors = validateSync(instance as object, {
      whitelist: true,
      forbidNonWhitelisted: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) throw new BadRequestException(firstMessage(metatype, errors));
    return instance;
  }
}

function isDto(metatype: unknown): metatype is new () => object {
  return typeof metatype === 'function' && ![String, Boolean, Number, Array, Object].includes(metatype as never);
}

function firstMessage(metatype: new () => object, errors: ValidationError[]): string {
  const order = Object.keys(new metatype());
  const known = errors.filter((e) => !e.constraints?.whitelistValidation);
  if (known.length > 0) {
    const rank = (e: ValidationError) => {
      const i = order.indexOf(e.property);
      return i === -1 ? Number.MAX_SAFE_INTEGER : i;
    };
    known.sort((a, b) => rank(a) - rank(b));
    return messageOf(known[0]);
  }
  return `${errors[0].property} is not an allowed field`;
}

function messageOf(error: ValidationError): string {
  const messages = Object.values(error.constraints ?? {});
  if (messages.length > 0) return messages[0];
  if (error.children?.length) return messageOf(error.children[0]);
  return `${error.property} is invalid`;
}
