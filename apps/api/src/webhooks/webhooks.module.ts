import {
  BeforeApplicationShutdown,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  CLOCK,
  Clock,
  EVENT_STORE,
  EventSourcedRepository,
  EventStore,
  HOST_RESOLVER,
  HostResolver,
  WEBHOOK_DEFAULTS,
  WEBHOOK_DISPATCHER,
  WEBHOOK_HANDLERS,
  WEBHOOK_QUEUE,
  WEBHOOK_SECRET_BOX,
  WEBHOOK_SETTINGS,
  WEBHOOK_TRANSPORT,
  WebhookDispatcher,
  WebhookQueue,
  WebhookSecretBox,
  WebhookSender,
  WebhookSettings,
  WebhookTransport,
  PROCESS_HOST,
  ProcessHost,
} from '@app/application';
import { openHostResolver, openWebhookQueue, openWebhookSecretBox, openWebhookTransport } from '../adapters';
import type { AppConfig } from '../config';
import { deliveryOutcome, ServiceMetrics } from '../observability/metrics';
import { APP_CONFIG } from '../tokens';
import { WebhooksController } from './webhooks.controller';

export function webhookSettingsOf(config: AppConfig): WebhookSettings {
  return {
    retryDelaysMs: config.webhookRetryDelaysMs,
    pauseAfterFailures: config.webhookPauseAfterFailures,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    ...WEBHOOK_DEFAULTS,
  };
}

/** Every attempt's outcome counted for /metrics (webhook_deliveries_total{outcome}). */
function countedDeliveries(transport: WebhookTransport, metrics: ServiceMetrics): WebhookTransport {
  return {
    send: async (request, signal) => {
      const response = await transport.send(request, signal);
      metrics.webhookDeliveries.inc({ outcome: deliveryOutcome(response) });
      return response;
    },
    close: () => transport.close(),
  };
}

/**
 * Starts the dispatcher with the application and stops it before the stores close: the core
 * module closes the event store in its shutdown hook, which runs after every before-shutdown hook.
 */
class WebhooksLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(WEBHOOK_DISPATCHER) private readonly dispatcher: WebhookDispatcher,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(WEBHOOK_TRANSPORT) private readonly transport: WebhookTransport,
  ) {}

  async onApplicationBootstrap() {
    await this.dispatcher.start();
  }

  async beforeApplicationShutdown() {
    await this.dispatcher.stop();
  }

  async onApplicationShutdown() {
    await this.transport.close();
    await this.queue.close();
  }
}

@Module({
  controllers: [WebhooksController],
  providers: [
    ...WEBHOOK_HANDLERS,
    { provide: WEBHOOK_SETTINGS, useFactory: webhookSettingsOf, inject: [APP_CONFIG] },
    { provide: WEBHOOK_QUEUE, useFactory: openWebhookQueue, inject: [APP_CONFIG] },
    { provide: WEBHOOK_SECRET_BOX, useFactory: openWebhookSecretBox, inject: [APP_CONFIG] },
    { provide: HOST_RESOLVER, useFactory: openHostResolver },
    {
      provide: WEBHOOK_TRANSPORT,
      useFactory: (settings: WebhookSettings, resolver: HostResolver, metrics: ServiceMetrics): WebhookTransport =>
        countedDeliveries(
          openWebhookTransport({ allowPrivateTargets: settings.allowPrivateTargets, resolver }),
          metrics,
        ),
      inject: [WEBHOOK_SETTINGS, HOST_RESOLVER, ServiceMetrics],
    },
    {
      provide: WebhookSender,
      useFactory: (transport: WebhookTransport, box: WebhookSecretBox, settings: WebhookSettings, clock: Clock) =>
        new WebhookSender(transport, box, settings, clock),
      inject: [WEBHOOK_TRANSPORT, WEBHOOK_SECRET_BOX, WEBHOOK_SETTINGS, CLOCK],
    },
    {
      provide: WEBHOOK_DISPATCHER,
      useFactory: (
        events: EventStore,
        queue: WebhookQueue,
        repository: EventSourcedRepository,
        sender: WebhookSender,
        settings: WebhookSettings,
        clock: Clock,
        host: ProcessHost,
      ) => new WebhookDispatcher(events, queue, repository, sender, settings, clock, new Logger('Webhooks'), host),
      inject: [
        EVENT_STORE,
        WEBHOOK_QUEUE,
        EventSourcedRepository,
        WebhookSender,
        WEBHOOK_SETTINGS,
        CLOCK,
        PROCESS_HOST,
      ],
    },
    WebhooksLifecycle,
  ],
})
export class WebhooksModule {}
