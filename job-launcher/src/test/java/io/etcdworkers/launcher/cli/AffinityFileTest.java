package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --affinity-file}: the pod's affinity from a file, refused (exit 2) when it is not one. */
@Timeout(30)
class AffinityFileTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Path affinity) {
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.systemUTC(),
                c -> {
                    throw new AssertionError("a dry run builds no client");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(
                ctx,
                "compact",
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
                "--dry-run",
                "--job-name",
                "etcd-main-compaction-now",
                "--affinity-file",
                affinity.toString());
    }

    @Test
    void theAffinityInTheFileIsThePods() throws IOException {
        Path file = Files.writeString(dir.resolve("affinity.yaml"), """
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms:
                    - matchExpressions:
                      - {key: topology.kubernetes.io/zone, operator: In, values: [eu-central-1a]}
                """);
        assertThat(run(file)).as(err.toString()).isZero();
        Job job = new KubernetesSerialization().unmarshal(out.toString(), Job.class);
        assertThat(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getAffinity()
                        .getNodeAffinity()
                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getNodeSelectorTerms()
                        .get(0)
                        .getMatchExpressions()
                        .get(0)
                        .getValues())
                .containsExactly("eu-central-1a");
    }

    @Test
    void aFileThatIsNotAnAffinityIsAUsageError() throws IOException {
        Path file = Files.writeString(dir.resolve("typo.yaml"), "nodeAfinity: {}\n");
        assertThat(run(file)).isEqualTo(2);
        assertThat(err.toString())
                .contains("affinity has fields other than nodeAffinity, podAffinity, podAntiAffinity: [nodeAfinity]");
        assertThat(run(dir.resolve("missing.yaml"))).isEqualTo(2);
        assertThat(err.toString()).contains("cannot read --affinity-file");
        assertThat(out.toString()).isEmpty();
    }
}
