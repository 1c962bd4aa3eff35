package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An extract's EncryptionConfiguration reaches the worker as a file from a Secret of its own,
 * mounted read-only with the credentials' mode, under one file name whatever the Secret's key:
 * the worker gets its path, never its content.
 */
@Timeout(30)
class EncryptionConfigMountTest {
    private static final StoreRef S3 = new StoreRef(StorageProvider.S3, "bkt", "", null, "etcd-backup", null);

    @Test
    void theSecretsKeyIsMountedAsTheFileTheWorkerIsGiven() {
        PodSpec pod = pod(ExtractFlags.builder("rescue", "/registry/secrets/")
                .encryptionConfig("apiserver-encryption", "config.yaml")
                .build());
        Container worker = pod.getContainers().get(0);

        assertThat(worker.getArgs())
                .contains("--encryption-config=" + ExtractFlags.ENCRYPTION_CONFIG_FILE)
                .noneMatch(a -> a.contains("apiserver-encryption") || a.contains("config.yaml"));
        Volume volume = pod.getVolumes().stream()
                .filter(v -> v.getName().equals(PodVolumes.ENCRYPTION_CONFIG))
                .findFirst()
                .orElseThrow();
        assertThat(volume.getSecret().getSecretName()).isEqualTo("apiserver-encryption");
        assertThat(volume.getSecret().getDefaultMode()).isEqualTo(0440);
        assertThat(volume.getSecret().getItems()).singleElement().satisfies(item -> {
            assertThat(item.getKey()).isEqualTo("config.yaml");
            assertThat(ExtractFlags.ENCRYPTION_CONFIG_MOUNT_PATH + "/" + item.getPath())
                    .isEqualTo(ExtractFlags.ENCRYPTION_CONFIG_FILE);
        });
        assertThat(worker.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo(PodVolumes.ENCRYPTION_CONFIG);
            assertThat(m.getMountPath()).isEqualTo(ExtractFlags.ENCRYPTION_CONFIG_MOUNT_PATH);
            assertThat(m.getReadOnly()).isTrue();
        });
    }

    @Test
    void withoutTheSecretNothingIsMountedAndTheKeyDefaultsToGardenersWithIt() {
        PodSpec plain = pod(ExtractFlags.builder("rescue", "/registry/secrets/").build());
        assertThat(plain.getVolumes()).noneMatch(v -> v.getName().equals(PodVolumes.ENCRYPTION_CONFIG));
        assertThat(plain.getContainers().get(0).getArgs()).noneMatch(a -> a.startsWith("--encryption-config"));

        assertThat(new ExtractFlags("rescue", null, "/r/", "files", null, null, false, false, "enc", " ")
                        .encryptionConfigKey())
                .isEqualTo("encryption-configuration.yaml");
    }

    @Test
    void aKeyWithoutItsSecretABadNameOrADataDirIsRefusedWhenTheRequestIsMade() {
        assertThatThrownBy(
                        () -> new ExtractFlags("rescue", null, "/r/", null, null, null, false, false, null, "k.yaml"))
                .hasMessage("encryption-config-key names a key of encryption-config-secret: give the Secret too");
        assertThatThrownBy(
                        () -> new ExtractFlags("rescue", null, "/r/", null, null, null, false, false, "Bad_Name", null))
                .hasMessageContaining("encryption config secret");
        assertThatThrownBy(() ->
                        new ExtractFlags("rescue", null, "/r/", null, null, null, false, false, "enc", "a/b.yaml"))
                .hasMessage("encryption config key is not a Secret data key: a/b.yaml");
        assertThatThrownBy(() -> new ExtractFlags("rescue", null, "/r/", "etcd", null, null, false, false, "enc", null))
                .hasMessageContaining("a data dir (output format etcd) keeps them as stored");
    }

    private static PodSpec pod(ExtractFlags flags) {
        JobRequest request = JobRequest.builder("etcd-main", "ns", "img", S3, flags)
                .backoffLimit(1)
                .build();
        return new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC))
                .build(request)
                .getSpec()
                .getTemplate()
                .getSpec();
    }
}
