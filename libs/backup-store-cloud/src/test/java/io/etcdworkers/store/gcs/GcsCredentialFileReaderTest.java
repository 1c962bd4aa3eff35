package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.gcs.GcsCredentialFile.Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The checks etcdbrctl v0.41's {@code validateGCSCredential} makes of the file
 * {@code GOOGLE_APPLICATION_CREDENTIALS} names, made here the same way: a service account key,
 * or Gardener's workload identity layout (an {@code external_account} configuration with
 * {@code token} and {@code projectID} beside it); anything else is a usage error that names the file and never
 * quotes the key.
 */
class GcsCredentialFileReaderTest {
    static final String PRIVATE_KEY =
            "-----BEGIN PRIVATE KEY-----\\nTUlJRXZRSUJBREFOQmdrcWhraUc5dzBC\\n" + "-----END PRIVATE KEY-----\\n";

    @TempDir
    Path dir;

    @Test
    void aServiceAccountKeyAsEtcdDruidMountsItIsAccepted() throws IOException {
        Path file = write("serviceaccount.json", serviceAccount("my-project-1", ""));

        GcsCredentialFile read = GcsCredentialFileReader.read(file);

        assertThat(read).isEqualTo(new GcsCredentialFile(file, Type.SERVICE_ACCOUNT, "my-project-1"));
    }

    @Test
    void aServiceAccountKeyWithAKeyOfAnotherKindIsRefused() throws IOException {
        Path file = write(
                "serviceaccount.json",
                serviceAccount("my-project-1", ",\"credential_source\":{\"executable\":{\"command\":\"/bin/sh\"}}"));

        assertUsage(file, "has keys a service account key does not have: credential_source");
    }

    @ParameterizedTest
    @CsvSource({"''", "My-Project", "abc", "1project", "project-", "a-project-id-that-is-far-too-long-for-gcp"})
    void aServiceAccountKeyMustNameAProjectId(String projectId) throws IOException {
        Path file = write("serviceaccount.json", serviceAccount(projectId, ""));

        assertUsage(file, "has project_id \"" + projectId + "\", which is not a project id");
    }

    @Test
    void gardenersWorkloadIdentityLayoutIsAccepted() throws IOException {
        write("projectID", "my-project-1\n");
        write("token", "eyJhbGciOi...");
        Path file = write(
                "serviceaccount.json", externalAccount(dir.resolve("token").toString(), ""));

        GcsCredentialFile read = GcsCredentialFileReader.read(file);

        assertThat(read).isEqualTo(new GcsCredentialFile(file, Type.EXTERNAL_ACCOUNT, "my-project-1"));
    }

    @Test
    void aWorkloadIdentityConfigurationMayImpersonateThroughGooglesIamOnly() throws IOException {
        write("projectID", "my-project-1");
        String token = dir.resolve("token").toString();
        Path good = write(
                "serviceaccount.json",
                externalAccount(
                        token,
                        ",\"service_account_impersonation_url\":"
                                + "\"https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/sa@p.iam.gserviceaccount.com"
                                + ":generateAccessToken\""));
        assertThat(GcsCredentialFileReader.read(good).type()).isEqualTo(Type.EXTERNAL_ACCOUNT);

        Path bad = write(
                "serviceaccount.json",
                externalAccount(
                        token,
                        ",\"service_account_impersonation_url\":"
                                + "\"https://attacker.example/v1/projects/-/serviceAccounts/x:generateAccessToken\""));
        assertUsage(bad, "has a service_account_impersonation_url that is not");
    }

    @Test
    void aWorkloadIdentityConfigurationMustReadTheTokenBesideIt() throws IOException {
        write("projectID", "my-project-1");

        assertUsage(write("serviceaccount.json", externalAccount("/etc/shadow", "")), "must have credential_source");
        assertUsage(
                write(
                        "serviceaccount.json",
                        externalAccount(dir.resolve("token").toString(), "")
                                .replace("\"format\":{\"type\":\"text\"}", "\"format\":{\"type\":\"json\"}")),
                "must have credential_source");
    }

    @Test
    void aWorkloadIdentityConfigurationMustUseGooglesTokenService() throws IOException {
        write("projectID", "my-project-1");
        Path file = write(
                "serviceaccount.json",
                externalAccount(dir.resolve("token").toString(), "")
                        .replace("https://sts.googleapis.com/v1/token", "https://sts.example/v1/token"));

        assertUsage(file, "must have token_url \"https://sts.googleapis.com/v1/token\"");
    }

    @Test
    void aWorkloadIdentityConfigurationNeedsItsProjectIdFileAndItsKeys() throws IOException {
        Path file = write(
                "serviceaccount.json", externalAccount(dir.resolve("token").toString(), ""));
        assertUsage(file, "is a workload identity configuration, but " + dir.resolve("projectID") + " cannot be read");

        write("projectID", "my-project-1");
        assertUsage(
                write(
                        "serviceaccount.json",
                        externalAccount(dir.resolve("token").toString(), "")
                                .replace("\"universe_domain\":\"googleapis.com\",", "")),
                "lacks universe_domain");
        assertUsage(
                write(
                        "serviceaccount.json",
                        externalAccount(dir.resolve("token").toString(), ",\"quota_project_id\":\"x\"")),
                "may not have: quota_project_id");
    }

    @ParameterizedTest
    @CsvSource({"authorized_user", "impersonated_service_account", "''"})
    void otherCredentialTypesAreRefusedAsEtcdbrctlRefusesThem(String type) throws IOException {
        Path file = write("serviceaccount.json", "{\"type\":\"" + type + "\",\"refresh_token\":\"secret-token\"}");

        assertUsage(file, "has type \"" + type + "\"; only \"service_account\" and \"external_account\" are accepted");
    }

    @Test
    void aFileThatIsNotJsonIsNamedWithoutQuotingIt() throws IOException {
        Path file =
                write("serviceaccount.json", "{\"type\":\"service_account\",\"private_key\":\"" + PRIVATE_KEY + "\"");

        assertThatThrownBy(() -> GcsCredentialFileReader.read(file))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(file.toString(), "is not valid JSON")
                            .doesNotContain("TUlJRXZR");
                });
        assertUsage(dir.resolve("absent.json"), "cannot be read (NoSuchFileException)");
    }

    static String serviceAccount(String projectId, String extra) {
        return "{\"type\":\"service_account\",\"project_id\":\"" + projectId + "\",\"private_key_id\":\"k1\","
                + "\"private_key\":\"" + PRIVATE_KEY + "\",\"client_email\":\"sa@" + projectId
                + ".iam.gserviceaccount.com\",\"client_id\":\"1\",\"auth_uri\":\"https://accounts.google.com/o/oauth2/auth\","
                + "\"token_uri\":\"https://oauth2.googleapis.com/token\",\"universe_domain\":\"googleapis.com\"" + extra
                + "}";
    }

    static String externalAccount(String tokenFile, String extra) {
        return "{\"type\":\"external_account\",\"audience\":\"//iam.googleapis.com/projects/1/locations/global/"
                + "workloadIdentityPools/p/providers/q\",\"subject_token_type\":\"urn:ietf:params:oauth:token-type:jwt\","
                + "\"token_url\":\"https://sts.googleapis.com/v1/token\",\"universe_domain\":\"googleapis.com\","
                + "\"credential_source\":{\"file\":\"" + tokenFile + "\",\"format\":{\"type\":\"text\"}}" + extra + "}";
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static void assertUsage(Path file, String message) {
        assertThatThrownBy(() -> GcsCredentialFileReader.read(file))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .startsWith("GCS credentials " + file + " ")
                            .contains(message)
                            .doesNotContain("TUlJRXZR", "secret-token");
                });
    }
}
