import { OPERATOR } from '@app/domain';
import { CommandContext } from '../../shared/command-context';

/** Events caused by the dispatcher: no request behind them, the delivery id correlates them. */
export function dispatcherContext(workspaceId: string, deliveryId: string): CommandContext {
  return { actor: OPERATOR, workspaceId, requestId: `webhook-dispatch-${deliveryId}` };
}
