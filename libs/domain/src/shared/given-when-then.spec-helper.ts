import { Decider, DomainEvent, fold } from './decider';

/**
 * Given-events / when-command / then-events, for deciders. Test-only, but kept beside the
 * decider type so every aggregate's spec reads the same way.
 */
export function spec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given: (...history: Event[]) => ({
      when: (command: Command) => {
        const run = () => decider.decide(command, fold(decider, history));
        return {
          then: (expected: Event[]) => expect(run()).toEqual(expected),
          thenNothing: () => expect(run()).toEqual([]),
          thenFails: (message: string) => expect(run).toThrow(message),
        };
      },
    }),
  };
}
