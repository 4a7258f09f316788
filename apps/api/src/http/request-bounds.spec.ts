import { answerInTime, exemptFromTimeout, timeLeft } from './request-bounds';

/** A reply as the hooks see it: what it was answered with, once. */
function fakeReply() {
  const reply = {
    sent: false,
    raw: { destroyed: false },
    answers: [] as { status: number; retryAfter: string; body: unknown }[],
    code(status: number) {
      return {
        header: (_name: string, retryAfter: string) => ({
          send: (body: unknown) => {
            reply.sent = true;
            reply.answers.push({ status, retryAfter, body });
          },
        }),
      };
    },
  };
  return reply;
}

describe('answerInTime', () => {
  const message = 'did not finish in time';
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A request through the preHandler hook, with its reply. */
  const start = (hooks: ReturnType<typeof answerInTime>) => {
    const request = {};
    const reply = fakeReply();
    hooks.preHandler(request, reply, () => undefined);
    return { request, reply, answer: () => hooks.onSend(request, reply, 'body', () => (reply.sent = true)) };
  };

  it('answers 503 with Retry-After each request still unanswered at its deadline, and no other', () => {
    const hooks = answerInTime(1_000, message);
    const first = start(hooks);
    jest.advanceTimersByTime(300);
    const second = start(hooks);
    const third = start(hooks);
    jest.advanceTimersByTime(300);
    const fourth = start(hooks);
    second.answer();

    jest.advanceTimersByTime(399);
    expect(first.reply.answers).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(first.reply.answers).toEqual([{ status: 503, retryAfter: '1', body: { message } }]);
    expect(third.reply.answers).toEqual([]);

    jest.advanceTimersByTime(300);
    expect(second.reply.answers).toEqual([]);
    expect(third.reply.answers).toEqual([{ status: 503, retryAfter: '1', body: { message } }]);
    fourth.answer();
    jest.advanceTimersByTime(10_000);
    expect(fourth.reply.answers).toEqual([]);
    expect(hooks.waiting).toBe(0);
  });

  it('keeps one timer for all the requests waiting, and none once they are answered', () => {
    const hooks = answerInTime(1_000, message);
    const waiting = Array.from({ length: 100 }, () => start(hooks));
    expect(jest.getTimerCount()).toBe(1);
    expect(hooks.waiting).toBe(100);
    for (const request of waiting.slice(0, 50)) request.answer();
    // Answered out of order: taken off the list at once, not held until the timer passes.
    for (const request of waiting.slice(50).reverse()) request.answer();
    expect(hooks.waiting).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(jest.getTimerCount()).toBe(0);
    expect(waiting.every((request) => request.reply.answers.length === 0)).toBe(true);

    // Armed again by the next request, which is answered at its own deadline.
    const late = start(hooks);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(1_000);
    expect(late.reply.answers).toHaveLength(1);
  });

  it('leaves alone a request exempted from it, and one whose connection is gone', () => {
    const hooks = answerInTime(1_000, message);
    const exempt = start(hooks);
    exemptFromTimeout(exempt.request);
    const gone = start(hooks);
    gone.reply.raw.destroyed = true;
    jest.advanceTimersByTime(1_000);
    expect(exempt.reply.answers).toEqual([]);
    expect(gone.reply.answers).toEqual([]);
    expect(timeLeft(exempt.request)).toBe(Infinity);
  });

  it('tells a request how long it has left; one it never started on has no limit', () => {
    const hooks = answerInTime(1_000, message);
    const { request } = start(hooks);
    jest.advanceTimersByTime(250);
    expect(timeLeft(request)).toBeCloseTo(750, 0);
    expect(timeLeft({})).toBe(Infinity);
  });

  it('takes an answered request off only once, whichever way it was answered', () => {
    const hooks = answerInTime(1_000, message);
    const first = start(hooks);
    const second = start(hooks);
    jest.advanceTimersByTime(1_000);
    // Both 503s passed onSend after the timer had taken them off; answering again changes nothing.
    first.answer();
    second.answer();
    const third = start(hooks);
    jest.advanceTimersByTime(1_000);
    expect([first, second, third].map((request) => request.reply.answers.length)).toEqual([1, 1, 1]);
    expect(hooks.waiting).toBe(0);
  });
});
