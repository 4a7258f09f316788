import { setImmediate } from 'node:timers/promises';

interface Queue<Item> {
  waiting: Item[];
  running: boolean;
}

/**
 * Items queued per key and handed over in batches: everything queued on a key while its previous
 * batch was being handled becomes its next batch, in the order queued. A key's batches never
 * overlap; different keys run side by side.
 *
 * For commands (the key is usually the stream a command changes most) this is what lets
 * concurrent changes to one resource all land, none lost to a conflict, at the cost of one write,
 * and what makes creates cheap under load: the fixed cost of a write is shared by a whole batch.
 */
export class PerKeyBatches<Item> {
  private readonly queues = new Map<string, Queue<Item>>();
  /** The queues' drains under way: what `settled` waits for. */
  private readonly draining = new Set<Promise<void>>();

  /** `handle` answers every item of the batch it is given itself, and never rejects. */
  constructor(private readonly handle: (batch: Item[]) => Promise<void>) {}

  add(key: string, item: Item): void {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { waiting: [], running: false };
      this.queues.set(key, queue);
    }
    queue.waiting.push(item);
    if (!queue.running) this.startDrain(key, queue);
  }

  /** Resolves once every item queued so far has been handled. */
  async settled(): Promise<void> {
    while (this.draining.size > 0) await Promise.allSettled(this.draining);
  }

  private startDrain(key: string, queue: Queue<Item>): void {
    const drain = this.drain(key, queue);
    this.draining.add(drain);
    void drain.finally(() => this.draining.delete(drain));
  }

  private async drain(key: string, queue: Queue<Item>): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length > 0) {
        // Handled after the event loop's poll phase, not in the middle of it: the items of every
        // request that poll delivers join this batch. Under load a batch starts as the previous
        // one's write is answered, often with most of a poll's requests still to be read; starting
        // at once made more, smaller batches, each with its fixed cost (docs/decisions.md, "A
        // batch of commands is decided after the poll that brought them").
        await setImmediate();
        const batch = queue.waiting;
        queue.waiting = [];
        await this.handle(batch);
      }
    } finally {
      queue.running = false;
      if (queue.waiting.length === 0) this.queues.delete(key);
      else this.startDrain(key, queue);
    }
  }
}
