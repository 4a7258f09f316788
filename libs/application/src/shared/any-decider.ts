import { Decider } from '@app/domain';

/**
 * The command side loads, folds and stores the streams of every aggregate, so it erases their
 * state, command and event types. `evolve` takes them in parameter position, where `unknown` would
 * reject every concrete decider: `any` is the only type that erases them, and it is named once, here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Erased = any;

/** What loading a stream needs of its aggregate's decider. */
export type AnyDecider<State = Erased> = Pick<Decider<State, Erased, Erased>, 'initialState' | 'evolve' | 'snapshot'>;
