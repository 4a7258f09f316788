import { Command, CommandContext } from '../shared/command-context';

/** A change to the pilots of one job of a project: the pilot ids as the request listed them. */
export abstract class JobPilotsCommand<Result> extends Command<Result> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly jobId: string,
    readonly pilotIds: string[],
  ) {
    super(context);
  }
}
