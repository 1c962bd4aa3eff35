package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.schema.validator.ValidationMessage;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code verify}: the check and the drill as a Job and as a CronJob, each valid against the Kubernetes schema. */
@Timeout(120)
class VerifyDryRunTest {
    private static final List<String> BASE = List.of(
            "verify",
            "-n",
            "demo",
            "--etcd",
            "etcd-main",
            "--image",
            "img:1",
            "--storage-provider",
            "S3",
            "--store-container",
            "bkt",
            "--store-secret",
            "etcd-backup",
            "--dry-run");

    @Test
    void theCheckReadsTheBucketWithNoScratchDirAndTheDrillRestoresIntoTheScratchVolume() throws IOException {
        Job check = new KubernetesSerialization().unmarshal(dryRun(), Job.class);
        List<String> checkCommand =
                check.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        assertThat(checkCommand).endsWith("/app/restore-worker.jar", "verify-backup");
        assertThat(check.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .containsExactly("--storage-provider=S3", "--store-container=bkt");
        assertThat(check.getMetadata().getName()).startsWith("etcd-main-verify-");

        Job drill = new KubernetesSerialization().unmarshal(dryRun("--drill"), Job.class);
        assertThat(drill.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getCommand())
                .endsWith("/app/restore-worker.jar", "restore");
        assertThat(drill.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .contains("--scratch-dir=/scratch", "--data-dir=/scratch/drill/new.etcd");
        assertThat(drill.getSpec().getTemplate().getSpec().getVolumes())
                .noneMatch(v -> v.getPersistentVolumeClaim() != null);
    }

    @Test
    void onAScheduleItIsACronJobOfItsOwn() throws IOException {
        String yaml = dryRun("--drill", "--schedule", "43 3 * * *", "--time-zone", "Europe/Berlin");
        CronJob cron = new KubernetesSerialization().unmarshal(yaml, CronJob.class);

        assertThat(cron.getMetadata().getName()).isEqualTo("etcd-main-drill");
        assertThat(cron.getSpec().getSchedule()).isEqualTo("43 3 * * *");
        assertThat(cron.getSpec()
                        .getJobTemplate()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .contains("--data-dir=/scratch/drill/new.etcd")
                .noneMatch(a -> a.startsWith("--min-delta"));
    }

    private static String dryRun(String... extra) throws IOException {
        List<String> args = new ArrayList<>(BASE);
        args.addAll(List.of(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LauncherCli.execute(
                new CliContext(
                        Map.of(),
                        Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                        c -> {
                            throw new AssertionError("a dry run needs no cluster");
                        },
                        new PrintWriter(out, true),
                        new PrintWriter(err, true)),
                args.toArray(String[]::new));
        assertThat(code).as(err.toString()).isZero();
        assertThat(Validator.newInstance().validate(out.toString()).getMessages())
                .noneMatch(m -> m.getLevel() == ValidationMessage.Level.ERROR);
        return out.toString();
    }
}
