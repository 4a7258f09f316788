import { MongoClient } from 'mongodb';
import { DEFAULT_MONGO_DATABASE, MongoConnection, mongoDatabaseOf } from './mongodb-connection';

describe('mongoDatabaseOf', () => {
  it.each([
    ['mongodb://mongodb:27017/?replicaSet=rs0', DEFAULT_MONGO_DATABASE],
    ['mongodb://mongodb:27017', DEFAULT_MONGO_DATABASE],
    ['mongodb://mongodb:27017/', DEFAULT_MONGO_DATABASE],
    ['mongodb://user:p%40ss@a:27017,b:27017/ops_eu?replicaSet=rs0', 'ops_eu'],
    ['mongodb+srv://cluster.example.net/ops?retryWrites=true', 'ops'],
    ['mongodb://localhost/test', 'test'],
  ])('reads %s as database %s', (url, database) => {
    expect(mongoDatabaseOf(url)).toBe(database);
  });
});

describe('MongoConnection', () => {
  // The driver's constructor does not connect: nothing here reaches a server.
  const client = () => new MongoClient('mongodb://localhost:27017/?replicaSet=rs0');

  it("gives the adapters the URL's database, never the driver's `test`", () => {
    const connection = MongoConnection.over(client(), mongoDatabaseOf('mongodb://localhost:27017/?replicaSet=rs0'));
    expect(connection.db().databaseName).toBe(DEFAULT_MONGO_DATABASE);
    expect(connection.db('keys').databaseName).toBe('keys');
  });

  it('closes the client with the last of its handles, once', async () => {
    const shared = client();
    const close = jest.spyOn(shared, 'close').mockResolvedValue();
    const first = MongoConnection.over(shared, 'db');
    const second = first.share();
    await first.close();
    await first.close();
    expect(close).not.toHaveBeenCalled();
    expect(second.isOpen).toBe(true);
    await second.close();
    expect(close).toHaveBeenCalledTimes(1);
    expect(() => second.share()).toThrow('closed');
  });
});
