/* global db -- mongosh gives the init script its database handle */
// Run by the mongo image once, on the first start of an empty volume, as the root user
// (docker-compose.yml): the service's own user, which may read and write its database and
// nothing else. Its password is MONGODB_SERVICE_PASSWORD, the one in the service's MONGODB_URL.
db.getSiblingDB('admin').createUser({
  user: 'wos',
  pwd: process.env.MONGODB_SERVICE_PASSWORD,
  roles: [{ role: 'readWrite', db: 'workspace_operations' }],
});
