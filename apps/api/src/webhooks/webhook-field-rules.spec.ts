import { BadRequestException } from '@nestjs/common';
import { WEBHOOK_MESSAGES as M } from '@app/domain';
import { DtoValidationPipe } from '../http/validation';
import { CreateWebhookDto } from './create-webhook/create-webhook.dto';
import { UpdateWebhookDto } from './update-webhook/update-webhook.dto';
import { WEBHOOK_FIELDS } from './webhook-field-rules';

const pipe = new DtoValidationPipe();
const refusal = (dto: new () => object, body: unknown) => {
  try {
    pipe.transform(body, { type: 'body', metatype: dto });
  } catch (error) {
    if (error instanceof BadRequestException) return (error.getResponse() as { message: string }).message;
    throw error;
  }
  return undefined;
};

describe('webhook fields, declared once for create and update', () => {
  it('lists in each request exactly the fields the table gives it', () => {
    const takenBy = (request: 'create' | 'update') =>
      Object.entries(WEBHOOK_FIELDS)
        .filter(([, rule]) => request in rule)
        .map(([field]) => field)
        .sort();
    expect(Object.keys(new CreateWebhookDto()).sort()).toEqual(takenBy('create'));
    expect(Object.keys(new UpdateWebhookDto()).sort()).toEqual(takenBy('update'));
  });

  it("words each request's failures as the API reference does", () => {
    expect(refusal(CreateWebhookDto, {})).toBe(M.nameRequired);
    expect(refusal(CreateWebhookDto, { name: 'Ops' })).toBe(M.urlRequired);
    expect(refusal(CreateWebhookDto, { name: 'Ops', url: 'http://x' })).toBe(M.urlHttps);
    expect(refusal(UpdateWebhookDto, { url: 'http://x' })).toBe(M.urlUpdate);
    expect(refusal(CreateWebhookDto, { name: 'Ops', url: 'https://x', event_types: [] })).toBe(M.eventTypesRequired);
    expect(refusal(UpdateWebhookDto, { event_types: [] })).toBe(M.eventTypesUpdate);
    expect(refusal(UpdateWebhookDto, { name: 'x' })).toBe(M.nameLength);
    expect(
      refusal(CreateWebhookDto, { name: 'Ops', url: 'https://x', event_types: ['job.created'], status: 'paused' }),
    ).toBe('status is not an allowed field');
  });
});
