# Two stages: the build stage installs every dependency (npm ci runs
# `prepare`, which compiles src/ to dist/ with tsc and builds the console
# with Vite, both development tools), then drops the development ones; the
# runtime stage copies only what runs: bin/, dist/, console/dist and the
# production node_modules (the embedded PostgreSQL's binaries included).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
USER node
ENTRYPOINT []
