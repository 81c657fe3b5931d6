# Crier in a container: the embedded PostgreSQL by default (data in /data), or set DATABASE_URL.
FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY emulators ./emulators
# Crier runs as the image's unprivileged `node` user (uid 1000), never as root: /data is its own.
RUN mkdir -p /data && chown node:node /data
USER node
# Fills Node's compile cache (bin/crier.js), as the user that reads it: every start of the image
# skips type stripping.
RUN node bin/crier.js help > /dev/null
ENV CRIER_DATA_DIR=/data PORT=3000 HOST=0.0.0.0
VOLUME /data
EXPOSE 3000
# /healthz answers 200 while the database answers (503 otherwise). The image has no curl: Node asks.
# The first start initialises the embedded PostgreSQL, hence the start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "bin/crier.js", "start"]
