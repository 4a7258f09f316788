#!/bin/sh
# Makes what docker-compose.yml reads and the repository never holds, each only if it is missing
# (a second run changes nothing; delete a file to have it made again):
#   .env                           MONGODB_ROOT_PASSWORD, MONGODB_SERVICE_PASSWORD, REDIS_PASSWORD
#                                  (random, owner-only); ADMIN_TOKEN may be added by hand
#   docker/secrets/mongodb-keyfile the replica set's shared key (owner-only)
#   docker/certs/tls.crt, tls.key  a self-signed certificate for localhost and 127.0.0.1, for a
#                                  local run: replace both with your own for a real host name
# Usage: scripts/compose-secrets.sh [directory holding docker-compose.yml, default: this checkout]
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
umask 077

env_file="$root/.env"
touch "$env_file"
for name in MONGODB_ROOT_PASSWORD MONGODB_SERVICE_PASSWORD REDIS_PASSWORD; do
  # Hex: safe inside the connection URLs that carry it.
  grep -q "^$name=" "$env_file" || echo "$name=$(openssl rand -hex 24)" >>"$env_file"
done

mkdir -p "$root/docker/secrets"
keyfile="$root/docker/secrets/mongodb-keyfile"
[ -s "$keyfile" ] || openssl rand -base64 756 >"$keyfile"

mkdir -p "$root/docker/certs"
cert="$root/docker/certs/tls.crt"
key="$root/docker/certs/tls.key"
if [ ! -s "$cert" ] || [ ! -s "$key" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" \
    -keyout "$key" -out "$cert" 2>/dev/null
  # Traefik reads the pair as whatever user it runs as; the certificate is public anyway.
  chmod 644 "$cert"
fi
echo "Ready in $root: .env, docker/secrets/mongodb-keyfile, docker/certs/tls.crt and tls.key"
