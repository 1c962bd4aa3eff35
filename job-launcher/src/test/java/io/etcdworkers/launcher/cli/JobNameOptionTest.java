package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
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

/** {@code --job-name}: a fixed name replaces the timestamped one everywhere the name is used. */
@Timeout(30)
class JobNameOptionTest {
    private static final List<String> RESTORE = List.of(
            "restore",
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
            "s",
            "--target-claim",
            "etcd-main-etcd-main-0",
            "--dry-run");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Instant now, String... more) {
        List<String> args = new ArrayList<>(RESTORE);
        args.addAll(List.of(more));
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(now, ZoneOffset.UTC),
                context -> {
                    throw new AssertionError("a dry run must not contact a cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, args.toArray(String[]::new));
    }

    @Test
    void theNameAndTheInstanceLabelsAreTheGivenNameWhateverTheClock() {
        assertThat(run(Instant.parse("2026-11-29T22:00:00Z"), "--job-name", "etcd-main-restore-example"))
                .isZero();
        String first = out.toString();
        out.getBuffer().setLength(0);
        assertThat(run(Instant.parse("2031-01-01T00:00:00Z"), "--job-name", "etcd-main-restore-example"))
                .isZero();
        assertThat(out.toString()).isEqualTo(first);

        Job job = new KubernetesSerialization().unmarshal(first, Job.class);
        assertThat(job.getMetadata().getName()).isEqualTo("etcd-main-restore-example");
        assertThat(job.getMetadata().getLabels()).containsEntry(JobNames.LABEL_INSTANCE, "etcd-main-restore-example");
        assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry(JobNames.LABEL_INSTANCE, "etcd-main-restore-example");
    }

    @Test
    void withoutItTheNameCarriesTheClocksTime() {
        assertThat(run(Instant.parse("2026-11-29T22:00:00Z"))).isZero();
        assertThat(new KubernetesSerialization()
                        .unmarshal(out.toString(), Job.class)
                        .getMetadata()
                        .getName())
                .isEqualTo("etcd-main-restore-20261129-220000");
    }

    @Test
    void aNameThatIsNoDnsLabelExitsTwoAndPrintsNothing() {
        assertThat(run(Instant.parse("2026-11-29T22:00:00Z"), "--job-name", "Etcd_Main"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("Job name must be a DNS label").contains("Etcd_Main");
        assertThat(out.toString()).isEmpty();
        assertThat(run(Instant.parse("2026-11-29T22:00:00Z"), "--job-name", "a".repeat(64)))
                .isEqualTo(2);
    }
}
