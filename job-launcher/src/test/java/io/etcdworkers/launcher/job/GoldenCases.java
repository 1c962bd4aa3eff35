package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The golden cases under {@code src/test/resources/JobFactoryTest/<case>/}: {@code in-request.yaml}
 * (a {@link JobRequest}, or a {@link CronJobRequest} for {@code cronjob-*} cases) renders to
 * {@code out.yaml}.
 *
 * <p>Regenerate after an intended change with
 * {@code mvn -pl job-launcher -am test -Dtest=JobFactoryTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dgolden.update=true} (-am: the launcher builds on worker-contract), then review the diff.
 */
final class GoldenCases {
    static final Path ROOT = Path.of("src", "test", "resources", "JobFactoryTest");
    static final Instant NOW = Instant.parse("2026-11-29T22:00:00Z");
    static final boolean UPDATE = Boolean.getBoolean("golden.update");

    // strict on input too: a misspelt field in a case must fail, not be silently dropped
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private GoldenCases() {}

    static Stream<String> names() {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The case's rendered objects: a Job, or a CronJob for {@code cronjob-*} cases, or one Job per member
     * for {@code members-*} cases.
     */
    static List<HasMetadata> render(String name) {
        Path in = ROOT.resolve(name).resolve("in-request.yaml");
        JobFactory jobs = new JobFactory(Clock.fixed(NOW, ZoneOffset.UTC));
        try {
            if (name.startsWith("cronjob-")) {
                return List.of(new CronJobFactory(jobs)
                        .build(YAML.readValue(in.toFile(), GoldenRequest.Cron.class)
                                .toRequest()));
            }
            if (name.startsWith("members-")) {
                return List.copyOf(jobs.build(
                        YAML.readValue(in.toFile(), GoldenRequest.Members.class).toRequest()));
            }
            return List.of(
                    jobs.build(YAML.readValue(in.toFile(), GoldenRequest.class).toRequest()));
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalStateException("cannot read " + in + ": " + e.getMessage(), e);
        }
    }

    /** The objects as one YAML stream, as {@code --dry-run} prints them. */
    static String yaml(List<HasMetadata> resources) {
        return resources.stream().map(SERIALIZATION::asYaml).collect(Collectors.joining());
    }

    static String yaml(Object resource) {
        return SERIALIZATION.asYaml(resource);
    }

    static Path expected(String name) {
        return ROOT.resolve(name).resolve("out.yaml");
    }
}
