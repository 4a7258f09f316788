import { WEBHOOK_MESSAGES as M } from '@app/domain';
import { fieldsTakenBy, refusal } from '../http/validation.spec-helper';
import { CreateWebhookDto } from './create-webhook/create-webhook.dto';
import { UpdateWebhookDto } from './update-webhook/update-webhook.dto';
import { WEBHOOK_FIELDS } from './webhook-field-rules';

describe('webhook fields, declared once for create and update', () => {
  it('lists in each request exactly the fields the table gives it', () => {
    const takenBy = (request: 'create' | 'update') => fieldsTakenBy(WEBHOOK_FIELDS, request);
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
