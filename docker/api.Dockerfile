# The API image for the scaled deployment (docker-compose.yml). Build context: the repository root.
# Node 24 (active LTS). better-sqlite3 13 ships prebuilt Node-API binaries inside its package;
# npm still runs its implicit `node-gyp rebuild`, which finds the prebuilt binary and compiles
# nothing but wants python3 and the headers: one more reason to build on the full image.
# better-sqlite3-node20, the optional 12.x build that only Node 20 loads
# (libs/infrastructure/src/sqlite/sqlite-driver.js), is still installed by `npm ci` (downloaded, or
# compiled with the -bookworm image's python3/make/g++; if neither works npm skips it) and then
# pruned, so the runtime image carries the one driver it uses.
FROM node:24.21.0-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev --omit=optional

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# A named volume mounted on /data starts with this ownership. The operator CLI is the command
# `workspace-ops` (docker compose exec projector workspace-ops ...; docs/operations.md).
RUN mkdir -p /data && chown node:node /data \
 && chmod +x dist/apps/api/src/cli.js && ln -s /app/dist/apps/api/src/cli.js /usr/local/bin/workspace-ops
USER node
EXPOSE 3000
CMD ["node", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
