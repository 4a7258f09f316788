import { MongoConnection, MongoSubjectKeyStore } from '@app/infrastructure/mongodb';
import { onMongoDb } from './mongodb-server';
import { subjectKeyStoreContract } from './subject-key-store.contract';

onMongoDb('SubjectKeyStore contract', (url, dbName) => {
  subjectKeyStoreContract('mongodb', async () => {
    const store = await MongoSubjectKeyStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
