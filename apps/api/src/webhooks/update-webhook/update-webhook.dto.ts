import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsIn, IsString, Matches } from 'class-validator';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS as L,
  WEBHOOK_MESSAGES as M,
  WEBHOOK_STATUSES,
  WebhookEventType,
  WebhookStatus,
} from '@app/domain';
import { CharLength, IsOmittable } from '../../http/validators';
import { WEBHOOK_FIELD as F } from '../../openapi/schemas/webhooks.schema';
import { EVENT_TYPE_MESSAGE, HTTPS } from '../create-webhook/create-webhook.dto';

/**
 * PATCH /webhooks/{id}: at least one field (checked by the controller); only supplied fields
 * change; null is refused. `status` is set here only. Each field's checks run bottom-up
 * (http/validators.ts).
 */
export class UpdateWebhookDto {
  @ApiPropertyOptional(F.name)
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString({ message: M.nameType })
  @IsOmittable()
  name?: string;

  @ApiPropertyOptional(F.url)
  @Matches(HTTPS, { message: M.urlUpdate })
  @IsOmittable()
  url?: string;

  @ApiPropertyOptional(F.event_types)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENT_TYPE_MESSAGE })
  @ArrayNotEmpty({ message: M.eventTypesUpdate })
  @IsArray({ message: M.eventTypesUpdate })
  @IsOmittable()
  event_types?: WebhookEventType[];

  @ApiPropertyOptional(F.status)
  @IsIn(WEBHOOK_STATUSES, { message: M.status })
  @IsOmittable()
  status?: WebhookStatus;
}
