import { apiKeyContext, useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { addMember } from '../../team/team-members.spec-helper';
import { ExportEventsHandler } from './export-events.handler';
import { ExportEventsQuery, ExportFilter, ExportSource } from './export-events.query';

describe('ExportEventsHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-export-');
  const exported = async (source: ExportSource, filter: ExportFilter = {}) => {
    const lines: { position: number; type: string; metadata: { workspaceId: string } }[] = [];
    const handler = new ExportEventsHandler(stores.events, stores.vault);
    for await (const line of await handler.execute(new ExportEventsQuery(source, filter))) lines.push(JSON.parse(line));
    return lines;
  };

  it('exports a filtered view of every workspace, each line with its position, and resumes after one', async () => {
    const { id: ws } = await stores.workspace('Owner');
    const { id: other } = await stores.workspace('Other');
    const bot = apiKeyContext(ws, { type: 'api_key', id: 'key_bot', name: 'Bot' });
    await addMember(stores, bot, 'ana@example.com', 'pilot');
    await addMember(stores, apiKeyContext(other), 'ben@example.com', 'pilot');
    await addMember(stores, bot, 'cy@example.com', 'pilot');

    const added = await exported({ allWorkspaces: true }, { types: ['workspace.member_added'] });
    expect(added.map((l) => l.metadata.workspaceId)).toEqual([ws, other, ws]);
    const resumed = await exported(
      { allWorkspaces: true },
      { types: ['workspace.member_added'], after: added[0].position },
    );
    expect(resumed).toEqual(added.slice(1));

    const byBot = await exported({ workspaceId: ws }, { actor: 'key_bot' });
    expect(byBot).toHaveLength(2);
    const byOperator = await exported({ allWorkspaces: true }, { actor: 'operator' });
    expect(byOperator.map((l) => l.type)).toEqual(['workspace.created', 'workspace.created']);
    const request = await exported({ allWorkspaces: true }, { requestId: bot.requestId });
    expect(request.map((l) => l.position)).toEqual(byBot.map((l) => l.position));
    const window = await exported({ workspaceId: ws }, { from: stores.clock.at + 1 });
    expect(window).toEqual([]);
  });

  it('refuses a window whose start is after its end', async () => {
    await expect(exported({ allWorkspaces: true }, { from: 2, to: 1 })).rejects.toThrow('from must not be after to');
  });
});
