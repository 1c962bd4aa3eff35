# syntax=docker/dockerfile:1
# One image for the three programs: /app/restore-worker.jar, /app/compaction-worker.jar,
# /app/job-launcher.jar, plus etcd, etcdctl and etcdutl (3.5.16) in /usr/local/bin, on a JRE 17.
# Build, contents and how the launcher's Jobs run it: docs/image.md.
#
#   docker build --build-arg ETCD_SHA256=<sha256 of the etcd tarball> -t etcd-workers:dev .

# --- build: the three shaded jars -------------------------------------------------------------
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# the cache mount keeps ~/.m2 between builds; tests need etcd and S3Proxy, so CI runs them instead
RUN --mount=type=cache,target=/root/.m2 mvn -B -ntp -DskipTests package

# --- etcd: the official release tarball, checked against its published sha256 -----------------
FROM debian:bookworm-slim AS etcd
# v3.5.16: the 3.5 release CI tests (.ci/etcd-3.5.sh fetches Debian's 3.5.16); see docs/image.md
ARG ETCD_VERSION=v3.5.16
# REQUIRED, no default on purpose: the sha256 of etcd-${ETCD_VERSION}-linux-<arch>.tar.gz as listed
# in SHA256SUMS on https://github.com/etcd-io/etcd/releases/tag/${ETCD_VERSION}. See docs/image.md.
ARG ETCD_SHA256
# set by BuildKit from --platform (amd64, arm64); the checksum must be the one for that arch
ARG TARGETARCH
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
RUN set -eu; \
    if [ -z "${ETCD_SHA256:-}" ]; then \
      echo "ETCD_SHA256 is not set: pass --build-arg ETCD_SHA256=... (see docs/image.md)" >&2; exit 1; \
    fi; \
    name="etcd-${ETCD_VERSION}-linux-${TARGETARCH:-amd64}"; \
    curl -fsSL -o "/tmp/${name}.tar.gz" \
      "https://github.com/etcd-io/etcd/releases/download/${ETCD_VERSION}/${name}.tar.gz"; \
    echo "${ETCD_SHA256}  /tmp/${name}.tar.gz" | sha256sum -c -; \
    mkdir /out; \
    tar -xzf "/tmp/${name}.tar.gz" -C /out --strip-components=1 \
      "${name}/etcd" "${name}/etcdctl" "${name}/etcdutl"; \
    /out/etcd --version

# --- runtime ----------------------------------------------------------------------------------
# A full JRE image rather than distroless: the worker starts etcd through /bin/sh (OrphanGuard,
# which also needs sleep), and this base has both; see docs/image.md for the trade-off.
FROM eclipse-temurin:17-jre-noble
# libdeflate0: the compaction's gzip snapshot is compressed by it (LibDeflate; the JDK's zlib without it)
RUN apt-get update \
 && apt-get install -y --no-install-recommends libdeflate0 \
 && rm -rf /var/lib/apt/lists/*
# the uid/gid the launcher's pods run as (JobFactory.RUN_AS_USER); named so tools show a name
RUN groupadd --system --gid 65532 nonroot \
 && useradd --system --uid 65532 --gid 65532 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin nonroot \
 && mkdir -p /scratch && chown 65532:65532 /scratch
COPY --from=etcd /out/etcd /out/etcdctl /out/etcdutl /usr/local/bin/
COPY --from=build /src/restore-worker/target/restore-worker.jar \
                  /src/compaction-worker/target/compaction-worker.jar \
                  /src/job-launcher/target/job-launcher.jar /app/
# The same JVM options the launcher's Jobs set (their JAVA_TOOL_OPTIONS replaces this one): the heap
# a share of the container's memory limit, the rest left for the worker's child etcd; C2 for what
# is hot, not warm, and with small inlining limits (WorkerJvm.JIT).
ENV JAVA_TOOL_OPTIONS="-XX:+UseSerialGC -XX:MaxRAMPercentage=25.0 -XX:Tier4InvocationThreshold=20000 -XX:Tier4CompileThreshold=30000 -XX:Tier4BackEdgeThreshold=120000 -XX:FreqInlineSize=150 -XX:MaxInlineSize=20 -XX:InlineSmallCode=1000 -XX:-UsePerfData -Djava.io.tmpdir=/tmp"
# The class archives the Jobs start with (-XX:SharedArchiveFile=/app/<worker>.jsa, WorkerJvm): one
# restore and one compaction of a real etcdbrctl v0.41.2 bucket from testdata/, with this image's
# JVM and etcd, each writing the classes it loaded to its archive at exit. A JVM without them
# starts as before, only slower (docs/image.md).
COPY --from=build /src/testdata/etcdbr-v0.41.2/gzip /tmp/train/bucket
RUN set -eu; cd /tmp/train; \
    java -Xlog:cds=error -XX:ArchiveClassesAtExit=/app/restore-worker.jsa -jar /app/restore-worker.jar restore \
      --storage-provider Local --store-container /tmp/train/bucket --data-dir /tmp/train/data.etcd \
      --scratch-dir /tmp/train/scratch-restore > /tmp/train/restore.json; \
    cp -r /tmp/train/bucket /tmp/train/bucket-compact; \
    java -Xlog:cds=error -XX:ArchiveClassesAtExit=/app/compaction-worker.jsa -jar /app/compaction-worker.jar \
      compact --storage-provider Local --store-container /tmp/train/bucket-compact \
      --scratch-dir /tmp/train/scratch-compact > /tmp/train/compact.json; \
    chmod 0444 /app/restore-worker.jsa /app/compaction-worker.jsa; \
    cd /; rm -rf /tmp/train
USER 65532:65532
WORKDIR /scratch
# The launcher by default; the Jobs replace the whole entrypoint with their command:
# java -XX:SharedArchiveFile=/app/restore-worker.jsa -jar /app/restore-worker.jar restore ... (and
# the same for /app/compaction-worker.jar compact)
ENTRYPOINT ["java", "-jar", "/app/job-launcher.jar"]
CMD ["--help"]
