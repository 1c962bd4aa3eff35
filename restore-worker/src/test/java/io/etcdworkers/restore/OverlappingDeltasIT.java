package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.DeltaWriter;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two deltas written around a leader change start at the same revision and the second runs
 * longer: made from the etcdbrctl v0.23.0 bucket by replacing {@code Incr-2921-3499} with {@code
 * Incr-2342-3499}, which holds the events of {@code Incr-2342-2920} again and then those of the
 * replaced one (written by DeltaWriter, byte for byte as etcdbrctl writes a delta). Where the
 * overlap holds the same events, both engines take it once and restore the latest state exactly;
 * where one value differs, the restore refuses, naming both objects and the revision.
 */
@Timeout(600)
class OverlappingDeltasIT {
    private static final String EARLIER = "Incr-00002342-00002920-1795986610.gz";
    private static final String REPLACED = "Incr-00002921-00003499-1795986611.gz";
    private static final String LONGER = "Incr-00002342-00003499-1795986612.gz";
    /** The first revision from this one on whose event is a PUT gets another value. */
    private static final long CHANGE_FROM = 2500;

    /** The revision the conflicting bucket changed. */
    private long changedRevision;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void anOverlapWithTheSameEventsIsTakenOnce(String engine) throws IOException, InterruptedException {
        Path bucket = bucket(false);

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, engine);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        ExpectedState.Digest latest = ExpectedState.Digest.of(ExpectedState.keys(Fixtures.V0_23_0));
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3656);
        assertThat(result.get("kvSha256").asText()).isEqualTo(latest.kvSha256());
        assertThat(result.get("metaSha256").asText()).isEqualTo(latest.metaSha256());
        JsonNode overlap = result.get("overlapsTakenOnce").get(0);
        assertThat(overlap.get("earlier").asText()).isEqualTo("v2/" + EARLIER);
        assertThat(overlap.get("later").asText()).isEqualTo("v2/" + LONGER);
        assertThat(overlap.get("firstRevision").asLong()).isEqualTo(2342);
        assertThat(overlap.get("lastRevision").asLong()).isEqualTo(2920);
    }

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void anOverlapThatDiffersIsRefusedNamingBothAndTheRevision(String engine) throws IOException, InterruptedException {
        Path bucket = bucket(true);

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, engine);

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(11);
        assertThat(run.result().get("error").asText())
                .contains("v2/" + EARLIER, "v2/" + LONGER, "first at revision " + changedRevision);
    }

    @Test
    void verifyBackupReportsBothKinds() throws IOException, InterruptedException {
        JsonNode same = verify(bucket(false));
        assertThat(same.get("exitCode").asInt()).isZero();
        JsonNode overlap = same.get("overlaps").get(0);
        assertThat(overlap.get("identical").asBoolean()).isTrue();
        assertThat(overlap.get("later").asText()).isEqualTo("v2/" + LONGER);
        assertThat(same.get("restorable").get("toRevision").asLong()).isEqualTo(3656);

        JsonNode differs = verify(bucket(true));
        assertThat(differs.get("exitCode").asInt()).isEqualTo(11);
        assertThat(differs.get("overlaps").get(0).get("differsAt").asLong()).isEqualTo(changedRevision);
        JsonNode problem = differs.get("problems").get(0);
        assertThat(problem.get("object").asText()).isEqualTo("v2/" + LONGER);
        assertThat(problem.get("problem").asText()).contains("v2/" + EARLIER, "first at revision " + changedRevision);
        assertThat(differs.get("restorable").get("toRevision").asLong()).isEqualTo(2920);
    }

    private JsonNode verify(Path bucket) {
        return CommandRun.run(
                        WorkerContext::new,
                        RestoreWorkerCommand::run,
                        Map.of("PATH", System.getenv("PATH")),
                        dir,
                        "verify-backup",
                        "--store-container",
                        bucket.toString(),
                        "--scratch-dir",
                        dir.resolve("scratch").toString())
                .result();
    }

    /** The fixture with the longer overlapping delta in place of the replaced one; one value changed if asked. */
    private Path bucket(boolean conflicting) throws IOException, InterruptedException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "gzip", dir.resolve("bucket-" + System.nanoTime()));
        Path v2 = bucket.resolve("v2");
        List<DeltaEvent> events = new ArrayList<>(events(v2.resolve(EARLIER)));
        events.addAll(events(v2.resolve(REPLACED)));
        Files.delete(v2.resolve(REPLACED));
        boolean changed = false;
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(v2.resolve(LONGER)));
                DeltaWriter writer = new DeltaWriter(out)) {
            for (DeltaEvent e : events) {
                if (conflicting && !changed && e.modRevision() >= CHANGE_FROM && e.value().length > 0) {
                    changedRevision = e.modRevision();
                    e = DeltaEvent.put(
                            e.key(),
                            "another value".getBytes(StandardCharsets.UTF_8),
                            e.createRevision(),
                            e.modRevision(),
                            e.version(),
                            e.lease(),
                            e.time());
                    changed = true;
                }
                writer.write(e);
            }
        }
        assertThat(changed || !conflicting)
                .as("a PUT from revision %d on", CHANGE_FROM)
                .isTrue();
        assertThat(changedRevision).isLessThanOrEqualTo(2920);
        return bucket;
    }

    private static List<DeltaEvent> events(Path gz) throws IOException, InterruptedException {
        List<DeltaEvent> events = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            DeltaDecoder.decode(gz.getFileName().toString(), in, group -> events.addAll(group.events()));
        }
        return events;
    }
}
