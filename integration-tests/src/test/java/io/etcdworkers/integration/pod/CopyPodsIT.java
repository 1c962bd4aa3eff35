package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy Job the launcher renders, from its {@code --dry-run} YAML, run in a container of the image
 * as a kubelet runs its pod: the source bucket (a copy of etcdbrctl v0.41.2's) on a claim of its own,
 * mounted read-only where the launcher mounts a Local source, the target on another claim. Every
 * object, then one full snapshot with {@code --compact}; each target then restored by the drill Job
 * to the source's exact state.
 */
@Timeout(600)
class CopyPodsIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final String SOURCE_CONTAINER = "gzip";
    private static final String SOURCE_CLAIM = "old-bucket";
    private static final String TARGET_CLAIM = "new-bucket";
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    static Path dir;

    private static Podman podman;
    private static Path sourceClaim;
    private static Path targetClaim;
    private static JsonNode state;

    @BeforeAll
    static void buckets() throws IOException {
        podman = Podman.require();
        sourceClaim = Files.createDirectories(dir.resolve("claims/source"));
        targetClaim = Files.createDirectories(dir.resolve("claims/target"));
        Fixtures.copyBucket(FIXTURE, SOURCE_CONTAINER, sourceClaim);
        state = ExpectedState.stateJson(FIXTURE);
    }

    @Test
    void copyJobCopiesEveryObjectAndTheTargetRestoresTheSameState() throws IOException {
        PodExit exit = run(PodTemplate.single(render("copy", "moved", "--source-storage-provider", "Local")));

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        long objects = countFiles(sourceClaim.resolve(SOURCE_CONTAINER));
        assertThat(exit.result().get("copiedCount").asLong())
                .as(exit.describe())
                .isEqualTo(objects);
        assertThat(countFiles(targetClaim.resolve("moved"))).isEqualTo(objects);
        assertDrillOf("moved");

        PodExit again = run(PodTemplate.single(render("copy", "moved", "--source-storage-provider", "Local")));
        assertThat(again.exitCode()).as(again.describe()).isZero();
        assertThat(again.result().get("copiedCount").asLong())
                .as(again.describe())
                .isZero();
    }

    @Test
    void compactingCopyJobWritesOneFullSnapshotThatRestoresTheSameState() throws IOException {
        PodExit exit =
                run(PodTemplate.single(render("copy", "compacted", "--source-storage-provider", "Local", "--compact")));

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        assertThat(countFiles(targetClaim.resolve("compacted"))).isEqualTo(1);
        JsonNode drill = assertDrillOf("compacted");
        assertThat(drill.get("deltas").asInt()).isZero();
    }

    private static JsonNode assertDrillOf(String container) throws IOException {
        PodRun pod = PodRun.of(PodTemplate.single(render("verify", container, "--drill")))
                .claim(TARGET_CLAIM, targetClaim)
                .workDir(dir.resolve("pods"));
        PodExit exit = pod.run(POD_TIMEOUT);

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        JsonNode result = exit.result();
        assertThat(result.get("finalRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        return result;
    }

    private static long countFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    private static PodExit run(PodTemplate template) {
        return PodRun.of(template)
                .claim(SOURCE_CLAIM, sourceClaim)
                .claim(TARGET_CLAIM, targetClaim)
                .workDir(dir.resolve("pods"))
                .run(POD_TIMEOUT);
    }

    /** The target is a Local bucket on its own claim; a copy's source is the fixture's, on the other. */
    private static String render(String command, String targetContainer, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                command,
                "-n",
                "demo",
                "--etcd",
                "etcd-main",
                "--image",
                podman.image(),
                "--storage-provider",
                "Local",
                "--store-container",
                targetContainer,
                "--store-claim",
                TARGET_CLAIM,
                "--memory-limit",
                "512Mi",
                "--memory-request",
                "512Mi"));
        if (command.equals("copy")) {
            args.addAll(List.of("--source-store-container", SOURCE_CONTAINER, "--source-store-claim", SOURCE_CLAIM));
        }
        args.addAll(List.of(extra));
        return LauncherJar.withoutCluster(dir).render(args.toArray(String[]::new));
    }
}
