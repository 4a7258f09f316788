import { ApiProperty } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsDefined, IsIn, IsString, Matches, ValidationArguments } from 'class-validator';
import {
  invalidEventType,
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS as L,
  WEBHOOK_MESSAGES as M,
  WEBHOOK_URL_PREFIX,
  WebhookEventType,
} from '@app/domain';
import { CharLength } from '../../http/validators';
import { WEBHOOK_FIELD as F } from '../../openapi/schemas/webhooks.schema';

/** A webhook's address begins with https:// (anything but a string fails this check too). */
export const HTTPS = new RegExp(`^${WEBHOOK_URL_PREFIX}`);

/** `Invalid event type: <the first item that is not one>`. */
export const EVENT_TYPE_MESSAGE = ({ value }: ValidationArguments) =>
  invalidEventType((value as unknown[]).find((type) => !isWebhookEventType(type)));

/**
 * POST /webhooks (docs/api.md, Webhooks). Fields in the order the API reference lists their
 * messages (the order failures are reported in); each field's checks run bottom-up
 * (http/validators.ts). The address itself (public, resolvable) is the handler's to check.
 */
export class CreateWebhookDto {
  @ApiProperty(F.name)
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString({ message: M.nameType })
  @IsDefined({ message: M.nameRequired })
  name: string;

  @ApiProperty(F.url)
  @Matches(HTTPS, { message: M.urlHttps })
  @IsString({ message: M.urlType })
  @IsDefined({ message: M.urlRequired })
  url: string;

  @ApiProperty(F.event_types)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENT_TYPE_MESSAGE })
  @ArrayNotEmpty({ message: M.eventTypesRequired })
  @IsArray({ message: M.eventTypesRequired })
  event_types: WebhookEventType[];
}
