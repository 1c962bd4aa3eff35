package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.LoopbackPorts;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/** What {@link CrashRecoveryIT} checks after each kill and each rerun, against the fixture's expected state. */
final class CrashChecks {
    static final String KV_SHA256 = ExpectedState.stateJson().get("kv_sha256").asText();
    static final String META_SHA256 =
            ExpectedState.stateJson().get("meta_sha256").asText();
    static final long REVISION = ExpectedState.stateJson().get("revision").asLong();
    /** Full snapshots already restored and found exact: each is checked once. */
    private static final Set<String> RESTORABLE = ConcurrentHashMap.newKeySet();

    private CrashChecks() {}

    /** Live processes (not zombies) whose command line, read from /proc, names something under {@code dir}. */
    static List<String> processesUnder(Path dir) {
        List<String> found = new ArrayList<>();
        String needle = dir.toString();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String pid = proc.getFileName().toString();
                if (!pid.chars().allMatch(Character::isDigit)
                        || pid.equals(Long.toString(ProcessHandle.current().pid()))) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                    String stat = Files.readString(proc.resolve("stat"));
                    boolean zombie = stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
                    if (cmdline.contains(needle) && !zombie) {
                        found.add(pid + ": " + cmdline);
                    }
                } catch (IOException goneMeanwhile) {
                    // exited while listing: not left behind
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    /** No etcd, etcdctl/etcdutl or orphan-guard shell of the run is left (the guard gives etcd 10 s after SIGTERM). */
    static void awaitNoProcessUnder(Path dir) {
        Awaitility.await("no process left whose command line names " + dir)
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> processesUnder(dir).isEmpty());
    }

    /** Path -> SHA-256 of every file under {@code root}: equal maps mean an untouched copy. */
    static Map<String, String> treeDigest(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                files.put(root.relativize(f).toString(), sha256(Files.readAllBytes(f)));
            }
        }
        return files;
    }

    /** Starts a real etcd on a data dir and digests what it serves. */
    static KeyspaceDigest served(Path dataDir, Path scratch) {
        EtcdMember member = new EtcdMember("reader", URI.create("http://127.0.0.1:" + LoopbackPorts.free()), "reader");
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(EmbeddedEtcdConfig.defaults(binaries, member, dataDir, scratch));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30))) {
            return KeyspaceDigest.of(client, client.status().getHeader().getRevision());
        }
    }

    static void assertExact(KeyspaceDigest digest, String what) {
        assertThat(digest.revision()).as(what).isEqualTo(REVISION);
        assertThat(digest.kvSha256()).as(what).isEqualTo(KV_SHA256);
        assertThat(digest.metaSha256()).as(what).isEqualTo(META_SHA256);
    }

    static void assertExact(JsonNode result, String what) {
        assertThat(result.get("finalRevision").asLong()).as(what).isEqualTo(REVISION);
        assertThat(result.get("kvSha256").asText()).as(what).isEqualTo(KV_SHA256);
        assertThat(result.get("metaSha256").asText()).as(what).isEqualTo(META_SHA256);
    }

    /** Every file under the bucket (hidden in-flight writes too), as paths relative to it. */
    static List<String> bucketFiles(Path bucket) throws IOException {
        try (Stream<Path> walk = Files.walk(bucket)) {
            return walk.filter(Files::isRegularFile)
                    .map(p -> bucket.relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    /**
     * What the compaction added to the bucket: only complete full snapshots at the expected
     * revision, each of which our restore turns (alone, as the only object of a bucket) into
     * exactly the source's keyspace; and, when {@code inFlightAllowed} (right after a kill), the
     * temp file of a killed upload, which no listing shows and the next upload removes.
     *
     * @return the new full snapshots
     */
    static List<String> assertOnlyRestorableFullSnapshotsAdded(
            Path bucket, List<String> before, Path work, boolean inFlightAllowed) throws IOException {
        String full = String.format("Full-00000000-%08d-\\d+\\.gz", REVISION);
        List<String> added = new ArrayList<>(bucketFiles(bucket));
        added.removeAll(before);
        if (inFlightAllowed) {
            added.removeIf(name -> name.matches("v2/\\.inflight-[0-9a-f-]+-" + full));
        }
        for (String name : added) {
            assertThat(name).as("new in the bucket").matches("v2/" + full);
            byte[] content = Files.readAllBytes(bucket.resolve(name));
            if (!RESTORABLE.add(sha256(content))) {
                continue;
            }
            Path alone = work.resolve("alone-" + RESTORABLE.size());
            Files.createDirectories(alone.resolve("bucket/v2"));
            Files.write(alone.resolve("bucket").resolve(name), content);
            CommandRun run = CommandRun.run(
                    WorkerContext::new,
                    RestoreWorkerCommand::run,
                    Map.of("PATH", System.getenv("PATH")),
                    alone,
                    "restore",
                    "--store-container",
                    alone.resolve("bucket").toString(),
                    "--data-dir",
                    alone.resolve("data").toString(),
                    "--scratch-dir",
                    alone.resolve("scratch").toString());
            assertThat(run.exitCode())
                    .as("restoring %s alone: %s", name, run.stderr())
                    .isZero();
            assertExact(run.result(), "the restore of " + name + " alone");
            io.etcdworkers.files.FileTree.delete(alone);
        }
        return added;
    }

    /** Entries of a dir (empty when it does not exist). */
    static List<String> entries(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
