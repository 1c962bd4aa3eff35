package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted base with no delta after it is restored and opened by etcd while the fold still
 * reads it (used: {@code OfflineRestoreIT}, etcdbrctl's compacted snapshot). When the fold then
 * finds it is not the result after all, or refuses it, that early etcd is stopped and what it
 * wrote removed before anything else is built: the outcome is the one without the early start,
 * and nothing is left running or on disk.
 */
@Timeout(300)
class EarlyOpenIT {
    @TempDir
    Path dir;

    @Test
    void aBaseWhoseMetaOnlyClaimsTheCompactionIsSetAsideAndTheFoldsDatabaseRestored() throws Exception {
        Path honest = Fixtures.copyBucket(Fixtures.V0_41_2, "gzip", dir.resolve("honest"));
        Path claimed = Fixtures.copyBucket(Fixtures.V0_41_2, "gzip", dir.resolve("claimed"));
        // the full snapshot at 2037 holds every revision since 522; its meta now says compacted at 2037
        rewriteGzipBase(claimed.resolve("v2/Full-00000000-00002037-1796115300.gz"), EarlyOpenIT::claimCompactionAt2037);

        // (not bumped: the databases at 2037 themselves are compared)
        CommandRun expected = restore(
                honest, dir.resolve("honest-data"), "--engine=offline", "--to-revision=2037", "--bump-revision=0");
        CommandRun run = restore(
                claimed, dir.resolve("claimed-data"), "--engine=offline", "--to-revision=2037", "--bump-revision=0");

        assertThat(expected.exitCode()).as(expected.stderr()).isZero();
        assertThat(expected.result().get("fold").get("earlyStart").asText()).isEqualTo("no");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("fold").get("earlyStart").asText()).isEqualTo("setAside");
        assertThat(run.result().get("fold").get("baseAsIs").asBoolean()).isFalse();
        for (String field : List.of("finalRevision", "keys", "kvSha256", "metaSha256")) {
            assertThat(run.result().get(field))
                    .as(field)
                    .isEqualTo(expected.result().get(field));
        }
        ExpectedState.Served fromHonest = ExpectedState.serve(dir.resolve("honest-data"), dir.resolve("reader1"));
        ExpectedState.Served fromClaimed = ExpectedState.serve(dir.resolve("claimed-data"), dir.resolve("reader2"));
        assertThat(fromClaimed.revision()).isEqualTo(2037).isEqualTo(fromHonest.revision());
        assertThat(fromClaimed.keys()).containsExactlyElementsOf(fromHonest.keys());
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void aFoldThatRefusesTheBaseStopsTheEarlyEtcdAndLeavesNothing() throws Exception {
        Path bucket = Fixtures.copyBucket("compacted", dir.resolve("bucket"));
        Path base = bucket.resolve("v2/Full-00000000-00003656-1795986628");
        // an entry no etcd writes, last in the key bucket: the fold reads everything before refusing
        rewriteBase(base, base, (name, entries) -> {
            if (name.equals("key")) {
                entries.put(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}, new byte[] {1});
            }
        });
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(bucket, dataDir, "--engine=offline");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.UNSUPPORTED_OBJECT.exitCode());
        // the early start ran (the doctored base keeps its meta: compacted at 3656, the name's
        // revision; BaseDatabaseCompactionTest) and left no process and no dir behind
        assertThat(run.result().get("error").asText()).contains("unexpected entry in the key bucket");
        assertThat(dataDir).doesNotExist();
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        Processes.awaitNoneMentioning(dir);
    }

    /** Changes one bucket's entries, kept in bbolt's order, before they are written. */
    private interface BucketEdit {
        void edit(String bucket, SortedMap<byte[], byte[]> entries);
    }

    private static void claimCompactionAt2037(String bucket, SortedMap<byte[], byte[]> entries) {
        if (bucket.equals("meta")) {
            entries.put(ascii("finishedCompactRev"), revision(2037));
        }
    }

    /** The gzip base rewritten through {@code copy}, its trailer and compression made anew. */
    private void rewriteGzipBase(Path gz, BucketEdit edit) throws IOException {
        Path plain = dir.resolve("base.db");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.copy(in, plain);
        }
        Path rewritten = dir.resolve("rewritten.db");
        rewriteBase(plain, rewritten, edit);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(rewritten, out);
        }
    }

    /** Every bucket of {@code from} through {@code edit} into {@code to}, with a new SHA-256 trailer. */
    private void rewriteBase(Path from, Path to, BucketEdit edit) throws IOException {
        Path rewritten = dir.resolve("rewriting.db");
        try (BoltReader in = BoltReader.open(from);
                BoltWriter out = BoltWriter.create(rewritten, 4096)) {
            for (byte[] name : in.bucketNames()) {
                String bucket = new String(name, StandardCharsets.US_ASCII);
                SortedMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);
                in.forEach(name, (k, v, isBucket) -> entries.put(k, v));
                edit.edit(bucket, entries);
                try (BucketWriter b = out.bucket(name)) {
                    for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
                        b.put(e.getKey(), e.getValue());
                    }
                }
            }
            out.finish();
        }
        BoltFiles.appendSha256Trailer(rewritten);
        Files.move(rewritten, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static byte[] revision(long main) {
        // etcd's revision key: 8-byte main, '_', 8-byte sub
        return ByteBuffer.allocate(17).putLong(main).put((byte) '_').putLong(0).array();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private CommandRun restore(Path bucket, Path dataDir, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString()));
        args.addAll(List.of(extra));
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
        try (var left = Files.list(dir.resolve("scratch"))) {
            assertThat(left).as("scratch emptied").isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return run;
    }
}
