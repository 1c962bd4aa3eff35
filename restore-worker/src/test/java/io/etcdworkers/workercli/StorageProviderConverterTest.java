package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.StorageProviders;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.TypeConversionException;

/** {@code --storage-provider}: etcdbrctl's names, etcd-druid's spellings, and clear refusals. */
class StorageProviderConverterTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({
        "Local, Local",
        "local, Local",
        "S3, S3",
        "s3, S3",
        "aws, S3",
        "stackit, S3",
        "ABS, ABS",
        "abs, ABS",
        "azure, ABS",
        "GCS, GCS",
        "gcs, GCS",
        "gcp, GCS",
        "Swift, Swift",
        "swift, Swift",
        "openstack, Swift",
        "OSS, OSS",
        "oss, OSS",
        "alicloud, OSS",
        "ECS, ECS",
        "ecs, ECS",
        "dell, ECS",
        "OCS, OCS",
        "ocs, OCS",
        "openshift, OCS"
    })
    void acceptsEtcdbrctlsNamesAndEtcdDruidsSpellings(String flag, StoreOptions.Provider expected) {
        assertThat(new StorageProviderConverter().convert(flag)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"Swift", "swift", "openstack"})
    void swiftWithoutCredentialsSaysWhereItLooked(String flag) {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--storage-provider",
                flag,
                "--store-container",
                "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("Swift");
        assertThat(run.result().get("error").asText())
                .contains(
                        "no Swift credentials found; looked in",
                        "OPENSTACK_APPLICATION_CREDENTIALS_JSON",
                        "OPENSTACK_APPLICATION_CREDENTIALS",
                        "OS_AUTH_URL");
    }

    /** etcdbrctl reads an empty provider as Local, and etcd-druid's Jobs may pass one. */
    @Test
    void anEmptyProviderIsLocalAsEtcdbrctlReadsIt() {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--storage-provider=",
                "--store-container",
                "c");

        assertThat(run.result().get("storageProvider").asText()).isEqualTo("Local");
        assertThat(run.exitCode()).isEqualTo(21);
        assertThat(run.result().get("error").asText()).contains("local store container", "does not exist");
    }

    @ParameterizedTest
    @CsvSource({"Azure", "AWS", "Oss", "GCP", "s3x"})
    void anythingElseIsAUsageErrorListingTheSupportedOnes(String flag) {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--storage-provider",
                flag,
                "--store-container",
                "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr())
                .contains(
                        "unknown storage provider \"" + flag + "\"",
                        "supports Local (etcd-druid: "
                                + "local), S3 (aws, stackit), ABS (azure), GCS (gcp), Swift (openstack), OSS (alicloud), ECS (dell) and OCS "
                                + "(openshift)");
    }

    /** Every spelling the launcher renders (the contract's) is one this worker takes, to the same provider. */
    @ParameterizedTest
    @CsvSource({
        "S3",
        "s3",
        "aws",
        "stackit",
        "ABS",
        "abs",
        "azure",
        "GCS",
        "gcs",
        "gcp",
        "Swift",
        "swift",
        "openstack",
        "OSS",
        "oss",
        "alicloud",
        "ECS",
        "ecs",
        "dell",
        "OCS",
        "ocs",
        "openshift",
        "Local",
        "local",
        "Azure",
        "AWS",
        "minio"
    })
    void agreesWithTheContractsMapping(String flag) {
        Optional<String> contract = StorageProviders.etcdbrctlName(flag);
        try {
            assertThat(new StorageProviderConverter().convert(flag).name()).isEqualTo(contract.orElseThrow());
        } catch (TypeConversionException e) {
            assertThat(contract)
                    .as(flag + " is the contract's, so the worker must take it")
                    .isEmpty();
            assertThat(e.getMessage()).contains("unknown storage provider");
        }
    }

    @ParameterizedTest
    @CsvSource({
        "alicloud, OSS, no OSS credentials found; looked in, ALICLOUD_APPLICATION_CREDENTIALS_JSON",
        "ocs, OCS, no OCS credentials found; looked in, OPENSHIFT_APPLICATION_CREDENTIALS",
        "dell, ECS, no ECS credentials: set ECS_ENDPOINT, ECS_SECRET_ACCESS_KEY"
    })
    void anS3CompatibleProviderWithoutCredentialsSaysWhereItLooked(
            String flag, String name, String message, String variable) {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--storage-provider",
                flag,
                "--store-container",
                "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo(name);
        assertThat(run.result().get("error").asText()).contains(message, variable);
    }

    @ParameterizedTest
    @CsvSource({"azure", "ABS"})
    void theResultNamesTheProviderByEtcdbrctlsName(String flag) {
        // No credentials: the run fails, but its result still says which store it meant.
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--storage-provider",
                flag,
                "--store-container",
                "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("ABS");
        assertThat(run.result().get("error").asText())
                .contains(
                        "no ABS credentials found; looked in",
                        "AZURE_APPLICATION_CREDENTIALS_JSON",
                        "AZURE_APPLICATION_CREDENTIALS");
    }

    @ParameterizedTest
    @CsvSource({"gcp", "GCS"})
    void theResultNamesGcsAndTheCredentialsFileItCouldNotRead(String flag) {
        // A credentials file that is not there: exit 2 before any request (no ambient lookup either).
        Path missing = dir.resolve("var/.gcp/serviceaccount.json");
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("GOOGLE_APPLICATION_CREDENTIALS", missing.toString()),
                dir,
                "verify-backup",
                "--storage-provider",
                flag,
                "--store-container",
                "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("GCS");
        assertThat(run.result().get("error").asText()).contains("GCS credentials " + missing, "cannot be read");
    }
}
