# Crier in a container: the embedded PostgreSQL by default (data in /data), or set DATABASE_URL.
FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY emulators ./emulators
# Fills Node's compile cache (bin/crier.js): every start of the image skips type stripping.
RUN node bin/crier.js help > /dev/null
ENV CRIER_DATA_DIR=/data PORT=3000 HOST=0.0.0.0
VOLUME /data
EXPOSE 3000
CMD ["node", "bin/crier.js", "start"]
