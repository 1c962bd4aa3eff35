package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.auth.Retryable;
import com.google.cloud.storage.StorageException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.gcs.GcsErrorTranslator.Target;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the GCS SDK's failures mean for the exit code: decided by type and HTTP status, the
 * message naming the store, the action and the service's reason. The answers the emulator
 * cannot give (401, 403, 429, a token service that refuses) are checked here.
 */
class GcsErrorTranslatorTest {
    private static final String STORE = "gcs bucket \"b\" at https://storage.googleapis.com";
    private final GcsErrorTranslator errors = new GcsErrorTranslator(STORE);

    @ParameterizedTest
    @CsvSource({
        "404, BUCKET, STORE_NOT_FOUND, the bucket does not exist",
        "404, OBJECT, OBJECT_VANISHED, the object does not exist",
        "412, OBJECT, OBJECT_VANISHED, the object changed while it was read",
        "401, BUCKET, STORE_NOT_FOUND, access denied: the credentials were not accepted",
        "403, OBJECT, STORE_NOT_FOUND, access denied: these credentials may not use the bucket",
        "416, OBJECT, TRUNCATED_OBJECT, the range lies beyond the object's end",
        "429, BUCKET, STORE_UNAVAILABLE, kept failing or throttling",
        "503, OBJECT, STORE_UNAVAILABLE, kept failing or throttling",
        "400, BUCKET, UNEXPECTED, the store refused the request"
    })
    void anAnswerIsClassifiedByItsStatus(int status, Target target, ErrorCode code, String reason) {
        StorageException e =
                new StorageException(status, "caller does not have storage.objects.get access", "forbidden", null);

        WorkerException translated = errors.translate(e, "reading \"p/v2/Full-1\"", target);

        assertThat(translated.code()).isEqualTo(code);
        assertThat(translated.getMessage())
                .startsWith(STORE + ": reading \"p/v2/Full-1\" failed: ")
                .contains(reason, "HTTP " + status, "forbidden", "storage.objects.get access");
        assertThat(translated.getCause()).isSameAs(e);
    }

    @Test
    void noAnswerAtAllIsAStoreThatCouldNotBeReached() {
        StorageException e = new StorageException(new ConnectException("Connection refused"));

        WorkerException translated = errors.translate(e, "listing \"p/\"", Target.BUCKET);

        assertThat(translated.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(translated.getMessage())
                .contains(STORE, "could not be reached", "ConnectException: Connection refused");
    }

    @Test
    void aTokenServiceThatRefusesTheCredentialsIsAccessDeniedAndOneThatFailsIsUnavailable() {
        WorkerException refused = errors.translate(
                new StorageException(new TokenFailure(
                        false, "Error getting access token for service account: 400 Bad Request, invalid_grant")),
                "listing \"p/\"",
                Target.BUCKET);
        WorkerException failing = errors.translate(
                new StorageException(new TokenFailure(
                        true, "Error getting access token for service account: 503 Service Unavailable")),
                "listing \"p/\"",
                Target.BUCKET);

        assertThat(refused.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
        assertThat(refused.getMessage()).contains("Google's token service refused the credentials", "invalid_grant");
        assertThat(failing.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(failing.getMessage()).contains("kept failing after retries");
    }

    @Test
    void aWorkerExceptionPassesAsItIsAndAnythingElseIsUnexpected() {
        WorkerException already = new WorkerException(ErrorCode.TRUNCATED_OBJECT, "cut");

        assertThat(errors.translate(already, "x", Target.OBJECT)).isSameAs(already);
        assertThat(errors.translate(new IllegalStateException("bug"), "x", Target.OBJECT)
                        .code())
                .isEqualTo(ErrorCode.UNEXPECTED);
    }

    @Test
    void aServiceMessageIsShortenedToOneLine() {
        String body = "line one\n" + "x".repeat(1000);

        assertThat(GcsErrorTranslator.shorten(body))
                .startsWith("line one x")
                .endsWith("...")
                .hasSize(243);
    }

    /** What the auth library throws when a token request fails: an IOException that says if a retry could help. */
    private static final class TokenFailure extends IOException implements Retryable {
        private static final long serialVersionUID = 1L;
        private final boolean retryable;

        TokenFailure(boolean retryable, String message) {
            super(message);
            this.retryable = retryable;
        }

        @Override
        public boolean isRetryable() {
            return retryable;
        }

        @Override
        public int getRetryCount() {
            return 0;
        }
    }
}
