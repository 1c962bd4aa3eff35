package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.auth.Credentials;
import com.google.auth.oauth2.ExternalAccountCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.NoCredentials;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.gcs.GcsCredentialFile.Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a resolved {@link GcsCredentials} becomes the SDK's credentials: nothing for an emulator,
 * the checked file through the loader of its own type (never the SDK's any-type
 * {@code GoogleCredentials.fromStream}), and a key the SDK cannot load is a usage error that
 * does not quote it. Loading sends no request (a token is fetched on the first call); the
 * ambient case is not loaded here, since the SDK would ask the metadata server.
 */
class GcsCredentialsTest {
    @TempDir
    Path dir;

    @Test
    void anEmulatorGetsNoCredentials() {
        assertThat(GcsClientFactory.credentials(GcsCredentials.anonymous("test")))
                .isSameAs(NoCredentials.getInstance());
    }

    @Test
    void aServiceAccountKeyIsLoadedAsOne() throws Exception {
        Path file = Files.writeString(
                dir.resolve("serviceaccount.json"),
                GcsCredentialFileReaderTest.serviceAccount("my-project-1", "")
                        .replace(GcsCredentialFileReaderTest.PRIVATE_KEY, pemPrivateKey()));

        Credentials loaded = GcsClientFactory.credentials(GcsCredentials.file(GcsCredentialFileReader.read(file)));

        assertThat(loaded).isInstanceOfSatisfying(ServiceAccountCredentials.class, sa -> {
            assertThat(sa.getClientEmail()).isEqualTo("sa@my-project-1.iam.gserviceaccount.com");
            assertThat(sa.getProjectId()).isEqualTo("my-project-1");
        });
    }

    @Test
    void aWorkloadIdentityConfigurationIsLoadedAsAnExternalAccount() throws IOException {
        Files.writeString(dir.resolve("projectID"), "my-project-1");
        Files.writeString(dir.resolve("token"), "eyJhbGciOi...");
        Path file = Files.writeString(
                dir.resolve("serviceaccount.json"),
                GcsCredentialFileReaderTest.externalAccount(dir.resolve("token").toString(), ""));

        Credentials loaded = GcsClientFactory.credentials(GcsCredentials.file(GcsCredentialFileReader.read(file)));

        assertThat(loaded).isInstanceOf(ExternalAccountCredentials.class);
    }

    @Test
    void aKeyTheSdkCannotLoadIsAUsageErrorThatDoesNotQuoteIt() throws IOException {
        Path file = Files.writeString(
                dir.resolve("serviceaccount.json"), GcsCredentialFileReaderTest.serviceAccount("my-project-1", ""));
        GcsCredentials credentials =
                GcsCredentials.file(new GcsCredentialFile(file, Type.SERVICE_ACCOUNT, "my-project-1"));

        assertThatThrownBy(() -> GcsClientFactory.credentials(credentials))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(file.toString(), "service_account", "could not be loaded", "private_key")
                            .doesNotContain("TUlJRXZR");
                });
    }

    private static String pemPrivateKey() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        // PEM's lines, with the line breaks escaped as they are inside a JSON string.
        String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                .replace("\n", "\\n");
        return "-----BEGIN PRIVATE KEY-----\\n" + base64 + "\\n-----END PRIVATE KEY-----\\n";
    }
}
