package io.etcdworkers.compaction.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.job.WorkerArgs;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
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

/**
 * The launcher's verification Jobs, run as their pods would run them (the container's command
 * and args, with the pod's mounts, {@code /var/etcd-bucket} and {@code /scratch}, pointed at
 * directories here): on a fixture bucket the drill restores and verifies the latest state and
 * the check passes; on a damaged copy both fail with the backup's exit code and name the damage.
 */
@Timeout(300)
class DrillIT {
    private static final String DAMAGED = "Incr-00001751-00002341-1795986610.gz";

    @TempDir
    Path dir;

    @Test
    void theDrillRestoresTheFixtureAndTheCheckPasses() {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket-root"));

        CommandRun drill = runAsThePod(WorkerKind.DRILL, bucket);
        assertThat(drill.exitCode()).as(drill.stderr()).isZero();
        JsonNode state = ExpectedState.stateJson();
        assertThat(drill.result().get("finalRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
        assertThat(drill.result().get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(dir.resolve("scratch/drill/new.etcd")).isDirectory();

        CommandRun check = runAsThePod(WorkerKind.VERIFY, bucket);
        assertThat(check.exitCode()).as(check.stderr()).isZero();
        assertThat(check.result().get("restorable").get("toRevision").asLong()).isEqualTo(3656);
    }

    @Test
    void onADamagedCopyBothFailAndNameTheDamage() throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket-root"));
        damage(bucket.resolve("v2").resolve(DAMAGED));

        CommandRun drill = runAsThePod(WorkerKind.DRILL, bucket);
        assertThat(drill.exitCode()).isEqualTo(12);
        assertThat(drill.result().get("error").asText()).contains(DAMAGED);

        CommandRun check = runAsThePod(WorkerKind.VERIFY, bucket);
        assertThat(check.exitCode()).isEqualTo(12);
        assertThat(check.result().get("restorable").get("toRevision").asLong()).isEqualTo(1750);
        assertThat(check.result().get("restorable").get("stopsBefore").asText()).contains(DAMAGED);
    }

    /** The Job's container, with the pod's mount points here: the bucket's parent and a scratch dir. */
    private CommandRun runAsThePod(WorkerKind kind, Path bucket) {
        JobRequest request = JobRequest.builder(
                        "etcd-main",
                        "shoot--dev",
                        "etcd-workers:test",
                        new StoreRef(
                                StorageProvider.Local, bucket.getFileName().toString(), "", null, null, "bucket-pvc"),
                        JobWork.check(kind))
                .backoffLimit(0)
                .build();
        WorkerPod pod = WorkerPod.of(request);
        List<String> args = new ArrayList<>();
        args.add(pod.command().get(pod.command().size() - 1));
        for (String arg : pod.args()) {
            args.add(
                    arg.replace(WorkerArgs.LOCAL_BUCKET_ROOT, bucket.getParent().toString())
                            .replace("=" + WorkerArgs.SCRATCH_DIR, "=" + dir.resolve("scratch")));
        }
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }

    /** One byte of one value changed inside the delta: its SHA-256 trailer no longer matches. */
    private static void damage(Path delta) throws IOException {
        byte[] content;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(delta))) {
            content = in.readAllBytes();
        }
        String json = new String(content, 0, content.length - 32, StandardCharsets.ISO_8859_1);
        int value = json.indexOf("\"value\":\"", json.length() / 2) + 9;
        content[value] = (byte) (content[value] == 'A' ? 'B' : 'A');
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
            out.write(content);
        }
        Files.write(delta, gz.toByteArray());
    }
}
