package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.ReferencePeer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our {@code copy} beside the reference etcdbrctl v0.40.0 ({@link ReferencePeer}; skipped where it is
 * absent) on Local stores: the same source copied by both gives the same object names (a
 * {@code .final} name dropped by both) and bytes; etcdbrctl copies what ours wrote unchanged; and
 * etcdbrctl restores what ours copied to the fixture's revision and keyspace, as a real etcd serves
 * it. etcdbrctl finds a Local container at {@code $HOME/<container>}: with {@code HOME=/} an absolute
 * container is itself.
 */
@Timeout(600)
class CopyInteropIT {
    @TempDir
    Path dir;

    private static final String FULL = "Full-00000000-00000601-1795986606.gz";

    private Path source() throws IOException {
        Path source = CopyRuns.localSource(dir.resolve("src"), "etcd-main", "gzip");
        Path v2 = source.resolve("etcd-main/v2");
        Files.move(v2.resolve(FULL), v2.resolve(FULL + ".final"));
        return source;
    }

    private ProcessRun etcdbrctl(Path binary, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(args);
        command.add("--snapstore-temp-directory=" + Files.createDirectories(dir.resolve("peer-tmp")));
        return ProcessRun.run(command, Map.of("HOME", "/", "PATH", System.getenv("PATH")), Duration.ofMinutes(5));
    }

    private static List<String> copyArgs(Path target, String targetPrefix, Path source, String sourcePrefix) {
        return List.of(
                "--storage-provider=Local",
                "--store-container=" + target,
                "--store-prefix=" + targetPrefix,
                "--source-storage-provider=Local",
                "--source-store-container=" + source,
                "--source-store-prefix=" + sourcePrefix);
    }

    @Test
    void bothCopyTheSameNamesAndBytesAndEtcdbrctlCopiesOurs() throws IOException {
        Path etcdbrctl = ReferencePeer.V0_40_0.require();
        Path source = source();
        Path ours = dir.resolve("ours");
        Path theirs = dir.resolve("theirs");
        Path again = dir.resolve("again");

        CommandRun copy = CopyRuns.copy(Map.of(), dir, copyArgs(ours, "moved", source, "etcd-main"));
        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        List<String> peer = new ArrayList<>(List.of("copy"));
        peer.addAll(copyArgs(theirs, "moved", source, "etcd-main"));
        ProcessRun reference = etcdbrctl(etcdbrctl, peer);
        assertThat(reference.exitCode()).as(reference.stderr()).isZero();
        List<String> fromOurs = new ArrayList<>(List.of("copy"));
        fromOurs.addAll(copyArgs(again, "moved", ours, "moved"));
        ProcessRun ofOurs = etcdbrctl(etcdbrctl, fromOurs);
        assertThat(ofOurs.exitCode()).as(ofOurs.stderr()).isZero();

        Map<String, Long> names = CopyRuns.files(ours.resolve("moved"));
        assertThat(names).hasSize(11).containsKey("v2/" + FULL);
        assertThat(CopyRuns.files(theirs.resolve("moved"))).isEqualTo(names);
        assertThat(CopyRuns.files(again.resolve("moved"))).isEqualTo(names);
        for (String name : names.keySet()) {
            Path mine = ours.resolve("moved").resolve(name);
            assertThat(Files.mismatch(mine, theirs.resolve("moved").resolve(name)))
                    .as(name)
                    .isEqualTo(-1L);
            assertThat(Files.mismatch(mine, again.resolve("moved").resolve(name)))
                    .as(name)
                    .isEqualTo(-1L);
        }
    }

    /**
     * The fixture up to revision 3644: the delta at 3645 holds a 2.18 MB revision, over the 2 MiB that
     * etcdbrctl's restore sends to its etcd, so it cannot restore past it whatever copied the bucket.
     */
    @Test
    void etcdbrctlRestoresWhatOursCopied() throws IOException {
        Path etcdbrctl = ReferencePeer.V0_40_0.require();
        Path source = source();
        for (String past : List.of(
                "Incr-00003645-00003645-1795986617.gz",
                "Incr-00003646-00003646-1795986619.gz",
                "Incr-00003647-00003656-1795986621.gz")) {
            Files.delete(source.resolve("etcd-main/v2").resolve(past));
        }
        Path target = dir.resolve("target");
        CommandRun copy = CopyRuns.copy(Map.of(), dir, copyArgs(target, "moved", source, "etcd-main"));
        assertThat(copy.exitCode()).as(copy.stderr()).isZero();

        Path dataDir = dir.resolve("restored/new.etcd");
        ProcessRun restore = etcdbrctl(
                etcdbrctl,
                List.of(
                        "restore",
                        "--storage-provider=Local",
                        "--store-container=" + target,
                        "--store-prefix=moved",
                        "--data-dir=" + dataDir,
                        "--restoration-temp-snapshots-dir=" + dir.resolve("restoration-temp"),
                        "--max-request-bytes=10485760",
                        "--max-call-send-message-size=10485760"));

        assertThat(restore.exitCode()).as(restore.stdout() + restore.stderr()).isZero();
        JsonNode checkpoint = null;
        for (JsonNode c : ExpectedState.stateJson().get("checkpoints_source")) {
            if (c.get("revision").asLong() == 3644) {
                checkpoint = c;
            }
        }
        assertThat(checkpoint).as("the fixture's checkpoint at 3644").isNotNull();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3644);
        assertThat(served.digest().kvSha256())
                .isEqualTo(checkpoint.get("kv_sha256").asText());
    }
}
