import { OPERATOR } from '@app/domain';
import { backgroundContext, CommandContext } from '../../shared/command-context';

/**
 * Events caused by the dispatcher: no request behind them, the delivery id correlates them, and
 * each recording is a background command with its own generated id (their causation).
 */
export function dispatcherContext(workspaceId: string, deliveryId: string): CommandContext {
  return backgroundContext(workspaceId, OPERATOR, `webhook-dispatch-${deliveryId}`);
}
