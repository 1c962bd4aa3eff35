package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The source store reads etcdbrctl's {@code SOURCE_}-prefixed variables and never the target's credentials. */
class SourceEnvironmentTest {
    @Test
    void theSourceReadsItsOwnVariablesAndNotTheTargets() {
        Map<String, String> source = SourceEnvironment.of(Map.of(
                "HOME", "/home/nonroot",
                "STORAGE_CONTAINER", "target",
                "SOURCE_STORAGE_CONTAINER", "source",
                "AWS_APPLICATION_CREDENTIALS", "/var/etcd-backup",
                "SOURCE_GOOGLE_APPLICATION_CREDENTIALS", "/var/.source-gcp/serviceaccount.json",
                "OS_AUTH_URL", "https://target-keystone",
                "SOURCE_OS_AUTH_URL", "https://source-keystone",
                "OS_REGION_NAME", "eu-1",
                "ECS_ENDPOINT", "https://ecs"));

        assertThat(source)
                .containsEntry("HOME", "/home/nonroot")
                .containsEntry("STORAGE_CONTAINER", "source")
                .containsEntry("GOOGLE_APPLICATION_CREDENTIALS", "/var/.source-gcp/serviceaccount.json")
                .containsEntry("OS_AUTH_URL", "https://source-keystone")
                .containsEntry("OS_REGION_NAME", "eu-1")
                .containsEntry("ECS_ENDPOINT", "https://ecs")
                .doesNotContainKey("AWS_APPLICATION_CREDENTIALS");
    }

    @Test
    void withoutSourceVariablesNoTargetCredentialIsLeft() {
        Map<String, String> source = SourceEnvironment.of(Map.of(
                "AZURE_APPLICATION_CREDENTIALS_JSON", "/var/etcd-backup/abs.json", "OS_USERNAME", "target-user"));

        assertThat(source).isEmpty();
    }
}
