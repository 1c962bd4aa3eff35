# syntax=docker/dockerfile:1
# One image for the three programs: /app/restore-worker.jar, /app/compaction-worker.jar,
# /app/job-launcher.jar with their start scripts in /app/bin, plus etcd, etcdctl and etcdutl in
# /usr/local/bin, on Debian bookworm's JRE 17. Every input comes from a package manager that checks
# it (apt for the JRE, libdeflate and etcd; Maven for the jars): no checksum is copied by hand.
# Build, contents and how the launcher's Jobs run it: docs/image.md.
#
#   docker build -t etcd-workers:dev .                              # the jars built by Maven here
#   docker build --build-arg JARS=prebuilt --build-arg BUILDER_IMAGE=debian:bookworm-slim \
#     -t etcd-workers:dev .                                         # the jars of your `mvn package`

# Any Debian bookworm image with apt: the etcd stage and the image start from it. CI passes one made
# with mmdebstrap (.ci/image.sh); the JRE and libdeflate come from its apt either way (below).
ARG BASE_IMAGE=debian:bookworm-slim
# The JDK 17 and Maven that build the jars (JARS=maven); with JARS=prebuilt any image with a shell
ARG BUILDER_IMAGE=maven:3.9-eclipse-temurin-17
# Where the jars come from: "maven" (built here from this context) or "prebuilt" (restore-worker/
# target/restore-worker.jar etc. of a `mvn package` you ran; CI's, which its tests then run against)
ARG JARS=maven
# etcd-backup-restore's image whose /etcdbrctl the `etcdbrctl` target copies (the one etcd-druid's
# image vector names; used by that target only)
ARG ETCDBRCTL_IMAGE=europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl:v0.41.2

# --- the jars ---------------------------------------------------------------------------------
FROM ${BUILDER_IMAGE} AS jars
# marks this stage's cache images (never the image built): .ci/image.sh removes earlier builds' ones
LABEL io.etcd-workers.stage=jars
ARG JARS
WORKDIR /src
COPY . .
# clean: the context may carry the jars of an earlier build (.dockerignore lets them in for
# prebuilt). The tests need etcd and object-store servers; CI runs them (.ci/run), not this build.
RUN --mount=type=cache,target=/root/.m2 set -eu; \
    jars="restore-worker/target/restore-worker.jar compaction-worker/target/compaction-worker.jar job-launcher/target/job-launcher.jar"; \
    case "$JARS" in \
      maven) mvn -B -ntp -DskipTests clean package ;; \
      prebuilt) ls $jars >/dev/null || { echo "JARS=prebuilt: build the jars first (mvn -B -DskipTests package)" >&2; exit 1; } ;; \
      *) echo "JARS is maven or prebuilt, not $JARS" >&2; exit 1 ;; \
    esac; \
    mkdir /jars; \
    cp $jars /jars/

# --- etcd: Debian's packages, pinned ----------------------------------------------------------
FROM ${BASE_IMAGE} AS etcd
# etcd-server (etcd) and etcd-client (etcdctl, etcdutl) from Debian sid: 3.5.30 or later closes a
# CVE etcd-druid asks its images to be free of; bookworm has 3.4.23, trixie 3.5.16. .ci/etcd-3.5.sh
# reads these two lines, so the tests run the etcd this image ships. apt checks the archive's
# signature and each .deb's hash. Sid keeps only its current version: when this one is gone the
# build says so, and the pin moves (and CI tests the new one).
ARG ETCD_DEB_VERSION=3.5.30-2
ARG ETCD_DEB_SUITE=sid
RUN set -eu; \
    mkdir -p /tmp/apt/lists/partial /tmp/apt/cache/archives/partial /tmp/debs /out; \
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian ${ETCD_DEB_SUITE} main" \
      > /tmp/apt/sources.list; \
    opts="-o Dir::Etc::sourcelist=/tmp/apt/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=/tmp/apt/lists \
          -o Dir::Cache=/tmp/apt/cache -o APT::Sandbox::User=root"; \
    apt-get $opts -qq update; \
    cd /tmp/debs; \
    if ! apt-get $opts -qq download "etcd-server=${ETCD_DEB_VERSION}" "etcd-client=${ETCD_DEB_VERSION}"; then \
      echo "Debian ${ETCD_DEB_SUITE} has no etcd ${ETCD_DEB_VERSION} any more; it has:" >&2; \
      apt-cache $opts policy etcd-server >&2; \
      echo "pass --build-arg ETCD_DEB_VERSION=<that version>, or move the pin here (docs/image.md)" >&2; \
      exit 1; \
    fi; \
    for deb in *.deb; do dpkg-deb -x "$deb" /out; done; \
    /out/usr/bin/etcd --version; \
    /out/usr/bin/etcd --version | grep -x "etcd Version: ${ETCD_DEB_VERSION%-*}" >/dev/null

# --- the image --------------------------------------------------------------------------------
FROM ${BASE_IMAGE} AS workers
# The JRE 17 and libdeflate0 (the compaction's gzip compressor, the deltas' decompressor) from the
# base's Debian archive. man1: the JRE's postinst links its man page there, and slim bases have no
# man pages (dpkg fails without the dir).
RUN set -eu; \
    mkdir -p /usr/share/man/man1; \
    apt-get update -qq; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      openjdk-17-jre-headless libdeflate0 >/dev/null; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin; \
    java -version
# the uid/gid the launcher's pods run as (JobFactory.RUN_AS_USER), named and homed as in etcdbrctl's
# distroless image: etcd-druid mounts a Local store at /home/nonroot/<container> and etcdbrctl finds
# it under $HOME, which the runtime takes from /etc/passwd
RUN groupadd --gid 65532 nonroot \
 && useradd --uid 65532 --gid 65532 --no-create-home --home-dir /home/nonroot \
      --shell /usr/sbin/nologin nonroot \
 && mkdir -p /scratch /home/nonroot && chown 65532:65532 /scratch /home/nonroot
COPY --from=etcd /out/usr/bin/etcd /out/usr/bin/etcdctl /out/usr/bin/etcdutl /usr/local/bin/
COPY --from=etcd /out/usr/share/doc/etcd-server/copyright /usr/share/doc/etcd-server/copyright
COPY --from=etcd /out/usr/share/doc/etcd-client/copyright /usr/share/doc/etcd-client/copyright
COPY --from=jars /jars/ /app/
# the project's licence and notice; each jar carries its dependencies' (THIRD-PARTY.txt, META-INF)
COPY LICENSE NOTICE /app/
# the start scripts find /app/<tool>.jar and its class archive from their own path
COPY bin/ /app/bin/
ENV PATH=/app/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The same JVM options the launcher's Jobs set (their JAVA_TOOL_OPTIONS replaces this one): the heap
# a share of the container's memory limit, the rest left for the worker's child etcd; C2 for what
# is hot, not warm, and with small inlining limits (WorkerJvm.JIT).
ENV JAVA_TOOL_OPTIONS="-XX:+UseSerialGC -XX:MaxRAMPercentage=25.0 -XX:Tier4InvocationThreshold=20000 -XX:Tier4CompileThreshold=30000 -XX:Tier4BackEdgeThreshold=120000 -XX:FreqInlineSize=150 -XX:MaxInlineSize=20 -XX:InlineSmallCode=1000 -XX:-UsePerfData -Djava.io.tmpdir=/tmp"
# The class archives the Jobs start with (-XX:SharedArchiveFile=/app/<worker>.jsa, WorkerJvm): one
# restore and one compaction of a real etcdbrctl v0.41.2 bucket from testdata/, with this image's
# JVM and etcd, each writing the classes it loaded to its archive at exit. A JVM without them
# starts as before, only slower (docs/image.md).
# The bucket comes in as a read-only bind mount of the build context: no layer keeps it.
RUN --mount=type=bind,source=testdata/etcdbr-v0.41.2/gzip,target=/tmp/train-bucket set -eu; \
    mkdir /tmp/train; cd /tmp/train; \
    java -Xlog:cds=error -XX:ArchiveClassesAtExit=/app/restore-worker.jsa -jar /app/restore-worker.jar restore \
      --storage-provider Local --store-container /tmp/train-bucket --data-dir /tmp/train/data.etcd \
      --scratch-dir /tmp/train/scratch-restore > /tmp/train/restore.json; \
    cp -r /tmp/train-bucket /tmp/train/bucket-compact; \
    java -Xlog:cds=error -XX:ArchiveClassesAtExit=/app/compaction-worker.jsa -jar /app/compaction-worker.jar \
      compact --storage-provider Local --store-container /tmp/train/bucket-compact \
      --scratch-dir /tmp/train/scratch-compact > /tmp/train/compact.json; \
    chmod 0444 /app/restore-worker.jsa /app/compaction-worker.jsa; \
    cd /; rm -rf /tmp/train
USER 65532:65532
WORKDIR /scratch
# The launcher by default (java -jar /app/job-launcher.jar through its start script); the Jobs
# replace the whole entrypoint with their command:
# java -XX:SharedArchiveFile=/app/restore-worker.jsa -jar /app/restore-worker.jar restore ... (and
# the same for /app/compaction-worker.jar compact)
ENTRYPOINT ["/app/bin/job-launcher"]
CMD ["--help"]

# --- the image etcd-druid runs: etcdbrctl's binary beside the workers ---------------------------
# etcd-druid's compaction Job and copy task run the backup sidecar's image with etcdbrctl's
# arguments and no command. This target adds etcd-backup-restore's own binary and makes
# /app/bin/etcdbrctl the entrypoint: compact and copy run the workers, everything else the binary.
#   docker build --target etcdbrctl --build-arg ETCDBRCTL_IMAGE=<etcdbrctl image> -t <name> .
FROM ${ETCDBRCTL_IMAGE} AS etcdbrctl-binary

FROM workers AS etcdbrctl
COPY --from=etcdbrctl-binary /etcdbrctl /opt/etcdbrctl/etcdbrctl
ENTRYPOINT ["/app/bin/etcdbrctl"]
CMD ["--help"]

# --- the default target: the image above, with the launcher as entrypoint ------------------------
FROM workers
