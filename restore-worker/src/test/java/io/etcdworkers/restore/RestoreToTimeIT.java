package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code restore --to-time} on the v0.23.0 fixture: the time a revision was received, a time
 * between two revisions of one delta, and a time between two deltas each end at the revision the
 * independent {@link HistoryModel} says, with its keyspace; and points outside what the bucket
 * covers are usage errors that name what it covers.
 */
@Timeout(300)
class RestoreToTimeIT {
    private static final String FIXTURE = Fixtures.V0_23_0;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void aTimeAtInsideAndBetweenDeltasEndsAtTheLastRevisionReceivedByThen(String engine) {
        HistoryModel model = PointInTimeRestoreIT.model(FIXTURE, "gzip");
        // revision 2500 lies inside Incr-00002342-00002920; 3645 and 3646 are deltas of their own, two seconds apart
        Instant at2500 = time(model, 2500);
        Instant inside = at2500.plus(Duration.between(at2500, time(model, 2501)).dividedBy(2));
        Instant between = time(model, 3645)
                .plus(Duration.between(time(model, 3645), time(model, 3646)).dividedBy(2));
        assertThat(between).as("the fixture's deltas 3645 and 3646 are apart").isAfter(time(model, 3645));

        for (Instant t : new Instant[] {at2500, inside, between}) {
            long expected = model.revisionAt(t);
            ExpectedState.Digest keyspace = ExpectedState.Digest.of(model.at(expected));

            CommandRun run = PointInTimeRestoreIT.restore(
                    dir, Fixtures.bucket(FIXTURE, "gzip"), engine, "--to-time", t.toString());

            assertThat(run.exitCode()).as("%s: %s", t, run.stderr()).isZero();
            JsonNode result = run.result();
            assertThat(result.get("finalRevision").asLong())
                    .as("reached at %s", t)
                    .isEqualTo(expected);
            assertThat(result.get("kvSha256").asText()).isEqualTo(keyspace.kvSha256());
            assertThat(result.get("metaSha256").asText()).isEqualTo(keyspace.metaSha256());
            JsonNode point = result.get("pointInTime");
            assertThat(point.get("requested").get("time").asText()).isEqualTo(t.toString());
            assertThat(point.get("reachedRevision").asLong()).isEqualTo(expected);
            assertThat(Instant.parse(point.get("reachedTime").asText())).isEqualTo(time(model, expected));
            assertThat(point.get("secondsBeforeRequested").asDouble())
                    .isGreaterThanOrEqualTo(0)
                    .isCloseTo(
                            Duration.between(time(model, expected), t).toMillis() / 1000.0,
                            org.assertj.core.data.Offset.offset(0.011));
            assertThat(point.get("nextRevision").asLong()).isEqualTo(expected + 1);
            assertThat(Instant.parse(point.get("nextTime").asText())).isAfter(t);
            assertThat(point.get("end").asText()).isEqualTo("TARGET");
        }
        assertThat(model.revisionAt(at2500))
                .as("at a revision's own time it is included")
                .isGreaterThanOrEqualTo(2500);
        assertThat(model.revisionAt(inside)).isEqualTo(2500);
        assertThat(model.revisionAt(between)).isEqualTo(3645);
    }

    @Test
    void pointsOutsideTheBucketAreUsageErrorsNamingWhatItCovers() {
        Path bucket = Fixtures.bucket(FIXTURE, "gzip");
        String[][] cases = {
            {"--to-revision", "600"},
            {"--to-revision", "3657"},
            {"--to-time", "2020-01-01T00:00:00Z"},
            {"--to-time", "2099-01-01T00:00:00Z"},
        };
        for (String[] args : cases) {
            CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, "offline", args);

            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.result().get("errorCode").asText()).isEqualTo("USAGE");
            assertThat(run.result().get("error").asText())
                    .as(String.join(" ", args))
                    .contains("cover revisions 601..3656");
        }
        CommandRun both = PointInTimeRestoreIT.restore(
                dir, bucket, "offline", "--to-revision", "700", "--to-time", "2026-11-29T21:10:10Z");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.result().get("error").asText()).contains("give one");
        CommandRun zoneless = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dir.resolve("d").toString(),
                "--to-time",
                "2026-11-29T21:10:10");
        assertThat(zoneless.exitCode()).isEqualTo(2);
        assertThat(zoneless.stderr()).contains("RFC 3339 time with an offset");
        assertThat(dir.resolve("d")).doesNotExist();
    }

    private static Instant time(HistoryModel model, long revision) {
        return model.events().stream()
                .filter(e -> e.mod() == revision)
                .map(HistoryModel.Event::time)
                .max(Instant::compareTo)
                .orElseThrow();
    }
}
