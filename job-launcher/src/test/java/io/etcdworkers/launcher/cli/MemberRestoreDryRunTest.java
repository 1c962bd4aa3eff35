package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.schema.validator.ValidationMessage;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code restore --member-claims}: one Job per member of {@code --initial-cluster}, each valid
 * against the Kubernetes schema, named apart, into its own claim under its own name and peer URL;
 * a request that does not name every member exactly is refused before anything is printed.
 */
@Timeout(120)
class MemberRestoreDryRunTest {
    private static final List<String> BASE = List.of(
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
            "etcd-backup",
            "--dry-run",
            "--initial-cluster",
            "etcd-main-0=http://etcd-main-0.etcd-main-peer.demo.svc:2380,etcd-main-1=http://etcd-main-1.etcd-main-peer.demo.svc:2380");

    @Test
    void everyMemberGetsAValidJobOfItsOwn() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LauncherCli.execute(
                context(out, err),
                args("--member-claims", "etcd-main-0=etcd-main-etcd-main-0,etcd-main-1=etcd-main-etcd-main-1"));

        assertThat(code).as(err.toString()).isZero();
        List<String> docs = Arrays.stream(out.toString().split("(?m)^---\\s*$"))
                .filter(d -> !d.isBlank())
                .toList();
        assertThat(docs).hasSize(2);
        Validator validator = Validator.newInstance();
        for (int i = 0; i < 2; i++) {
            String doc = docs.get(i);
            assertThat(validator.validate(doc).getMessages())
                    .as("member %d", i)
                    .noneMatch(m -> m.getLevel() == ValidationMessage.Level.ERROR);
            Job job = new KubernetesSerialization().unmarshal(doc, Job.class);
            assertThat(job.getMetadata().getName()).startsWith("etcd-main-restore-etcd-main-" + i + "-");
            assertThat(job.getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getArgs())
                    .contains(
                            "--name=etcd-main-" + i,
                            "--initial-advertise-peer-urls=http://etcd-main-" + i + ".etcd-main-peer.demo.svc:2380");
        }
    }

    @Test
    void theCliPrintsTheFactorysMemberJobsAsTheGoldenFileHasThem() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String peers = "etcd-main-0=https://etcd-main-0.etcd-main-peer.shoot--prod--main.svc:2380,"
                + "etcd-main-1=https://etcd-main-1.etcd-main-peer.shoot--prod--main.svc:2380,"
                + "etcd-main-2=https://etcd-main-2.etcd-main-peer.shoot--prod--main.svc:2380";

        int code = LauncherCli.execute(
                context(out, err),
                "restore",
                "-n",
                "shoot--prod--main",
                "--etcd",
                "etcd-main",
                "--image",
                "registry.example/etcd-workers:0.1.0",
                "--storage-provider",
                "S3",
                "--store-container",
                "shoot--prod--main--3f7a1c",
                "--store-prefix",
                "shoot--prod--main--3f7a1c/etcd-main",
                "--store-secret",
                "etcd-backup",
                "--gardener-network-labels",
                "--initial-cluster",
                peers,
                "--initial-cluster-token",
                "etcd-cluster",
                "--member-claims",
                "etcd-main-0=etcd-main-etcd-main-0,etcd-main-1=etcd-main-etcd-main-1,etcd-main-2=etcd-main-etcd-main-2",
                "--dry-run");

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .isEqualTo(Files.readString(
                        Path.of("src/test/resources/JobFactoryTest/members-gardener/out.yaml"),
                        StandardCharsets.UTF_8));
    }

    @Test
    void claimsThatDoNotNameEveryMemberExactlyAreRefused() {
        for (String[] extra : new String[][] {
            {"--member-claims", "etcd-main-0=c0"},
            {"--member-claims", "etcd-main-0=c0,etcd-main-1=c1,etcd-main-2=c2"},
            {"--member-claims", "etcd-main-0=c0,etcd-main-1=c1", "--target-claim", "c0"},
            {"--member-claims", "etcd-main-0=c0,etcd-main-1=c1", "--name", "etcd-main-0"}
        }) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();

            int code = LauncherCli.execute(context(out, err), args(extra));

            assertThat(code).as(String.join(" ", extra)).isEqualTo(2);
            assertThat(out.toString()).isEmpty();
            assertThat(err.toString()).contains("--member-claims");
        }
    }

    private static String[] args(String... extra) {
        List<String> all = new ArrayList<>(BASE);
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    private static CliContext context(StringWriter out, StringWriter err) {
        return new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> {
                    throw new AssertionError("a dry run needs no cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
    }
}
