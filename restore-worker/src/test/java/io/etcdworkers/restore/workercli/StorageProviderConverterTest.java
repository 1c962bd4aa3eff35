package io.etcdworkers.restore.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --storage-provider}: etcdbrctl's names, etcd-druid's spellings, and clear refusals. */
class StorageProviderConverterTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"Local, Local", "local, Local", "S3, S3", "aws, S3", "stackit, S3", "ABS, ABS", "azure, ABS", "GCS, GCS",
        "gcp, GCS"})
    void acceptsEtcdbrctlsNamesAndEtcdDruidsSpellings(String flag, StoreOptions.Provider expected) {
        assertThat(new StorageProviderConverter().convert(flag)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"Swift, Swift, openstack", "openstack, Swift, openstack",
        "OSS, OSS, alicloud", "alicloud, OSS, alicloud", "ECS, ECS, dell", "dell, ECS, dell",
        "OCS, OCS, openshift", "openshift, OCS, openshift"})
    void providersNotYetSupportedAreUsageErrorsSayingWhatIs(String flag, String name, String druid) {
        CommandRun run = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, Map.of(), dir,
                "verify-backup", "--storage-provider", flag, "--store-container", "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("the " + name + " provider (etcd-druid: " + druid
                + ") is not supported by this version", "supports Local (etcd-druid: local), S3 (aws, stackit), ABS (azure) and GCS (gcp)");
    }

    @ParameterizedTest
    @CsvSource({"abs", "Azure", "s3x", "gcs", "GCP", "''"})
    void anythingElseIsAUsageErrorListingTheSupportedOnes(String flag) {
        CommandRun run = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, Map.of(), dir,
                "verify-backup", "--storage-provider", flag, "--store-container", "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("unknown storage provider \"" + flag + "\"", "ABS (azure)");
    }

    @ParameterizedTest
    @CsvSource({"azure", "ABS"})
    void theResultNamesTheProviderByEtcdbrctlsName(String flag) {
        // No credentials: the run fails, but its result still says which store it meant.
        CommandRun run = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, Map.of(), dir,
                "verify-backup", "--storage-provider", flag, "--store-container", "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("ABS");
        assertThat(run.result().get("error").asText()).contains("no ABS credentials found; looked in",
                "AZURE_APPLICATION_CREDENTIALS_JSON", "AZURE_APPLICATION_CREDENTIALS");
    }

    @ParameterizedTest
    @CsvSource({"gcp", "GCS"})
    void theResultNamesGcsAndTheCredentialsFileItCouldNotRead(String flag) {
        // A credentials file that is not there: exit 2 before any request (no ambient lookup either).
        Path missing = dir.resolve("var/.gcp/serviceaccount.json");
        CommandRun run = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run,
                Map.of("GOOGLE_APPLICATION_CREDENTIALS", missing.toString()), dir,
                "verify-backup", "--storage-provider", flag, "--store-container", "c");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("GCS");
        assertThat(run.result().get("error").asText()).contains("GCS credentials " + missing, "cannot be read");
    }
}
