import { Command, CommandContext } from '../../shared/command-context';

export interface RotatedSecret {
  id: string;
  secret: string;
  /** Until then the previous secret signs too (a second `v1,` signature). */
  previous_secret_expires_at: number;
}

export class RotateWebhookSecretCommand extends Command<RotatedSecret> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}
